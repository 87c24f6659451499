//! Creating the worker's JVM and attaching threads to it.

use std::path::{Path, PathBuf};

use jni::{InitArgsBuilder, JavaVM};

use crate::jni_raw::Jni;

/// Options for the worker's JVM.
#[derive(Debug, Clone)]
pub struct VmOptions {
    /// The JDK (or JRE) home; `lib/server/libjvm.so` is loaded from it.
    pub java_home: PathBuf,
    /// `-Djava.class.path`: instrumented classes and runtime first.
    pub class_path: String,
    /// `-Xmx` in megabytes.
    pub heap_mb: u32,
}

/// The path of `libjvm.so` in a Java home.
pub fn libjvm(java_home: &Path) -> PathBuf {
    java_home.join("lib/server/libjvm.so")
}

/// Creates the JVM (once per process).
///
/// # Errors
/// A message naming the libjvm path when the JVM cannot be created.
pub fn create(opts: &VmOptions) -> Result<JavaVM, String> {
    let lib = libjvm(&opts.java_home);
    if !lib.exists() {
        return Err(format!(
            "no JVM library at {}: set JAVA_HOME to a JDK 17 or install openjdk-17-jdk-headless",
            lib.display()
        ));
    }
    let args = InitArgsBuilder::new()
        .option(format!("-Djava.class.path={}", opts.class_path))
        .option(format!("-Xmx{}m", opts.heap_mb))
        .option("-XX:+UseSerialGC")
        .option("-XX:TieredStopAtLevel=1")
        .option("-XX:-UsePerfData")
        .option("-Xshare:auto")
        .option("-Djava.awt.headless=true")
        .option("-XX:+IgnoreUnrecognizedVMOptions")
        .build()
        .map_err(|e| format!("bad JVM options: {e}"))?;
    JavaVM::with_libjvm(args, || Ok(lib.clone()))
        .map_err(|e| format!("cannot create the JVM from {}: {e}", lib.display()))
}

/// Attaches the calling thread to `vm` as a daemon thread and returns its
/// JNI environment. The thread stays attached until it ends.
///
/// # Errors
/// A message when the JVM refuses the attachment.
pub fn attach_daemon(vm: &JavaVM) -> Result<Jni, String> {
    let raw = vm.get_raw();
    let mut env: *mut std::ffi::c_void = std::ptr::null_mut();
    // SAFETY: `raw` is the live JavaVM of this process; the out pointer is valid.
    let rc = unsafe { ((**raw).v1_4.AttachCurrentThreadAsDaemon)(raw, &mut env, std::ptr::null_mut()) };
    if rc != 0 || env.is_null() {
        return Err(format!("cannot attach a thread to the JVM (code {rc})"));
    }
    // SAFETY: the JVM just returned this thread's environment.
    Ok(unsafe { Jni::from_raw(env.cast()) })
}

/// The JDK for workers: `$JAVA_HOME` if it has a JVM library, else
/// Debian's JDK 17.
///
/// # Errors
/// A message that says how to install or point to a JDK.
pub fn find_java_home() -> Result<PathBuf, String> {
    let candidates = std::env::var_os("JAVA_HOME").map(PathBuf::from).into_iter();
    for home in candidates.chain([PathBuf::from(model::jdk::DEBIAN_JDK17)]) {
        if libjvm(&home).exists() {
            return Ok(home);
        }
    }
    Err("no JDK found: set JAVA_HOME to a JDK 17 or install it with `apt-get install openjdk-17-jdk-headless`".into())
}
