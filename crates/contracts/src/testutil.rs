//! Helpers of the unit tests.

use testcase::MethodRef;

/// A method reference from strings; panics on a bad descriptor.
pub(crate) fn m(owner: &str, name: &str, descriptor: &str) -> MethodRef {
    MethodRef::parse(owner, name, descriptor).unwrap()
}
