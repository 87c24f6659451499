//! Witness tests: the base of a test with the checks of one violation
//! appended, and assertions that pin what they did (`assertFalse` on
//! `x.equals(x)`, the exception `toString` threw, `assertNotEquals` on two
//! hash codes), so the test passes while the class keeps its bug; then
//! made smaller by dropping the statements the violation does not need.

use exec::{ExecError, ExecutionResult, Executor, StatementOutcome, TestOutcome, ValueSummary};
use testcase::assertion::{Assertion, AssertionKind, Literal};
use testcase::{Primitive, TestCase, VarId};

use crate::judge::{Expect, Violation};
use crate::probe::{assemble, var};

/// The witness of `violation` on `base`: the base with its checks
/// appended and their assertions; it ends at a check that throws. The
/// last check is the call under test (it names the test).
pub fn witness(base: &TestCase, violation: &Violation) -> TestCase {
    let checks: Vec<_> = violation.steps.iter().map(|(c, _)| c.clone()).collect();
    let probe = assemble(base, &checks);
    let mut test = probe.test;
    let mut end = test.len();
    for ((_, expect), &at) in violation.steps.iter().zip(&probe.at) {
        let kind = match expect {
            Expect::Nothing => continue,
            Expect::Value(literal) => AssertionKind::Value(literal.clone()),
            Expect::Throws(exception) => {
                end = at + 1;
                AssertionKind::Throws { exception: exception.clone(), message: None }
            }
            Expect::DiffersFrom(k) => AssertionKind::EqualsOther { other: var(probe.at[*k]), equal: false },
        };
        test.assertions.push(Assertion { var: var(at), kind });
    }
    test.statements.truncate(end);
    test.assertions.retain(|a| a.vars().all(|v| v.index() < end));
    test.call_under_test = probe.at.iter().copied().rfind(|&i| i < end).map(var);
    test
}

/// Whether a run of `test` shows what its assertions say: every
/// statement before the last asserted one ended normally, each asserted
/// value is as expected, and a `Throws` statement threw that exception.
pub fn holds(test: &TestCase, result: &ExecutionResult) -> bool {
    if !matches!(result.outcome, TestOutcome::Completed) || test.assertions.is_empty() {
        return false;
    }
    let last = test.assertions.iter().map(|a| a.var.index()).max().unwrap_or(0);
    let normal = |i: usize| match result.statements.get(i) {
        Some(StatementOutcome::Normal(v)) => Some(v),
        _ => None,
    };
    let thrown_at =
        |v: VarId| test.assertions.iter().any(|a| a.var == v && matches!(a.kind, AssertionKind::Throws { .. }));
    if !(0..last).all(|i| normal(i).is_some() || thrown_at(var(i))) {
        return false;
    }
    test.assertions.iter().all(|a| match &a.kind {
        AssertionKind::Value(expected) => normal(a.var.index()).is_some_and(|v| same_value(v, expected)),
        AssertionKind::Throws { exception, .. } => matches!(
            result.statements.get(a.var.index()),
            Some(StatementOutcome::Threw(e)) if e.class == *exception
        ),
        AssertionKind::EqualsOther { other, equal } => match (normal(a.var.index()), normal(other.index())) {
            (Some(x), Some(y)) => (x == y) == *equal,
            _ => false,
        },
        _ => false,
    })
}

/// Whether an observed value is the `boolean` or `int` literal expected.
fn same_value(v: &ValueSummary, expected: &Literal) -> bool {
    match (v, expected) {
        (ValueSummary::Boolean(b), Literal::Primitive(Primitive::Boolean(e))) => b == e,
        (ValueSummary::Integer(i), Literal::Primitive(Primitive::Int(e))) => *i == i64::from(*e),
        _ => false,
    }
}

/// `test` without the statements its assertions do not need: each
/// statement without an assertion, last first, is dropped with what uses
/// it when the rest still [`holds`] and keeps every assertion (one run per
/// try). Stops trying at `deadline`.
///
/// # Errors
/// [`ExecError`] when the executor fails as a whole.
pub fn minimise(
    test: &TestCase,
    executor: &mut dyn Executor,
    deadline: Option<std::time::Instant>,
    runs: &mut usize,
) -> Result<TestCase, ExecError> {
    let mut best = test.clone();
    let mut i = best.len();
    while i > 0 {
        i -= 1;
        if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            break;
        }
        if i >= best.len() || best.assertions.iter().any(|a| a.vars().any(|v| v.index() == i)) {
            continue;
        }
        let candidate = testcase::operators::remove_with_forward_dependencies(&best, var(i));
        if candidate.assertions.len() != best.assertions.len() {
            continue;
        }
        *runs += 1;
        let result = executor.execute(std::slice::from_ref(&candidate))?.remove(0);
        if holds(&candidate, &result) {
            best = candidate;
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use exec::{ExceptionInfo, StatementOutcome};
    use model::names::BinaryName;
    use testcase::{MethodRef, TestCaseBuilder};

    use super::*;
    use crate::contract::Contract;
    use crate::judge::Violation;
    use crate::probe::{Check, Obj};

    const X: Obj = Obj::Var(VarId(1));
    const Y: Obj = Obj::Twin(VarId(1));

    /// `v0 = 3; v1 = new p.Foo(v0)`.
    fn base() -> TestCase {
        let mut b = TestCaseBuilder::new();
        let three = b.int(3);
        b.construct(MethodRef::parse("p.Foo", "<init>", "(I)V").unwrap(), &[three]);
        b.build()
    }

    fn violation(contract: Contract, steps: Vec<(Check, Expect)>) -> Violation {
        Violation { class: BinaryName::new("p.Foo"), contract, steps, exception: None }
    }

    fn run(statements: Vec<StatementOutcome>) -> ExecutionResult {
        ExecutionResult {
            outcome: TestOutcome::Completed,
            statements,
            trace: Default::default(),
            output: Default::default(),
            duration: Default::default(),
        }
    }

    fn value(v: ValueSummary) -> StatementOutcome {
        StatementOutcome::Normal(v)
    }

    #[test]
    fn a_reflexivity_witness_asserts_false_on_the_equals_call() {
        let v = violation(
            Contract::EqualsReflexive,
            vec![(Check::Equals(X, Some(X)), Expect::Value(Literal::Primitive(Primitive::Boolean(false))))],
        );
        let w = witness(&base(), &v);
        assert_eq!(
            w.to_string(),
            "v0 = 3\nv1 = new p.Foo(v0)\nv2 = v1.equals(v1)  // call under test\nassert v2 == false\n"
        );
        let foo = value(ValueSummary::Object { class: BinaryName::new("p.Foo") });
        assert!(holds(
            &w,
            &run(vec![value(ValueSummary::Integer(3)), foo.clone(), value(ValueSummary::Boolean(false))])
        ));
        assert!(!holds(&w, &run(vec![value(ValueSummary::Integer(3)), foo, value(ValueSummary::Boolean(true))])));
    }

    #[test]
    fn a_hash_witness_compares_the_hash_codes_of_an_object_and_its_twin() {
        let v = violation(
            Contract::HashCodeConsistent,
            vec![
                (Check::Equals(X, Some(Y)), Expect::Value(Literal::Primitive(Primitive::Boolean(true)))),
                (Check::HashCode(X), Expect::Nothing),
                (Check::HashCode(Y), Expect::DiffersFrom(1)),
            ],
        );
        let w = witness(&base(), &v);
        assert_eq!(
            w.to_string(),
            "v0 = 3\nv1 = new p.Foo(v0)\nv2 = new p.Foo(v0)\nv3 = v1.equals(v2)\nassert v3 == true\n\
             v4 = v1.hashCode()\nv5 = v2.hashCode()  // call under test\nassert !v5.equals(v4)\n"
        );
        let foo = value(ValueSummary::Object { class: BinaryName::new("p.Foo") });
        let mut statements =
            vec![value(ValueSummary::Integer(3)), foo.clone(), foo, value(ValueSummary::Boolean(true))];
        statements.extend([value(ValueSummary::Integer(5)), value(ValueSummary::Integer(6))]);
        assert!(holds(&w, &run(statements.clone())));
        statements[5] = value(ValueSummary::Integer(5));
        assert!(!holds(&w, &run(statements)));
    }

    #[test]
    fn a_throwing_witness_ends_at_the_throwing_check() {
        let npe = BinaryName::new("java.lang.NullPointerException");
        let v = violation(
            Contract::ToStringThrows,
            vec![(Check::ToString(X), Expect::Throws(npe.clone())), (Check::HashCode(X), Expect::Nothing)],
        );
        let w = witness(&base(), &v);
        assert_eq!(
            w.to_string(),
            "v0 = 3\nv1 = new p.Foo(v0)\nv2 = v1.toString()  // call under test\nassert v2 throws java.lang.NullPointerException\n"
        );
        let foo = value(ValueSummary::Object { class: BinaryName::new("p.Foo") });
        let thrown =
            StatementOutcome::Threw(ExceptionInfo { class: npe, message: None, direct: false, frames: vec![] });
        assert!(holds(&w, &run(vec![value(ValueSummary::Integer(3)), foo.clone(), thrown])));
        let early = StatementOutcome::Threw(ExceptionInfo {
            class: BinaryName::new("java.lang.Error"),
            message: None,
            direct: true,
            frames: vec![],
        });
        assert!(!holds(&w, &run(vec![value(ValueSummary::Integer(3)), early, StatementOutcome::NotExecuted])));
    }
}
