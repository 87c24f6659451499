//! The per-test time limit inside the worker.
//!
//! The executing thread announces each test with its deadline
//! ([`Watch::start`]) and its end ([`Watch::finish`]). A watchdog thread,
//! attached to the JVM, waits for the deadline; when a test overruns it
//! sets `Sandbox.timeUp` (which makes instrumented loop back-edges throw),
//! interrupts the executing thread (ending blocking calls) and then stops
//! it with `Thread.stop()` (ending busy code), repeating the stop until the
//! test returns. If the test never returns, the orchestrator kills the
//! worker process.

use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::handles::Known;
use crate::jni_raw::{Jni, Kind, jobject, jvalue};

/// Shared state between the executing thread and the watchdog.
#[derive(Default)]
pub struct Watch {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Default)]
struct State {
    /// The running test: sequence number and deadline.
    running: Option<(u64, Instant)>,
    /// Whether the watchdog acted on the running test.
    fired: bool,
}

/// Delay between `interrupt()` and the first `Thread.stop()`.
const STOP_AFTER: Duration = Duration::from_millis(50);
/// Delay between repeated `Thread.stop()` calls.
const STOP_AGAIN: Duration = Duration::from_millis(200);

impl Watch {
    /// A test starts; it must end by `deadline`.
    pub fn start(&self, seq: u64, deadline: Instant) {
        let mut s = self.state.lock().expect("watch");
        s.running = Some((seq, deadline));
        s.fired = false;
        self.changed.notify_all();
    }

    /// The test ended; returns whether the watchdog fired on it.
    pub fn finish(&self) -> bool {
        let mut s = self.state.lock().expect("watch");
        s.running = None;
        self.changed.notify_all();
        s.fired
    }

    /// Whether the watchdog fired on the running test.
    pub fn fired(&self) -> bool {
        self.state.lock().expect("watch").fired
    }

    /// Waits until the running test `seq` passes its deadline; returns
    /// `false` if it ended first.
    fn wait_for_overrun(&self) -> Option<u64> {
        let mut s = self.state.lock().expect("watch");
        loop {
            match s.running {
                None => s = self.changed.wait(s).expect("watch"),
                Some((seq, deadline)) => {
                    let now = Instant::now();
                    if now >= deadline && !s.fired {
                        s.fired = true;
                        return Some(seq);
                    }
                    let wait = if s.fired { STOP_AGAIN } else { deadline - now };
                    let (guard, _) = self.changed.wait_timeout(s, wait).expect("watch");
                    s = guard;
                    if s.fired && s.running.is_some_and(|(r, _)| r == seq) {
                        return Some(seq);
                    }
                }
            }
        }
    }

    fn still_running(&self, seq: u64) -> bool {
        self.state.lock().expect("watch").running.is_some_and(|(r, _)| r == seq)
    }
}

/// The watchdog loop; runs forever on its own attached thread.
/// `target` is a global reference to the executing `java.lang.Thread`.
pub fn run(watch: &Watch, jni: Jni, known: Known, target: jobject) {
    loop {
        let Some(seq) = watch.wait_for_overrun() else { continue };
        let _ = jni.set_field(known.sandbox, known.sandbox_time_up, Kind::Boolean, true, jvalue { z: true });
        let _ = jni.call_method(target, known.thread_interrupt, Kind::Void, &[]);
        std::thread::sleep(STOP_AFTER);
        if watch.still_running(seq) {
            let _ = jni.call_method(target, known.thread_stop, Kind::Void, &[]);
        }
        let _ = jni.take_exception();
    }
}
