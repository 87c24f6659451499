//! The errors of a `generate` run. Failures of the class under test are not
//! errors (they are data in the executor's results); these are failures of
//! the input or of the environment, reported per class in `report.json`.

use std::path::PathBuf;

/// Why generation for a class (or the whole run) could not go on.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The class path cannot be opened, or a class is not on it or cannot be read.
    #[error(transparent)]
    ClassPath(#[from] model::classpath::ClassPathError),
    /// The class file is newer than the JDK that would run it.
    #[error(
        "{class} is a {java} class file (version {major}); the JDK at {} ({jdk}) cannot run it: choose a JDK {min} or newer with --java-home or JAVA_HOME",
        home.display(),
        java = model::classfile::java_release(*major),
        min = major - 44
    )]
    JdkTooOld {
        /// Binary name of the class under test.
        class: model::names::BinaryName,
        /// Its class-file major version.
        major: u16,
        /// The JDK's home.
        home: PathBuf,
        /// The JDK's version (`Java 17`).
        jdk: String,
    },
    /// The selection (`--class`, `--package`, `--jar`) names no class.
    #[error("no class to test was found for the given --class/--package/--jar")]
    NoClassSelected,
    /// The class under test cannot be analysed (goals).
    #[error("cannot analyse {class}")]
    Analysis {
        /// Binary name of the class under test.
        class: model::names::BinaryName,
        /// What the analysis rejected.
        #[source]
        source: analysis::AnalysisError,
    },
    /// The class under test could not be instrumented.
    #[error("the class could not be instrumented: {reason}")]
    NotInstrumented {
        /// Why, as the instrumenter said.
        reason: String,
    },
    /// `work_dir` is inside `out`, which must hold only what a build compiles.
    #[error("the working folder {} is inside the output folder {}: the output folder holds only test sources and report.json", work_dir.display(), out.display())]
    WorkDirInsideOut {
        /// The working folder.
        work_dir: PathBuf,
        /// The output folder.
        out: PathBuf,
    },
    /// Instrumenting for coverage or for mutants failed.
    #[error(transparent)]
    Instrument(#[from] instrument::InstrumentError),
    /// The instrumented classes could not be written.
    #[error(transparent)]
    InstrumentBatch(#[from] instrument::batch::BatchError),
    /// The worker JVMs failed (not the class under test: the pool itself).
    #[error(transparent)]
    Exec(#[from] exec::ExecError),
    /// The test cluster of the class under test cannot be built.
    #[error(transparent)]
    Cluster(#[from] testcase::cluster::ClusterError),
    /// javac, JUnit or JaCoCo could not run.
    #[error(transparent)]
    JavaRun(#[from] javarun::Error),
    /// The emitted tests do not compile and javac names no line inside a test.
    #[error("the emitted tests do not compile: {first_error:?}")]
    DoesNotCompile {
        /// javac's first message, if any.
        first_error: Option<String>,
    },
    /// A file or folder of the output could not be written.
    #[error("cannot {action} {}", path.display())]
    Io {
        /// What was being done: `create`, `write`.
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}

impl GenerateError {
    /// An [`GenerateError::Io`] for `action` on `path`.
    pub fn io(action: &'static str, path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> GenerateError {
        let path = path.into();
        move |source| GenerateError::Io { action, path, source }
    }

    /// Whether the input is at fault (the class path, the selection, the
    /// class under test's bytes) rather than ferrosuite or its environment.
    pub fn is_input(&self) -> bool {
        matches!(
            self,
            GenerateError::ClassPath(_)
                | GenerateError::NoClassSelected
                | GenerateError::Analysis { .. }
                | GenerateError::WorkDirInsideOut { .. }
        )
    }

    /// The error and its sources on one line, `outer: inner: ...` (as
    /// `anyhow` prints `{:#}`).
    pub fn chain_text(&self) -> String {
        let mut text = self.to_string();
        let mut source = std::error::Error::source(self);
        while let Some(s) = source {
            let s_text = s.to_string();
            if !text.ends_with(&s_text) {
                text = format!("{text}: {s_text}");
            }
            source = s.source();
        }
        text.split('\n').map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ")
    }
}
