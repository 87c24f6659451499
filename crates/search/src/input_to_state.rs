//! Input-to-state substitutions from a test's execution (Aschermann et
//! al., "REDQUEEN: Fuzzing with Input-to-State Correspondence", NDSS 2019,
//! section 3.1). The runtime reports the operands of failed comparisons
//! (`exec::Trace::string_pairs`, `exec::Trace::number_pairs`) without
//! knowing which one came from the test; a pair one operand of which
//! appears among the test's own literals is an input-to-state
//! correspondence, and writing the other operand in its place passes the
//! comparison. [`Substitutions`] keeps those pairs, oriented (seen,
//! wanted), for the test factory's seeds.

use std::collections::{BTreeSet, HashMap};

use exec::Trace;
use testcase::{StatementKind, TestCase};

use crate::substituted::Pair;

/// The substitutions gathered since the last [`Substitutions::take`],
/// sorted so that a seeded run stays reproducible.
#[derive(Debug, Default)]
pub(crate) struct Substitutions {
    /// From string comparisons.
    strings: BTreeSet<(String, String)>,
    /// From number comparisons, written in strings (a number's text, a
    /// character).
    number_texts: BTreeSet<(String, String)>,
    /// From number comparisons, for integral literals.
    numbers: BTreeSet<(i64, i64)>,
    /// Samples of the patterns of regex pairs, by pattern.
    samples: HashMap<String, Vec<String>>,
}

/// Samples of the language of a regular expression a test's string missed,
/// each a substitution for it.
const SAMPLES_PER_PATTERN: usize = 2;
/// Patterns whose samples are kept at most (patterns built from inputs
/// would otherwise grow the cache without end).
const MAX_PATTERNS: usize = 256;

/// [`SAMPLES_PER_PATTERN`] samples of `pattern`'s language, or none when
/// it cannot be sampled.
fn pattern_samples(pattern: &str) -> Vec<String> {
    testcase::seeds::pattern_samples(pattern, SAMPLES_PER_PATTERN)
}

/// The substitutions of [`Substitutions::take`], each kind sorted.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Taken {
    /// String substitutions (seen, wanted) from string comparisons.
    pub strings: Vec<(String, String)>,
    /// String substitutions (seen, wanted) from number comparisons.
    pub number_texts: Vec<(String, String)>,
    /// Integral literal substitutions (seen, wanted).
    pub numbers: Vec<(i64, i64)>,
}

/// The literals of one test case.
struct Literals<'t> {
    strings: Vec<&'t str>,
    numbers: Vec<i64>,
}

impl Substitutions {
    /// Adds the pairs of `trace` that the literals of `test` explain:
    /// - a string pair one side of which occurs in a string literal;
    /// - a regex pair ([`exec::REGEX_PAIR`]) whose input occurs in a string
    ///   literal: a substitution by each of a few samples of the pattern;
    /// - a number pair one side of which is an integral literal (a number
    ///   substitution), or whose decimal text, or whose character when both
    ///   sides are characters, occurs in a string literal (a string
    ///   substitution: the `12` of `"%YAML 12.1"` a parser compared with
    ///   `1`, two digits at least ([`MIN_DIGITS`]); the `'x'` a scanner
    ///   compared with `'['`, neither a control character).
    ///
    /// The side found comes first; a pair neither side of which is found
    /// came from elsewhere (a computed value, a field) and is dropped.
    /// Returns this test's pairs, for [`crate::substituted::Substituted`],
    /// when `want_pairs` (a test that covered a new goal); else an empty
    /// vector, sparing the copies on the hot path.
    pub(crate) fn observe(&mut self, test: &TestCase, trace: &Trace, want_pairs: bool) -> Vec<Pair> {
        let lits = Literals::of(test);
        let mut strings = Vec::new();
        for (a, b) in &trace.string_pairs {
            if exec::sandbox::names_worker_file(a) || exec::sandbox::names_worker_file(b) {
                continue; // differs from run to run
            }
            if let Some(pattern) = b.strip_prefix(exec::REGEX_PAIR) {
                if lits.string_occurs(a) {
                    if self.samples.len() >= MAX_PATTERNS {
                        self.samples.clear();
                    }
                    let samples = self.samples.entry(pattern.to_owned()).or_insert_with(|| pattern_samples(pattern));
                    strings.extend(samples.iter().map(|s| (a.clone(), s.clone())));
                }
                continue;
            }
            strings.extend(orient(a, b, |s| lits.string_occurs(s)).map(|(s, w)| (s.clone(), w.clone())));
        }
        let (mut numbers, mut texts) = (Vec::new(), Vec::new());
        for &(a, b) in &trace.number_pairs {
            numbers.extend(orient(&a, &b, |n| lits.numbers.contains(n)).map(|(s, w)| (*s, *w)));
            let (ta, tb) = (a.to_string(), b.to_string());
            let long = |s: &String| s.trim_start_matches('-').len() >= MIN_DIGITS && lits.string_occurs(s);
            texts.extend(orient(&ta, &tb, long).map(|(s, w)| (s.clone(), w.clone())));
            if let (Some(ca), Some(cb)) = (as_char(a), as_char(b)) {
                let (ca, cb) = (ca.to_string(), cb.to_string());
                texts.extend(orient(&ca, &cb, |s| lits.string_occurs(s)).map(|(s, w)| (s.clone(), w.clone())));
            }
        }
        let mut pairs = Vec::new();
        if want_pairs {
            pairs.extend(strings.iter().chain(&texts).map(|(s, w)| Pair::Text(s.clone(), w.clone())));
            pairs.extend(numbers.iter().map(|&(s, w)| Pair::Number(s, w)));
        }
        self.strings.extend(strings);
        self.number_texts.extend(texts);
        self.numbers.extend(numbers);
        pairs
    }

    /// The substitutions gathered, emptied.
    pub(crate) fn take(&mut self) -> Taken {
        Taken {
            strings: std::mem::take(&mut self.strings).into_iter().collect(),
            number_texts: std::mem::take(&mut self.number_texts).into_iter().collect(),
            numbers: std::mem::take(&mut self.numbers).into_iter().collect(),
        }
    }
}

/// `(a, b)` when `found(a)`, else `(b, a)` when `found(b)`, else `None`.
fn orient<'v, T: ?Sized>(a: &'v T, b: &'v T, found: impl Fn(&T) -> bool) -> Option<(&'v T, &'v T)> {
    if found(a) { Some((a, b)) } else { found(b).then_some((b, a)) }
}

/// The fewest digits of a number whose decimal text is looked for in the
/// test's strings: one digit occurs in most strings by chance (a `1` of a
/// boolean tested against `0`), and its substitution would crowd out the
/// others.
const MIN_DIGITS: usize = 2;

/// The character a number stands for, when it is one other than a control
/// character (a boolean's `1` tested against `0` is not a character).
fn as_char(n: i64) -> Option<char> {
    u32::try_from(n).ok().and_then(char::from_u32).filter(|c| !c.is_control())
}

impl<'t> Literals<'t> {
    fn of(test: &'t TestCase) -> Literals<'t> {
        let mut lits = Literals { strings: Vec::new(), numbers: Vec::new() };
        for s in &test.statements {
            match &s.kind {
                StatementKind::String(text) => lits.strings.push(text),
                StatementKind::Primitive(p) | StatementKind::Boxed(p) => lits.numbers.extend(p.integral_views()),
                _ => {}
            }
        }
        lits
    }

    /// Whether the non-empty `part` occurs in one of the string literals.
    fn string_occurs(&self, part: &str) -> bool {
        !part.is_empty() && self.strings.iter().any(|l| l.contains(part))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs<T: ToString>(p: &[(T, T)]) -> Vec<(String, String)> {
        p.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    #[test]
    fn pairs_are_oriented_by_the_literals_of_the_test() {
        let mut t = testcase::TestCaseBuilder::new();
        t.string("token literal names:\nabc\n%YAML 17.7\u{1}");
        t.int(42);
        let test = t.build();
        let trace = Trace {
            string_pairs: pairs(&[("abc", "rule names:"), ("atn:", "literal"), ("elsewhere", "computed"), ("", "q!")]),
            number_pairs: vec![(3, 42), (17, 1), (7, 1), ('b' as i64, '[' as i64), (1000, 2000), (1, 0)],
            ..Trace::default()
        };
        let mut subs = Substitutions::default();
        subs.observe(&test, &trace, false);
        let taken = subs.take();
        assert_eq!(taken.strings, pairs(&[("abc", "rule names:"), ("literal", "atn:")]));
        assert_eq!(taken.number_texts, pairs(&[("17", "1"), ("b", "[")]));
        assert_eq!(taken.numbers, [(42, 3)]);
        assert_eq!(subs.take(), Taken::default(), "take empties");
    }

    #[test]
    fn an_input_a_pattern_missed_is_substituted_by_samples_of_the_pattern() {
        let mut t = testcase::TestCaseBuilder::new();
        t.string("joe@example");
        let test = t.build();
        let regex = |p: &str| format!("{}{p}", exec::REGEX_PAIR);
        let trace = Trace {
            string_pairs: vec![
                ("example".into(), regex(r"^\[(\d{1,3})\]$")),
                ("elsewhere".into(), regex("[a-z]+")),
                ("joe".into(), regex("(unclosed")),
            ],
            ..Trace::default()
        };
        let mut subs = Substitutions::default();
        subs.observe(&test, &trace, false);
        let taken = subs.take().strings;
        assert_eq!(
            taken.len(),
            SAMPLES_PER_PATTERN,
            "only the input of the test, only a pattern that parses: {taken:?}"
        );
        for (seen, wanted) in &taken {
            assert_eq!(seen, "example");
            let digits = wanted.strip_prefix('[').and_then(|w| w.strip_suffix(']')).unwrap_or_default();
            assert!((1..=3).contains(&digits.len()) && digits.chars().all(|c| c.is_ascii_digit()), "{wanted}");
        }
    }
}
