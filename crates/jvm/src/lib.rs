//! The JVM-backed executor.
//!
//! Brief overview: a [`pool::Pool`] implements [`exec::Executor`] with
//! worker processes; each is the `ferrosuite` binary in its hidden worker
//! mode ([`worker::main`]), hosting one JVM through JNI. The orchestrator
//! and a worker talk in length-prefixed `postcard` frames ([`protocol`]).
//!
//! Modules:
//! - [`pool`]: worker processes, time limits, restart, the pool.
//! - [`protocol`]: requests, responses, framing.
//! - [`worker`]: the worker process's main loop.
//! - `vm`: creating the JVM, attaching threads; [`find_java_home`].
//! - `jni_raw`: the only unsafe code: calls through the JNI function table.
//! - `handles`: cached classes and member ids.
//! - `runner`: executing one test case statement by statement.
//! - `watchdog`: the per-test time limit inside the worker.
//!
//! Code that can crash runs in the worker process, never in the orchestrator.

mod handles;
mod jni_raw;
pub mod pool;
pub mod protocol;
mod runner;
mod vm;
mod watchdog;
pub mod worker;

pub use vm::find_java_home;
