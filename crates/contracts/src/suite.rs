//! The findings side: finding the witnesses in the final suite (by
//! content: verification renames nothing in the IR but may drop tests and
//! assertions), and violations that other tests of the suite show by
//! themselves (a search test that expects `toString` to throw, or asserts
//! `x.equals(x)` false), which must not stay in the regression suite as
//! expected behaviour.

use model::names::BinaryName;
use testcase::assertion::{AssertionKind, Literal};
use testcase::{Primitive, StatementKind, TestCase, VarId};

use crate::contract::{Contract, Method};

/// Whether two tests have the same statements (by value, or by their text
/// where a `NaN` makes values differ from themselves).
pub fn same_statements(a: &TestCase, b: &TestCase) -> bool {
    a.len() == b.len()
        && a.statements
            .iter()
            .zip(&b.statements)
            .all(|(x, y)| x.kind == y.kind || x.kind.to_string() == y.kind.to_string())
}

/// Whether `test` of the suite is `witness` with every assertion of the witness still there.
pub fn carries(test: &TestCase, witness: &TestCase) -> bool {
    same_statements(test, witness) && witness.assertions.iter().all(|a| test.assertions.contains(a))
}

/// A violation a test shows by its own calls and assertions.
#[derive(Debug, Clone, PartialEq)]
pub struct Shown {
    /// The class whose method the call names.
    pub class: BinaryName,
    /// The contract.
    pub contract: Contract,
    /// The call's statement.
    pub at: VarId,
    /// The exception it expects, if any.
    pub exception: Option<BinaryName>,
}

/// The violations `test` shows by itself: a `Throws` assertion on a call
/// of `equals`, `hashCode` or `toString` of a class for which `has` says
/// the method is the user's, or a value assertion that `x.equals(x)` is
/// false or `x.equals(null)` true. Calls through `java.lang.Object` (the
/// witnesses') name no class and are left out.
pub fn shown(test: &TestCase, mut has: impl FnMut(&BinaryName, Method) -> bool) -> Vec<Shown> {
    let mut out = Vec::new();
    for a in &test.assertions {
        let Some(StatementKind::Call { receiver, method, args }) = test.get(a.var).map(|s| &s.kind) else { continue };
        let Some(kind) = Method::of_call(method) else { continue };
        if method.owner.as_str() == "java.lang.Object" || !has(&method.owner, kind) {
            continue;
        }
        let is_null = |v: &VarId| test.get(*v).is_some_and(|s| matches!(s.kind, StatementKind::Null(_)));
        let (contract, exception) = match (&a.kind, kind) {
            (AssertionKind::Throws { exception, .. }, _) => match Contract::throwing(kind) {
                Some(c) => (c, Some(exception.clone())),
                None => continue,
            },
            (AssertionKind::Value(Literal::Primitive(Primitive::Boolean(false))), Method::Equals)
                if args.first() == Some(receiver) =>
            {
                (Contract::EqualsReflexive, None)
            }
            (AssertionKind::Value(Literal::Primitive(Primitive::Boolean(true))), Method::Equals)
                if args.first().is_some_and(is_null) =>
            {
                (Contract::EqualsNull, None)
            }
            _ => continue,
        };
        out.push(Shown { class: method.owner.clone(), contract, at: a.var, exception });
    }
    out
}

#[cfg(test)]
mod tests {
    use testcase::TestCaseBuilder;
    use testcase::assertion::Assertion;

    use super::*;
    use crate::testutil::m;

    /// `v0 = new p.Foo(); v1 = (Object) null; v2 = v0.equals(v0); v3 = v0.equals(v1); v4 = v0.toString()`
    /// with `assertions`.
    fn test(assertions: &[(u32, AssertionKind)]) -> TestCase {
        let mut b = TestCaseBuilder::new();
        let foo = b.construct(m("p.Foo", "<init>", "()V"), &[]);
        let null = b.null(model::descriptor::FieldType::parse("Ljava/lang/Object;").unwrap());
        let equals = m("p.Foo", "equals", "(Ljava/lang/Object;)Z");
        b.call(foo, equals.clone(), &[foo]);
        b.call(foo, equals, &[null]);
        b.call(foo, m("p.Foo", "toString", "()Ljava/lang/String;"), &[]);
        let mut t = b.build();
        t.assertions = assertions.iter().map(|(v, kind)| Assertion { var: VarId(*v), kind: kind.clone() }).collect();
        t
    }

    fn bool_is(b: bool) -> AssertionKind {
        AssertionKind::Value(Literal::Primitive(Primitive::Boolean(b)))
    }

    #[test]
    fn tests_that_assert_a_violation_as_expected_show_it() {
        let npe = BinaryName::new("java.lang.NullPointerException");
        let t = test(&[
            (2, bool_is(false)),
            (3, bool_is(true)),
            (4, AssertionKind::Throws { exception: npe, message: None }),
        ]);
        let contracts: Vec<&str> = shown(&t, |_, _| true).iter().map(|s| s.contract.name()).collect();
        assert_eq!(contracts, ["equals-reflexive", "equals-null", "tostring-throws"]);
        assert!(shown(&t, |_, m| m == Method::HashCode).is_empty(), "methods kept from Object show nothing");
        let fine = test(&[(2, bool_is(true)), (3, bool_is(false))]);
        assert!(shown(&fine, |_, _| true).is_empty());
    }

    #[test]
    fn a_witness_is_found_by_its_statements_and_assertions() {
        let witness = test(&[(2, bool_is(false))]);
        assert!(carries(&test(&[(2, bool_is(false)), (3, bool_is(false))]), &witness));
        assert!(!carries(&test(&[(3, bool_is(false))]), &witness), "its assertion was removed");
        let mut other = witness.clone();
        other.statements.pop();
        assert!(!carries(&other, &witness));
    }
}
