//! Running single JDK tools: `javac` on one helper source, `java` with
//! text on standard input.

use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Context, bail};

use crate::Jdk;

/// Compiles one Java source file into `out` (`javac -nowarn -d out -cp classpath source`).
///
/// # Errors
/// When `javac` cannot run or reports errors (its output is included).
pub fn javac(jdk: &Jdk, source: &Path, classpath: &str, out: &Path) -> anyhow::Result<()> {
    let output = Command::new(jdk.tool("javac"))
        .args(["-nowarn", "-d"])
        .arg(out)
        .args(["-cp", classpath])
        .arg(source)
        .output()
        .context("cannot run javac")?;
    if !output.status.success() {
        bail!("javac failed on {}: {}", source.display(), String::from_utf8_lossy(&output.stderr));
    }
    Ok(())
}

/// Runs `java ARGS` with `stdin` as standard input; returns its exit
/// status and stdout (stderr goes to ours). The caller decides what a
/// non-zero status means.
///
/// # Errors
/// When `java` cannot be started or waited for.
pub fn java_with_input(jdk: &Jdk, args: &[&str], stdin: &str) -> anyhow::Result<JavaOutput> {
    use std::io::Write;
    let mut child = Command::new(jdk.tool("java"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .context("cannot run java")?;
    let mut input = child.stdin.take().expect("piped stdin");
    let text = stdin.to_string();
    let writer = std::thread::spawn(move || input.write_all(text.as_bytes()));
    let output = child.wait_with_output().context("cannot wait for java")?;
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
