//! `ferrosuite bench ablation` on a corpus of one small fixture class
//! (`fixtures.SmallArith`), two seeds, 3 s each: the tables, `runs.csv`,
//! `ablation.csv` and one output folder per run; and the error for an
//! unknown feature.

mod util;

#[test]
fn each_class_runs_with_and_without_the_feature_per_seed() {
    let tmp = tempfile::tempdir().unwrap();
    util::fixtures_jar(tmp.path(), &[]);
    let corpus = tmp.path().join("corpus.txt");
    std::fs::write(&corpus, "# one class\nfixtures.jar fixtures.SmallArith\n").unwrap();
    let out = tmp.path().join("out");
    let stdout = util::ferrosuite_ok(&[
        "bench",
        "ablation",
        "--feature",
        "evoobj",
        "--corpus",
        corpus.to_str().unwrap(),
        "--jar-dir",
        tmp.path().to_str().unwrap(),
        "--seeds",
        "2",
        "--budget-secs",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    let header = "| class | runs with/without | branch % with | branch % without | difference (points) | A12 | p | \
                  verdict | line % with | line % without | templates made | templates inserted | guided tests | \
                  goals covered | DSE solved | goals covered by DSE | synthesis share % | synthesis ms per target |";
    assert!(stdout.lines().any(|l| l == header), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("| fixtures.SmallArith | 2/2 | ")), "{stdout}");
    assert!(stdout.contains("wins (A12 > 0.5, p < 0.05): "), "{stdout}");
    let csv = std::fs::read_to_string(out.join("ablation.csv")).unwrap();
    assert!(csv.starts_with("class,runs_with,runs_without,branch_with,branch_without,difference,a12,p_value,verdict,"));
    assert!(csv.lines().any(|l| l.starts_with("fixtures.SmallArith,2,2,")), "{csv}");
    assert!(stdout.contains(&csv), "the CSV on standard output is ablation.csv");
    let runs = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    let variants: Vec<(&str, &str)> = runs
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[1], f[2])
        })
        .collect();
    assert_eq!(variants, [("with", "1"), ("without", "1"), ("with", "2"), ("without", "2")], "{runs}");
    for run in ["with-seed1", "without-seed1", "with-seed2", "without-seed2"] {
        assert!(out.join("fixtures.SmallArith").join(run).join("report.json").is_file(), "{run}");
        assert!(out.join("fixtures.SmallArith").join(run).join("row.json").is_file(), "{run}: kept for --resume");
    }
    // The "without" runs were given --no-evoobj: their report has no EvoObj numbers.
    let report = std::fs::read_to_string(out.join("fixtures.SmallArith/without-seed1/report.json")).unwrap();
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    assert!(report["classes"][0]["techniques"]["evoobj"].is_null(), "{report}");
}

#[test]
fn an_unknown_feature_is_an_input_error_naming_the_known_ones() {
    let out = util::ferrosuite(&["bench", "ablation", "--feature", "magic", "--corpus", "/nonexistent"]);
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("unknown feature magic; known: evoobj, kat, mocks"), "{stderr}");
}
