//! The IR types: [`TestCase`], [`Statement`], [`StatementKind`] and the
//! references they hold. The crate docs give the rules; this module gives
//! the data and the queries every later stage needs (which values a
//! statement uses, whether it produces one, and of which erased type).

use std::ops::Index;

use model::descriptor::{BaseType, DescriptorError, FieldType, MethodDescriptor};
use model::names::{BinaryName, InternalName};
use model::signature::JavaType;
use serde::{Deserialize, Serialize};

/// The value produced by statement number `.0` of a test case, printed `v3`.
///
/// The same number also names the statement itself (for
/// [`TestCase::call_under_test`] and in errors), whether or not it produces
/// a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct VarId(pub u32);

/// A primitive value. `Char` is a UTF-16 code unit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Primitive {
    /// A `boolean`.
    Boolean(bool),
    /// A `byte`.
    Byte(i8),
    /// A `short`.
    Short(i16),
    /// A `char`, as a UTF-16 code unit.
    Char(u16),
    /// An `int`.
    Int(i32),
    /// A `long`.
    Long(i64),
    /// A `float`.
    Float(f32),
    /// A `double`.
    Double(f64),
}

/// A method or constructor (`name == "<init>"`) to call.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MethodRef {
    /// Declaring (or receiving) class.
    pub owner: BinaryName,
    /// The method's simple name, `<init>` for a constructor.
    pub name: String,
    /// The erased parameter and return types, as the JVM links the call.
    pub descriptor: MethodDescriptor,
}

/// A field to read or write.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FieldRef {
    /// Declaring (or receiving) class.
    pub owner: BinaryName,
    /// The field's name.
    pub name: String,
    /// The field's erased type.
    pub ty: FieldType,
}

/// How a [`StatementKind::TempFile`] or [`StatementKind::TempDir`] hands
/// out its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FileHandle {
    /// As a `java.io.File`.
    File,
    /// As a `java.nio.file.Path`.
    Path,
}

impl FileHandle {
    /// Internal name of the value's class.
    pub fn internal_name(self) -> &'static str {
        match self {
            FileHandle::File => "java/io/File",
            FileHandle::Path => "java/nio/file/Path",
        }
    }

    /// The handle whose class has the internal name `name`, if any.
    pub fn of(name: &str) -> Option<FileHandle> {
        [FileHandle::File, FileHandle::Path].into_iter().find(|h| h.internal_name() == name)
    }
}

/// A member that a [`StatementKind::Reflect`] looks up in its declaring
/// class, as `getDeclaredMethod`, `getDeclaredConstructor` and
/// `getDeclaredField` find it (declared there, not inherited).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MemberRef {
    /// A method, or a constructor when its name is `<init>`.
    Method(MethodRef),
    /// A field.
    Field(FieldRef),
}

impl MemberRef {
    /// The class that declares the member.
    pub fn owner(&self) -> &BinaryName {
        match self {
            MemberRef::Method(m) => &m.owner,
            MemberRef::Field(f) => &f.owner,
        }
    }

    /// Internal name of the reflection class of the value:
    /// `java/lang/reflect/Method`, `Constructor` or `Field`.
    pub fn reflection_class(&self) -> &'static str {
        match self {
            MemberRef::Method(m) if m.is_constructor() => "java/lang/reflect/Constructor",
            MemberRef::Method(_) => "java/lang/reflect/Method",
            MemberRef::Field(_) => "java/lang/reflect/Field",
        }
    }
}

/// What a [`StatementKind::Lambda`] does when its method is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LambdaBody {
    /// Nothing for a `void` method; otherwise it returns the default value
    /// of the return type (`null`, `0`, `false`). Arguments are ignored.
    Default,
    /// Returns the value of an earlier statement (captured, so in Java an
    /// effectively final local).
    Returns(VarId),
    /// Returns its first argument.
    Identity,
    /// Compares its two arguments in natural order,
    /// `((Comparable) a).compareTo(b)`.
    NaturalOrder,
}

/// What a statement does. Matched exhaustively everywhere.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum StatementKind {
    /// A primitive literal.
    Primitive(Primitive),
    /// A boxed primitive (`Integer.valueOf(3)`).
    Boxed(Primitive),
    /// A string literal.
    String(String),
    /// `null` of a reference type.
    Null(FieldType),
    /// `Color.RED`.
    EnumConstant {
        /// The enum class.
        class: BinaryName,
        /// The constant's name.
        name: String,
    },
    /// `Foo.class` (also `int.class`, `String[].class`); `None` is
    /// `void.class`, as `None` is `void` in [`MethodDescriptor::ret`].
    ClassLiteral(Option<FieldType>),
    /// A method, constructor or field by reflection:
    /// `Foo.class.getDeclaredMethod("name", int.class)`,
    /// `Foo.class.getDeclaredConstructor()`, `Foo.class.getDeclaredField("f")`.
    Reflect(MemberRef),
    /// A lambda of a functional interface: `(Comparator) (a, b) -> 0`. In a
    /// worker a `java.lang.reflect.Proxy`, in emitted tests a Java lambda.
    Lambda {
        /// The functional interface, the class of the value.
        interface: BinaryName,
        /// Its one abstract method, with the interface that declares it as owner.
        method: MethodRef,
        /// What the method does.
        body: LambdaBody,
    },
    /// A mock of an interface or abstract class that has no implementation
    /// a test can use (Mockito, in the spirit of EvoSuite's functional
    /// mocking): in
    /// emitted tests `mock(Store.class)` and, per stub,
    /// `when(store0.count()).thenReturn(int0)`, the stub answering whatever
    /// the arguments (`anyInt()`, `any()`); in a worker a
    /// `java.lang.reflect.Proxy` that answers as a Mockito 2 mock does, or
    /// for an abstract class a Mockito mock with that answer (the runtime's
    /// `Mocks.java`). Methods without a stub return Mockito's defaults
    /// (zero, `false`, empty collections, `null`).
    Mock {
        /// The mocked interface or abstract class, the class of the value.
        mocked: BinaryName,
        /// The stubbed methods ([`crate::functional`]'s stubbable methods),
        /// each with the type that declares it as owner. A method listed
        /// more than once (at most [`crate::functional::MAX_ANSWERS`] times)
        /// answers its calls in that order, the last answer repeating:
        /// `when(it0.hasNext()).thenReturn(true, false)`.
        methods: Vec<MethodRef>,
        /// The value each stubbed method returns (same index as
        /// `methods`), of earlier statements.
        returns: Vec<VarId>,
    },
    /// A new empty file in the test's temporary folder, the one place a
    /// test may write files: in a worker a file in its `java.io.tmpdir`,
    /// under JUnit one in the test class's temporary folder (JUnit 4's
    /// `TemporaryFolder` rule, JUnit 5's `@TempDir`). Never a relative path,
    /// which would land in the working directory of the build.
    TempFile(FileHandle),
    /// A new empty folder in the test's temporary folder (in a worker one
    /// in its `java.io.tmpdir`, under JUnit JUnit 4's
    /// `temporaryFolder.newFolder()` or JUnit 5's
    /// `Files.createTempDirectory(temporaryFolder, "ferrosuite")`), for the
    /// code that lists, walks or deletes folders.
    TempDir(FileHandle),
    /// `new T[length]` (`elem` may itself be an array type).
    NewArray {
        /// The element type.
        elem: FieldType,
        /// The number of elements (at most `i32::MAX`, see [`crate::validate()`]).
        length: u32,
    },
    /// `array[index] = value`; produces no value.
    ArrayStore {
        /// The array, of an earlier statement.
        array: VarId,
        /// The element index.
        index: u32,
        /// The value stored.
        value: VarId,
    },
    /// `new Owner(args)`.
    Constructor {
        /// The constructor (`<init>`, returning `void`).
        method: MethodRef,
        /// One argument per parameter.
        args: Vec<VarId>,
    },
    /// `Owner.name(args)`.
    StaticCall {
        /// The static method.
        method: MethodRef,
        /// One argument per parameter.
        args: Vec<VarId>,
    },
    /// `receiver.name(args)`.
    Call {
        /// The object the method is called on.
        receiver: VarId,
        /// The instance method.
        method: MethodRef,
        /// One argument per parameter.
        args: Vec<VarId>,
    },
    /// `receiver.field` or `Owner.field` when `receiver` is `None`.
    FieldGet {
        /// The object the field is read from; `None` for a static field.
        receiver: Option<VarId>,
        /// The field.
        field: FieldRef,
    },
    /// `receiver.field = value` (`Owner.field = value`); produces no value.
    FieldSet {
        /// The object the field is written to; `None` for a static field.
        receiver: Option<VarId>,
        /// The field.
        field: FieldRef,
        /// The value assigned.
        value: VarId,
    },
}

/// One statement: what it does and the static type of its value
/// ([`JavaType::Void`] when it produces none). The type may be generic
/// (`java.util.List<java.lang.String>`), refining the erased type the JVM sees.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Statement {
    /// What the statement does.
    pub kind: StatementKind,
    /// The static type of its value, possibly generic; [`JavaType::Void`] when it produces none.
    pub ty: JavaType,
}

/// A test case: statements in order, plus metadata for later stages.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TestCase {
    /// The statements; statement `i` defines [`VarId`]`(i)`.
    pub statements: Vec<Statement>,
    /// The statement that is the call under test (usually the last call
    /// on the class under test), if any.
    pub call_under_test: Option<VarId>,
    /// Regression assertions, in the order they are printed (each after
    /// the statement it checks, or at the end of the test).
    #[serde(default)]
    pub assertions: Vec<crate::assertion::Assertion>,
}

impl VarId {
    /// The index of the statement in [`TestCase::statements`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl Primitive {
    /// The value of an integral literal (a `char` by its code), `None` for
    /// a boolean or a floating-point one.
    pub fn integral(self) -> Option<i64> {
        match self {
            Primitive::Byte(v) => Some(v.into()),
            Primitive::Short(v) => Some(v.into()),
            Primitive::Char(v) => Some(v.into()),
            Primitive::Int(v) => Some(v.into()),
            Primitive::Long(v) => Some(v),
            Primitive::Boolean(_) | Primitive::Float(_) | Primitive::Double(_) => None,
        }
    }

    /// The integral values the literal stands for: its value, and for a
    /// `byte` also its unsigned value (`(byte) 0xFD` is the `253` that
    /// `InputStream.read()` returns for it). Empty when not integral.
    pub fn integral_views(self) -> impl Iterator<Item = i64> {
        let unsigned = match self {
            Primitive::Byte(v) if v < 0 => Some(i64::from(v as u8)),
            _ => None,
        };
        self.integral().into_iter().chain(unsigned)
    }

    /// A value of the same integral type holding `value` (a `byte` also
    /// takes an unsigned value up to 255, as its bits); `None` when the
    /// type is not integral or `value` does not fit it.
    pub fn with_integral(self, value: i64) -> Option<Primitive> {
        Some(match self {
            Primitive::Byte(_) => {
                Primitive::Byte(i8::try_from(value).ok().or_else(|| u8::try_from(value).ok().map(|u| u as i8))?)
            }
            Primitive::Short(_) => Primitive::Short(i16::try_from(value).ok()?),
            Primitive::Char(_) => Primitive::Char(u16::try_from(value).ok()?),
            Primitive::Int(_) => Primitive::Int(i32::try_from(value).ok()?),
            Primitive::Long(_) => Primitive::Long(value),
            Primitive::Boolean(_) | Primitive::Float(_) | Primitive::Double(_) => return None,
        })
    }

    /// The primitive type of the value.
    pub fn base_type(self) -> BaseType {
        match self {
            Primitive::Boolean(_) => BaseType::Boolean,
            Primitive::Byte(_) => BaseType::Byte,
            Primitive::Short(_) => BaseType::Short,
            Primitive::Char(_) => BaseType::Char,
            Primitive::Int(_) => BaseType::Int,
            Primitive::Long(_) => BaseType::Long,
            Primitive::Float(_) => BaseType::Float,
            Primitive::Double(_) => BaseType::Double,
        }
    }
}

impl LambdaBody {
    /// The earlier value the lambda returns, if it returns one.
    pub fn returned(self) -> Option<VarId> {
        match self {
            LambdaBody::Returns(v) => Some(v),
            LambdaBody::Default | LambdaBody::Identity | LambdaBody::NaturalOrder => None,
        }
    }
}

impl Primitive {
    /// The default value of a primitive type: `false`, `0`, `0L`, `0.0`, `'\u0000'`.
    pub fn zero(base: BaseType) -> Primitive {
        match base {
            BaseType::Boolean => Primitive::Boolean(false),
            BaseType::Byte => Primitive::Byte(0),
            BaseType::Short => Primitive::Short(0),
            BaseType::Char => Primitive::Char(0),
            BaseType::Int => Primitive::Int(0),
            BaseType::Long => Primitive::Long(0),
            BaseType::Float => Primitive::Float(0.0),
            BaseType::Double => Primitive::Double(0.0),
        }
    }
}

/// The box class of a primitive type, in internal form: `java/lang/Integer` for `int`.
pub fn box_class(base: BaseType) -> InternalName {
    InternalName::new(match base {
        BaseType::Boolean => "java/lang/Boolean",
        BaseType::Byte => "java/lang/Byte",
        BaseType::Short => "java/lang/Short",
        BaseType::Char => "java/lang/Character",
        BaseType::Int => "java/lang/Integer",
        BaseType::Long => "java/lang/Long",
        BaseType::Float => "java/lang/Float",
        BaseType::Double => "java/lang/Double",
    })
}

impl MethodRef {
    /// A method reference from its parts.
    pub fn new(owner: BinaryName, name: impl Into<String>, descriptor: MethodDescriptor) -> MethodRef {
        MethodRef { owner, name: name.into(), descriptor }
    }

    /// A method reference from strings: `MethodRef::parse("java.util.List", "add", "(Ljava/lang/Object;)Z")`.
    /// The owner is taken as it is; the descriptor is checked.
    ///
    /// # Errors
    /// A [`DescriptorError`] when `descriptor` is not a method descriptor.
    pub fn parse(owner: &str, name: &str, descriptor: &str) -> Result<MethodRef, DescriptorError> {
        Ok(MethodRef::new(BinaryName::new(owner), name, MethodDescriptor::parse(descriptor)?))
    }

    /// Whether this names a constructor (`<init>`).
    pub fn is_constructor(&self) -> bool {
        self.name == "<init>"
    }
}

impl FieldRef {
    /// A field reference from its parts.
    pub fn new(owner: BinaryName, name: impl Into<String>, ty: FieldType) -> FieldRef {
        FieldRef { owner, name: name.into(), ty }
    }

    /// A field reference from strings: `FieldRef::parse("org.Foo", "count", "I")`.
    /// The owner is taken as it is; the descriptor is checked.
    ///
    /// # Errors
    /// A [`DescriptorError`] when `descriptor` is not a field descriptor.
    pub fn parse(owner: &str, name: &str, descriptor: &str) -> Result<FieldRef, DescriptorError> {
        Ok(FieldRef::new(BinaryName::new(owner), name, FieldType::parse(descriptor)?))
    }
}

impl StatementKind {
    /// The method or constructor this statement calls (a constructor, a
    /// static or an instance call); `None` for other statements.
    pub fn called_method(&self) -> Option<&MethodRef> {
        match self {
            StatementKind::Constructor { method, .. }
            | StatementKind::StaticCall { method, .. }
            | StatementKind::Call { method, .. } => Some(method),
            _ => None,
        }
    }

    /// The values this statement uses, in evaluation order: receiver or
    /// array first, then arguments, then the stored value.
    pub fn uses(&self) -> impl Iterator<Item = VarId> + '_ {
        let (first, args, last): (Option<VarId>, &[VarId], Option<VarId>) = match self {
            StatementKind::Primitive(_)
            | StatementKind::Boxed(_)
            | StatementKind::String(_)
            | StatementKind::Null(_)
            | StatementKind::EnumConstant { .. }
            | StatementKind::ClassLiteral(_)
            | StatementKind::Reflect(_)
            | StatementKind::TempFile(_)
            | StatementKind::TempDir(_)
            | StatementKind::NewArray { .. } => (None, &[], None),
            StatementKind::Lambda { body, .. } => (None, &[], body.returned()),
            StatementKind::Mock { returns, .. } => (None, returns, None),
            StatementKind::ArrayStore { array, value, .. } => (Some(*array), &[], Some(*value)),
            StatementKind::Constructor { args, .. } | StatementKind::StaticCall { args, .. } => (None, args, None),
            StatementKind::Call { receiver, args, .. } => (Some(*receiver), args, None),
            StatementKind::FieldGet { receiver, .. } => (*receiver, &[], None),
            StatementKind::FieldSet { receiver, value, .. } => (*receiver, &[], Some(*value)),
        };
        first.into_iter().chain(args.iter().copied()).chain(last)
    }

    /// Rewrites every value the statement uses (those [`StatementKind::uses`]
    /// lists, in the same order) with `f`.
    pub fn map_uses(&mut self, mut f: impl FnMut(VarId) -> VarId) {
        match self {
            StatementKind::Primitive(_)
            | StatementKind::Boxed(_)
            | StatementKind::String(_)
            | StatementKind::Null(_)
            | StatementKind::EnumConstant { .. }
            | StatementKind::ClassLiteral(_)
            | StatementKind::Reflect(_)
            | StatementKind::TempFile(_)
            | StatementKind::TempDir(_)
            | StatementKind::NewArray { .. } => {}
            StatementKind::Lambda { body, .. } => {
                if let LambdaBody::Returns(v) = body {
                    *v = f(*v);
                }
            }
            StatementKind::ArrayStore { array, value, .. } => {
                *array = f(*array);
                *value = f(*value);
            }
            StatementKind::Constructor { args, .. }
            | StatementKind::StaticCall { args, .. }
            | StatementKind::Mock { returns: args, .. } => {
                args.iter_mut().for_each(|a| *a = f(*a));
            }
            StatementKind::Call { receiver, args, .. } => {
                *receiver = f(*receiver);
                args.iter_mut().for_each(|a| *a = f(*a));
            }
            StatementKind::FieldGet { receiver, .. } => {
                if let Some(r) = receiver {
                    *r = f(*r);
                }
            }
            StatementKind::FieldSet { receiver, value, .. } => {
                if let Some(r) = receiver {
                    *r = f(*r);
                }
                *value = f(*value);
            }
        }
    }

    /// Replaces use number `slot` (counted as [`StatementKind::uses`] lists
    /// them) by `var`; does nothing past the last use.
    pub fn set_use(&mut self, slot: usize, var: VarId) {
        let mut i = 0;
        self.map_uses(|v| {
            let out = if i == slot { var } else { v };
            i += 1;
            out
        });
    }

    /// Whether the statement produces a value that later statements may use:
    /// all do except [`StatementKind::ArrayStore`], [`StatementKind::FieldSet`]
    /// and calls of `void` methods.
    pub fn produces_value(&self) -> bool {
        self.value_type().is_some()
    }

    /// The erased type of the value the statement produces (what the JVM
    /// sees), or `None` when it produces none.
    pub fn value_type(&self) -> Option<FieldType> {
        match self {
            StatementKind::Primitive(p) => Some(FieldType::Base(p.base_type())),
            StatementKind::Boxed(p) => Some(FieldType::Object(box_class(p.base_type()))),
            StatementKind::String(_) => Some(FieldType::Object(InternalName::new("java/lang/String"))),
            StatementKind::Null(ty) => Some(ty.clone()),
            StatementKind::EnumConstant { class, .. } => Some(FieldType::Object(class.to_internal())),
            StatementKind::ClassLiteral(_) => Some(FieldType::Object(InternalName::new("java/lang/Class"))),
            StatementKind::Reflect(member) => Some(FieldType::Object(InternalName::new(member.reflection_class()))),
            StatementKind::Lambda { interface: class, .. } | StatementKind::Mock { mocked: class, .. } => {
                Some(FieldType::Object(class.to_internal()))
            }
            StatementKind::TempFile(handle) | StatementKind::TempDir(handle) => {
                Some(FieldType::Object(InternalName::new(handle.internal_name())))
            }
            StatementKind::NewArray { elem, .. } => Some(FieldType::Array(Box::new(elem.clone()))),
            StatementKind::ArrayStore { .. } | StatementKind::FieldSet { .. } => None,
            StatementKind::Constructor { method, .. } => Some(FieldType::Object(method.owner.to_internal())),
            StatementKind::StaticCall { method, .. } | StatementKind::Call { method, .. } => {
                method.descriptor.ret.clone()
            }
            StatementKind::FieldGet { field, .. } => Some(field.ty.clone()),
        }
    }

    /// Whether the statement calls a method or constructor (a candidate for
    /// [`TestCase::call_under_test`]).
    pub fn is_call(&self) -> bool {
        matches!(
            self,
            StatementKind::Constructor { .. } | StatementKind::StaticCall { .. } | StatementKind::Call { .. }
        )
    }
}

impl Statement {
    /// A statement whose type is the erased type of its value
    /// ([`StatementKind::value_type`]), or `void`.
    pub fn new(kind: StatementKind) -> Statement {
        let ty = kind.value_type().map_or(JavaType::Void, JavaType::from);
        Statement { kind, ty }
    }

    /// Whether the statement produces a value (see [`StatementKind::produces_value`]).
    pub fn produces_value(&self) -> bool {
        self.kind.produces_value()
    }
}

impl TestCase {
    /// The number of statements.
    pub fn len(&self) -> usize {
        self.statements.len()
    }

    /// Whether the test case has no statements.
    pub fn is_empty(&self) -> bool {
        self.statements.is_empty()
    }

    /// The statement `var` names, or `None` past the end.
    pub fn get(&self, var: VarId) -> Option<&Statement> {
        self.statements.get(var.index())
    }

    /// The statements with their ids, in order.
    pub fn iter(&self) -> impl Iterator<Item = (VarId, &Statement)> {
        self.statements.iter().enumerate().map(|(i, s)| (var_id(i), s))
    }

    /// Appends a statement and returns its id. The caller keeps the
    /// "uses only earlier values" rule; [`crate::validate()`] checks it.
    pub fn push(&mut self, statement: Statement) -> VarId {
        self.statements.push(statement);
        var_id(self.statements.len() - 1)
    }
}

/// Indexing by [`VarId`]; panics past the end, which a validated test case
/// rules out for every id it holds.
impl Index<VarId> for TestCase {
    type Output = Statement;

    fn index(&self, var: VarId) -> &Statement {
        &self.statements[var.index()]
    }
}

/// The id of statement `index`. Test cases have far fewer than 2^32
/// statements; saturating keeps this total.
pub(crate) fn var_id(index: usize) -> VarId {
    VarId(u32::try_from(index).unwrap_or(u32::MAX))
}

#[cfg(test)]
mod tests {
    use model::descriptor::FieldType;
    use model::signature::JavaType;

    use super::*;
    use crate::builder::TestCaseBuilder;

    fn m(owner: &str, name: &str, descriptor: &str) -> MethodRef {
        MethodRef::parse(owner, name, descriptor).unwrap()
    }

    /// A test case with one statement of every kind, and its text form.
    fn every_kind() -> TestCase {
        let mut b = TestCaseBuilder::new();
        let v0 = b.int(1);
        let v1 = b.boxed(Primitive::Char(65));
        let v2 = b.string("s");
        b.null(FieldType::parse("Ljava/lang/String;").unwrap());
        b.enum_constant(BinaryName::new("org.Foo"), "RED");
        b.class_literal(FieldType::parse("I").unwrap());
        let v6 = b.new_array(FieldType::parse("I").unwrap(), 2);
        b.array_store(v6, 1, v0);
        let v8 = b.construct(m("org.Foo", "<init>", "(ILjava/lang/String;)V"), &[v0, v2]);
        b.static_call(m("org.Foo", "run", "()V"), &[]);
        b.call(v8, m("org.Foo", "get", "(Ljava/lang/Object;)J"), &[v1]);
        let field = FieldRef::parse("org.Foo", "next", "Lorg/Foo;").unwrap();
        b.field_get(v8, field.clone());
        b.static_field_set(field, v8);
        b.reflect(MemberRef::Method(m("org.Foo", "get", "(Ljava/lang/Object;)J")));
        let apply = m("java.util.function.Function", "apply", "(Ljava/lang/Object;)Ljava/lang/Object;");
        b.lambda(BinaryName::new("java.util.function.Function"), apply, LambdaBody::Returns(v2));
        b.void_class();
        b.build()
    }

    #[test]
    fn each_statement_reports_the_values_it_uses_and_its_value_type() {
        let rows: Vec<String> = every_kind()
            .iter()
            .map(|(var, s)| {
                let uses: Vec<String> = s.kind.uses().map(|v| v.to_string()).collect();
                let value = s.kind.value_type().map_or("-".to_string(), |t| t.to_descriptor());
                format!("{var}: uses [{}] value {value} ty {}", uses.join(" "), s.ty)
            })
            .collect();
        assert_eq!(
            rows,
            [
                "v0: uses [] value I ty int",
                "v1: uses [] value Ljava/lang/Character; ty java.lang.Character",
                "v2: uses [] value Ljava/lang/String; ty java.lang.String",
                "v3: uses [] value Ljava/lang/String; ty java.lang.String",
                "v4: uses [] value Lorg/Foo; ty org.Foo",
                "v5: uses [] value Ljava/lang/Class; ty java.lang.Class",
                "v6: uses [] value [I ty int[]",
                "v7: uses [v6 v0] value - ty void",
                "v8: uses [v0 v2] value Lorg/Foo; ty org.Foo",
                "v9: uses [] value - ty void",
                "v10: uses [v8 v1] value J ty long",
                "v11: uses [v8] value Lorg/Foo; ty org.Foo",
                "v12: uses [v8] value - ty void",
                "v13: uses [] value Ljava/lang/reflect/Method; ty java.lang.reflect.Method",
                "v14: uses [v2] value Ljava/util/function/Function; ty java.util.function.Function",
                "v15: uses [] value Ljava/lang/Class; ty java.lang.Class",
            ]
        );
    }

    #[test]
    fn only_calls_count_as_the_call_under_test() {
        let test_case = every_kind();
        let calls: Vec<u32> = test_case.iter().filter(|(_, s)| s.kind.is_call()).map(|(v, _)| v.0).collect();
        assert_eq!(calls, [8, 9, 10]);
    }

    #[test]
    fn test_cases_index_by_var_id_and_push_returns_the_new_id() {
        let mut test_case = TestCase::default();
        assert!(test_case.is_empty());
        let v0 = test_case.push(Statement::new(StatementKind::Primitive(Primitive::Boolean(true))));
        assert_eq!((v0, test_case.len()), (VarId(0), 1));
        assert_eq!(test_case[v0].ty, JavaType::Base(BaseType::Boolean));
        assert!(test_case.get(VarId(1)).is_none());
    }

    #[test]
    fn builder_refines_the_type_of_a_statement() {
        let mut b = TestCaseBuilder::new();
        let v0 = b.static_call(m("java.util.Collections", "emptyList", "()Ljava/util/List;"), &[]);
        let generic = model::signature::parse_field_signature("Ljava/util/List<Ljava/lang/String;>;").unwrap();
        b.refine(v0, generic.clone());
        assert_eq!(b.test_case()[v0].ty, generic);
        assert_eq!(b.build()[v0].ty.to_string(), "java.util.List<java.lang.String>");
    }

    #[test]
    fn test_cases_round_trip_through_serde() {
        let mut test_case = every_kind();
        test_case.call_under_test = Some(VarId(10));
        let json = serde_json::to_string(&test_case).unwrap();
        let back: TestCase = serde_json::from_str(&json).unwrap();
        assert_eq!(back, test_case);
        assert_eq!(back.to_string(), test_case.to_string());
    }

    #[test]
    fn box_classes_follow_the_primitive_type() {
        let names: Vec<String> = BaseType::ALL.iter().map(|b| format!("{b}:{}", box_class(*b).to_binary())).collect();
        assert_eq!(
            names.join(" "),
            "byte:java.lang.Byte char:java.lang.Character double:java.lang.Double float:java.lang.Float \
             int:java.lang.Integer long:java.lang.Long short:java.lang.Short boolean:java.lang.Boolean"
        );
    }
}
