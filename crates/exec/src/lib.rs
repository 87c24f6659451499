//! What the search sees of test execution: the [`Executor`] trait and the
//! plain-data results it returns. The JVM-backed implementation lives in
//! the `jvm` crate; the search depends only on this crate, so it can be
//! tested with a fake executor.
//!
//! Modules:
//! - [`coverage`]: [`coverage::GoalMap`] turns a [`Trace`] into covered
//!   goals and branch distances.
//! - [`sandbox`]: the binary names of the errors the Java sandbox throws
//!   ([`sandbox::TIME_UP`], [`sandbox::EXIT_REQUESTED`]).
//!
//! Failures of the class under test are data ([`StatementOutcome::Threw`],
//! [`TestOutcome::Timeout`], [`TestOutcome::Crashed`]), never `Err`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod coverage;
pub mod sandbox;

use std::time::Duration;

pub use instrument::trace::{BranchRecord, Relation};
use model::names::BinaryName;
use serde::{Deserialize, Serialize};
use testcase::TestCase;

/// Summary of a value produced by a statement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ValueSummary {
    /// The statement produces no value (void call, array store, field set).
    Void,
    /// The `null` reference.
    Null,
    /// A `boolean` value.
    Boolean(bool),
    /// byte, short, int and long values.
    Integer(i64),
    /// A char, as a UTF-16 code unit.
    Char(u16),
    /// float and double values.
    Float(f64),
    /// A `java.lang.String`, truncated to [`ExecConfig::max_string`] chars.
    String(String),
    /// Any other object: its runtime class (binary name).
    Object {
        /// The binary name of the object's class (`Class.getName()`).
        class: BinaryName,
    },
}

/// An exception thrown by a statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExceptionInfo {
    /// Binary name of the exception's class.
    pub class: BinaryName,
    /// `Throwable.getMessage()`, at most 2,000 UTF-16 code units; `None` for a
    /// null message.
    pub message: Option<String>,
    /// `true` when the top stack frame is the method the statement called
    /// (thrown directly by the call), `false` when thrown deeper.
    pub direct: bool,
    /// The top of its stack trace, innermost first (at most
    /// [`MAX_FRAMES`]); empty for exceptions the executor itself reports
    /// (a `null` receiver, a failed cast, a sandbox refusal).
    #[serde(default)]
    pub frames: Vec<StackFrame>,
}

/// The most stack frames an [`ExceptionInfo`] keeps.
pub const MAX_FRAMES: usize = 16;

/// One frame of a stack trace (`java.lang.StackTraceElement`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackFrame {
    /// Binary name of the frame's class.
    pub class: String,
    /// The method's name (`<init>` for constructors).
    pub method: String,
    /// The source line, when the class has line numbers.
    pub line: Option<u32>,
}

/// `class.method:line` (`java.lang.String.charAt:1515`), or
/// `class.method` without a line number.
impl std::fmt::Display for StackFrame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.class, self.method)?;
        match self.line {
            Some(l) => write!(f, ":{l}"),
            None => Ok(()),
        }
    }
}

/// What happened to one statement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum StatementOutcome {
    /// The statement ended normally, with this value (or [`ValueSummary::Void`]).
    Normal(ValueSummary),
    /// The statement threw; the test ends here.
    Threw(ExceptionInfo),
    /// Not reached: an earlier statement threw, timed out or crashed.
    NotExecuted,
}

/// How a whole test case ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TestOutcome {
    /// Every statement ran or an exception stopped the test normally.
    Completed,
    /// The per-test time limit was reached (the statement running then is
    /// the last one with an outcome other than `NotExecuted`).
    Timeout,
    /// The worker died or became unusable (crash, fatal OutOfMemoryError);
    /// it was restarted.
    Crashed {
        /// The worker's exit status and the end of its stderr.
        reason: String,
    },
    /// The test case was rejected before execution (validation error).
    Rejected {
        /// What is invalid about the test case.
        reason: String,
    },
}

/// Coverage and distance data of one execution, read from the tracer.
/// Ids are global probe ids (see `instrument::plan`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// Branch probe id and the record of the operands its jump saw.
    pub branches: Vec<(u32, BranchRecord)>,
    /// Switch id and the distinct keys seen (at most 64).
    pub switches: Vec<(u32, Vec<i32>)>,
    /// Line probe id and hit count.
    pub lines: Vec<(u32, u32)>,
    /// Method probe id and hit count.
    pub methods: Vec<(u32, u32)>,
    /// Strings the class under test compared with `String.equals` (at most
    /// 32), for dynamic seeding.
    #[serde(default)]
    pub strings: Vec<String>,
    /// Input-to-state pairs (seen, wanted) of the failed string comparisons
    /// of the class under test (at most 16): replacing `seen` where it
    /// occurs in a test's string by `wanted` would have made the comparison
    /// succeed (Aschermann et al., REDQUEEN, NDSS 2019, section 3.1). A
    /// `wanted` that starts with [`REGEX_PAIR`] is a regular expression
    /// `seen` did not match: a string of its language would.
    #[serde(default)]
    pub string_pairs: Vec<(String, String)>,
    /// Operands of the int and long comparisons the class under test made
    /// (each jump's first execution in the test; at most 32), for dynamic
    /// seeding.
    #[serde(default)]
    pub numbers: Vec<i64>,
    /// Input-to-state pairs of the int and long comparisons that were not
    /// equal (each jump's first execution in the test, comparisons with
    /// zero included; at most 16), in the order of `string_pairs`.
    #[serde(default)]
    pub number_pairs: Vec<(i64, i64)>,
    /// What the test allocated on the worker's thread, as a share of the
    /// worker's largest heap (`-Xmx`; 0.0 where the JVM does not count
    /// allocations): one above [`HUNGRY_HEAP_SHARE`] is memory-hungry.
    #[serde(default)]
    pub heap_share_allocated: f64,
    /// The results of calls into code the concolic replay does not run,
    /// in execution order, when [`ExecConfig::value_log`] is on (then
    /// possibly empty: the test called nothing outside the instrumented code).
    #[serde(default)]
    pub values: Option<ValueLog>,
}

/// What the value-log probes recorded in one execution
/// (`instrument::probes::value_log`): the results of calls from
/// instrumented code into the JDK, for TARDIS's concolic replay.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ValueLog {
    /// The events in execution order, at most [`ExecConfig::value_log`].
    pub events: Vec<ValueEvent>,
    /// Whether events were dropped (the cap was reached, or a probe failed).
    pub truncated: bool,
}

impl ValueLog {
    /// Whether nothing was logged and nothing dropped.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty() && !self.truncated
    }
}

/// One logged call result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValueEvent {
    /// The id of the call site (`instrument::probes::value_log::ValueLogSite::id`).
    pub site: u32,
    /// The value the call returned.
    pub value: LoggedValue,
}

/// A value a call returned, as the value log keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum LoggedValue {
    /// An `int`, `boolean` (0 or 1), `char`, `short` or `byte`.
    Int(i32),
    /// A `long`.
    Long(i64),
    /// A `float`.
    Float(f32),
    /// A `double`.
    Double(f64),
    /// `null`.
    Null,
    /// A `String`: its text, or `None` when it was too long to keep.
    Str(Option<String>),
    /// A box (`java/lang/Integer`, ...) and its primitive value: the value
    /// of an integral box or `Boolean` (0 or 1), the raw bits of a `Float`
    /// or `Double`.
    Boxed {
        /// Internal name of the box class.
        class: String,
        /// The primitive value or its bits.
        bits: i64,
    },
    /// Another object: its class (binary name) and its identity ordinal in
    /// the execution (0, 1, ... by first appearance in the log).
    Object {
        /// The object's run-time class, as `Class.getName()` gives it.
        class: String,
        /// Equal ordinals are the same object.
        identity: u32,
    },
}

/// Output the class under test wrote, truncated to [`ExecConfig::max_output`] bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CapturedOutput {
    /// What the class under test wrote to `System.out`.
    pub stdout: String,
    /// What the class under test wrote to `System.err`.
    pub stderr: String,
    /// Bytes written in all, including what was dropped.
    pub total_bytes: u64,
}

/// The result of executing one test case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExecutionResult {
    /// How the test case ended.
    pub outcome: TestOutcome,
    /// One entry per statement of the test case, in order.
    pub statements: Vec<StatementOutcome>,
    /// What the probes recorded.
    pub trace: Trace,
    /// What the class under test printed.
    pub output: CapturedOutput,
    /// Wall time of the execution in the worker.
    pub duration: Duration,
}

/// The share of the worker's heap above which a test's allocations make it
/// memory-hungry ([`Trace::heap_share_allocated`]): the second environment
/// of the two-environment check has half the heap, so a test that keeps
/// more than half of it alive runs out of memory there, and one that
/// allocated a quarter is within a factor of two of that.
pub const HUNGRY_HEAP_SHARE: f64 = 0.25;

/// How the `wanted` side of a [`Trace::string_pairs`] pair starts when it
/// is a regular expression (the runtime's `Tracer.REGEX_PAIR`), followed by
/// the pattern in Java's syntax.
pub const REGEX_PAIR: &str = "\u{0}regex:";

/// Limits for executions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExecConfig {
    /// Per-test time limit.
    pub timeout: Duration,
    /// Output captured per stream, in bytes.
    pub max_output: usize,
    /// Characters kept of a string value.
    pub max_string: usize,
    /// The mutant to activate (`ferrosuite.runtime.Mutants.active`) for
    /// classes instrumented with their mutant schema; 0 runs the original.
    #[serde(default)]
    pub mutant: u32,
    /// Whether the worker resets the static state of the classes
    /// instrumented with a static reset before the test (see
    /// `instrument::static_reset`); on by default.
    #[serde(default = "on")]
    pub static_reset: bool,
    /// Without [`ExecConfig::static_reset`]: static fields (class binary
    /// name, field name) the worker sets back before each test to the values
    /// they had after a full reset, as an emitted suite restores the static
    /// fields its class under test reassigns (`STATIC_STATE`); the worker's
    /// first test with a new list starts from a full reset. Empty, the
    /// default: each test starts from the state the tests before it left.
    #[serde(default)]
    pub restored_statics: Vec<(String, String)>,
    /// Events the value log keeps per test at most (`Trace::values`);
    /// 0, the default, turns it off.
    #[serde(default)]
    pub value_log: u32,
}

fn on() -> bool {
    true
}

impl Default for ExecConfig {
    fn default() -> Self {
        ExecConfig {
            timeout: Duration::from_secs(3),
            max_output: 64 * 1024,
            max_string: 1000,
            mutant: 0,
            static_reset: true,
            restored_statics: Vec::new(),
            value_log: 0,
        }
    }
}

/// Errors of the executor itself (not of the class under test).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExecError {
    /// No worker could be started (no JDK, bad class path, ...).
    #[error("cannot start a test-execution worker: {0}")]
    WorkerStart(String),
    /// Communication with a worker failed in a way restarting did not fix.
    #[error("test-execution worker failed: {0}")]
    Worker(String),
}

/// Runs test cases and returns one result per test case, in order.
pub trait Executor {
    /// Executes `tests`.
    ///
    /// # Errors
    /// [`ExecError`] only when the executor cannot work at all; failures of
    /// individual tests are in their [`ExecutionResult`].
    fn execute(&mut self, tests: &[TestCase]) -> Result<Vec<ExecutionResult>, ExecError>;

    /// Executes `tests` with the value log on, keeping at most `cap` events
    /// per test ([`Trace::values`]; TARDIS's replay of these tests). The
    /// default runs them without: an executor without value-log probes has
    /// no log to give.
    ///
    /// # Errors
    /// As [`Executor::execute`].
    fn execute_logged(&mut self, tests: &[TestCase], cap: u32) -> Result<Vec<ExecutionResult>, ExecError> {
        let _ = cap;
        self.execute(tests)
    }

    /// The per-test time limit of the next executions
    /// ([`ExecConfig::timeout`]); `None` for an executor without one.
    fn time_limit(&self) -> Option<Duration> {
        None
    }

    /// Sets the per-test time limit of the next executions (the search
    /// adapts it: `search::time_limit`); an executor without one ignores it.
    fn set_time_limit(&mut self, limit: Duration) {
        let _ = limit;
    }
}
