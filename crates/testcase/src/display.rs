//! The text form of the IR: one Java-like line per statement.
//!
//! `Display` for [`Statement`] prints what the statement does, without the
//! variable it assigns (`org.Foo.bar(v0, v1)`); [`Statement::numbered`] and
//! `Display` for [`TestCase`] add `v3 = ` in front of statements that
//! produce a value. Classes are printed as Java source spells them
//! (`java.util.Map.Entry`); overloads are not told apart, so the text is for
//! people and snapshots, not a format to parse back.

use std::fmt;

use crate::assertion::{Assertion, AssertionKind, Literal};
use crate::ir::{FieldRef, FileHandle, MethodRef, Primitive, Statement, StatementKind, TestCase, VarId};
use crate::literal::{lambda, primitive_literal, reflection, string_literal};
use model::descriptor::FieldType;

/// `v3`.
impl fmt::Display for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}

/// The Java literal, as [`primitive_literal`] spells it.
impl fmt::Display for Primitive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&primitive_literal(*self))
    }
}

/// JVM form with the binary owner, as in error messages: `org.Foo.bar(I)V`.
impl fmt::Display for MethodRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}{}", self.owner, self.name, self.descriptor.to_descriptor())
    }
}

/// JVM form with the binary owner: `org.Foo.count:I`.
impl fmt::Display for FieldRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}:{}", self.owner, self.name, self.ty.to_descriptor())
    }
}

/// What the statement does, without `vN = `: `new java.util.ArrayList()`,
/// `v3.add(v1)`, `(java.lang.String) null`, `v6[0] = v0`.
impl fmt::Display for Statement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.kind, f)
    }
}

impl fmt::Display for StatementKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatementKind::Primitive(value) => write!(f, "{value}"),
            StatementKind::Boxed(value) => {
                let class = crate::ir::box_class(value.base_type()).java_name();
                write!(f, "{class}.valueOf({value})")
            }
            StatementKind::String(text) => f.write_str(&string_literal(text)),
            StatementKind::Null(ty) => write!(f, "({ty}) null"),
            StatementKind::EnumConstant { class, name } => write!(f, "{}.{name}", class.java_name()),
            StatementKind::ClassLiteral(Some(ty)) => write!(f, "{ty}.class"),
            StatementKind::ClassLiteral(None) => write!(f, "void.class"),
            StatementKind::Reflect(member) => f.write_str(&reflection(member, |t| t.to_string())),
            StatementKind::Lambda { interface, method, body } => {
                let value = |v: VarId| v.to_string();
                write!(f, "({}) {}", interface.java_name(), lambda(method, *body, value, "java.lang.Comparable"))
            }
            StatementKind::Mock { mocked, methods, returns } => {
                write!(f, "mock({})", mocked.java_name())?;
                methods.iter().zip(returns).try_for_each(|(m, v)| write!(f, ".stub({}, {v})", m.name))
            }
            StatementKind::TempFile(FileHandle::File) => write!(f, "<temporary file>"),
            StatementKind::TempFile(FileHandle::Path) => write!(f, "<temporary file>.toPath()"),
            StatementKind::TempDir(FileHandle::File) => write!(f, "<temporary folder>"),
            StatementKind::TempDir(FileHandle::Path) => write!(f, "<temporary folder>.toPath()"),
            StatementKind::NewArray { elem, length } => {
                // `new int[3][]` for an array of `int[]`: the length goes
                // after the innermost component, the elements' own
                // dimensions after it.
                let mut component = elem;
                let mut dimensions = 0;
                while let FieldType::Array(inner) = component {
                    component = inner;
                    dimensions += 1;
                }
                write!(f, "new {component}[{length}]{}", "[]".repeat(dimensions))
            }
            StatementKind::ArrayStore { array, index, value } => write!(f, "{array}[{index}] = {value}"),
            StatementKind::Constructor { method, args } => {
                write!(f, "new {}({})", method.owner.java_name(), Args(args))
            }
            StatementKind::StaticCall { method, args } => {
                write!(f, "{}.{}({})", method.owner.java_name(), method.name, Args(args))
            }
            StatementKind::Call { receiver, method, args } => write!(f, "{receiver}.{}({})", method.name, Args(args)),
            StatementKind::FieldGet { receiver, field } => write!(f, "{}", FieldTarget(*receiver, field)),
            StatementKind::FieldSet { receiver, field, value } => {
                write!(f, "{} = {value}", FieldTarget(*receiver, field))
            }
        }
    }
}

/// `v0, v1`.
struct Args<'a>(&'a [VarId]);

impl fmt::Display for Args<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, arg) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{arg}")?;
        }
        Ok(())
    }
}

/// `v3.field`, or `org.Foo.field` for a static field.
struct FieldTarget<'a>(Option<VarId>, &'a FieldRef);

impl fmt::Display for FieldTarget<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(receiver) => write!(f, "{receiver}.{}", self.1.name),
            None => write!(f, "{}.{}", self.1.owner.java_name(), self.1.name),
        }
    }
}

/// A statement printed as line `var` of a test case (see [`Statement::numbered`]).
#[derive(Debug, Clone, Copy)]
pub struct Numbered<'a> {
    var: VarId,
    statement: &'a Statement,
}

impl Statement {
    /// The statement as line `var` of a test case: `v3 = new java.util.ArrayList()`
    /// when it produces a value, as [`Statement`]'s `Display` otherwise.
    pub fn numbered(&self, var: VarId) -> Numbered<'_> {
        Numbered { var, statement: self }
    }
}

impl fmt::Display for Numbered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.statement.produces_value() {
            write!(f, "{} = ", self.var)?;
        }
        write!(f, "{}", self.statement)
    }
}

/// One line per statement, each ending in `\n`; the call under test is
/// marked with a trailing `// call under test`. Each assertion follows the
/// statement it checks (`assert v3 == 5`), in the order of
/// [`TestCase::assertions`]; assertions on statements past the end come last.
impl fmt::Display for TestCase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (var, statement) in self.iter() {
            write!(f, "{}", statement.numbered(var))?;
            if self.call_under_test == Some(var) {
                f.write_str("  // call under test")?;
            }
            f.write_str("\n")?;
            for assertion in self.assertions.iter().filter(|a| a.var == var) {
                writeln!(f, "{assertion}")?;
            }
        }
        for assertion in self.assertions.iter().filter(|a| a.var.index() >= self.len()) {
            writeln!(f, "{assertion}")?;
        }
        Ok(())
    }
}

/// The expected value as Java source: `null`, `5`, `"text"`, `org.Foo.RED`.
impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Null => f.write_str("null"),
            Literal::Primitive(value) => write!(f, "{value}"),
            Literal::String(text) => f.write_str(&string_literal(text)),
            Literal::Enum { class, name } => write!(f, "{}.{name}", class.java_name()),
        }
    }
}

/// `assert v3 == 5`, `assert v3 != null`, `assert v3.size() == 2`,
/// `assert v3.count == 1`, `assert v3.equals(v1)`, `assert !v3.equals(v1)`,
/// `assert v3 == {1, 2}`, `assert v3.length == 2`,
/// `assert v2 throws java.lang.NullPointerException`,
/// `assert v2 throws java.lang.IllegalArgumentException("negative")`.
impl fmt::Display for Assertion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let var = self.var;
        match &self.kind {
            AssertionKind::Value(expected) => write!(f, "assert {var} == {expected}"),
            AssertionKind::NotNull => write!(f, "assert {var} != null"),
            AssertionKind::Inspector { method, expected } => write!(f, "assert {var}.{}() == {expected}", method.name),
            AssertionKind::Field { field, expected } => write!(f, "assert {var}.{} == {expected}", field.name),
            AssertionKind::EqualsOther { other, equal: true } => write!(f, "assert {var}.equals({other})"),
            AssertionKind::EqualsOther { other, equal: false } => write!(f, "assert !{var}.equals({other})"),
            AssertionKind::ArrayElements(expected) => {
                let items: Vec<String> = expected.iter().map(ToString::to_string).collect();
                write!(f, "assert {var} == {{{}}}", items.join(", "))
            }
            AssertionKind::ArrayLength(n) => write!(f, "assert {var}.length == {n}"),
            AssertionKind::Throws { exception, message: None } => write!(f, "assert {var} throws {exception}"),
            AssertionKind::Throws { exception, message: Some(message) } => {
                write!(f, "assert {var} throws {exception}({})", string_literal(message))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use model::descriptor::FieldType;
    use model::names::BinaryName;

    use crate::builder::TestCaseBuilder;
    use crate::ir::{FieldRef, MethodRef, Primitive};

    fn method(owner: &str, name: &str, descriptor: &str) -> MethodRef {
        MethodRef::parse(owner, name, descriptor).unwrap()
    }

    fn field(owner: &str, name: &str, descriptor: &str) -> FieldRef {
        FieldRef::parse(owner, name, descriptor).unwrap()
    }

    fn ty(descriptor: &str) -> FieldType {
        FieldType::parse(descriptor).unwrap()
    }

    /// Builds a test case and compares its text form, one line per statement.
    fn check(build: impl FnOnce(&mut TestCaseBuilder), expected: &str) {
        let mut b = TestCaseBuilder::new();
        build(&mut b);
        assert_eq!(b.build().to_string(), expected);
    }

    #[test]
    fn every_statement_kind_prints_as_one_java_like_line() {
        check(
            |b| {
                let v0 = b.int(42);
                let v1 = b.string("a\n\"b\"");
                b.null(ty("Ljava/lang/String;"));
                let v3 = b.construct(method("java.util.ArrayList", "<init>", "()V"), &[]);
                b.call(v3, method("java.util.ArrayList", "add", "(Ljava/lang/Object;)Z"), &[v1]);
                b.enum_constant(BinaryName::new("org.Foo"), "RED");
                let v6 = b.new_array(ty("I"), 3);
                b.array_store(v6, 0, v0);
                b.static_call(method("org.Foo", "bar", "(ILjava/lang/String;)Ljava/lang/Object;"), &[v0, v1]);
                b.field_get(v3, field("org.Foo", "field", "I"));
                b.static_field_set(field("org.Foo", "count", "I"), v0);
                b.static_field_get(field("org.Foo", "count", "I"));
                let v12 = b.class_literal(ty("Ljava/util/Map$Entry;"));
                b.static_call(method("org.Foo", "run", "()V"), &[]);
                let v14 = b.call(v3, method("java.util.ArrayList", "clear", "()V"), &[]);
                b.field_set(v12, field("org.Foo", "name", "Ljava/lang/String;"), v1);
                b.call_under_test(v14);
            },
            r#"v0 = 42
v1 = "a\n\"b\""
v2 = (java.lang.String) null
v3 = new java.util.ArrayList()
v4 = v3.add(v1)
v5 = org.Foo.RED
v6 = new int[3]
v6[0] = v0
v8 = org.Foo.bar(v0, v1)
v9 = v3.field
org.Foo.count = v0
v11 = org.Foo.count
v12 = java.util.Map.Entry.class
org.Foo.run()
v3.clear()  // call under test
v12.name = v1
"#,
        );
    }

    #[test]
    fn primitives_and_boxes_print_as_java_literals() {
        check(
            |b| {
                b.boolean(false);
                b.byte(-1);
                b.short(7);
                b.char(u16::from(b'a'));
                b.char(0);
                b.long(-3);
                b.float(2.5);
                b.double(1e-7);
                b.double(f64::NAN);
                b.float(f32::INFINITY);
                b.boxed(Primitive::Int(3));
                b.boxed(Primitive::Char(u16::from(b'\'')));
                b.boxed(Primitive::Byte(1));
                b.boxed(Primitive::Double(f64::NEG_INFINITY));
            },
            r#"v0 = false
v1 = (byte) -1
v2 = (short) 7
v3 = 'a'
v4 = '\u0000'
v5 = -3L
v6 = 2.5f
v7 = 1e-7
v8 = Double.NaN
v9 = Float.POSITIVE_INFINITY
v10 = java.lang.Integer.valueOf(3)
v11 = java.lang.Character.valueOf('\'')
v12 = java.lang.Byte.valueOf((byte) 1)
v13 = java.lang.Double.valueOf(Double.NEGATIVE_INFINITY)
"#,
        );
    }

    #[test]
    fn arrays_of_arrays_put_the_length_first() {
        check(
            |b| {
                b.new_array(ty("[I"), 2);
                b.new_array(ty("[[Ljava/lang/String;"), 0);
                b.null(ty("[Ljava/lang/Object;"));
                b.class_literal(ty("[I"));
                b.class_literal(ty("Z"));
            },
            "v0 = new int[2][]\nv1 = new java.lang.String[0][][]\nv2 = (java.lang.Object[]) null\nv3 = int[].class\nv4 = boolean.class\n",
        );
    }

    #[test]
    fn class_values_reflection_and_lambdas_print_as_java() {
        use crate::ir::{LambdaBody, MemberRef};
        check(
            |b| {
                b.void_class();
                b.reflect(MemberRef::Method(method("org.Foo", "bar", "(I[Ljava/lang/String;)V")));
                b.reflect(MemberRef::Method(method("org.Foo$Inner", "<init>", "()V")));
                b.reflect(MemberRef::Field(field("org.Foo", "count", "I")));
                let compare = method("java.util.Comparator", "compare", "(Ljava/lang/Object;Ljava/lang/Object;)I");
                b.lambda(BinaryName::new("java.util.Comparator"), compare, LambdaBody::NaturalOrder);
                let v5 = b.string("s");
                let get = method("java.util.function.Supplier", "get", "()Ljava/lang/Object;");
                b.lambda(BinaryName::new("java.util.function.Supplier"), get, LambdaBody::Returns(v5));
            },
            r#"v0 = void.class
v1 = org.Foo.class.getDeclaredMethod("bar", int.class, java.lang.String[].class)
v2 = org.Foo.Inner.class.getDeclaredConstructor()
v3 = org.Foo.class.getDeclaredField("count")
v4 = (java.util.Comparator) (a, b) -> ((java.lang.Comparable) a).compareTo(b)
v5 = "s"
v6 = (java.util.function.Supplier) () -> v5
"#,
        );
    }

    #[test]
    fn assertions_print_after_the_statement_they_check() {
        use crate::assertion::{Assertion, AssertionKind, Literal};
        let mut b = TestCaseBuilder::new();
        let v0 = b.construct(method("java.util.ArrayList", "<init>", "()V"), &[]);
        let v1 = b.string("x");
        let v2 = b.call(v0, method("java.util.ArrayList", "add", "(Ljava/lang/Object;)Z"), &[v1]);
        let v3 = b.call(v0, method("java.util.ArrayList", "get", "(I)Ljava/lang/Object;"), &[v2]);
        let mut test_case = b.build();
        let size = method("java.util.ArrayList", "size", "()I");
        let kinds = [
            (v2, AssertionKind::Value(Literal::Primitive(Primitive::Boolean(true)))),
            (v0, AssertionKind::Inspector { method: size, expected: Literal::Primitive(Primitive::Int(1)) }),
            (v0, AssertionKind::NotNull),
            (v1, AssertionKind::EqualsOther { other: v0, equal: false }),
            (
                v1,
                AssertionKind::Field {
                    field: field("java.lang.String", "hash", "I"),
                    expected: Literal::Primitive(Primitive::Int(0)),
                },
            ),
            (v1, AssertionKind::Value(Literal::String("x".into()))),
            (v2, AssertionKind::EqualsOther { other: v2, equal: true }),
            (v0, AssertionKind::Value(Literal::Enum { class: BinaryName::new("org.Foo$Color"), name: "RED".into() })),
            (v1, AssertionKind::Value(Literal::Null)),
            (
                v3,
                AssertionKind::Throws {
                    exception: BinaryName::new("java.lang.IndexOutOfBoundsException"),
                    message: None,
                },
            ),
            (
                v3,
                AssertionKind::Throws {
                    exception: BinaryName::new("java.lang.Error"),
                    message: Some("a \"b\"".into()),
                },
            ),
            (
                v0,
                AssertionKind::ArrayElements(vec![
                    Literal::Primitive(Primitive::Int(1)),
                    Literal::Primitive(Primitive::Int(2)),
                ]),
            ),
            (v0, AssertionKind::ArrayLength(2)),
        ];
        test_case.assertions = kinds.into_iter().map(|(var, kind)| Assertion { var, kind }).collect();
        assert_eq!(
            test_case.to_string(),
            r#"v0 = new java.util.ArrayList()
assert v0.size() == 1
assert v0 != null
assert v0 == org.Foo.Color.RED
assert v0 == {1, 2}
assert v0.length == 2
v1 = "x"
assert !v1.equals(v0)
assert v1.hash == 0
assert v1 == "x"
assert v1 == null
v2 = v0.add(v1)
assert v2 == true
assert v2.equals(v2)
v3 = v0.get(v2)
assert v3 throws java.lang.IndexOutOfBoundsException
assert v3 throws java.lang.Error("a \"b\"")
"#
        );
    }

    #[test]
    fn members_print_in_jvm_form_and_statements_without_their_variable() {
        assert_eq!(method("org.Foo$Bar", "bar", "(I)V").to_string(), "org.Foo$Bar.bar(I)V");
        assert_eq!(field("org.Foo", "count", "[J").to_string(), "org.Foo.count:[J");
        let mut b = TestCaseBuilder::new();
        let v0 = b.int(1);
        let v1 = b.static_call(method("org.Foo$Bar", "bar", "(I)I"), &[v0]);
        let test_case = b.build();
        assert_eq!(test_case[v1].to_string(), "org.Foo.Bar.bar(v0)");
        assert_eq!(test_case[v1].numbered(v1).to_string(), "v1 = org.Foo.Bar.bar(v0)");
        assert_eq!(crate::TestCase::default().to_string(), "");
    }
}
