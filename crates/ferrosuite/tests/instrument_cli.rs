//! `ferrosuite instrument` on small inputs: several `--class`es share one
//! probe-id space; an output directory of an earlier run is refused; a
//! `--jar` that is not a class-path entry is an error; a corrupt jar entry
//! fails that class only; methods left without probes are named.

mod util;

use std::path::Path;

use instrument::InstrumentedClass;

const A: &str = "package p; public class A { static int f(int x) { return x > 0 ? 1 : 2; } }";
const B: &str = "package p; public class B { static int g(int y) { if (y == 3) return 4; return y < 0 ? 5 : 6; } }";

fn run(args: &[&str]) -> (i32, String, String) {
    let out = util::ferrosuite(args);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap(), text(&out.stdout), text(&out.stderr))
}

fn probes(out: &Path) -> Vec<InstrumentedClass> {
    serde_json::from_slice(&std::fs::read(out.join("probes.json")).unwrap()).unwrap()
}

#[test]
fn several_classes_in_one_run_share_one_probe_id_space() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = util::compile(tmp.path(), &[("p/A.java", A), ("p/B.java", B)], &[]);
    let out = tmp.path().join("out");
    let (code, stdout, stderr) = run(&[
        "instrument",
        "--classpath",
        classes.to_str().unwrap(),
        "--class",
        "p.A",
        "--class",
        "p.B",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("instrumented 2 classes into"), "{stdout}");
    let probes = probes(&out);
    let names: Vec<&str> = probes.iter().map(|c| c.class.as_str()).collect();
    assert_eq!(names, ["p/A", "p/B"]);
    assert!(!probes[0].plan.branches.is_empty());
    assert_eq!(probes[1].bases, probes[0].bases.after(&probes[0].plan), "p.B's ids follow p.A's");
    assert!(out.join("p/A.class").is_file() && out.join("p/B.class").is_file());
}

#[test]
fn an_output_directory_that_holds_an_earlier_run_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = util::compile(tmp.path(), &[("p/A.java", A), ("p/B.java", B)], &[]);
    let (cp, out) = (classes.to_str().unwrap(), tmp.path().join("out"));
    let out = out.to_str().unwrap();
    let (code, _, stderr) = run(&["instrument", "--classpath", cp, "--class", "p.A", "--out", out]);
    assert_eq!(code, 0, "{stderr}");
    // A second run would hand out p.B the same probe ids as p.A.
    let (code, stdout, stderr) = run(&["instrument", "--classpath", cp, "--class", "p.B", "--out", out]);
    assert_eq!(code, 3, "{stdout}{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with(&format!("error: {out} already holds probes.json from an earlier run")), "{stderr}");
    assert!(stderr.contains("use a new --out directory"), "{stderr}");
    assert!(!Path::new(out).join("p/B.class").exists());
    assert_eq!(probes(Path::new(out)).len(), 1);
}

#[test]
fn a_jar_that_is_not_a_class_path_entry_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = util::compile(tmp.path(), &[("p/A.java", A)], &[]);
    let jar = tmp.path().join("a.jar");
    util::jar_dir(&classes, &jar);
    let out = tmp.path().join("out");
    // Two existing jars glued with `:` are not one jar: this used to
    // instrument nothing and succeed.
    let glued = format!("{}:{}", jar.display(), jar.display());
    let (code, stdout, stderr) = run(&["instrument", "--jar", &glued, "--out", out.to_str().unwrap()]);
    assert_eq!(code, 3, "{stdout}{stderr}");
    assert_eq!(stderr.trim_end(), format!("error: --jar {glued} does not exist"));
    let missing = tmp.path().join("missing.jar");
    let (code, _, stderr) = run(&["instrument", "--jar", missing.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("does not exist"), "{stderr}");
    assert!(!out.join("probes.json").exists());
}

#[test]
fn a_corrupt_jar_entry_fails_that_class_and_the_others_are_instrumented() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = util::compile(tmp.path(), &[("p/A.java", A), ("p/B.java", B)], &[]);
    let jar = tmp.path().join("ab.jar");
    util::jar_dir_stored(&classes, &jar);
    // Damage p/A.class inside the jar: the entry's CRC no longer matches.
    let class_a = std::fs::read(classes.join("p/A.class")).unwrap();
    let mut bytes = std::fs::read(&jar).unwrap();
    let at = bytes.windows(class_a.len()).position(|w| w == class_a).expect("stored entry");
    bytes[at + class_a.len() / 2] ^= 0xff;
    std::fs::write(&jar, bytes).unwrap();
    let out = tmp.path().join("out");
    let (code, stdout, stderr) = run(&["instrument", "--jar", jar.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 4, "{stdout}{stderr}");
    assert!(stdout.starts_with("instrumented 1 classes into") && stdout.contains("(1 failed,"), "{stdout}");
    assert!(stderr.starts_with("warning: p.A: corrupt jar"), "{stderr}");
    assert!(out.join("p/B.class").is_file() && !out.join("p/A.class").exists());
    let names: Vec<String> = probes(&out).into_iter().map(|c| c.class.to_string()).collect();
    assert_eq!(names, ["p/B"]);
}

#[test]
fn methods_left_without_some_probes_are_named_one_per_line() {
    let tmp = tempfile::tempdir().unwrap();
    // BigCode.nearLimit jumps 32,730 bytes: with probes the offset no longer
    // fits in 16 bits (see testdata/fixtures/README.md).
    let big = std::fs::read_to_string(util::repo().join("testdata/fixtures/src/fixtures/BigCode.java")).unwrap();
    let classes = util::compile(tmp.path(), &[("fixtures/BigCode.java", &big)], &[]);
    let out = tmp.path().join("out");
    let (code, stdout, stderr) = run(&[
        "instrument",
        "--classpath",
        classes.to_str().unwrap(),
        "--class",
        "fixtures.BigCode",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("(0 failed, 1 methods left without some probes)"), "{stdout}");
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.starts_with("warning: ")).collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(warnings[0].starts_with("warning: fixtures.BigCode.nearLimit (I)I: kept "), "{stderr}");
}
