//! Compiling and running Java test suites: `javac` with its errors parsed
//! (so a caller can drop the test methods that do not compile), JUnit 4 or 5
//! runs of chosen test methods in a chosen order, and JaCoCo line and branch
//! coverage of the class under test.
//!
//! The Java side is three small programs from `tools/java/`, embedded here
//! and compiled on first use into a cache directory (`$FERROSUITE_CACHE_DIR`,
//! else `ferrosuite-cache` in the system temporary directory):
//! `FerroRunner` (runs test methods one at a time, printing one line per
//! event), `FerroAgent` (lets JaCoCo 0.8.6 instrument Java 17 sealed
//! classes) and `JacocoCoverage` (counters from a `.exec` file).

use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

pub use model::jdk::Jdk;

mod tools;
pub use tools::{JavaOutput, java_with_input, javac};

const RUNNER_SOURCE: &str = include_str!("../../../tools/java/FerroRunner.java");
const AGENT_SOURCE: &str = include_str!("../../../tools/java/FerroAgent.java");
const COVERAGE_SOURCE: &str = include_str!("../../../tools/java/JacocoCoverage.java");

/// Where Debian installs library jars.
pub const DEBIAN_JAVA_DIR: &str = "/usr/share/java";

/// JaCoCo's core and the ASM jars it needs at run time, with their Debian packages.
const JACOCO_CORE_JARS: [(&str, &str); 4] = [
    ("org.jacoco.core.jar", "libjacoco-java"),
    ("asm.jar", "libasm-java"),
    ("asm-commons.jar", "libasm-java"),
    ("asm-tree.jar", "libasm-java"),
];

/// How long a test JVM may take to start (up to the runner's `READY`), and
/// to go from one test's verdict to the next test's start.
const STARTUP_LIMIT: Duration = Duration::from_secs(60);
/// How long after a test's own time limit the JVM is killed from outside
/// (the runner normally reports the timeout itself and exits).
const KILL_GRACE: Duration = Duration::from_secs(5);
/// JVM options for javac and the test JVMs: the client compiler and the
/// serial collector start faster and, for javac, compile a 1,500-method test
/// class in 2.4 s instead of 5.6 s (2 cores).
const JAVAC_JVM_OPTIONS: [&str; 2] = ["-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"];
/// How much of a JVM's standard error is kept for error messages.
const STDERR_TAIL: usize = 16 * 1024;

/// The class path of JUnit 4 or JUnit 5: what the tests compile against and
/// what runs them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JunitJars {
    /// 4 or 5.
    pub version: u8,
    /// Jars for compiling tests (JUnit 4 with hamcrest; the Jupiter API).
    pub compile: Vec<PathBuf>,
    /// Jars for running tests: `compile` plus, for JUnit 5, the Jupiter
    /// engine and the Platform launcher.
    pub run: Vec<PathBuf>,
}

impl JunitJars {
    /// The Debian jars in `/usr/share/java` (packages `junit4` and
    /// `libhamcrest-java`; `junit5`, `libopentest4j-java`, `libapiguardian-java`).
    ///
    /// # Errors
    /// A version other than 4 or 5; a missing jar (named, with its package).
    pub fn debian(version: u8) -> anyhow::Result<JunitJars> {
        JunitJars::debian_in(Path::new(DEBIAN_JAVA_DIR), version)
    }

    /// Like [`JunitJars::debian`], with the jars looked up in `dir`.
    ///
    /// # Errors
    /// A version other than 4 or 5; a missing jar (named, with its package).
    pub fn debian_in(dir: &Path, version: u8) -> anyhow::Result<JunitJars> {
        type Jars = &'static [(&'static str, &'static str)];
        let (compile, engine): (Jars, Jars) = match version {
            4 => (&[("junit4.jar", "junit4"), ("hamcrest-core.jar", "libhamcrest-java")], &[]),
            5 => (
                &[
                    ("junit-jupiter-api.jar", "junit5"),
                    ("junit-platform-commons.jar", "junit5"),
                    ("opentest4j.jar", "libopentest4j-java"),
                    ("apiguardian-api.jar", "libapiguardian-java"),
                ],
                &[
                    ("junit-jupiter-engine.jar", "junit5"),
                    ("junit-platform-engine.jar", "junit5"),
                    ("junit-platform-launcher.jar", "junit5"),
                ],
            ),
            v => bail!("unsupported JUnit version {v}: expected 4 or 5"),
        };
        let find = |jars: &[(&str, &str)]| -> anyhow::Result<Vec<PathBuf>> {
            jars.iter()
                .map(|(jar, package)| {
                    let path = dir.join(jar);
                    if !path.is_file() {
                        bail!(
                            "JUnit {version} needs {}, which is missing: install it with `apt-get install {package}`, \
                             or give JUnit's jars with --junit-classpath",
                            path.display()
                        );
                    }
                    Ok(path)
                })
                .collect()
        };
        let compile = find(compile)?;
        let mut run = compile.clone();
        run.extend(find(engine)?);
        Ok(JunitJars { version, compile, run })
    }

    /// A user-given class path (`--junit-classpath`), used both to compile
    /// and to run the tests. For JUnit 5 it must hold the Jupiter engine and
    /// the Platform launcher (`junit-platform-console-standalone.jar` does).
    ///
    /// # Errors
    /// A version other than 4 or 5, an empty class path, or an entry that does not exist.
    pub fn from_class_path(version: u8, class_path: &str) -> anyhow::Result<JunitJars> {
        if version != 4 && version != 5 {
            bail!("unsupported JUnit version {version}: expected 4 or 5");
        }
        let entries: Vec<PathBuf> = class_path.split(':').filter(|e| !e.is_empty()).map(PathBuf::from).collect();
        if entries.is_empty() {
            bail!("the JUnit class path is empty");
        }
        if let Some(missing) = entries.iter().find(|e| !e.exists()) {
            bail!("JUnit class-path entry {} does not exist", missing.display());
        }
        Ok(JunitJars { version, compile: entries.clone(), run: entries })
    }

    /// The class path for compiling tests, `:`-separated.
    pub fn compile_class_path(&self) -> String {
        join_paths(&self.compile)
    }
}

/// One error `javac` reported in a source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    /// The source file, as javac printed it (the path given to it).
    pub file: PathBuf,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (characters, a tab counting as one), from javac's caret line.
    pub column: Option<u32>,
    /// The message: the first line (e.g. `cannot find symbol`) and javac's
    /// detail lines (`symbol: ...`, `location: ...`), joined with `\n`.
    pub message: String,
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file.display(), self.line, self.message.replace('\n', " "))
    }
}

/// Compiles test sources into `out` (created if needed) with `javac -g`,
/// `-encoding UTF-8`, no annotation processing, no source path (nothing but
/// `sources` is compiled), and `--release N` when `release` is given
/// (values below 8 are raised to 8, the oldest JDK 17 supports without
/// warnings and the oldest JUnit 5 runs on). `class_path` must include the
/// JUnit jars ([`JunitJars::compile_class_path`]).
///
/// Returns `Ok(Err(errors))` when javac reports errors in the sources
/// (every error, in javac's order; nothing is guaranteed to be written to
/// `out` then).
///
/// # Errors
/// When javac cannot run, or fails without naming a source line (a bad
/// option, a missing file, a crash); the message holds javac's output.
pub fn compile_tests(
    jdk: &Jdk,
    sources: &[PathBuf],
    class_path: &str,
    out: &Path,
    release: Option<u32>,
) -> anyhow::Result<Result<(), Vec<CompileError>>> {
    if sources.is_empty() {
        bail!("no test sources to compile");
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let tmp = tempfile::tempdir().context("cannot create a temporary directory")?;
    let mut args: Vec<String> = [
        "-g",
        "-nowarn",
        "-Xlint:none",
        "-encoding",
        "UTF-8",
        "-proc:none",
        "-implicit:none",
        "-Xmaxerrs",
        "1000000",
        "-sourcepath",
        "",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(["-cp".to_string(), class_path.to_string(), "-d".to_string(), path_str(out)?.to_string()]);
    if let Some(release) = release {
        args.extend(["--release".to_string(), release.max(8).to_string()]);
    }
    for s in sources {
        args.push(path_str(s)?.to_string());
    }
    let argfile = tmp.path().join("javac.args");
    std::fs::write(&argfile, argfile_text(&args))?;
    let output = Command::new(jdk.tool("javac"))
        .args(JAVAC_JVM_OPTIONS)
        .args(["-J-Duser.language=en", "-J-Duser.country=US"])
        .arg(format!("@{}", argfile.display()))
        .stdin(Stdio::null())
        .output()
        .context("cannot run javac")?;
    if output.status.success() {
        return Ok(Ok(()));
    }
    let text = String::from_utf8_lossy(&output.stderr).into_owned() + &String::from_utf8_lossy(&output.stdout);
    let errors = parse_javac_errors(&text);
    if errors.is_empty() {
        bail!("javac failed ({}): {}", output.status, text.trim());
    }
    Ok(Err(errors))
}

/// Parses javac's default diagnostic output (`File.java:12: error: ...`,
/// the source line, a caret line, detail lines) into errors; warnings and
/// notes are skipped.
pub fn parse_javac_errors(text: &str) -> Vec<CompileError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut errors = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some((file, line, kind, first)) = diagnostic_header(lines[i]) else {
            i += 1;
            continue;
        };
        i += 1;
        let mut column = None;
        // the source line and the caret line follow the first message line
        if i + 1 < lines.len() && is_caret_line(lines[i + 1]) {
            column = lines[i + 1].find('^').map(|c| lines[i + 1][..c].chars().count() as u32 + 1);
            i += 2;
        }
        let mut message = first.to_string();
        while i < lines.len() && diagnostic_header(lines[i]).is_none() && !is_trailer(lines[i]) {
            if !lines[i].trim().is_empty() {
                message.push('\n');
                message.push_str(lines[i].trim());
            }
            i += 1;
        }
        if kind == "error" {
            errors.push(CompileError { file: PathBuf::from(file), line, column, message });
        }
    }
    errors
}

/// `File.java:12: error: message` → (file, 12, "error", "message").
fn diagnostic_header(line: &str) -> Option<(&str, u32, &str, &str)> {
    for kind in ["error", "warning"] {
        let marker = format!(": {kind}: ");
        if let Some(at) = line.find(&marker) {
            let (location, message) = (&line[..at], &line[at + marker.len()..]);
            let (file, number) = location.rsplit_once(':')?;
            if file.ends_with(".java")
                && let Ok(n) = number.parse::<u32>()
            {
                return Some((file, n, kind, message));
            }
        }
    }
    None
}

fn is_caret_line(line: &str) -> bool {
    line.trim_end().ends_with('^') && line.trim() == "^"
}

/// javac's closing lines: `3 errors`, `1 warning`, `Note: ...`.
fn is_trailer(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    line.starts_with("Note: ")
        || matches!(words[..], [n, "error" | "errors" | "warning" | "warnings"] if n.parse::<u32>().is_ok())
}

/// The verdict on one test method.
#[derive(Debug, Clone, PartialEq, Eq)]
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
}

/// Runs test methods of `test_class` one at a time, in the order of `order`
/// (names may repeat), in one JVM, so static state carries over from test to
/// test as under a build tool; returns one verdict per entry of `order`, in
/// that order.
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
/// on the class path, a test name is not a Java identifier, or the JVM does
/// not reach its first test within 60 s (the message holds the runner's
/// complaint or the JVM's standard error).
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
) -> anyhow::Result<Vec<TestVerdict>> {
    if let Some(bad) = order.iter().find(|n| n.is_empty() || n.chars().any(|c| c.is_whitespace() || c == '"')) {
        bail!("not a test method name: {bad:?}");
    }
    if order.is_empty() {
        return Ok(Vec::new());
    }
    let timeout = timeout.clamp(Duration::from_millis(1), Duration::from_secs(24 * 3600));
    let runner = runner_dir(jdk)?;
    let cwd = std::env::current_dir().context("cannot read the working directory")?;
    let mut entries = vec![runner, test_classes_dir.to_path_buf()];
    entries.extend(class_path.split(':').filter(|e| !e.is_empty()).map(PathBuf::from));
    entries.extend(junit.run.iter().cloned());
    let full_cp = join_paths(&entries.iter().map(|e| cwd.join(e)).collect::<Vec<_>>());
    let scratch = tempfile::tempdir().context("cannot create a scratch directory for the test JVM")?;
    let mut options: Vec<String> =
        vec!["-XX:+UseSerialGC".into(), "-XX:TieredStopAtLevel=1".into(), "-Djava.awt.headless=true".into()];
    if let Some(j) = jacoco {
        options.extend(j.java_options(&cwd));
    }
    options.extend(["-cp".into(), full_cp, "FerroRunner".into(), junit.version.to_string()]);
    options.push(timeout.as_millis().to_string());
    options.push(test_class.to_string());

    let mut verdicts = Vec::with_capacity(order.len());
    while verdicts.len() < order.len() {
        let rest = &order[verdicts.len()..];
        let batch = run_batch(jdk, scratch.path(), &options, rest, timeout)?;
        if batch.is_empty() {
            bail!("the test JVM ended without running {}", rest[0]);
        }
        verdicts.extend(batch);
    }
    Ok(verdicts)
}

/// One event from the runner.
enum Event {
    Ready,
    Start(String),
    Verdict(TestVerdict),
    Timeout(String),
    Done,
    Error(String),
}

/// Runs the runner once on `tests`; returns verdicts for a prefix of them
/// (all of them unless a test timed out or ended the JVM).
fn run_batch(
    jdk: &Jdk,
    cwd: &Path,
    options: &[String],
    tests: &[String],
    timeout: Duration,
) -> anyhow::Result<Vec<TestVerdict>> {
    let mut args = options.to_vec();
    args.extend(tests.iter().cloned());
    let argfile = cwd.join("java.args");
    std::fs::write(&argfile, argfile_text(&args))?;
    let mut child = Command::new(jdk.tool("java"))
        .arg(format!("@{}", argfile.display()))
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("cannot run java")?;
    let stderr = StderrTail::start(child.stderr.take().expect("piped stderr"));
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().expect("piped stdout");
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut line = Vec::new();
        loop {
            line.clear();
            match reader.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if let Some(event) = parse_event(&String::from_utf8_lossy(&line))
                        && tx.send(event).is_err()
                    {
                        break;
                    }
                }
            }
        }
    });

    let mut batch =
        Batch { verdicts: Vec::new(), ready: false, running: None, deadline: Instant::now() + STARTUP_LIMIT };
    loop {
        let now = Instant::now();
        if now >= batch.deadline {
            end(&mut child, Duration::ZERO);
            let Some(name) = batch.running.take() else {
                let what = if batch.ready { "between two tests" } else { "before its first test" };
                bail!("the test JVM hung {what} for {} s and was killed: {}", STARTUP_LIMIT.as_secs(), stderr.text());
            };
            batch.verdicts.push(timed_out(name, timeout));
            return Ok(batch.verdicts);
        }
        let exited = match rx.recv_timeout((batch.deadline - now).min(Duration::from_millis(100))) {
            Ok(event) => match batch.on_event(event, timeout) {
                Flow::Continue => continue,
                Flow::Finished => {
                    end(&mut child, KILL_GRACE);
                    return Ok(batch.verdicts);
                }
                Flow::Failed(message) => {
                    end(&mut child, KILL_GRACE);
                    bail!("the test runner failed: {message}");
                }
            },
            // the JVM closed its output, or exited while a process it
            // started keeps the pipe open: take the last events, then stop
            Err(RecvTimeoutError::Disconnected) => true,
            Err(RecvTimeoutError::Timeout) => matches!(child.try_wait(), Ok(Some(_))),
        };
        if !exited {
            continue;
        }
        let status = wait_or_kill(&mut child, KILL_GRACE);
        while let Ok(event) = rx.recv_timeout(Duration::from_millis(300)) {
            match batch.on_event(event, timeout) {
                Flow::Continue => {}
                Flow::Finished => return Ok(batch.verdicts),
                Flow::Failed(message) => bail!("the test runner failed: {message}"),
            }
        }
        let status = status.map_or_else(|| "killed".to_string(), |s| s.to_string());
        match batch.running.take() {
            Some(name) => batch.verdicts.push(TestVerdict {
                name,
                passed: false,
                message: Some(format!("the JVM ended during the test ({status}), e.g. by System.exit")),
                line: None,
            }),
            None if batch.verdicts.is_empty() => {
                bail!("the test JVM ended ({status}) before running a test: {}", stderr.text())
            }
            None => {}
        }
        return Ok(batch.verdicts);
    }
}

/// The state of one runner JVM as its events arrive.
struct Batch {
    verdicts: Vec<TestVerdict>,
    ready: bool,
    /// The test between its START and its verdict.
    running: Option<String>,
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
                self.deadline = Instant::now() + timeout + KILL_GRACE;
            }
            Event::Verdict(v) => {
                self.running = None;
                self.verdicts.push(v);
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

/// The last [`STDERR_TAIL`] bytes of a JVM's standard error, read by a thread.
struct StderrTail {
    tail: Arc<Mutex<VecDeque<u8>>>,
    closed: mpsc::Receiver<()>,
}

impl StderrTail {
    fn start(mut stderr: impl Read + Send + 'static) -> StderrTail {
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let (tx, closed) = mpsc::channel();
        let t = Arc::clone(&tail);
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = stderr.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut t = t.lock().unwrap_or_else(|e| e.into_inner());
                t.extend(&buf[..n]);
                let excess = t.len().saturating_sub(STDERR_TAIL);
                t.drain(..excess);
            }
            let _ = tx.send(());
        });
        StderrTail { tail, closed }
    }

    /// The text so far, after waiting up to a second for the stream's end.
    fn text(&self) -> String {
        let _ = self.closed.recv_timeout(Duration::from_secs(1));
        let t = self.tail.lock().unwrap_or_else(|e| e.into_inner());
        let bytes: Vec<u8> = t.iter().copied().collect();
        let text = String::from_utf8_lossy(&bytes).trim().to_string();
        if text.is_empty() { "(no output on standard error)".to_string() } else { text }
    }
}

fn timed_out(name: String, timeout: Duration) -> TestVerdict {
    TestVerdict {
        name,
        passed: false,
        message: Some(format!("timed out after {} ms (the JVM was ended)", timeout.as_millis())),
        line: None,
    }
}

/// Parses one line of the runner's output; other lines are ignored.
fn parse_event(line: &str) -> Option<Event> {
    let line = line.trim_end_matches(['\n', '\r']);
    let rest = line.strip_prefix("#ferro\t")?;
    let fields: Vec<&str> = rest.split('\t').collect();
    Some(match fields[..] {
        ["READY"] => Event::Ready,
        ["DONE"] => Event::Done,
        ["START", name] => Event::Start(name.to_string()),
        ["TIMEOUT", name] => Event::Timeout(name.to_string()),
        ["ERROR", message] => Event::Error(unescape(message)),
        ["PASS", name] => {
            Event::Verdict(TestVerdict { name: name.to_string(), passed: true, message: None, line: None })
        }
        ["SKIP", name, why] => Event::Verdict(TestVerdict {
            name: name.to_string(),
            passed: true,
            message: Some(format!("skipped: {}", unescape(why))),
            line: None,
        }),
        ["FAIL", name, line, message] => Event::Verdict(TestVerdict {
            name: name.to_string(),
            passed: false,
            message: Some(unescape(message)),
            line: line.parse().ok(),
        }),
        _ => return None,
    })
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// Ends a JVM: waits up to `grace` for it to exit, then sends SIGTERM, so
/// shutdown hooks (JaCoCo's dump) run, then SIGKILL if it has not exited
/// within 3 s more.
fn end(child: &mut Child, grace: Duration) {
    if wait_or_kill_after(child, grace, false).is_some() {
        return;
    }
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if wait_or_kill(child, Duration::from_secs(3)).is_none() {
        tracing::warn!("the test JVM ignored SIGTERM; killed it");
    }
}

/// Waits up to `limit` for the child to exit; kills it after that (`None`).
fn wait_or_kill(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    wait_or_kill_after(child, limit, true)
}

fn wait_or_kill_after(child: &mut Child, limit: Duration, kill: bool) -> Option<std::process::ExitStatus> {
    let until = Instant::now() + limit;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(10)),
            _ => {
                if kill {
                    let _ = child.kill();
                    let _ = child.wait();
                }
                return None;
            }
        }
    }
}

/// Runs tests under the JaCoCo agent (Debian's `libjacoco-java` 0.8.6),
/// recording the class under test and its nested classes only.
#[derive(Debug, Clone)]
pub struct JacocoSetup {
    /// `jacocoagent.jar`, extracted from `org.jacoco.agent.jar` (a jar inside the jar).
    pub agent_jar: PathBuf,
    /// `FerroAgent`'s jar: strips `PermittedSubclasses` before JaCoCo sees a class.
    pub helper_agent_jar: PathBuf,
    /// The `.exec` file the agent appends to at JVM exit.
    pub exec_file: PathBuf,
    /// The class under test (binary name, `pkg.Outer`).
    pub cut: String,
}

impl JacocoSetup {
    /// Debian's agent (`/usr/share/java/org.jacoco.agent.jar`), writing to
    /// `exec_file`. Execution data is appended: delete the file first for a
    /// fresh measurement (two runs in two orders may share one file).
    ///
    /// # Errors
    /// When the agent jar is missing (install `libjacoco-java`) or cannot be
    /// extracted, or the helper agent cannot be built.
    pub fn new(jdk: &Jdk, exec_file: &Path, cut: &str) -> anyhow::Result<JacocoSetup> {
        JacocoSetup::with_agent_from(jdk, &Path::new(DEBIAN_JAVA_DIR).join("org.jacoco.agent.jar"), exec_file, cut)
    }

    /// Like [`JacocoSetup::new`] with another `org.jacoco.agent.jar` (the
    /// jar that holds `jacocoagent.jar`).
    ///
    /// # Errors
    /// As [`JacocoSetup::new`].
    pub fn with_agent_from(jdk: &Jdk, outer_jar: &Path, exec_file: &Path, cut: &str) -> anyhow::Result<JacocoSetup> {
        if !outer_jar.is_file() {
            bail!(
                "the JaCoCo agent {} is missing: install it with `apt-get install libjacoco-java`",
                outer_jar.display()
            );
        }
        let key = hash_parts(&[AGENT_SOURCE.as_bytes(), path_str(&jdk.home)?.as_bytes(), &file_stamp(outer_jar)?]);
        let dir = cached_build("agents", key, |dir| {
            run_tool(
                jdk,
                "jar",
                dir,
                &["--extract", "--file", path_str(outer_jar)?, "jacocoagent.jar"],
                "extracting jacocoagent.jar",
            )?;
            if !dir.join("jacocoagent.jar").is_file() {
                bail!("{} holds no jacocoagent.jar", outer_jar.display());
            }
            let classes = dir.join("ferroagent-classes");
            std::fs::create_dir_all(&classes)?;
            std::fs::write(dir.join("FerroAgent.java"), AGENT_SOURCE)?;
            javac_helper(jdk, &[dir.join("FerroAgent.java")], "", &classes)?;
            std::fs::write(dir.join("manifest.txt"), "Premain-Class: FerroAgent\n")?;
            run_tool(
                jdk,
                "jar",
                dir,
                &[
                    "--create",
                    "--file",
                    "ferroagent.jar",
                    "--manifest",
                    "manifest.txt",
                    "-C",
                    "ferroagent-classes",
                    ".",
                ],
                "packing FerroAgent",
            )
        })?;
        Ok(JacocoSetup {
            agent_jar: dir.join("jacocoagent.jar"),
            helper_agent_jar: dir.join("ferroagent.jar"),
            exec_file: exec_file.to_path_buf(),
            cut: cut.to_string(),
        })
    }

    /// The JVM options that load both agents (`exec_file` resolved against `cwd`).
    pub fn java_options(&self, cwd: &Path) -> Vec<String> {
        let exec = cwd.join(&self.exec_file);
        vec![
            format!("-javaagent:{}={}", self.helper_agent_jar.display(), self.cut),
            format!(
                "-javaagent:{}=destfile={},includes={}:{}$*,append=true,inclbootstrapclasses=false",
                self.agent_jar.display(),
                exec.display(),
                self.cut,
                self.cut
            ),
        ]
    }
}

/// JaCoCo's counters for a class under test and its nested classes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Coverage {
    pub lines_covered: u32,
    pub lines_total: u32,
    pub branches_covered: u32,
    pub branches_total: u32,
}

impl Coverage {
    /// Covered lines / total lines; `None` when there are no lines.
    pub fn line_ratio(&self) -> Option<f64> {
        ratio(self.lines_covered, self.lines_total)
    }

    /// Covered branches / total branches; `None` when there are no branches.
    pub fn branch_ratio(&self) -> Option<f64> {
        ratio(self.branches_covered, self.branches_total)
    }
}

fn ratio(covered: u32, total: u32) -> Option<f64> {
    (total > 0).then(|| f64::from(covered) / f64::from(total))
}

/// Line and branch coverage of `cut` and its nested classes from a JaCoCo
/// `.exec` file (a missing file counts as nothing executed), analysed
/// against `classes` (a class directory, a jar or a `.class` file: the same
/// class files that ran).
///
/// # Errors
/// When JaCoCo's jars are missing (the package is named), the class is not
/// in `classes`, or JaCoCo cannot analyse it.
pub fn jacoco_coverage(jdk: &Jdk, exec_file: &Path, classes: &Path, cut: &str) -> anyhow::Result<Coverage> {
    let tool_cp = coverage_tool(jdk)?;
    let output = Command::new(jdk.tool("java"))
        .args(["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", &tool_cp, "JacocoCoverage"])
        .args([exec_file, classes])
        .arg(cut)
        .stdin(Stdio::null())
        .output()
        .context("cannot run java")?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        bail!("JaCoCo could not measure {cut} ({}): {}", output.status, stderr.trim());
    }
    let total = stdout
        .lines()
        .find_map(|l| l.strip_prefix("TOTAL\t"))
        .with_context(|| format!("JaCoCo printed no total for {cut}: {}", stdout.trim()))?;
    let n: Vec<u32> = total.split('\t').map(str::parse).collect::<Result<_, _>>().context("JaCoCo's total")?;
    let [lines_covered, lines_total, branches_covered, branches_total, ..] = n[..] else {
        bail!("JaCoCo's total for {cut} is short: {total}");
    };
    Ok(Coverage { lines_covered, lines_total, branches_covered, branches_total })
}

/// The class path that runs `JacocoCoverage` (compiled on first use).
fn coverage_tool(jdk: &Jdk) -> anyhow::Result<String> {
    let mut jars = Vec::new();
    let mut parts = vec![COVERAGE_SOURCE.as_bytes().to_vec(), AGENT_SOURCE.as_bytes().to_vec()];
    parts.push(path_str(&jdk.home)?.as_bytes().to_vec());
    for (jar, package) in JACOCO_CORE_JARS {
        let path = Path::new(DEBIAN_JAVA_DIR).join(jar);
        if !path.is_file() {
            bail!("JaCoCo's report step needs {}: install it with `apt-get install {package}`", path.display());
        }
        parts.push(file_stamp(&path)?);
        jars.push(path);
    }
    let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    let jacoco_cp = join_paths(&jars);
    let dir = cached_build("jacoco-coverage", hash_parts(&refs), |dir| {
        std::fs::write(dir.join("JacocoCoverage.java"), COVERAGE_SOURCE)?;
        std::fs::write(dir.join("FerroAgent.java"), AGENT_SOURCE)?;
        javac_helper(jdk, &[dir.join("JacocoCoverage.java"), dir.join("FerroAgent.java")], &jacoco_cp, dir)
    })?;
    Ok(format!("{}:{jacoco_cp}", dir.display()))
}

/// The directory holding the compiled `FerroRunner` (compiled on first use).
fn runner_dir(jdk: &Jdk) -> anyhow::Result<PathBuf> {
    let key = hash_parts(&[RUNNER_SOURCE.as_bytes(), path_str(&jdk.home)?.as_bytes()]);
    cached_build("runner", key, |dir| {
        std::fs::write(dir.join("FerroRunner.java"), RUNNER_SOURCE)?;
        javac_helper(jdk, &[dir.join("FerroRunner.java")], "", dir)
    })
}

/// Compiles helper sources for Java 8 into `out`.
fn javac_helper(jdk: &Jdk, sources: &[PathBuf], class_path: &str, out: &Path) -> anyhow::Result<()> {
    let output = Command::new(jdk.tool("javac"))
        .args(JAVAC_JVM_OPTIONS)
        .args(["-J-Duser.language=en", "--release", "8", "-nowarn", "-Xlint:none", "-encoding", "UTF-8", "-d"])
        .arg(out)
        .args(["-cp", class_path])
        .args(sources)
        .stdin(Stdio::null())
        .output()
        .context("cannot run javac")?;
    if !output.status.success() {
        bail!("javac failed on ferrosuite's Java helper: {}", String::from_utf8_lossy(&output.stderr).trim());
    }
    Ok(())
}

fn run_tool(jdk: &Jdk, tool: &str, cwd: &Path, args: &[&str], what: &str) -> anyhow::Result<()> {
    let output = Command::new(jdk.tool(tool))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("cannot run {tool}"))?;
    if !output.status.success() {
        bail!("{what} failed: {}", String::from_utf8_lossy(&output.stderr).trim());
    }
    Ok(())
}

/// The cache root: `$FERROSUITE_CACHE_DIR`, else `ferrosuite-cache` in the temporary directory.
fn cache_root() -> PathBuf {
    std::env::var_os("FERROSUITE_CACHE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("ferrosuite-cache"))
}

/// A directory `ROOT/NAME-KEY` that `build` filled once. Builds happen in a
/// private directory that is renamed into place, so concurrent processes
/// never see a half-built one (the loser of a race drops its copy).
fn cached_build(name: &str, key: u64, build: impl FnOnce(&Path) -> anyhow::Result<()>) -> anyhow::Result<PathBuf> {
    let root = cache_root();
    let dir = root.join(format!("{name}-{key:016x}"));
    if dir.join(".complete").is_file() {
        return Ok(dir);
    }
    std::fs::create_dir_all(&root).with_context(|| format!("cannot create the cache {}", root.display()))?;
    let tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}-"))
        .tempdir_in(&root)
        .with_context(|| format!("cannot create a directory in {}", root.display()))?;
    build(tmp.path()).with_context(|| format!("building {name} in {}", root.display()))?;
    std::fs::write(tmp.path().join(".complete"), "")?;
    let built = tmp.keep();
    if std::fs::rename(&built, &dir).is_err() {
        let _ = std::fs::remove_dir_all(&built);
        if !dir.join(".complete").is_file() {
            bail!("cannot move {} to {}", built.display(), dir.display());
        }
    }
    Ok(dir)
}

/// FNV-1a over the parts (with their lengths, so parts cannot run together).
fn hash_parts(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for p in parts {
        eat(&(p.len() as u64).to_le_bytes());
        eat(p);
    }
    h
}

/// A file's path, size and modification time, to key caches built from it.
fn file_stamp(path: &Path) -> anyhow::Result<Vec<u8>> {
    let meta = std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    let modified = meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).unwrap_or_default();
    Ok(format!("{}\0{}\0{}", path.display(), meta.len(), modified.as_nanos()).into_bytes())
}

/// An argument file for `javac`/`java` (`@file`): every argument quoted.
fn argfile_text(args: &[String]) -> String {
    args.iter().map(|a| format!("\"{}\"\n", a.replace('\\', "\\\\").replace('"', "\\\""))).collect()
}

fn path_str(p: &Path) -> anyhow::Result<&str> {
    p.to_str().with_context(|| format!("path is not UTF-8: {}", p.display()))
}

fn join_paths(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(":")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn javac_errors_with_details_tabs_and_trailers() {
        let text = concat!(
            "sp/x/A.java:2: error: cannot find symbol\n",
            "public class A { int f() { return undefinedVar; }\n",
            "                                  ^\n",
            "  symbol:   variable undefinedVar\n",
            "  location: class A\n",
            "sp/x/A.java:4: error: cannot find symbol\n",
            "\tvoid t() {\tfoo(); }\n",
            "\t          \t^\n",
            "  symbol:   method foo()\n",
            "  location: class A\n",
            "sp/x/A.java:5: warning: [deprecation] stop() in Thread has been deprecated\n",
            "  Thread.currentThread().stop();\n",
            "                        ^\n",
            "sp/x/B.java:3: error: incompatible types: int cannot be converted to String\n",
            "  String s = 1;\n",
            "             ^\n",
            "Note: Some messages have been simplified; recompile with -Xdiags:verbose to get full output\n",
            "3 errors\n",
            "1 warning\n",
        );
        let errors = parse_javac_errors(text);
        assert_eq!(errors.len(), 3, "{errors:#?}");
        assert_eq!(errors[0].file, PathBuf::from("sp/x/A.java"));
        assert_eq!((errors[0].line, errors[0].column), (2, Some(35)));
        assert_eq!(errors[0].message, "cannot find symbol\nsymbol:   variable undefinedVar\nlocation: class A");
        assert_eq!((errors[1].line, errors[1].column), (4, Some(13)));
        assert_eq!(errors[2].message, "incompatible types: int cannot be converted to String");
        assert_eq!(errors[2].to_string(), "sp/x/B.java:3: incompatible types: int cannot be converted to String");
    }

    #[test]
    fn runner_events_round_trip_escapes() {
        let Some(Event::Verdict(v)) = parse_event("#ferro\tFAIL\ttestX\t12\ta\\tb\\nc\\\\d\n") else { panic!() };
        assert_eq!((v.name.as_str(), v.passed, v.line), ("testX", false, Some(12)));
        assert_eq!(v.message.as_deref(), Some("a\tb\nc\\d"));
        assert!(parse_event("hello #ferro\tDONE").is_none());
        assert!(matches!(
            parse_event("#ferro\tSKIP\tt\tignored"),
            Some(Event::Verdict(TestVerdict { passed: true, .. }))
        ));
    }
}
