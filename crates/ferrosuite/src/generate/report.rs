//! `report.json`: what `generate` did per class, and the short summary
//! printed on stdout.

use std::collections::BTreeMap;

use serde::Serialize;

/// Goals of one kind: how many there are and how many the emitted tests cover.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct GoalCount {
    pub total: usize,
    pub covered: usize,
}

/// An exception a method of the class under test was seen to throw.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ExceptionSeen {
    /// `name(descriptor)` of the method.
    pub method: String,
    /// Binary name of the exception class.
    pub exception: String,
    pub message: Option<String>,
    /// Whether the method declares it (`throws` clause).
    pub declared: bool,
    /// Whether the method itself threw it (top stack frame) or code it called.
    pub direct: bool,
}

/// Mutation analysis counts (see [`ClassReport::mutants`]).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct MutantCount {
    pub total: usize,
    pub reached: usize,
    pub killed: usize,
    pub assertions_removed: usize,
}

/// The outcome of generating tests for one class.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ClassReport {
    /// Binary name of the class under test.
    pub class: String,
    /// `ok`, `partial` (some tests made, but something failed) or `failed`.
    pub status: String,
    /// What went wrong, in one line, if anything did.
    pub message: Option<String>,
    /// Goals by kind (`branch`, `line`, `method`, `exception`, ...).
    pub goals: BTreeMap<String, GoalCount>,
    pub tests: usize,
    pub assertions: usize,
    /// Tests removed because they failed or were unstable under JUnit.
    pub removed_tests: usize,
    /// Assertions removed because they failed or were unstable.
    pub removed_assertions: usize,
    pub exceptions: Vec<ExceptionSeen>,
    /// Mutation analysis of the assertions: mutants made, reached by some
    /// test, killed by the kept assertions, and assertions removed because
    /// they killed no mutant.
    pub mutants: MutantCount,
    /// Seconds spent: search, post-processing, verification, total.
    pub seconds: BTreeMap<String, f64>,
    pub executions: u64,
    /// Test executions per second of the whole search (all workers).
    pub executions_per_second: f64,
    /// The same divided by the number of worker JVMs.
    pub executions_per_second_per_worker: f64,
    /// The emitted test file, relative to the output folder.
    pub test_file: Option<String>,
    /// Labels of the goals the emitted tests do not cover.
    pub uncovered: Vec<String>,
}

/// The whole `report.json`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Report {
    pub version: String,
    pub seed: u64,
    pub classes: Vec<ClassReport>,
}

impl ClassReport {
    /// One summary line for stdout.
    pub fn summary_line(&self) -> String {
        let pct = |k: &str| {
            self.goals.get(k).filter(|g| g.total > 0).map_or("-".to_string(), |g| {
                format!("{:.1}% ({}/{})", 100.0 * g.covered as f64 / g.total as f64, g.covered, g.total)
            })
        };
        format!(
            "{}: {} — branches {}, lines {}, {} tests, {} assertions, {:.0} executions/s per worker{}",
            self.class,
            self.status,
            pct("branch"),
            pct("line"),
            self.tests,
            self.assertions,
            self.executions_per_second_per_worker,
            self.message.as_ref().map(|m| format!(" ({m})")).unwrap_or_default()
        )
    }
}
