//! Child JVMs: keeping the end of their standard error for messages,
//! waiting for them with a limit, and ending them (SIGTERM, then SIGKILL).

use std::collections::VecDeque;
use std::io::Read;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How much of a JVM's standard error is kept for error messages.
const STDERR_TAIL: usize = 16 * 1024;

/// The last [`STDERR_TAIL`] bytes of a JVM's standard error, read by a thread.
pub(crate) struct StderrTail {
    tail: Arc<Mutex<VecDeque<u8>>>,
    closed: mpsc::Receiver<()>,
}

impl StderrTail {
    /// Starts the thread that reads `stderr` to its end.
    pub(crate) fn start(mut stderr: impl Read + Send + 'static) -> StderrTail {
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let (tx, closed) = mpsc::channel();
        let t = Arc::clone(&tail);
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = stderr.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut t = t.lock().unwrap_or_else(|e| e.into_inner());
                t.extend(&buf[..n]);
                let excess = t.len().saturating_sub(STDERR_TAIL);
                t.drain(..excess);
            }
            let _ = tx.send(());
        });
        StderrTail { tail, closed }
    }

    /// The text so far, after waiting up to a second for the stream's end.
    pub(crate) fn text(&self) -> String {
        let _ = self.closed.recv_timeout(Duration::from_secs(1));
        let t = self.tail.lock().unwrap_or_else(|e| e.into_inner());
        let bytes: Vec<u8> = t.iter().copied().collect();
        let text = String::from_utf8_lossy(&bytes).trim().to_string();
        if text.is_empty() { "(no output on standard error)".to_string() } else { text }
    }
}

/// Ends a JVM: waits up to `grace` for it to exit, then sends SIGTERM, so
/// shutdown hooks (JaCoCo's dump) run, then SIGKILL if it has not exited
/// within 3 s more.
pub(crate) fn end(child: &mut Child, grace: Duration) {
    if wait_or_kill_after(child, grace, false).is_some() {
        return;
    }
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if wait_or_kill(child, Duration::from_secs(3)).is_none() {
        tracing::warn!("the test JVM ignored SIGTERM; killed it");
    }
}

/// Waits up to `limit` for the child to exit; kills it after that (`None`).
pub(crate) fn wait_or_kill(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    wait_or_kill_after(child, limit, true)
}

/// Waits up to `limit` for the child to exit; `None` when it has not (then
/// killed if `kill`).
fn wait_or_kill_after(child: &mut Child, limit: Duration, kill: bool) -> Option<ExitStatus> {
    let until = Instant::now() + limit;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(10)),
            _ => {
                if kill {
                    let _ = child.kill();
                    let _ = child.wait();
                }
                return None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_tail_keeps_the_last_bytes() {
        let text = "x".repeat(STDERR_TAIL) + "the end";
        let tail = StderrTail::start(std::io::Cursor::new(text.into_bytes()));
        let kept = tail.text();
        assert_eq!(kept.len(), STDERR_TAIL);
        assert!(kept.ends_with("xthe end"), "{}", &kept[kept.len() - 20..]);
        assert_eq!(StderrTail::start(std::io::empty()).text(), "(no output on standard error)");
    }

    #[test]
    fn a_child_that_outlives_its_limit_is_killed() {
        let mut child = Command::new("sleep").arg("30").spawn().unwrap();
        let start = Instant::now();
        assert_eq!(wait_or_kill(&mut child, Duration::from_millis(50)), None);
        assert!(start.elapsed() < Duration::from_secs(5));
        let mut child = Command::new("true").spawn().unwrap();
        assert!(wait_or_kill(&mut child, Duration::from_secs(5)).is_some_and(|s| s.success()));
    }
}
