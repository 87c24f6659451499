//! Stage 9's execution of the final suite in fresh workers, for its
//! coverage, kept within the class's end ([`crate::class_run::Deadlines`]):
//! a worker cannot be stopped in the middle of a test, so tests are only
//! started when their time, predicted from how long they ran under JUnit in
//! verification, fits before the end; the others are left out of the
//! coverage (which is then a lower bound) and counted.

use std::time::{Duration, Instant};

use exec::ExecutionResult;
use testcase::TestCase;

use crate::GenerateError;
use crate::class_run::ClassRun;
use crate::verify::VerifiedSuite;

/// The least per-test time limit of the coverage run: its tests all ended
/// under JUnit, so a longer limit than the search's (100 ms by default)
/// only keeps a busy machine from cutting one short, which would lose
/// every goal it covers.
const MIN_TIMEOUT: Duration = Duration::from_secs(1);

/// The predicted time of a test in a worker: instrumented code is slower
/// than the original that JUnit ran, so twice its JUnit time, plus a
/// worker's turnaround.
fn predicted(junit: Duration) -> Duration {
    2 * junit + Duration::from_millis(20)
}

/// Executes the tests of `suite` for their coverage, in one fresh worker
/// (static initialisers run again, as under JUnit) when there is time to
/// start it and run a test (else in the workers of the search). Returns the results of the tests that ran,
/// and how many did not.
///
/// Without a deadline every test runs. With one, consecutive tests are
/// executed together while their predicted time (the sum spread over the
/// workers, plus the longest) fits before it; a test that does not fit
/// alone is skipped.
///
/// # Errors
/// Worker failures.
pub fn execute(run: &mut ClassRun, suite: &VerifiedSuite) -> Result<(Vec<ExecutionResult>, usize), GenerateError> {
    let Some(end) = run.deadlines.coverage else {
        run.pool.restart_as(1)?;
        let timeout = run.exec.timeout.max(MIN_TIMEOUT);
        let results =
            if suite.tests.is_empty() { vec![] } else { run.pool.execute_with_timeout(&suite.tests, timeout)? };
        return Ok((results, 0));
    };
    let times: Vec<Duration> = suite.durations.iter().map(|d| predicted(d.unwrap_or(run.exec.timeout))).collect();
    // One fresh worker (a suite needs no more) only when a test still fits after its start.
    let restart = run.pool.startup_times().into_iter().max().unwrap_or_default();
    if fitting_prefix(&times, 1, end.saturating_duration_since(Instant::now() + restart)) > 0 {
        run.pool.restart_as(1)?;
    }
    let workers = run.pool.size().max(1) as u32;
    let (mut results, mut skipped, mut next) = (Vec::new(), 0, 0);
    while next < suite.tests.len() {
        let left = end.saturating_duration_since(Instant::now());
        let fitting = fitting_prefix(&times[next..], workers, left);
        if fitting == 0 {
            skipped += 1;
            next += 1;
            continue;
        }
        let chunk: &[TestCase] = &suite.tests[next..next + fitting];
        results.extend(run.pool.execute_with_timeout(chunk, run.exec.timeout.max(MIN_TIMEOUT))?);
        next += fitting;
    }
    Ok((results, skipped))
}

/// How many of `times` (from the first) run within `left` on `workers`
/// workers: their sum spread over the workers plus the longest of them.
fn fitting_prefix(times: &[Duration], workers: u32, left: Duration) -> usize {
    let (mut sum, mut longest) = (Duration::ZERO, Duration::ZERO);
    for (i, &t) in times.iter().enumerate() {
        sum += t;
        longest = longest.max(t);
        if sum / workers + longest > left {
            return i;
        }
    }
    times.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tests_are_taken_while_their_predicted_time_fits() {
        let ms = Duration::from_millis;
        assert_eq!(fitting_prefix(&[ms(10); 100], 2, ms(1000)), 100, "500 + 10 ms fit in a second");
        assert_eq!(fitting_prefix(&[ms(10); 300], 2, ms(1000)), 198, "the 199th makes 995 + 10 ms");
        assert_eq!(fitting_prefix(&[ms(2000), ms(10)], 2, ms(1000)), 0, "a slow test first does not fit alone");
        assert_eq!(fitting_prefix(&[], 2, ms(0)), 0);
        assert_eq!(predicted(ms(100)), ms(220));
    }
}
