//! A module's dependency class path from its build tool, offline:
//! `mvn -o dependency:build-classpath` (the Maven Dependency Plugin's goal,
//! run against the local repository only). Gradle has no such goal without
//! a build script change; Gradle projects give `--classpath`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long Maven may take to answer.
pub const MAVEN_TIMEOUT: Duration = Duration::from_secs(180);

/// The goal, by prefix (the version the local repository has) and then by
/// the version Debian packages, for a local repository without prefix metadata.
const GOALS: [&str; 2] =
    ["dependency:build-classpath", "org.apache.maven.plugins:maven-dependency-plugin:3.5.0:build-classpath"];

/// The test-scope class path of the Maven module in `dir` (its
/// dependencies' jars, `:`-separated), asked offline.
///
/// # Errors
/// Why Maven could not answer, in one line: no `mvn` on the `PATH`, a
/// failed build (often: a dependency or the plugin is not in the local
/// repository), or the time limit.
pub fn maven_classpath(dir: &Path) -> Result<String, String> {
    let out = tempfile::NamedTempFile::new().map_err(|e| format!("no temporary file: {e}"))?;
    let mut last = String::new();
    for goal in GOALS {
        let mut cmd = Command::new("mvn");
        cmd.args(["-o", "-q", "-B", goal, "-Dmdep.includeScope=test"])
            .arg(format!("-Dmdep.outputFile={}", out.path().display()))
            .current_dir(dir)
            .stdin(Stdio::null());
        match run(cmd, MAVEN_TIMEOUT) {
            Ok(()) => {
                let text = std::fs::read_to_string(out.path()).map_err(|e| format!("no class path written: {e}"))?;
                return Ok(text.trim().to_string());
            }
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// Runs `cmd` to its end within `limit` (its output to a file, which
/// cannot fill up as a pipe would); its first error line on failure.
fn run(mut cmd: Command, limit: Duration) -> Result<(), String> {
    let log = tempfile::NamedTempFile::new().map_err(|e| format!("no temporary file: {e}"))?;
    let (out, err) = (log.reopen().map_err(|e| e.to_string())?, log.reopen().map_err(|e| e.to_string())?);
    let mut child = cmd.stdout(out).stderr(err).spawn().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => "mvn is not on the PATH".to_string(),
        _ => format!("cannot run mvn: {e}"),
    })?;
    let start = Instant::now();
    loop {
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(status) if status.success() => return Ok(()),
            Some(_) => {
                let text = std::fs::read_to_string(log.path()).unwrap_or_default();
                let error = text.lines().find(|l| l.starts_with("[ERROR]")).unwrap_or("mvn failed");
                return Err(error.trim_start_matches("[ERROR]").trim().to_string());
            }
            None if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("mvn did not answer within {} s", limit.as_secs()));
            }
            None => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}
