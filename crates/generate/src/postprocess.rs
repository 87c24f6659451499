//! Stage 7: cut the archived tests that end in what an emitted test cannot
//! keep (`endings`), minimise them (dropping duplicates), add
//! regression assertions observed twice, keep those that kill a mutant, and
//! leave out tests that end in ferrosuite's sandbox (an exit, the time
//! limit, a refused effect).

use exec::Executor;
use model::names::BinaryName;
use oracle::assertions::{Inspectors, assertions_from, with_inspectors};
use oracle::minimise::minimise_suite;
use search::Archive;
use testcase::TestCase;
use testcase::assertion::AssertionKind;

use crate::GenerateError;
use crate::class_run::ClassRun;
use crate::endings::{EXITS, REFUSED, VM_ERROR, is_vm_error};
use crate::report::ClassReport;
use crate::technique::Technique;

/// Minimised archive tests with assertions (the techniques' oracles
/// included), without duplicates. Tests that end in one of ferrosuite's
/// sandbox exceptions (`System.exit`, the time limit, a refused effect) are
/// dropped and counted in the report: under JUnit they would really exit
/// the JVM, never end, or write outside their folder, open a socket or
/// start a process.
///
/// # Errors
/// Executor failures.
pub fn postprocess(
    run: &mut ClassRun,
    archive: &Archive,
    techniques: &mut [Box<dyn Technique>],
    report: &mut ClassReport,
) -> Result<Vec<TestCase>, GenerateError> {
    tracing::debug!(goals = archive.archived().count(), "archived");
    let kept = crate::endings::keepable(run, archive.tests_with_goals(), report)?;
    let started = std::time::Instant::now();
    let mut tests = minimise_suite(kept, &run.map, &mut run.pool, run.deadlines.minimise)?;
    tracing::debug!(seconds = started.elapsed().as_secs_f64(), "minimised");
    add_assertions(run, &mut tests, report)?;
    tracing::debug!(seconds = started.elapsed().as_secs_f64(), "assertions added and filtered");
    for technique in techniques.iter_mut() {
        technique.oracle(run, &mut tests);
    }
    tests.retain(|t| match expected_sandbox_exception(t) {
        Some(e) => {
            report.count_removed(sandbox_cause(e), 1);
            false
        }
        None => true,
    });
    let exiting = report.removed_tests_by_cause.get(EXITS).copied().unwrap_or(0);
    if exiting > 0 {
        report.message = Some(format!("{exiting} tests not emitted: they call System.exit/Runtime.halt or never end"));
    }
    let before = tests.len();
    tests.retain(|t| !expects(t, |e| is_vm_error(&run.cp, e)));
    report.count_removed(VM_ERROR, before - tests.len());
    let repeated = junit::repeated_tests(&run.class, &tests, &junit::SuiteOptions::for_class(&run.class));
    for i in repeated.into_iter().rev() {
        tests.remove(i);
    }
    Ok(tests)
}

/// The removal cause of a test that ends in the sandbox exception `exception`.
fn sandbox_cause(exception: &BinaryName) -> &'static str {
    if exception.as_str() == exec::sandbox::REFUSED { REFUSED } else { EXITS }
}

/// The sandbox exception `test` expects, if any.
fn expected_sandbox_exception(test: &TestCase) -> Option<&BinaryName> {
    test.assertions.iter().find_map(|a| match &a.kind {
        AssertionKind::Throws { exception, .. } if exec::sandbox::EXCEPTIONS.contains(&exception.as_str()) => {
            Some(exception)
        }
        _ => None,
    })
}

/// Whether `test` expects an exception that `matches`.
fn expects(test: &TestCase, matches: impl Fn(&BinaryName) -> bool) -> bool {
    test.assertions.iter().any(|a| matches!(&a.kind, AssertionKind::Throws { exception, .. } if matches(exception)))
}

/// Observes every test twice with inspectors appended, keeps the
/// assertions both runs agree on and a run in a second environment agrees
/// on too (removing the tests that end otherwise there), then those that
/// kill a mutant. The first run starts each test from the reset static
/// state, the second from the state the tests before it left, with the
/// static fields the emitted suite restores set back (as JUnit runs them),
/// so a value that depends on static state other tests change is not
/// asserted.
fn add_assertions(
    run: &mut ClassRun,
    tests: &mut Vec<TestCase>,
    report: &mut ClassReport,
) -> Result<(), GenerateError> {
    let mut inspectors = Inspectors::new(&run.cp);
    let mut observed: Vec<_> = tests.iter().map(|t| with_inspectors(t, run.class.as_str(), &mut inspectors)).collect();
    let runs: Vec<TestCase> = observed.iter().map(|(t, _)| t.clone()).collect();
    let mut first = run.pool.execute(&runs)?;
    observe_past_throwing_inspectors(run, tests, &mut observed, &mut first)?;
    let runs: Vec<TestCase> = observed.iter().map(|(t, _)| t.clone()).collect();
    let restored: Vec<(String, String)> = crate::static_state::reassigned_statics(&run.cp, &run.class)
        .into_iter()
        .map(|field| (run.class.as_str().to_owned(), field))
        .collect();
    let second = run.pool.execute_restoring_statics(&runs, &restored)?;
    for (test, result) in tests.iter().zip(&first) {
        record_exception(run, test, result);
    }
    for (i, test) in tests.iter_mut().enumerate() {
        let results = [first[i].clone(), second[i].clone()];
        test.assertions = assertions_from(test, run.class.as_str(), &observed[i].1, &results);
    }
    let mut obs = crate::environments::Observations { observed, runs: first };
    crate::environments::check(run, tests, &mut obs, report);
    let crate::environments::Observations { observed, runs: first } = obs;
    let Some(max_runs) = crate::mutants::affordable_runs(run.deadlines.mutants, report.executions_per_second) else {
        tracing::warn!("mutation analysis skipped for {}: no time left in the budget", run.class);
        return Ok(());
    };
    tracing::debug!(max_runs, "mutant runs");
    match crate::mutants::filter(run, tests, &observed, &first, max_runs) {
        Ok(count) => report.mutants = count,
        Err(e) => tracing::warn!("mutation analysis skipped for {}: {}", run.class, e.chain_text()),
    }
    Ok(())
}

/// Rounds of dropping inspectors that throw and observing again.
const INSPECTOR_ROUNDS: usize = 2;

/// A test ends at its first exception, so an inspector call that throws
/// (a `toString()` of an object in a bad state) hides the inspectors after
/// it: such an inspector is dropped and the test observed again, for
/// [`INSPECTOR_ROUNDS`] rounds at most (`first` then holds the new runs).
fn observe_past_throwing_inspectors(
    run: &mut ClassRun,
    tests: &[TestCase],
    observed: &mut [(TestCase, Vec<oracle::assertions::InspectorCall>)],
    first: &mut [exec::ExecutionResult],
) -> Result<(), GenerateError> {
    for _ in 0..INSPECTOR_ROUNDS {
        let again: Vec<usize> = (0..tests.len())
            .filter(|&i| oracle::assertions::drop_throwing_inspector(&mut observed[i], tests[i].len(), &first[i]))
            .collect();
        if again.is_empty() {
            break;
        }
        let cases: Vec<TestCase> = again.iter().map(|&i| observed[i].0.clone()).collect();
        for (i, result) in again.into_iter().zip(run.pool.execute(&cases)?) {
            first[i] = result;
        }
    }
    Ok(())
}

/// Remembers the message and origin of the exception a test ends with.
fn record_exception(run: &mut ClassRun, test: &TestCase, result: &exec::ExecutionResult) {
    let Some(i) = result.statements.iter().position(|s| matches!(s, exec::StatementOutcome::Threw(_))) else { return };
    let (Some(exec::StatementOutcome::Threw(e)), Some(method)) =
        (result.statements.get(i), test.statements.get(i).and_then(|s| crate::verify::call_of(&s.kind)))
    else {
        return;
    };
    run.exception_details.entry((method, e.class.clone())).or_insert((e.message.clone(), e.direct));
}
