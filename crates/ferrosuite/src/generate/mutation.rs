//! Mutation-based filtering of the assertions of one class's tests: the
//! class is instrumented with its mutant schema into
//! `.ferrosuite/<class>/mutants`, workers are started on it, and each test
//! runs once per mutant in a method it enters ([`oracle::mutation`]).

use std::collections::BTreeSet;

use analysis::goals::GoalKind;
use exec::ExecutionResult;
use jvm::pool::{Pool, WorkerConfig};
use oracle::assertions::Probe;
use oracle::mutation::{Candidate, filter_assertions};
use testcase::TestCase;

use super::class_run::ClassContext;
use super::report::MutantCount;

/// Filters the assertions of `tests`; `observed` and `runs` are the
/// observed forms and one original run of each.
///
/// # Errors
/// Instrumentation, worker or execution failures (the caller keeps the
/// unfiltered assertions then).
pub fn filter(
    ctx: &ClassContext,
    tests: &mut [TestCase],
    observed: &[(TestCase, Vec<Probe>)],
    runs: &[ExecutionResult],
) -> anyhow::Result<MutantCount> {
    let bytes = ctx.cp.find_bytes(&ctx.class)?.bytes;
    let mutated = instrument::Instrumenter::default().instrument_mutants(&bytes)?;
    let mut count = MutantCount { total: mutated.mutants.len(), ..MutantCount::default() };
    if mutated.mutants.is_empty() {
        return Ok(count);
    }
    let dir = ctx.work.join("mutants");
    let _ = std::fs::remove_dir_all(&dir);
    let file = dir.join(format!("{}.class", mutated.class));
    std::fs::create_dir_all(file.parent().expect("class file has a parent"))?;
    std::fs::write(&file, &mutated.bytes)?;
    instrument::tracer::write_runtime(&dir)?;
    let worker =
        WorkerConfig { class_path: format!("{}:{}", dir.display(), ctx.user_class_path), ..ctx.worker.clone() };
    let mut pool = Pool::new(worker, ctx.exec.clone(), ctx.jobs)?;
    let reached: Vec<Vec<u32>> = runs.iter().map(|r| reached_mutants(ctx, r, &mutated.mutants)).collect();
    let mut candidates: Vec<Candidate<'_>> = tests
        .iter_mut()
        .zip(observed)
        .zip(&reached)
        .map(|((test, (obs, probes)), mutants)| Candidate { test, observed: obs, probes, mutants })
        .collect();
    let stats = filter_assertions(&mut candidates, &mut |t, m| pool.execute_with_mutants(t, m))?;
    count.reached = stats.reached;
    count.killed = stats.killed;
    count.assertions_removed = stats.removed;
    Ok(count)
}

/// The mutants in methods that the run entered.
fn reached_mutants(ctx: &ClassContext, run: &ExecutionResult, mutants: &[instrument::Mutant]) -> Vec<u32> {
    let entered: BTreeSet<u16> = ctx
        .map
        .covered(&run.trace)
        .into_iter()
        .map(|g| ctx.goals.goal(g))
        .filter(|g| matches!(g.kind, GoalKind::Method))
        .map(|g| g.method_index)
        .collect();
    mutants.iter().filter(|m| entered.contains(&m.method_index)).map(|m| m.id).collect()
}
