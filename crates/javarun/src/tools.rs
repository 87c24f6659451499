//! Running single JDK tools: `javac` on one helper source, `java` with
//! text on standard input.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::Jdk;
use crate::command::cannot_run;
use crate::error::{Error, Result};

/// Compiles one Java source file into `out` (`javac -nowarn -d out -cp classpath source`).
///
/// # Errors
/// When `javac` cannot run ([`Error::Spawn`]) or reports errors
/// ([`Error::JavacFailedOn`], with its output).
pub fn javac(jdk: &Jdk, source: &Path, classpath: &str, out: &Path) -> Result<()> {
    let output = Command::new(jdk.tool("javac"))
        .args(["-nowarn", "-d"])
        .arg(out)
        .args(["-cp", classpath])
        .arg(source)
        .output()
        .map_err(cannot_run("javac"))?;
    if !output.status.success() {
        return Err(Error::JavacFailedOn {
            file: source.to_path_buf(),
            output: String::from_utf8_lossy(&output.stderr).into_owned(),
        });
    }
    Ok(())
}

/// Runs `java ARGS` with `stdin` as standard input; returns its exit
/// status and stdout (stderr goes to ours). The caller decides what a
/// non-zero status means.
///
/// # Errors
/// When `java` cannot be started ([`Error::Spawn`]) or waited for ([`Error::Wait`]).
pub fn java_with_input(jdk: &Jdk, args: &[&str], stdin: &str) -> Result<JavaOutput> {
    use std::io::Write;
    let mut child = Command::new(jdk.tool("java"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(cannot_run("java"))?;
    let mut input = child.stdin.take().expect("piped stdin");
    let text = stdin.to_string();
    let writer = std::thread::spawn(move || input.write_all(text.as_bytes()));
    let output = child.wait_with_output().map_err(|source| Error::Wait { tool: "java".to_string(), source })?;
    let _ = writer.join(); // a JVM that exits early closes its stdin: not our error
    Ok(JavaOutput { status: output.status, stdout: String::from_utf8_lossy(&output.stdout).into_owned() })
}

/// What a `java` run left: its exit status and standard output.
#[derive(Debug, Clone)]
pub struct JavaOutput {
    /// The exit status (`success()` for exit code 0).
    pub status: std::process::ExitStatus,
    /// Standard output, decoded lossily as UTF-8.
    pub stdout: String,
}
