//! The inputs of the snapshot and javac tests: suites of test cases, built
//! in code. (Not JSON: serde_json writes NaN and infinities as `null` and
//! cannot read them back.) `tests/in/<name>.ir` is the text form of each.
//!
//! The suites use the fixture classes of `tests/java`, and every assertion
//! states what those classes really return, so the emitted suites pass.

#![allow(dead_code)]

use std::fmt::Write;
use std::ops::{Deref, DerefMut};

use junit::{JUnitVersion, SuiteOptions};
use model::names::BinaryName;
use model::signature::parse_field_signature;
use testcase::assertion::{Assertion, AssertionKind, Literal};
use testcase::literal::{primitive_literal, string_literal};
use testcase::{FieldRef, FileHandle, LambdaBody, MemberRef, MethodRef, Primitive, TestCase, TestCaseBuilder, VarId};

/// One suite to emit: the class under test, the options and the tests.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    pub cut: BinaryName,
    pub options: SuiteOptions,
    pub tests: Vec<TestCase>,
}

impl Input {
    /// The emitted source.
    pub fn emit(&self) -> String {
        junit::emit_suite(&self.cut, &self.tests, &self.options)
    }

    /// The text form: a header, then each test case (its statements with
    /// the types of their values) and its assertions.
    pub fn to_ir(&self) -> String {
        let junit = match self.options.junit {
            JUnitVersion::Four => 4,
            JUnitVersion::Five => 5,
        };
        let timeout = self.options.timeout_ms.map_or(String::new(), |ms| format!(", {ms} ms per test"));
        let mut out = format!("// {} tested by {} (JUnit {junit}{timeout})\n", self.cut, self.options.class_name);
        for (i, test_case) in self.tests.iter().enumerate() {
            let _ = writeln!(out, "\n// test {i}");
            for (var, statement) in test_case.iter() {
                let _ = write!(out, "{}", statement.numbered(var));
                if statement.produces_value() {
                    let _ = write!(out, " : {}", statement.ty);
                }
                let under_test = if test_case.call_under_test == Some(var) { "  // call under test" } else { "" };
                let _ = writeln!(out, "{under_test}");
            }
            for assertion in &test_case.assertions {
                let _ = writeln!(out, "assert {}", assertion_text(assertion));
            }
        }
        out
    }
}

/// `v3 == "b"`, `v1.size() == 0`, `v2 throws java.lang.Error`.
fn assertion_text(assertion: &Assertion) -> String {
    let var = assertion.var;
    match &assertion.kind {
        AssertionKind::Value(expected) => format!("{var} == {}", literal_text(expected)),
        AssertionKind::NotNull => format!("{var} != null"),
        AssertionKind::Inspector { method, expected } => {
            format!("{var}.{}() == {}", method.name, literal_text(expected))
        }
        AssertionKind::Field { field, expected } => format!("{var}.{} == {}", field.name, literal_text(expected)),
        AssertionKind::EqualsOther { other, equal: true } => format!("{var} equals {other}"),
        AssertionKind::EqualsOther { other, equal: false } => format!("{var} not equals {other}"),
        AssertionKind::ArrayElements(expected) => {
            let items: Vec<String> = expected.iter().map(literal_text).collect();
            format!("{var} == {{{}}}", items.join(", "))
        }
        AssertionKind::ArrayLength(length) => format!("{var}.length == {length}"),
        AssertionKind::Throws { exception, message: None } => format!("{var} throws {exception}"),
        AssertionKind::Throws { exception, message: Some(message) } => {
            format!("{var} throws {exception}({})", string_literal(message))
        }
    }
}

fn literal_text(literal: &Literal) -> String {
    match literal {
        Literal::Null => "null".to_owned(),
        Literal::Primitive(value) => primitive_literal(*value),
        Literal::String(text) => string_literal(text),
        Literal::Enum { class, name } => format!("{class}.{name}"),
    }
}

/// Every suite, by the name of its files.
pub fn all() -> Vec<(&'static str, Input)> {
    vec![
        ("color", input("demo.Color", 4, None, color())),
        ("counter", input("demo.Counter", 4, None, counter())),
        (
            "counter_static_junit4",
            with_static_state(input("demo.Counter", 4, Some("Counter_Static_FerroTest"), counter())),
        ),
        (
            "counter_static_junit5",
            with_static_state(input("demo.Counter", 5, Some("Counter_StaticJupiter_FerroTest"), counter())),
        ),
        ("files_junit4", input("demo.Notes", 4, None, files())),
        ("files_junit5", input("demo.Notes", 5, Some("Notes_Jupiter_FerroTest"), files())),
        ("generics", input("demo.Generics", 4, None, generics())),
        ("literals_junit4", input("demo.Literals", 4, None, literals())),
        ("literals_junit5", input("demo.Literals", 5, Some("Literals_Jupiter_FerroTest"), literals())),
        ("mocks_junit4", input("demo.Shop", 4, None, mocks())),
        ("mocks_junit5", input("demo.Shop", 5, Some("Shop_Jupiter_FerroTest"), mocks())),
        ("named_test", input("demo.Test", 4, None, named_test())),
        ("numbers", input("demo.Numbers", 4, None, numbers())),
        ("other_package", input("demo.other.Shapes", 4, None, other_package())),
        ("outer", input("demo.Outer", 4, None, outer())),
        ("overloads", input("demo.Overloads", 4, None, overloads())),
        ("parser_findings", with_comments(input("demo.Parser", 4, Some("Parser_FerroFindingsTest"), parser()))),
        ("parser_junit4", input("demo.Parser", 4, None, parser())),
        ("parser_junit5", with_timeout(input("demo.Parser", 5, Some("Parser_Jupiter_FerroTest"), parser()), 1500)),
        ("plain", input("Plain", 4, None, plain())),
        ("stack_junit4", with_timeout(input("demo.Stack", 4, None, stack()), 10_000)),
        ("stack_junit5", with_timeout(input("demo.Stack", 5, Some("Stack_Jupiter_FerroTest"), stack()), 10_000)),
        ("values_junit4", input("demo.Values", 4, None, values())),
        ("values_junit5", input("demo.Values", 5, Some("Values_Jupiter_FerroTest"), values())),
    ]
}

/// `input` with a comment above every other test method, as the witness
/// tests of findings have (two lines on the first).
fn with_comments(mut input: Input) -> Input {
    input.options.comments = (0..input.tests.len())
        .map(|i| match i {
            0 => "Likely bug (api-misuse, confidence 0.75): the exception escapes parse(String).\nDocumented: \"if the index is out of range\"".to_owned(),
            i if i % 2 == 0 => format!("Likely bug number {i}."),
            _ => String::new(),
        })
        .collect();
    input
}

/// `input` restoring `demo.Counter.total` before each test.
fn with_static_state(mut input: Input) -> Input {
    input.options.static_fields = vec!["total".to_owned()];
    input
}

/// `input` with a time limit on each test method.
fn with_timeout(mut input: Input, ms: u64) -> Input {
    input.options.timeout_ms = Some(ms);
    input
}

fn input(cut: &str, junit: u8, class_name: Option<&str>, tests: Vec<TestCase>) -> Input {
    let cut = BinaryName::new(cut);
    let mut options = SuiteOptions::for_class(&cut);
    if junit == 5 {
        options.junit = JUnitVersion::Five;
    }
    if let Some(class_name) = class_name {
        options.class_name = class_name.to_owned();
    }
    Input { cut, options, tests }
}

/// A test case under construction: statements and assertions.
struct Tb {
    b: TestCaseBuilder,
    assertions: Vec<Assertion>,
}

impl Deref for Tb {
    type Target = TestCaseBuilder;

    fn deref(&self) -> &TestCaseBuilder {
        &self.b
    }
}

impl DerefMut for Tb {
    fn deref_mut(&mut self) -> &mut TestCaseBuilder {
        &mut self.b
    }
}

fn m(owner: &str, name: &str, descriptor: &str) -> MethodRef {
    MethodRef::parse(owner, name, descriptor).unwrap()
}

fn f(owner: &str, name: &str, descriptor: &str) -> FieldRef {
    FieldRef::parse(owner, name, descriptor).unwrap()
}

impl Tb {
    fn new() -> Tb {
        Tb { b: TestCaseBuilder::new(), assertions: Vec::new() }
    }

    fn make(&mut self, class: &str, descriptor: &str, args: &[VarId]) -> VarId {
        self.b.construct(m(class, "<init>", descriptor), args)
    }

    fn stat(&mut self, class: &str, name: &str, descriptor: &str, args: &[VarId]) -> VarId {
        self.b.static_call(m(class, name, descriptor), args)
    }

    fn call_on(&mut self, receiver: VarId, class: &str, name: &str, descriptor: &str, args: &[VarId]) -> VarId {
        self.b.call(receiver, m(class, name, descriptor), args)
    }

    fn null_of(&mut self, descriptor: &str) -> VarId {
        self.b.null(model::descriptor::FieldType::parse(descriptor).unwrap())
    }

    fn typed(&mut self, var: VarId, signature: &str) -> VarId {
        self.b.refine(var, parse_field_signature(signature).unwrap())
    }

    fn cut(&mut self, var: VarId) {
        self.b.call_under_test(var);
    }

    fn assert(&mut self, var: VarId, kind: AssertionKind) {
        self.assertions.push(Assertion { var, kind });
    }

    fn value(&mut self, var: VarId, expected: Literal) {
        self.assert(var, AssertionKind::Value(expected));
    }

    fn not_null(&mut self, var: VarId) {
        self.assert(var, AssertionKind::NotNull);
    }

    fn throws(&mut self, var: VarId, exception: &str) {
        self.assert(var, AssertionKind::Throws { exception: BinaryName::new(exception), message: None });
    }

    fn inspector(&mut self, var: VarId, class: &str, name: &str, descriptor: &str, expected: Literal) {
        self.assert(var, AssertionKind::Inspector { method: m(class, name, descriptor), expected });
    }

    fn field(&mut self, var: VarId, class: &str, name: &str, descriptor: &str, expected: Literal) {
        self.assert(var, AssertionKind::Field { field: f(class, name, descriptor), expected });
    }

    fn equals(&mut self, var: VarId, other: VarId, equal: bool) {
        self.assert(var, AssertionKind::EqualsOther { other, equal });
    }

    fn done(self) -> TestCase {
        let mut test_case = self.b.build();
        test_case.assertions = self.assertions;
        test_case
    }
}

fn p(value: Primitive) -> Literal {
    Literal::Primitive(value)
}

fn int(value: i32) -> Literal {
    p(Primitive::Int(value))
}

fn boolean(value: bool) -> Literal {
    p(Primitive::Boolean(value))
}

fn s(text: &str) -> Literal {
    Literal::String(text.to_owned())
}

fn constant(class: &str, name: &str) -> Literal {
    Literal::Enum { class: BinaryName::new(class), name: name.to_owned() }
}

const STACK: &str = "demo.Stack";

fn new_stack(t: &mut Tb, capacity: i32) -> VarId {
    let capacity = t.int(capacity);
    t.make(STACK, "(I)V", &[capacity])
}

fn push(t: &mut Tb, stack: VarId, value: VarId) -> VarId {
    t.call_on(stack, STACK, "push", "(Ljava/lang/Object;)V", &[value])
}

fn pop(t: &mut Tb, stack: VarId) -> VarId {
    t.call_on(stack, STACK, "pop", "()Ljava/lang/Object;", &[])
}

fn peek(t: &mut Tb, stack: VarId) -> VarId {
    t.call_on(stack, STACK, "peek", "()Ljava/lang/Object;", &[])
}

fn size_is(t: &mut Tb, stack: VarId, size: i32) {
    t.inspector(stack, STACK, "size", "()I", int(size));
}

fn stack() -> Vec<TestCase> {
    let mut tests = Vec::new();
    // A new stack is empty.
    let mut t = Tb::new();
    let stack = new_stack(&mut t, 3);
    t.cut(stack);
    size_is(&mut t, stack, 0);
    t.inspector(stack, STACK, "isEmpty", "()Z", boolean(true));
    tests.push(t.done());
    // Push one value.
    let mut t = Tb::new();
    let stack = new_stack(&mut t, 2);
    let a = t.string("a");
    let pushed = push(&mut t, stack, a);
    t.cut(pushed);
    size_is(&mut t, stack, 1);
    t.inspector(stack, STACK, "isEmpty", "()Z", boolean(false));
    tests.push(t.done());
    // Push null; peek gives it back.
    let mut t = Tb::new();
    let stack = new_stack(&mut t, 2);
    let null = t.null_of("Ljava/lang/Object;");
    let pushed = push(&mut t, stack, null);
    t.cut(pushed);
    let top = peek(&mut t, stack);
    t.value(top, Literal::Null);
    tests.push(t.done());
    // Pop gives the last value pushed.
    let mut t = Tb::new();
    let stack = new_stack(&mut t, 2);
    let a = t.string("a");
    push(&mut t, stack, a);
    let b = t.string("b");
    push(&mut t, stack, b);
    let popped = pop(&mut t, stack);
    t.cut(popped);
    t.value(popped, s("b"));
    t.not_null(popped);
    let top = peek(&mut t, stack);
    t.value(top, s("a"));
    size_is(&mut t, stack, 1);
    tests.push(t.done());
    // Pop on an empty stack throws; what follows is not written.
    let mut t = Tb::new();
    let stack = new_stack(&mut t, 1);
    let popped = pop(&mut t, stack);
    t.throws(popped, "java.lang.IllegalStateException");
    let size = t.call_on(stack, STACK, "size", "()I", &[]);
    t.value(size, int(0));
    size_is(&mut t, stack, 0);
    tests.push(t.done());
    // Push on a full stack throws a nested exception class.
    let mut t = Tb::new();
    let stack = new_stack(&mut t, 0);
    let x = t.string("x");
    let pushed = push(&mut t, stack, x);
    t.throws(pushed, "demo.Stack$Full");
    tests.push(t.done());
    // A negative capacity throws from the constructor.
    let mut t = Tb::new();
    let stack = new_stack(&mut t, -1);
    t.throws(stack, "java.lang.IllegalArgumentException");
    tests.push(t.done());
    // A package-private method.
    let mut t = Tb::new();
    let stack = new_stack(&mut t, 4);
    let capacity = t.call_on(stack, STACK, "capacity", "()I", &[]);
    t.value(capacity, int(4));
    tests.push(t.done());
    // A java.util.Stack on a demo.Stack: the other class is qualified.
    let mut t = Tb::new();
    let stack = new_stack(&mut t, 1);
    let jdk_stack = t.make("java.util.Stack", "()V", &[]);
    push(&mut t, stack, jdk_stack);
    let popped = pop(&mut t, stack);
    t.equals(popped, jdk_stack, true);
    t.not_null(popped);
    tests.push(t.done());
    // Two stacks are not equal.
    let mut t = Tb::new();
    let first = new_stack(&mut t, 1);
    let second = new_stack(&mut t, 1);
    t.cut(second);
    t.equals(first, second, false);
    tests.push(t.done());
    tests
}

const OVERLOADS: &str = "demo.Overloads";

const NOTES: &str = "demo.Notes";

/// Files made in the test class's temporary folder, as `File` and as `Path`.
fn files() -> Vec<TestCase> {
    let mut t = Tb::new();
    let file = t.temp_file(FileHandle::File);
    let text = t.string("abc");
    let saved = t.stat(NOTES, "save", "(Ljava/io/File;Ljava/lang/String;)I", &[file, text]);
    t.cut(saved);
    t.value(saved, int(3));
    let mut u = Tb::new();
    let path = u.temp_file(FileHandle::Path);
    let size = u.stat(NOTES, "size", "(Ljava/nio/file/Path;)J", &[path]);
    u.cut(size);
    u.value(size, p(Primitive::Long(0)));
    vec![t.done(), u.done()]
}

fn describe(t: &mut Tb, param: &str, arg: VarId, expected: &str) {
    let described = t.stat(OVERLOADS, "describe", &format!("({param})Ljava/lang/String;"), &[arg]);
    t.value(described, s(expected));
}

fn overloads() -> Vec<TestCase> {
    let mut tests = Vec::new();
    // A String argument for each of describe(String) and describe(Object).
    let mut t = Tb::new();
    let text = t.string("s");
    describe(&mut t, "Ljava/lang/String;", text, "string");
    describe(&mut t, "Ljava/lang/Object;", text, "object");
    tests.push(t.done());
    // Nulls pick the overload of their parameter type.
    let mut t = Tb::new();
    let null_string = t.null_of("Ljava/lang/String;");
    describe(&mut t, "Ljava/lang/String;", null_string, "string");
    let null_integer = t.null_of("Ljava/lang/Integer;");
    describe(&mut t, "Ljava/lang/Integer;", null_integer, "integer");
    let null_object = t.null_of("Ljava/lang/Object;");
    describe(&mut t, "Ljava/lang/Object;", null_object, "object");
    let null_array = t.null_of("[I");
    describe(&mut t, "[I", null_array, "int[]");
    tests.push(t.done());
    // Primitives and boxes.
    let mut t = Tb::new();
    let i = t.int(1);
    describe(&mut t, "I", i, "int");
    let boxed = t.boxed(Primitive::Int(1));
    describe(&mut t, "Ljava/lang/Integer;", boxed, "integer");
    describe(&mut t, "Ljava/lang/Object;", boxed, "object");
    tests.push(t.done());
    // Instance methods: a cast to a supertype parameter, two-argument overloads.
    let mut t = Tb::new();
    let overloads = t.make(OVERLOADS, "()V", &[]);
    let text = t.string("s");
    let taken = t.call_on(overloads, OVERLOADS, "take", "(Ljava/lang/CharSequence;)Ljava/lang/String;", &[text]);
    t.value(taken, s("chars"));
    let null = t.null_of("Ljava/lang/String;");
    let taken = t.call_on(overloads, OVERLOADS, "take", "(Ljava/lang/String;)Ljava/lang/String;", &[null]);
    t.value(taken, s("string"));
    let other = t.string("t");
    let paired = t.call_on(
        overloads,
        OVERLOADS,
        "pair",
        "(Ljava/lang/Object;Ljava/lang/String;)Ljava/lang/String;",
        &[text, other],
    );
    t.value(paired, s("object,string"));
    let null_object = t.null_of("Ljava/lang/Object;");
    let paired = t.call_on(
        overloads,
        OVERLOADS,
        "pair",
        "(Ljava/lang/String;Ljava/lang/Object;)Ljava/lang/String;",
        &[null, null_object],
    );
    t.cut(paired);
    t.value(paired, s("string,object"));
    tests.push(t.done());
    // Varargs: an array, a null array, and the one-string overload.
    let mut t = Tb::new();
    let parts = t.new_array(model::descriptor::FieldType::parse("Ljava/lang/String;").unwrap(), 2);
    let joined = t.stat(OVERLOADS, "join", "([Ljava/lang/Object;)Ljava/lang/String;", &[parts]);
    t.value(joined, s("varargs 2"));
    let null_array = t.null_of("[Ljava/lang/Object;");
    let joined = t.stat(OVERLOADS, "join", "([Ljava/lang/Object;)Ljava/lang/String;", &[null_array]);
    t.value(joined, s("null array"));
    let text = t.string("s");
    let joined = t.stat(OVERLOADS, "join", "(Ljava/lang/String;)Ljava/lang/String;", &[text]);
    t.value(joined, s("one s"));
    tests.push(t.done());
    tests
}

const GENERICS: &str = "demo.Generics";
const LIST_OF: &str = "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/util/List;";
const LIST_OF_STRING: &str = "Ljava/util/List<Ljava/lang/String;>;";

fn count(t: &mut Tb, list: VarId, expected: i32) {
    let counted = t.stat(GENERICS, "count", "(Ljava/util/List;)I", &[list]);
    t.value(counted, int(expected));
}

fn generics() -> Vec<TestCase> {
    let mut tests = Vec::new();
    // A generic factory, a generic accessor, a consumer of List<String>.
    let mut t = Tb::new();
    let a = t.string("a");
    let b = t.string("b");
    let list = t.stat(GENERICS, "listOf", LIST_OF, &[a, b]);
    t.typed(list, LIST_OF_STRING);
    t.cut(list);
    let first = t.stat(GENERICS, "first", "(Ljava/util/List;)Ljava/lang/Object;", &[list]);
    t.typed(first, "Ljava/lang/String;");
    t.value(first, s("a"));
    count(&mut t, list, 2);
    t.inspector(list, "java.util.List", "size", "()I", int(2));
    tests.push(t.done());
    // An Object that is a List<String>: cast.
    let mut t = Tb::new();
    let list = t.stat(GENERICS, "anything", "()Ljava/lang/Object;", &[]);
    t.typed(list, LIST_OF_STRING);
    t.cut(list);
    count(&mut t, list, 2);
    tests.push(t.done());
    // A raw List declared as List<String>.
    let mut t = Tb::new();
    let list = t.stat(GENERICS, "rawNames", "()Ljava/util/List;", &[]);
    t.typed(list, LIST_OF_STRING);
    t.cut(list);
    let first = t.stat(GENERICS, "first", "(Ljava/util/List;)Ljava/lang/Object;", &[list]);
    t.typed(first, "Ljava/lang/String;");
    t.value(first, s("a"));
    tests.push(t.done());
    // A map of lists; reading through a parameterized receiver.
    let mut t = Tb::new();
    let key = t.string("k");
    let seven = t.int(7);
    let map = t.stat(GENERICS, "index", "(Ljava/lang/String;I)Ljava/util/Map;", &[key, seven]);
    t.typed(map, "Ljava/util/Map<Ljava/lang/String;Ljava/util/List<Ljava/lang/Integer;>;>;");
    t.cut(map);
    let list = t.call_on(map, "java.util.Map", "get", "(Ljava/lang/Object;)Ljava/lang/Object;", &[key]);
    t.typed(list, "Ljava/util/List<Ljava/lang/Integer;>;");
    let zero = t.int(0);
    let element = t.call_on(list, "java.util.List", "get", "(I)Ljava/lang/Object;", &[zero]);
    t.typed(element, "Ljava/lang/Integer;");
    t.value(element, int(7));
    t.inspector(map, "java.util.Map", "size", "()I", int(1));
    tests.push(t.done());
    // A nested generic type.
    let mut t = Tb::new();
    let key = t.string("k");
    let one = t.int(1);
    let entry = t.stat(GENERICS, "entry", "(Ljava/lang/String;I)Ljava/util/Map$Entry;", &[key, one]);
    t.typed(entry, "Ljava/util/Map$Entry<Ljava/lang/String;Ljava/lang/Integer;>;");
    t.inspector(entry, "java.util.Map$Entry", "getKey", "()Ljava/lang/Object;", s("k"));
    tests.push(t.done());
    // A generic class: explicit type arguments, a bare null argument.
    let mut t = Tb::new();
    let x = t.string("x");
    let boxed = t.make("demo.Box", "(Ljava/lang/Object;)V", &[x]);
    t.typed(boxed, "Ldemo/Box<Ljava/lang/String;>;");
    let got = t.call_on(boxed, "demo.Box", "get", "()Ljava/lang/Object;", &[]);
    t.typed(got, "Ljava/lang/String;");
    t.value(got, s("x"));
    let null = t.null_of("Ljava/lang/Object;");
    let set = t.call_on(boxed, "demo.Box", "set", "(Ljava/lang/Object;)V", &[null]);
    t.cut(set);
    t.inspector(boxed, "demo.Box", "isEmpty", "()Z", boolean(true));
    tests.push(t.done());
    // A wildcard type argument: diamond.
    let mut t = Tb::new();
    let x = t.string("x");
    let boxed = t.make("demo.Box", "(Ljava/lang/Object;)V", &[x]);
    t.typed(boxed, "Ldemo/Box<+Ljava/lang/CharSequence;>;");
    let got = t.call_on(boxed, "demo.Box", "get", "()Ljava/lang/Object;", &[]);
    t.typed(got, "Ljava/lang/CharSequence;");
    t.value(got, s("x"));
    tests.push(t.done());
    // A type with a type variable is declared with its erasure.
    let mut t = Tb::new();
    let a = t.string("a");
    let b = t.string("b");
    let list = t.stat(GENERICS, "listOf", LIST_OF, &[a, b]);
    t.typed(list, "Ljava/util/List<TT;>;");
    t.inspector(list, "java.util.List", "size", "()I", int(2));
    tests.push(t.done());
    // A bounded type variable: the arguments go in raw, the result is cast.
    let mut t = Tb::new();
    let a = t.string("a");
    let b = t.string("b");
    let max = t.stat(GENERICS, "max", "(Ljava/lang/Comparable;Ljava/lang/Comparable;)Ljava/lang/Comparable;", &[a, b]);
    t.typed(max, "Ljava/lang/String;");
    t.value(max, s("b"));
    tests.push(t.done());
    // List<Integer> where List<? extends Number> is expected.
    let mut t = Tb::new();
    let one = t.boxed(Primitive::Int(1));
    let two = t.boxed(Primitive::Int(2));
    let list = t.stat(GENERICS, "listOf", LIST_OF, &[one, two]);
    t.typed(list, "Ljava/util/List<Ljava/lang/Integer;>;");
    let total = t.stat(GENERICS, "total", "(Ljava/util/List;)I", &[list]);
    t.value(total, int(3));
    tests.push(t.done());
    tests
}

const OUTER: &str = "demo.Outer";

fn outer() -> Vec<TestCase> {
    let mut tests = Vec::new();
    // A static nested class.
    let mut t = Tb::new();
    let three = t.int(3);
    let nested = t.make("demo.Outer$Nested", "(I)V", &[three]);
    let value = t.call_on(nested, "demo.Outer$Nested", "value", "()I", &[]);
    t.value(value, int(3));
    tests.push(t.done());
    // A class nested two levels deep.
    let mut t = Tb::new();
    let deeper = t.make("demo.Outer$Nested$Deeper", "()V", &[]);
    let name = t.call_on(deeper, "demo.Outer$Nested$Deeper", "name", "()Ljava/lang/String;", &[]);
    t.value(name, s("deeper"));
    tests.push(t.done());
    // A nested enum.
    let mut t = Tb::new();
    let fast = t.boolean(true);
    let mode = t.stat(OUTER, "mode", "(Z)Ldemo/Outer$Mode;", &[fast]);
    t.cut(mode);
    t.value(mode, constant("demo.Outer$Mode", "FAST"));
    let slow = t.enum_constant(BinaryName::new("demo.Outer$Mode"), "SLOW");
    t.equals(mode, slow, false);
    tests.push(t.done());
    // A nested checked exception.
    let mut t = Tb::new();
    let negative = t.int(-1);
    let checked = t.stat(OUTER, "check", "(I)V", &[negative]);
    t.throws(checked, "demo.Outer$Failure");
    tests.push(t.done());
    // Class literals, raw and as Class<?>.
    let mut t = Tb::new();
    let class = t.class_literal(model::descriptor::FieldType::parse("Ldemo/Outer$Nested;").unwrap());
    let kind = t.stat(OUTER, "kind", "(Ljava/lang/Class;)Ljava/lang/String;", &[class]);
    t.value(kind, s("Nested"));
    let array_class = t.class_literal(model::descriptor::FieldType::parse("[I").unwrap());
    t.typed(array_class, "Ljava/lang/Class<*>;");
    let kind = t.stat(OUTER, "kind", "(Ljava/lang/Class;)Ljava/lang/String;", &[array_class]);
    t.value(kind, s("int[]"));
    tests.push(t.done());
    // A new array of classes declared `Class<?>[]` (no raw type, no generic array creation javac refuses).
    let mut t = Tb::new();
    let class = t.class_literal(model::descriptor::FieldType::parse("Ldemo/Outer$Nested;").unwrap());
    let classes = t.new_array(model::descriptor::FieldType::parse("Ljava/lang/Class;").unwrap(), 2);
    t.typed(classes, "[Ljava/lang/Class<*>;");
    t.array_store(classes, 0, class);
    let count = t.stat(OUTER, "count", "([Ljava/lang/Class;)I", &[classes]);
    t.value(count, int(2));
    tests.push(t.done());
    tests
}

const COLOR: &str = "demo.Color";

fn color() -> Vec<TestCase> {
    let mut tests = Vec::new();
    // Enum constants in statements and assertions.
    let mut t = Tb::new();
    let red = t.enum_constant(BinaryName::new(COLOR), "RED");
    let next = t.call_on(red, COLOR, "next", "()Ldemo/Color;", &[]);
    t.value(next, constant(COLOR, "GREEN"));
    let warm = t.call_on(red, COLOR, "isWarm", "()Z", &[]);
    t.value(warm, boolean(true));
    t.cut(next);
    t.inspector(red, "java.lang.Enum", "name", "()Ljava/lang/String;", s("RED"));
    tests.push(t.done());
    // A static method of the enum.
    let mut t = Tb::new();
    let name = t.string("BLUE");
    let blue = t.stat(COLOR, "valueOf", "(Ljava/lang/String;)Ldemo/Color;", &[name]);
    t.value(blue, constant(COLOR, "BLUE"));
    let warm = t.call_on(blue, COLOR, "isWarm", "()Z", &[]);
    t.value(warm, boolean(false));
    t.cut(blue);
    tests.push(t.done());
    // No such constant.
    let mut t = Tb::new();
    let name = t.string("PURPLE");
    let purple = t.stat(COLOR, "valueOf", "(Ljava/lang/String;)Ldemo/Color;", &[name]);
    t.throws(purple, "java.lang.IllegalArgumentException");
    tests.push(t.done());
    tests
}

const NUMBERS: &str = "demo.Numbers";

fn array_of(descriptor: &str) -> model::descriptor::FieldType {
    model::descriptor::FieldType::parse(descriptor).unwrap()
}

fn numbers() -> Vec<TestCase> {
    let mut tests = Vec::new();
    // An int array with stores.
    let mut t = Tb::new();
    let array = t.new_array(array_of("I"), 3);
    let four = t.int(4);
    t.array_store(array, 0, four);
    let five = t.int(5);
    t.array_store(array, 2, five);
    let sum = t.stat(NUMBERS, "sum", "([I)I", &[array]);
    t.value(sum, int(9));
    tests.push(t.done());
    // A String array with a null element.
    let mut t = Tb::new();
    let array = t.new_array(array_of("Ljava/lang/String;"), 2);
    let a = t.string("a");
    t.array_store(array, 0, a);
    let null = t.null_of("Ljava/lang/String;");
    t.array_store(array, 1, null);
    let joined = t.stat(NUMBERS, "join", "([Ljava/lang/String;)Ljava/lang/String;", &[array]);
    t.value(joined, s("a+null"));
    tests.push(t.done());
    // An array of arrays.
    let mut t = Tb::new();
    let grid = t.new_array(array_of("[I"), 2);
    let row = t.new_array(array_of("I"), 3);
    t.array_store(grid, 0, row);
    let cells = t.stat(NUMBERS, "cells", "([[I)I", &[grid]);
    t.value(cells, int(3));
    tests.push(t.done());
    // Longs at their limits.
    let mut t = Tb::new();
    let array = t.new_array(array_of("J"), 2);
    let minus_one = t.long(-1);
    t.array_store(array, 0, minus_one);
    let max = t.long(i64::MAX);
    t.array_store(array, 1, max);
    let product = t.stat(NUMBERS, "product", "([J)J", &[array]);
    t.value(product, p(Primitive::Long(-i64::MAX)));
    tests.push(t.done());
    // An array of a nested class.
    let mut t = Tb::new();
    let array = t.new_array(array_of("Ldemo/Outer$Nested;"), 1);
    let two = t.int(2);
    let nested = t.make("demo.Outer$Nested", "(I)V", &[two]);
    t.array_store(array, 0, nested);
    let values = t.stat(NUMBERS, "values", "([Ldemo/Outer$Nested;)I", &[array]);
    t.value(values, int(2));
    tests.push(t.done());
    // A null array argument.
    let mut t = Tb::new();
    let null = t.null_of("[I");
    let sum = t.stat(NUMBERS, "sum", "([I)I", &[null]);
    t.throws(sum, "java.lang.NullPointerException");
    tests.push(t.done());
    // A store past the end of a returned array: a statement that is not a call throws.
    let mut t = Tb::new();
    let three = t.int(3);
    let range = t.stat(NUMBERS, "range", "(I)[I", &[three]);
    t.not_null(range);
    let store = t.array_store(range, 5, three);
    t.throws(store, "java.lang.ArrayIndexOutOfBoundsException");
    tests.push(t.done());
    // A store into a null array.
    let mut t = Tb::new();
    let null = t.null_of("[I");
    let one = t.int(1);
    let store = t.array_store(null, 0, one);
    t.throws(store, "java.lang.NullPointerException");
    tests.push(t.done());
    // Returned arrays: the elements of primitives, the length of others.
    let mut t = Tb::new();
    let three = t.int(3);
    let range = t.stat(NUMBERS, "range", "(I)[I", &[three]);
    t.assert(range, AssertionKind::ArrayElements(vec![int(0), int(1), int(2)]));
    let halves = t.stat(NUMBERS, "halves", "(I)[D", &[three]);
    let half = |v: f64| p(Primitive::Double(v));
    t.assert(halves, AssertionKind::ArrayElements(vec![half(0.0), half(0.5), half(1.0)]));
    let text = t.string("a, b");
    let letters = t.stat(NUMBERS, "letters", "(Ljava/lang/String;)[C", &[text]);
    let ch = |c: char| p(Primitive::Char(c as u16));
    t.assert(letters, AssertionKind::ArrayElements(vec![ch('a'), ch(','), ch(' '), ch('b')]));
    let words = t.stat(NUMBERS, "words", "(Ljava/lang/String;)[Ljava/lang/String;", &[text]);
    t.assert(words, AssertionKind::ArrayLength(2));
    tests.push(t.done());
    tests
}

const LITERALS: &str = "demo.Literals";

/// `Literals.<name>(<value>)` whose result is `expected`.
fn echo(t: &mut Tb, name: &str, descriptor: &str, value: VarId, expected: Literal) {
    let result = t.stat(LITERALS, name, descriptor, &[value]);
    t.value(result, expected);
}

fn literals() -> Vec<TestCase> {
    let mut tests = Vec::new();
    // The exact bits of doubles.
    let mut t = Tb::new();
    let doubles = [0.0, -0.0, 1.0, 0.1, 1e300, f64::MIN_POSITIVE, f64::MIN_POSITIVE / 4.0, 5e-324, f64::MAX];
    for d in doubles.into_iter().chain([f64::NAN, f64::INFINITY, f64::NEG_INFINITY]) {
        let value = t.double(d);
        echo(&mut t, "bits", "(D)Ljava/lang/String;", value, s(&format!("{:x}", d.to_bits())));
    }
    tests.push(t.done());
    // The exact bits of floats.
    let mut t = Tb::new();
    let floats = [0.0, -0.0, 1.5, 0.1, f32::MAX, f32::MIN_POSITIVE, 1e-45, f32::NAN, f32::INFINITY, f32::NEG_INFINITY];
    for x in floats {
        let value = t.float(x);
        echo(&mut t, "bits", "(F)Ljava/lang/String;", value, s(&format!("{:x}", x.to_bits())));
    }
    tests.push(t.done());
    // Integers at their limits.
    let mut t = Tb::new();
    for i in [0, -1, i32::MIN, i32::MAX] {
        let value = t.int(i);
        echo(&mut t, "show", "(I)Ljava/lang/String;", value, s(&format!("int {i}")));
    }
    for l in [0, -1, i64::MIN, i64::MAX] {
        let value = t.long(l);
        echo(&mut t, "show", "(J)Ljava/lang/String;", value, s(&format!("long {l}")));
    }
    for b in [i8::MIN, -1, i8::MAX] {
        let value = t.byte(b);
        echo(&mut t, "show", "(B)Ljava/lang/String;", value, s(&format!("byte {b}")));
    }
    for x in [i16::MIN, i16::MAX] {
        let value = t.short(x);
        echo(&mut t, "show", "(S)Ljava/lang/String;", value, s(&format!("short {x}")));
    }
    let value = t.boolean(true);
    echo(&mut t, "show", "(Z)Ljava/lang/String;", value, s("boolean true"));
    tests.push(t.done());
    // Chars, escaped or not.
    let mut t = Tb::new();
    for c in "a'\"\\\n\r\t\u{8}\u{c}\0\u{7f}\u{e9}".encode_utf16().chain([0xd800, 0xffff]) {
        let value = t.char(c);
        echo(&mut t, "show", "(C)Ljava/lang/String;", value, s(&format!("char {c}")));
    }
    tests.push(t.done());
    // Strings, escaped or not: their code units, and themselves.
    let mut t = Tb::new();
    let texts =
        ["", "a\n\"b\"", "tab\there", "back\\slash", "C:\\u0041", "é😀\0", "\u{7f}\u{1}", "line\r\nend", "\u{2028}"];
    for text in texts {
        let value = t.string(text);
        let units: Vec<String> = text.encode_utf16().map(|unit| format!("{unit:x}")).collect();
        echo(&mut t, "units", "(Ljava/lang/String;)Ljava/lang/String;", value, s(&units.join(" ")));
        echo(&mut t, "echo", "(Ljava/lang/String;)Ljava/lang/String;", value, s(text));
    }
    tests.push(t.done());
    // Results of every primitive type, as assertions.
    let mut t = Tb::new();
    let three = t.double(3.0);
    echo(&mut t, "half", "(D)D", three, p(Primitive::Double(1.5)));
    let nan = t.double(f64::NAN);
    echo(&mut t, "half", "(D)D", nan, p(Primitive::Double(f64::NAN)));
    let one = t.float(1.0);
    echo(&mut t, "half", "(F)F", one, p(Primitive::Float(0.5)));
    let infinity = t.float(f32::NEG_INFINITY);
    echo(&mut t, "half", "(F)F", infinity, p(Primitive::Float(f32::NEG_INFINITY)));
    let min = t.int(i32::MIN);
    echo(&mut t, "negate", "(I)I", min, int(i32::MIN));
    let max = t.long(i64::MAX);
    echo(&mut t, "negate", "(J)J", max, p(Primitive::Long(-i64::MAX)));
    let a = t.char(u16::from(b'a'));
    echo(&mut t, "next", "(C)C", a, p(Primitive::Char(u16::from(b'b'))));
    let quote = t.char(u16::from(b'&'));
    echo(&mut t, "next", "(C)C", quote, p(Primitive::Char(u16::from(b'\''))));
    let byte = t.byte(i8::MAX);
    echo(&mut t, "next", "(B)B", byte, p(Primitive::Byte(i8::MIN)));
    let short = t.short(-2);
    echo(&mut t, "next", "(S)S", short, p(Primitive::Short(-1)));
    tests.push(t.done());
    // Boxed values passed as Object.
    let mut t = Tb::new();
    let boxes = [
        (Primitive::Int(3), "Integer 3"),
        (Primitive::Char(u16::from(b'\'')), "Character '"),
        (Primitive::Byte(-1), "Byte -1"),
        (Primitive::Short(300), "Short 300"),
        (Primitive::Long(i64::MIN), "Long -9223372036854775808"),
        (Primitive::Float(f32::NAN), "Float NaN"),
        (Primitive::Double(-0.0), "Double -0.0"),
        (Primitive::Boolean(true), "Boolean true"),
    ];
    for (value, shown) in boxes {
        let boxed = t.boxed(value);
        echo(&mut t, "show", "(Ljava/lang/Object;)Ljava/lang/String;", boxed, s(&format!("object {shown}")));
    }
    tests.push(t.done());
    // Primitive expectations on references: unboxed with casts.
    let mut t = Tb::new();
    let three = t.int(3);
    echo(&mut t, "boxed", "(I)Ljava/lang/Integer;", three, int(3));
    echo(&mut t, "object", "(I)Ljava/lang/Object;", three, int(3));
    echo(&mut t, "number", "(I)Ljava/lang/Number;", three, int(3));
    let yes = t.boolean(false);
    echo(&mut t, "flag", "(Z)Ljava/lang/Object;", yes, boolean(false));
    let half = t.double(2.5);
    echo(&mut t, "boxed", "(D)Ljava/lang/Double;", half, p(Primitive::Double(2.5)));
    tests.push(t.done());
    tests
}

const COUNTER: &str = "demo.Counter";

fn counter() -> Vec<TestCase> {
    let mut tests = Vec::new();
    // Fields and inspectors at the end of the test.
    let mut t = Tb::new();
    let counter = t.make(COUNTER, "()V", &[]);
    let five = t.int(5);
    let added = t.call_on(counter, COUNTER, "add", "(I)I", &[five]);
    t.value(added, int(5));
    t.field(counter, COUNTER, "value", "I", int(5));
    t.field(counter, COUNTER, "label", "Ljava/lang/String;", s("c"));
    t.inspector(counter, COUNTER, "getLabel", "()Ljava/lang/String;", s("c"));
    t.inspector(counter, COUNTER, "isZero", "()Z", boolean(false));
    tests.push(t.done());
    // Static fields.
    let mut t = Tb::new();
    let answer = t.int(42);
    t.static_field_set(f(COUNTER, "total", "I"), answer);
    let total = t.static_field_get(f(COUNTER, "total", "I"));
    t.value(total, int(42));
    let name = t.static_field_get(f(COUNTER, "NAME", "Ljava/lang/String;"));
    t.value(name, s("counter"));
    tests.push(t.done());
    // Instance fields: stores and reads, null included.
    let mut t = Tb::new();
    let first = t.make(COUNTER, "()V", &[]);
    let second = t.make(COUNTER, "()V", &[]);
    t.field_set(first, f(COUNTER, "next", "Ldemo/Counter;"), second);
    let next = t.field_get(first, f(COUNTER, "next", "Ldemo/Counter;"));
    let null = t.null_of("Ljava/lang/String;");
    t.field_set(first, f(COUNTER, "label", "Ljava/lang/String;"), null);
    t.equals(next, second, true);
    t.field(first, COUNTER, "label", "Ljava/lang/String;", Literal::Null);
    tests.push(t.done());
    // Readable code: a literal used once is written in place, one used
    // twice is declared, and a value nothing reads is not kept.
    let mut t = Tb::new();
    let counter = t.make(COUNTER, "()V", &[]);
    let three = t.int(3);
    let twice = t.int(2);
    t.call_on(counter, COUNTER, "add", "(I)I", &[three]);
    t.call_on(counter, COUNTER, "add", "(I)I", &[twice]);
    let last = t.call_on(counter, COUNTER, "add", "(I)I", &[twice]);
    t.value(last, int(7));
    tests.push(t.done());
    // Equalities between primitives and boxes.
    let mut t = Tb::new();
    let counter = t.make(COUNTER, "()V", &[]);
    let five = t.int(5);
    let boxed = t.boxed(Primitive::Int(5));
    let added = t.call_on(counter, COUNTER, "add", "(I)I", &[five]);
    let text = t.string("5");
    let half = t.double(0.5);
    let near = t.double(0.504);
    t.equals(added, five, true);
    t.equals(boxed, added, true);
    t.equals(added, text, false);
    t.equals(half, near, false);
    t.equals(near, half, true);
    tests.push(t.done());
    // Inspectors and fields of a value declared as Object.
    let mut t = Tb::new();
    let made = t.stat(COUNTER, "make", "()Ljava/lang/Object;", &[]);
    t.inspector(made, COUNTER, "isZero", "()Z", boolean(true));
    t.field(made, COUNTER, "value", "I", int(0));
    tests.push(t.done());
    tests
}

const PARSER: &str = "demo.Parser";

fn parser() -> Vec<TestCase> {
    let mut tests = Vec::new();
    let mut throwing = |name: &str, exception: &str| {
        let mut t = Tb::new();
        let call = t.stat(PARSER, name, "()V", &[]);
        t.throws(call, exception);
        tests.push(t.done());
    };
    throwing("fault", "demo.other.Fault");
    throwing("broken", "java.lang.AssertionError");
    throwing("error", "java.lang.Error");
    // A checked exception of the package.
    let mut t = Tb::new();
    let empty = t.string("");
    let parsed = t.stat(PARSER, "parse", "(Ljava/lang/String;)I", &[empty]);
    t.throws(parsed, "demo.ParseException");
    tests.push(t.done());
    // The same, with the exception's message asserted.
    let mut t = Tb::new();
    let empty = t.string("");
    let parsed = t.stat(PARSER, "parse", "(Ljava/lang/String;)I", &[empty]);
    let message = Some("empty \"input\"".to_owned());
    t.assert(parsed, AssertionKind::Throws { exception: BinaryName::new("demo.ParseException"), message });
    tests.push(t.done());
    // An error caught as a `Throwable`, with its message.
    let mut t = Tb::new();
    let call = t.stat(PARSER, "error", "()V", &[]);
    t.assert(
        call,
        AssertionKind::Throws { exception: BinaryName::new("java.lang.Error"), message: Some("error".into()) },
    );
    tests.push(t.done());
    // A declared checked exception that is not thrown.
    let mut t = Tb::new();
    let abc = t.string("abc");
    let parsed = t.stat(PARSER, "parse", "(Ljava/lang/String;)I", &[abc]);
    t.value(parsed, int(3));
    tests.push(t.done());
    // A JDK exception; the statements after it are not written.
    let mut t = Tb::new();
    let x = t.string("x");
    let parsed = t.stat(PARSER, "strict", "(Ljava/lang/String;)I", &[x]);
    t.throws(parsed, "java.lang.NumberFormatException");
    let length = t.stat(PARSER, "length", "(Ljava/lang/String;)I", &[x]);
    t.value(length, int(1));
    t.cut(length);
    tests.push(t.done());
    // A null argument.
    let mut t = Tb::new();
    let null = t.null_of("Ljava/lang/String;");
    let length = t.stat(PARSER, "length", "(Ljava/lang/String;)I", &[null]);
    t.throws(length, "java.lang.NullPointerException");
    tests.push(t.done());
    tests
}

fn other_package() -> Vec<TestCase> {
    let mut tests = Vec::new();
    // A nested class of the class under test.
    let mut t = Tb::new();
    let radius = t.double(2.0);
    let circle = t.make("demo.other.Shapes$Circle", "(D)V", &[radius]);
    let area = t.call_on(circle, "demo.other.Shapes$Circle", "area", "()D", &[]);
    t.value(area, p(Primitive::Double(std::f64::consts::PI * 2.0 * 2.0)));
    tests.push(t.done());
    // java.util.List next to demo.other.List: the package's class wins the simple name.
    let mut t = Tb::new();
    let names = t.stat("demo.other.Shapes", "names", "()Ljava/util/List;", &[]);
    t.typed(names, LIST_OF_STRING);
    let counted = t.stat("demo.other.Shapes", "count", "(Ljava/util/List;)I", &[names]);
    t.value(counted, int(2));
    let list = t.make("demo.other.List", "()V", &[]);
    let counted = t.stat("demo.other.Shapes", "count", "(Ldemo/other/List;)I", &[list]);
    t.value(counted, int(0));
    t.inspector(names, "java.util.List", "size", "()I", int(2));
    tests.push(t.done());
    tests
}

fn named_test() -> Vec<TestCase> {
    let mut t = Tb::new();
    let name = t.stat("demo.Test", "name", "()Ljava/lang/String;", &[]);
    t.value(name, s("demo test"));
    vec![t.done()]
}

fn plain() -> Vec<TestCase> {
    let mut t = Tb::new();
    let x = t.int(21);
    let twice = t.stat("Plain", "twice", "(I)I", &[x]);
    t.value(twice, int(42));
    vec![t.done()]
}

const VALUES: &str = "demo.Values";

/// `describe(Class)` of a class value, and what it says.
fn described(t: &mut Tb, class: VarId, expected: &str) {
    let described = t.stat(VALUES, "describe", "(Ljava/lang/Class;)Ljava/lang/String;", &[class]);
    t.value(described, s(expected));
}

/// A lambda of `interface` implementing `name descriptor`.
const SHOP: &str = "demo.Shop";
const STOCK: &str = "demo.Shop$Stock";

/// Mocks of an interface: stubbed with literals written in place, with a
/// value of the test, with `null`, and a mock without stubs.
fn mocks() -> Vec<TestCase> {
    let mut tests = Vec::new();
    let mut t = Tb::new();
    let open = t.boolean(true);
    let count = t.long(3);
    let name = t.string("fruit");
    let methods = vec![
        m(STOCK, "isOpen", "()Z"),
        m(STOCK, "count", "(Ljava/lang/String;I)J"),
        m(STOCK, "name", "()Ljava/lang/String;"),
    ];
    let stock = t.mock(BinaryName::new(STOCK), methods, vec![open, count, name]);
    let described = t.stat(SHOP, "describe", "(Ldemo/Shop$Stock;)Ljava/lang/String;", &[stock]);
    t.value(described, s("fruit: 3"));
    let also = t.stat(SHOP, "describe", "(Ldemo/Shop$Stock;)Ljava/lang/String;", &[stock]);
    t.value(also, s("fruit: 3"));
    tests.push(t.done());
    let mut t = Tb::new();
    let open = t.boolean(true);
    let null = t.null_of("Ljava/lang/String;");
    let methods = vec![m(STOCK, "isOpen", "()Z"), m(STOCK, "name", "()Ljava/lang/String;")];
    let stock = t.mock(BinaryName::new(STOCK), methods, vec![open, null]);
    let described = t.stat(SHOP, "describe", "(Ldemo/Shop$Stock;)Ljava/lang/String;", &[stock]);
    t.value(described, s("null: 0"));
    tests.push(t.done());
    let mut t = Tb::new();
    let stock = t.mock(BinaryName::new(STOCK), vec![], vec![]);
    let described = t.stat(SHOP, "describe", "(Ldemo/Shop$Stock;)Ljava/lang/String;", &[stock]);
    t.value(described, s("closed"));
    tests.push(t.done());
    tests
}

fn lambda(t: &mut Tb, interface: &str, name: &str, descriptor: &str, body: LambdaBody) -> VarId {
    t.lambda(BinaryName::new(interface), m(interface, name, descriptor), body)
}

fn values() -> Vec<TestCase> {
    let mut tests = Vec::new();
    // Class values: void, primitive, arrays, a nested interface and class.
    let mut t = Tb::new();
    let void = t.void_class();
    described(&mut t, void, "primitive void");
    let int = t.class_literal(array_of("I"));
    described(&mut t, int, "primitive int");
    let strings = t.class_literal(array_of("[Ljava/lang/String;"));
    described(&mut t, strings, "array of java.lang.String");
    let objects = t.class_literal(array_of("[[Ljava/lang/Object;"));
    described(&mut t, objects, "array of [Ljava.lang.Object;");
    let shout = t.class_literal(array_of("Ldemo/Values$Shout;"));
    described(&mut t, shout, "interface Shout");
    let inner = t.class_literal(array_of("Ldemo/Values$Inner;"));
    described(&mut t, inner, "class Inner");
    tests.push(t.done());
    tests.push(reflection());
    // A member that is not there: the lookup throws.
    let mut t = Tb::new();
    let missing = t.reflect(MemberRef::Method(m(VALUES, "missing", "()V")));
    t.throws(missing, "java.lang.NoSuchMethodException");
    tests.push(t.done());
    tests.push(functions());
    tests.push(comparisons());
    tests
}

/// Members by reflection: a private method, a nested class's constructor
/// (the overload for `Constructor`), a field, a JDK method.
fn reflection() -> TestCase {
    let mut t = Tb::new();
    let hidden = t.reflect(MemberRef::Method(m(VALUES, "hidden", "(I[Ljava/lang/String;)Ljava/lang/String;")));
    let arity = t.stat(VALUES, "arity", "(Ljava/lang/reflect/Method;)I", &[hidden]);
    t.value(arity, int(2));
    let constructor = t.reflect(MemberRef::Method(m("demo.Values$Inner", "<init>", "(I)V")));
    let arity = t.stat(VALUES, "arity", "(Ljava/lang/reflect/Constructor;)I", &[constructor]);
    t.value(arity, int(-1));
    let count = t.reflect(MemberRef::Field(f(VALUES, "count", "I")));
    let ty = t.stat(VALUES, "type", "(Ljava/lang/reflect/Field;)Ljava/lang/String;", &[count]);
    t.value(ty, s("int"));
    let length = t.reflect(MemberRef::Method(m("java.lang.String", "length", "()I")));
    let arity = t.stat(VALUES, "arity", "(Ljava/lang/reflect/Method;)I", &[length]);
    t.value(arity, int(0));
    t.done()
}

const APPLY: &str = "(Ljava/lang/Object;)Ljava/lang/Object;";
const APPLY_TWICE: &str = "(Ljava/util/function/Function;Ljava/lang/String;)Ljava/lang/String;";
const FUNCTION: &str = "java.util.function.Function";
const PREDICATE: &str = "java.util.function.Predicate";

/// Lambdas that return their argument, a value of the test, `null`, a
/// default, and one whose interface's default method calls it.
fn functions() -> TestCase {
    let mut t = Tb::new();
    let x = t.string("x");
    let identity = lambda(&mut t, FUNCTION, "apply", APPLY, LambdaBody::Identity);
    let same = t.stat(VALUES, "applyTwice", APPLY_TWICE, &[identity, x]);
    t.value(same, s("x"));
    let y = t.string("y");
    let constant = lambda(&mut t, FUNCTION, "apply", APPLY, LambdaBody::Returns(y));
    let ys = t.stat(VALUES, "applyTwice", APPLY_TWICE, &[constant, x]);
    t.value(ys, s("y"));
    let none = t.null_of("Ljava/lang/String;");
    let nothing = lambda(&mut t, FUNCTION, "apply", APPLY, LambdaBody::Returns(none));
    let null = t.stat(VALUES, "applyTwice", APPLY_TWICE, &[nothing, x]);
    t.value(null, Literal::Null);
    let truth = t.boolean(true);
    for (body, expected) in [(LambdaBody::Returns(truth), true), (LambdaBody::Default, false)] {
        let predicate = lambda(&mut t, PREDICATE, "test", "(Ljava/lang/Object;)Z", body);
        let tested = t.stat(VALUES, "test", "(Ljava/util/function/Predicate;Ljava/lang/String;)Z", &[predicate, x]);
        t.value(tested, boolean(expected));
    }
    let hey = t.string("hey");
    let shout = lambda(
        &mut t,
        "demo.Values$Shout",
        "shout",
        "(Ljava/lang/String;)Ljava/lang/String;",
        LambdaBody::Returns(hey),
    );
    let twice = t.stat(VALUES, "twice", "(Ldemo/Values$Shout;Ljava/lang/String;)Ljava/lang/String;", &[shout, x]);
    t.value(twice, s("hey"));
    let runnable = lambda(&mut t, "java.lang.Runnable", "run", "()V", LambdaBody::Default);
    let ran = t.stat(VALUES, "run", "(Ljava/lang/Runnable;)I", &[runnable]);
    t.value(ran, int(1));
    t.cut(ran);
    t.done()
}

/// Comparators in natural order and by default, and a primitive lambda.
fn comparisons() -> TestCase {
    let mut t = Tb::new();
    let (a, b) = (t.string("a"), t.string("b"));
    let compare = "(Ljava/lang/Object;Ljava/lang/Object;)I";
    for (body, expected) in [(LambdaBody::NaturalOrder, -1), (LambdaBody::Default, 0)] {
        let comparator = lambda(&mut t, "java.util.Comparator", "compare", compare, body);
        let sign = t.stat(
            VALUES,
            "compare",
            "(Ljava/util/Comparator;Ljava/lang/String;Ljava/lang/String;)I",
            &[comparator, a, b],
        );
        t.value(sign, int(expected));
    }
    let seven = t.int(7);
    for (body, expected) in [(LambdaBody::Returns(seven), 7), (LambdaBody::Default, 0)] {
        let op = lambda(&mut t, "java.util.function.IntBinaryOperator", "applyAsInt", "(II)I", body);
        let combined = t.stat(VALUES, "combine", "(Ljava/util/function/IntBinaryOperator;)I", &[op]);
        t.value(combined, int(expected));
    }
    t.done()
}

/// Three tests of `demo.Box.put(Object)`: with a `null` typed `String`, one
/// typed `Object` (both read `(Object) null`), and with a string.
pub fn nulls_of_two_types() -> (BinaryName, SuiteOptions, Vec<TestCase>) {
    let put = |null: Option<&str>| {
        let mut t = Tb::new();
        let arg = match null {
            Some(descriptor) => t.null_of(descriptor),
            None => t.string("x"),
        };
        let put = t.stat("demo.Box", "put", "(Ljava/lang/Object;)I", &[arg]);
        t.cut(put);
        t.done()
    };
    let tests = vec![put(Some("Ljava/lang/String;")), put(Some("Ljava/lang/Object;")), put(None)];
    let cut = BinaryName::new("demo.Box");
    (cut.clone(), SuiteOptions::for_class(&cut), tests)
}
