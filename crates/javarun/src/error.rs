//! The crate's error type.
//!
//! Every message reads as the binary has always printed it: where a step
//! wraps an inner failure, the variant's message is the outer text and the
//! inner error is its [`source`](std::error::Error::source), so a chain
//! printed with anyhow's `{:#}` reads "outer: inner".
//! Messages that already hold the whole story (a tool's output, the JVM's
//! standard error) have no `source`.

use std::io;
use std::num::ParseIntError;
use std::path::PathBuf;
use std::process::ExitStatus;

/// A failure to compile, run or measure Java code.
///
/// Failures of the code under test are not errors: a test that fails, hangs
/// or ends the JVM gets a failing [`TestVerdict`](crate::TestVerdict), and
/// javac's errors in a test source are [`CompileError`](crate::CompileError)s.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A JUnit version other than 4 or 5 was asked for.
    #[error("unsupported JUnit version {version}: expected 4 or 5")]
    UnsupportedJunitVersion {
        /// The version asked for.
        version: u8,
    },
    /// A Debian JUnit jar is missing.
    #[error(
        "JUnit {version} needs {}, which is missing: install it with `apt-get install {package}`, \
         or give JUnit's jars with --junit-classpath",
        .jar.display()
    )]
    MissingJunitJar {
        /// The JUnit version (4 or 5).
        version: u8,
        /// The jar's expected path.
        jar: PathBuf,
        /// The Debian package that installs it.
        package: &'static str,
    },
    /// A user-given JUnit class path (`--junit-classpath`) has no entries.
    #[error("the JUnit class path is empty")]
    EmptyJunitClassPath,
    /// An entry of a user-given JUnit class path does not exist.
    #[error("JUnit class-path entry {} does not exist", .entry.display())]
    MissingJunitClassPathEntry {
        /// The entry.
        entry: PathBuf,
    },
    /// The JaCoCo agent's jar (`org.jacoco.agent.jar`) is missing.
    #[error("the JaCoCo agent {} is missing: install it with {install}", .jar.display())]
    MissingJacocoAgent {
        /// The jar's expected path.
        jar: PathBuf,
        /// The command that installs it (`` `apt-get install libjacoco-java` ``).
        install: &'static str,
    },
    /// A jar that JaCoCo's report step needs (its core or ASM) is missing.
    #[error("JaCoCo's report step needs {}: install it with {install}", .jar.display())]
    MissingJacocoJar {
        /// The jar's expected path.
        jar: PathBuf,
        /// The command that installs it.
        install: &'static str,
    },
    /// A JDK tool could not be started.
    #[error("cannot run {tool}")]
    Spawn {
        /// The tool (`javac`, `java`, `jar`).
        tool: String,
        /// Why it could not be started.
        #[source]
        source: io::Error,
    },
    /// Waiting for a JDK tool to exit failed.
    #[error("cannot wait for {tool}")]
    Wait {
        /// The tool.
        tool: String,
        /// Why waiting failed.
        #[source]
        source: io::Error,
    },
    /// [`compile_tests`](crate::compile_tests) was given no sources.
    #[error("no test sources to compile")]
    NoTestSources,
    /// javac failed without naming a source line (a bad option, a missing
    /// file, a crash).
    #[error("javac failed ({status}): {output}")]
    JavacFailed {
        /// javac's exit status.
        status: ExitStatus,
        /// javac's standard error and output, trimmed.
        output: String,
    },
    /// [`compile_tests_until`](crate::compile_tests_until) killed javac at its deadline.
    #[error("javac did not finish before its deadline and was killed")]
    JavacStopped,
    /// [`javac`](crate::javac) failed on a source file.
    #[error("javac failed on {}: {output}", .file.display())]
    JavacFailedOn {
        /// The source file.
        file: PathBuf,
        /// javac's standard error.
        output: String,
    },
    /// javac failed on one of the crate's own Java helpers (`tools/java/`).
    #[error("javac failed on ferrosuite's Java helper: {output}")]
    HelperJavacFailed {
        /// javac's standard error, trimmed.
        output: String,
    },
    /// A `jar` step of building a helper failed.
    #[error("{step} failed: {output}")]
    JarToolFailed {
        /// The step (`extracting jacocoagent.jar`, `packing FerroAgent`).
        step: String,
        /// The tool's standard error, trimmed.
        output: String,
    },
    /// A test method name cannot be passed to the runner.
    #[error("not a test method name: {name:?}")]
    BadTestName {
        /// The name.
        name: String,
    },
    /// The runner reported that it cannot run the tests (the test class or
    /// JUnit is not on the class path, for instance).
    #[error("the test runner failed: {message}")]
    RunnerFailed {
        /// The runner's complaint.
        message: String,
    },
    /// The test JVM hung before its first test or between two tests.
    #[error(
        "the test JVM hung {} for {seconds} s and was killed: {stderr}",
        hang_phase(.between_tests)
    )]
    JvmHung {
        /// True when it hung after a test's verdict, false before its first test.
        between_tests: bool,
        /// How long it was given.
        seconds: u64,
        /// The end of its standard error.
        stderr: String,
    },
    /// The test JVM exited before running any test.
    #[error("the test JVM ended ({}) before running a test: {stderr}", status_text(.status))]
    JvmEnded {
        /// Its exit status; `None` when it was killed.
        status: Option<ExitStatus>,
        /// The end of its standard error.
        stderr: String,
    },
    /// A new test JVM ended without a verdict on the next test.
    #[error("the test JVM ended without running {test}")]
    JvmEndedWithoutRunning {
        /// The test it should have run first.
        test: String,
    },
    /// JaCoCo's report step exited with an error.
    #[error("JaCoCo could not measure {cut} ({status}): {stderr}")]
    JacocoFailed {
        /// The class under test.
        cut: model::names::BinaryName,
        /// The step's exit status.
        status: ExitStatus,
        /// Its standard error, trimmed.
        stderr: String,
    },
    /// JaCoCo's report step printed no `TOTAL` line.
    #[error("JaCoCo printed no total for {cut}: {stdout}")]
    JacocoNoTotal {
        /// The class under test.
        cut: model::names::BinaryName,
        /// What it printed, trimmed.
        stdout: String,
    },
    /// A count on JaCoCo's `TOTAL` line is not a number.
    #[error("JaCoCo's total")]
    JacocoBadTotal {
        /// The parse error.
        #[source]
        source: ParseIntError,
    },
    /// JaCoCo's `TOTAL` line has fewer than four counts.
    #[error("JaCoCo's total for {cut} is short: {total}")]
    JacocoShortTotal {
        /// The class under test.
        cut: model::names::BinaryName,
        /// The counts after `TOTAL`.
        total: String,
    },
    /// An `org.jacoco.agent.jar` holds no `jacocoagent.jar`.
    #[error("{} holds no jacocoagent.jar", .jar.display())]
    NoAgentInJar {
        /// The outer jar.
        jar: PathBuf,
    },
    /// A directory could not be created.
    #[error("cannot create {}", .path.display())]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// A temporary directory for javac's argument file could not be created.
    #[error("cannot create a temporary directory")]
    TempDir {
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The test JVM's scratch working directory could not be created.
    #[error("cannot create a scratch directory for the test JVM")]
    ScratchDir {
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The current working directory could not be read.
    #[error("cannot read the working directory")]
    CurrentDir {
        /// Why.
        #[source]
        source: io::Error,
    },
    /// A file could not be written, or a directory created, inside a
    /// directory the crate made itself (an argument file, a helper's build).
    ///
    /// The message is the I/O error's alone, as it always was; `path`
    /// names the file. There is no `source`, so `{:#}` does not repeat it.
    #[error("{error}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// A file's metadata (to key the build cache) could not be read.
    #[error("cannot read {}", .path.display())]
    Metadata {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// A path that must be passed as text is not UTF-8.
    #[error("path is not UTF-8: {}", .path.display())]
    NonUtf8Path {
        /// The path.
        path: PathBuf,
    },
    /// The build cache's root directory could not be created.
    #[error("cannot create the cache {}", .root.display())]
    CreateCache {
        /// The cache root.
        root: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// A private build directory in the cache could not be created.
    #[error("cannot create a directory in {}", .root.display())]
    CreateBuildDir {
        /// The cache root.
        root: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// Building a helper into the cache failed.
    #[error("building {name} in {}", .root.display())]
    CacheBuild {
        /// What was built (`runner`, `agents`, `jacoco-coverage`).
        name: String,
        /// The cache root.
        root: PathBuf,
        /// The step that failed.
        #[source]
        source: Box<Error>,
    },
    /// A finished build could not be moved into place, and no other process
    /// has put one there.
    #[error("cannot move {} to {}", .from.display(), .to.display())]
    CacheRename {
        /// The private build directory.
        from: PathBuf,
        /// The cache entry.
        to: PathBuf,
    },
}

/// The crate's result type.
pub(crate) type Result<T, E = Error> = std::result::Result<T, E>;

fn hang_phase(between_tests: &bool) -> &'static str {
    if *between_tests { "between two tests" } else { "before its first test" }
}

/// An exit status as the messages print it: `killed` when there is none.
pub(crate) fn status_text(status: &Option<ExitStatus>) -> String {
    status.map_or_else(|| "killed".to_string(), |s| s.to_string())
}

impl Error {
    /// The error for writing `path`.
    pub(crate) fn write(path: &std::path::Path) -> impl FnOnce(io::Error) -> Error + '_ {
        move |error| Error::Write { path: path.to_path_buf(), error }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error and its sources as anyhow's `{:#}` prints them.
    fn chain(e: &dyn std::error::Error) -> String {
        let mut text = e.to_string();
        let mut source = e.source();
        while let Some(s) = source {
            text += &format!(": {s}");
            source = s.source();
        }
        text
    }

    #[test]
    fn a_wrapped_step_reads_outer_then_inner() {
        let io = || io::Error::from(io::ErrorKind::NotFound);
        let write = Error::Write { path: "/c/x/FerroRunner.java".into(), error: io() };
        let e = Error::CacheBuild { name: "runner".into(), root: "/c".into(), source: Box::new(write) };
        assert_eq!(chain(&e), format!("building runner in /c: {}", io()));
        let e = Error::Spawn { tool: "javac".into(), source: io() };
        assert_eq!(chain(&e), format!("cannot run javac: {}", io()));
    }

    #[test]
    fn jvm_messages_name_the_phase_and_status() {
        let hung = Error::JvmHung { between_tests: true, seconds: 60, stderr: "x".into() };
        assert_eq!(hung.to_string(), "the test JVM hung between two tests for 60 s and was killed: x");
        let hung = Error::JvmHung { between_tests: false, seconds: 60, stderr: "x".into() };
        assert_eq!(hung.to_string(), "the test JVM hung before its first test for 60 s and was killed: x");
        let ended = Error::JvmEnded { status: None, stderr: "y".into() };
        assert_eq!(ended.to_string(), "the test JVM ended (killed) before running a test: y");
    }
}
