//! `ferrosuite bench verify` on small jars: a run that ends early or exits
//! with a non-zero status leaves the jar unchecked (exit 4) instead of
//! counting as zero failures; a version-50 class whose StackMapTable the
//! type checker rejects is a failure even though the JVM falls back to the
//! old verifier; an empty `--classpath` does not put the working directory
//! on the class path.

mod util;

use std::path::{Path, PathBuf};

const PLAIN: &str = "package p; public class A { static int f(int x) { return x > 0 ? 1 : 2; } }";

/// Compiles `sources` (with `flags`) into a jar `dir/name.jar`.
fn jar(dir: &Path, name: &str, sources: &[(&str, &str)], flags: &[&str]) -> PathBuf {
    let classes = util::compile(&dir.join(name), sources, flags);
    let jar = dir.join(format!("{name}.jar"));
    util::jar_dir(&classes, &jar);
    jar
}

/// The output rows of `bench verify`, by jar file name.
fn rows(stdout: &str) -> Vec<(String, Vec<String>)> {
    stdout
        .lines()
        .filter(|l| l.contains(".jar\t"))
        .map(|l| {
            let cells: Vec<String> = l.split('\t').map(str::to_string).collect();
            let name = Path::new(&cells[0]).file_name().unwrap().to_string_lossy().into_owned();
            (name, cells[1..].to_vec())
        })
        .collect()
}

fn verify(cwd: &Path, jars: &[&Path]) -> (i32, String) {
    let mut args = vec!["bench", "verify"];
    for j in jars {
        args.extend(["--jar", j.to_str().unwrap()]);
    }
    let out = util::ferrosuite_in(cwd, &args);
    let stdout = String::from_utf8(out.stdout).unwrap();
    (out.status.code().unwrap(), format!("{stdout}{}", String::from_utf8_lossy(&out.stderr)))
}

/// A class that closes the JVM's standard output (so `LoadAll` prints no
/// `TOTAL` line, and exits 0), and one that prints a fake `TOTAL` line and
/// then has the JVM killed: both used to count as "0 failures".
#[test]
fn runs_that_do_not_complete_leave_the_jar_unchecked() {
    let tmp = tempfile::tempdir().unwrap();
    let close = "package p; public class Close { static { try {
        new java.io.FileOutputStream(java.io.FileDescriptor.out).close();
    } catch (java.io.IOException e) { throw new RuntimeException(e); } } }";
    let kill = "package p; public class Kill { static {
        new java.io.PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true).println(\"TOTAL 2 FAILED 0\");
        try {
            new ProcessBuilder(\"kill\", \"-9\", String.valueOf(ProcessHandle.current().pid())).start().waitFor();
            Thread.sleep(60_000);
        } catch (Exception e) { throw new RuntimeException(e); }
    } }";
    let close = jar(tmp.path(), "close", &[("p/A.java", PLAIN), ("p/Close.java", close)], &[]);
    let kill = jar(tmp.path(), "kill", &[("p/A.java", PLAIN), ("p/Kill.java", kill)], &[]);
    let (code, out) = verify(tmp.path(), &[&close, &kill]);
    assert_eq!(code, 4, "{out}");
    let unchecked =
        |name: &str| (name.to_string(), ["2", "0", "unchecked", "unchecked", "unchecked"].map(String::from).to_vec());
    assert_eq!(rows(&out), [unchecked("close.jar"), unchecked("kill.jar")], "{out}");
    assert!(out.contains("CHECK FAILED original run: LoadAll printed no `TOTAL n FAILED k` line"), "{out}");
    assert!(out.contains("CHECK FAILED original run: java exited with signal: 9"), "{out}");
    assert!(out.contains("jars whose check did not complete: 2"), "{out}");
}

/// A version-50 class without its StackMapTable (the attribute renamed):
/// the type checker rejects it and JDK 17 silently verifies it again with
/// the old verifier; `bench verify` must count it.
#[test]
fn a_version_50_class_that_fails_the_type_checker_is_a_failure() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = util::compile(
        &tmp.path().join("old"),
        &[("p/A.java", PLAIN), ("p/Old.java", &PLAIN.replace("class A", "class Old"))],
        &["--release", "7"],
    );
    let file = classes.join("p/Old.class");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[6..8].copy_from_slice(&50u16.to_be_bytes());
    let at = bytes.windows(13).position(|w| w == b"StackMapTable").unwrap();
    bytes[at + 12] = b'X'; // "StackMapTablX": an unknown attribute, ignored
    std::fs::write(&file, bytes).unwrap();
    let jar = tmp.path().join("old.jar");
    util::jar_dir(&classes, &jar);
    let (code, out) = verify(tmp.path(), &[&jar]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(rows(&out), [("old.jar".to_string(), ["2", "0", "1", "1", "0"].map(String::from).to_vec())], "{out}");
}

/// `p.A extends q.B`, and `q/B.class` is only in the working directory: with
/// no `--classpath`, `p.A` must fail to load (a trailing `:` in the class
/// path used to put the working directory on it).
#[test]
fn an_empty_classpath_leaves_the_working_directory_off_the_class_path() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = util::compile(
        &tmp.path().join("build"),
        &[("p/A.java", "package p; public class A extends q.B {}"), ("q/B.java", "package q; public class B {}")],
        &[],
    );
    let cwd = tmp.path().join("cwd");
    std::fs::create_dir_all(cwd.join("q")).unwrap();
    std::fs::rename(classes.join("q/B.class"), cwd.join("q/B.class")).unwrap();
    std::fs::remove_dir(classes.join("q")).unwrap();
    let jar = tmp.path().join("sub.jar");
    util::jar_dir(&classes, &jar);
    let (code, out) = verify(&cwd, &[&jar]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(rows(&out), [("sub.jar".to_string(), ["1", "0", "1", "1", "0"].map(String::from).to_vec())], "{out}");
}
