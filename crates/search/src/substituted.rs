//! Tests made by writing a new input-to-state substitution into the test
//! whose run showed it (Aschermann et al., "REDQUEEN: Fuzzing with
//! Input-to-State Correspondence", NDSS 2019, section 3.1: the pattern of
//! each comparison is replaced in the input it was observed on, and the
//! result runs at once).
//!
//! The pools of substitutions (`crate::input_to_state`) reach the tests
//! only through string and number mutation, on whichever test is mutated
//! and among every substitution whose seen side occurs in it. A parser
//! that compares its input's tokens with keywords one after another
//! (`%YAML`, then the version, then `%TAG`) needs each step written into
//! the test that got that far; a test that covered a goal no test had
//! covered (as REDQUEEN does it for the inputs that enter its queue) and
//! shows a comparison with a new wanted value gets it here, straight away,
//! and the next step shows up in the run of the result. Offering every
//! test's pairs instead spends runs on loop counters and on the pairs of
//! tests that reached nothing new (xz's `IndexHash` covered 14 of 26
//! branches so in one run, against 21 and 22 otherwise).
//! [`Substituted`] keeps those tests until the search takes them as
//! offspring (`crate::mosa`).

use std::collections::{HashMap, VecDeque};

use testcase::{StatementKind, TestCase};

/// One substitution, oriented (seen, wanted): text written over an
/// occurrence in a string literal, or an integral literal replaced.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Pair {
    /// `seen` occurs in a string literal; `wanted` goes in its place.
    Text(String, String),
    /// An integral literal equals `seen`; it becomes `wanted`.
    Number(i64, i64),
}

/// Tests made by applying a pair to the test that showed it, waiting to run.
#[derive(Debug, Default)]
pub(crate) struct Substituted {
    /// How many tests were made for each wanted text.
    text_tries: HashMap<String, u8>,
    /// How many tests were made for each wanted number.
    number_tries: HashMap<i64, u8>,
    /// The tests made and not yet taken, oldest first.
    pending: VecDeque<TestCase>,
}

/// Tests made for one wanted value at most: the first test to show it may
/// fail on something else, a later one gets another chance.
const MAX_TRIES: u8 = 2;
/// Tests made from one test's run at most.
const MAX_PER_TEST: usize = 4;
/// Tests waiting at most; more are not made until some are taken.
const MAX_PENDING: usize = 32;
/// Wanted values remembered at most; beyond, the memory starts again.
const MAX_WANTED: usize = 4096;

impl Substituted {
    /// Makes a test for each of `pairs` (observed in the run of `test`)
    /// whose wanted value has had fewer than [`MAX_TRIES`] tests, at most
    /// [`MAX_PER_TEST`], while fewer than [`MAX_PENDING`] wait.
    pub(crate) fn offer(&mut self, test: &TestCase, pairs: &[Pair]) {
        let mut made = 0;
        for pair in pairs {
            if made == MAX_PER_TEST || self.pending.len() >= MAX_PENDING {
                return;
            }
            let tries = match pair {
                Pair::Text(_, w) => self.text_tries.get(w.as_str()),
                Pair::Number(_, w) => self.number_tries.get(w),
            };
            if tries.is_some_and(|&n| n >= MAX_TRIES) {
                continue;
            }
            let Some(new) = apply(test, pair) else { continue };
            if self.text_tries.len() + self.number_tries.len() >= MAX_WANTED {
                self.text_tries.clear();
                self.number_tries.clear();
            }
            match pair {
                Pair::Text(_, w) => *self.text_tries.entry(w.clone()).or_default() += 1,
                Pair::Number(_, w) => *self.number_tries.entry(*w).or_default() += 1,
            }
            self.pending.push_back(new);
            made += 1;
        }
    }

    /// Up to `max` waiting tests, oldest first.
    pub(crate) fn take(&mut self, max: usize) -> Vec<TestCase> {
        let n = max.min(self.pending.len());
        self.pending.drain(..n).collect()
    }
}

/// `test` with `pair` applied to its first literal that shows the seen
/// side (the first occurrence in a string); `None` when none does, or the
/// wanted number does not fit the literal's type.
fn apply(test: &TestCase, pair: &Pair) -> Option<TestCase> {
    let at = test.statements.iter().position(|s| shows(&s.kind, pair))?;
    let mut out = test.clone();
    match (&mut out.statements[at].kind, pair) {
        (StatementKind::String(text), Pair::Text(seen, wanted)) => *text = text.replacen(seen.as_str(), wanted, 1),
        (StatementKind::Primitive(p) | StatementKind::Boxed(p), Pair::Number(_, wanted)) => {
            *p = p.with_integral(*wanted)?;
        }
        _ => return None,
    }
    Some(out)
}

/// Whether the literal `kind` shows the seen side of `pair`.
fn shows(kind: &StatementKind, pair: &Pair) -> bool {
    match (kind, pair) {
        (StatementKind::String(text), Pair::Text(seen, _)) => !seen.is_empty() && text.contains(seen.as_str()),
        (StatementKind::Primitive(p) | StatementKind::Boxed(p), Pair::Number(seen, _)) => {
            p.integral_views().any(|v| v == *seen)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parser_test() -> TestCase {
        let mut t = testcase::TestCaseBuilder::new();
        t.int(7);
        t.string("%ABC 1.1\n--- x");
        t.build()
    }

    fn literals(test: &TestCase) -> Vec<String> {
        test.statements.iter().map(|s| format!("{:?}", s.kind)).collect()
    }

    #[test]
    fn a_pair_is_written_into_the_test_that_showed_it() {
        let mut direct = Substituted::default();
        let test = parser_test();
        let pairs = [
            Pair::Text("ABC".into(), "YAML".into()),
            Pair::Number(7, 300),
            Pair::Text("absent".into(), "never".into()),
            Pair::Number(8, 1),
        ];
        direct.offer(&test, &pairs);
        let made = direct.take(10);
        assert_eq!(made.len(), 2, "only the pairs the test shows");
        assert!(literals(&made[0]).iter().any(|l| l.contains("%YAML 1.1")), "{:?}", literals(&made[0]));
        assert!(literals(&made[1]).iter().any(|l| l.contains("300")), "{:?}", literals(&made[1]));
        assert!(direct.take(10).is_empty(), "taken");
    }

    #[test]
    fn each_wanted_value_gets_two_tests_and_a_test_four() {
        let mut direct = Substituted::default();
        let test = parser_test();
        for _ in 0..3 {
            direct.offer(&test, &[Pair::Text("ABC".into(), "YAML".into())]);
        }
        assert_eq!(direct.take(10).len(), usize::from(MAX_TRIES));
        let many: Vec<Pair> = (0..10).map(|i| Pair::Text("1".into(), format!("{i}"))).collect();
        direct.offer(&test, &many);
        assert_eq!(direct.take(10).len(), MAX_PER_TEST);
    }

    #[test]
    fn a_byte_shows_its_unsigned_value_and_takes_one() {
        let mut t = testcase::TestCaseBuilder::new();
        t.byte(-3);
        let test = t.build();
        // `in.read()` returned 253 for the byte -3, and the decoder wanted 0xFD's neighbour 0xFE.
        let made = apply(&test, &Pair::Number(253, 254)).expect("the byte shows 253");
        assert_eq!(made.statements[0].kind, StatementKind::Primitive(testcase::Primitive::Byte(-2)));
        assert!(apply(&test, &Pair::Number(253, 256)).is_none(), "256 is no byte");
    }

    #[test]
    fn a_wanted_number_that_does_not_fit_the_literal_is_not_written() {
        let mut t = testcase::TestCaseBuilder::new();
        t.int(7);
        let test = t.build();
        assert!(apply(&test, &Pair::Number(7, i64::from(i32::MAX) + 1)).is_none());
        assert!(apply(&test, &Pair::Number(7, -1)).is_some());
    }
}
