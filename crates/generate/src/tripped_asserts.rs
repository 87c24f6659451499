//! The base pipeline's own finding: an `assert` statement that a test trips
//! through the public API of the class under test.
//!
//! An `assert` states what its author holds true at that point; a call
//! from outside that makes it fail is a bug, or a precondition the class
//! neither documents nor checks (an input it should reject with an
//! exception). [`crate::endings`] keeps, per tripped `assert`, one test that
//! ends in its `AssertionError` (as the findings' witness; the rest of such
//! tests are cut before the call), so that the `assert`'s failing side is
//! covered and the finding shows how to reach it. The emitted witness
//! returns early when the JVM runs without `-ea`, where the `assert` does
//! not trip.

use std::collections::BTreeMap;

use exec::{ExceptionInfo, Executor, StatementOutcome};
use testcase::TestCase;
use testcase::assertion::AssertionKind;

use crate::class_run::ClassRun;
use crate::endings::{ASSERTION_ERROR, trips_an_assert};
use crate::technique::Finding;

/// [`Finding::kind`] of a tripped `assert` (its origin is `base`).
pub const FINDING_KIND: &str = "tripped-assert";

/// How sure the finding is: an `assert` is its author's own claim, but a
/// caller may be outside what the author meant to support.
const CONFIDENCE: f64 = 0.5;

/// The tripped `assert`s of the verified `suite` (test names `names`, in the
/// same order), one finding per `assert`, its shortest test the witness and
/// the others more witnesses. The suite's tests that expect an
/// `AssertionError` run again on `run`'s workers to see where it was thrown;
/// nothing is found when they cannot run.
pub fn findings(run: &mut ClassRun, suite: &[TestCase], names: &[String]) -> Vec<Finding> {
    let expecting: Vec<usize> = (0..suite.len()).filter(|&i| expects_assertion_error(&suite[i])).collect();
    if expecting.is_empty() {
        return Vec::new();
    }
    let tests: Vec<TestCase> = expecting.iter().map(|&i| suite[i].clone()).collect();
    let results = match run.pool.execute(&tests) {
        Ok(results) => results,
        Err(e) => {
            tracing::warn!(class = %run.class, "the tests of tripped asserts did not run: {e}");
            return Vec::new();
        }
    };
    // Per `assert` (its location), the tests that trip it, shortest first.
    let mut by_assert: BTreeMap<String, Vec<(usize, usize, String, &ExceptionInfo)>> = BTreeMap::new();
    for ((&i, test), result) in expecting.iter().zip(&tests).zip(&results) {
        let tripped = result.statements.iter().enumerate().find_map(|(k, s)| match s {
            StatementOutcome::Threw(e) if trips_an_assert(&run.cp, e) => Some((k, e)),
            _ => None,
        });
        if let Some((k, e)) = tripped {
            let method = called_method(test, k, e);
            by_assert.entry(location(run, e)).or_default().push((test.statements.len(), i, method, e));
        }
    }
    let mut out = Vec::new();
    for (location, mut witnesses) in by_assert {
        witnesses.sort_by_key(|(len, i, _, _)| (*len, *i));
        let (_, first, method, e) = witnesses[0].clone();
        out.push(Finding {
            origin: "base".into(),
            kind: FINDING_KIND.into(),
            method: method.clone(),
            message: format!(
                "an assert fails when {} is called: a bug, or a precondition it neither documents nor checks",
                method.split('(').next().unwrap_or(&method)
            ),
            location: Some(location),
            witness: names[first].clone(),
            more_witnesses: witnesses[1..].iter().map(|(_, i, _, _)| names[*i].clone()).collect(),
            confidence: CONFIDENCE,
            stack_trace: e.frames.iter().map(ToString::to_string).collect(),
            score: None,
            invariant: None,
        });
    }
    out
}

/// Whether `test` expects an `AssertionError`.
fn expects_assertion_error(test: &TestCase) -> bool {
    test.assertions
        .iter()
        .any(|a| matches!(&a.kind, AssertionKind::Throws { exception, .. } if exception.as_str() == ASSERTION_ERROR))
}

/// `File.java:LINE` of the `assert` that threw `e` (the class's binary
/// name when its class file names no source file).
fn location(run: &ClassRun, e: &ExceptionInfo) -> String {
    let Some(top) = e.frames.first() else { return String::new() };
    let file = run.cp.load(&top.class).ok().and_then(|c| c.source_file().map(str::to_string));
    format!("{}:{}", file.unwrap_or_else(|| top.class.clone()), top.line.unwrap_or(0))
}

/// `name(descriptor)` of the method that statement `k` of `test` (the one
/// that threw `e`) calls; the top frame's method when it calls none.
fn called_method(test: &TestCase, k: usize, e: &ExceptionInfo) -> String {
    match test.statements.get(k).and_then(|s| s.kind.called_method()) {
        Some(m) => format!("{}{}", m.name, m.descriptor.to_descriptor()),
        None => e.frames.first().map_or_else(String::new, |f| f.method.clone()),
    }
}
