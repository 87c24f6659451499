//! Stage 7b, mutation analysis of the assertions of one class's tests: the
//! class is instrumented with its mutant schema into
//! `<work dir>/<class>/mutants`, workers are started on it, and each test
//! runs once per mutant in a method it enters ([`oracle::mutants`]).

use exec::ExecutionResult;
use jvm::pool::{Pool, WorkerConfig};
use oracle::assertions::InspectorCall;
use oracle::mutants::{Candidate, filter_assertions, reached_mutants};
use testcase::TestCase;

use crate::GenerateError;
use crate::class_run::ClassRun;
use crate::report::MutantCount;

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
) -> Result<MutantCount, GenerateError> {
    let bytes = run.cp.find_bytes(run.class.as_str())?.bytes;
    let schema = instrument::Instrumenter::default().instrument_mutants(&bytes)?;
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
    let worker =
        WorkerConfig { class_path: format!("{}:{}", dir.display(), run.user_class_path), ..run.worker.clone() };
    let mut pool = Pool::new(worker, run.exec.clone(), run.jobs)?;
    let ids = || schema.mutants.iter().map(|m| (m.id, m.method_index));
    let reached: Vec<Vec<u32>> = runs.iter().map(|r| reached_mutants(&run.goals, &run.map, &r.trace, ids())).collect();
    let mut candidates: Vec<Candidate<'_>> = tests
        .iter_mut()
        .zip(observed)
        .zip(&reached)
        .map(|((test, (obs, calls)), mutants)| Candidate { test, observed: obs, inspector_calls: calls, mutants })
        .collect();
    let stats = filter_assertions(&mut candidates, &mut |t, m| pool.execute_with_mutants(t, m))?;
    count.reached = stats.reached;
    count.killed = stats.killed;
    count.assertions_removed = stats.removed;
    Ok(count)
}
