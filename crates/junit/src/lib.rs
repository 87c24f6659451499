//! JUnit output: prints test cases (the IR of [`testcase`]) as the source of
//! one JUnit test class, stage 8 of the pipeline.
//!
//! # Brief overview
//!
//! [`emit_suite`] turns the tests of one class under test into the source
//! of `<Class>_FerroTest` in the package of that class (so package-private
//! members are reachable), for JUnit 4 (`org.junit.Test`, `org.junit.Assert.*`)
//! or JUnit 5 (`org.junit.jupiter.api.Test`, `Assertions.*`). The source
//! needs nothing but JUnit and the classes the tests use. [`test_names`]
//! gives the names of the test methods, for reports.
//!
//! ```
//! use junit::{SuiteOptions, emit_suite};
//! use model::names::BinaryName;
//! use testcase::{MethodRef, TestCaseBuilder};
//!
//! let cut = BinaryName::new("demo.Counter");
//! let mut b = TestCaseBuilder::new();
//! let counter = b.construct(MethodRef::parse("demo.Counter", "<init>", "()V").unwrap(), &[]);
//! let n = b.int(3);
//! let add = b.call(counter, MethodRef::parse("demo.Counter", "add", "(I)I").unwrap(), &[n]);
//! b.call_under_test(add);
//! let source = emit_suite(&cut, &[b.build()], &SuiteOptions::for_class(&cut));
//! assert!(source.contains(
//!     "    @Test\n    public void add() throws Throwable {\n        \
//!      Counter counter0 = new Counter();\n        counter0.add(3);\n    }\n"
//! ));
//! ```
//!
//! # What the source looks like
//!
//! - Test methods are `public void m() throws Throwable`, named by
//!   [`test_names`] after the method under test and its outcome
//!   (`popThrowsIllegalStateException`, `isEmptyReturnsTrue`).
//! - Every value is a local variable named after its declared type
//!   (`stack0`, `string1`, `intArray0`), except a primitive or string
//!   literal used once as an argument and asserted nowhere, which is
//!   written in place (`counter0.add(3)`), and the value of a call that
//!   nothing uses or asserts, which is not kept in a variable (the call is
//!   a statement of its own); statements without a value (`void`
//!   calls, stores) are written as they are. A variable is declared with the
//!   statement's `ty`, or its erasure when `ty` mentions a type variable;
//!   when that erasure differs from the erased type of the value (a generic
//!   method returning `T` for a `String`), the value is cast:
//!   `String string2 = (String) Generics.first(list0);`.
//! - `null` is never a variable: it is written where it is used, as
//!   `(P) null` for an argument of parameter type `P`, `((T) null)` as a
//!   receiver, `null` when stored.
//! - A reference argument whose declared type is not the parameter type is
//!   cast to it (`stack0.push((Object) string0)`), so that javac picks the
//!   overload the IR names. In a parameterized context (the receiver's or
//!   the result's declared type has type arguments) the parameter types may
//!   be type variables that the IR does not record, so arguments are passed
//!   as they are, `null` bare, and javac infers the type arguments
//!   (`new Box<String>(string0)`, `new Box<>(…)` for wildcard arguments).
//! - Classes are imported when their simple name is unambiguous (never those
//!   of `java.lang` or of the test's own package), fully qualified otherwise;
//!   a simple name goes to the class under test first, then to classes of
//!   its package, then `java.lang`, then the first by name. Nested classes
//!   are spelled through their outer class, `Map.Entry`.
//! - Literals are exact Java literals ([`testcase::literal`]); `Class` values
//!   are class literals (`int.class`, `String[].class`, `void.class`,
//!   `Values.Inner.class`).
//! - Members by reflection are looked up as the worker looks them up:
//!   `Values.class.getDeclaredMethod("hidden", int.class, String[].class)`,
//!   `getDeclaredConstructor(…)`, `getDeclaredField("count")` (a
//!   `NoSuchMethodException` is covered by `throws Throwable`).
//! - Lambdas are Java lambdas declared with the raw interface type,
//!   `Function function0 = (a) -> string0;`, `Comparator comparator0 =
//!   (a, b) -> ((Comparable) a).compareTo(b);`, `Runnable runnable0 = () -> {};`:
//!   their parameters (`a`, `b`, …) never shadow a local, whose names end in
//!   a digit, and the locals they return are effectively final, since every
//!   value is a new local. The source needs nothing of ferrosuite for them.
//!
//! # Assertions
//!
//! [`Value`](testcase::assertion::AssertionKind::Value) and
//! [`NotNull`](testcase::assertion::AssertionKind::NotNull) are written
//! right after the statement whose value they check.
//! [`Inspector`](testcase::assertion::AssertionKind::Inspector),
//! [`Field`](testcase::assertion::AssertionKind::Field) and
//! [`EqualsOther`](testcase::assertion::AssertionKind::EqualsOther) describe
//! the state at the end of the test, after the expected exception if any,
//! and are written there (the oracle should observe them there too).
//! Assertions on values the written test does not have (`void` statements,
//! statements from the expected exception on) are left out.
//!
//! Floats and doubles are compared with a delta of `0.01`, booleans with
//! `assertTrue`/`assertFalse`, `null` with `assertNull`; a primitive
//! expected value checked against a reference is unboxed with a cast,
//! `assertEquals(3, (int) integer0)`, because JUnit 4's
//! `assertEquals(long, long)` and `assertEquals(Object, Object)` would both
//! apply otherwise. Inspectors and fields of a value declared with another
//! type than the member's owner cast it, `((Counter) object0).isZero()`.
//!
//! The first [`Throws`](testcase::assertion::AssertionKind::Throws) (by
//! statement) ends the test: its statement is written as
//! `try { …; fail("Expecting exception: X"); } catch (X e) { }` for JUnit 4
//! and 5 alike (no lambda, so no effectively-final rule to respect), and no
//! later statement is written. For `AssertionError`, `Error` and
//! `Throwable`, which would also catch the error of `fail`, the caught
//! exception is recorded and `assertNotNull` checks it.
//!
//! **Limitations.** The printer knows only the test cases, not the class
//! path: inner (non-static) classes are constructed like static nested ones
//! (`new Outer.Inner(outer0)`, which javac rejects), and classes without a
//! source name (anonymous, local) cannot be spelled; a checked exception
//! that the throwing statement does not declare, or a class the test
//! cannot access, makes the source fail to compile; a class of the test's
//! own package that the tests do not use still hides a `java.lang` class of
//! the same simple name. Verification (stage 8, `generate::verify`) compiles the output and
//! drops what javac rejects.
//!
//! # Modules
//!
//! - `names`: [`test_names`].
//! - `body`: one test method body, statement by statement.
//! - `casts`: when an argument needs a cast ([`CastFacts`]).
//! - `assertions`: the assertions of a test.
//! - `imports`: which classes are imported and how classes are spelled.
//! - `types`: spelling types, and the type each variable is declared with.
//! - `vars`: variable names.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod assertions;
mod body;
mod casts;
mod imports;
mod names;
mod types;
mod vars;

use model::names::BinaryName;
use testcase::TestCase;

pub use casts::CastFacts;
pub use names::test_names;

use crate::body::TestWriter;
use crate::imports::ClassNames;

/// The JUnit version the source is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum JUnitVersion {
    /// JUnit 4: `org.junit.Test` and `org.junit.Assert.*`.
    #[default]
    Four,
    /// JUnit 5 (Jupiter): `org.junit.jupiter.api.Test` and `org.junit.jupiter.api.Assertions.*`.
    Five,
}

/// The subpackage of the CUT's package that holds the tests of a class in
/// a sealed package ([`SuiteOptions::in_subpackage`]).
pub const SEALED_SUBPACKAGE: &str = "ferrotest";

/// How to write a suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteOptions {
    /// The JUnit version.
    pub junit: JUnitVersion,
    /// The simple name of the test class, e.g. `"CharUtils_FerroTest"`.
    pub class_name: String,
    /// Time limit of each test method in milliseconds, written as JUnit 4's
    /// `@Test(timeout = N)` or JUnit 5's `@Timeout`; `None` writes none.
    pub timeout_ms: Option<u64>,
    /// The test class's package when it is not the CUT's: a sealed package
    /// (see `model::classpath::ClassPath::is_sealed`) admits no class from
    /// elsewhere, so its tests live in a subpackage and call only public members.
    pub package: Option<String>,
    /// What decides which argument casts javac needs ([`CastFacts`]);
    /// empty, every argument of another declared type is cast.
    pub casts: CastFacts,
    /// A comment above each test method, in test order, written as `//`
    /// lines (an empty string, or no entry, writes none): why a witness
    /// test of a finding is suspicious.
    pub comments: Vec<String>,
    /// Static fields of the class under test that its calls assign
    /// (`instrument::static_reset::own_statics_assigned_after_initialiser`):
    /// the suite saves them before its first test and restores them before
    /// each, by reflection, so a test sees the state the workers' static
    /// reset gave it whatever ran before. Empty writes nothing.
    pub static_fields: Vec<String>,
}

impl SuiteOptions {
    /// JUnit 4 and the class name `<Class>_FerroTest` for the class under
    /// test `cut` (`Outer_Inner_FerroTest` for a nested class `Outer$Inner`).
    pub fn for_class(cut: &BinaryName) -> SuiteOptions {
        let simple = cut.simple_name().replace('$', "_");
        SuiteOptions {
            junit: JUnitVersion::Four,
            class_name: format!("{simple}_FerroTest"),
            timeout_ms: None,
            package: None,
            casts: CastFacts::default(),
            comments: Vec::new(),
            static_fields: Vec::new(),
        }
    }

    /// The same, with the test class in [`SEALED_SUBPACKAGE`] of the CUT's
    /// package (for a CUT in a sealed package).
    pub fn in_subpackage(self, cut: &BinaryName) -> SuiteOptions {
        let package = match cut.package() {
            "" => SEALED_SUBPACKAGE.to_string(),
            p => format!("{p}.{SEALED_SUBPACKAGE}"),
        };
        SuiteOptions { package: Some(package), ..self }
    }

    /// The package of the test class: [`SuiteOptions::package`], else the CUT's.
    pub fn test_package<'a>(&'a self, cut: &'a BinaryName) -> &'a str {
        self.package.as_deref().unwrap_or(cut.package())
    }

    /// Where the source goes relative to a source root, as javac expects:
    /// `org/apache/commons/lang3/CharUtils_FerroTest.java`.
    pub fn source_path(&self, cut: &BinaryName) -> String {
        let package = self.test_package(cut);
        if package.is_empty() {
            format!("{}.java", self.class_name)
        } else {
            format!("{}/{}.java", model::names::internal_package(package), self.class_name)
        }
    }

    /// The binary name of the test class: `org.apache.commons.lang3.CharUtils_FerroTest`.
    pub fn test_class(&self, cut: &BinaryName) -> BinaryName {
        match self.test_package(cut) {
            "" => BinaryName::new(self.class_name.clone()),
            package => BinaryName::new(format!("{package}.{}", self.class_name)),
        }
    }
}

/// The source of the JUnit test class for `tests` of the class under test
/// `cut`: one test method per test case, named as [`test_names`] names them.
///
/// A test whose last written statement throws an expected exception has a
/// [`testcase::assertion::AssertionKind::Throws`] assertion on that
/// statement; nothing else is needed. The output depends only on the
/// arguments.
pub fn emit_suite(cut: &BinaryName, tests: &[TestCase], options: &SuiteOptions) -> String {
    emit_suite_with_lines(cut, tests, options).source
}

/// An emitted test class: its source and where each test method is in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmittedSuite {
    /// The Java source ([`emit_suite`]'s result).
    pub source: String,
    /// One entry per test case, in order.
    pub tests: Vec<EmittedTest>,
}

/// One test method of an [`EmittedSuite`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmittedTest {
    /// The method's name ([`test_names`]).
    pub name: String,
    /// Its source lines, 1-based, from the annotation to the closing brace.
    pub lines: std::ops::RangeInclusive<u32>,
}

impl EmittedSuite {
    /// The names of the test methods that contain any of `lines` (1-based;
    /// a compiler's error lines), each once, in suite order.
    pub fn tests_at_lines(&self, lines: &[u32]) -> Vec<&str> {
        let hit = |t: &&EmittedTest| lines.iter().any(|l| t.lines.contains(l));
        self.tests.iter().filter(hit).map(|t| t.name.as_str()).collect()
    }
}

/// The names of the test methods of a source that [`emit_suite`] wrote, in
/// source order: each is declared `public void NAME() throws Throwable` on
/// a line of its own (for a caller that has the file but not the tests);
/// the static state's `resetStaticState`, which throws `Exception`, is
/// not a test.
pub fn test_methods_in(source: &str) -> Vec<String> {
    let declared = |l: &str| {
        let name = l.trim_start().strip_prefix("public void ")?.strip_suffix("() throws Throwable {")?;
        Some(name.to_string())
    };
    source.lines().filter_map(declared).collect()
}

/// The indices of the tests whose method would read exactly like an
/// earlier test's: test cases can differ where their Java does not (a
/// `null` typed `Object` or `Comparable` is `(Comparable) null` for a
/// `Comparable` parameter either way), and a suite should not say the same
/// thing twice.
pub fn repeated_tests(cut: &BinaryName, tests: &[TestCase], options: &SuiteOptions) -> Vec<usize> {
    let mut names = ClassNames::new(options.test_package(cut), &options.class_name);
    let same_name = vec![String::from("test"); tests.len()];
    write_methods(tests, &same_name, &mut names, options);
    names.decide(cut);
    let methods = write_methods(tests, &same_name, &mut names, options);
    let mut seen = std::collections::HashSet::new();
    (0..methods.len()).filter(|&i| !seen.insert(methods[i].as_str())).collect()
}

/// Like [`emit_suite`], with the line range of each test method.
pub fn emit_suite_with_lines(cut: &BinaryName, tests: &[TestCase], options: &SuiteOptions) -> EmittedSuite {
    let mut names = ClassNames::new(options.test_package(cut), &options.class_name);
    let test_names = test_names(tests);
    // The first pass only finds the classes the tests name.
    write_methods(tests, &test_names, &mut names, options);
    names.decide(cut);
    let methods = write_methods(tests, &test_names, &mut names, options);
    let mut source = header(cut, &names, options);
    if tests.iter().any(|t| {
        t.statements
            .iter()
            .any(|s| matches!(s.kind, testcase::StatementKind::TempFile(_) | testcase::StatementKind::TempDir(_)))
    }) {
        source.push_str(&temp_folder_field(options.junit));
    }
    if !options.static_fields.is_empty() {
        source.push_str(&static_state_reset(cut, &options.static_fields, options.junit));
    }
    let mut emitted = Vec::with_capacity(methods.len());
    // Every part ends with a newline, so lines so far = newlines so far.
    let mut lines_so_far = source.matches('\n').count() as u32;
    for (i, (method, name)) in methods.iter().zip(test_names).enumerate() {
        if i > 0 {
            source.push('\n');
            lines_so_far += 1;
        }
        for line in options.comments.get(i).map_or("", String::as_str).lines() {
            source.push_str(&format!("    // {line}\n"));
            lines_so_far += 1;
        }
        source.push_str(method);
        let first = lines_so_far + 1;
        lines_so_far += method.matches('\n').count() as u32;
        emitted.push(EmittedTest { name, lines: first..=lines_so_far });
    }
    source.push_str("}\n");
    EmittedSuite { source, tests: emitted }
}

/// The source up to the first test method: package, imports, class header.
fn header(cut: &BinaryName, names: &ClassNames, options: &SuiteOptions) -> String {
    let (assertions, test) = match options.junit {
        JUnitVersion::Four => ("org.junit.Assert", "org.junit.Test"),
        JUnitVersion::Five => ("org.junit.jupiter.api.Assertions", "org.junit.jupiter.api.Test"),
    };
    let mut imports = names.imports();
    // A class of the tests named `Test` keeps the simple name; the annotation is then qualified.
    if !names.has_simple_name("Test") {
        imports.push(test.to_owned());
    }
    if options.junit == JUnitVersion::Five && options.timeout_ms.is_some() && !names.has_simple_name("Timeout") {
        imports.push("org.junit.jupiter.api.Timeout".to_owned());
    }
    imports.sort();
    let mut out = String::from("// Generated by ferrosuite.\n");
    let package = options.test_package(cut);
    if !package.is_empty() {
        out.push_str(&format!("package {package};\n\n"));
    }
    out.push_str(&format!("import static {assertions}.*;\n\n"));
    for import in &imports {
        out.push_str(&format!("import {import};\n"));
    }
    if !imports.is_empty() {
        out.push('\n');
    }
    out.push_str(&format!("public class {} {{\n\n", options.class_name));
    out
}

/// The declaration of the temporary folder the tests' files are made in
/// (`testcase::StatementKind::TempFile`), followed by an empty line; JUnit
/// makes a fresh folder per test method and deletes it afterwards.
fn temp_folder_field(junit: JUnitVersion) -> String {
    let field = body::TEMP_FOLDER;
    match junit {
        JUnitVersion::Four => format!(
            "    @org.junit.Rule\n    public org.junit.rules.TemporaryFolder {field} = new org.junit.rules.TemporaryFolder();\n\n"
        ),
        JUnitVersion::Five => format!("    @org.junit.jupiter.api.io.TempDir\n    java.nio.file.Path {field};\n\n"),
    }
}

/// The saving and restoring of the static fields `fields` of `cut`
/// ([`SuiteOptions::static_fields`]), followed by an empty line: before
/// the first test of the JVM they are saved, before each later one
/// restored. (Saving in `@BeforeClass` would save again for each test run
/// alone, as IDEs and `Request.method` do, after earlier tests changed
/// them.) Names are qualified, so no import can clash with a class of the
/// tests.
fn static_state_reset(cut: &BinaryName, fields: &[String], junit: JUnitVersion) -> String {
    let before_each = match junit {
        JUnitVersion::Four => "org.junit.Before",
        JUnitVersion::Five => "org.junit.jupiter.api.BeforeEach",
    };
    let names: Vec<String> = fields.iter().map(|f| format!("\"{f}\"")).collect();
    let cut = cut.as_str();
    [
        "    // Static state the class under test keeps between calls, as the first test found it:".to_string(),
        "    // restored before each later test, so that no test depends on the ones before it.".to_string(),
        "    private static final java.util.Map<java.lang.reflect.Field, java.lang.Object> STATIC_STATE = new java.util.LinkedHashMap<>();".to_string(),
        String::new(),
        format!("    @{before_each}"),
        "    public void resetStaticState() throws java.lang.Exception {".to_string(),
        "        if (STATIC_STATE.isEmpty()) {".to_string(),
        format!("            for (java.lang.String name : new java.lang.String[] {{{}}}) {{", names.join(", ")),
        format!("                java.lang.reflect.Field field = java.lang.Class.forName(\"{cut}\").getDeclaredField(name);"),
        "                field.setAccessible(true);".to_string(),
        "                STATIC_STATE.put(field, field.get(null));".to_string(),
        "            }".to_string(),
        "        }".to_string(),
        "        for (java.util.Map.Entry<java.lang.reflect.Field, java.lang.Object> saved : STATIC_STATE.entrySet()) {".to_string(),
        "            saved.getKey().set(null, saved.getValue());".to_string(),
        "        }".to_string(),
        "    }".to_string(),
        String::new(),
        String::new(),
    ]
    .join("\n")
}

/// The annotations of every test method, one per line, without indentation:
/// `@Test`, with the time limit when there is one.
fn annotations(names: &ClassNames, options: &SuiteOptions) -> Vec<String> {
    let test = match (options.junit, names.has_simple_name("Test")) {
        (_, false) => "@Test",
        (JUnitVersion::Four, true) => "@org.junit.Test",
        (JUnitVersion::Five, true) => "@org.junit.jupiter.api.Test",
    };
    match (options.junit, options.timeout_ms) {
        (_, None) => vec![test.to_owned()],
        (JUnitVersion::Four, Some(ms)) => vec![format!("{test}(timeout = {ms})")],
        (JUnitVersion::Five, Some(ms)) => {
            let timeout = if names.has_simple_name("Timeout") { "@org.junit.jupiter.api.Timeout" } else { "@Timeout" };
            let limit = if ms % 1000 == 0 {
                format!("{timeout}({})", ms / 1000)
            } else {
                format!("{timeout}(value = {ms}, unit = java.util.concurrent.TimeUnit.MILLISECONDS)")
            };
            vec![test.to_owned(), limit]
        }
    }
}

/// The source of each test method.
fn write_methods(
    tests: &[TestCase],
    test_names: &[String],
    names: &mut ClassNames,
    options: &SuiteOptions,
) -> Vec<String> {
    let annotations: String = annotations(names, options).iter().map(|a| format!("    {a}\n")).collect();
    let mut methods = Vec::with_capacity(tests.len());
    for (test_case, name) in tests.iter().zip(test_names) {
        let mut method = format!("{annotations}    public void {name}() throws Throwable {{\n");
        for line in TestWriter::new(test_case, names, options.junit, &options.casts).write() {
            method.push_str(&format!("        {line}\n"));
        }
        method.push_str("    }\n");
        methods.push(method);
    }
    methods
}
