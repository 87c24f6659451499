//! Verification of emitted suites end to end: order-dependent tests are
//! caught (the final suite passes 10 runs in random order, measured by
//! `ferrosuite bench flaky`), a class whose tests are slow still ends
//! within 1.25 times its budget, and a test that trips an `assert` of the
//! class under test is cut (the workers run with `-ea`) or, one per
//! `assert`, kept as a finding's witness, so both suites pass with and
//! without `-ea`.

mod util;

use std::path::Path;
use std::time::{Duration, Instant};

/// The causes under which verification removes order-dependent tests or their assertions.
const ORDER_CAUSES: [&str; 4] = ["fails-under-junit", "fails-in-reverse-order", "fails-in-random-order", "fails-alone"];

fn report_of(out: &Path) -> serde_json::Value {
    let bytes = std::fs::read(out.join("report.json")).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    serde_json::from_slice::<serde_json::Value>(&bytes).unwrap()["classes"][0].clone()
}

/// How many tests and assertions `class` (a report entry) lost under the order causes.
fn removed_for_order(class: &serde_json::Value) -> u64 {
    let count = |key: &str| ORDER_CAUSES.iter().filter_map(|c| class[key][c].as_u64()).sum::<u64>();
    count("removed_tests_by_cause") + count("removed_assertions_by_cause")
}

#[test]
fn order_dependent_tests_are_caught_and_the_final_suite_passes_ten_runs_in_random_order() {
    let tmp = tempfile::tempdir().unwrap();
    util::edge_jar(tmp.path());
    let corpus = tmp.path().join("corpus.txt");
    std::fs::write(&corpus, "# the static ledger\nedge.jar edge.Ledger\n").unwrap();
    let out = tmp.path().join("bench");
    let output = util::ferrosuite(&[
        "bench",
        "flaky",
        "--corpus",
        corpus.to_str().unwrap(),
        "--jar-dir",
        tmp.path().to_str().unwrap(),
        "--evaluations",
        "1500",
        "--seed",
        "3",
        "--runs",
        "10",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let log = format!("{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(output.status.code(), Some(0), "{log}");
    let row = stdout.lines().find(|l| l.starts_with("| edge.Ledger |")).unwrap_or_else(|| panic!("{log}"));
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    let tests: usize = cells[2].parse().unwrap();
    assert!(tests > 0, "{log}");
    assert_eq!((cells[3], cells[4]), ("0", "0"), "failing and unstable tests: {log}");

    let class = report_of(&out.join("edge.Ledger"));
    assert!(removed_for_order(&class) > 0, "verification caught no order-dependent test: {class}");
    assert_eq!(class["verification_rounds_skipped"], serde_json::json!([]), "{class}");
}

#[test]
fn a_class_with_slow_tests_ends_within_a_quarter_over_its_budget() {
    let tmp = tempfile::tempdir().unwrap();
    let jar = util::edge_jar(tmp.path());
    let out = tmp.path().join("sleeper");
    let budget = Duration::from_secs(8);
    let started = Instant::now();
    let output = util::ferrosuite(&[
        "generate",
        "--classpath",
        jar.to_str().unwrap(),
        "--class",
        "edge.Sleeper",
        "--budget",
        "8s",
        "--seed",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    let elapsed = started.elapsed();
    let log = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{log}");
    assert!(elapsed <= budget.mul_f64(1.25), "edge.Sleeper took {elapsed:?} with a budget of {budget:?}\n{log}");
    let class = report_of(&out);
    assert_eq!(class["status"], "ok", "{class}");
    let suite = std::fs::read_to_string(out.join("edge/Sleeper_FerroTest.java")).unwrap();
    let kept = suite.matches("@Test").count() as u64;
    assert_eq!(Some(kept), class["tests"].as_u64(), "{suite}");
}

#[test]
fn a_tripped_assert_is_a_finding_and_both_suites_pass_with_and_without_assertions() {
    let tmp = tempfile::tempdir().unwrap();
    let jar = util::testdata_jar(tmp.path(), "assertions");
    let out = tmp.path().join("out");
    let args = ["generate", "--classpath", jar.to_str().unwrap(), "--class", "guard.Gauge"];
    util::ferrosuite_ok(
        &[&args[..], &["--out", out.to_str().unwrap(), "--evaluations", "2000", "--seed", "4"]].concat(),
    );
    let class = report_of(&out);
    // The workers run with `-ea`: a negative reading trips the assert there,
    // so its test is cut before the call (and, with nothing left, removed),
    // and `reading < -5` is never reached, as under Maven.
    let removed = &class["removed_tests_by_cause"];
    assert!(removed["trips-an-assert"].as_u64().is_some_and(|n| n >= 1), "no test tripped the assert: {class}");
    assert!(removed.get("fails-under-junit").is_none(), "verification had nothing to remove: {class}");
    let uncovered = class["uncovered"].to_string();
    assert!(uncovered.contains("reading < -5") || uncovered.contains("reading >= -5"), "{class}");
    // One test that trips it is kept whole as the witness of a finding.
    let findings = class["findings"].as_array().cloned().unwrap_or_default();
    let tripped: Vec<_> = findings.iter().filter(|f| f["kind"] == "tripped-assert").collect();
    assert_eq!(tripped.len(), 1, "{class}");
    assert_eq!(tripped[0]["location"], "Gauge.java:10", "{class}");
    assert!(tripped[0]["method"].as_str().is_some_and(|m| m.starts_with("level(I)")), "{class}");
    let jdk = javarun::Jdk::find().unwrap();
    let junit = javarun::JunitJars::debian(4).unwrap();
    let cp = format!("{}:{}", junit.compile_class_path(), jar.display());
    for test_class in ["Gauge_FerroTest", "Gauge_FerroFindingsTest"] {
        let file = format!("guard/{test_class}.java");
        let source = std::fs::read_to_string(out.join(&file)).unwrap();
        let names = junit::test_methods_in(&source);
        assert!(!names.is_empty(), "{source}");
        if test_class.contains("Findings") {
            assert!(source.contains("catch (AssertionError e)") || source.contains("Throwable thrown"), "{source}");
            assert!(source.contains("desiredAssertionStatus()"), "{source}");
        }
        let tests = util::compile(&tmp.path().join(test_class), &[(file.as_str(), &source)], &["-cp", &cp]);
        for enable_assertions in [false, true] {
            let run = javarun::TestRun {
                jdk: &jdk,
                test_classes_dir: &tests,
                class_path: jar.to_str().unwrap(),
                test_class: &format!("guard.{test_class}"),
                junit: &junit,
                jacoco: None,
                timeout: Duration::from_secs(20),
                confiner: None,
                deadline: None,
                isolated: false,
                enable_assertions,
                extra: None,
            };
            let verdicts = run.run(&names).unwrap();
            assert!(verdicts.iter().all(|v| v.passed), "-ea {enable_assertions}: {verdicts:?}\n{source}");
        }
    }
}
