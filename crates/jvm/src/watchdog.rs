//! The per-test time limit inside the worker.
//!
//! The executing thread announces each test with its deadline
//! ([`Watch::start`]) and its end ([`Watch::finish`]). A watchdog thread,
//! attached to the JVM, waits for the deadline; when a test overruns it
//! sets `Sandbox.timeUp` (which makes instrumented loop back-edges throw),
//! interrupts the executing thread (ending blocking calls) and then stops
//! it (ending busy code, also where no back-edge check is: the JDK's code
//! and libraries'), repeating the stop until the test returns: by JVM TI's
//! `StopThread` with a `Sandbox$TimeUp` ([`crate::jvmti`]; the only way on
//! JDK 20+, whose `Thread.stop()` throws), else by `Thread.stop()`. If the
//! test never returns, the orchestrator kills the worker process.

use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::handles::Known;
use crate::jni_raw::{Jni, Kind, Typed, jobject};
use crate::jvmti::Jvmti;
use instrument::tracer::SANDBOX_CLASS;

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
    /// The delay between `interrupt()` and the first stop for the running
    /// test ([`stop_delay`]).
    stop_after: Duration,
    /// Whether the watchdog acted on the running test.
    fired: bool,
    /// When the watchdog last acted on the running test.
    last_action: Option<Instant>,
    /// When the watchdog will next wake by itself; `None` while it waits
    /// for a test to start. Starting a test wakes it only when the new
    /// deadline is earlier, so a steady stream of tests costs no thread
    /// switches.
    wakes_at: Option<Instant>,
}

/// Delay between `interrupt()` and the first `Thread.stop()`, at most.
const STOP_AFTER: Duration = Duration::from_millis(50);
/// Delay between `interrupt()` and the first `Thread.stop()`, at least.
const STOP_AFTER_MIN: Duration = Duration::from_millis(5);

/// The delay between `interrupt()` and the first stop for a test whose
/// time limit is `limit`: half of it, between [`STOP_AFTER_MIN`] and
/// [`STOP_AFTER`]. A short limit (the search's adapted one) keeps a test
/// looping in uninstrumented code from costing many times its limit.
pub fn stop_delay(limit: Duration) -> Duration {
    (limit / 2).clamp(STOP_AFTER_MIN, STOP_AFTER)
}
/// Delay between repeated `Thread.stop()` calls.
const STOP_AGAIN: Duration = Duration::from_millis(200);

impl Watch {
    /// A test starts at `started`; it must end within `limit`.
    pub fn start(&self, seq: u64, started: Instant, limit: Duration) {
        let deadline = started + limit;
        let mut s = self.state.lock().expect("watch");
        s.running = Some((seq, deadline));
        s.stop_after = stop_delay(limit);
        s.fired = false;
        s.last_action = None;
        if s.wakes_at.is_none_or(|w| deadline < w) {
            self.changed.notify_all();
        }
    }

    /// The test ended; returns whether the watchdog fired on it.
    pub fn finish(&self) -> bool {
        let mut s = self.state.lock().expect("watch");
        s.running = None;
        s.fired
    }

    /// Whether the watchdog fired on the running test.
    pub fn fired(&self) -> bool {
        self.state.lock().expect("watch").fired
    }

    /// Waits until a running test is past its deadline (or, once fired,
    /// still running [`STOP_AGAIN`] later) and returns its sequence number and stop delay.
    fn wait_for_overrun(&self) -> (u64, Duration) {
        let mut s = self.state.lock().expect("watch");
        loop {
            let now = Instant::now();
            let until = match s.running {
                None => None,
                Some((seq, deadline)) => {
                    let due = match (s.fired, s.last_action) {
                        (true, Some(last)) => last + STOP_AGAIN,
                        _ => deadline,
                    };
                    if now >= due {
                        s.fired = true;
                        s.last_action = Some(now);
                        return (seq, s.stop_after);
                    }
                    Some(due)
                }
            };
            s.wakes_at = until;
            s = match until {
                None => self.changed.wait(s).expect("watch"),
                Some(t) => self.changed.wait_timeout(s, t.saturating_duration_since(now)).expect("watch").0,
            };
            s.wakes_at = None;
        }
    }

    fn still_running(&self, seq: u64) -> bool {
        self.state.lock().expect("watch").running.is_some_and(|(r, _)| r == seq)
    }
}

/// The watchdog loop; runs forever on its own attached thread.
/// `target` is a global reference to the executing `java.lang.Thread`;
/// `jvmti`, when the JVM offers it, stops threads.
pub fn run(watch: &Watch, jni: Jni, known: Known, target: jobject, jvmti: Option<Jvmti>) {
    let time_up = time_up(jni);
    loop {
        let (seq, stop_after) = watch.wait_for_overrun();
        let _ = jni.set_field(known.sandbox, known.sandbox_time_up, true, Typed::Boolean(true).into());
        let _ = jni.call_method(target, known.thread_interrupt, Kind::Void, &[]);
        std::thread::sleep(stop_after);
        if watch.still_running(seq) {
            let stopped = matches!((jvmti, time_up), (Some(t), Some(e)) if t.stop_thread(target, e));
            if let (false, Some(stop)) = (stopped, known.thread_stop) {
                let _ = jni.call_method(target, stop, Kind::Void, &[]);
            }
        }
        let _ = jni.take_exception();
    }
}

/// A global reference to a new `Sandbox$TimeUp`, the error a stopped test
/// ends with (as at a back-edge check); `None` if it cannot be made.
fn time_up(jni: Jni) -> Option<jobject> {
    let class = jni.find_class(&format!("{SANDBOX_CLASS}$TimeUp")).ok()?;
    let ctor = jni.method_id(class, "<init>", "()V", false).ok()?;
    let error = jni.new_object(class, ctor, &[]).ok()?;
    Some(jni.global_ref(error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stop_delay_is_half_the_limit_within_its_bounds() {
        assert_eq!(stop_delay(Duration::from_secs(3)), STOP_AFTER);
        assert_eq!(stop_delay(Duration::from_millis(100)), STOP_AFTER);
        assert_eq!(stop_delay(Duration::from_millis(20)), Duration::from_millis(10));
        assert_eq!(stop_delay(Duration::from_millis(4)), STOP_AFTER_MIN);
    }
}
