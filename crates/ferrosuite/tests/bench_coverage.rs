//! `ferrosuite bench coverage` on a corpus of one class with an `assert`
//! (`testdata/assertions`): JaCoCo measures the suite as a Maven or Gradle
//! build runs it, with assertions enabled, so it counts the branches the
//! search counted.

mod util;

#[test]
fn jacoco_counts_the_sides_of_asserts_as_the_search_does() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = tmp.path().join("classes");
    util::javac_dir(&util::repo().join("testdata/assertions/src"), &classes, &[]);
    util::jar_dir(&classes, &tmp.path().join("assertions.jar"));
    let corpus = tmp.path().join("corpus.txt");
    std::fs::write(&corpus, "# one class with an assert\nassertions.jar guard.Gauge\n").unwrap();
    let out = tmp.path().join("out");
    let stdout = util::ferrosuite_ok(&[
        "bench",
        "coverage",
        "--corpus",
        corpus.to_str().unwrap(),
        "--jar-dir",
        tmp.path().to_str().unwrap(),
        // 5 s left verification 1 s (the search takes 80%), and once, in
        // CI, javac and JUnit did not finish in it: every test was lost.
        "--budget-secs",
        "10",
        "--out",
        out.to_str().unwrap(),
    ]);
    let row = stdout.lines().find(|l| l.starts_with("guard.Gauge,")).unwrap_or_else(|| panic!("{stdout}"));
    let fields: Vec<&str> = row.split(',').collect();
    let (jacoco, failing): (f64, &str) = (fields[1].parse().unwrap(), fields[4]);
    assert_eq!(failing, "0", "{row}");
    let report = std::fs::read_to_string(out.join("guard.Gauge/report.json")).unwrap();
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    let branch = &report["classes"][0]["goals"]["branch"];
    let (covered, total) = (branch["covered"].as_f64().unwrap(), branch["total"].as_f64().unwrap());
    assert_eq!(total, 6.0, "the assert's condition and two ifs (JaCoCo leaves out `$assertionsDisabled`): {report}");
    // The search (whose workers run with -ea) covered the assert condition's
    // true side, which JaCoCo without -ea would not see evaluated.
    assert!(covered >= 4.0, "{report}");
    // JaCoCo 0.8.6 also counts the assert's plumbing, which our goals leave
    // out: the `$assertionsDisabled` test before the condition and the
    // `desiredAssertionStatus()` test of `<clinit>`, one side of each taken.
    // Without -ea it would see the condition unevaluated: (covered - 1 + 2) / 10.
    let expected = 100.0 * (covered + 2.0) / (total + 4.0);
    assert!((jacoco - expected).abs() < 0.05, "JaCoCo {jacoco}%, the search {covered}/{total}");
    // The machine's speed, from the report's executions per second.
    let speed =
        stdout.lines().find_map(|l| l.strip_prefix("machine speed: median ")).unwrap_or_else(|| panic!("{stdout}"));
    let median: f64 = speed.split(' ').next().unwrap().parse().unwrap();
    let reported = report["classes"][0]["executions_per_second_per_worker"].as_f64().unwrap();
    assert!((median - reported).abs() < 1.0, "{speed} against {reported}");
}
