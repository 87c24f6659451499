//! The orchestrator side: worker processes and the pool that feeds them.
//!
//! A [`Worker`] is one `ferrosuite worker` child process. A result that
//! does not arrive within the test's time limit plus [`GRACE`] means the
//! worker is stuck: it is killed (its whole process group) and the test is
//! reported as timed out. A worker whose pipe closes has crashed: the test
//! is reported as crashed with the end of the worker's stderr. Either way
//! the [`Pool`] starts a fresh worker and goes on; nothing the orchestrator
//! holds is lost.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use exec::{ExecConfig, ExecError, ExecutionResult, Executor, StatementOutcome, TestOutcome, Trace};
use model::classpath::ClassPath;
use testcase::{TestCase, Validator};

use crate::dispatch;
use crate::protocol::{Request, RequestRef, Response, read_frame, write_frame, write_frame_unflushed};

/// Extra time the orchestrator waits beyond the test's limit before it
/// kills the worker (the in-worker watchdog should have ended the test).
pub const GRACE: Duration = Duration::from_secs(2);
/// How long a worker may take to start its JVM.
pub const STARTUP_LIMIT: Duration = Duration::from_secs(60);
/// Lines of a worker's stderr kept for crash reports.
const STDERR_TAIL: usize = 20;

/// How to start workers.
#[derive(Debug, Clone)]
pub struct WorkerConfig {
    /// The `ferrosuite` binary (it has the hidden `worker` command).
    pub exe: PathBuf,
    /// JDK home for the worker's JVM.
    pub java_home: PathBuf,
    /// Class path of the worker's JVM: runtime and instrumented classes first.
    pub class_path: String,
    /// JVM heap limit in MB (`-Xmx`).
    pub heap_mb: u32,
    /// The clock, random and identity-hash seed of the workers.
    pub environment: crate::environment::Environment,
}

/// One worker process.
pub struct Worker {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    responses: Receiver<Response>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Time from spawn to the worker's `Ready`.
    pub startup: Duration,
    seq: u64,
    /// The worker's working folder (its current directory and
    /// `java.io.tmpdir`, the one place it may write); removed when the
    /// worker is dropped.
    work_dir: tempfile::TempDir,
    /// Which mechanisms of the kernel sandbox hold in the worker.
    pub confinement: crate::sandbox::Confinement,
}

/// Why a worker gave no result.
#[derive(Debug)]
enum Failure {
    Timeout,
    Crashed(String),
    /// The worker's JVM was unusable for the test (`Response::Poisoned`):
    /// why, and the result it gave there (the worker still runs).
    Poisoned(String, Box<ExecutionResult>),
}

impl Worker {
    /// Starts a worker and waits until its JVM is ready.
    ///
    /// # Errors
    /// [`ExecError::WorkerStart`] with the worker's message or stderr.
    pub fn spawn(cfg: &WorkerConfig) -> Result<Worker, ExecError> {
        let started = Instant::now();
        let work_dir = tempfile::Builder::new()
            .prefix(exec::sandbox::WORKER_FOLDER_PREFIX)
            .tempdir()
            .map_err(|e| ExecError::WorkerStart(format!("cannot create a working folder for a worker: {e}")))?;
        let mut child = Command::new(&cfg.exe)
            .arg("worker")
            .arg("--java-home")
            .arg(&cfg.java_home)
            .arg("--class-path")
            .arg(absolute_class_path(&cfg.class_path))
            .arg("--heap-mb")
            .arg(cfg.heap_mb.to_string())
            .arg("--environment-seed")
            .arg(cfg.environment.seed.to_string())
            .args(cfg.environment.open_java_lang.then_some("--open-java-lang"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .current_dir(work_dir.path())
            .process_group(0)
            .spawn()
            .map_err(|e| ExecError::WorkerStart(format!("cannot run {}: {e}", cfg.exe.display())))?;
        let stdin = BufWriter::new(child.stdin.take().expect("piped stdin"));
        let stderr_tail = drain_stderr(child.stderr.take().expect("piped stderr"));
        let responses = read_responses(child.stdout.take().expect("piped stdout"));
        let confinement = crate::sandbox::Confinement::default();
        let mut w =
            Worker { child, stdin, responses, stderr_tail, startup: Duration::ZERO, seq: 0, work_dir, confinement };
        match w.responses.recv_timeout(STARTUP_LIMIT) {
            Ok(Response::Ready { confinement, .. }) => {
                w.startup = started.elapsed();
                w.confinement = confinement;
                warn_once_if_incomplete(confinement);
                Ok(w)
            }
            Ok(Response::Fatal { message }) => Err(ExecError::WorkerStart(message)),
            _ => {
                w.kill();
                Err(ExecError::WorkerStart(format!("worker did not start: {}", w.stderr_text())))
            }
        }
    }

    /// The worker's working folder.
    pub fn work_dir(&self) -> &std::path::Path {
        self.work_dir.path()
    }

    /// Queues one test case for this worker (sent at the next [`Self::flush`]).
    fn send(&mut self, test: &TestCase, config: &ExecConfig) -> Option<u64> {
        self.seq += 1;
        let request = RequestRef::Execute { seq: self.seq, test, config };
        write_frame_unflushed(&mut self.stdin, &request).ok().map(|()| self.seq)
    }

    /// Sends the queued requests; `false` when the worker's stdin is closed.
    fn flush(&mut self) -> bool {
        self.stdin.flush().is_ok()
    }

    /// Waits until `deadline` for the result of request `seq`.
    fn receive(&mut self, seq: u64, deadline: Instant) -> Result<ExecutionResult, Failure> {
        loop {
            match self.responses.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(Response::Result { seq: s, result }) if s == seq => return Ok(*result),
                Ok(Response::Poisoned { seq: s, reason, result }) if s == seq => {
                    return Err(Failure::Poisoned(reason, result));
                }
                Ok(_) => continue,
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(Failure::Timeout);
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.crashed()),
            }
        }
    }

    fn crashed(&mut self) -> Failure {
        let status = self.child.wait().map(|s| s.to_string()).unwrap_or_else(|e| e.to_string());
        Failure::Crashed(format!("worker exited ({status}): {}", self.stderr_text()))
    }

    fn stderr_text(&self) -> String {
        let tail = self.stderr_tail.lock().expect("stderr tail");
        tail.iter().cloned().collect::<Vec<_>>().join(" | ")
    }

    /// Kills the worker's process group (its JVM and anything it started).
    pub fn kill(&mut self) {
        let pid = self.child.id() as i32;
        // SAFETY: sending SIGKILL to the process group we created for the child.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = write_frame(&mut self.stdin, &Request::Shutdown);
        self.kill();
    }
}

/// `class_path` with its relative entries made absolute against this
/// process's working directory: a worker runs in a folder of its own.
fn absolute_class_path(class_path: &str) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    let absolute = |e: &str| cwd.join(e).display().to_string();
    class_path.split(':').filter(|e| !e.is_empty()).map(absolute).collect::<Vec<_>>().join(":")
}

/// Says once per process which mechanisms of the kernel sandbox this
/// kernel lacks ([`crate::sandbox`]); generation goes on without them.
fn warn_once_if_incomplete(confinement: crate::sandbox::Confinement) {
    static WARNED: std::sync::Once = std::sync::Once::new();
    if confinement.is_complete() {
        return;
    }
    WARNED.call_once(|| {
        let missing: Vec<&str> = [
            (confinement.files, "file writes outside the worker's folder (Landlock)"),
            (confinement.network, "TCP connections (Landlock ABI 4)"),
            (confinement.processes, "starting programs (seccomp)"),
        ]
        .into_iter()
        .filter(|(held, _)| !held)
        .map(|(_, what)| what)
        .collect();
        eprintln!("warning: this kernel cannot confine the class under test: not refused: {}", missing.join(", "));
    });
}

fn drain_stderr(stderr: std::process::ChildStderr) -> Arc<Mutex<VecDeque<String>>> {
    let tail = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_TAIL)));
    let sink = tail.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let mut t = sink.lock().expect("stderr tail");
            if t.len() == STDERR_TAIL {
                t.pop_front();
            }
            t.push_back(line);
        }
    });
    tail
}

fn read_responses(stdout: std::process::ChildStdout) -> Receiver<Response> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(stdout);
        while let Ok(Some(msg)) = read_frame::<_, Response>(&mut r) {
            if tx.send(msg).is_err() {
                break;
            }
        }
    });
    rx
}

/// A pool of workers implementing [`Executor`]: tests are handed out to
/// the workers in parallel; a worker that times out or crashes is replaced.
/// With [`Pool::with_validation`], test cases that fail
/// [`testcase::Validator`] are rejected without reaching a JVM.
pub struct Pool {
    cfg: WorkerConfig,
    exec: ExecConfig,
    workers: Vec<Option<Worker>>,
    class_path: Option<Arc<ClassPath>>,
    /// Restarts so far (timeouts and crashes).
    pub restarts: usize,
    /// Test cases sent to workers so far.
    pub sent: usize,
    /// Executions so far that ended in a refusal of the sandbox, per kind.
    pub refusals: std::collections::BTreeMap<exec::sandbox::RefusalKind, usize>,
    /// Executions so far that hit their time limit (the test never ended).
    pub timeouts: usize,
    /// How many more poisoned workers the pool replaces
    /// ([`MAX_POISON_REPLACEMENTS`]).
    poison_replacements: usize,
    /// Whether the workers take a batch's tests from one queue rather
    /// than each its fixed share ([`crate::dispatch`], [`Pool::share_one_queue`]).
    shared_queue: bool,
}

/// The most workers a pool replaces because their JVM was poisoned (a
/// class initialiser stopped by the time limit, `protocol::Response::Poisoned`):
/// a cold JDK initialiser poisons a worker once, but an initialiser that
/// never ends within the limit would poison every new one.
const MAX_POISON_REPLACEMENTS: usize = 8;

impl Pool {
    /// Starts `n` workers (at least one).
    ///
    /// # Errors
    /// [`ExecError::WorkerStart`] when a worker cannot start.
    pub fn new(cfg: WorkerConfig, exec: ExecConfig, n: usize) -> Result<Pool, ExecError> {
        let workers = (0..n.max(1)).map(|_| Worker::spawn(&cfg).map(Some)).collect::<Result<_, _>>()?;
        let refusals = Default::default();
        Ok(Pool {
            cfg,
            exec,
            workers,
            class_path: None,
            restarts: 0,
            sent: 0,
            refusals,
            timeouts: 0,
            poison_replacements: MAX_POISON_REPLACEMENTS,
            shared_queue: false,
        })
    }

    /// Makes the workers take each batch's tests from one queue (`true`),
    /// so none idles while another still has tests, or each from its fixed
    /// share (`false`, the default), which a reproducible run needs
    /// ([`crate::dispatch`]).
    pub fn share_one_queue(&mut self, shared: bool) {
        self.shared_queue = shared;
    }

    /// Validates every test case against `class_path` before execution.
    pub fn with_validation(mut self, class_path: Arc<ClassPath>) -> Pool {
        self.class_path = Some(class_path);
        self
    }

    /// The validation error of each test, `None` for valid ones.
    fn verdicts(&self, tests: &[TestCase]) -> Vec<Option<String>> {
        match &self.class_path {
            Some(cp) => {
                let validator = Validator::new(cp);
                tests.iter().map(|t| validator.validate(t).err().map(|e| e.to_string())).collect()
            }
            None => vec![None; tests.len()],
        }
    }

    /// Replaces every worker by a fresh one (fresh JVMs: classes not yet
    /// initialised, no static state left by earlier tests).
    ///
    /// # Errors
    /// [`ExecError::WorkerStart`] when a worker cannot start.
    pub fn restart_all(&mut self) -> Result<(), ExecError> {
        self.restart_as(self.workers.len())
    }

    /// Replaces every worker by a fresh one whose class path is `class_path`.
    ///
    /// # Errors
    /// [`ExecError::WorkerStart`] when a worker cannot start.
    pub fn restart_with_class_path(&mut self, class_path: String) -> Result<(), ExecError> {
        self.cfg.class_path = class_path;
        self.restart_all()
    }

    /// Replaces the workers by `n` fresh ones (at least one), started in
    /// parallel: a pool of one fresh worker runs a final suite in the
    /// order JUnit would, for the price of one JVM start-up.
    ///
    /// # Errors
    /// [`ExecError::WorkerStart`] when a worker cannot start.
    pub fn restart_as(&mut self, n: usize) -> Result<(), ExecError> {
        self.workers.clear();
        let cfg = &self.cfg;
        let started: Vec<Result<Worker, ExecError>> = std::thread::scope(|s| {
            let spawns: Vec<_> = (0..n.max(1)).map(|_| s.spawn(|| Worker::spawn(cfg))).collect();
            spawns.into_iter().map(|h| h.join().expect("worker start-up thread")).collect()
        });
        for w in started {
            self.workers.push(Some(w?));
        }
        Ok(())
    }

    /// Executes `tests` with mutant `mutant` active (see
    /// [`ExecConfig::mutant`]); the pool's own configuration is unchanged.
    ///
    /// # Errors
    /// As [`Executor::execute`].
    pub fn execute_mutant(&mut self, tests: &[TestCase], mutant: u32) -> Result<Vec<ExecutionResult>, ExecError> {
        self.execute_with_mutants(tests, &vec![mutant; tests.len()])
    }

    /// Executes `tests` without the static reset before each
    /// ([`ExecConfig::static_reset`]): each starts from the static state the
    /// tests before it left, as under JUnit; the pool's own configuration
    /// is unchanged.
    ///
    /// # Errors
    /// As [`Executor::execute`].
    pub fn execute_without_static_reset(&mut self, tests: &[TestCase]) -> Result<Vec<ExecutionResult>, ExecError> {
        self.execute_restoring_statics(tests, &[])
    }

    /// Executes `tests` as JUnit runs a suite that restores the static
    /// fields `restored` (class binary name, field name) before each test:
    /// without the static reset, those fields set back to their values
    /// after a full reset ([`ExecConfig::restored_statics`]), the rest of the
    /// static state as the tests before left it; the pool's own
    /// configuration is unchanged.
    ///
    /// # Errors
    /// As [`Executor::execute`].
    pub fn execute_restoring_statics(
        &mut self,
        tests: &[TestCase],
        restored: &[(String, String)],
    ) -> Result<Vec<ExecutionResult>, ExecError> {
        let own = self.exec.clone();
        self.exec.static_reset = false;
        self.exec.restored_statics = restored.to_vec();
        let results = self.run_batch(tests, None);
        self.exec = own;
        results
    }

    /// Executes `tests` with a per-test time limit of `timeout` instead of
    /// [`ExecConfig::timeout`]; the pool's own configuration is unchanged.
    ///
    /// # Errors
    /// As [`Executor::execute`].
    pub fn execute_with_timeout(
        &mut self,
        tests: &[TestCase],
        timeout: Duration,
    ) -> Result<Vec<ExecutionResult>, ExecError> {
        let own = self.exec.timeout;
        self.exec.timeout = timeout;
        let results = self.run_batch(tests, None);
        self.exec.timeout = own;
        results
    }

    /// Executes test `i` with mutant `mutants[i]` active, all in one
    /// pipelined batch.
    ///
    /// # Errors
    /// As [`Executor::execute`].
    pub fn execute_with_mutants(
        &mut self,
        tests: &[TestCase],
        mutants: &[u32],
    ) -> Result<Vec<ExecutionResult>, ExecError> {
        self.run_batch(tests, Some(mutants))
    }

    /// Which mechanisms of the kernel sandbox hold in every running worker
    /// (all of them on one machine: they depend on its kernel).
    pub fn confinement(&self) -> crate::sandbox::Confinement {
        let all = || self.workers.iter().flatten().map(|w| w.confinement);
        crate::sandbox::Confinement {
            files: all().all(|c| c.files),
            network: all().all(|c| c.network),
            processes: all().all(|c| c.processes),
        }
    }

    /// Start-up time of each worker.
    pub fn startup_times(&self) -> Vec<Duration> {
        self.workers.iter().flatten().map(|w| w.startup).collect()
    }

    /// Number of worker processes.
    pub fn size(&self) -> usize {
        self.workers.len()
    }
}

/// What the per-worker threads of one [`Pool::execute`] call share.
struct Shared<'a> {
    cfg: &'a WorkerConfig,
    exec: &'a ExecConfig,
    tests: &'a [TestCase],
    /// Per test, the mutant to activate (overrides `exec.mutant`).
    mutants: Option<&'a [u32]>,
    results: Mutex<Vec<Option<ExecutionResult>>>,
    restarts: Mutex<usize>,
    /// Replacements of poisoned workers the pool still allows.
    poison_replacements: Mutex<usize>,
    start_error: Mutex<Option<ExecError>>,
}

impl Shared<'_> {
    /// The configuration test `i` runs with.
    fn config(&self, i: usize) -> std::borrow::Cow<'_, ExecConfig> {
        match self.mutants {
            Some(m) => std::borrow::Cow::Owned(ExecConfig { mutant: m[i], ..self.exec.clone() }),
            None => std::borrow::Cow::Borrowed(self.exec),
        }
    }

    /// Uses one of the pool's replacements of poisoned workers; `false`
    /// when none is left.
    fn take_poison_replacement(&self) -> bool {
        let mut left = self.poison_replacements.lock().expect("replacements");
        let some = *left > 0;
        *left = left.saturating_sub(1);
        some
    }

    fn store(&self, i: usize, r: ExecutionResult) {
        self.results.lock().expect("results")[i] = Some(r);
    }

    /// Replaces a failed worker; on failure leaves the slot empty.
    fn restart(&self, slot: &mut Option<Worker>) {
        *self.restarts.lock().expect("restarts") += 1;
        *slot = None;
        match Worker::spawn(self.cfg) {
            Ok(w) => *slot = Some(w),
            Err(e) => *self.start_error.lock().expect("error") = Some(e),
        }
    }
}

/// Feeds one worker from its queue ([`dispatch::Queue`]: its fixed share,
/// or one queue for all), keeping up to [`dispatch::Queue::window`]
/// requests in flight. The test at the head of the window is the one the
/// worker is running: a timeout or crash is charged to it, and the tests
/// behind it go back to the queue for the restarted worker (or, from a
/// shared queue, for whichever worker asks first).
fn drive(slot: &mut Option<Worker>, mut queue: dispatch::Queue<'_>, sh: &Shared<'_>) {
    let mut inflight: VecDeque<(usize, u64)> = VecDeque::new();
    let mut head_since = Instant::now();
    let mut rerun: Vec<usize> = Vec::new();
    while let Some(worker) = slot.as_mut() {
        let mut broken = false;
        while inflight.len() < queue.window() && !broken {
            let Some(i) = queue.pop_front() else { break };
            if inflight.is_empty() {
                head_since = Instant::now();
            }
            match worker.send(&sh.tests[i], &sh.config(i)) {
                Some(seq) => inflight.push_back((i, seq)),
                None => {
                    queue.push_front(i);
                    broken = true;
                }
            }
        }
        broken |= !worker.flush();
        let Some(&(i, seq)) = inflight.front() else {
            if broken {
                sh.restart(slot); // the worker died between tests
                continue;
            }
            return;
        };
        let outcome = worker.receive(seq, head_since + sh.exec.timeout + GRACE);
        inflight.pop_front();
        head_since = Instant::now();
        match outcome {
            Ok(r) => sh.store(i, r),
            // Past the pool's replacements for poisoned workers (a class
            // whose initialiser never ends within the limit poisons every
            // new worker), the test's result in the poisoned JVM stands.
            Err(f @ Failure::Poisoned(..)) if rerun.contains(&i) || !sh.take_poison_replacement() => {
                sh.store(i, failed_result(&sh.tests[i], f));
            }
            Err(f) => {
                inflight.drain(..).rev().for_each(|(j, _)| queue.push_front(j));
                // A test that met a poisoned JVM runs again, once, in the
                // new worker: it did nothing wrong itself.
                if let Failure::Poisoned(reason, _) = &f {
                    tracing::debug!(%reason, "a poisoned worker is replaced; its test runs again");
                    rerun.push(i);
                    queue.push_front(i);
                } else {
                    tracing::debug!(failure = ?f, "the worker is restarted");
                    sh.store(i, failed_result(&sh.tests[i], f));
                }
                sh.restart(slot);
            }
        }
    }
}

impl Executor for Pool {
    fn execute(&mut self, tests: &[TestCase]) -> Result<Vec<ExecutionResult>, ExecError> {
        self.run_batch(tests, None)
    }

    fn execute_logged(&mut self, tests: &[TestCase], cap: u32) -> Result<Vec<ExecutionResult>, ExecError> {
        let own = self.exec.value_log;
        self.exec.value_log = cap;
        let results = self.run_batch(tests, None);
        self.exec.value_log = own;
        results
    }

    fn time_limit(&self) -> Option<Duration> {
        Some(self.exec.timeout)
    }

    fn set_time_limit(&mut self, limit: Duration) {
        self.exec.timeout = limit;
    }
}

impl Pool {
    fn run_batch(&mut self, tests: &[TestCase], mutants: Option<&[u32]>) -> Result<Vec<ExecutionResult>, ExecError> {
        let verdicts = self.verdicts(tests);
        let valid: VecDeque<usize> = (0..tests.len()).filter(|i| verdicts[*i].is_none()).collect();
        self.sent += valid.len();
        let prefilled = tests.iter().zip(verdicts).map(|(t, v)| v.map(|reason| rejected(t, reason))).collect();
        let one = Mutex::new(VecDeque::new());
        let queues = dispatch::deal(valid, self.workers.len(), self.shared_queue, &one);
        let shared = Shared {
            cfg: &self.cfg,
            exec: &self.exec,
            tests,
            mutants,
            results: Mutex::new(prefilled),
            restarts: Mutex::new(0),
            poison_replacements: Mutex::new(self.poison_replacements),
            start_error: Mutex::new(None),
        };
        std::thread::scope(|s| {
            for (slot, queue) in self.workers.iter_mut().zip(queues) {
                let shared = &shared;
                s.spawn(move || drive(slot, queue, shared));
            }
        });
        self.restarts += shared.restarts.into_inner().expect("restarts");
        self.poison_replacements = shared.poison_replacements.into_inner().expect("replacements");
        if let Some(e) = shared.start_error.into_inner().expect("error") {
            return Err(e);
        }
        let results: Vec<ExecutionResult> =
            shared.results.into_inner().expect("results").into_iter().map(|r| r.expect("every test ran")).collect();
        self.count_refusals(&results);
        self.timeouts += results.iter().filter(|r| r.outcome == TestOutcome::Timeout).count();
        Ok(results)
    }

    /// Adds the refusals the results end in to [`Pool::refusals`].
    fn count_refusals(&mut self, results: &[ExecutionResult]) {
        for r in results {
            for s in &r.statements {
                if let exec::StatementOutcome::Threw(e) = s
                    && let Some(kind) = exec::sandbox::refusal(e)
                {
                    *self.refusals.entry(kind).or_default() += 1;
                }
            }
        }
    }
}

/// The result of a test whose worker timed out or crashed.
fn failed_result(test: &TestCase, f: Failure) -> ExecutionResult {
    let outcome = match f {
        Failure::Timeout => TestOutcome::Timeout,
        Failure::Crashed(reason) => TestOutcome::Crashed { reason },
        Failure::Poisoned(_, result) => return *result,
    };
    not_executed(test, outcome)
}

/// The result of a test case that failed validation.
fn rejected(test: &TestCase, reason: String) -> ExecutionResult {
    not_executed(test, TestOutcome::Rejected { reason })
}

fn not_executed(test: &TestCase, outcome: TestOutcome) -> ExecutionResult {
    ExecutionResult {
        outcome,
        statements: vec![StatementOutcome::NotExecuted; test.statements.len()],
        trace: Trace::default(),
        output: Default::default(),
        duration: Duration::ZERO,
    }
}
