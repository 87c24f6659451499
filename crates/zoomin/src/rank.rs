//! Ranking the assertions of the generated tests (ZoomIn step 4,
//! TECHNIQUES.md §3; paper section VI): a violation reaches an assertion
//! when a def-use chain over the test's statements leads from the anomalous
//! value to a variable the assertion uses; an assertion's suspiciousness is
//! the sum of the uniqueness `1 / viol(c)` of the violations that reach it,
//! where `viol(c)` counts the kept violations of invariant `c` over the
//! whole suite. Assertions no violation reaches are safe.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::check::Violation;
use crate::defuse::{Statement, TestMethod};
use crate::invariant::Invariant;
use crate::trace::Execution;

/// An assertion some kept violation reaches.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Suspicious {
    /// The test class (binary name).
    pub class: String,
    /// The test method.
    pub test: String,
    /// The assertion's first source line.
    pub line: u32,
    /// The assertion's source text.
    pub text: String,
    /// Its suspiciousness: the sum of the uniqueness of the violations that reach it.
    pub score: f64,
    /// Those violations (indices into the kept violations), most unique first.
    pub violations: Vec<usize>,
    /// Its group's rank, from 1: the assertions of one test that the same
    /// violations reach rise and fall together, so they are reported
    /// together (one finding, a comment above each).
    pub group: usize,
}

/// The outcome of ranking a suite.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Ranking {
    /// The unsafe assertions, most suspicious first.
    pub ranked: Vec<Suspicious>,
    /// Assertions in the suite's test methods.
    pub assertions: usize,
    /// Assertions that plain anomaly detection flags: every assertion of a
    /// test in which any invariant is violated (no profile filter, no
    /// def-use chain, no ranking).
    pub plain_flagged: usize,
}

/// Ranks the assertions of `methods` (the suite's test methods): `kept`
/// are the violations after the profile filter, `all` every violation,
/// both over `executions` (the suite's traced executions).
pub fn rank(
    invariants: &[Invariant],
    executions: &[Execution],
    kept: &[Violation],
    all: &[Violation],
    methods: &[TestMethod],
) -> Ranking {
    let by_test: BTreeMap<String, &TestMethod> =
        methods.iter().map(|m| (format!("{}#{}", m.class, m.name), m)).collect();
    let distinct = distinct(kept, executions);
    let mut count: BTreeMap<usize, usize> = BTreeMap::new();
    for &k in &distinct {
        *count.entry(kept[k].invariant).or_default() += 1;
    }
    let mutated = mutating_statements(executions);
    let mut reached: BTreeMap<(String, usize), Vec<usize>> = BTreeMap::new();
    for &k in &distinct {
        let v = &kept[k];
        let e = &executions[v.execution];
        let Some(method) = by_test.get(&e.test) else { continue };
        let Some(at) = e.line.and_then(|l| method.statement_at(l)) else { continue };
        let defines_receiver = |s: usize| {
            let line = *method.statements[s].lines.start();
            mutated.get(&(e.test.as_str(), line)).copied().unwrap_or(true)
        };
        let start = anomalous(&method.statements[at], &invariants[v.invariant], e.depth, defines_receiver(at));
        for s in reached_assertions(&method.statements, at, start, defines_receiver) {
            reached.entry((e.test.clone(), s)).or_default().push(k);
        }
    }
    let uniqueness = |k: usize| 1.0 / count[&kept[k].invariant] as f64;
    let mut ranked: Vec<Suspicious> = reached
        .into_iter()
        .map(|((test, s), mut vs)| {
            let method = by_test[&test];
            let statement = &method.statements[s];
            vs.sort_by(|a, b| uniqueness(*b).total_cmp(&uniqueness(*a)).then(a.cmp(b)));
            Suspicious {
                class: method.class.clone(),
                test: method.name.clone(),
                line: *statement.lines.start(),
                text: statement.text.clone(),
                score: vs.iter().map(|&k| uniqueness(k)).sum(),
                violations: vs,
                group: 0,
            }
        })
        .collect();
    order(&mut ranked);
    let anomalous_tests: BTreeSet<&str> = all.iter().map(|v| executions[v.execution].test.as_str()).collect();
    let asserts = |m: &TestMethod| m.statements.iter().filter(|s| s.assertion).count();
    Ranking {
        ranked,
        assertions: methods.iter().map(asserts).sum(),
        plain_flagged: by_test
            .iter()
            .filter(|(t, _)| anomalous_tests.contains(t.as_str()))
            .map(|(_, m)| asserts(m))
            .sum(),
    }
}

/// Sorts `ranked` by score, most suspicious first, and numbers its groups
/// (same test, same violations), keeping each group's assertions together.
/// Ties go to the assertion whose test has fewer unsafe assertions: its
/// anomaly is the more specific, and the top spreads over more tests.
fn order(ranked: &mut [Suspicious]) {
    let mut per_test: BTreeMap<(String, String), usize> = BTreeMap::new();
    for s in ranked.iter() {
        *per_test.entry((s.class.clone(), s.test.clone())).or_default() += 1;
    }
    let crowd = |s: &Suspicious| per_test[&(s.class.clone(), s.test.clone())];
    ranked.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(crowd(a).cmp(&crowd(b)))
            .then((&a.class, &a.test, a.line).cmp(&(&b.class, &b.test, b.line)))
    });
    let mut groups: BTreeMap<(String, String, BTreeSet<usize>), usize> = BTreeMap::new();
    for s in ranked.iter_mut() {
        let key = (s.class.clone(), s.test.clone(), s.violations.iter().copied().collect());
        let next = groups.len() + 1;
        s.group = *groups.entry(key).or_insert(next);
    }
    ranked.sort_by_key(|s| s.group);
}

/// The violations that count: one per invariant and test statement (the
/// first), so that a statement whose call runs a method many times (a loop
/// inside the class under test) violates an invariant once, as one
/// anomalous value of the test.
fn distinct(kept: &[Violation], executions: &[Execution]) -> Vec<usize> {
    let mut seen = BTreeSet::new();
    (0..kept.len())
        .filter(|&k| {
            let e = &executions[kept[k].execution];
            seen.insert((e.test.as_str(), e.line, kept[k].invariant))
        })
        .collect()
}

/// Whether each test statement (test, first line) that called the class
/// under test changed its receiver: the traced state of `this` differs
/// between entry and exit in one of its outermost calls. Only such a call
/// defines its receiver in the def-use chains; a statement with no traced
/// call is not listed (its calls may change their receivers).
fn mutating_statements(executions: &[Execution]) -> BTreeMap<(&str, u32), bool> {
    let mut out: BTreeMap<(&str, u32), bool> = BTreeMap::new();
    for e in executions.iter().filter(|e| e.depth == 0) {
        let Some(line) = e.line else { continue };
        let entry: BTreeMap<&str, &crate::trace::Value> =
            e.entry.iter().filter(|(n, _)| n.starts_with("this")).map(|(n, v)| (n.as_str(), v)).collect();
        // A constructor has no receiver on entry: it defines its result, not a receiver.
        let changed = !entry.is_empty()
            && e.exit.iter().any(|(n, v)| n.starts_with("this") && entry.get(n.as_str()).is_none_or(|w| *w != v));
        *out.entry((e.test.as_str(), line)).or_default() |= changed;
    }
    out
}

/// The variables of `s` that hold the anomalous value of a violation of
/// `inv` (the paper's "anomalous value related to variable v"):
///
/// - a result (`return..`): the variable the statement defines;
/// - the receiver's state after the call (`this..` at an exit): the receiver;
/// - an input, on entry or as `orig(..)`: the receiver for `this..`, the
///   arguments for a parameter (the receiver among them only when the call
///   changed it: `defines_receiver`), and what the statement defines, which
///   the input flows into;
/// - a call nested inside the statement's call (`depth > 0`): what the
///   statement defines, and its receivers when the call changed them.
fn anomalous(s: &Statement, inv: &Invariant, depth: u32, defines_receiver: bool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut receivers = depth > 0 && defines_receiver;
    let mut arguments = false;
    let mut defs = depth > 0;
    for var in inv.form.vars() {
        if depth > 0 {
            break;
        }
        let (input, name) = match var.strip_prefix("orig(") {
            Some(inner) => (true, inner),
            None => (!inv.point.exit, var),
        };
        if name.starts_with("return") {
            defs = true;
        } else if name.starts_with("this") {
            receivers = true;
            defs |= input;
        } else {
            arguments = true;
            defs = true;
        }
    }
    if defs {
        out.extend(s.defs.iter().cloned());
    }
    if receivers {
        out.extend(s.receivers.iter().cloned());
    }
    if arguments {
        let is_receiver = |u: &String| s.receivers.contains(u) && !defines_receiver;
        out.extend(s.uses.iter().filter(|u| !is_receiver(u)).cloned());
    }
    out
}

/// The assertions among `statements` that the anomalous variables `start`
/// of statement `at` reach by def-use chains (`at` itself when it is an
/// assertion: its call produced the anomalous value). A statement that
/// reads a live variable defines its declared or assigned variable, and its
/// receivers when `defines_receiver` says its call changed them.
fn reached_assertions(
    statements: &[Statement],
    at: usize,
    mut live: BTreeSet<String>,
    defines_receiver: impl Fn(usize) -> bool,
) -> Vec<usize> {
    let mut out = Vec::new();
    if statements[at].assertion {
        out.push(at);
    }
    for (t, s) in statements.iter().enumerate().skip(at + 1) {
        if s.uses.iter().any(|u| live.contains(u)) {
            if s.assertion {
                out.push(t);
            } else {
                live.extend(s.defs.iter().cloned());
                if defines_receiver(t) {
                    live.extend(s.receivers.iter().cloned());
                }
            }
        } else {
            for d in &s.defs {
                live.remove(d);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defuse::test_methods;
    use crate::invariant::{Form, Point};
    use crate::trace::Value;

    #[test]
    fn def_use_chains_reach_only_the_assertions_that_use_the_value() {
        let source = "package p;\npublic class T {\n  @Test public void t() {\n    C c0 = new C(1.0, 0.0);\n    C c1 = c0.conjugate();\n    double d = c1.im();\n    assertEquals(1.0, c0.re(), 0.01);\n    assertEquals(0.0, d, 0.01);\n  }\n}\n";
        let methods = test_methods(source);
        let inv = Invariant {
            point: Point { method: 1, exit: true },
            form: Form::NonZero { var: "return.im".into(), reference: false },
            samples: 20,
        };
        let exec = Execution {
            test: "p.T#t".into(),
            method: 1,
            depth: 0,
            line: Some(5),
            entry: vec![],
            exit: vec![("return.im".into(), Value::Float(0.0))],
            profile: Default::default(),
        };
        let v = Violation { invariant: 0, execution: 0, similarity: 1.0 };
        let ranking = rank(&[inv], &[exec], std::slice::from_ref(&v), std::slice::from_ref(&v), &methods);
        assert_eq!(ranking.assertions, 2);
        assert_eq!(ranking.plain_flagged, 2);
        assert_eq!(ranking.ranked.len(), 1, "{:?}", ranking.ranked);
        assert_eq!((ranking.ranked[0].line, ranking.ranked[0].score), (8, 1.0));
    }

    #[test]
    fn an_anomalous_argument_reaches_its_own_uses_and_the_result_not_an_unchanged_receiver() {
        let source = "package p;\npublic class T {\n  @Test public void t() {\n    int int0 = 0;\n    C c0 = new C(2.0, 1.0);\n    C c1 = c0.pow(int0);\n    assertEquals(0, int0);\n    assertEquals(2.0, c0.re(), 0.01);\n    assertEquals(2.0, c1.re(), 0.01);\n  }\n}\n";
        let methods = test_methods(source);
        let inv = Invariant {
            point: Point { method: 1, exit: false },
            form: Form::Positive { var: "n".into(), strict: true },
            samples: 20,
        };
        let receiver = vec![("this".to_string(), Value::Ref(1)), ("this.re".to_string(), Value::Float(2.0))];
        let mut entry = receiver.clone();
        entry.push(("n".into(), Value::Int(0)));
        let exec = Execution {
            test: "p.T#t".into(),
            method: 1,
            depth: 0,
            line: Some(6),
            entry,
            exit: receiver,
            profile: Default::default(),
        };
        let v = Violation { invariant: 0, execution: 0, similarity: 1.0 };
        let ranking = rank(&[inv], &[exec], std::slice::from_ref(&v), std::slice::from_ref(&v), &methods);
        let lines: Vec<u32> = ranking.ranked.iter().map(|s| s.line).collect();
        assert_eq!(lines, vec![7, 9], "int0 and the result, not c0, which pow left as it was");
    }
}
