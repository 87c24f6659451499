//! The words of a finding: how each object was made (`Foo(int)`,
//! `Foo.of(String)`), whether with a `null` argument, and the one-sentence
//! message of each contract.

use model::descriptor::FieldType;
use model::names::BinaryName;
use testcase::assertion::Literal;
use testcase::{MethodRef, StatementKind, TestCase, VarId};

use crate::contract::Contract;
use crate::judge::{Expect, Violation};
use crate::probe::{Check, Obj};

/// How value `v` of `test` was made: `Foo(int, String)` for a constructor,
/// `Foo.of(String)` for a static call, `Bar.make()` for a call on
/// another object, `Foo.RED` for a constant.
pub fn made_by(test: &TestCase, v: VarId) -> String {
    let Some(statement) = test.get(v) else { return "a test".into() };
    match &statement.kind {
        StatementKind::Constructor { method, .. } => format!("{}({})", simple(&method.owner), params(method)),
        StatementKind::StaticCall { method, .. } | StatementKind::Call { method, .. } => {
            format!("{}.{}({})", simple(&method.owner), method.name, params(method))
        }
        StatementKind::FieldGet { field, .. } => format!("{}.{}", simple(&field.owner), field.name),
        StatementKind::EnumConstant { class, name } => format!("{}.{name}", simple(class)),
        other => other.to_string(),
    }
}

/// The simple name of a class, nested classes with their outer ones (`Map.Entry`).
fn simple(class: &BinaryName) -> String {
    class.java_name().rsplit('.').next().unwrap_or_default().to_string()
}

/// The parameter types of a method, by simple name: `int, String`.
fn params(method: &MethodRef) -> String {
    let name = |t: &FieldType| t.java_name().rsplit('.').next().unwrap_or_default().to_string();
    method.descriptor.params.iter().map(name).collect::<Vec<_>>().join(", ")
}

/// Whether value `v` of `test` was made with a `null` argument anywhere
/// in its making: in the call that made it, in a call made on it, or so in
/// the making of their arguments and receivers, transitively.
pub fn made_with_null(test: &TestCase, v: VarId) -> bool {
    let mut seen = std::collections::BTreeSet::new();
    let mut todo = vec![v];
    while let Some(u) = todo.pop() {
        let Some(statement) = test.get(u).filter(|_| seen.insert(u)) else { continue };
        if u != v && matches!(statement.kind, StatementKind::Null(_)) {
            return true;
        }
        todo.extend(statement.kind.uses());
        for (_, s) in test.iter() {
            if let StatementKind::Call { receiver, args, .. } = &s.kind
                && *receiver == u
            {
                todo.extend(args);
            }
        }
    }
    false
}

/// The objects a violation is about, in order, each once.
pub fn objects(violation: &Violation) -> Vec<Obj> {
    let mut out: Vec<Obj> = Vec::new();
    for (check, _) in &violation.steps {
        for o in check.objects() {
            if !out.contains(&o) {
                out.push(o);
            }
        }
    }
    out
}

/// `a Foo made by Foo(int)`, `two Foo made by Foo(int) and Foo.of(int)`,
/// `two Foo made by Foo(int) with the same arguments` (an object and its twin).
fn the_objects(base: &TestCase, class: &BinaryName, objects: &[Obj]) -> String {
    let c = simple(class);
    match objects {
        [a] => format!("{} made by {}", with_article(&c), made_by(base, a.origin())),
        [a, b] if a.origin() == b.origin() => {
            format!("two {c} made by {} with the same arguments", made_by(base, a.origin()))
        }
        [a, b] => format!("two {c} made by {} and {}", made_by(base, a.origin()), made_by(base, b.origin())),
        _ => with_article(&c),
    }
}

/// `a Foo`, `an Interval`.
pub fn with_article(noun: &str) -> String {
    let vowel = noun.chars().next().is_some_and(|c| "AEIOUaeiou".contains(c));
    format!("{} {noun}", if vowel { "an" } else { "a" })
}

/// The observed values of the steps, as Java literals (`false`, `-1`).
fn values(violation: &Violation) -> Vec<String> {
    let literal = |e: &Expect| match e {
        Expect::Value(Literal::Primitive(p)) => Some(p.to_string()),
        _ => None,
    };
    violation.steps.iter().filter_map(|(_, e)| literal(e)).collect()
}

/// The finding's message: the contract broken, how, and the objects.
pub fn message(base: &TestCase, violation: &Violation) -> String {
    let objects = the_objects(base, &violation.class, &objects(violation));
    let v = values(violation);
    let value = |i: usize| v.get(i).cloned().unwrap_or_default();
    let exception = violation.exception.as_ref().map(|e| simple(&e.class)).unwrap_or_default();
    let call = match violation.steps.first().map(|(c, _)| c) {
        Some(Check::Equals(a, Some(b))) if a == b => "x.equals(x)",
        Some(Check::Equals(_, None)) => "x.equals(null)",
        _ => "x.equals(y)",
    };
    match violation.contract {
        Contract::EqualsReflexive => format!("equals is not reflexive: x.equals(x) is false for {objects}"),
        Contract::EqualsNull => format!("equals accepts null: x.equals(null) is true for {objects}"),
        Contract::EqualsThrows => format!("equals throws {exception}: {call} for {objects}"),
        Contract::HashCodeThrows => format!("hashCode throws {exception} for {objects}"),
        Contract::ToStringThrows => format!("toString throws {exception} for {objects}"),
        Contract::HashCodeConsistent => {
            format!("hashCode is inconsistent with equals: x.equals(y) but x.hashCode() != y.hashCode() for {objects}")
        }
        Contract::EqualsSymmetric => {
            format!(
                "equals is not symmetric: x.equals(y) is {} but y.equals(x) is {} for {objects}",
                value(0),
                value(1)
            )
        }
        Contract::CompareToReflexive => {
            format!("compareTo is not reflexive: x.compareTo(x) is {} for {objects}", value(0))
        }
        Contract::CompareToAntisymmetric => format!(
            "compareTo is not antisymmetric: x.compareTo(y) is {} and y.compareTo(x) is {} for {objects}",
            value(0),
            value(1)
        ),
        Contract::CompareToConsistent => format!(
            "compareTo is inconsistent with equals (recommended, not required): x.equals(y) is {} but x.compareTo(y) is {} for {objects}",
            value(0),
            value(1)
        ),
    }
}

/// A stack trace as findings show it, innermost frame first
/// (`p.Foo.toString:12`), without the frames of ferrosuite's runtime.
pub fn trace(frames: &[exec::StackFrame]) -> Vec<String> {
    frames
        .iter()
        .filter(|f| !f.class.starts_with("ferrosuite.runtime."))
        .map(|f| match f.line {
            Some(l) => format!("{}.{}:{l}", f.class, f.method),
            None => format!("{}.{}", f.class, f.method),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use model::names::BinaryName;
    use testcase::assertion::Literal;
    use testcase::{Primitive, TestCaseBuilder, VarId};

    use super::*;
    use crate::testutil::m;

    /// `v0 = 3; v1 = (String) null; v2 = new p.Foo$Inner(v0, v1); v3 = p.Foo.of(v0); v4 = v3.copy()`.
    fn base() -> TestCase {
        let mut b = TestCaseBuilder::new();
        let three = b.int(3);
        let null = b.null(FieldType::parse("Ljava/lang/String;").unwrap());
        b.construct(m("p.Foo$Inner", "<init>", "(ILjava/lang/String;)V"), &[three, null]);
        let of = b.static_call(m("p.Foo", "of", "(I)Lp/Foo;"), &[three]);
        b.call(of, m("p.Foo", "copy", "()Lp/Foo;"), &[]);
        b.build()
    }

    #[test]
    fn objects_are_described_by_the_call_that_made_them() {
        let base = base();
        assert_eq!(made_by(&base, VarId(2)), "Inner(int, String)");
        assert_eq!(made_by(&base, VarId(3)), "Foo.of(int)");
        assert_eq!(made_by(&base, VarId(4)), "Foo.copy()");
        assert!(made_with_null(&base, VarId(2)));
        assert!(!made_with_null(&base, VarId(3)));
        assert!(!made_with_null(&base, VarId(4)));
        let mut b = TestCaseBuilder::from_test_case(base);
        let wrapped = b.construct(m("p.Box", "<init>", "(Lp/Foo$Inner;)V"), &[VarId(2)]);
        assert!(made_with_null(b.test_case(), wrapped), "through the object it wraps");
    }

    #[test]
    fn messages_say_the_contract_the_values_and_the_objects() {
        let base = base();
        let x = Obj::Var(VarId(3));
        let bool_of = |b: bool| Expect::Value(Literal::Primitive(Primitive::Boolean(b)));
        let v = Violation {
            class: BinaryName::new("p.Foo"),
            contract: Contract::EqualsSymmetric,
            steps: vec![
                (Check::Equals(x, Some(Obj::Var(VarId(4)))), bool_of(true)),
                (Check::Equals(Obj::Var(VarId(4)), Some(x)), bool_of(false)),
            ],
            exception: None,
        };
        assert_eq!(
            message(&base, &v),
            "equals is not symmetric: x.equals(y) is true but y.equals(x) is false for two Foo made by Foo.of(int) and Foo.copy()"
        );
        let v = Violation {
            class: BinaryName::new("p.Foo$Inner"),
            contract: Contract::EqualsReflexive,
            steps: vec![(Check::Equals(Obj::Var(VarId(2)), Some(Obj::Var(VarId(2)))), bool_of(false))],
            exception: None,
        };
        assert_eq!(
            message(&base, &v),
            "equals is not reflexive: x.equals(x) is false for an Inner made by Inner(int, String)"
        );
    }

    #[test]
    fn traces_leave_out_ferrosuites_runtime() {
        let frame =
            |class: &str, method: &str, line| exec::StackFrame { class: class.into(), method: method.into(), line };
        let frames = [
            frame("java.lang.String", "repeat", Some(3)),
            frame("p.Foo", "toString", Some(12)),
            frame("ferrosuite.runtime.Environment", "toString", None),
        ];
        assert_eq!(trace(&frames), ["java.lang.String.repeat:3", "p.Foo.toString:12"]);
    }
}
