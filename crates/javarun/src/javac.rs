//! Compiling test sources with `javac` and parsing its errors, so a caller
//! can drop the test methods that do not compile.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::Jdk;
use crate::command::{JAVAC_JVM_OPTIONS, argfile_text, cannot_run, path_str};
use crate::error::{Error, Result};
use crate::process::wait_or_kill;

/// One error `javac` reported in a source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    /// The source file, as javac printed it (the path given to it).
    pub file: PathBuf,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (characters, a tab counting as one), from javac's caret line.
    pub column: Option<u32>,
    /// The message: the first line (e.g. `cannot find symbol`) and javac's
    /// detail lines (`symbol: ...`, `location: ...`), joined with `\n`.
    pub message: String,
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file.display(), self.line, self.message.replace('\n', " "))
    }
}

/// Compiles test sources into `out` (created if needed) with `javac -g`,
/// `-encoding UTF-8`, no annotation processing, no source path (nothing but
/// `sources` is compiled), and `--release N` when `release` is given
/// (values below 8 are raised to 8, the oldest JDK 17 supports without
/// warnings and the oldest JUnit 5 runs on). `class_path` must include the
/// JUnit jars ([`JunitJars::compile_class_path`](crate::JunitJars::compile_class_path)).
///
/// Returns `Ok(Err(errors))` when javac reports errors in the sources
/// (every error, in javac's order; nothing is guaranteed to be written to
/// `out` then).
///
/// # Errors
/// When javac cannot run ([`Error::Spawn`]), or fails without naming a
/// source line (a bad option, a missing file, a crash: [`Error::JavacFailed`],
/// which holds javac's output).
pub fn compile_tests(
    jdk: &Jdk,
    sources: &[PathBuf],
    class_path: &str,
    out: &Path,
    release: Option<u32>,
) -> Result<Result<(), Vec<CompileError>>> {
    compile_tests_until(jdk, sources, class_path, out, release, None)
}

/// [`compile_tests`] with a deadline: javac is killed when it has not
/// finished by then.
///
/// # Errors
/// As [`compile_tests`], and [`Error::JavacStopped`] when javac was killed.
pub fn compile_tests_until(
    jdk: &Jdk,
    sources: &[PathBuf],
    class_path: &str,
    out: &Path,
    release: Option<u32>,
    deadline: Option<Instant>,
) -> Result<Result<(), Vec<CompileError>>> {
    if sources.is_empty() {
        return Err(Error::NoTestSources);
    }
    std::fs::create_dir_all(out).map_err(|source| Error::CreateDir { path: out.to_path_buf(), source })?;
    let tmp = tempfile::tempdir().map_err(|source| Error::TempDir { source })?;
    let args = javac_args(sources, class_path, out, release)?;
    let argfile = tmp.path().join("javac.args");
    std::fs::write(&argfile, argfile_text(&args)).map_err(Error::write(&argfile))?;
    // Output to a file, not a pipe, so waiting with a limit needs no reader thread.
    let log = tmp.path().join("javac.out");
    let file = std::fs::File::create(&log).map_err(Error::write(&log))?;
    let mut child = Command::new(jdk.tool("javac"))
        .args(JAVAC_JVM_OPTIONS)
        .args(["-J-Duser.language=en", "-J-Duser.country=US"])
        .arg(format!("@{}", argfile.display()))
        .stdin(Stdio::null())
        .stdout(file.try_clone().map_err(Error::write(&log))?)
        .stderr(file)
        .spawn()
        .map_err(cannot_run("javac"))?;
    let limit = deadline.map_or(Duration::from_secs(24 * 3600), |d| d.saturating_duration_since(Instant::now()));
    let status = wait_or_kill(&mut child, limit).ok_or(Error::JavacStopped)?;
    if status.success() {
        return Ok(Ok(()));
    }
    let text = String::from_utf8_lossy(&std::fs::read(&log).unwrap_or_default()).into_owned();
    let errors = parse_javac_errors(&text);
    if errors.is_empty() {
        return Err(Error::JavacFailed { status, output: text.trim().to_string() });
    }
    Ok(Err(errors))
}

/// javac's arguments (for its argument file) for [`compile_tests`].
fn javac_args(sources: &[PathBuf], class_path: &str, out: &Path, release: Option<u32>) -> Result<Vec<String>> {
    let mut args: Vec<String> = [
        "-g",
        "-nowarn",
        "-Xlint:none",
        "-encoding",
        "UTF-8",
        "-proc:none",
        "-implicit:none",
        "-Xmaxerrs",
        "1000000",
        "-sourcepath",
        "",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(["-cp".to_string(), class_path.to_string(), "-d".to_string(), path_str(out)?.to_string()]);
    if let Some(release) = release {
        args.extend(["--release".to_string(), release.max(8).to_string()]);
    }
    for s in sources {
        args.push(path_str(s)?.to_string());
    }
    Ok(args)
}

/// Parses javac's default diagnostic output (`File.java:12: error: ...`,
/// the source line, a caret line, detail lines) into errors; warnings and
/// notes are skipped.
pub fn parse_javac_errors(text: &str) -> Vec<CompileError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut errors = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some((file, line, kind, first)) = diagnostic_header(lines[i]) else {
            i += 1;
            continue;
        };
        i += 1;
        let mut column = None;
        // the source line and the caret line follow the first message line
        if i + 1 < lines.len() && is_caret_line(lines[i + 1]) {
            column = lines[i + 1].find('^').map(|c| lines[i + 1][..c].chars().count() as u32 + 1);
            i += 2;
        }
        let mut message = first.to_string();
        while i < lines.len() && diagnostic_header(lines[i]).is_none() && !is_trailer(lines[i]) {
            if !lines[i].trim().is_empty() {
                message.push('\n');
                message.push_str(lines[i].trim());
            }
            i += 1;
        }
        if kind == "error" {
            errors.push(CompileError { file: PathBuf::from(file), line, column, message });
        }
    }
    errors
}

/// `File.java:12: error: message` → (file, 12, "error", "message").
fn diagnostic_header(line: &str) -> Option<(&str, u32, &str, &str)> {
    for kind in ["error", "warning"] {
        let marker = format!(": {kind}: ");
        if let Some(at) = line.find(&marker) {
            let (location, message) = (&line[..at], &line[at + marker.len()..]);
            let (file, number) = location.rsplit_once(':')?;
            if file.ends_with(".java")
                && let Ok(n) = number.parse::<u32>()
            {
                return Some((file, n, kind, message));
            }
        }
    }
    None
}

fn is_caret_line(line: &str) -> bool {
    line.trim_end().ends_with('^') && line.trim() == "^"
}

/// javac's closing lines: `3 errors`, `1 warning`, `Note: ...`.
fn is_trailer(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    line.starts_with("Note: ")
        || matches!(words[..], [n, "error" | "errors" | "warning" | "warnings"] if n.parse::<u32>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn javac_errors_with_details_tabs_and_trailers() {
        let text = concat!(
            "sp/x/A.java:2: error: cannot find symbol\n",
            "public class A { int f() { return undefinedVar; }\n",
            "                                  ^\n",
            "  symbol:   variable undefinedVar\n",
            "  location: class A\n",
            "sp/x/A.java:4: error: cannot find symbol\n",
            "\tvoid t() {\tfoo(); }\n",
            "\t          \t^\n",
            "  symbol:   method foo()\n",
            "  location: class A\n",
            "sp/x/A.java:5: warning: [deprecation] stop() in Thread has been deprecated\n",
            "  Thread.currentThread().stop();\n",
            "                        ^\n",
            "sp/x/B.java:3: error: incompatible types: int cannot be converted to String\n",
            "  String s = 1;\n",
            "             ^\n",
            "Note: Some messages have been simplified; recompile with -Xdiags:verbose to get full output\n",
            "3 errors\n",
            "1 warning\n",
        );
        let errors = parse_javac_errors(text);
        assert_eq!(errors.len(), 3, "{errors:#?}");
        assert_eq!(errors[0].file, PathBuf::from("sp/x/A.java"));
        assert_eq!((errors[0].line, errors[0].column), (2, Some(35)));
        assert_eq!(errors[0].message, "cannot find symbol\nsymbol:   variable undefinedVar\nlocation: class A");
        assert_eq!((errors[1].line, errors[1].column), (4, Some(13)));
        assert_eq!(errors[2].message, "incompatible types: int cannot be converted to String");
        assert_eq!(errors[2].to_string(), "sp/x/B.java:3: incompatible types: int cannot be converted to String");
    }
}
