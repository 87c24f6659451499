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

/// Lays out `DIR/calc.Grade` as `bench coverage` leaves it: the test
/// source at its package path and a `report.json` that names it.
fn suite_dir(dir: &Path) {
    let class_dir = dir.join("calc.Grade");
    std::fs::create_dir_all(class_dir.join("calc")).unwrap();
    let test = util::repo().join("testdata/mutation/test/calc/Grade_FerroTest.java");
    std::fs::copy(test, class_dir.join("calc/Grade_FerroTest.java")).unwrap();
    let report = r#"{"classes":[{"class":"calc.Grade","test_file":"calc/Grade_FerroTest.java"}]}"#;
    std::fs::write(class_dir.join("report.json"), report).unwrap();
}

#[test]
fn the_suite_runs_against_the_mutants_and_the_survivors_on_covered_lines_are_listed() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = tmp.path().join("classes");
    util::javac_dir(&util::repo().join("testdata/mutation/src"), &classes, &["-g"]);
    util::jar_dir(&classes, &tmp.path().join("grade.jar"));
    suite_dir(&tmp.path().join("dir"));
    std::fs::write(tmp.path().join("corpus.txt"), "grade.jar calc.Grade\n").unwrap();
    let path = |p: &str| tmp.path().join(p).to_str().unwrap().to_string();
    let (corpus, jars, dir) = (path("corpus.txt"), path(""), path("dir"));
    let args = ["bench", "mutation", "--corpus", &corpus, "--jar-dir", &jars, "--dir", &dir];
    let stdout = util::ferrosuite_ok(&args);
    let row = csv_row(&stdout, "calc.Grade");
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
