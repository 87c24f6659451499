//! JaCoCo line and branch coverage: the agent setup for test JVMs and the
//! report step (`JacocoCoverage`, counters from a `.exec` file), with one of
//! two JaCoCo releases ([`JacocoRelease`]): Debian 12's `libjacoco-java`
//! 0.8.6 (with `FerroAgent` so it can instrument Java 17 sealed classes)
//! for class files up to Java 17, and Debian's 0.8.14 (which
//! `scripts/setup.sh` unpacks into [`MODERN_JACOCO_DIR`]) for Java 18 to 25.

use model::names::BinaryName;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::cache::{cached_build, compile_helper, file_stamp, hash_parts, run_jar, write_file};
use crate::command::{cannot_run, join_paths, path_str};
use crate::error::{Error, Result};
use crate::{DEBIAN_JAVA_DIR, Jdk};

const AGENT_SOURCE: &str = include_str!("../../../tools/java/FerroAgent.java");
const COVERAGE_SOURCE: &str = include_str!("../../../tools/java/JacocoCoverage.java");

/// Where `scripts/setup.sh` unpacks JaCoCo 0.8.14 and ASM 9.9.1 from
/// Debian's archive (`libjacoco-java_0.8.14-1`, `libasm-java_9.9.1-1`):
/// `org.jacoco.agent.jar`, `org.jacoco.core.jar`, `asm.jar`,
/// `asm-commons.jar`, `asm-tree.jar`.
pub const MODERN_JACOCO_DIR: &str = "/opt/ferrosuite/jacoco-0.8.14";

/// The JaCoCo release that measures a class, by its class-file version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JacocoRelease {
    /// Debian 12's `libjacoco-java` 0.8.6, in [`DEBIAN_JAVA_DIR`]: class files up to Java 17 (major 61).
    Debian086,
    /// JaCoCo 0.8.14 in [`MODERN_JACOCO_DIR`]: class files of Java 18 to 25 (majors 62 to 69).
    Modern0814,
}

impl JacocoRelease {
    /// The release that measures class files of major version `major`:
    /// the one ferrosuite's goals agree with (`analysis::filter::modern`).
    pub fn for_major(major: u16) -> JacocoRelease {
        if major > model::classfile::JACOCO_086_MAX_MAJOR {
            JacocoRelease::Modern0814
        } else {
            JacocoRelease::Debian086
        }
    }

    /// The folder of its jars.
    pub fn dir(self) -> &'static Path {
        Path::new(match self {
            JacocoRelease::Debian086 => DEBIAN_JAVA_DIR,
            JacocoRelease::Modern0814 => MODERN_JACOCO_DIR,
        })
    }

    /// How to install it, for error messages.
    fn install(self, jar: &str) -> &'static str {
        match (self, jar.starts_with("asm")) {
            (JacocoRelease::Debian086, false) => "`apt-get install libjacoco-java`",
            (JacocoRelease::Debian086, true) => "`apt-get install libasm-java`",
            (JacocoRelease::Modern0814, _) => "`scripts/setup.sh` (it unpacks Debian's JaCoCo 0.8.14 there)",
        }
    }

    /// JaCoCo's core and the ASM jars it needs at run time.
    ///
    /// # Errors
    /// [`Error::MissingJacocoJar`], which says how to install the jar.
    pub fn core_jars(self) -> Result<Vec<PathBuf>> {
        let mut jars = Vec::new();
        for jar in ["org.jacoco.core.jar", "asm.jar", "asm-commons.jar", "asm-tree.jar"] {
            let path = self.dir().join(jar);
            if !path.is_file() {
                return Err(Error::MissingJacocoJar { jar: path, install: self.install(jar) });
            }
            jars.push(path);
        }
        Ok(jars)
    }

    /// Whether the release needs `FerroAgent` to instrument sealed classes (0.8.6 only).
    fn needs_helper_agent(self) -> bool {
        self == JacocoRelease::Debian086
    }

    /// Whether its jars are all there.
    pub fn is_installed(self) -> bool {
        self.core_jars().is_ok() && self.dir().join("org.jacoco.agent.jar").is_file()
    }
}

/// Runs tests under the JaCoCo agent (Debian's `libjacoco-java` 0.8.6),
/// recording the class under test and its nested classes only.
#[derive(Debug, Clone)]
pub struct JacocoSetup {
    /// `jacocoagent.jar`, extracted from `org.jacoco.agent.jar` (a jar inside the jar).
    pub agent_jar: PathBuf,
    /// `FerroAgent`'s jar: strips `PermittedSubclasses` before JaCoCo 0.8.6
    /// sees a class (`None` with JaCoCo 0.8.14, which reads them).
    pub helper_agent_jar: Option<PathBuf>,
    /// The `.exec` file the agent appends to at JVM exit.
    pub exec_file: PathBuf,
    /// The class under test (`pkg.Outer`).
    pub cut: BinaryName,
}

impl JacocoSetup {
    /// The agent of JaCoCo `release` (its `org.jacoco.agent.jar`), writing to
    /// `exec_file`. Execution data is appended: delete the file first for a
    /// fresh measurement (two runs in two orders may share one file).
    ///
    /// # Errors
    /// When the agent jar is missing ([`Error::MissingJacocoAgent`], which
    /// says how to install it) or cannot be extracted, or the helper agent
    /// cannot be built ([`Error::CacheBuild`]).
    pub fn new(jdk: &Jdk, release: JacocoRelease, exec_file: &Path, cut: &str) -> Result<JacocoSetup> {
        let outer_jar = release.dir().join("org.jacoco.agent.jar");
        if !outer_jar.is_file() {
            return Err(Error::MissingJacocoAgent { jar: outer_jar, install: release.install("org.jacoco.agent.jar") });
        }
        let mut setup = JacocoSetup::with_agent_from(jdk, &outer_jar, exec_file, cut)?;
        if !release.needs_helper_agent() {
            setup.helper_agent_jar = None;
        }
        Ok(setup)
    }

    /// Like [`JacocoSetup::new`] for JaCoCo 0.8.6 with another
    /// `org.jacoco.agent.jar` (the jar that holds `jacocoagent.jar`).
    ///
    /// # Errors
    /// As [`JacocoSetup::new`].
    pub fn with_agent_from(jdk: &Jdk, outer_jar: &Path, exec_file: &Path, cut: &str) -> Result<JacocoSetup> {
        if !outer_jar.is_file() {
            let install = JacocoRelease::Debian086.install("org.jacoco.agent.jar");
            return Err(Error::MissingJacocoAgent { jar: outer_jar.to_path_buf(), install });
        }
        let key = hash_parts(&[AGENT_SOURCE.as_bytes(), path_str(&jdk.home)?.as_bytes(), &file_stamp(outer_jar)?]);
        let dir = cached_build("agents", key, |dir| build_agents(jdk, outer_jar, dir))?;
        Ok(JacocoSetup {
            agent_jar: dir.join("jacocoagent.jar"),
            helper_agent_jar: Some(dir.join("ferroagent.jar")),
            exec_file: exec_file.to_path_buf(),
            cut: BinaryName::new(cut),
        })
    }

    /// The JVM options that load both agents (`exec_file` resolved against `cwd`).
    pub fn java_options(&self, cwd: &Path) -> Vec<String> {
        let exec = cwd.join(&self.exec_file);
        let helper = self.helper_agent_jar.iter().map(|h| format!("-javaagent:{}={}", h.display(), self.cut));
        helper
            .chain([format!(
                "-javaagent:{}=destfile={},includes={}:{}$*,append=true,inclbootstrapclasses=false",
                self.agent_jar.display(),
                exec.display(),
                self.cut,
                self.cut
            )])
            .collect()
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
/// When the jars of JaCoCo `release` are missing ([`Error::MissingJacocoJar`],
/// which says how to install them), the class is not in `classes`, or
/// JaCoCo cannot analyse it ([`Error::JacocoFailed`]).
pub fn jacoco_coverage(
    jdk: &Jdk,
    release: JacocoRelease,
    exec_file: &Path,
    classes: &Path,
    cut: &str,
) -> Result<Coverage> {
    parse_total(&coverage_report(jdk, release, exec_file, classes, cut)?, cut)
}

/// The lines with an instruction executed, per class (binary name) of
/// `cut` and its nested classes, from a JaCoCo `.exec` file analysed as
/// [`jacoco_coverage`] does.
///
/// # Errors
/// As [`jacoco_coverage`].
pub fn jacoco_covered_lines(
    jdk: &Jdk,
    release: JacocoRelease,
    exec_file: &Path,
    classes: &Path,
    cut: &str,
) -> Result<BTreeMap<String, BTreeSet<u32>>> {
    Ok(parse_lines(&coverage_report(jdk, release, exec_file, classes, cut)?))
}

/// What `JacocoCoverage` prints for `cut` (see `tools/java/JacocoCoverage.java`).
fn coverage_report(jdk: &Jdk, release: JacocoRelease, exec_file: &Path, classes: &Path, cut: &str) -> Result<String> {
    let tool_cp = coverage_tool(jdk, release)?;
    let output = Command::new(jdk.tool("java"))
        .args(["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", &tool_cp, "JacocoCoverage"])
        .args([exec_file, classes])
        .arg(cut)
        .stdin(Stdio::null())
        .output()
        .map_err(cannot_run("java"))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(Error::JacocoFailed {
            cut: BinaryName::new(cut),
            status: output.status,
            stderr: stderr.trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The `LINES` rows of `JacocoCoverage`'s output: covered lines per class.
fn parse_lines(stdout: &str) -> BTreeMap<String, BTreeSet<u32>> {
    let rows = stdout.lines().filter_map(|l| l.strip_prefix("LINES\t"));
    rows.filter_map(|row| {
        let (class, lines) = row.split_once('\t')?;
        let lines = lines.split(',').filter_map(|n| n.parse().ok()).collect();
        Some((class.replace('/', "."), lines))
    })
    .collect()
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

/// The class path that runs `JacocoCoverage` with JaCoCo `release` (compiled on first use).
fn coverage_tool(jdk: &Jdk, release: JacocoRelease) -> Result<String> {
    let jars = release.core_jars()?;
    let mut parts = vec![COVERAGE_SOURCE.as_bytes().to_vec(), AGENT_SOURCE.as_bytes().to_vec()];
    parts.push(path_str(&jdk.home)?.as_bytes().to_vec());
    for path in &jars {
        parts.push(file_stamp(path)?);
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
    fn the_lines_rows_give_the_covered_lines_per_class() {
        let lines = parse_lines("LINES\tp.A\t3,4,9\np.A\t3\t5\nLINES\tp.A$B\t\nTOTAL\t3\t4\t1\t2\t9\n");
        assert_eq!(lines["p.A"], BTreeSet::from([3, 4, 9]));
        assert!(lines["p.A$B"].is_empty());
        assert_eq!(parse_total("LINES\tp.A\t3\nTOTAL\t3\t4\t1\t2\t9\n", "p.A").unwrap().lines_covered, 3);
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
        assert!(matches!(&err, Error::MissingJacocoAgent { .. }), "{err:?}");
        assert_eq!(
            err.to_string(),
            format!(
                "the JaCoCo agent {} is missing: install it with `apt-get install libjacoco-java`",
                missing.display()
            )
        );
    }
}
