//! Running a program's `main` class once, confined like the test JVMs, in a
//! scratch folder with no standard input, until it exits or its deadline
//! (Palus's `--sample-main`: a sample execution that is not a test suite).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::command::{argfile_text, cannot_run};
use crate::confine::{Confiner, java_command};
use crate::error::{Error, Result};
use crate::process::{end, wait_or_kill};
use crate::{Jdk, JvmExtras};

/// How a `main` run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MainOutcome {
    /// It exited with this status code (`None`: ended by a signal).
    Exited(Option<i32>),
    /// It was still running at its deadline and was ended.
    Cut,
}

/// Runs `java OPTIONS -cp CLASS_PATH MAIN_CLASS` with `extra`'s options and
/// writable folders, confined when `confiner` is given; output is
/// discarded. Ended (SIGTERM, so shutdown hooks run, then SIGKILL) at
/// `deadline`.
///
/// # Errors
/// When the scratch folder cannot be made or `java` cannot be started.
pub fn run_main(
    jdk: &Jdk,
    class_path: &str,
    main_class: &str,
    extra: &JvmExtras,
    confiner: Option<&Confiner>,
    deadline: Instant,
) -> Result<MainOutcome> {
    let scratch = tempfile::tempdir().map_err(|source| Error::ScratchDir { source })?;
    let mut args = vec!["-XX:+UseSerialGC".to_string(), format!("-Djava.io.tmpdir={}", scratch.path().display())];
    args.extend(extra.options.iter().cloned());
    args.extend(["-cp".to_string(), class_path.to_string(), main_class.to_string()]);
    let argfile = scratch.path().join("java.args");
    std::fs::write(&argfile, argfile_text(&args)).map_err(Error::write(&argfile))?;
    let mut writable: Vec<PathBuf> = vec![scratch.path().to_path_buf()];
    writable.extend(extra.writable.iter().cloned());
    let writable: Vec<&Path> = writable.iter().map(PathBuf::as_path).collect();
    let mut child = java_command(jdk, confiner, &writable)
        .arg(format!("@{}", argfile.display()))
        .current_dir(scratch.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(cannot_run("java"))?;
    let left = deadline.saturating_duration_since(Instant::now());
    match wait_or_kill_after_deadline(&mut child, left) {
        Some(status) => Ok(MainOutcome::Exited(status.code())),
        None => Ok(MainOutcome::Cut),
    }
}

/// Waits up to `limit`; then ends the JVM gracefully (`None`).
fn wait_or_kill_after_deadline(child: &mut std::process::Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let until = Instant::now() + limit;
    while Instant::now() < until {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    end(child, Duration::ZERO);
    let _ = wait_or_kill(child, Duration::ZERO);
    None
}
