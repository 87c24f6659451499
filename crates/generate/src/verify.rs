//! Stage 8: emit the JUnit class, compile it and run it in fresh JVMs, in
//! the emitted order, reversed, in seeded random orders, each test alone and
//! on a second JDK ([`crate::rounds`]); tests that do not compile, fail in
//! any of these runs or time out lose their assertions or are removed, and
//! the class is emitted again, until it compiles and passes or verification's
//! deadline is reached.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use javarun::TestRun;
use model::names::{BinaryName, InternalName};
use testcase::TestCase;
use testcase::assertion::AssertionKind;

use crate::class_run::ClassRun;
use crate::report::{ClassReport, ExceptionSeen};
use crate::rounds::{
    FAILS_UNDER_JUNIT, KILLED_AT_DEADLINE, NOT_COMPILED_IN_TIME, NOT_VERIFIED_IN_TIME, Pass, PassOutcome, Round,
    TIMES_OUT,
};
use crate::{GenerateConfig, GenerateError};

/// Passes of compile, run and remove at most.
const MAX_PASSES: usize = 5;
/// Time limit per JUnit test method, in verification and in the emitted
/// tests' annotations (so a test that hangs on the user's machine fails
/// instead of stopping the build).
const JUNIT_TEST_TIMEOUT: Duration = Duration::from_secs(10);
/// Verification rounds (JVMs) run at once at most.
const MAX_PARALLEL_ROUNDS: usize = 4;

/// A test of the suite being verified.
struct Candidate {
    test: TestCase,
    /// How long it ran in the emitted order in the last pass; `None` if it
    /// did not run to its end there.
    duration: Option<Duration>,
    /// Whether its values are declared with their erased types ([`erase_types`]).
    erased: bool,
}

/// The final suite of a class.
#[derive(Debug, Clone, Default)]
pub struct VerifiedSuite {
    /// Its tests, in the emitted order.
    pub tests: Vec<TestCase>,
    /// How long each test ran under JUnit in the emitted order (`None`
    /// when no run of it ended: only without a deadline, or when it was
    /// never run at all).
    pub durations: Vec<Option<Duration>>,
}

/// Emits the suite, compiles it and runs it, removing what fails, and
/// writes the final file. Returns the final suite.
///
/// # Errors
/// When the tests cannot be written, or javac/JUnit cannot run at all.
pub fn emit_and_verify(
    config: &GenerateConfig,
    ctx: &ClassRun,
    tests: Vec<TestCase>,
    report: &mut ClassReport,
) -> Result<VerifiedSuite, GenerateError> {
    let cut = &ctx.class;
    let options = suite_options(config, ctx, &tests);
    // Rounds are compiled from the working folder; only the final suite goes to the output folder.
    let source = ctx.work.join("src").join(options.source_path(cut));
    let candidates: Vec<Candidate> =
        tests.into_iter().map(|test| Candidate { test, duration: None, erased: false }).collect();
    let (candidates, skipped) = passes(config, ctx, &options, &source, candidates, report)?;
    let (tests, durations): (Vec<TestCase>, Vec<Option<Duration>>) =
        candidates.into_iter().map(|c| (c.test, c.duration)).unzip();
    let file = config.out.join(options.source_path(cut));
    write(&file, &junit::emit_suite(cut, &tests, &options))?;
    report.count_suite(&tests, &ctx.cp);
    report.test_file = file.strip_prefix(&config.out).ok().map(|p| p.display().to_string());
    report.exceptions = exceptions_seen(ctx, &tests);
    report.verification_rounds_skipped = skipped.into_iter().map(Round::name).collect();
    Ok(VerifiedSuite { tests, durations })
}

/// How the suite of `tests` of the class of `ctx` is written: the JUnit
/// version, a time limit per test, the casts the tests need, the package.
pub(crate) fn suite_options(config: &GenerateConfig, ctx: &ClassRun, tests: &[TestCase]) -> junit::SuiteOptions {
    let cut = &ctx.class;
    let options = junit::SuiteOptions {
        junit: config.junit,
        timeout_ms: Some(JUNIT_TEST_TIMEOUT.as_millis() as u64),
        casts: crate::casts::cast_facts(&ctx.cp, tests),
        static_fields: crate::static_state::reassigned_statics(&ctx.cp, cut),
        ..junit::SuiteOptions::for_class(cut)
    };
    if ctx.sealed { options.in_subpackage(cut) } else { options }
}

/// The passes of verification: emit `candidates` to `source`, compile and
/// run them, remove what fails, until the suite passes, the class's end or
/// [`MAX_PASSES`]. Returns the tests left and the rounds the last pass
/// skipped. A suite no compilation vouches for loses every test
/// ([`NOT_COMPILED_IN_TIME`]).
fn passes(
    config: &GenerateConfig,
    ctx: &ClassRun,
    options: &junit::SuiteOptions,
    source: &Path,
    mut candidates: Vec<Candidate>,
    report: &mut ClassReport,
) -> Result<(Vec<Candidate>, Vec<Round>), GenerateError> {
    let cut = &ctx.class;
    let mut skipped = Round::plan(second_jdk(config, ctx).is_some());
    // Whether the suite compiles: it did, and only tests or assertions were removed since.
    let mut compiles = false;
    for pass in 0..MAX_PASSES {
        let tests: Vec<TestCase> = candidates.iter().map(|c| c.test.clone()).collect();
        let suite = junit::emit_suite_with_lines(cut, &tests, options);
        write(source, &suite.source)?;
        // Kept for diagnosis: what each pass emitted, before removals.
        let _ = std::fs::write(ctx.work.join(format!("round-{pass}.java")), &suite.source);
        let failing = match check(config, ctx, source, &suite, &options.test_class(cut), pass)? {
            Checked::OutOfTime => break,
            Checked::Broken(broken) => {
                // javac names the errors of one phase at a time: the rest may still not compile
                compiles = false;
                let broken = erase_first(&mut candidates, broken);
                if broken.is_empty() {
                    continue;
                }
                broken
            }
            Checked::Ran(outcome) => {
                compiles = true;
                skipped = outcome.skipped.clone();
                unvouched(&mut candidates, outcome)
            }
        };
        if failing.is_empty() {
            break;
        }
        // A test stripped of its assertions must pass in a next pass; without one, failing tests go whole.
        let last = pass + 1 == MAX_PASSES || ctx.deadlines.coverage.is_some_and(|d| Instant::now() >= d);
        candidates = remove_failures(candidates, &failing, !last, report);
        // The changed suite has not run yet; the next pass runs it in the emitted order at least.
        skipped = Round::plan(second_jdk(config, ctx).is_some());
        if last {
            break;
        }
    }
    if !compiles {
        let all = (0..candidates.len()).map(|i| (i, NOT_COMPILED_IN_TIME)).collect();
        candidates = remove_failures(candidates, &all, false, report);
    }
    Ok((candidates, skipped))
}

/// Writes `text` to `file`, creating its folder.
pub(crate) fn write(file: &Path, text: &str) -> Result<(), GenerateError> {
    let dir = file.parent().expect("a source path has a folder");
    std::fs::create_dir_all(dir).map_err(GenerateError::io("create", dir))?;
    std::fs::write(file, text).map_err(GenerateError::io("write", file))
}

/// The failing tests of a pass, by index, with their causes, and the tests
/// that did not run to their end in the emitted order in this pass
/// ([`NOT_VERIFIED_IN_TIME`]); records how long each ran in that order.
fn unvouched(candidates: &mut [Candidate], outcome: PassOutcome) -> BTreeMap<usize, &'static str> {
    let mut failing = outcome.failing;
    for (i, (c, ran)) in candidates.iter_mut().zip(outcome.in_order).enumerate() {
        c.duration = ran;
        if c.duration.is_none() {
            failing.entry(i).or_insert(NOT_VERIFIED_IN_TIME);
        }
    }
    failing
}

/// What checking one emitted suite found.
enum Checked {
    /// It does not compile: the tests (by index) at the lines javac names.
    Broken(BTreeMap<usize, &'static str>),
    /// It compiled and ran ([`Pass::run`]).
    Ran(PassOutcome),
    /// javac did not finish by the class's end: nothing ran.
    OutOfTime,
}

/// Compiles the suite and runs the rounds of a verification pass on it.
fn check(
    config: &GenerateConfig,
    ctx: &ClassRun,
    file: &Path,
    suite: &junit::EmittedSuite,
    test_class: &BinaryName,
    pass: usize,
) -> Result<Checked, GenerateError> {
    let classes = ctx.work.join("test-classes");
    let _ = std::fs::remove_dir_all(&classes);
    let compile_cp = format!("{}:{}", config.class_path, config.junit_jars.compile_class_path());
    let release = Some(model::classfile::javac_release(ctx.major));
    let started = Instant::now();
    // Compiling may go on until the class's end, like the run in the emitted order that vouches for the tests.
    let deadline = ctx.deadlines.coverage;
    let compiled = match javarun::compile_tests_until(
        &config.jdk,
        &[file.to_path_buf()],
        &compile_cp,
        &classes,
        release,
        deadline,
    ) {
        Err(javarun::Error::JavacStopped) => return Ok(Checked::OutOfTime),
        compiled => compiled?,
    };
    tracing::debug!(seconds = started.elapsed().as_secs_f64(), "verification: javac");
    let names: Vec<String> = suite.tests.iter().map(|t| t.name.clone()).collect();
    if let Err(errors) = compiled {
        let text: Vec<String> = errors.iter().map(|e| format!("{}: {}", e.line, e.message)).collect();
        tracing::debug!(
            pass,
            errors = text.len(),
            first = text.first().map(String::as_str),
            "verification: javac rejected the suite"
        );
        let _ = std::fs::write(ctx.work.join(format!("compile-errors-{pass}.txt")), text.join("\n"));
        let lines: Vec<u32> = errors.iter().map(|e| e.line).collect();
        let broken: BTreeMap<usize, &str> = suite
            .tests_at_lines(&lines)
            .into_iter()
            .filter_map(|n| names.iter().position(|m| m == n))
            .map(|i| (i, FAILS_UNDER_JUNIT))
            .collect();
        if broken.is_empty() {
            return Err(GenerateError::DoesNotCompile { first_error: errors.first().map(|e| e.message.clone()) });
        }
        return Ok(Checked::Broken(broken));
    }
    // The suite runs confined like the workers: it may write only in its JVM's scratch folder.
    let confiner = javarun::Confiner { launcher: config.worker_exe.clone() };
    let first = TestRun {
        jdk: &config.jdk,
        test_classes_dir: &classes,
        class_path: &config.class_path,
        test_class: test_class.as_str(),
        junit: &config.junit_jars,
        jacoco: None,
        timeout: JUNIT_TEST_TIMEOUT,
        confiner: Some(&confiner),
        deadline: ctx.deadlines.verify,
        isolated: false,
        enable_assertions: false,
        extra: None,
    };
    let seed = config.seed ^ crate::class_run::fnv(ctx.class.as_str()) ^ ((pass as u64) << 32);
    let parallel = config.jobs.clamp(1, MAX_PARALLEL_ROUNDS);
    let second = second_jdk(config, ctx).map(|jdk| TestRun { jdk, ..first });
    let verification = Pass { first, in_order_deadline: ctx.deadlines.coverage, second, parallel, seed };
    Ok(Checked::Ran(verification.run(&names)?))
}

/// The second JDK of verification when it can run the class under test
/// (a JDK 17 cannot run a Java 21 class file, so a run on JDK 25 of one has
/// no second JDK among Debian's JDK 17 and a JDK 25).
fn second_jdk<'c>(config: &'c GenerateConfig, ctx: &ClassRun) -> Option<&'c javarun::Jdk> {
    let needed = model::classfile::javac_release(ctx.major);
    config.second_jdk.as_ref().filter(|jdk| jdk.feature_version().is_some_and(|v| v >= needed))
}

/// Tests that failed on an assertion lose their assertions but those on
/// the exception they end with, whose message is no longer asserted
/// (counted by cause), when `strip` (a next
/// pass will run them so); a test that has none left to lose, or timed
/// out, or was not run or compiled in time, or any failing test without
/// `strip`, is removed (counted by cause, with its assertions).
fn remove_failures(
    candidates: Vec<Candidate>,
    failing: &BTreeMap<usize, &'static str>,
    strip: bool,
    report: &mut ClassReport,
) -> Vec<Candidate> {
    let mut out = Vec::with_capacity(candidates.len());
    for (i, mut c) in candidates.into_iter().enumerate() {
        let Some(&cause) = failing.get(&i) else {
            out.push(c);
            continue;
        };
        let is_throws = |a: &testcase::assertion::Assertion| matches!(a.kind, AssertionKind::Throws { .. });
        let with_message =
            |a: &testcase::assertion::Assertion| matches!(a.kind, AssertionKind::Throws { message: Some(_), .. });
        let strippable = c.test.assertions.iter().filter(|a| !is_throws(a) || with_message(a)).count();
        let assertion_may_fail =
            ![TIMES_OUT, KILLED_AT_DEADLINE, NOT_VERIFIED_IN_TIME, NOT_COMPILED_IN_TIME].contains(&cause);
        if strip && strippable > 0 && assertion_may_fail {
            report.count_removed_assertions(cause, strippable);
            c.test.assertions.retain(is_throws);
            for a in &mut c.test.assertions {
                if let AssertionKind::Throws { message, .. } = &mut a.kind {
                    *message = None;
                }
            }
            out.push(c);
        } else {
            report.count_removed(cause, 1);
            report.count_removed_assertions(cause, c.test.assertions.len());
        }
    }
    out
}

/// Gives the tests javac rejected a second chance with erased types
/// ([`erase_types`]); returns those rejected although already erased.
fn erase_first(candidates: &mut [Candidate], broken: BTreeMap<usize, &'static str>) -> BTreeMap<usize, &'static str> {
    let mut left = BTreeMap::new();
    for (i, cause) in broken {
        match candidates.get_mut(i) {
            Some(c) if !c.erased => {
                erase_types(&mut c.test);
                c.erased = true;
            }
            _ => {
                left.insert(i, cause);
            }
        }
    }
    left
}

/// Declares every value of `test` with its erased type: raw types, and a
/// cast on every argument of another type. javac then takes what the
/// workers ran although a type argument the search chose does not fit
/// (`Pair<Object, Object>` where a `Pair<TokenSource, CharStream>` is
/// expected) or a `null` argument in a parameterized call is ambiguous, at
/// the cost of unchecked warnings.
fn erase_types(test: &mut TestCase) {
    for statement in &mut test.statements {
        statement.ty =
            statement.ty.erasure().map_or(model::signature::JavaType::Void, model::signature::JavaType::from);
    }
}

/// Exceptions the final tests expect, per method of the class under test.
fn exceptions_seen(ctx: &ClassRun, tests: &[TestCase]) -> Vec<ExceptionSeen> {
    let declared = declared_exceptions(ctx);
    let mut seen: BTreeMap<(String, BinaryName), ExceptionSeen> = BTreeMap::new();
    for t in tests {
        for a in &t.assertions {
            let AssertionKind::Throws { exception, .. } = &a.kind else { continue };
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
    kind.called_method().map(|m| format!("{}{}", m.name, m.descriptor.to_descriptor()))
}

/// `name descriptor` → exception classes (binary names) in its `throws` clause.
fn declared_exceptions(ctx: &ClassRun) -> BTreeMap<String, Vec<BinaryName>> {
    let Ok(cf) = ctx.cp.load(ctx.class.as_str()) else { return BTreeMap::new() };
    let declared = |m| cf.declared_exceptions(m).iter().map(InternalName::to_binary).collect();
    cf.methods.iter().map(|m| (format!("{}{}", cf.member_name(m), cf.member_descriptor(m)), declared(m))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use testcase::{MethodRef, TestCaseBuilder};

    /// `ArrayList<String> list = new ArrayList<String>(); list.add(null);`
    fn parameterized_test() -> TestCase {
        let mut t = TestCaseBuilder::new();
        let list = t.construct(MethodRef::parse("java.util.ArrayList", "<init>", "()V").unwrap(), &[]);
        t.refine(list, model::signature::parse_field_signature("Ljava/util/ArrayList<Ljava/lang/String;>;").unwrap());
        let null = t.null(model::descriptor::FieldType::parse("Ljava/lang/Object;").unwrap());
        t.call(list, MethodRef::parse("java.util.ArrayList", "add", "(Ljava/lang/Object;)Z").unwrap(), &[null]);
        t.build()
    }

    #[test]
    fn a_test_javac_rejects_is_first_erased_then_removed() {
        let mut candidates = vec![Candidate { test: parameterized_test(), duration: None, erased: false }];
        let cut = model::names::BinaryName::new("java.util.ArrayList");
        let options = junit::SuiteOptions::for_class(&cut);
        let before = junit::emit_suite(&cut, &[candidates[0].test.clone()], &options);
        assert!(before.contains("ArrayList<String> arrayList0 = new ArrayList<String>();"), "{before}");
        let broken = BTreeMap::from([(0, FAILS_UNDER_JUNIT)]);
        assert!(erase_first(&mut candidates, broken.clone()).is_empty(), "a second chance first");
        assert!(candidates[0].erased);
        let after = junit::emit_suite(&cut, &[candidates[0].test.clone()], &options);
        assert!(after.contains("ArrayList arrayList0 = new ArrayList();"), "{after}");
        assert!(after.contains("arrayList0.add((Object) null);"), "{after}");
        assert_eq!(erase_first(&mut candidates, broken.clone()), broken, "no third");
    }
}
