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
        && a.statements.iter().zip(&b.statements).all(|(x, y)| x.kind == y.kind || x.kind.to_string() == y.kind.to_string())
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
            (AssertionKind::Throws { exception }, _) => match Contract::throwing(kind) {
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
