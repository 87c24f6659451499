//! JUnit runs: test methods in a chosen order, one JVM per batch
//! (`FerroRunner`, compiled on first use into the build cache), a time limit
//! per test, and a new JVM after a test that ends or hangs it.

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::cache::{cached_build, compile_helper, hash_parts, write_file};
use crate::command::{argfile_text, cannot_run, join_paths, path_str};
use crate::confine::{Confiner, java_command};
use crate::error::{Error, Result, status_text};
use crate::process::{StderrTail, end, wait_or_kill};
use crate::protocol::{Event, read_events};
use crate::{JacocoSetup, Jdk, JunitJars};

const RUNNER_SOURCE: &str = include_str!("../../../tools/java/FerroRunner.java");

/// How long a test JVM may take to start (up to the runner's `READY`), and
/// to go from one test's verdict to the next test's start.
const STARTUP_LIMIT: Duration = Duration::from_secs(60);
/// How long after a test's own time limit the JVM is killed from outside
/// (the runner normally reports the timeout itself and exits).
const KILL_GRACE: Duration = Duration::from_secs(5);

/// The verdict on one test method.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TestVerdict {
    /// The test method's name.
    pub name: String,
    /// True when the test passed (or was skipped: ignored, disabled, or an
    /// assumption failed; `message` then starts with `skipped:`).
    pub passed: bool,
    /// Why it failed: the Throwable's `toString()` (with its causes), or
    /// what went wrong around it (timed out, the JVM exited, no such test).
    pub message: Option<String>,
    /// The line of the test class where it failed (the top-most stack frame
    /// in the test class or its nested classes), when known.
    pub line: Option<u32>,
    /// How long the test ran: from its start to its verdict, as the driver
    /// saw them (JUnit's own work for the method included).
    pub duration: Duration,
}

/// How the message of a test that exceeded its time limit starts.
const TIMED_OUT: &str = "timed out after ";
/// The message of a test that was running when its run's deadline came.
const STOPPED_AT_DEADLINE: &str = "stopped at the run's deadline (the JVM was killed)";

impl TestVerdict {
    /// Whether the test failed by exceeding its time limit (its JVM was ended).
    pub fn timed_out(&self) -> bool {
        !self.passed && self.message.as_deref().is_some_and(|m| m.starts_with(TIMED_OUT))
    }

    /// Whether the test was still running when the run's deadline came
    /// ([`TestRun::deadline`]): not a verdict on the test itself.
    pub fn stopped_at_deadline(&self) -> bool {
        !self.passed && self.message.as_deref() == Some(STOPPED_AT_DEADLINE)
    }
}

/// Runs test methods of `test_class` one at a time, in the order of `order`
/// (names may repeat), in one JVM, so static state carries over from test to
/// test as under a build tool; returns one verdict per entry of `order`, in
/// that order. [`TestRun`] does the same with a deadline or with each test
/// isolated.
///
/// The class path is `test_classes_dir`, `class_path` (the classes under
/// test and their dependencies), then the jars of `junit.run`. The JVM runs
/// in a scratch working directory (relative class-path entries are resolved
/// against ours first) with no standard input.
///
/// `timeout` limits each test method. A test that exceeds it fails
/// (`timed out after ...`), the JVM is ended (JaCoCo's data is still
/// written), and the remaining tests run in a new JVM; likewise after a
/// test that ends the JVM (`System.exit`, a crash). With `jacoco`, the JVM
/// runs with the JaCoCo agent, which appends to the setup's `.exec` file.
///
/// # Errors
/// When the JVM or the runner cannot start: the test class or JUnit is not
/// on the class path ([`Error::RunnerFailed`]), a test name is not a Java
/// identifier ([`Error::BadTestName`]), or the JVM does not reach its first
/// test within 60 s ([`Error::JvmHung`], [`Error::JvmEnded`]; the message
/// holds the runner's complaint or the JVM's standard error).
#[allow(clippy::too_many_arguments)]
pub fn run_tests(
    jdk: &Jdk,
    test_classes_dir: &Path,
    class_path: &str,
    test_class: &str,
    order: &[String],
    junit: &JunitJars,
    jacoco: Option<&JacocoSetup>,
    timeout: Duration,
    confiner: Option<&Confiner>,
) -> Result<Vec<TestVerdict>> {
    let run = TestRun {
        jdk,
        test_classes_dir,
        class_path,
        test_class,
        junit,
        jacoco,
        timeout,
        confiner,
        deadline: None,
        isolated: false,
        enable_assertions: false,
        extra: None,
    };
    run.run(order)
}

/// A JUnit run of one test class, as [`run_tests`] makes it, plus a
/// deadline and isolation: the settings besides the order of the tests.
#[derive(Debug, Clone, Copy)]
pub struct TestRun<'a> {
    /// The JDK whose `java` runs the tests.
    pub jdk: &'a Jdk,
    /// The compiled test classes.
    pub test_classes_dir: &'a Path,
    /// The classes under test and their dependencies (`:`-separated).
    pub class_path: &'a str,
    /// The test class (binary name).
    pub test_class: &'a str,
    /// The JUnit version and jars.
    pub junit: &'a JunitJars,
    /// The JaCoCo agent, when coverage is measured.
    pub jacoco: Option<&'a JacocoSetup>,
    /// The time limit of each test method.
    pub timeout: Duration,
    /// Confines the JVMs when given.
    pub confiner: Option<&'a Confiner>,
    /// When the whole run stops: the JVM is killed then, and the verdicts
    /// cover only a prefix of the order: the tests that ended before, and
    /// the one running then, whose verdict is
    /// [`TestVerdict::stopped_at_deadline`]. `None`: no limit.
    pub deadline: Option<Instant>,
    /// Each test method runs in a class loader of its own (the runner's
    /// `-Dferro.isolate`): the test class, the classes under test and their
    /// dependencies are loaded and initialised afresh for each test, so it
    /// sees the static state of a new JVM, as if it ran alone; only the
    /// JDK's own state (system properties, default locale, threads left
    /// running) is shared between the tests of one JVM.
    pub isolated: bool,
    /// Runs with assertions enabled (`-ea`), as Maven Surefire and Gradle
    /// run tests by default: an `assert` of the classes under test that a
    /// test trips then fails it.
    pub enable_assertions: bool,
    /// More JVM options and folders the tests may write (a sample run's
    /// recorder and its output folder), when given.
    pub extra: Option<&'a JvmExtras>,
}

/// JVM options and writable folders a caller adds to a [`TestRun`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JvmExtras {
    /// Options placed before the class path (`-Dname=value`).
    pub options: Vec<String>,
    /// Folders the confined JVM may write besides its scratch folder.
    pub writable: Vec<PathBuf>,
}

impl TestRun<'_> {
    /// Runs the tests of `order` (names may repeat) as [`run_tests`] does;
    /// with a [`TestRun::deadline`], the verdicts may cover only a prefix
    /// of `order`.
    ///
    /// # Errors
    /// As [`run_tests`].
    pub fn run(&self, order: &[String]) -> Result<Vec<TestVerdict>> {
        if let Some(bad) = order.iter().find(|n| n.is_empty() || n.chars().any(|c| c.is_whitespace() || c == '"')) {
            return Err(Error::BadTestName { name: bad.clone() });
        }
        if order.is_empty() {
            return Ok(Vec::new());
        }
        let timeout = self.timeout.clamp(Duration::from_millis(1), Duration::from_secs(24 * 3600));
        let cwd = std::env::current_dir().map_err(|source| Error::CurrentDir { source })?;
        let scratch = tempfile::tempdir().map_err(|source| Error::ScratchDir { source })?;
        let options = self.java_options(&cwd, scratch.path(), timeout)?;
        let mut writable = vec![scratch.path().to_path_buf()];
        writable.extend(self.jacoco.and_then(|j| j.exec_file.parent()).map(|d| cwd.join(d)));
        writable.extend(self.extra.iter().flat_map(|e| e.writable.iter()).map(|d| cwd.join(d)));
        let launch = Launch {
            jdk: self.jdk,
            cwd: scratch.path(),
            confiner: self.confiner,
            writable: &writable,
            deadline: self.deadline,
        };
        let mut verdicts = Vec::with_capacity(order.len());
        while verdicts.len() < order.len() && !launch.past_deadline() {
            let rest = &order[verdicts.len()..];
            let batch = run_batch(&launch, &options, rest, timeout)?;
            if batch.is_empty() && !launch.past_deadline() {
                return Err(Error::JvmEndedWithoutRunning { test: rest[0].clone() });
            }
            verdicts.extend(batch);
        }
        Ok(verdicts)
    }

    /// The `java` options up to the test names: JVM flags, the agents, the
    /// class path (and the isolated one), the runner and its arguments.
    fn java_options(&self, cwd: &Path, scratch: &Path, timeout: Duration) -> Result<Vec<String>> {
        let mut tested = vec![self.test_classes_dir.to_path_buf()];
        tested.extend(self.class_path.split(':').filter(|e| !e.is_empty()).map(PathBuf::from));
        let absolute = |paths: &[PathBuf]| join_paths(&paths.iter().map(|e| cwd.join(e)).collect::<Vec<_>>());
        let mut entries = vec![runner_dir(self.jdk)?];
        // The scratch folder is the JVM's working directory and temporary
        // folder: confined, it is the one place the tests may write.
        let mut options: Vec<String> = vec![
            "-XX:+UseSerialGC".into(),
            "-XX:TieredStopAtLevel=1".into(),
            "-Djava.awt.headless=true".into(),
            format!("-Djava.io.tmpdir={}", scratch.display()),
        ];
        if self.enable_assertions {
            options.push("-ea".into());
        }
        if self.isolated {
            options.push(format!("-Dferro.isolate={}", absolute(&tested)));
        } else {
            entries.extend(tested);
        }
        entries.extend(self.junit.run.iter().cloned());
        if let Some(j) = self.jacoco {
            options.extend(j.java_options(cwd));
        }
        options.extend(self.extra.iter().flat_map(|e| e.options.iter().cloned()));
        options.extend(["-cp".into(), absolute(&entries), "FerroRunner".into(), self.junit.version.to_string()]);
        options.push(timeout.as_millis().to_string());
        options.push(self.test_class.to_string());
        Ok(options)
    }
}

/// The directory holding the compiled `FerroRunner` (compiled on first use).
fn runner_dir(jdk: &Jdk) -> Result<PathBuf> {
    let key = hash_parts(&[RUNNER_SOURCE.as_bytes(), path_str(&jdk.home)?.as_bytes()]);
    cached_build("runner", key, |dir| {
        write_file(&dir.join("FerroRunner.java"), RUNNER_SOURCE)?;
        compile_helper(jdk, &[dir.join("FerroRunner.java")], "", dir)
    })
}

/// How runner JVMs are started: which JDK, in which scratch folder,
/// confined or not (with the folders they may write), and until when.
struct Launch<'a> {
    jdk: &'a Jdk,
    cwd: &'a Path,
    confiner: Option<&'a Confiner>,
    writable: &'a [PathBuf],
    deadline: Option<Instant>,
}

impl Launch<'_> {
    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// A running runner JVM: the process, the end of its standard error, and
/// its events.
struct RunnerJvm {
    child: Child,
    stderr: StderrTail,
    events: Receiver<Event>,
}

impl RunnerJvm {
    /// Starts `java OPTIONS TESTS` (through an argument file) in the scratch folder.
    fn start(launch: &Launch<'_>, options: &[String], tests: &[String]) -> Result<RunnerJvm> {
        let mut args = options.to_vec();
        args.extend(tests.iter().cloned());
        let argfile = launch.cwd.join("java.args");
        std::fs::write(&argfile, argfile_text(&args)).map_err(Error::write(&argfile))?;
        let writable: Vec<&Path> = launch.writable.iter().map(PathBuf::as_path).collect();
        let mut child = java_command(launch.jdk, launch.confiner, &writable)
            .arg(format!("@{}", argfile.display()))
            .current_dir(launch.cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(cannot_run("java"))?;
        let stderr = StderrTail::start(child.stderr.take().expect("piped stderr"));
        let events = read_events(child.stdout.take().expect("piped stdout"));
        Ok(RunnerJvm { child, stderr, events })
    }
}

/// Runs the runner once on `tests`; returns verdicts for a prefix of them
/// (all of them unless a test timed out or ended the JVM).
fn run_batch(launch: &Launch<'_>, options: &[String], tests: &[String], timeout: Duration) -> Result<Vec<TestVerdict>> {
    let mut jvm = RunnerJvm::start(launch, options, tests)?;
    let mut batch = Batch {
        verdicts: Vec::new(),
        ready: false,
        running: None,
        started: Instant::now(),
        deadline: Instant::now() + STARTUP_LIMIT,
    };
    loop {
        let now = Instant::now();
        if launch.past_deadline() {
            wait_or_kill(&mut jvm.child, Duration::ZERO);
            if let Some(name) = batch.running.take() {
                let message = Some(STOPPED_AT_DEADLINE.to_string());
                let duration = batch.started.elapsed();
                batch.verdicts.push(TestVerdict { name, passed: false, message, line: None, duration });
            }
            return Ok(batch.verdicts);
        }
        let limit = launch.deadline.map_or(batch.deadline, |d| d.min(batch.deadline));
        if now >= batch.deadline {
            end(&mut jvm.child, Duration::ZERO);
            let Some(name) = batch.running.take() else {
                return Err(Error::JvmHung {
                    between_tests: batch.ready,
                    seconds: STARTUP_LIMIT.as_secs(),
                    stderr: jvm.stderr.text(),
                });
            };
            batch.verdicts.push(timed_out(name, timeout));
            return Ok(batch.verdicts);
        }
        let exited = match jvm.events.recv_timeout((limit - now).min(Duration::from_millis(100))) {
            Ok(event) => match batch.on_event(event, timeout) {
                Flow::Continue => continue,
                Flow::Finished => {
                    end(&mut jvm.child, KILL_GRACE);
                    return Ok(batch.verdicts);
                }
                Flow::Failed(message) => {
                    end(&mut jvm.child, KILL_GRACE);
                    return Err(Error::RunnerFailed { message });
                }
            },
            // the JVM closed its output, or exited while a process it
            // started keeps the pipe open: take the last events, then stop
            Err(RecvTimeoutError::Disconnected) => true,
            Err(RecvTimeoutError::Timeout) => matches!(jvm.child.try_wait(), Ok(Some(_))),
        };
        if exited {
            return after_exit(&mut jvm, batch, timeout);
        }
    }
}

/// The verdicts of a batch whose JVM exited (or closed its output): its
/// last events, then a failing verdict for the test it was running.
fn after_exit(jvm: &mut RunnerJvm, mut batch: Batch, timeout: Duration) -> Result<Vec<TestVerdict>> {
    let status = wait_or_kill(&mut jvm.child, KILL_GRACE);
    while let Ok(event) = jvm.events.recv_timeout(Duration::from_millis(300)) {
        match batch.on_event(event, timeout) {
            Flow::Continue => {}
            Flow::Finished => return Ok(batch.verdicts),
            Flow::Failed(message) => return Err(Error::RunnerFailed { message }),
        }
    }
    match batch.running.take() {
        Some(name) => batch.verdicts.push(TestVerdict {
            name,
            passed: false,
            message: Some(format!("the JVM ended during the test ({}), e.g. by System.exit", status_text(&status))),
            line: None,
            duration: batch.started.elapsed(),
        }),
        None if batch.verdicts.is_empty() => return Err(Error::JvmEnded { status, stderr: jvm.stderr.text() }),
        None => {}
    }
    Ok(batch.verdicts)
}

/// The state of one runner JVM as its events arrive.
struct Batch {
    verdicts: Vec<TestVerdict>,
    ready: bool,
    /// The test between its START and its verdict.
    running: Option<String>,
    /// When the running test started.
    started: Instant,
    /// When to give up on the JVM.
    deadline: Instant,
}

enum Flow {
    Continue,
    /// DONE, or TIMEOUT (after which the runner exits).
    Finished,
    /// The runner could not start (ERROR).
    Failed(String),
}

impl Batch {
    fn on_event(&mut self, event: Event, timeout: Duration) -> Flow {
        match event {
            Event::Ready => {
                self.ready = true;
                self.deadline = Instant::now() + STARTUP_LIMIT;
            }
            Event::Start(name) => {
                self.running = Some(name);
                self.started = Instant::now();
                self.deadline = Instant::now() + timeout + KILL_GRACE;
            }
            Event::Verdict(v) => {
                self.running = None;
                self.verdicts.push(TestVerdict { duration: self.started.elapsed(), ..v });
                self.deadline = Instant::now() + STARTUP_LIMIT;
            }
            Event::Timeout(name) => {
                self.running = None;
                self.verdicts.push(timed_out(name, timeout));
                return Flow::Finished;
            }
            Event::Done => return Flow::Finished,
            Event::Error(message) => return Flow::Failed(message),
        }
        Flow::Continue
    }
}

fn timed_out(name: String, timeout: Duration) -> TestVerdict {
    TestVerdict {
        name,
        passed: false,
        message: Some(format!("{TIMED_OUT}{} ms (the JVM was ended)", timeout.as_millis())),
        line: None,
        duration: timeout,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch() -> Batch {
        Batch { verdicts: Vec::new(), ready: false, running: None, started: Instant::now(), deadline: Instant::now() }
    }

    #[test]
    fn a_runner_timeout_fails_the_running_test_and_finishes_the_batch() {
        let mut b = batch();
        let second = Duration::from_secs(1);
        assert!(matches!(b.on_event(Event::Ready, second), Flow::Continue));
        assert!(b.ready);
        assert!(matches!(b.on_event(Event::Start("t".into()), second), Flow::Continue));
        assert_eq!(b.running.as_deref(), Some("t"));
        assert!(matches!(b.on_event(Event::Timeout("t".into()), second), Flow::Finished));
        assert_eq!(b.running, None);
        assert_eq!(b.verdicts[0].message.as_deref(), Some("timed out after 1000 ms (the JVM was ended)"));
        assert!(b.verdicts[0].timed_out());
    }

    #[test]
    fn a_runner_error_fails_the_batch() {
        let Flow::Failed(message) = batch().on_event(Event::Error("no class".into()), Duration::ZERO) else { panic!() };
        assert_eq!(message, "no class");
    }
}
