//! The JVM-backed executor.
//!
//! Brief overview: a [`pool::Pool`] implements [`exec::Executor`] with
//! worker processes; each is the `ferrosuite` binary in its hidden worker
//! mode ([`worker::main`]), hosting one JVM through JNI. The orchestrator
//! and a worker talk in length-prefixed `postcard` frames ([`protocol`]).
//!
//! Modules:
//! - [`pool`]: worker processes, time limits, restart, the pool.
//! - `dispatch`: how a batch's tests are dealt to the workers (a fixed
//!   share each, or one queue).
//! - [`protocol`]: requests, responses, framing.
//! - [`worker`]: the worker process's main loop.
//! - [`environment`]: the seed of the deterministic clock, random
//!   numbers and identity hashes a worker gives the class under test.
//! - [`sandbox`]: the kernel sandbox of a worker (Landlock for files and
//!   TCP, seccomp for `execve`), applied before its JVM starts.
//! - `vm`: creating the JVM, attaching threads ([`VmError`]); the JDK itself is found by `model::jdk`.
//! - `jni_raw`: calls through the JNI function table, and JNI values
//!   whose kind is known, so that reading them needs no `unsafe`.
//! - `handles`: cached classes and member ids.
//! - `runner`: executing one test case statement by statement.
//! - `value_log`: decoding TARDIS's value log of a test (`ValueLog.java`).
//! - `watchdog`: the per-test time limit inside the worker.
//! - `jvmti`: JVM TI's `StopThread`, the watchdog's stop on JDK 20+.
//!
//! Code that can crash runs in the worker process, never in the orchestrator.
//!
//! `unsafe` code is in five modules, each block with a `// SAFETY:` comment:
//! - `jni_raw`: every JNI call (through the function table, attaching a
//!   thread) and the reads of the `jvalue` union;
//! - `handles`: `Send` for the table of well-known classes and member ids,
//!   which JNI defines as valid on every thread, so the watchdog can use it;
//! - [`worker`]: duplicating file descriptors (`dup`, `dup2`) to move the
//!   protocol channel off stdout;
//! - [`pool`]: killing a worker's process group (`kill`);
//! - `jvmti`: calls through the JVM TI function table (`GetEnv`,
//!   `AddCapabilities`, `StopThread`).

#![warn(missing_docs)]

mod dispatch;
pub mod environment;
mod handles;
mod jni_raw;
mod jvmti;
pub mod pool;
pub mod protocol;
mod runner;
pub mod sandbox;
mod value_log;
mod vm;
mod watchdog;
pub mod worker;

pub use vm::VmError;
