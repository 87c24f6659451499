//! Stage 8: emit the JUnit class, compile it and run it twice (in order and
//! reversed); tests or assertions that do not compile, fail or differ
//! between runs are removed and the class is emitted again, until it
//! compiles and passes.

use std::collections::BTreeMap;
use std::time::Duration;

use javarun::TestVerdict;
use model::names::{BinaryName, InternalName};
use testcase::TestCase;
use testcase::assertion::AssertionKind;

use crate::class_run::ClassRun;
use crate::report::{ClassReport, ExceptionSeen};
use crate::{GenerateConfig, GenerateError};

/// Rounds of remove-and-recompile at most.
const MAX_ROUNDS: usize = 4;
/// Time limit per JUnit test method, in verification and in the emitted
/// tests' annotations (so a test that hangs on the user's machine fails
/// instead of stopping the build).
const JUNIT_TEST_TIMEOUT: Duration = Duration::from_secs(10);

/// Emits the suite, compiles and runs it, removing what fails, and writes
/// the final file. Returns the tests of the final suite.
///
/// # Errors
/// When the tests cannot be written, or javac/JUnit cannot run at all.
pub fn emit_and_verify(
    config: &GenerateConfig,
    ctx: &ClassRun,
    mut tests: Vec<TestCase>,
    report: &mut ClassReport,
) -> Result<Vec<TestCase>, GenerateError> {
    let cut = &ctx.class;
    let options = junit::SuiteOptions {
        junit: config.junit,
        timeout_ms: Some(JUNIT_TEST_TIMEOUT.as_millis() as u64),
        ..junit::SuiteOptions::for_class(cut)
    };
    let file = config.out.join(options.source_path(cut));
    let dir = file.parent().expect("a source path has a folder");
    std::fs::create_dir_all(dir).map_err(GenerateError::io("create", dir))?;
    for round in 0..MAX_ROUNDS {
        let suite = junit::emit_suite_with_lines(cut, &tests, &options);
        std::fs::write(&file, &suite.source).map_err(GenerateError::io("write", &file))?;
        // Kept for diagnosis: what each round emitted, before removals.
        let _ = std::fs::write(ctx.work.join(format!("round-{round}.java")), &suite.source);
        let names: Vec<String> = suite.tests.iter().map(|t| t.name.clone()).collect();
        let failing = failing_tests(config, ctx, &file, &suite, &options.test_class(cut))?;
        if failing.is_empty() {
            break;
        }
        tests = remove_failures(tests, &names, &failing, report);
    }
    report.tests = tests.len();
    report.assertions = tests.iter().map(|t| t.assertions.len()).sum();
    report.test_file = file.strip_prefix(&config.out).ok().map(|p| p.display().to_string());
    report.exceptions = exceptions_seen(ctx, &tests);
    Ok(tests)
}

/// Why a test was found failing: the cause it is counted under in
/// [`ClassReport::removed_tests_by_cause`].
const FAILS_UNDER_JUNIT: &str = "fails-under-junit";
/// See [`FAILS_UNDER_JUNIT`]: passes on the JDK of the run, fails on the second one.
const FAILS_ON_SECOND_JDK: &str = "fails-on-second-jdk";

/// The tests that do not compile, or fail in either order, or fail on the
/// second JDK when there is one, each with its cause.
fn failing_tests(
    config: &GenerateConfig,
    ctx: &ClassRun,
    file: &std::path::Path,
    suite: &junit::EmittedSuite,
    test_class: &BinaryName,
) -> Result<BTreeMap<String, &'static str>, GenerateError> {
    let classes = ctx.work.join("test-classes");
    let _ = std::fs::remove_dir_all(&classes);
    let compile_cp = format!("{}:{}", config.class_path, config.junit_jars.compile_class_path());
    let release = Some(model::classfile::javac_release(ctx.major));
    let compiled = javarun::compile_tests(&config.jdk, &[file.to_path_buf()], &compile_cp, &classes, release)?;
    if let Err(errors) = compiled {
        let text: Vec<String> = errors.iter().map(|e| format!("{}: {}", e.line, e.message)).collect();
        let _ = std::fs::write(ctx.work.join("compile-errors.txt"), text.join("\n"));
        let lines: Vec<u32> = errors.iter().map(|e| e.line).collect();
        let broken: BTreeMap<String, &str> =
            suite.tests_at_lines(&lines).into_iter().map(|n| (n.to_string(), FAILS_UNDER_JUNIT)).collect();
        if broken.is_empty() {
            return Err(GenerateError::DoesNotCompile { first_error: errors.first().map(|e| e.message.clone()) });
        }
        return Ok(broken);
    }
    // The suite runs confined like the workers: it may write only in its JVM's scratch folder.
    let confiner = javarun::Confiner { launcher: config.worker_exe.clone() };
    let run = |jdk: &javarun::Jdk, order: &[String]| -> Result<Vec<TestVerdict>, GenerateError> {
        Ok(javarun::run_tests(
            jdk,
            &classes,
            &config.class_path,
            test_class.as_str(),
            order,
            &config.junit_jars,
            None,
            JUNIT_TEST_TIMEOUT,
            Some(&confiner),
        )?)
    };
    let names: Vec<String> = suite.tests.iter().map(|t| t.name.clone()).collect();
    let reversed: Vec<String> = names.iter().rev().cloned().collect();
    let mut failing = BTreeMap::new();
    for verdict in run(&config.jdk, &names)?.into_iter().chain(run(&config.jdk, &reversed)?) {
        if !verdict.passed {
            failing.insert(verdict.name, FAILS_UNDER_JUNIT);
        }
    }
    if let Some(second) = &config.second_jdk {
        for verdict in run(second, &names)? {
            if !verdict.passed {
                failing.entry(verdict.name).or_insert(FAILS_ON_SECOND_JDK);
            }
        }
    }
    Ok(failing)
}

/// Tests whose assertions failed lose their assertions (counted); a test
/// that already had none is removed (counted).
fn remove_failures(
    tests: Vec<TestCase>,
    names: &[String],
    failing: &BTreeMap<String, &'static str>,
    report: &mut ClassReport,
) -> Vec<TestCase> {
    let mut out = Vec::with_capacity(tests.len());
    for (mut t, name) in tests.into_iter().zip(names) {
        let Some(cause) = failing.get(name) else {
            out.push(t);
            continue;
        };
        if t.assertions.iter().any(|a| !matches!(a.kind, AssertionKind::Throws { .. })) {
            report.removed_assertions += t.assertions.len();
            t.assertions.retain(|a| matches!(a.kind, AssertionKind::Throws { .. }));
            out.push(t);
        } else {
            report.count_removed(cause, 1);
            report.removed_assertions += t.assertions.len();
        }
    }
    out
}

/// Exceptions the final tests expect, per method of the class under test.
fn exceptions_seen(ctx: &ClassRun, tests: &[TestCase]) -> Vec<ExceptionSeen> {
    let declared = declared_exceptions(ctx);
    let mut seen: BTreeMap<(String, BinaryName), ExceptionSeen> = BTreeMap::new();
    for t in tests {
        for a in &t.assertions {
            let AssertionKind::Throws { exception } = &a.kind else { continue };
            let Some(method) = call_of(&t.statements[a.var.0 as usize].kind) else { continue };
            let key = (method.clone(), exception.clone());
            let is_declared = declared.get(&method).is_some_and(|d| d.contains(exception));
            let (message, direct) = ctx.exception_details.get(&key).cloned().unwrap_or((None, false));
            seen.entry(key).or_insert(ExceptionSeen {
                method,
                exception: exception.clone(),
                message,
                declared: is_declared,
                direct,
            });
        }
    }
    seen.into_values().collect()
}

/// `name(descriptor)` of the method or constructor a statement calls.
pub(crate) fn call_of(kind: &testcase::StatementKind) -> Option<String> {
    match kind {
        testcase::StatementKind::Constructor { method, .. }
        | testcase::StatementKind::StaticCall { method, .. }
        | testcase::StatementKind::Call { method, .. } => {
            Some(format!("{}{}", method.name, method.descriptor.to_descriptor()))
        }
        _ => None,
    }
}

/// `name descriptor` → exception classes (binary names) in its `throws` clause.
fn declared_exceptions(ctx: &ClassRun) -> BTreeMap<String, Vec<BinaryName>> {
    let Ok(cf) = ctx.cp.load(ctx.class.as_str()) else { return BTreeMap::new() };
    let declared = |m| cf.declared_exceptions(m).iter().map(InternalName::to_binary).collect();
    cf.methods.iter().map(|m| (format!("{}{}", cf.member_name(m), cf.member_descriptor(m)), declared(m))).collect()
}
