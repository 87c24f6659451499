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
//!
//! The test JVMs run in a scratch working directory with no standard input
//! and are ended (SIGTERM, then SIGKILL) when their time is up.
//! Every fallible function returns [`Error`]; a test that fails, hangs or
//! ends its JVM is a [`TestVerdict`], and javac's errors in a test source
//! are [`CompileError`]s, not errors.
//!
//! # Modules
//!
//! One module per job; everything public is re-exported here.
//!
//! - `junit_jars`: the JUnit 4 and 5 jar sets ([`JunitJars`]), from Debian
//!   ([`DEBIAN_JAVA_DIR`]) or a user-given class path.
//! - `javac`: compiling tests ([`compile_tests`], [`compile_tests_until`]
//!   with a deadline) and parsing javac's errors
//!   ([`parse_javac_errors`], [`CompileError`]).
//! - `runner`: JUnit runs in batches, one JVM each ([`run_tests`],
//!   [`TestVerdict`]; [`TestRun`] adds a deadline for the whole run and
//!   isolation: each test in a class loader of its own).
//! - `protocol`: the runner's line protocol (its events).
//! - `main_run`: a program's `main` class run once, confined, until a
//!   deadline ([`run_main`]; Palus's sample runs of a main class).
//! - `process`: child JVMs: the end of their standard error, waiting with a
//!   limit, ending them.
//! - `jacoco`: the JaCoCo agent setup ([`JacocoSetup`]) and the report step
//!   ([`jacoco_coverage`], [`Coverage`], [`jacoco_covered_lines`]).
//! - `cache`: the build cache for the helper programs from `tools/java/`
//!   (keys from hashes and file stamps, the javac and jar build steps).
//! - `tools`: single JDK tool runs ([`javac`], [`java_with_input`],
//!   [`JavaOutput`]).
//! - `command`: command lines: argument files, class paths, paths as text.
//! - `confine`: test JVMs started through a launcher that applies the
//!   kernel sandbox ([`Confiner`]).
//! - `error`: the crate's [`Error`].
//!
//! # Example
//!
//! ```no_run
//! use std::path::{Path, PathBuf};
//! use std::time::Duration;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let jdk = javarun::Jdk::find()?;
//! let junit = javarun::JunitJars::debian(4)?;
//! let cp = format!("classes:{}", junit.compile_class_path());
//! let sources = [PathBuf::from("test/p/ATest.java")];
//! if let Err(errors) = javarun::compile_tests(&jdk, &sources, &cp, Path::new("test-classes"), Some(8))? {
//!     for e in errors {
//!         eprintln!("{e}");
//!     }
//!     return Ok(());
//! }
//! let order = ["testOne".to_string(), "testTwo".to_string()];
//! let test_classes = Path::new("test-classes");
//! let timeout = Duration::from_secs(10);
//! for verdict in javarun::run_tests(&jdk, test_classes, "classes", "p.ATest", &order, &junit, None, timeout, None)? {
//!     println!("{} {}", verdict.name, if verdict.passed { "passed" } else { "failed" });
//! }
//! # Ok(())
//! # }
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod cache;
mod command;
mod confine;
mod error;
mod jacoco;
mod javac;
mod junit_jars;
mod main_run;
mod process;
mod protocol;
mod runner;
mod tools;

pub use confine::Confiner;
pub use error::Error;
pub use jacoco::{Coverage, JacocoRelease, JacocoSetup, MODERN_JACOCO_DIR, jacoco_coverage, jacoco_covered_lines};
pub use javac::{CompileError, compile_tests, compile_tests_until, parse_javac_errors};
pub use junit_jars::{DEBIAN_JAVA_DIR, JunitJars, MOCKITO_JARS};
pub use main_run::{MainOutcome, run_main};
pub use model::jdk::Jdk;
pub use protocol::unescape;
pub use runner::{JvmExtras, TestRun, TestVerdict, run_tests};
pub use tools::{JavaOutput, java_with_input, javac};
