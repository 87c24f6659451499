//! [`validate`]: checks a test case against the class path before anything
//! runs it, so that later stages index values without `Option`s and the
//! executor never hands the JVM an inconsistent call.
//!
//! The checks, in order, for each statement (the first failure is reported):
//! 1. every used [`VarId`] names an earlier statement that produces a value;
//! 2. what the statement refers to exists: classes on the class path,
//!    methods and fields by name and descriptor in the owner or its
//!    supertypes, with the static-ness the statement kind needs, enum
//!    constants, constructors declared by an instantiable class, members
//!    looked up by reflection declared by the class named, lambdas of a
//!    functional interface ([`crate::functional`]) with its abstract method;
//! 3. the values fit: argument counts and types, receivers, stored values
//!    (see [`Validator::is_assignable`]);
//! 4. the statement's `ty` agrees with the value it produces.
//!
//! Then the call under test, if any, must be a constructor or method call.
//! Access (`private`, package-private) is not checked: which members a test
//! may call is the test cluster's decision.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use model::classfile::{ClassFile, Member};
use model::classpath::ClassPath;
use model::descriptor::FieldType;
use model::hierarchy::{Supertypes, access};
use model::names::{BinaryName, InternalName};
use model::signature::JavaType;

use crate::assignability;
use crate::ir::{FieldRef, LambdaBody, MemberRef, MethodRef, Statement, StatementKind, TestCase, VarId};

/// Why a test case is invalid: the statement concerned and what is wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ValidationError {
    /// Statement `index`, printed as `statement` (`v3 = org.Foo.bar(v1)`), is inconsistent.
    #[error("statement {index} ({statement}): {error}")]
    Statement {
        /// The index of the statement.
        index: usize,
        /// The statement in the text form, `vN = ` included.
        statement: String,
        /// Boxed: the members it names make it large, and errors are rare.
        error: Box<StatementError>,
    },
    /// [`TestCase::call_under_test`] is past the last statement.
    #[error("call under test {var} is not a statement of the test case (it has {len})")]
    CallUnderTestMissing {
        /// The call under test named by the test case.
        var: VarId,
        /// The number of statements.
        len: usize,
    },
    /// [`TestCase::call_under_test`] names a statement that calls nothing.
    #[error("call under test {var} ({statement}) is not a constructor or method call")]
    CallUnderTestNotACall {
        /// The call under test named by the test case.
        var: VarId,
        /// That statement in the text form.
        statement: String,
    },
}

impl ValidationError {
    /// The index of the statement concerned.
    pub fn index(&self) -> usize {
        match self {
            ValidationError::Statement { index, .. } => *index,
            ValidationError::CallUnderTestMissing { var, .. } | ValidationError::CallUnderTestNotACall { var, .. } => {
                var.index()
            }
        }
    }
}

/// What is wrong with one statement. Types are printed as Java spells them
/// (`java.lang.String`, `int[]`), members in JVM form (`org.Foo.bar(I)V`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum StatementError {
    /// The statement uses itself, a later statement or one past the end.
    #[error("uses {var}, which is not defined before it")]
    UndefinedVar {
        /// The variable used.
        var: VarId,
    },
    /// The statement uses a statement that produces no value.
    #[error("uses {var}, which produces no value")]
    NoValue {
        /// The variable used.
        var: VarId,
    },
    /// A class the statement names cannot be loaded; `message` is the class
    /// path's (with the nearest names found).
    #[error("{message}")]
    ClassNotLoaded {
        /// The class.
        class: BinaryName,
        /// The class path's error message.
        message: String,
    },
    /// Whether `class` is a subtype of `expected` cannot be decided because
    /// a supertype of `class` is not on the class path.
    #[error("cannot tell whether {class} is a {expected}: its supertype {missing} is not on the class path")]
    IncompleteHierarchy {
        /// The class of the value.
        class: BinaryName,
        /// The class the value should be an instance of.
        expected: BinaryName,
        /// The first supertype of `class` that is not on the class path.
        missing: BinaryName,
    },
    /// `null` of a primitive type.
    #[error("null of primitive type {ty}")]
    PrimitiveNull {
        /// The primitive type.
        ty: FieldType,
    },
    /// [`StatementKind::EnumConstant`] of a class that is not an enum.
    #[error("{class} is not an enum")]
    NotAnEnum {
        /// The class named.
        class: BinaryName,
    },
    /// [`StatementKind::EnumConstant`] naming no constant of the enum.
    #[error("enum constant {class}.{name} not found")]
    EnumConstantNotFound {
        /// The enum class.
        class: BinaryName,
        /// The constant named.
        name: String,
    },
    /// [`StatementKind::NewArray`] longer than a Java array can be.
    #[error("array length {length} is more than an int can hold")]
    ArrayLength {
        /// The length asked for.
        length: u32,
    },
    /// [`StatementKind::ArrayStore`] into a value that is not an array.
    #[error("stores into {var}, which is {found}, not an array")]
    NotAnArray {
        /// The value stored into.
        var: VarId,
        /// Its type.
        found: FieldType,
    },
    /// [`StatementKind::ArrayStore`] past the end of an array created by a [`StatementKind::NewArray`] of the test case.
    #[error("index {index} is out of bounds for length {length}")]
    IndexOutOfBounds {
        /// The index stored at.
        index: u32,
        /// The array's length.
        length: u32,
    },
    /// [`StatementKind::ArrayStore`] of a value the array cannot hold.
    #[error("stored value is {found}, expected {expected}")]
    ElementType {
        /// The type of the stored value.
        found: FieldType,
        /// The array's element type.
        expected: FieldType,
    },
    /// [`StatementKind::Constructor`] of a method that is not `<init>` returning `void`.
    #[error("{method} is not a constructor")]
    NotAConstructor {
        /// The method called.
        method: MethodRef,
    },
    /// A method call of `<init>` or `<clinit>`.
    #[error("{method} is an initializer, not a method")]
    NotAMethod {
        /// The initializer called.
        method: MethodRef,
    },
    /// [`StatementKind::Constructor`] of an interface, abstract class or enum.
    #[error("cannot instantiate {class}: it is {what}")]
    NotInstantiable {
        /// The class.
        class: BinaryName,
        /// What it is: `an interface`, `an abstract class` or `an enum`.
        what: &'static str,
    },
    /// No method (or constructor) of that name and descriptor in the owner
    /// or, except for constructors, its supertypes.
    #[error("method {method} not found{}", missing_hint(missing))]
    MethodNotFound {
        /// The method looked for.
        method: MethodRef,
        /// The first supertype of the owner that is not on the class path, where the method might be.
        missing: Option<BinaryName>,
    },
    /// No field of that name and type in the owner or its supertypes.
    #[error("field {field} not found{}", missing_hint(missing))]
    FieldNotFound {
        /// The field looked for.
        field: FieldRef,
        /// The first supertype of the owner that is not on the class path, where the field might be.
        missing: Option<BinaryName>,
    },
    /// A static method called on a receiver, or an instance method without one.
    #[error("method {method} {}", static_mismatch(*is_static, "called"))]
    MethodStatic {
        /// The method.
        method: MethodRef,
        /// Whether the method is static.
        is_static: bool,
    },
    /// A static field accessed through a receiver, or an instance field without one.
    #[error("field {field} {}", static_mismatch(*is_static, "accessed"))]
    FieldStatic {
        /// The field.
        field: FieldRef,
        /// Whether the field is static.
        is_static: bool,
    },
    /// [`StatementKind::FieldSet`] of a `final` field.
    #[error("field {field} is final")]
    FinalField {
        /// The field.
        field: FieldRef,
    },
    /// A call with more or fewer arguments than the descriptor has parameters.
    #[error("{method} takes {expected} arguments, got {found}")]
    ArgumentCount {
        /// The method or constructor called.
        method: MethodRef,
        /// Its number of parameters.
        expected: usize,
        /// The number of arguments given.
        found: usize,
    },
    /// An argument that the parameter cannot take; `position` counts from 1.
    #[error("argument {position} is {found}, expected {expected}")]
    ArgumentType {
        /// The argument's position, from 1.
        position: usize,
        /// The argument's type.
        found: FieldType,
        /// The parameter's type.
        expected: FieldType,
    },
    /// A receiver of primitive type.
    #[error("receiver {var} is {found}, not a reference")]
    ReceiverNotReference {
        /// The receiver.
        var: VarId,
        /// Its type.
        found: FieldType,
    },
    /// A receiver that is not an instance of the member's owner.
    #[error("receiver {var} is {found}, expected {expected}")]
    ReceiverType {
        /// The receiver.
        var: VarId,
        /// Its type.
        found: FieldType,
        /// The member's owner.
        expected: FieldType,
    },
    /// [`StatementKind::FieldSet`] of a value the field cannot hold.
    #[error("assigned value is {found}, expected {expected}")]
    FieldValueType {
        /// The type of the assigned value.
        found: FieldType,
        /// The field's type.
        expected: FieldType,
    },
    /// The statement's `ty` does not agree with the value it produces
    /// (calls and field reads may narrow it to a subtype).
    #[error("its type is {ty}, but it produces {expected}")]
    WrongType {
        /// The statement's `ty`.
        ty: JavaType,
        /// The erased type of the value it produces.
        expected: FieldType,
    },
    /// The statement's `ty` is `void` but it produces a value.
    #[error("its type is void, but it produces {expected}")]
    VoidType {
        /// The erased type of the value it produces.
        expected: FieldType,
    },
    /// [`StatementKind::Lambda`] of a class that is not a functional
    /// interface, or with another method than its abstract one.
    #[error("{interface} is not a functional interface with the abstract method {method}")]
    NotFunctional {
        /// The class named as the lambda's interface.
        interface: BinaryName,
        /// The method named as its abstract method.
        method: MethodRef,
    },
    /// [`StatementKind::Mock`] of a class that no mock can implement (not
    /// an interface, an annotation, sealed), or with a stub of a method
    /// the interface has no abstract, value-returning one of, stubbed more
    /// than [`crate::functional::MAX_ANSWERS`] times, or with as many
    /// values as methods missing.
    #[error("{interface} cannot be mocked with stubs of {methods:?} returning {values} values")]
    NotMockable {
        /// The class named as the mock's interface.
        interface: BinaryName,
        /// The stubbed methods.
        methods: Vec<String>,
        /// How many values they return.
        values: usize,
    },
    /// [`StatementKind::Lambda`] whose body does not fit its method: a
    /// value from a `void` method, its first argument where the method
    /// cannot return it, a natural order for a method that is no comparison.
    #[error("a lambda of {method} cannot {what}")]
    LambdaBody {
        /// The lambda's method.
        method: MethodRef,
        /// What the body would do, as a clause (`return its first argument`).
        what: &'static str,
    },
    /// [`StatementKind::Lambda`] returning a value its method cannot return.
    #[error("returns {found}, expected {expected}")]
    ReturnType {
        /// The type of the returned value.
        found: FieldType,
        /// The method's return type.
        expected: FieldType,
    },
    /// The statement produces no value but its `ty` is not `void`.
    #[error("its type is {ty}, but it produces no value")]
    TypeWithoutValue {
        /// The statement's `ty`.
        ty: JavaType,
    },
}

fn missing_hint(missing: &Option<BinaryName>) -> String {
    match missing {
        Some(m) => format!(" (its supertype {m} is not on the class path)"),
        None => String::new(),
    }
}

fn static_mismatch(is_static: bool, verb: &str) -> String {
    if is_static {
        format!("is static, but {verb} on a receiver")
    } else {
        format!("is not static, but {verb} without a receiver")
    }
}

/// Checks `test_case` against `class_path` (see the module docs). To check
/// many test cases, keep one [`Validator`], which remembers supertypes.
///
/// # Errors
/// The first inconsistency found, naming its statement.
pub fn validate(test_case: &TestCase, class_path: &ClassPath) -> Result<(), ValidationError> {
    Validator::new(class_path).validate(test_case)
}

/// A validator that keeps the supertypes it has computed, for validating
/// many test cases against one class path (the executor's case).
#[derive(Debug)]
pub struct Validator<'cp> {
    class_path: &'cp ClassPath,
    /// By binary name.
    supertypes: Mutex<HashMap<String, Arc<KnownSupertypes>>>,
    /// By binary name: the abstract method of each functional interface.
    functional: Mutex<HashMap<String, Option<MethodRef>>>,
}

/// The supertypes of one class, from [`model::hierarchy`], with a set for
/// the subtype test.
#[derive(Debug)]
struct KnownSupertypes {
    supertypes: Supertypes,
    /// Binary names of the class itself and all its supertypes.
    all: HashSet<BinaryName>,
}

/// A value a statement uses: its erased static type, and whether it is a
/// `null` literal (which any reference type takes).
struct Value {
    ty: FieldType,
    is_null: bool,
}

impl<'cp> Validator<'cp> {
    /// A validator for test cases on `class_path`.
    pub fn new(class_path: &'cp ClassPath) -> Validator<'cp> {
        Validator { class_path, supertypes: Mutex::new(HashMap::new()), functional: Mutex::new(HashMap::new()) }
    }

    /// The class path the validator checks against.
    pub fn class_path(&self) -> &'cp ClassPath {
        self.class_path
    }

    /// Checks `test_case` (see the module docs).
    ///
    /// # Errors
    /// The first inconsistency found, naming its statement.
    pub fn validate(&self, test_case: &TestCase) -> Result<(), ValidationError> {
        for (var, statement) in test_case.iter() {
            self.check_statement(test_case, var, statement).map_err(|error| ValidationError::Statement {
                index: var.index(),
                statement: statement.numbered(var).to_string(),
                error: Box::new(error),
            })?;
        }
        if let Some(var) = test_case.call_under_test {
            match test_case.get(var) {
                None => return Err(ValidationError::CallUnderTestMissing { var, len: test_case.len() }),
                Some(s) if !s.kind.is_call() => {
                    return Err(ValidationError::CallUnderTestNotACall { var, statement: s.numbered(var).to_string() });
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// Whether a value of static type `from` may be passed where `to` is
    /// expected, without conversions: the same primitive type; or
    /// reference to reference where `from` is `to` or a subtype
    /// (superclasses and interfaces from [`model::hierarchy`]; every
    /// reference type is a `java.lang.Object`; arrays are `Cloneable` and
    /// `Serializable`, and `A[]` is a `B[]` when `A` is a reference subtype of
    /// `B`). A boxed value is an ordinary reference of its box class; there
    /// is no unboxing, widening or boxing.
    ///
    /// # Errors
    /// [`StatementError::ClassNotLoaded`] when `from`'s class cannot be loaded
    /// and [`StatementError::IncompleteHierarchy`] when the answer depends
    /// on a supertype that is not on the class path.
    pub fn is_assignable(&self, from: &FieldType, to: &FieldType) -> Result<bool, StatementError> {
        assignability::is_assignable(from, to, &mut |a, b| self.is_subclass(a, b))
    }

    /// Whether class `a` is `b` or a subtype of it, by the supertypes of `a`.
    fn is_subclass(&self, a: &InternalName, b: &InternalName) -> Result<bool, StatementError> {
        let (a, b) = (a.to_binary(), b.to_binary());
        let known = self.supertypes(a.as_str())?;
        if known.all.contains(b.as_str()) {
            return Ok(true);
        }
        match known.supertypes.first_missing(self.class_path) {
            Some(missing) => {
                Err(StatementError::IncompleteHierarchy { class: a, expected: b, missing: missing.clone() })
            }
            None => Ok(false),
        }
    }

    fn check_statement(&self, test_case: &TestCase, var: VarId, statement: &Statement) -> Result<(), StatementError> {
        for used in statement.kind.uses() {
            match test_case.get(used) {
                Some(s) if used < var => {
                    if !s.produces_value() {
                        return Err(StatementError::NoValue { var: used });
                    }
                }
                _ => return Err(StatementError::UndefinedVar { var: used }),
            }
        }
        let value = |var: VarId| value(test_case, var);
        match &statement.kind {
            StatementKind::Primitive(_)
            | StatementKind::Boxed(_)
            | StatementKind::String(_)
            | StatementKind::TempFile(_)
            | StatementKind::TempDir(_) => {}
            StatementKind::Null(ty) => {
                if !ty.is_reference() {
                    return Err(StatementError::PrimitiveNull { ty: ty.clone() });
                }
                self.check_type_exists(ty)?;
            }
            StatementKind::EnumConstant { class, name } => self.check_enum_constant(class, name)?,
            StatementKind::ClassLiteral(ty) => ty.iter().try_for_each(|t| self.check_type_exists(t))?,
            StatementKind::Reflect(member) => self.check_declared(member)?,
            StatementKind::Lambda { interface, method, body } => {
                self.check_lambda(interface, method)?;
                self.check_lambda_body(test_case, method, *body)?;
            }
            StatementKind::Mock { mocked, methods, returns } => {
                self.check_mock(mocked, methods, returns.len())?;
                for (method, var) in methods.iter().zip(returns) {
                    let ret = method.descriptor.ret.as_ref().expect("stubbable methods return a value");
                    self.check_assignable(&value(*var), ret, |found, expected| StatementError::ReturnType {
                        found,
                        expected,
                    })?;
                }
            }
            StatementKind::NewArray { elem, length } => {
                if i32::try_from(*length).is_err() {
                    return Err(StatementError::ArrayLength { length: *length });
                }
                self.check_type_exists(elem)?;
            }
            StatementKind::ArrayStore { array, index, value: stored } => {
                let array_value = value(*array);
                let FieldType::Array(elem) = &array_value.ty else {
                    return Err(StatementError::NotAnArray { var: *array, found: array_value.ty });
                };
                // The length is known only for arrays the test case creates;
                // past the end of others is an exception at run time, which is data.
                if let StatementKind::NewArray { length, .. } = test_case[*array].kind
                    && *index >= length
                {
                    return Err(StatementError::IndexOutOfBounds { index: *index, length });
                }
                self.check_assignable(&value(*stored), elem, |found, expected| StatementError::ElementType {
                    found,
                    expected,
                })?;
            }
            StatementKind::Constructor { method, args } => {
                if !method.is_constructor() || method.descriptor.ret.is_some() {
                    return Err(StatementError::NotAConstructor { method: method.clone() });
                }
                let class = self.load(method.owner.as_str())?;
                let what = if class.access & access::INTERFACE != 0 {
                    Some("an interface")
                } else if class.access & access::ENUM != 0 {
                    Some("an enum")
                } else if class.access & access::ABSTRACT != 0 {
                    Some("an abstract class")
                } else {
                    None
                };
                if let Some(what) = what {
                    return Err(StatementError::NotInstantiable { class: method.owner.clone(), what });
                }
                self.find_method(method)?;
                self.check_args(test_case, method, args)?;
            }
            StatementKind::StaticCall { method, args } => {
                self.check_method(method, true)?;
                self.check_args(test_case, method, args)?;
            }
            StatementKind::Call { receiver, method, args } => {
                self.check_method(method, false)?;
                self.check_receiver(&value(*receiver), *receiver, &method.owner)?;
                self.check_args(test_case, method, args)?;
            }
            StatementKind::FieldGet { receiver, field } => {
                self.check_field(field, *receiver, false)?;
                if let Some(receiver) = receiver {
                    self.check_receiver(&value(*receiver), *receiver, &field.owner)?;
                }
            }
            StatementKind::FieldSet { receiver, field, value: assigned } => {
                self.check_field(field, *receiver, true)?;
                if let Some(receiver) = receiver {
                    self.check_receiver(&value(*receiver), *receiver, &field.owner)?;
                }
                self.check_assignable(&value(*assigned), &field.ty, |found, expected| {
                    StatementError::FieldValueType { found, expected }
                })?;
            }
        }
        self.check_declared_type(statement)
    }

    /// Step 4: `ty` erases to the value's type, or for calls and field
    /// reads (whose declared type may be a type variable) to a subtype of it.
    fn check_declared_type(&self, statement: &Statement) -> Result<(), StatementError> {
        let Some(expected) = statement.kind.value_type() else {
            return match statement.ty {
                JavaType::Void => Ok(()),
                ref ty => Err(StatementError::TypeWithoutValue { ty: ty.clone() }),
            };
        };
        let Some(erased) = statement.ty.erasure() else {
            return Err(StatementError::VoidType { expected });
        };
        let may_narrow = matches!(
            statement.kind,
            StatementKind::StaticCall { .. } | StatementKind::Call { .. } | StatementKind::FieldGet { .. }
        );
        if erased == expected || (may_narrow && erased.is_reference() && self.is_assignable(&erased, &expected)?) {
            Ok(())
        } else {
            Err(StatementError::WrongType { ty: statement.ty.clone(), expected })
        }
    }

    fn check_assignable(
        &self,
        value: &Value,
        to: &FieldType,
        mismatch: impl FnOnce(FieldType, FieldType) -> StatementError,
    ) -> Result<(), StatementError> {
        if (value.is_null && to.is_reference()) || self.is_assignable(&value.ty, to)? {
            Ok(())
        } else {
            Err(mismatch(value.ty.clone(), to.clone()))
        }
    }

    fn check_args(&self, test_case: &TestCase, method: &MethodRef, args: &[VarId]) -> Result<(), StatementError> {
        let params = &method.descriptor.params;
        if args.len() != params.len() {
            return Err(StatementError::ArgumentCount {
                method: method.clone(),
                expected: params.len(),
                found: args.len(),
            });
        }
        for (i, (arg, param)) in args.iter().zip(params).enumerate() {
            self.check_assignable(&value(test_case, *arg), param, |found, expected| StatementError::ArgumentType {
                position: i + 1,
                found,
                expected,
            })?;
        }
        Ok(())
    }

    fn check_receiver(&self, receiver: &Value, var: VarId, owner: &BinaryName) -> Result<(), StatementError> {
        if !receiver.ty.is_reference() {
            return Err(StatementError::ReceiverNotReference { var, found: receiver.ty.clone() });
        }
        let owner = FieldType::Object(owner.to_internal());
        self.check_assignable(receiver, &owner, |found, expected| StatementError::ReceiverType { var, found, expected })
    }

    fn check_method(&self, method: &MethodRef, want_static: bool) -> Result<(), StatementError> {
        if method.name.starts_with('<') {
            return Err(StatementError::NotAMethod { method: method.clone() });
        }
        let is_static = self.find_method(method)? & access::STATIC != 0;
        if is_static != want_static {
            return Err(StatementError::MethodStatic { method: method.clone(), is_static });
        }
        Ok(())
    }

    fn check_field(&self, field: &FieldRef, receiver: Option<VarId>, write: bool) -> Result<(), StatementError> {
        let access = self.find_field(field)?;
        let is_static = access & access::STATIC != 0;
        if is_static != receiver.is_none() {
            return Err(StatementError::FieldStatic { field: field.clone(), is_static });
        }
        if write && access & access::FINAL != 0 {
            return Err(StatementError::FinalField { field: field.clone() });
        }
        Ok(())
    }

    /// A member looked up by reflection must be declared by the class named
    /// (`getDeclaredMethod` does not look in supertypes), and the classes
    /// of its parameters must exist (the lookup names them).
    fn check_declared(&self, member: &MemberRef) -> Result<(), StatementError> {
        let class = self.load(member.owner().as_str())?;
        match member {
            MemberRef::Method(method) => {
                if method.name == "<clinit>" {
                    return Err(StatementError::NotAMethod { method: method.clone() });
                }
                let descriptor = method.descriptor.to_descriptor();
                find_member(&class, &class.methods, &method.name, &descriptor)
                    .ok_or_else(|| StatementError::MethodNotFound { method: method.clone(), missing: None })?;
                method.descriptor.params.iter().try_for_each(|p| self.check_type_exists(p))
            }
            MemberRef::Field(field) => find_member(&class, &class.fields, &field.name, &field.ty.to_descriptor())
                .map(drop)
                .ok_or_else(|| StatementError::FieldNotFound { field: field.clone(), missing: None }),
        }
    }

    /// `interface` is a functional interface whose abstract method is `method`.
    fn check_lambda(&self, interface: &BinaryName, method: &MethodRef) -> Result<(), StatementError> {
        self.load(interface.as_str())?;
        let mut known = self.functional.lock().expect("functional interface cache");
        let found = known
            .entry(interface.to_string())
            .or_insert_with(|| crate::functional::functional_method(self.class_path, interface.as_str()));
        if found.as_ref() == Some(method) {
            Ok(())
        } else {
            Err(StatementError::NotFunctional { interface: interface.clone(), method: method.clone() })
        }
    }

    /// `interface` can be mocked and each of `methods` stubbed at most
    /// [`crate::functional::MAX_ANSWERS`] times (its answers in order), with
    /// one value each (see [`StatementError::NotMockable`]).
    fn check_mock(&self, interface: &BinaryName, methods: &[MethodRef], values: usize) -> Result<(), StatementError> {
        self.load(interface.as_str())?;
        let stubbable = crate::functional::stubbable_methods(self.class_path, interface.as_str());
        let mut answers: std::collections::HashMap<&MethodRef, usize> = std::collections::HashMap::new();
        let mut answer = |m| {
            let n = answers.entry(m).or_default();
            *n += 1;
            *n <= crate::functional::MAX_ANSWERS
        };
        let fits = stubbable.is_some_and(|all| methods.iter().all(|m| all.contains(m) && answer(m)));
        if fits && methods.len() == values {
            Ok(())
        } else {
            Err(StatementError::NotMockable {
                interface: interface.clone(),
                methods: methods.iter().map(ToString::to_string).collect(),
                values,
            })
        }
    }

    /// The body fits the method (see [`StatementError::LambdaBody`]).
    fn check_lambda_body(
        &self,
        test_case: &TestCase,
        method: &MethodRef,
        body: LambdaBody,
    ) -> Result<(), StatementError> {
        let params = &method.descriptor.params;
        let refuse = |what| Err(StatementError::LambdaBody { method: method.clone(), what });
        let Some(ret) = &method.descriptor.ret else {
            return if body == LambdaBody::Default { Ok(()) } else { refuse("return a value") };
        };
        match body {
            LambdaBody::Default => Ok(()),
            LambdaBody::Returns(var) => self.check_assignable(&value(test_case, var), ret, |found, expected| {
                StatementError::ReturnType { found, expected }
            }),
            LambdaBody::Identity => match params.first() {
                Some(first) if self.is_assignable(first, ret)? => Ok(()),
                _ => refuse("return its first argument"),
            },
            LambdaBody::NaturalOrder => {
                let comparison = params.len() == 2 && params.iter().all(FieldType::is_reference);
                if comparison && *ret == FieldType::Base(model::descriptor::BaseType::Int) {
                    Ok(())
                } else {
                    refuse("compare its arguments in natural order")
                }
            }
        }
    }

    fn check_enum_constant(&self, class_name: &BinaryName, name: &str) -> Result<(), StatementError> {
        let class = self.load(class_name.as_str())?;
        if class.access & access::ENUM == 0 {
            return Err(StatementError::NotAnEnum { class: class_name.clone() });
        }
        let descriptor = FieldType::Object(class_name.to_internal()).to_descriptor();
        match find_member(&class, &class.fields, name, &descriptor) {
            Some(f) if f.access & access::ENUM != 0 => Ok(()),
            _ => Err(StatementError::EnumConstantNotFound { class: class_name.clone(), name: name.to_string() }),
        }
    }

    /// The access flags of the method: declared by the owner, or for
    /// methods (not constructors) inherited from a superclass or a
    /// superinterface, as JVM method resolution finds them (JVMS §5.4.3.3):
    /// private members are not inherited, nor are static interface methods.
    fn find_method(&self, method: &MethodRef) -> Result<u16, StatementError> {
        let descriptor = method.descriptor.to_descriptor();
        let not_found = |missing| StatementError::MethodNotFound { method: method.clone(), missing };
        if method.is_constructor() {
            let class = self.load(method.owner.as_str())?;
            return find_member(&class, &class.methods, &method.name, &descriptor)
                .map(|m| m.access)
                .ok_or_else(|| not_found(None));
        }
        self.find_member(method.owner.as_str(), |c| &c.methods, &method.name, &descriptor, access::STATIC)?
            .ok_or_else(|| not_found(self.missing_supertype(method.owner.as_str())))
    }

    /// The access flags of the field, declared by the owner or inherited.
    fn find_field(&self, field: &FieldRef) -> Result<u16, StatementError> {
        let descriptor = field.ty.to_descriptor();
        // Interface fields are static and inherited all the same.
        self.find_member(field.owner.as_str(), |c| &c.fields, &field.name, &descriptor, 0)?.ok_or_else(|| {
            StatementError::FieldNotFound {
                field: field.clone(),
                missing: self.missing_supertype(field.owner.as_str()),
            }
        })
    }

    /// Looks `name` and `descriptor` up in `owner`, then in its superclasses
    /// and then its superinterfaces, skipping supertype members with a flag
    /// in `hidden` (for superinterfaces also those in `hidden_in_interfaces`).
    fn find_member(
        &self,
        owner: &str,
        members: impl Fn(&ClassFile) -> &[Member],
        name: &str,
        descriptor: &str,
        hidden_in_interfaces: u16,
    ) -> Result<Option<u16>, StatementError> {
        let class = self.load(owner)?;
        if let Some(m) = find_member(&class, members(&class), name, descriptor) {
            return Ok(Some(m.access));
        }
        let known = self.supertypes(owner)?;
        let inherited = known.supertypes.superclasses.iter().map(|s| (s, access::PRIVATE));
        let inherited =
            inherited.chain(known.supertypes.interfaces.iter().map(|s| (s, access::PRIVATE | hidden_in_interfaces)));
        for (sup, hidden) in inherited {
            let Ok(class) = self.class_path.load(sup.as_str()) else { continue };
            if let Some(m) = find_member(&class, members(&class), name, descriptor).filter(|m| m.access & hidden == 0) {
                return Ok(Some(m.access));
            }
        }
        Ok(None)
    }

    fn check_type_exists(&self, ty: &FieldType) -> Result<(), StatementError> {
        match ty {
            FieldType::Base(_) => Ok(()),
            FieldType::Object(name) => self.load(name.to_binary().as_str()).map(drop),
            FieldType::Array(elem) => self.check_type_exists(elem),
        }
    }

    fn load(&self, binary_name: &str) -> Result<Arc<ClassFile>, StatementError> {
        self.class_path
            .load(binary_name)
            .map_err(|e| StatementError::ClassNotLoaded { class: BinaryName::new(binary_name), message: e.to_string() })
    }

    fn supertypes(&self, binary_name: &str) -> Result<Arc<KnownSupertypes>, StatementError> {
        if let Some(s) = self.supertypes.lock().expect("supertype cache").get(binary_name) {
            return Ok(s.clone());
        }
        let supertypes = Supertypes::of(self.class_path, binary_name).map_err(|e| StatementError::ClassNotLoaded {
            class: BinaryName::new(binary_name),
            message: e.to_string(),
        })?;
        let all = std::iter::once(BinaryName::new(binary_name)).chain(supertypes.iter().cloned()).collect();
        let supertypes = Arc::new(KnownSupertypes { supertypes, all });
        self.supertypes.lock().expect("supertype cache").insert(binary_name.to_string(), supertypes.clone());
        Ok(supertypes)
    }

    /// The first supertype of `binary_name` that is not on the class path,
    /// for a "not found" message; `None` also when the class cannot be loaded.
    fn missing_supertype(&self, binary_name: &str) -> Option<BinaryName> {
        let known = self.supertypes(binary_name).ok()?;
        known.supertypes.first_missing(self.class_path).cloned()
    }
}

fn find_member<'c>(class: &'c ClassFile, members: &'c [Member], name: &str, descriptor: &str) -> Option<&'c Member> {
    members.iter().find(|m| class.member_name(m) == name && class.member_descriptor(m) == descriptor)
}

/// The value `var` names; the caller has checked that it is an earlier,
/// value-producing statement, which was validated before.
fn value(test_case: &TestCase, var: VarId) -> Value {
    let statement = &test_case[var];
    let ty = statement
        .ty
        .erasure()
        .or_else(|| statement.kind.value_type())
        .unwrap_or(FieldType::Object(InternalName::object()));
    Value { ty, is_null: matches!(statement.kind, StatementKind::Null(_)) }
}

#[cfg(test)]
mod tests {
    use model::descriptor::FieldType;
    use model::names::BinaryName;
    use model::signature::{ClassTypeSig, JavaType, TypeArg};

    use super::*;
    use crate::builder::TestCaseBuilder;
    use crate::ir::{Primitive, Statement};
    use crate::testutil::{class_path, fixture_classes};

    fn m(owner: &str, name: &str, descriptor: &str) -> MethodRef {
        MethodRef::parse(owner, name, descriptor).unwrap()
    }

    fn f(owner: &str, name: &str, descriptor: &str) -> FieldRef {
        FieldRef::parse(owner, name, descriptor).unwrap()
    }

    fn t(descriptor: &str) -> FieldType {
        FieldType::parse(descriptor).unwrap()
    }

    /// A class type, possibly with exact type arguments.
    fn class(name: &str, args: &[JavaType]) -> JavaType {
        let mut sig = ClassTypeSig::new(InternalName::new(name));
        sig.args = args.iter().cloned().map(TypeArg::Exact).collect();
        JavaType::Class(sig)
    }

    /// Appends one statement and returns its value.
    type Make = fn(&mut TestCaseBuilder) -> VarId;

    fn new_counter(b: &mut TestCaseBuilder) -> VarId {
        b.construct(m("fix.Counter", "<init>", "()V"), &[])
    }

    fn outcome(test_case: &TestCase, class_path: &ClassPath) -> String {
        match validate(test_case, class_path) {
            Ok(()) => "ok".to_string(),
            Err(e) => e.to_string(),
        }
    }

    /// Builds a test case on the fixture class path and compares the
    /// validation outcome: `ok` or the error message.
    fn check(build: impl FnOnce(&mut TestCaseBuilder), expected: &str) {
        let Some(class_path) = class_path() else { return };
        let mut b = TestCaseBuilder::new();
        build(&mut b);
        let test_case = b.build();
        assert_eq!(outcome(&test_case, class_path), expected, "for\n{test_case}");
    }

    #[test]
    fn well_formed_calls_constructors_and_fields_are_valid() {
        check(
            |b| {
                let v0 = b.int(5);
                let v1 = b.construct(m("fix.Counter", "<init>", "(I)V"), &[v0]);
                let v2 = b.call(v1, m("fix.Counter", "add", "(I)I"), &[v0]);
                b.call(v1, m("fix.Counter", "reset", "()V"), &[]);
                b.static_call(m("fix.Counter", "twice", "(I)I"), &[v2]);
                let v5 = b.static_field_get(f("fix.Counter", "count", "I"));
                b.static_field_set(f("fix.Counter", "count", "I"), v5);
                b.static_field_get(f("fix.Counter", "LIMIT", "I"));
                b.field_set(v1, f("fix.Counter", "value", "I"), v0);
                b.field_get(v1, f("fix.Counter", "name", "Ljava/lang/String;"));
                let v10 = b.call(v1, m("fix.Counter", "hidden", "()I"), &[]);
                b.call_under_test(v10);
            },
            "ok",
        );
    }

    #[test]
    fn literals_enum_constants_and_class_literals_are_valid() {
        check(
            |b| {
                b.boolean(true);
                b.char(0);
                b.double(f64::NAN);
                b.boxed(Primitive::Long(1));
                b.string("x");
                b.null(t("Lfix/Counter;"));
                b.null(t("[[I"));
                b.enum_constant(BinaryName::new("fix.Color"), "GREEN");
                b.class_literal(t("Lfix/Named;"));
                b.class_literal(t("[J"));
            },
            "ok",
        );
    }

    #[test]
    fn void_class_members_by_reflection_and_lambdas_are_valid() {
        use crate::ir::{LambdaBody, MemberRef};
        check(
            |b| {
                b.void_class();
                b.reflect(MemberRef::Method(m("fix.Counter", "hidden", "()I")));
                b.reflect(MemberRef::Method(m("fix.Counter", "<init>", "(Ljava/lang/String;)V")));
                b.reflect(MemberRef::Field(f("fix.Counter", "secret", "I")));
                let text = b.string("s");
                let name = m("fix.Named", "name", "()Ljava/lang/String;");
                b.lambda(BinaryName::new("fix.Named"), name, LambdaBody::Returns(text));
                let compare = m("java.util.Comparator", "compare", "(Ljava/lang/Object;Ljava/lang/Object;)I");
                b.lambda(BinaryName::new("java.util.Comparator"), compare, LambdaBody::NaturalOrder);
                let apply = m("java.util.function.Function", "apply", "(Ljava/lang/Object;)Ljava/lang/Object;");
                b.lambda(BinaryName::new("java.util.function.UnaryOperator"), apply, LambdaBody::Identity);
            },
            "ok",
        );
    }

    #[test]
    fn mocks_stub_abstract_methods_of_an_interface_with_values_of_their_return_types() {
        let has_next = || m("java.util.Iterator", "hasNext", "()Z");
        let iterator = || BinaryName::new("java.util.Iterator");
        check(
            |b| {
                let yes = b.boolean(true);
                let text = b.string("s");
                let next = m("java.util.Iterator", "next", "()Ljava/lang/Object;");
                b.mock(iterator(), vec![has_next(), next], vec![yes, text]);
                b.mock(iterator(), vec![], vec![]);
            },
            "ok",
        );
        check(
            |b| {
                let one = b.int(1);
                b.mock(iterator(), vec![has_next()], vec![one]);
            },
            "statement 1 (v1 = mock(java.util.Iterator).stub(hasNext, v0)): returns int, expected boolean",
        );
        check(
            |b| {
                let yes = b.boolean(true);
                b.mock(iterator(), vec![m("java.util.Iterator", "remove", "()V")], vec![yes]);
            },
            "statement 1 (v1 = mock(java.util.Iterator).stub(remove, v0)): java.util.Iterator cannot be mocked with stubs of [\"java.util.Iterator.remove()V\"] returning 1 values",
        );
        // A method stubbed up to three times answers in that order; a fourth is too many.
        check(
            |b| {
                let (yes, no) = (b.boolean(true), b.boolean(false));
                b.mock(iterator(), vec![has_next(), has_next(), has_next()], vec![yes, yes, no]);
            },
            "ok",
        );
        check(
            |b| {
                let yes = b.boolean(true);
                b.mock(iterator(), vec![has_next(); 4], vec![yes; 4]);
            },
            "statement 1 (v1 = mock(java.util.Iterator).stub(hasNext, v0).stub(hasNext, v0).stub(hasNext, v0).stub(hasNext, v0)): java.util.Iterator cannot be mocked with stubs of [\"java.util.Iterator.hasNext()Z\", \"java.util.Iterator.hasNext()Z\", \"java.util.Iterator.hasNext()Z\", \"java.util.Iterator.hasNext()Z\"] returning 4 values",
        );
        check(
            |b| {
                b.mock(BinaryName::new("java.lang.String"), vec![], vec![]);
            },
            "statement 0 (v0 = mock(java.lang.String)): java.lang.String cannot be mocked with stubs of [] returning 0 values",
        );
    }

    #[test]
    fn members_by_reflection_must_be_declared_and_lambdas_must_fit_their_interface() {
        use crate::ir::{LambdaBody, MemberRef};
        check(
            |b| {
                b.reflect(MemberRef::Method(m("fix.Square", "name", "()Ljava/lang/String;")));
            },
            "statement 0 (v0 = fix.Square.class.getDeclaredMethod(\"name\")): method fix.Square.name()Ljava/lang/String; not found",
        );
        let run = || m("java.lang.Runnable", "run", "()V");
        check(
            |b| {
                b.lambda(BinaryName::new("java.util.List"), run(), LambdaBody::Default);
            },
            "statement 0 (v0 = (java.util.List) () -> {}): java.util.List is not a functional interface with the abstract method java.lang.Runnable.run()V",
        );
        check(
            |b| {
                let one = b.int(1);
                b.lambda(BinaryName::new("java.lang.Runnable"), run(), LambdaBody::Returns(one));
            },
            "statement 1 (v1 = (java.lang.Runnable) () -> {}): a lambda of java.lang.Runnable.run()V cannot return a value",
        );
        check(
            |b| {
                let one = b.long(1);
                let test = m("java.util.function.Predicate", "test", "(Ljava/lang/Object;)Z");
                b.lambda(BinaryName::new("java.util.function.Predicate"), test.clone(), LambdaBody::Identity);
                b.lambda(BinaryName::new("java.util.function.Predicate"), test, LambdaBody::Returns(one));
            },
            "statement 1 (v1 = (java.util.function.Predicate) (a) -> a): a lambda of java.util.function.Predicate.test(Ljava/lang/Object;)Z cannot return its first argument",
        );
        check(
            |b| {
                let one = b.long(1);
                let test = m("java.util.function.Predicate", "test", "(Ljava/lang/Object;)Z");
                b.lambda(BinaryName::new("java.util.function.Predicate"), test, LambdaBody::Returns(one));
            },
            "statement 1 (v1 = (java.util.function.Predicate) (a) -> v0): returns long, expected boolean",
        );
    }

    #[test]
    fn jdk_classes_resolve_with_their_hierarchy() {
        check(
            |b| {
                let list = b.construct(m("java.util.ArrayList", "<init>", "()V"), &[]);
                let text = b.string("a");
                // String is a CharSequence only through the JDK's class files.
                let counter = new_counter(b);
                b.call(counter, m("fix.Counter", "describe", "(Ljava/lang/CharSequence;)Ljava/lang/String;"), &[text]);
                b.call(list, m("java.util.ArrayList", "add", "(Ljava/lang/Object;)Z"), &[text]);
                // `size` declared by the interface, called on an ArrayList.
                b.call(list, m("java.util.List", "size", "()I"), &[]);
                b.call(list, m("java.util.Collection", "isEmpty", "()Z"), &[]);
                b.static_call(m("fix.Counter", "first", "(Ljava/util/List;)Ljava/lang/Object;"), &[list]);
                // Counter implements Comparable<Counter>: the erased interface method.
                b.call(counter, m("java.lang.Comparable", "compareTo", "(Ljava/lang/Object;)I"), &[counter]);
                b.call(counter, m("fix.Counter", "hashCode", "()I"), &[]);
            },
            "ok",
        );
    }

    #[test]
    fn inherited_members_are_found_in_superclasses_and_interfaces() {
        check(
            |b| {
                let square = b.construct(m("fix.Square", "<init>", "()V"), &[]);
                b.call(square, m("fix.Square", "name", "()Ljava/lang/String;"), &[]);
                b.call(square, m("fix.Square", "greet", "()Ljava/lang/String;"), &[]);
                b.call(square, m("fix.Named", "name", "()Ljava/lang/String;"), &[]);
                b.call(square, m("fix.Shape", "area", "()D"), &[]);
                b.static_field_get(f("fix.Square", "PREFIX", "Ljava/lang/String;"));
                let text = b.string("n");
                b.static_call(m("fix.Named", "of", "(Ljava/lang/String;)Lfix/Named;"), &[text]);
                b.call(square, m("fix.Shape", "size", "()I"), &[]);
            },
            "ok",
        );
        check(
            |b| {
                let square = b.construct(m("fix.Square", "<init>", "()V"), &[]);
                b.call(square, m("fix.Square", "size", "()I"), &[]);
            },
            "statement 1 (v1 = v0.size()): method fix.Square.size()I not found",
        );
        check(
            |b| {
                let text = b.string("n");
                b.static_call(m("fix.Square", "of", "(Ljava/lang/String;)Lfix/Named;"), &[text]);
            },
            "statement 1 (v1 = fix.Square.of(v0)): method fix.Square.of(Ljava/lang/String;)Lfix/Named; not found",
        );
    }

    #[test]
    fn values_must_be_defined_by_earlier_statements_that_produce_values() {
        check(
            |b| {
                let v0 = new_counter(b);
                b.call(v0, m("fix.Counter", "add", "(I)I"), &[VarId(4)]);
            },
            "statement 1 (v1 = v0.add(v4)): uses v4, which is not defined before it",
        );
        check(
            |b| {
                b.call(VarId(0), m("fix.Counter", "reset", "()V"), &[]);
            },
            "statement 0 (v0.reset()): uses v0, which is not defined before it",
        );
        check(
            |b| {
                let v0 = new_counter(b);
                let v1 = b.call(v0, m("fix.Counter", "reset", "()V"), &[]);
                b.static_call(m("fix.Counter", "twice", "(I)I"), &[v1]);
            },
            "statement 2 (v2 = fix.Counter.twice(v1)): uses v1, which produces no value",
        );
        check(
            |b| {
                let v0 = b.new_array(t("I"), 1);
                let v1 = b.int(1);
                let v2 = b.array_store(v0, 0, v1);
                b.array_store(v0, 0, v2);
            },
            "statement 3 (v0[0] = v2): uses v2, which produces no value",
        );
    }

    #[test]
    fn missing_classes_methods_and_fields_are_named() {
        let Some(class_path) = class_path() else { return };
        let cases = [
            (StatementKind::Constructor { method: m("org.Missing", "<init>", "()V"), args: vec![] }, "org.Missing"),
            (StatementKind::Null(t("Lfix/Nothing;")), "fix.Nothing"),
        ];
        for (kind, class) in cases {
            let mut b = TestCaseBuilder::new();
            let v0 = b.add(kind);
            let test_case = b.build();
            let err = outcome(&test_case, class_path);
            // The class path adds the nearest names it finds, which depend on the JDK.
            let expected =
                format!("statement 0 ({}): class {class} not found on the class path", test_case[v0].numbered(v0));
            assert!(err.starts_with(&expected), "{err}");
        }
        check(
            |b| {
                let v0 = b.int(1);
                b.static_call(m("fix.Counter", "twice", "(J)J"), &[v0]);
            },
            "statement 1 (v1 = fix.Counter.twice(v0)): method fix.Counter.twice(J)J not found",
        );
        check(
            |b| {
                b.construct(m("fix.Counter", "<init>", "(J)V"), &[]);
            },
            "statement 0 (v0 = new fix.Counter()): method fix.Counter.<init>(J)V not found",
        );
        check(
            |b| {
                b.static_field_get(f("fix.Counter", "count", "J"));
            },
            "statement 0 (v0 = fix.Counter.count): field fix.Counter.count:J not found",
        );
        check(
            |b| {
                b.enum_constant(BinaryName::new("fix.Color"), "BLUE");
            },
            "statement 0 (v0 = fix.Color.BLUE): enum constant fix.Color.BLUE not found",
        );
        check(
            |b| {
                b.enum_constant(BinaryName::new("fix.Color"), "DEFAULT");
            },
            "statement 0 (v0 = fix.Color.DEFAULT): enum constant fix.Color.DEFAULT not found",
        );
        check(
            |b| {
                b.enum_constant(BinaryName::new("fix.Counter"), "RED");
            },
            "statement 0 (v0 = fix.Counter.RED): fix.Counter is not an enum",
        );
    }

    #[test]
    fn arguments_must_match_the_descriptor_without_conversions() {
        let cases: &[(&str, Make, &str)] = &[
            ("(I)I", |b| b.int(1), "ok"),
            ("(I)I", |b| b.string("1"), "argument 1 is java.lang.String, expected int"),
            ("(I)I", |b| b.byte(1), "argument 1 is byte, expected int"),
            ("(I)I", |b| b.long(1), "argument 1 is long, expected int"),
            ("(I)I", |b| b.boxed(Primitive::Int(1)), "argument 1 is java.lang.Integer, expected int"),
            ("(I)I", |b| b.null(t("Ljava/lang/Integer;")), "argument 1 is java.lang.Integer, expected int"),
        ];
        for (descriptor, arg, expected) in cases {
            check(
                |b| {
                    let v0 = arg(b);
                    b.static_call(m("fix.Counter", "twice", descriptor), &[v0]);
                },
                &if *expected == "ok" {
                    "ok".to_string()
                } else {
                    format!("statement 1 (v1 = fix.Counter.twice(v0)): {expected}")
                },
            );
        }
        check(
            |b| {
                let v0 = b.int(1);
                b.static_call(m("fix.Counter", "twice", "(I)I"), &[v0, v0]);
            },
            "statement 1 (v1 = fix.Counter.twice(v0, v0)): fix.Counter.twice(I)I takes 1 arguments, got 2",
        );
    }

    #[test]
    fn references_are_assignable_to_supertypes_and_null_to_any_reference() {
        // (method, descriptor, argument) -> outcome of `fix.Counter.<method>(v0)`.
        let cases: &[(&str, &str, Make, &str)] = &[
            ("box", "(Ljava/lang/Integer;)Ljava/lang/Object;", |b| b.boxed(Primitive::Int(1)), "ok"),
            ("box", "(Ljava/lang/Integer;)Ljava/lang/Object;", |b| b.null(t("Ljava/lang/String;")), "ok"),
            (
                "box",
                "(Ljava/lang/Integer;)Ljava/lang/Object;",
                |b| b.boxed(Primitive::Long(1)),
                "argument 1 is java.lang.Long, expected java.lang.Integer",
            ),
            ("of", "(Ljava/lang/String;)Lfix/Counter;", |b| b.null(t("[I")), "ok"),
            (
                "of",
                "(Ljava/lang/String;)Lfix/Counter;",
                |b| b.class_literal(t("I")),
                "argument 1 is java.lang.Class, expected java.lang.String",
            ),
            ("sum", "([I)I", |b| b.new_array(t("I"), 2), "ok"),
            ("sum", "([I)I", |b| b.new_array(t("J"), 2), "argument 1 is long[], expected int[]"),
            ("count", "([Ljava/lang/Object;)I", |b| b.new_array(t("Ljava/lang/String;"), 2), "ok"),
            ("count", "([Ljava/lang/Object;)I", |b| b.new_array(t("[I"), 2), "ok"),
            (
                "count",
                "([Ljava/lang/Object;)I",
                |b| b.new_array(t("I"), 2),
                "argument 1 is int[], expected java.lang.Object[]",
            ),
            ("numbers", "([Ljava/lang/Number;)I", |b| b.new_array(t("Ljava/lang/Integer;"), 2), "ok"),
            (
                "numbers",
                "([Ljava/lang/Number;)I",
                |b| b.new_array(t("Ljava/lang/String;"), 2),
                "argument 1 is java.lang.String[], expected java.lang.Number[]",
            ),
            (
                "first",
                "(Ljava/util/List;)Ljava/lang/Object;",
                |b| b.construct(m("java.util.LinkedList", "<init>", "()V"), &[]),
                "ok",
            ),
            (
                "first",
                "(Ljava/util/List;)Ljava/lang/Object;",
                |b| b.construct(m("java.util.HashSet", "<init>", "()V"), &[]),
                "argument 1 is java.util.HashSet, expected java.util.List",
            ),
        ];
        for (name, descriptor, arg, expected) in cases {
            check(
                |b| {
                    let v0 = arg(b);
                    b.static_call(m("fix.Counter", name, descriptor), &[v0]);
                },
                &if *expected == "ok" {
                    "ok".to_string()
                } else {
                    format!("statement 1 (v1 = fix.Counter.{name}(v0)): {expected}")
                },
            );
        }
    }

    #[test]
    fn arrays_go_to_object_cloneable_and_serializable_only() {
        let Some(class_path) = class_path() else { return };
        let validator = Validator::new(class_path);
        let cases = [
            ("[I", "Ljava/lang/Object;", true),
            ("[I", "Ljava/lang/Cloneable;", true),
            ("[I", "Ljava/io/Serializable;", true),
            ("[I", "Ljava/lang/Comparable;", false),
            ("[[I", "[Ljava/lang/Cloneable;", true),
            ("[Lfix/Square;", "[Lfix/Named;", true),
            ("[Lfix/Named;", "[Lfix/Square;", false),
            ("Lfix/Square;", "Ljava/lang/Object;", true),
            ("Lfix/Named;", "Ljava/lang/Object;", true),
            ("Ljava/lang/Object;", "[I", false),
            ("I", "Ljava/lang/Integer;", false),
            ("Ljava/lang/Integer;", "I", false),
            ("Ljava/lang/Integer;", "Ljava/lang/Number;", true),
            ("Ljava/lang/Integer;", "Ljava/lang/Comparable;", true),
        ];
        for (from, to, expected) in cases {
            assert_eq!(validator.is_assignable(&t(from), &t(to)), Ok(expected), "{from} to {to}");
        }
    }

    #[test]
    fn receivers_must_be_instances_of_the_owner() {
        check(
            |b| {
                let v0 = b.int(1);
                b.call(v0, m("fix.Counter", "add", "(I)I"), &[v0]);
            },
            "statement 1 (v1 = v0.add(v0)): receiver v0 is int, not a reference",
        );
        check(
            |b| {
                let v0 = b.int(1);
                let v1 = b.string("x");
                b.call(v1, m("fix.Counter", "add", "(I)I"), &[v0]);
            },
            "statement 2 (v2 = v1.add(v0)): receiver v1 is java.lang.String, expected fix.Counter",
        );
        check(
            |b| {
                let v0 = b.null(t("Lfix/Counter;"));
                b.call(v0, m("fix.Counter", "reset", "()V"), &[]);
            },
            "ok",
        );
        check(
            |b| {
                let v0 = b.string("x");
                b.field_get(v0, f("fix.Counter", "value", "I"));
            },
            "statement 1 (v1 = v0.value): receiver v0 is java.lang.String, expected fix.Counter",
        );
    }

    #[test]
    fn static_ness_must_match_the_statement_kind() {
        check(
            |b| {
                let v0 = b.int(1);
                b.static_call(m("fix.Counter", "add", "(I)I"), &[v0]);
            },
            "statement 1 (v1 = fix.Counter.add(v0)): method fix.Counter.add(I)I is not static, but called without a receiver",
        );
        check(
            |b| {
                let v0 = new_counter(b);
                b.call(v0, m("fix.Counter", "twice", "(I)I"), &[v0]);
            },
            "statement 1 (v1 = v0.twice(v0)): method fix.Counter.twice(I)I is static, but called on a receiver",
        );
        check(
            |b| {
                b.static_field_get(f("fix.Counter", "value", "I"));
            },
            "statement 0 (v0 = fix.Counter.value): field fix.Counter.value:I is not static, but accessed without a receiver",
        );
        check(
            |b| {
                let v0 = new_counter(b);
                b.field_get(v0, f("fix.Counter", "count", "I"));
            },
            "statement 1 (v1 = v0.count): field fix.Counter.count:I is static, but accessed on a receiver",
        );
    }

    #[test]
    fn initializers_are_only_called_by_constructor_statements_of_concrete_classes() {
        check(
            |b| {
                b.construct(m("fix.Counter", "twice", "(I)I"), &[]);
            },
            "statement 0 (v0 = new fix.Counter()): fix.Counter.twice(I)I is not a constructor",
        );
        check(
            |b| {
                b.static_call(m("fix.Counter", "<init>", "()V"), &[]);
            },
            "statement 0 (fix.Counter.<init>()): fix.Counter.<init>()V is an initializer, not a method",
        );
        for (class, what) in
            [("fix.Shape", "an abstract class"), ("fix.Named", "an interface"), ("fix.Color", "an enum")]
        {
            check(
                |b| {
                    b.construct(m(class, "<init>", "()V"), &[]);
                },
                &format!("statement 0 (v0 = new {class}()): cannot instantiate {class}: it is {what}"),
            );
        }
    }

    #[test]
    fn field_writes_need_a_non_final_field_and_a_fitting_value() {
        check(
            |b| {
                let v0 = b.int(3);
                b.static_field_set(f("fix.Counter", "LIMIT", "I"), v0);
            },
            "statement 1 (fix.Counter.LIMIT = v0): field fix.Counter.LIMIT:I is final",
        );
        check(
            |b| {
                let v0 = b.long(3);
                b.static_field_set(f("fix.Counter", "count", "I"), v0);
            },
            "statement 1 (fix.Counter.count = v0): assigned value is long, expected int",
        );
        check(
            |b| {
                let v0 = b.construct(m("fix.Square", "<init>", "()V"), &[]);
                let v1 = b.double(2.0);
                b.field_set(v0, f("fix.Square", "side", "D"), v1);
            },
            "ok",
        );
    }

    #[test]
    fn array_stores_need_an_array_of_a_fitting_element_type() {
        check(
            |b| {
                let v0 = b.new_array(t("Ljava/lang/Object;"), 2);
                let v1 = b.string("x");
                b.array_store(v0, 1, v1);
                let v3 = b.new_array(t("I"), 1);
                b.array_store(v0, 0, v3);
            },
            "ok",
        );
        check(
            |b| {
                let v0 = b.new_array(t("I"), 2);
                let v1 = b.string("x");
                b.array_store(v0, 0, v1);
            },
            "statement 2 (v0[0] = v1): stored value is java.lang.String, expected int",
        );
        check(
            |b| {
                let v0 = b.new_array(t("I"), 2);
                let v1 = b.null(t("Ljava/lang/Integer;"));
                b.array_store(v0, 0, v1);
            },
            "statement 2 (v0[0] = v1): stored value is java.lang.Integer, expected int",
        );
        check(
            |b| {
                let v0 = b.new_array(t("I"), 2);
                let v1 = b.int(1);
                b.array_store(v0, 2, v1);
            },
            "statement 2 (v0[2] = v1): index 2 is out of bounds for length 2",
        );
        check(
            |b| {
                let v0 = b.string("x");
                b.array_store(v0, 0, v0);
            },
            "statement 1 (v0[0] = v0): stores into v0, which is java.lang.String, not an array",
        );
        check(
            |b| {
                b.new_array(t("I"), u32::MAX);
            },
            "statement 0 (v0 = new int[4294967295]): array length 4294967295 is more than an int can hold",
        );
        check(
            |b| {
                b.null(t("I"));
            },
            "statement 0 (v0 = (int) null): null of primitive type int",
        );
    }

    #[test]
    fn declared_types_must_agree_with_the_value() {
        let list_of_string = class("java/util/List", &[class("java/lang/String", &[])]);
        let cases: Vec<(Make, JavaType, &str)> = vec![
            (
                |b| b.construct(m("java.util.ArrayList", "<init>", "()V"), &[]),
                class("java/util/ArrayList", &[class("java/lang/String", &[])]),
                "ok",
            ),
            (
                |b| b.construct(m("java.util.ArrayList", "<init>", "()V"), &[]),
                list_of_string.clone(),
                "its type is java.util.List<java.lang.String>, but it produces java.util.ArrayList",
            ),
            (|b| b.int(1), JavaType::Base(model::descriptor::BaseType::Long), "its type is long, but it produces int"),
            (|b| b.int(1), JavaType::Void, "its type is void, but it produces int"),
            (
                |b| b.static_call(m("java.util.Collections", "emptyList", "()Ljava/util/List;"), &[]),
                list_of_string.clone(),
                "ok",
            ),
            (
                |b| b.static_call(m("java.util.Collections", "emptyList", "()Ljava/util/List;"), &[]),
                class("java/util/ArrayList", &[]),
                "ok",
            ),
            (
                |b| b.static_call(m("java.util.Collections", "emptyList", "()Ljava/util/List;"), &[]),
                class("java/lang/Object", &[]),
                "its type is java.lang.Object, but it produces java.util.List",
            ),
            (
                |b| b.static_call(m("java.lang.System", "gc", "()V"), &[]),
                list_of_string,
                "its type is java.util.List<java.lang.String>, but it produces no value",
            ),
        ];
        for (build, ty, expected) in cases {
            let Some(class_path) = class_path() else { return };
            let mut b = TestCaseBuilder::new();
            let v0 = build(&mut b);
            b.refine(v0, ty);
            let test_case = b.build();
            let expected = if expected == "ok" {
                "ok".to_string()
            } else {
                format!("statement 0 ({}): {expected}", test_case[v0].numbered(v0))
            };
            assert_eq!(outcome(&test_case, class_path), expected);
        }
        // A generic method's `T` narrowed to what the test case knows.
        check(
            |b| {
                let v0 = b.construct(m("java.util.ArrayList", "<init>", "()V"), &[]);
                let v1 = b.static_call(m("fix.Counter", "first", "(Ljava/util/List;)Ljava/lang/Object;"), &[v0]);
                b.refine(v1, class("java/lang/String", &[]));
                // Only the refined type makes v1 a CharSequence.
                let v2 = new_counter(b);
                b.call(v2, m("fix.Counter", "describe", "(Ljava/lang/CharSequence;)Ljava/lang/String;"), &[v1]);
            },
            "ok",
        );
    }

    #[test]
    fn the_call_under_test_must_be_a_call_of_the_test_case() {
        check(
            |b| {
                b.int(1);
                b.call_under_test(VarId(1));
            },
            "call under test v1 is not a statement of the test case (it has 1)",
        );
        check(
            |b| {
                let v0 = b.int(1);
                b.call_under_test(v0);
            },
            "call under test v0 (v0 = 1) is not a constructor or method call",
        );
    }

    #[test]
    fn errors_name_the_statement_index() {
        let Some(class_path) = class_path() else { return };
        let mut b = TestCaseBuilder::new();
        b.int(1);
        b.push(Statement { kind: StatementKind::String("x".into()), ty: JavaType::Void });
        let err = validate(&b.build(), class_path).unwrap_err();
        assert_eq!(err.index(), 1);
        assert!(
            matches!(&err, ValidationError::Statement { error, .. } if matches!(**error, StatementError::VoidType { .. })),
            "{err:?}"
        );
    }

    #[test]
    fn without_the_jdk_subtyping_that_needs_it_is_reported_as_undecidable() {
        let Some(classes) = fixture_classes() else { return };
        let class_path = ClassPath::new(&[classes]).unwrap();
        let mut b = TestCaseBuilder::new();
        let v0 = b.construct(m("fix.Square", "<init>", "()V"), &[]);
        b.static_call(m("fix.Counter", "first", "(Ljava/util/List;)Ljava/lang/Object;"), &[v0]);
        assert_eq!(
            outcome(&b.build(), &class_path),
            "statement 1 (v1 = fix.Counter.first(v0)): cannot tell whether fix.Square is a java.util.List: its supertype java.lang.Object is not on the class path"
        );
        // Direct interfaces are known from the class file itself.
        let validator = Validator::new(&class_path);
        assert_eq!(validator.is_assignable(&t("Lfix/Counter;"), &t("Ljava/lang/Comparable;")), Ok(true));
        let mut b = TestCaseBuilder::new();
        let v0 = b.construct(m("fix.Square", "<init>", "()V"), &[]);
        b.call(v0, m("fix.Square", "hashCode", "()I"), &[]);
        assert_eq!(
            outcome(&b.build(), &class_path),
            "statement 1 (v1 = v0.hashCode()): method fix.Square.hashCode()I not found (its supertype java.lang.Object is not on the class path)"
        );
    }
}
