//! The body of one test method: one Java statement per IR statement, the
//! expected exception, and the assertions (written by `assertions`). The
//! crate docs give the rules: variables and their declared types, `null`
//! in place, argument casts, the `try`/`fail`/`catch` of the expected
//! exception.

use std::collections::{HashMap, HashSet};

use model::descriptor::{BaseType, FieldType};
use model::names::BinaryName;
use model::signature::{JavaType, TypeArg};
use testcase::assertion::AssertionKind;
use testcase::literal::{lambda, primitive_literal, reflection, string_literal};
use testcase::{LambdaBody, MethodRef, Statement, StatementKind, TestCase, VarId, box_class};

use crate::JUnitVersion;
use crate::casts::CastFacts;
use crate::imports::ClassNames;
use crate::types::{declared_erasure, declared_type, is_parameterized};
use crate::vars::Vars;

/// Writes the body of one test method.
pub(crate) struct TestWriter<'a> {
    pub(crate) test_case: &'a TestCase,
    pub(crate) names: &'a mut ClassNames,
    junit: JUnitVersion,
    casts: &'a CastFacts,
    vars: Vars,
    /// Literals used once, as an argument, and asserted nowhere: written
    /// where they are used instead of declared ([`inlined_literals`]).
    inlined: HashSet<VarId>,
    /// Values of calls that nothing uses or asserts: the call is written
    /// as a statement, without a variable ([`unused_values`]).
    unused: HashSet<VarId>,
    lines: Vec<String>,
    depth: usize,
}

/// The values of calls and constructors of `test_case` that no written
/// statement uses and no assertion is about: `Foo.parse("x");` instead
/// of a variable that is declared and never read.
fn unused_values(test_case: &TestCase) -> HashSet<VarId> {
    let written = written_len(test_case);
    let used: HashSet<VarId> = test_case.statements[..written]
        .iter()
        .flat_map(|s| s.kind.uses())
        .chain(test_case.assertions.iter().flat_map(|a| a.vars()))
        .collect();
    let call = |s: &Statement| {
        matches!(
            s.kind,
            StatementKind::Constructor { .. } | StatementKind::StaticCall { .. } | StatementKind::Call { .. }
        )
    };
    test_case.iter().take(written).filter(|(var, s)| call(s) && !used.contains(var)).map(|(var, _)| var).collect()
}

/// The primitive, string and enum-constant values of `test_case` that are used exactly
/// once, as an argument of a call or constructor written before the end
/// of the test, and that no assertion is about: `add(5)` reads better
/// than `int int0 = 5; add(int0)`. Their literals keep their type
/// (`(short) 5`, `5L`), so overload resolution does not change.
fn inlined_literals(test_case: &TestCase) -> HashSet<VarId> {
    let written = written_len(test_case);
    let mut uses: HashMap<VarId, (usize, bool)> = HashMap::new();
    for statement in &test_case.statements[..written] {
        let args: &[VarId] = match &statement.kind {
            StatementKind::Constructor { args, .. }
            | StatementKind::StaticCall { args, .. }
            | StatementKind::Call { args, .. }
            | StatementKind::Mock { returns: args, .. } => args,
            _ => &[],
        };
        for used in statement.kind.uses() {
            let entry = uses.entry(used).or_default();
            entry.0 += 1;
            entry.1 = args.contains(&used) && (entry.0 == 1);
        }
    }
    let asserted: HashSet<VarId> = test_case.assertions.iter().flat_map(|a| a.vars()).collect();
    let literal = |s: &Statement| {
        matches!(s.kind, StatementKind::Primitive(_) | StatementKind::String(_) | StatementKind::EnumConstant { .. })
    };
    test_case
        .iter()
        .take(written)
        .filter(|(var, statement)| {
            literal(statement) && !asserted.contains(var) && uses.get(var).is_some_and(|(n, arg)| *n == 1 && *arg)
        })
        .map(|(var, _)| var)
        .collect()
}

/// The statement that ends the test with an expected exception, and the
/// exception's class: the first [`AssertionKind::Throws`] of the test.
pub(crate) fn expected_exception(test_case: &TestCase) -> Option<(VarId, &BinaryName)> {
    let throws = test_case.assertions.iter().filter_map(|assertion| match &assertion.kind {
        AssertionKind::Throws { exception, .. } => Some((assertion.var, exception)),
        _ => None,
    });
    throws.filter(|(var, _)| var.index() < test_case.len()).min_by_key(|(var, _)| *var)
}

/// The message asserted on the expected exception ([`expected_exception`]), if any.
pub(crate) fn expected_message(test_case: &TestCase) -> Option<&str> {
    let (var, _) = expected_exception(test_case)?;
    test_case.assertions.iter().find_map(|assertion| match &assertion.kind {
        AssertionKind::Throws { message, .. } if assertion.var == var => message.as_deref(),
        _ => None,
    })
}

/// The number of statements written: all of them, or up to and including
/// the one with the expected exception.
pub(crate) fn written_len(test_case: &TestCase) -> usize {
    expected_exception(test_case).map_or(test_case.len(), |(var, _)| var.index() + 1)
}

/// The number of statements whose values exist at the end of the test:
/// all of them, or those before the expected exception.
pub(crate) fn values_len(test_case: &TestCase) -> usize {
    expected_exception(test_case).map_or(test_case.len(), |(var, _)| var.index())
}

/// The name of the test class's temporary folder field (`temp_folder_field` in the crate root).
pub(crate) const TEMP_FOLDER: &str = "temporaryFolder";

/// A new file in the test class's temporary folder, as `handle` asks.
fn temp_file(junit: JUnitVersion, handle: testcase::FileHandle) -> String {
    let file = match junit {
        JUnitVersion::Four => format!("{TEMP_FOLDER}.newFile()"),
        JUnitVersion::Five => format!("java.nio.file.Files.createTempFile({TEMP_FOLDER}, \"ferrosuite\", \".tmp\")"),
    };
    as_handle(junit, handle, file)
}

/// A new folder in the test class's temporary folder, as `handle` asks.
fn temp_dir(junit: JUnitVersion, handle: testcase::FileHandle) -> String {
    let folder = match junit {
        JUnitVersion::Four => format!("{TEMP_FOLDER}.newFolder()"),
        JUnitVersion::Five => format!("java.nio.file.Files.createTempDirectory({TEMP_FOLDER}, \"ferrosuite\")"),
    };
    as_handle(junit, handle, folder)
}

/// `file`, made by JUnit 4 as a `File` and by JUnit 5 as a `Path`, as
/// `handle` asks.
fn as_handle(junit: JUnitVersion, handle: testcase::FileHandle, file: String) -> String {
    match (junit, handle) {
        (JUnitVersion::Four, testcase::FileHandle::Path) => format!("{file}.toPath()"),
        (JUnitVersion::Five, testcase::FileHandle::File) => format!("{file}.toFile()"),
        _ => file,
    }
}

impl<'a> TestWriter<'a> {
    /// A writer for `test_case` that spells classes with `names`.
    pub(crate) fn new(
        test_case: &'a TestCase,
        names: &'a mut ClassNames,
        junit: JUnitVersion,
        casts: &'a CastFacts,
    ) -> TestWriter<'a> {
        let (inlined, unused) = (inlined_literals(test_case), unused_values(test_case));
        let vars = Vars::default();
        TestWriter { test_case, names, junit, casts, vars, inlined, unused, lines: Vec::new(), depth: 0 }
    }

    /// The lines of the method body, indented relative to it.
    pub(crate) fn write(mut self) -> Vec<String> {
        let test_case = self.test_case;
        let expected = expected_exception(test_case);
        for (var, statement) in test_case.iter().take(written_len(test_case)) {
            match expected {
                Some((thrower, exception)) if thrower == var => {
                    self.write_expected_exception(var, statement, exception)
                }
                _ => {
                    self.write_statement(var, statement);
                    self.write_value_assertions(var);
                }
            }
        }
        self.write_final_assertions();
        self.lines
    }

    /// Appends one line at the current depth.
    pub(crate) fn line(&mut self, text: &str) {
        self.lines.push(format!("{}{text}", "    ".repeat(self.depth)));
    }

    fn write_statement(&mut self, var: VarId, statement: &Statement) {
        if let Some(text) = self.statement_text(var, statement) {
            self.line(&text);
            if let StatementKind::Mock { methods, returns, .. } = &statement.kind {
                self.write_stubs(var, methods, returns);
            }
        }
    }

    /// `Mockito.when(store0.count()).thenReturn(int0);` per stub of the
    /// mock `var`, whatever the arguments (`Mockito.anyInt()`, `(String)
    /// Mockito.any()`).
    fn write_stubs(&mut self, var: VarId, methods: &[MethodRef], returns: &[VarId]) {
        let mockito = self.names.class(&BinaryName::new(MOCKITO));
        // A method stubbed more than once answers in that order: one
        // `thenReturn(a, b)` with all its answers, where it first appears.
        let mut firsts: Vec<&MethodRef> = Vec::new();
        for method in methods {
            if !firsts.contains(&method) {
                firsts.push(method);
            }
        }
        for method in firsts {
            let matchers: Vec<String> = method
                .descriptor
                .params
                .iter()
                .map(|param| match param {
                    FieldType::Base(base) => format!("{mockito}.{}()", any_primitive(*base)),
                    reference => format!("({}) {mockito}.any()", self.names.field_type(reference)),
                })
                .collect();
            let mock = self.vars.name(var);
            let answers: Vec<String> = methods
                .iter()
                .zip(returns)
                .filter(|(m, _)| *m == method)
                .map(|(_, value)| if self.is_null(*value) { "null".to_owned() } else { self.literal_or_name(*value) })
                .collect();
            let call = format!("{mock}.{}({})", method.name, matchers.join(", "));
            self.line(&format!("{mockito}.when({call}).thenReturn({});", answers.join(", ")));
        }
    }

    /// `Foo foo0 = new Foo(int0);` or `foo0.run();`; `None` for `null`,
    /// which is written where it is used.
    fn statement_text(&mut self, var: VarId, statement: &Statement) -> Option<String> {
        if matches!(statement.kind, StatementKind::Null(_)) || self.inlined.contains(&var) {
            return None;
        }
        let declared = declared_type(statement);
        if self.unused.contains(&var) {
            return Some(format!("{};", self.expression(&statement.kind, &declared)));
        }
        let expression = self.value_expression(statement);
        match declared.erasure().filter(|_| statement.produces_value()) {
            Some(erasure) => {
                let ty = self.names.java_type(&declared);
                let name = self.vars.declare(var, &erasure);
                Some(format!("{ty} {name} = {expression};"))
            }
            None => Some(format!("{expression};")),
        }
    }

    /// The statement's expression, cast to its declared type when the
    /// erasure of that differs from the erased type of the value.
    fn value_expression(&mut self, statement: &Statement) -> String {
        let declared = declared_type(statement);
        let expression = self.expression(&statement.kind, &declared);
        match (declared.erasure(), statement.kind.value_type()) {
            (Some(to), Some(from)) if to != from => format!("({}) {expression}", self.names.java_type(&declared)),
            _ => expression,
        }
    }

    /// The Java expression of `kind`, whose variable is declared as `declared`.
    fn expression(&mut self, kind: &StatementKind, declared: &JavaType) -> String {
        match kind {
            StatementKind::Primitive(value) => primitive_literal(*value),
            StatementKind::Boxed(value) => {
                let class = self.names.class(&box_class(value.base_type()).to_binary());
                format!("{class}.valueOf({})", primitive_literal(*value))
            }
            StatementKind::String(text) => string_literal(text),
            StatementKind::Null(_) => format!("({}) null", self.names.java_type(declared)),
            StatementKind::EnumConstant { class, name } => format!("{}.{name}", self.names.class(class)),
            StatementKind::ClassLiteral(Some(ty)) => format!("{}.class", self.names.field_type(ty)),
            StatementKind::ClassLiteral(None) => "void.class".to_owned(),
            StatementKind::Reflect(member) => reflection(member, |ty| self.names.field_type(ty)),
            StatementKind::Lambda { method, body, .. } => {
                let comparable = match body {
                    LambdaBody::NaturalOrder => self.names.class(&BinaryName::new("java.lang.Comparable")),
                    _ => String::new(),
                };
                lambda(method, *body, |var| self.stored(var), &comparable)
            }
            StatementKind::Mock { mocked, .. } => {
                let mockito = self.names.class(&BinaryName::new(MOCKITO));
                format!("{mockito}.mock({}.class)", self.names.class(mocked))
            }
            StatementKind::TempFile(handle) => temp_file(self.junit, *handle),
            StatementKind::TempDir(handle) => temp_dir(self.junit, *handle),
            StatementKind::NewArray { elem, length } => self.new_array(elem, *length, declared),
            StatementKind::ArrayStore { array, index, value } => {
                format!("{}[{index}] = {}", self.receiver(*array), self.stored(*value))
            }
            StatementKind::Constructor { method, args } => self.constructor(method, args, declared),
            StatementKind::StaticCall { method, args } => {
                let owner = self.names.class(&method.owner);
                let args = self.arguments(args, method, is_parameterized(declared));
                format!("{owner}.{}({args})", method.name)
            }
            StatementKind::Call { receiver, method, args } => {
                let generic = is_parameterized(declared) || self.is_parameterized(*receiver);
                let receiver = self.receiver(*receiver);
                format!("{receiver}.{}({})", method.name, self.arguments(args, method, generic))
            }
            StatementKind::FieldGet { receiver, field } => self.field(*receiver, &field.owner, &field.name),
            StatementKind::FieldSet { receiver, field, value } => {
                format!("{} = {}", self.field(*receiver, &field.owner, &field.name), self.stored(*value))
            }
        }
    }

    /// `new int[3]`, `new String[2][]` for an array of `String[]`, `new
    /// Class<?>[1]` when the array is declared `Class<?>[]`.
    fn new_array(&mut self, elem: &FieldType, length: u32, declared: &JavaType) -> String {
        let mut component = elem;
        let mut dimensions = 0;
        while let FieldType::Array(inner) = component {
            component = inner;
            dimensions += 1;
        }
        let spelled = match crate::types::innermost(declared) {
            generic @ JavaType::Class(class) if !class.args.is_empty() => self.names.java_type(generic),
            _ => self.names.field_type(component),
        };
        format!("new {spelled}[{length}]{}", "[]".repeat(dimensions))
    }

    /// `new Foo(int0)`, `new Box<String>(string0)`, or `new Box<>(…)` when
    /// the declared type has wildcard arguments (which `new` cannot name).
    fn constructor(&mut self, method: &MethodRef, args: &[VarId], declared: &JavaType) -> String {
        let class = self.names.class(&method.owner);
        let generic = is_parameterized(declared);
        let type_args = match declared {
            JavaType::Class(sig) if generic && sig.args.iter().all(|arg| matches!(arg, TypeArg::Exact(_))) => {
                self.names.type_args(&sig.args)
            }
            JavaType::Class(_) if generic => "<>".to_owned(),
            _ => String::new(),
        };
        if let Some((outer, rest)) = args.split_first().filter(|_| self.casts.inner_classes.contains(&method.owner)) {
            // `outer.new Inner(...)`: the enclosing instance is the first argument.
            let simple = method.owner.as_str().rsplit('$').next().unwrap_or(method.owner.as_str()).to_owned();
            let alone = !generic && self.resolves_alone(args, method);
            let written: Vec<String> = rest
                .iter()
                .enumerate()
                .map(|(i, arg)| match method.descriptor.params.get(i + 1) {
                    Some(param) => self.argument(*arg, param, method, generic, alone),
                    None => self.vars.name(*arg),
                })
                .collect();
            let outer = match method.descriptor.params.first() {
                Some(param) if self.is_null(*outer) => format!("(({}) null)", self.names.field_type(param)),
                _ => self.vars.name(*outer),
            };
            return format!("{outer}.new {simple}{type_args}({})", written.join(", "));
        }
        format!("new {class}{type_args}({})", self.arguments(args, method, generic))
    }

    /// The arguments of a call of `method`, each as [`TestWriter::argument`] writes it.
    fn arguments(&mut self, args: &[VarId], method: &MethodRef, generic: bool) -> String {
        let alone = !generic && self.resolves_alone(args, method);
        let mut written = Vec::with_capacity(args.len());
        for (i, arg) in args.iter().enumerate() {
            written.push(match method.descriptor.params.get(i) {
                Some(param) => self.argument(*arg, param, method, generic, alone),
                None => self.vars.name(*arg),
            });
        }
        written.join(", ")
    }

    /// Whether no rival overload of `method` could take `args` as they
    /// would be written without the casts javac may not need: `null` and
    /// a value declared other than a subtype of its parameter keep theirs
    /// ([`CastFacts::resolves_alone`]).
    fn resolves_alone(&self, args: &[VarId], method: &MethodRef) -> bool {
        let written = |(arg, param): (&VarId, &FieldType)| match self.erasure(*arg).filter(|_| !self.is_null(*arg)) {
            Some(declared) if !declared.is_reference() || self.casts.is_subtype(&declared, param) => declared,
            _ => param.clone(),
        };
        let types: Vec<FieldType> = args.iter().zip(&method.descriptor.params).map(written).collect();
        self.casts.resolves_alone(method, &types)
    }

    /// `string0`, `(Object) string0` or `(String) null` for parameter
    /// `param` of `method` (see the module docs; no cast where
    /// [`CastFacts::needs_cast`] says javac needs none; `alone`: see
    /// [`TestWriter::resolves_alone`]).
    fn argument(&mut self, arg: VarId, param: &FieldType, method: &MethodRef, generic: bool, alone: bool) -> String {
        if self.is_null(arg) {
            return if generic || !self.casts.null_needs_cast(method) {
                "null".to_owned()
            } else {
                format!("({}) null", self.names.field_type(param))
            };
        }
        let name = self.literal_or_name(arg);
        let upcast = !generic
            && param.is_reference()
            && self
                .erasure(arg)
                .is_none_or(|declared| declared != *param && self.casts.needs_cast(method, &declared, param, alone));
        if upcast { format!("({}) {name}", self.names.field_type(param)) } else { name }
    }

    /// The literal of `var` when it is written in place
    /// ([`inlined_literals`]), else its variable's name.
    fn literal_or_name(&mut self, var: VarId) -> String {
        let literal = match self.statement(var).map(|s| &s.kind).filter(|_| self.inlined.contains(&var)) {
            Some(StatementKind::Primitive(value)) => Some(primitive_literal(*value)),
            Some(StatementKind::String(text)) => Some(string_literal(text)),
            Some(StatementKind::EnumConstant { class, name }) => Some(format!("{}.{name}", self.names.class(class))),
            _ => None,
        };
        literal.unwrap_or_else(|| self.vars.name(var))
    }

    /// `foo0.count` or `Foo.count` for a static field.
    fn field(&mut self, receiver: Option<VarId>, owner: &BinaryName, name: &str) -> String {
        match receiver {
            Some(receiver) => format!("{}.{name}", self.receiver(receiver)),
            None => format!("{}.{name}", self.names.class(owner)),
        }
    }

    /// The statement `var` names, if the test case has it.
    pub(crate) fn statement(&self, var: VarId) -> Option<&'a Statement> {
        self.test_case.get(var)
    }

    fn is_null(&self, var: VarId) -> bool {
        self.statement(var).is_some_and(|statement| matches!(statement.kind, StatementKind::Null(_)))
    }

    fn is_parameterized(&self, var: VarId) -> bool {
        self.statement(var).is_some_and(|statement| is_parameterized(&declared_type(statement)))
    }

    /// The erasure of the type `var` is declared with.
    pub(crate) fn erasure(&self, var: VarId) -> Option<FieldType> {
        self.statement(var).and_then(declared_erasure)
    }

    /// `(T) null` for a null of declared type `T`.
    fn null_of(&mut self, var: VarId) -> String {
        let ty = self.statement(var).map_or(JavaType::Void, declared_type);
        format!("({}) null", self.names.java_type(&ty))
    }

    /// `var` as an expression: its name, or `(T) null`.
    pub(crate) fn subject(&mut self, var: VarId) -> String {
        if self.is_null(var) { self.null_of(var) } else { self.vars.name(var) }
    }

    /// `var` before a `.` or `[`: its name, or `((T) null)`.
    pub(crate) fn receiver(&mut self, var: VarId) -> String {
        if self.is_null(var) { format!("({})", self.null_of(var)) } else { self.vars.name(var) }
    }

    /// `var` on the right of `=`: its name, or `null`.
    fn stored(&mut self, var: VarId) -> String {
        if self.is_null(var) { "null".to_owned() } else { self.vars.name(var) }
    }

    /// The statement with the expected exception, in a `try` block that
    /// fails when it completes normally.
    fn write_expected_exception(&mut self, var: VarId, statement: &Statement, exception: &BinaryName) {
        let class = self.names.class(exception);
        let simple = exception.java_name().rsplit('.').next().unwrap_or_default().to_owned();
        let message = string_literal(&format!("Expecting exception: {simple}"));
        if exception.as_str() == ASSERTION_ERROR {
            self.write_needs_assertions();
        }
        if catches_assertion_errors(exception) {
            self.write_caught(var, statement, &class, &message);
        } else {
            self.write_try_fail(var, statement, &class, &message);
        }
    }

    /// Before a statement expected to throw an `AssertionError` (an
    /// `assert` it trips): return early when the test runs without
    /// assertions (`java` without `-ea`, which enables them for every
    /// class but the JDK's), where the `assert` does not trip; Maven and
    /// Gradle run tests with `-ea`.
    fn write_needs_assertions(&mut self) {
        self.line("if (!getClass().desiredAssertionStatus()) {");
        self.depth += 1;
        self.line("return; // the assert trips only with -ea");
        self.depth -= 1;
        self.line("}");
    }

    /// `try { <statement> fail(…); } catch (X e) { // expected }`, or
    /// with `assertEquals(message, e.getMessage())` in the `catch` when
    /// the message is asserted.
    fn write_try_fail(&mut self, var: VarId, statement: &Statement, class: &str, message: &str) {
        self.line("try {");
        self.depth += 1;
        self.write_throwing(var, statement);
        self.line(&format!("fail({message});"));
        self.depth -= 1;
        self.line(&format!("}} catch ({class} e) {{"));
        self.depth += 1;
        match expected_message(self.test_case) {
            Some(expected) => self.line(&format!("assertEquals({}, e.getMessage());", string_literal(expected))),
            None => self.line("// expected"),
        }
        self.depth -= 1;
        self.line("}");
    }

    /// For an exception that would also catch the `AssertionError` of
    /// `fail`: record what was caught and assert that something was.
    fn write_caught(&mut self, var: VarId, statement: &Statement, class: &str, message: &str) {
        self.line("Throwable thrown = null;");
        self.line("try {");
        self.depth += 1;
        self.write_throwing(var, statement);
        self.depth -= 1;
        self.line(&format!("}} catch ({class} e) {{"));
        self.depth += 1;
        self.line("thrown = e;");
        self.depth -= 1;
        self.line("}");
        let args = match self.junit {
            JUnitVersion::Four => format!("{message}, thrown"),
            JUnitVersion::Five => format!("thrown, {message}"),
        };
        self.line(&format!("assertNotNull({args});"));
        if let Some(expected) = expected_message(self.test_case) {
            self.line(&format!("assertEquals({}, thrown.getMessage());", string_literal(expected)));
        }
    }

    /// The statement that throws: a call without its variable (it never
    /// gets a value), anything else as usual.
    fn write_throwing(&mut self, var: VarId, statement: &Statement) {
        if statement.kind.is_call() {
            let expression = self.expression(&statement.kind, &declared_type(statement));
            self.line(&format!("{expression};"));
        } else {
            self.write_statement(var, statement);
        }
    }
}

/// The class whose static methods make mocks and stubs (Mockito 2, Debian's `libmockito-java`).
pub(crate) const MOCKITO: &str = "org.mockito.Mockito";

/// The Mockito matcher of any value of a primitive type (`anyInt`).
fn any_primitive(base: BaseType) -> &'static str {
    match base {
        BaseType::Boolean => "anyBoolean",
        BaseType::Byte => "anyByte",
        BaseType::Char => "anyChar",
        BaseType::Short => "anyShort",
        BaseType::Int => "anyInt",
        BaseType::Long => "anyLong",
        BaseType::Float => "anyFloat",
        BaseType::Double => "anyDouble",
    }
}

/// Whether `catch (exception e)` would also catch the `AssertionError`
/// that `fail` throws.
/// The error an `assert` statement throws.
const ASSERTION_ERROR: &str = "java.lang.AssertionError";

fn catches_assertion_errors(exception: &BinaryName) -> bool {
    matches!(exception.as_str(), "java.lang.Throwable" | "java.lang.Error" | "java.lang.AssertionError")
}

#[cfg(test)]
mod tests {
    use model::signature::parse_field_signature;
    use testcase::assertion::{Assertion, Literal};
    use testcase::{FieldRef, Primitive, TestCaseBuilder};

    use super::*;

    fn method(owner: &str, name: &str, descriptor: &str) -> MethodRef {
        MethodRef::parse(owner, name, descriptor).unwrap()
    }

    fn assertion(var: VarId, kind: AssertionKind) -> Assertion {
        Assertion { var, kind }
    }

    fn throws(var: VarId, exception: &str) -> Assertion {
        assertion(var, AssertionKind::Throws { exception: BinaryName::new(exception), message: None })
    }

    /// Builds a test case with `build` (which returns its assertions) and
    /// compares the body written for it, in package `demo`, with `expected`.
    fn check(build: impl FnOnce(&mut TestCaseBuilder) -> Vec<Assertion>, expected: &str) {
        check_with(build, &CastFacts::default(), expected);
    }

    /// [`check`] with the class-path facts `facts`.
    fn check_with(build: impl FnOnce(&mut TestCaseBuilder) -> Vec<Assertion>, facts: &CastFacts, expected: &str) {
        let mut b = TestCaseBuilder::new();
        let assertions = build(&mut b);
        let mut test_case = b.build();
        test_case.assertions = assertions;
        let mut names = ClassNames::new("demo", "Foo_FerroTest");
        TestWriter::new(&test_case, &mut names, JUnitVersion::Four, facts).write();
        names.decide(&BinaryName::new("demo.Foo"));
        let lines = TestWriter::new(&test_case, &mut names, JUnitVersion::Four, facts).write();
        assert_eq!(lines.join("\n"), expected);
    }

    #[test]
    fn an_inner_class_is_constructed_on_its_enclosing_instance() {
        let facts = CastFacts { inner_classes: [BinaryName::new("demo.Foo$Inner")].into(), ..CastFacts::default() };
        let inner = method("demo.Foo$Inner", "<init>", "(Ldemo/Foo;I)V");
        check_with(
            |b| {
                let outer = b.construct(method("demo.Foo", "<init>", "()V"), &[]);
                let seven = b.primitive(Primitive::Int(7));
                b.construct(inner.clone(), &[outer, seven]);
                let null = b.null(FieldType::parse("Ldemo/Foo;").unwrap());
                b.construct(inner.clone(), &[null, seven]);
                vec![]
            },
            &facts,
            concat!(
                "Foo foo0 = new Foo();\n",
                "int int0 = 7;\n",
                "foo0.new Inner(int0);\n",
                "((Foo) null).new Inner(int0);",
            ),
        );
    }

    #[test]
    fn the_first_expected_exception_ends_the_test_and_later_values_are_not_asserted() {
        check(
            |b| {
                let foo = b.construct(method("demo.Foo", "<init>", "()V"), &[]);
                let a = b.call(foo, method("demo.Foo", "a", "()I"), &[]);
                let c = b.call(foo, method("demo.Foo", "c", "()I"), &[]);
                vec![
                    throws(c, "java.lang.IllegalStateException"),
                    throws(a, "java.lang.RuntimeException"),
                    assertion(foo, AssertionKind::EqualsOther { other: c, equal: true }),
                    assertion(a, AssertionKind::Value(Literal::Primitive(Primitive::Int(1)))),
                    assertion(foo, AssertionKind::NotNull),
                ]
            },
            "Foo foo0 = new Foo();
assertNotNull(foo0);
try {
    foo0.a();
    fail(\"Expecting exception: RuntimeException\");
} catch (RuntimeException e) {
    // expected
}",
        );
    }

    #[test]
    fn assertions_on_statements_without_a_value_are_left_out() {
        check(
            |b| {
                let foo = b.construct(method("demo.Foo", "<init>", "()V"), &[]);
                let run = b.call(foo, method("demo.Foo", "run", "()V"), &[]);
                let size = method("demo.Foo", "size", "()I");
                vec![
                    assertion(run, AssertionKind::NotNull),
                    assertion(run, AssertionKind::Inspector { method: size, expected: Literal::Null }),
                    assertion(foo, AssertionKind::EqualsOther { other: run, equal: true }),
                    throws(VarId(9), "java.lang.Error"),
                ]
            },
            "Foo foo0 = new Foo();\nfoo0.run();",
        );
    }

    #[test]
    fn a_null_receiver_is_cast_and_parenthesised() {
        check(
            |b| {
                let null = b.null(FieldType::parse("Ldemo/Foo;").unwrap());
                b.field_get(null, FieldRef::parse("demo.Foo", "count", "I").unwrap());
                let call = b.call(null, method("demo.Foo", "run", "()V"), &[]);
                vec![
                    assertion(null, AssertionKind::Value(Literal::Null)),
                    throws(call, "java.lang.NullPointerException"),
                ]
            },
            "assertNull((Foo) null);
int int0 = ((Foo) null).count;
try {
    ((Foo) null).run();
    fail(\"Expecting exception: NullPointerException\");
} catch (NullPointerException e) {
    // expected
}",
        );
    }

    #[test]
    fn values_narrowed_by_their_type_are_cast_and_type_variables_erased() {
        check(
            |b| {
                let text = b.string("x");
                let boxed = b.construct(method("demo.Box", "<init>", "(Ljava/lang/Object;)V"), &[text]);
                b.refine(boxed, parse_field_signature("Ldemo/Box<TT;>;").unwrap());
                let value = b.field_get(boxed, FieldRef::parse("demo.Box", "value", "Ljava/lang/Object;").unwrap());
                b.refine(value, parse_field_signature("Ljava/lang/String;").unwrap());
                Vec::new()
            },
            "Box box0 = new Box((Object) \"x\");
String string0 = (String) box0.value;",
        );
    }
}
