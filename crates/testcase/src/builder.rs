//! [`TestCaseBuilder`]: appends statements and hands out their [`VarId`]s.
//!
//! Each method appends one statement whose `ty` is the erased type of its
//! value (the descriptor's return type for calls, the owner for
//! constructors, `void` for stores and `void` calls); [`TestCaseBuilder::refine`]
//! narrows it to a generic type. The builder does not check anything;
//! [`crate::validate()`] does.

use model::descriptor::FieldType;
use model::names::BinaryName;
use model::signature::JavaType;

use crate::ir::{FieldRef, MethodRef, Primitive, Statement, StatementKind, TestCase, VarId};

/// Builds a [`TestCase`] statement by statement.
///
/// Every method returns the id of the statement it appended; for statements
/// that produce no value the id names the statement (for
/// [`TestCaseBuilder::call_under_test`]) and must not be used as a value.
#[derive(Debug, Clone, Default)]
pub struct TestCaseBuilder {
    test_case: TestCase,
}

impl TestCaseBuilder {
    /// An empty test case.
    pub fn new() -> TestCaseBuilder {
        TestCaseBuilder::default()
    }

    /// Continues an existing test case.
    pub fn from_test_case(test_case: TestCase) -> TestCaseBuilder {
        TestCaseBuilder { test_case }
    }

    /// The test case so far.
    pub fn test_case(&self) -> &TestCase {
        &self.test_case
    }

    /// The finished test case.
    pub fn build(self) -> TestCase {
        self.test_case
    }

    /// Appends a statement as it is.
    pub fn push(&mut self, statement: Statement) -> VarId {
        self.test_case.push(statement)
    }

    /// Appends a statement of that kind, typed by [`Statement::new`].
    pub fn add(&mut self, kind: StatementKind) -> VarId {
        self.push(Statement::new(kind))
    }

    /// Sets the type of `var` to `ty` (a generic refinement such as
    /// `java.util.List<java.lang.String>`), returning `var`.
    ///
    /// # Panics
    /// When `var` is not a statement of the test case so far.
    pub fn refine(&mut self, var: VarId, ty: JavaType) -> VarId {
        self.test_case.statements[var.index()].ty = ty;
        var
    }

    /// Marks `var` as the call under test.
    pub fn call_under_test(&mut self, var: VarId) -> &mut TestCaseBuilder {
        self.test_case.call_under_test = Some(var);
        self
    }

    /// `v = <primitive literal>`.
    pub fn primitive(&mut self, value: Primitive) -> VarId {
        self.add(StatementKind::Primitive(value))
    }

    /// `v = true`.
    pub fn boolean(&mut self, value: bool) -> VarId {
        self.primitive(Primitive::Boolean(value))
    }

    /// `v = (byte) 3`.
    pub fn byte(&mut self, value: i8) -> VarId {
        self.primitive(Primitive::Byte(value))
    }

    /// `v = (short) 3`.
    pub fn short(&mut self, value: i16) -> VarId {
        self.primitive(Primitive::Short(value))
    }

    /// `v = 'a'` (a UTF-16 code unit).
    pub fn char(&mut self, value: u16) -> VarId {
        self.primitive(Primitive::Char(value))
    }

    /// `v = 3`.
    pub fn int(&mut self, value: i32) -> VarId {
        self.primitive(Primitive::Int(value))
    }

    /// `v = 3L`.
    pub fn long(&mut self, value: i64) -> VarId {
        self.primitive(Primitive::Long(value))
    }

    /// `v = 1.5f`.
    pub fn float(&mut self, value: f32) -> VarId {
        self.primitive(Primitive::Float(value))
    }

    /// `v = 1.5`.
    pub fn double(&mut self, value: f64) -> VarId {
        self.primitive(Primitive::Double(value))
    }

    /// `v = java.lang.Integer.valueOf(3)`.
    pub fn boxed(&mut self, value: Primitive) -> VarId {
        self.add(StatementKind::Boxed(value))
    }

    /// `v = "text"`.
    pub fn string(&mut self, text: impl Into<String>) -> VarId {
        self.add(StatementKind::String(text.into()))
    }

    /// `v = (T) null`.
    pub fn null(&mut self, ty: FieldType) -> VarId {
        self.add(StatementKind::Null(ty))
    }

    /// `v = Class.NAME` for an enum constant.
    pub fn enum_constant(&mut self, class: BinaryName, name: impl Into<String>) -> VarId {
        self.add(StatementKind::EnumConstant { class, name: name.into() })
    }

    /// `v = T.class`.
    pub fn class_literal(&mut self, ty: FieldType) -> VarId {
        self.add(StatementKind::ClassLiteral(Some(ty)))
    }

    /// `v = void.class`.
    pub fn void_class(&mut self) -> VarId {
        self.add(StatementKind::ClassLiteral(None))
    }

    /// `v = Owner.class.getDeclaredMethod(…)` (or `getDeclaredConstructor`, `getDeclaredField`).
    pub fn reflect(&mut self, member: crate::ir::MemberRef) -> VarId {
        self.add(StatementKind::Reflect(member))
    }

    /// `v = (Interface) (a, …) -> body`, a lambda of the functional
    /// interface `interface` whose abstract method is `method`.
    pub fn lambda(&mut self, interface: BinaryName, method: MethodRef, body: crate::ir::LambdaBody) -> VarId {
        self.add(StatementKind::Lambda { interface, method, body })
    }

    /// `v = mock(Type)`, a mock of an interface or abstract class, whose `methods[i]` returns `returns[i]`.
    pub fn mock(&mut self, mocked: BinaryName, methods: Vec<MethodRef>, returns: Vec<VarId>) -> VarId {
        self.add(StatementKind::Mock { mocked, methods, returns })
    }

    /// `v = <a new empty file in the test's temporary folder>`.
    pub fn temp_file(&mut self, handle: crate::ir::FileHandle) -> VarId {
        self.add(StatementKind::TempFile(handle))
    }

    /// `v = <a new empty folder in the test's temporary folder>`.
    pub fn temp_dir(&mut self, handle: crate::ir::FileHandle) -> VarId {
        self.add(StatementKind::TempDir(handle))
    }

    /// `v = new elem[length]`.
    pub fn new_array(&mut self, elem: FieldType, length: u32) -> VarId {
        self.add(StatementKind::NewArray { elem, length })
    }

    /// `array[index] = value` (no value).
    pub fn array_store(&mut self, array: VarId, index: u32, value: VarId) -> VarId {
        self.add(StatementKind::ArrayStore { array, index, value })
    }

    /// `v = new Owner(args)`.
    pub fn construct(&mut self, method: MethodRef, args: &[VarId]) -> VarId {
        self.add(StatementKind::Constructor { method, args: args.to_vec() })
    }

    /// `v = Owner.name(args)`, or no value for a `void` method.
    pub fn static_call(&mut self, method: MethodRef, args: &[VarId]) -> VarId {
        self.add(StatementKind::StaticCall { method, args: args.to_vec() })
    }

    /// `v = receiver.name(args)`, or no value for a `void` method.
    pub fn call(&mut self, receiver: VarId, method: MethodRef, args: &[VarId]) -> VarId {
        self.add(StatementKind::Call { receiver, method, args: args.to_vec() })
    }

    /// `v = receiver.field`.
    pub fn field_get(&mut self, receiver: VarId, field: FieldRef) -> VarId {
        self.add(StatementKind::FieldGet { receiver: Some(receiver), field })
    }

    /// `v = Owner.field`.
    pub fn static_field_get(&mut self, field: FieldRef) -> VarId {
        self.add(StatementKind::FieldGet { receiver: None, field })
    }

    /// `receiver.field = value` (no value).
    pub fn field_set(&mut self, receiver: VarId, field: FieldRef, value: VarId) -> VarId {
        self.add(StatementKind::FieldSet { receiver: Some(receiver), field, value })
    }

    /// `Owner.field = value` (no value).
    pub fn static_field_set(&mut self, field: FieldRef, value: VarId) -> VarId {
        self.add(StatementKind::FieldSet { receiver: None, field, value })
    }
}
