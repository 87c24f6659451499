//! `ferrosuite bench mutation` on a hand-written suite of the fixture of
//! `testdata/mutation` laid out as `bench coverage` leaves it: the suite
//! runs under JUnit against the class's mutants, and the table gives the
//! mutants, the reached, the killed and the survivors on covered lines.

mod util;

use std::path::Path;

/// The CSV row of `class` in the benchmark's output, by column name.
fn csv_row(stdout: &str, class: &str) -> std::collections::HashMap<String, String> {
    let header: Vec<&str> = stdout.lines().next().unwrap().split(',').collect();
    let row = stdout.lines().find(|l| l.starts_with(&format!("{class},"))).unwrap();
    header.iter().map(|h| h.to_string()).zip(row.split(',').map(str::to_string)).collect()
}

/// Lays out `DIR/CLASS` as `bench coverage` leaves it: the test source
/// (`test_file`, relative to `testdata/TESTS`) at its package path and a
/// `report.json` that names it.
fn suite_dir(dir: &Path, class: &str, tests: &str, test_file: &str) {
    let class_dir = dir.join(class);
    let target = class_dir.join(test_file);
    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
    std::fs::copy(util::repo().join("testdata").join(tests).join(test_file), target).unwrap();
    let report = format!(r#"{{"classes":[{{"class":"{class}","test_file":"{test_file}"}}]}}"#);
    std::fs::write(class_dir.join("report.json"), report).unwrap();
}

/// `bench mutation` on `jar` (in `tmp`) for `class`, whose suite is laid out in `tmp/dir`: its CSV row.
fn bench(tmp: &Path, jar: &str, class: &str) -> (String, std::collections::HashMap<String, String>) {
    std::fs::write(tmp.join("corpus.txt"), format!("{jar} {class}\n")).unwrap();
    let path = |p: &str| tmp.join(p).to_str().unwrap().to_string();
    let (corpus, jars, dir) = (path("corpus.txt"), path(""), path("dir"));
    let args = ["bench", "mutation", "--corpus", &corpus, "--jar-dir", &jars, "--dir", &dir];
    let stdout = util::ferrosuite_ok(&args);
    let row = csv_row(&stdout, class);
    (stdout, row)
}

#[test]
fn the_suite_runs_against_the_mutants_and_the_survivors_on_covered_lines_are_listed() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = tmp.path().join("classes");
    util::javac_dir(&util::repo().join("testdata/mutation/src"), &classes, &["-g"]);
    util::jar_dir(&classes, &tmp.path().join("grade.jar"));
    suite_dir(&tmp.path().join("dir"), "calc.Grade", "mutation/test", "calc/Grade_FerroTest.java");
    let (stdout, row) = bench(tmp.path(), "grade.jar", "calc.Grade");
    let n = |column: &str| row[column].parse::<usize>().unwrap();
    assert!(n("mutants") > n("reached"), "twice() is never called: {stdout}");
    assert!(n("killed") > 0 && n("killed") < n("reached"), "{stdout}");
    assert_eq!(n("failing_tests"), 1, "ofReturnsNope fails on the original: {stdout}");
    assert_eq!(n("unfinished"), 0, "{stdout}");
    // No test scores 50 points: moving the boundary goes unnoticed.
    assert!(stdout.contains("- calc.Grade line 10: replace constant 50 with 51"), "{stdout}");
    // The throw on line 8 never runs: its line is not covered, so nothing of it is listed.
    assert!(!stdout.contains("line 8:"), "{stdout}");
    // Both branches of line 10 are asserted: negating the condition is killed.
    assert!(!stdout.contains("line 10: replace a < b with a >= b"), "{stdout}");
}

/// In a sealed package the mutant schema of the class comes with the
/// package's other classes, copied beside it: loading `seal.Code` from the
/// sealed jar after the schema of `seal.Vault` from a folder would fail
/// every test with "sealing violation", as it did for xz's classes.
#[test]
fn a_class_of_a_sealed_package_is_measured_with_its_package_beside_the_schema() {
    let tmp = tempfile::tempdir().unwrap();
    util::sealed_jar(&util::repo().join("testdata/sealed/src"), tmp.path(), &tmp.path().join("sealed.jar"));
    suite_dir(&tmp.path().join("dir"), "seal.Vault", "sealed/test", "seal/ferrotest/Vault_FerroTest.java");
    let (stdout, row) = bench(tmp.path(), "sealed.jar", "seal.Vault");
    let n = |column: &str| row[column].parse::<usize>().unwrap();
    assert_eq!(n("failing_tests"), 0, "{stdout}");
    assert!(n("killed") > 0, "{stdout}");
}
