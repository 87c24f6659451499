//! Creating the worker's JVM and attaching threads to it.

use std::path::PathBuf;

use jni::errors::StartJvmError;
use jni::{InitArgsBuilder, JavaVM, JvmError};

use crate::jni_raw::Jni;

/// Why the worker's JVM could not be created or used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VmError {
    /// The Java home has no `lib/server/libjvm.so`.
    #[error("no JVM library at {}: set JAVA_HOME to a JDK 17 or install openjdk-17-jdk-headless", libjvm.display())]
    NoLibjvm {
        /// The path looked for.
        libjvm: PathBuf,
    },
    /// The JVM options cannot be passed to the JVM (one contains a NUL character).
    #[error("bad JVM options: {0}")]
    Options(JvmError),
    /// `JNI_CreateJavaVM` failed, or `libjvm.so` could not be loaded.
    #[error("cannot create the JVM from {}: {source}", libjvm.display())]
    Create {
        /// The `libjvm.so` used.
        libjvm: PathBuf,
        /// What the JNI invocation API reported.
        source: StartJvmError,
    },
    /// `AttachCurrentThreadAsDaemon` failed.
    #[error("cannot attach a thread to the JVM (code {code})")]
    Attach {
        /// The JNI error code (`JNI_ERR`, `JNI_ENOMEM`, ...).
        code: i32,
    },
    /// A JDK class or a class of the ferrosuite runtime (`ferrosuite/runtime/Tracer`,
    /// `Sandbox`), or one of their members, could not be found: the runtime is not
    /// on the worker's class path, or is of another version.
    #[error("cannot resolve the JDK and ferrosuite runtime classes (is the runtime on the class path?)")]
    Runtime,
}

/// Options for the worker's JVM.
#[derive(Debug, Clone)]
pub struct VmOptions {
    /// The JDK (or JRE) home; `lib/server/libjvm.so` is loaded from it.
    pub java_home: PathBuf,
    /// `-Djava.class.path`: instrumented classes and runtime first.
    pub class_path: String,
    /// `-Xmx` in megabytes.
    pub heap_mb: u32,
    /// The runtime's environment (`-Dferrosuite.environment`).
    pub environment: crate::environment::Environment,
    /// `-Djava.io.tmpdir`: the worker's own working folder, the one place
    /// the sandbox lets it write.
    pub tmp_dir: PathBuf,
}

/// The path of `libjvm.so` in a Java home (`model::jdk` finds the JDK).
pub use model::jdk::libjvm;

/// Creates the JVM (once per process).
///
/// # Errors
/// [`VmError::NoLibjvm`], [`VmError::Options`] or [`VmError::Create`],
/// naming the `libjvm.so` path, when the JVM cannot be created.
pub fn create(opts: &VmOptions) -> Result<JavaVM, VmError> {
    let lib = libjvm(&opts.java_home);
    if !lib.exists() {
        return Err(VmError::NoLibjvm { libjvm: lib });
    }
    let mut builder = InitArgsBuilder::new()
        .option(format!("-Djava.class.path={}", opts.class_path))
        .option(format!("-Xmx{}m", opts.heap_mb));
    for option in opts.environment.jvm_options() {
        builder = builder.option(option);
    }
    let args = builder
        .option(format!("-Djava.io.tmpdir={}", opts.tmp_dir.display()))
        .option("-XX:+UseSerialGC")
        .option("-XX:TieredStopAtLevel=1")
        .option("-XX:-UsePerfData")
        .option("-Xshare:auto")
        .option("-Djava.awt.headless=true")
        // Assertions enabled, as Maven Surefire and Gradle run tests: a test
        // that trips an `assert` of the class under test is seen tripping it
        // (and cut before that statement, `generate::endings`).
        .option("-ea")
        .option("-XX:+IgnoreUnrecognizedVMOptions")
        .build()
        .map_err(VmError::Options)?;
    JavaVM::with_libjvm(args, || Ok(lib.clone())).map_err(|source| VmError::Create { libjvm: lib.clone(), source })
}

/// Attaches the calling thread to `vm` as a daemon thread and returns its
/// JNI environment. The thread stays attached until it ends.
///
/// # Errors
/// [`VmError::Attach`] when the JVM refuses the attachment.
pub fn attach_daemon(vm: &JavaVM) -> Result<Jni, VmError> {
    Jni::attach_current_thread_as_daemon(vm).map_err(|code| VmError::Attach { code })
}
