//! After the search: minimise the archived tests, add assertions, emit the
//! JUnit class, compile it and run it twice (in order and reversed); tests
//! or assertions that do not compile, fail or differ between runs are
//! removed and the class is emitted again, until it compiles and passes.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use anyhow::Context;
use exec::Executor;
use oracle::assertions::{Inspectors, assertions_from, with_inspectors};
use oracle::minimise::{Keep, minimise};
use search::Archive;
use testcase::TestCase;
use testcase::assertion::AssertionKind;

use super::class_run::{ClassContext, GenerateConfig, test_dir};
use super::report::{ClassReport, ExceptionSeen};
use javarun::{self, TestVerdict};

/// Rounds of remove-and-recompile at most.
const MAX_ROUNDS: usize = 4;
/// Time limit per JUnit test method.
const JUNIT_TEST_TIMEOUT: Duration = Duration::from_secs(10);

/// Exceptions of ferrosuite's own sandbox: a test that ends in one would
/// really exit the JVM (or loop forever) under JUnit, so it is not emitted.
const SANDBOX_EXCEPTIONS: [&str; 2] = ["ferrosuite.runtime.Sandbox$ExitRequested", "ferrosuite.runtime.Sandbox$TimeUp"];

/// Minimised archive tests with assertions, without duplicates; tests that
/// end in the sandbox (`System.exit`, time limit) are dropped and counted
/// in the report.
///
/// # Errors
/// Executor failures.
pub fn postprocess(
    ctx: &mut ClassContext,
    archive: &Archive,
    report: &mut ClassReport,
) -> anyhow::Result<Vec<TestCase>> {
    let mut tests: Vec<TestCase> = Vec::new();
    let mut exiting = 0;
    for (test, goals, exceptions) in archive.tests_with_goals() {
        if exceptions.iter().any(|e| SANDBOX_EXCEPTIONS.contains(&e.exception.as_str())) && goals.is_empty() {
            exiting += 1;
            continue;
        }
        let keep = Keep { goals, exception: exceptions.first().map(|e| e.exception.clone()) };
        let small = minimise(&test, &keep, &ctx.map, &mut ctx.pool)?;
        if !tests.contains(&small) {
            tests.push(small);
        }
    }
    add_assertions(ctx, &mut tests, report)?;
    let before = tests.len();
    tests.retain(|t| !t.assertions.iter().any(|a| matches!(&a.kind, AssertionKind::Throws { exception } if SANDBOX_EXCEPTIONS.contains(&exception.as_str()))));
    exiting += before - tests.len();
    if exiting > 0 {
        report.removed_tests += exiting;
        report.message = Some(format!("{exiting} tests not emitted: they call System.exit/Runtime.halt or never end"));
    }
    Ok(tests)
}

/// Observes every test twice with inspectors appended, keeps the
/// assertions both runs agree on, then those that kill a mutant.
fn add_assertions(ctx: &mut ClassContext, tests: &mut [TestCase], report: &mut ClassReport) -> anyhow::Result<()> {
    let mut inspectors = Inspectors::new(&ctx.cp);
    let observed: Vec<_> = tests.iter().map(|t| with_inspectors(t, &ctx.class, &mut inspectors)).collect();
    let runs: Vec<TestCase> = observed.iter().map(|(t, _)| t.clone()).collect();
    let first = ctx.pool.execute(&runs)?;
    let second = ctx.pool.execute(&runs)?;
    for (test, result) in tests.iter().zip(&first) {
        record_exception(ctx, test, result);
    }
    for (i, test) in tests.iter_mut().enumerate() {
        let results = [first[i].clone(), second[i].clone()];
        test.assertions = assertions_from(test, &ctx.class, &observed[i].1, &results);
    }
    match super::mutation::filter(ctx, tests, &observed, &first) {
        Ok(count) => report.mutants = count,
        Err(e) => tracing::warn!("mutation analysis skipped for {}: {e:#}", ctx.class),
    }
    Ok(())
}

/// Remembers the message and origin of the exception a test ends with.
fn record_exception(ctx: &mut ClassContext, test: &TestCase, result: &exec::ExecutionResult) {
    let Some(i) = result.statements.iter().position(|s| matches!(s, exec::StatementOutcome::Threw(_))) else { return };
    let (Some(exec::StatementOutcome::Threw(e)), Some(method)) =
        (result.statements.get(i), test.statements.get(i).and_then(|s| call_of(&s.kind)))
    else {
        return;
    };
    ctx.exception_details.entry((method, e.class.clone())).or_insert((e.message.clone(), e.direct));
}

/// Emits the suite, compiles and runs it, removing what fails, and writes
/// the final file. Returns the tests of the final suite.
///
/// # Errors
/// When the tests cannot be written, or javac/JUnit cannot run at all.
pub fn emit_and_verify(
    config: &GenerateConfig,
    ctx: &ClassContext,
    mut tests: Vec<TestCase>,
    report: &mut ClassReport,
) -> anyhow::Result<Vec<TestCase>> {
    let simple = ctx.class.rsplit('.').next().unwrap_or(&ctx.class).replace('$', "_");
    let class_name = format!("{simple}_FerroTest");
    let options = junit::SuiteOptions { junit: config.junit, class_name: class_name.clone() };
    let dir = test_dir(&config.out, &ctx.class);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let file = dir.join(format!("{class_name}.java"));
    let cut = model::names::BinaryName::new(&ctx.class);
    for round in 0..MAX_ROUNDS {
        let source = junit::emit_suite(&cut, &tests, &options);
        std::fs::write(&file, &source).with_context(|| format!("cannot write {}", file.display()))?;
        // Kept for diagnosis: what each round emitted, before removals.
        let _ = std::fs::write(ctx.work.join(format!("round-{round}.java")), &source);
        let names = junit::test_names(&tests);
        let failing = failing_tests(config, ctx, &file, &source, &class_name, &names)?;
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

/// Names of the tests that do not compile, or fail in either order.
fn failing_tests(
    config: &GenerateConfig,
    ctx: &ClassContext,
    file: &std::path::Path,
    source: &str,
    class_name: &str,
    names: &[String],
) -> anyhow::Result<BTreeSet<String>> {
    let classes = ctx.work.join("test-classes");
    let _ = std::fs::remove_dir_all(&classes);
    let compile_cp = format!("{}:{}", config.class_path, config.junit_jars.compile_class_path());
    let release = Some(u32::from(ctx.major.saturating_sub(44)).max(8));
    let compiled = javarun::compile_tests(&config.jdk, &[file.to_path_buf()], &compile_cp, &classes, release)?;
    if let Err(errors) = compiled {
        let text: Vec<String> = errors.iter().map(|e| format!("{}: {}", e.line, e.message)).collect();
        let _ = std::fs::write(ctx.work.join("compile-errors.txt"), text.join("\n"));
        let lines: Vec<u32> = errors.iter().map(|e| e.line).collect();
        let broken = tests_at_lines(source, &lines);
        anyhow::ensure!(
            !broken.is_empty(),
            "the emitted tests do not compile: {:?}",
            errors.first().map(|e| &e.message)
        );
        return Ok(broken);
    }
    let package = ctx.class.rsplit_once('.').map_or(String::new(), |(p, _)| format!("{p}."));
    let fqn = format!("{package}{class_name}");
    let run = |order: &[String]| -> Result<Vec<TestVerdict>, javarun::Error> {
        javarun::run_tests(
            &config.jdk,
            &classes,
            &config.class_path,
            &fqn,
            order,
            &config.junit_jars,
            None,
            JUNIT_TEST_TIMEOUT,
        )
    };
    let reversed: Vec<String> = names.iter().rev().cloned().collect();
    let mut failing = BTreeSet::new();
    for verdict in run(names)?.into_iter().chain(run(&reversed)?) {
        if !verdict.passed {
            failing.insert(verdict.name);
        }
    }
    Ok(failing)
}

/// The test methods that contain the given source lines.
fn tests_at_lines(source: &str, lines: &[u32]) -> BTreeSet<String> {
    let mut starts: Vec<(u32, String)> = Vec::new();
    for (i, l) in source.lines().enumerate() {
        if let Some(rest) = l.trim_start().strip_prefix("public void ") {
            let name = rest.split('(').next().unwrap_or("").to_string();
            starts.push((i as u32 + 1, name));
        }
    }
    lines.iter().filter_map(|line| starts.iter().rev().find(|(s, _)| s <= line).map(|(_, n)| n.clone())).collect()
}

/// Tests whose assertions failed lose their assertions (counted); a test
/// that already had none is removed (counted).
fn remove_failures(
    tests: Vec<TestCase>,
    names: &[String],
    failing: &BTreeSet<String>,
    report: &mut ClassReport,
) -> Vec<TestCase> {
    let mut out = Vec::with_capacity(tests.len());
    for (mut t, name) in tests.into_iter().zip(names) {
        if !failing.contains(name) {
            out.push(t);
        } else if t.assertions.iter().any(|a| !matches!(a.kind, testcase::assertion::AssertionKind::Throws { .. })) {
            report.removed_assertions += t.assertions.len();
            t.assertions.retain(|a| matches!(a.kind, testcase::assertion::AssertionKind::Throws { .. }));
            out.push(t);
        } else {
            report.removed_tests += 1;
            report.removed_assertions += t.assertions.len();
        }
    }
    out
}

/// Exceptions the final tests expect, per method of the class under test.
fn exceptions_seen(ctx: &ClassContext, tests: &[TestCase]) -> Vec<ExceptionSeen> {
    let declared = declared_exceptions(ctx);
    let mut seen: BTreeMap<(String, String), ExceptionSeen> = BTreeMap::new();
    for t in tests {
        for a in &t.assertions {
            let testcase::assertion::AssertionKind::Throws { exception } = &a.kind else { continue };
            let Some(method) = call_of(&t.statements[a.var.0 as usize].kind) else { continue };
            let key = (method.clone(), exception.as_str().to_string());
            let is_declared = declared.get(&method).is_some_and(|d| d.iter().any(|x| x == exception.as_str()));
            let (message, direct) = ctx.exception_details.get(&key).cloned().unwrap_or((None, false));
            seen.entry(key).or_insert(ExceptionSeen {
                method,
                exception: exception.as_str().to_string(),
                message,
                declared: is_declared,
                direct,
            });
        }
    }
    seen.into_values().collect()
}

fn call_of(kind: &testcase::StatementKind) -> Option<String> {
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
fn declared_exceptions(ctx: &ClassContext) -> BTreeMap<String, Vec<String>> {
    let Ok(cf) = ctx.cp.load(&ctx.class) else { return BTreeMap::new() };
    let mut out = BTreeMap::new();
    for m in &cf.methods {
        let Some(a) = cf.find_attribute(&m.attributes, "Exceptions") else { continue };
        let names = a.info.get(2..).unwrap_or(&[]).chunks(2).filter_map(|c| {
            let idx = u16::from_be_bytes([c[0], *c.get(1)?]);
            cf.constant_pool.class_name(idx).ok().map(|n| n.replace('/', "."))
        });
        out.insert(format!("{}{}", cf.member_name(m), cf.member_descriptor(m)), names.collect());
    }
    out
}
