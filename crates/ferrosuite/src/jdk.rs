//! Finding the JDK (`java`, `javac`) and running small Java helper programs.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, bail};

/// A JDK installation.
#[derive(Debug, Clone)]
pub struct Jdk {
    /// The JDK's home directory (`$JAVA_HOME`).
    pub home: PathBuf,
}

/// Debian's default JDK 17 location.
const DEBIAN_JDK17: &str = "/usr/lib/jvm/java-17-openjdk-amd64";

impl Jdk {
    /// `$JAVA_HOME` when it has `bin/javac`, else Debian's JDK 17.
    ///
    /// # Errors
    /// When no JDK is found, with the fix to apply.
    pub fn find() -> anyhow::Result<Jdk> {
        let candidates =
            std::env::var_os("JAVA_HOME").map(PathBuf::from).into_iter().chain([PathBuf::from(DEBIAN_JDK17)]);
        for home in candidates {
            if home.join("bin/javac").is_file() && home.join("bin/java").is_file() {
                return Ok(Jdk { home });
            }
        }
        bail!("no JDK found: set JAVA_HOME to a JDK 17 or install it with `apt-get install openjdk-17-jdk-headless`")
    }

    /// Path of a JDK tool (`java`, `javac`, `javap`).
    pub fn tool(&self, name: &str) -> PathBuf {
        self.home.join("bin").join(name)
    }

    /// Compiles one Java source file into `out`.
    ///
    /// # Errors
    /// When `javac` cannot run or reports errors (its output is included).
    pub fn javac(&self, source: &Path, classpath: &str, out: &Path) -> anyhow::Result<()> {
        let output = Command::new(self.tool("javac"))
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
    pub fn java_with_input(&self, args: &[&str], stdin: &str) -> anyhow::Result<JavaOutput> {
        use std::io::Write;
        let mut child = Command::new(self.tool("java"))
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
}

/// What a `java` run left: its exit status and standard output.
#[derive(Debug, Clone)]
pub struct JavaOutput {
    /// The exit status (`success()` for exit code 0).
    pub status: std::process::ExitStatus,
    /// Standard output, decoded lossily as UTF-8.
    pub stdout: String,
}
