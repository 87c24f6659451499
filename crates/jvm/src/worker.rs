//! The worker process: hosts one JVM and executes the test cases the
//! orchestrator sends over stdin, answering on a private copy of stdout.
//!
//! File descriptor 1 is redirected to stderr at start, so nothing the JVM
//! or the class under test prints natively can corrupt the protocol; the
//! class under test's `System.out`/`System.err` go to bounded buffers
//! (`Sandbox.install`) and come back in each result.

use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::os::fd::FromRawFd;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use crate::handles::Handles;
use crate::jni_raw::{Jni, Kind, jvalue};
use crate::protocol::{FrameError, Request, Response, read_frame, write_frame};
use crate::runner::Runner;
use crate::vm::{self, VmError, VmOptions};
use crate::watchdog::{self, Watch};

/// Why a worker stopped serving: it reports this to the orchestrator in a
/// [`Response::Fatal`] and exits with code 1.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WorkerError {
    /// The JVM could not be created, attached to, or set up.
    #[error(transparent)]
    Vm(#[from] VmError),
    /// `Thread.currentThread()` failed on the executing thread.
    #[error("cannot get the executing thread")]
    CurrentThread,
    /// The watchdog thread could not be spawned.
    #[error("cannot start the watchdog thread: {0}")]
    Watchdog(std::io::Error),
    /// Reading a request or writing a response failed.
    #[error(transparent)]
    Frame(#[from] FrameError),
}

/// Stack size of the thread that runs tests: deep recursion in the class
/// under test ends in a `StackOverflowError`, not a crash, and quickly
/// enough (16 MB is 16 times the JVM's default thread stack).
const EXEC_STACK: usize = 16 << 20;

/// Worker settings, from the hidden `ferrosuite worker` command line.
#[derive(Debug, Clone)]
pub struct WorkerArgs {
    /// The JDK home whose `lib/server/libjvm.so` the worker loads.
    pub java_home: PathBuf,
    /// The JVM's class path (`-Djava.class.path`): runtime and instrumented classes first.
    pub class_path: String,
    /// The JVM's heap limit (`-Xmx`), in megabytes.
    pub heap_mb: u32,
    /// The environment the class under test sees.
    pub environment: crate::environment::Environment,
}

/// The subfolder of the worker's working folder that is its
/// `java.io.tmpdir` and the one place the class under test may write.
pub const TMP_SUBFOLDER: &str = "tmp";

/// Runs the worker until stdin closes or a `Shutdown` arrives; returns the
/// process exit code.
pub fn main(args: WorkerArgs) -> i32 {
    let proto = protect_stdout();
    // Before any other thread starts: the threads started later (the JVM's
    // included) inherit the confinement.
    let work_dir = std::env::current_dir().unwrap_or_else(|_| std::env::temp_dir());
    // The class under test writes only in `java.io.tmpdir`, a subfolder:
    // files it writes under relative paths would land in the working
    // directory of whoever runs the emitted tests, so those are refused.
    let tmp_dir = work_dir.join(TMP_SUBFOLDER);
    let _ = std::fs::create_dir_all(&tmp_dir);
    let confinement = crate::sandbox::confine(&tmp_dir);
    let handle = std::thread::Builder::new().name("ferrosuite-exec".into()).stack_size(EXEC_STACK).spawn(move || {
        let mut out = BufWriter::new(proto);
        match serve(&args, &tmp_dir, confinement, &mut out) {
            Ok(()) => 0,
            Err(err) => {
                let message = err.to_string();
                let _ = write_frame(&mut out, &Response::Fatal { message: message.clone() });
                eprintln!("worker: {message}");
                1
            }
        }
    });
    let code = handle.map(|h| h.join().unwrap_or(101)).unwrap_or(102);
    // Do not wait for threads the class under test left running.
    std::process::exit(code)
}

/// Moves the protocol channel off fd 1: returns a private duplicate of
/// stdout and points fd 1 at stderr.
fn protect_stdout() -> File {
    // SAFETY: plain fd duplication on descriptors this process owns; the
    // duplicate is owned by the returned File only.
    unsafe {
        let fd = libc::dup(1);
        libc::dup2(2, 1);
        File::from_raw_fd(fd)
    }
}

fn serve(
    args: &WorkerArgs,
    tmp_dir: &std::path::Path,
    confinement: crate::sandbox::Confinement,
    out: &mut BufWriter<File>,
) -> Result<(), WorkerError> {
    let started = Instant::now();
    let opts = VmOptions {
        java_home: args.java_home.clone(),
        class_path: args.class_path.clone(),
        heap_mb: args.heap_mb,
        environment: args.environment,
        tmp_dir: tmp_dir.to_path_buf(),
    };
    let vm = vm::create(&opts)?;
    let jni = vm::attach_daemon(&vm)?;
    let handles = Handles::new(jni)?;
    let known = handles.known;
    let me = jni.call_static_object(known.thread, known.thread_current, &[]).map_err(|_| WorkerError::CurrentThread)?;
    let me = jni.global_ref(me);
    let watch = Arc::new(Watch::default());
    spawn_watchdog(vm.clone(), watch.clone(), known, me as usize)?;
    warm_mockito(jni);
    warm_temp_files(jni);
    let mut installed = 0usize;
    let ready = Response::Ready { startup_micros: started.elapsed().as_micros() as u64, confinement };
    write_frame(out, &ready)?;
    let mut runner = Runner::new(jni, handles, watch);
    let mut input = BufReader::new(std::io::stdin().lock());
    loop {
        match read_frame::<_, Request>(&mut input)? {
            Some(Request::Execute { seq, test, config }) => {
                if config.max_output != installed {
                    install_capture(jni, &known, config.max_output);
                    installed = config.max_output;
                }
                let result = runner.run(seq, &test, &config);
                let result = Box::new(result);
                let response = match runner.take_poisoned() {
                    Some(reason) => Response::Poisoned { seq, reason, result },
                    None => Response::Result { seq, result },
                };
                write_frame(out, &response)?;
                empty_folder(tmp_dir);
            }
            Some(Request::Shutdown) | None => return Ok(()),
        }
    }
}

/// Removes what a test left in the worker's `java.io.tmpdir`: each test
/// starts with an empty folder (a file an earlier test made does not change
/// its outcome), and files do not pile up over thousands of executions.
fn empty_folder(dir: &std::path::Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        let _ = if is_dir { std::fs::remove_dir_all(&path) } else { std::fs::remove_file(&path) };
    }
}

/// `Mocks.warm()`: Mockito's start, when it is on the class path, before the
/// first test (ignored when the runtime has no such method).
fn warm_mockito(jni: Jni) {
    use instrument::tracer::MOCKS_WARM;
    let Ok(class) = jni.find_class(MOCKS_WARM.owner) else { return };
    let Ok(method) = jni.method_id(class, MOCKS_WARM.name, MOCKS_WARM.descriptor, true) else { return };
    let _ = jni.call_static(class, method, Kind::Void, &[]);
}

/// Makes and deletes one temporary file, as a `TempFile` statement does,
/// before the first test: the JDK's first one seeds a `SecureRandom`
/// (hundreds of milliseconds cold), which would time a test out and leave
/// the JDK classes whose initialisers the watchdog stopped erroneous.
fn warm_temp_files(jni: Jni) {
    let Ok(file) = jni.find_class("java/io/File") else { return };
    let desc = "(Ljava/lang/String;Ljava/lang/String;)Ljava/io/File;";
    let Ok(create) = jni.method_id(file, "createTempFile", desc, true) else { return };
    let Ok(delete) = jni.method_id(file, "delete", "()Z", false) else { return };
    let text = |s: &str| jni.new_string(&s.encode_utf16().collect::<Vec<_>>());
    let (Ok(prefix), Ok(suffix)) = (text("ferrosuite"), text(".tmp")) else { return };
    if let Ok(made) = jni.call_static_object(file, create, &[jvalue { l: prefix }, jvalue { l: suffix }]) {
        let _ = jni.call_method(made, delete, Kind::Boolean, &[]);
    }
    let _ = jni.take_exception();
}

fn install_capture(jni: Jni, known: &crate::handles::Known, max_output: usize) {
    let max = jvalue { i: i32::try_from(max_output).unwrap_or(i32::MAX) };
    let _ = jni.call_static(known.sandbox, known.sandbox_install, Kind::Void, &[max]);
}

/// Starts the watchdog on its own attached thread. `target` is the global
/// reference of the executing `java.lang.Thread`, passed as an address.
fn spawn_watchdog(
    vm: jni::JavaVM,
    watch: Arc<Watch>,
    known: crate::handles::Known,
    target: usize,
) -> Result<(), WorkerError> {
    std::thread::Builder::new()
        .name("ferrosuite-watchdog".into())
        .spawn(move || match vm::attach_daemon(&vm) {
            Ok(jni) => {
                let jvmti = crate::jvmti::Jvmti::with_signal_thread(&vm);
                watchdog::run(&watch, jni, known, target as crate::jni_raw::jobject, jvmti)
            }
            Err(e) => eprintln!("worker: watchdog: {e}"),
        })
        .map(|_| ())
        .map_err(WorkerError::Watchdog)
}
