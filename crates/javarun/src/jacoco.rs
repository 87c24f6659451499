//! JaCoCo line and branch coverage: the agent setup for test JVMs
//! (Debian's `libjacoco-java` 0.8.6, with `FerroAgent` so it can instrument
//! Java 17 sealed classes) and the report step (`JacocoCoverage`, counters
//! from a `.exec` file).

use model::names::BinaryName;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::cache::{cached_build, compile_helper, file_stamp, hash_parts, run_jar, write_file};
use crate::command::{cannot_run, join_paths, path_str};
use crate::error::{Error, Result};
use crate::{DEBIAN_JAVA_DIR, Jdk};

const AGENT_SOURCE: &str = include_str!("../../../tools/java/FerroAgent.java");
const COVERAGE_SOURCE: &str = include_str!("../../../tools/java/JacocoCoverage.java");

/// The Debian package of the JaCoCo agent.
const JACOCO_PACKAGE: &str = "libjacoco-java";

/// JaCoCo's core and the ASM jars it needs at run time, with their Debian packages.
const JACOCO_CORE_JARS: [(&str, &str); 4] = [
    ("org.jacoco.core.jar", JACOCO_PACKAGE),
    ("asm.jar", "libasm-java"),
    ("asm-commons.jar", "libasm-java"),
    ("asm-tree.jar", "libasm-java"),
];

/// Runs tests under the JaCoCo agent (Debian's `libjacoco-java` 0.8.6),
/// recording the class under test and its nested classes only.
#[derive(Debug, Clone)]
pub struct JacocoSetup {
    /// `jacocoagent.jar`, extracted from `org.jacoco.agent.jar` (a jar inside the jar).
    pub agent_jar: PathBuf,
    /// `FerroAgent`'s jar: strips `PermittedSubclasses` before JaCoCo sees a class.
    pub helper_agent_jar: PathBuf,
    /// The `.exec` file the agent appends to at JVM exit.
    pub exec_file: PathBuf,
    /// The class under test (`pkg.Outer`).
    pub cut: BinaryName,
}

impl JacocoSetup {
    /// Debian's agent (`/usr/share/java/org.jacoco.agent.jar`), writing to
    /// `exec_file`. Execution data is appended: delete the file first for a
    /// fresh measurement (two runs in two orders may share one file).
    ///
    /// # Errors
    /// When the agent jar is missing ([`Error::MissingJacocoAgent`]: install
    /// `libjacoco-java`) or cannot be extracted, or the helper agent cannot
    /// be built ([`Error::CacheBuild`]).
    pub fn new(jdk: &Jdk, exec_file: &Path, cut: &str) -> Result<JacocoSetup> {
        JacocoSetup::with_agent_from(jdk, &Path::new(DEBIAN_JAVA_DIR).join("org.jacoco.agent.jar"), exec_file, cut)
    }

    /// Like [`JacocoSetup::new`] with another `org.jacoco.agent.jar` (the
    /// jar that holds `jacocoagent.jar`).
    ///
    /// # Errors
    /// As [`JacocoSetup::new`].
    pub fn with_agent_from(jdk: &Jdk, outer_jar: &Path, exec_file: &Path, cut: &str) -> Result<JacocoSetup> {
        if !outer_jar.is_file() {
            return Err(Error::MissingJacocoAgent { jar: outer_jar.to_path_buf(), package: JACOCO_PACKAGE });
        }
        let key = hash_parts(&[AGENT_SOURCE.as_bytes(), path_str(&jdk.home)?.as_bytes(), &file_stamp(outer_jar)?]);
        let dir = cached_build("agents", key, |dir| build_agents(jdk, outer_jar, dir))?;
        Ok(JacocoSetup {
            agent_jar: dir.join("jacocoagent.jar"),
            helper_agent_jar: dir.join("ferroagent.jar"),
            exec_file: exec_file.to_path_buf(),
            cut: BinaryName::new(cut),
        })
    }

    /// The JVM options that load both agents (`exec_file` resolved against `cwd`).
    pub fn java_options(&self, cwd: &Path) -> Vec<String> {
        let exec = cwd.join(&self.exec_file);
        vec![
            format!("-javaagent:{}={}", self.helper_agent_jar.display(), self.cut),
            format!(
                "-javaagent:{}=destfile={},includes={}:{}$*,append=true,inclbootstrapclasses=false",
                self.agent_jar.display(),
                exec.display(),
                self.cut,
                self.cut
            ),
        ]
    }
}

/// Fills `dir` with `jacocoagent.jar` (extracted from `outer_jar`) and
/// `ferroagent.jar` (`FerroAgent`, compiled and packed).
fn build_agents(jdk: &Jdk, outer_jar: &Path, dir: &Path) -> Result<()> {
    run_jar(jdk, dir, &["--extract", "--file", path_str(outer_jar)?, "jacocoagent.jar"], "extracting jacocoagent.jar")?;
    if !dir.join("jacocoagent.jar").is_file() {
        return Err(Error::NoAgentInJar { jar: outer_jar.to_path_buf() });
    }
    let classes = dir.join("ferroagent-classes");
    std::fs::create_dir_all(&classes).map_err(Error::write(&classes))?;
    write_file(&dir.join("FerroAgent.java"), AGENT_SOURCE)?;
    compile_helper(jdk, &[dir.join("FerroAgent.java")], "", &classes)?;
    write_file(&dir.join("manifest.txt"), "Premain-Class: FerroAgent\n")?;
    run_jar(
        jdk,
        dir,
        &["--create", "--file", "ferroagent.jar", "--manifest", "manifest.txt", "-C", "ferroagent-classes", "."],
        "packing FerroAgent",
    )
}

/// JaCoCo's counters for a class under test and its nested classes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Lines with at least one instruction executed.
    pub lines_covered: u32,
    /// Lines with instructions.
    pub lines_total: u32,
    /// Branches (outcomes of conditional jumps and switches) taken.
    pub branches_covered: u32,
    /// Branches.
    pub branches_total: u32,
}

impl Coverage {
    /// Covered lines / total lines; `None` when there are no lines.
    pub fn line_ratio(&self) -> Option<f64> {
        ratio(self.lines_covered, self.lines_total)
    }

    /// Covered branches / total branches; `None` when there are no branches.
    pub fn branch_ratio(&self) -> Option<f64> {
        ratio(self.branches_covered, self.branches_total)
    }
}

fn ratio(covered: u32, total: u32) -> Option<f64> {
    (total > 0).then(|| f64::from(covered) / f64::from(total))
}

/// Line and branch coverage of `cut` and its nested classes from a JaCoCo
/// `.exec` file (a missing file counts as nothing executed), analysed
/// against `classes` (a class directory, a jar or a `.class` file: the same
/// class files that ran).
///
/// # Errors
/// When JaCoCo's jars are missing ([`Error::MissingJacocoJar`], the package
/// is named), the class is not in `classes`, or JaCoCo cannot analyse it
/// ([`Error::JacocoFailed`]).
pub fn jacoco_coverage(jdk: &Jdk, exec_file: &Path, classes: &Path, cut: &str) -> Result<Coverage> {
    let tool_cp = coverage_tool(jdk)?;
    let output = Command::new(jdk.tool("java"))
        .args(["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", &tool_cp, "JacocoCoverage"])
        .args([exec_file, classes])
        .arg(cut)
        .stdin(Stdio::null())
        .output()
        .map_err(cannot_run("java"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(Error::JacocoFailed {
            cut: BinaryName::new(cut),
            status: output.status,
            stderr: stderr.trim().to_string(),
        });
    }
    parse_total(&stdout, cut)
}

/// The counts on `JacocoCoverage`'s `TOTAL` line.
fn parse_total(stdout: &str, cut: &str) -> Result<Coverage> {
    let total = stdout
        .lines()
        .find_map(|l| l.strip_prefix("TOTAL\t"))
        .ok_or_else(|| Error::JacocoNoTotal { cut: BinaryName::new(cut), stdout: stdout.trim().to_string() })?;
    let n: Vec<u32> = total
        .split('\t')
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|source| Error::JacocoBadTotal { source })?;
    let [lines_covered, lines_total, branches_covered, branches_total, ..] = n[..] else {
        return Err(Error::JacocoShortTotal { cut: BinaryName::new(cut), total: total.to_string() });
    };
    Ok(Coverage { lines_covered, lines_total, branches_covered, branches_total })
}

/// The class path that runs `JacocoCoverage` (compiled on first use).
fn coverage_tool(jdk: &Jdk) -> Result<String> {
    let mut jars = Vec::new();
    let mut parts = vec![COVERAGE_SOURCE.as_bytes().to_vec(), AGENT_SOURCE.as_bytes().to_vec()];
    parts.push(path_str(&jdk.home)?.as_bytes().to_vec());
    for (jar, package) in JACOCO_CORE_JARS {
        let path = Path::new(DEBIAN_JAVA_DIR).join(jar);
        if !path.is_file() {
            return Err(Error::MissingJacocoJar { jar: path, package });
        }
        parts.push(file_stamp(&path)?);
        jars.push(path);
    }
    let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    let jacoco_cp = join_paths(&jars);
    let dir = cached_build("jacoco-coverage", hash_parts(&refs), |dir| {
        write_file(&dir.join("JacocoCoverage.java"), COVERAGE_SOURCE)?;
        write_file(&dir.join("FerroAgent.java"), AGENT_SOURCE)?;
        compile_helper(jdk, &[dir.join("JacocoCoverage.java"), dir.join("FerroAgent.java")], &jacoco_cp, dir)
    })?;
    Ok(format!("{}:{jacoco_cp}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_total_line_gives_the_counters() {
        let cov = parse_total("p/A\t1\t2\nTOTAL\t3\t4\t1\t2\t9\n", "p.A").unwrap();
        assert_eq!(cov, Coverage { lines_covered: 3, lines_total: 4, branches_covered: 1, branches_total: 2 });
        assert_eq!((cov.line_ratio(), cov.branch_ratio()), (Some(0.75), Some(0.5)));
        assert_eq!(Coverage::default().line_ratio(), None);
    }

    #[test]
    fn a_bad_total_line_is_a_typed_error() {
        let err = parse_total("nothing\n", "p.A").unwrap_err();
        assert_eq!(err.to_string(), "JaCoCo printed no total for p.A: nothing");
        let err = parse_total("TOTAL\t3\tx\n", "p.A").unwrap_err();
        assert!(matches!(err, Error::JacocoBadTotal { .. }), "{err:?}");
        let err = parse_total("TOTAL\t3\t4\n", "p.A").unwrap_err();
        assert_eq!(err.to_string(), "JaCoCo's total for p.A is short: 3\t4");
    }

    #[test]
    fn a_missing_agent_jar_names_libjacoco_java() {
        let jdk = Jdk { home: PathBuf::from("/nonexistent-jdk") };
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("org.jacoco.agent.jar");
        let err = JacocoSetup::with_agent_from(&jdk, &missing, &dir.path().join("x.exec"), "p.A").unwrap_err();
        assert!(matches!(&err, Error::MissingJacocoAgent { package: "libjacoco-java", .. }), "{err:?}");
        assert_eq!(
            err.to_string(),
            format!(
                "the JaCoCo agent {} is missing: install it with `apt-get install libjacoco-java`",
                missing.display()
            )
        );
    }
}
