//! Statements that construct and call JDK classes (`java.io` streams and
//! writers, `String.getBytes`), for the operators that build an input step
//! by step so that the emitted test shows every step: file content
//! (`files`), a format's encoders (`encoded`) and the serialization round
//! trip (`serial`).

use model::descriptor::FieldType;
use model::signature::JavaType;

use crate::ir::{MethodRef, Statement, StatementKind, VarId};

/// A JDK method, parsed from its owner's binary name, its name and its
/// descriptor. Panics on a malformed descriptor: every caller passes a
/// constant.
pub(super) fn method(owner: &str, name: &str, descriptor: &str) -> MethodRef {
    MethodRef::parse(owner, name, descriptor).expect("a JDK method")
}

/// The type of class `class` (a binary name, `java.io.File`).
pub(super) fn object(class: &str) -> JavaType {
    JavaType::from(FieldType::Object(model::names::BinaryName::new(class).to_internal()))
}

/// The type `byte[]`.
pub(super) fn byte_array() -> JavaType {
    JavaType::from(FieldType::parse("[B").expect("byte[]"))
}

/// `new owner(args)` (constructor `descriptor`), typed as `owner`.
pub(super) fn constructor(owner: &str, descriptor: &str, args: Vec<VarId>) -> Statement {
    let kind = StatementKind::Constructor { method: method(owner, "<init>", descriptor), args };
    Statement { kind, ty: object(owner) }
}

/// `receiver.name(args)` of a method declared by `owner`, typed `void`; a
/// call whose value is used gets its type with `Statement { ty, ..call }`.
pub(super) fn call(receiver: VarId, owner: &str, name: &str, descriptor: &str, args: Vec<VarId>) -> Statement {
    let kind = StatementKind::Call { receiver, method: method(owner, name, descriptor), args };
    Statement { kind, ty: JavaType::Void }
}
