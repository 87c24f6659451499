//! Stage 7b, mutation analysis of the assertions of one class's tests: the
//! class is instrumented with its mutant schema into
//! `<work dir>/<class>/mutants`, workers are started on it, and each test
//! runs once per mutant in a method it enters ([`oracle::mutants`]).

use exec::ExecutionResult;
use jvm::pool::{Pool, WorkerConfig};
use oracle::assertions::InspectorCall;
use oracle::mutants::{Candidate, MAX_RUNS, filter_assertions, reached_mutants};
use testcase::TestCase;

use crate::GenerateError;
use crate::class_run::ClassRun;
use crate::report::MutantCount;

/// Share of the search's execution rate that mutant runs reach: they run
/// the longer observed tests through the mutant schema's helpers in new
/// workers (measured: about 3,000 against 17,000 runs per second on
/// StrTokenizer, 2 cores).
const MUTANT_RATE_SHARE: f64 = 0.1;

/// Test–mutant runs sent at once; the deadline is checked between batches
/// (the rate the number of runs is planned from is an estimate: a mutant
/// that loops costs a whole test time limit).
const CHUNK: usize = 64;

/// Time mutation analysis needs before its first run: the mutant schema is
/// made and a pool of new workers starts (measured: about 1 to 1.5 s on 2 cores).
const MUTANT_SETUP: std::time::Duration = std::time::Duration::from_millis(1500);

/// How many test–mutant runs fit before `deadline`, after
/// [`MUTANT_SETUP`], at [`MUTANT_RATE_SHARE`] of the search's rate
/// (`executions_per_second`, all workers): [`oracle::mutants::MAX_RUNS`]
/// without a deadline or a rate; `None` when not even the set-up fits.
pub fn affordable_runs(deadline: Option<std::time::Instant>, executions_per_second: f64) -> Option<usize> {
    let Some(deadline) = deadline else { return Some(MAX_RUNS) };
    if executions_per_second <= 0.0 {
        return Some(MAX_RUNS);
    }
    let left = deadline.saturating_duration_since(std::time::Instant::now()).checked_sub(MUTANT_SETUP)?;
    let runs = (left.as_secs_f64() * executions_per_second * MUTANT_RATE_SHARE) as usize;
    (runs > 0).then_some(runs.min(MAX_RUNS))
}

/// Filters the assertions of `tests`; `observed` and `runs` are the
/// observed forms and one original run of each.
///
/// # Errors
/// Instrumentation, worker or execution failures (the caller keeps the
/// unfiltered assertions then).
pub fn filter(
    run: &ClassRun,
    tests: &mut [TestCase],
    observed: &[(TestCase, Vec<InspectorCall>)],
    runs: &[ExecutionResult],
    max_runs: usize,
) -> Result<MutantCount, GenerateError> {
    let bytes = run.cp.find_bytes(run.class.as_str())?.bytes;
    let schema = crate::static_state::instrumenter(&run.class).instrument_mutants(&bytes)?;
    let mut count = MutantCount { total: schema.mutants.len(), ..MutantCount::default() };
    if schema.mutants.is_empty() {
        return Ok(count);
    }
    let dir = run.work.join("mutants");
    let _ = std::fs::remove_dir_all(&dir);
    let file = dir.join(schema.class.class_file_path());
    let parent = file.parent().expect("class file has a parent");
    std::fs::create_dir_all(parent).map_err(GenerateError::io("create", parent))?;
    std::fs::write(&file, &schema.bytes).map_err(GenerateError::io("write", &file))?;
    instrument::tracer::write_runtime(&dir).map_err(GenerateError::io("write the runtime classes to", &dir))?;
    // The coverage workers' class path next (the instrumented nested classes
    // first), so that they are reset as in the coverage workers.
    let class_path = format!("{}:{}", dir.display(), run.worker.class_path);
    let worker = WorkerConfig { class_path, ..run.worker.clone() };
    let mut pool = Pool::new(worker, run.exec.clone(), run.jobs)?;
    let ids = || schema.mutants.iter().map(|m| (m.id, m.method_index));
    let reached: Vec<Vec<u32>> = runs.iter().map(|r| reached_mutants(&run.goals, &run.map, &r.trace, ids())).collect();
    let mut candidates: Vec<Candidate<'_>> = tests
        .iter_mut()
        .zip(observed)
        .zip(&reached)
        .map(|((test, (obs, calls)), mutants)| Candidate { test, observed: obs, inspector_calls: calls, mutants })
        .collect();
    let deadline = run.deadlines.mutants;
    let mut runner = |tests: &[TestCase], mutants: &[u32]| {
        let mut results = Vec::with_capacity(tests.len());
        for (t, m) in tests.chunks(CHUNK).zip(mutants.chunks(CHUNK)) {
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                tracing::debug!(run = results.len(), of = tests.len(), "mutant runs stopped at the deadline");
                break;
            }
            results.extend(pool.execute_with_mutants(t, m)?);
        }
        Ok(results)
    };
    let stats = filter_assertions(&mut candidates, max_runs, &mut runner)?;
    count.reached = stats.reached;
    count.killed = stats.killed;
    count.assertions_removed = stats.removed;
    Ok(count)
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    #[test]
    fn mutant_runs_are_capped_by_the_time_left_after_the_set_up() {
        assert_eq!(affordable_runs(None, 20_000.0), Some(MAX_RUNS), "no time budget: no cap");
        assert_eq!(affordable_runs(Some(Instant::now()), 20_000.0), None, "no time left: skipped");
        let ten_seconds_after_set_up = Instant::now() + MUTANT_SETUP + Duration::from_secs(10);
        let runs = affordable_runs(Some(ten_seconds_after_set_up), 10_000.0).unwrap();
        // 10 s at a tenth of 10,000 runs per second, less the moments the test itself took.
        assert!((9_900..=10_000).contains(&runs), "{runs}");
        assert_eq!(affordable_runs(Some(ten_seconds_after_set_up), 1e9), Some(MAX_RUNS));
    }
}
