//! Palus on the protocol fixtures of `testdata/palus` and their JUnit 4
//! sample tests, through the real binary: `palus model` (text, Graphviz
//! dot, JSON, errors, a sample run cut at its budget) and `generate
//! --sample-tests` with `--algorithm palus`.

mod util;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Compiles the fixtures and their sample tests into `dir`; returns (classes, tests).
fn compiled(dir: &Path) -> (PathBuf, PathBuf) {
    let root = util::repo().join("testdata/palus");
    let classes = dir.join("classes");
    let tests = dir.join("tests");
    std::fs::create_dir_all(&classes).unwrap();
    std::fs::create_dir_all(&tests).unwrap();
    util::javac_dir(&root.join("src"), &classes, &[]);
    let cp = format!("{}:/usr/share/java/junit4.jar", classes.display());
    util::javac_dir(&root.join("tests"), &tests, &["-cp", &cp]);
    (classes, tests)
}

/// Compiles `testdata/palus/<name>` against `classes` and JUnit 4 into `dir/<name>`.
fn compiled_extra(dir: &Path, classes: &Path, name: &str) -> PathBuf {
    let out = dir.join(name);
    std::fs::create_dir_all(&out).unwrap();
    let cp = format!("{}:/usr/share/java/junit4.jar", classes.display());
    util::javac_dir(&util::repo().join("testdata/palus").join(name), &out, &["-cp", &cp]);
    out
}

/// The `report.json` of a `generate` run into `out`.
fn report(out: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap()
}

fn model(classes: &Path, tests: &str, class: &str, more: &[&str]) -> (i32, String, String) {
    let mut args = vec!["palus", "model", "-c", classes.to_str().unwrap(), "--sample-tests", tests, "--class", class];
    args.extend_from_slice(more);
    let out = util::ferrosuite(&args);
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code().unwrap(), text(out.stdout), text(out.stderr))
}

#[test]
fn the_model_of_a_connection_comes_from_the_driver_with_the_recorded_urls() {
    let dir = tempfile::tempdir().unwrap();
    let (classes, tests) = compiled(dir.path());
    let (code, out, err) = model(&classes, tests.to_str().unwrap(), "protocols.Connection", &[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("7 tests passed, 1 skipped"), "the failing sample test is skipped: {err}");
    assert!(out.starts_with("model of protocols.Connection: 3 objects"), "{out}");
    assert!(
        out.contains("0 -> 1: Driver.connect(String) x3  [\"fake://orders\", \"fake://stock\"]  on Driver@1"),
        "made by the driver, with the URLs the tests used: {out}"
    );
    assert!(out.contains("query(String) x2  [\"select 1\", \"begin\"]"), "{out}");

    let (code, out, err) = model(&classes, tests.to_str().unwrap(), "protocols.Segment", &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("0 -> 1: new Segment(Vector) x1  [{size=2}]"), "the vector's profile: {out}");
}

#[test]
fn ktail_merges_states_and_dot_output_parses() {
    let dir = tempfile::tempdir().unwrap();
    let (classes, tests) = compiled(dir.path());
    let tests = tests.to_str().unwrap();
    let count = |out: &str| -> usize {
        let states = out.lines().next().unwrap().split(", ").nth(1).unwrap();
        states.trim_end_matches(" states").parse().unwrap()
    };
    let (_, tree, _) = model(&classes, tests, "protocols.Resource", &["--k", "0"]);
    let (_, merged, _) = model(&classes, tests, "protocols.Resource", &["--k", "1"]);
    assert_eq!(count(&tree), 11, "the prefix tree: {tree}");
    assert!(count(&merged) < count(&tree), "{merged}");

    let (code, dot, err) = model(&classes, tests, "protocols.Turnstile", &["--dot"]);
    assert_eq!(code, 0, "{err}");
    assert!(dot.starts_with("digraph \"protocols.Turnstile\" {"), "{dot}");
    assert!(dot.contains("[label=\"service(String)  [\\\"fix-42\\\"]\"]"), "{dot}");
    let file = dir.path().join("t.dot");
    std::fs::write(&file, &dot).unwrap();
    let svg = dir.path().join("t.svg");
    let status = Command::new("dot").args(["-Tsvg", "-o"]).arg(&svg).arg(&file).status();
    let status = status.expect("graphviz's dot (scripts/setup.sh installs graphviz)");
    assert!(status.success(), "dot rejects the output:\n{dot}");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
}

#[test]
fn json_lists_every_recorded_class_and_named_test_classes_limit_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let (classes, tests) = compiled(dir.path());
    let only_turnstile = format!("{}:protocols.TurnstileTest", tests.display());
    let (code, out, err) = model(&classes, &only_turnstile, "protocols.Turnstile", &["--json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let classes_seen: Vec<&str> = json["classes"].as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(classes_seen, ["protocols.Turnstile"], "only the named test class ran");
    assert_eq!(json["classes"]["protocols.Turnstile"]["objects"], 2);
}

#[test]
fn bad_sample_tests_and_unknown_classes_are_input_errors() {
    let dir = tempfile::tempdir().unwrap();
    let (classes, tests) = compiled(dir.path());
    let (code, _, err) = model(&classes, "/no/such/tests", "protocols.Driver", &[]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("/no/such/tests does not exist"), "{err}");
    let (code, _, err) = model(&classes, classes.to_str().unwrap(), "protocols.Driver", &[]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("no JUnit 4 or 5 test method found"), "{err}");
    let (code, _, err) = model(&classes, tests.to_str().unwrap(), "protocols.Drivr", &[]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("class protocols.Drivr is not on the class path (did you mean protocols.Driver"), "{err}");
    let (code, _, err) =
        model(&classes, &format!("{}:protocols.SegmentTest", tests.display()), "protocols.Driver", &[]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("the sample tests made no object of protocols.Driver (recorded: protocols.Segment)"), "{err}");
}

#[test]
fn a_sample_run_cut_by_its_budget_keeps_what_it_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let (classes, _) = compiled(dir.path());
    let slow = compiled_extra(dir.path(), &classes, "slow");
    let started = std::time::Instant::now();
    let tests = format!("{}:protocols.SlowTest", slow.display());
    let (code, out, err) =
        model(&classes, &tests, "protocols.Turnstile", &["--sample-budget", "5", "--test-timeout", "120"]);
    assert_eq!(code, 0, "{err}");
    assert!(started.elapsed().as_secs() < 60, "the run was cut at its budget");
    assert!(out.contains("coin(int) x1  [10]") && out.contains("coin(int) x1  [20]"), "{out}");
}

#[test]
fn generate_with_sample_tests_guides_the_search_through_the_driver() {
    let dir = tempfile::tempdir().unwrap();
    let (classes, tests) = compiled(dir.path());
    let out = dir.path().join("out");
    let args = [
        "generate",
        "-c",
        classes.to_str().unwrap(),
        "--class",
        "protocols.Connection",
        "--algorithm",
        "palus",
        "--sample-tests",
        tests.to_str().unwrap(),
        "--evaluations",
        "300",
        "--seed",
        "1",
        "--no-evoobj",
        "--no-kat",
        "--out",
        out.to_str().unwrap(),
    ];
    let stdout = util::ferrosuite_ok(&args);
    assert!(stdout.contains("sample run: 7 tests passed, 1 skipped"), "{stdout}");
    let report = report(&out);
    let class = &report["classes"][0];
    let palus = &class["techniques"]["palus"];
    assert!(palus["guided_tests"].as_f64().unwrap() > 0.0, "{palus}");
    assert!(palus["goals_covered"].as_f64().unwrap() > 0.0, "the guided phase covered goals first: {palus}");
    let uncovered: Vec<&str> =
        class["uncovered"].as_array().unwrap().iter().map(|u| u["goal"].as_str().unwrap()).collect();
    assert!(
        !uncovered.iter().any(|g| g.contains("this.inTransaction")),
        "a begin before a commit on a driver's connection, as the sample tests do: {uncovered:?}"
    );
    let suite = std::fs::read_to_string(out.join("protocols/Connection_FerroTest.java")).unwrap();
    // The recorded URL is passed in a variable or, used once, written in the call.
    let recorded = suite.contains("\"fake://orders\"") || suite.contains("\"fake://stock\"");
    assert!(
        suite.contains(".connect(\"fake://orders\")")
            || suite.contains(".connect(\"fake://stock\")")
            || suite.contains(".connect(string") && recorded,
        "connections come from the driver with a recorded URL:\n{suite}"
    );
}

#[test]
fn param_values_reach_a_branch_no_constant_gives_away() {
    let dir = tempfile::tempdir().unwrap();
    let (classes, _) = compiled(dir.path());
    let values = dir.path().join("values.json");
    std::fs::write(&values, r#"{"protocols.Lock.open(I)Z": [4242, "not an int"]}"#).unwrap();
    let out = dir.path().join("out");
    let args = [
        "generate",
        "-c",
        classes.to_str().unwrap(),
        "--class",
        "protocols.Lock",
        "--param-values",
        values.to_str().unwrap(),
        "--evaluations",
        "200",
        "--seed",
        "3",
        "--no-evoobj",
        "--no-kat",
        "--out",
        out.to_str().unwrap(),
    ];
    util::ferrosuite_ok(&args);
    let report = report(&out);
    assert_eq!(report["classes"][0]["uncovered"], serde_json::json!([]), "{report}");
    let suite = std::fs::read_to_string(out.join("protocols/Lock_FerroTest.java")).unwrap();
    assert!(suite.contains("4242"), "{suite}");

    std::fs::write(&values, r#"{"open": [1]}"#).unwrap();
    let out = util::ferrosuite(&args);
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--param-values: key \"open\" is not pkg.Class.method"), "{err}");
}

#[test]
fn a_theory_that_fails_on_generated_objects_is_a_finding_with_its_witness() {
    let dir = tempfile::tempdir().unwrap();
    let (classes, _) = compiled(dir.path());
    let theories = compiled_extra(dir.path(), &classes, "theories");
    let out = dir.path().join("out");
    let class_path = format!(
        "{}:{}:/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar",
        classes.display(),
        theories.display()
    );
    let args = [
        "generate",
        "-c",
        &class_path,
        "--class",
        "protocols.Turnstile",
        "--theories",
        "protocols.TurnstileTheories",
        "--evaluations",
        "300",
        "--seed",
        "1",
        "--no-evoobj",
        "--no-kat",
        "--no-contracts",
        "--out",
        out.to_str().unwrap(),
    ];
    util::ferrosuite_ok(&args);
    let report = report(&out);
    let class = &report["classes"][0];
    let findings: Vec<&serde_json::Value> =
        class["findings"].as_array().unwrap().iter().filter(|f| f["kind"] == "theory").collect();
    assert_eq!(findings.len(), 1, "only the wrong theory: {findings:#?}");
    let f = findings[0];
    assert!(
        f["message"].as_str().unwrap().starts_with(
            "theory TurnstileTheories.everyTurnstileIsUnlocked does not hold: it throws java.lang.AssertionError"
        ),
        "{f}"
    );
    let witness = f["witness"].as_str().unwrap();
    let file = std::fs::read_to_string(out.join("protocols/Turnstile_FerroFindingsTest.java")).unwrap();
    assert!(
        file.contains(&format!("public void {witness}()")) && file.contains(".everyTurnstileIsUnlocked("),
        "{file}"
    );
    let suite = std::fs::read_to_string(out.join("protocols/Turnstile_FerroTest.java")).unwrap();
    assert!(!suite.contains("everyTurnstileIsUnlocked"), "the regression suite never asserts the violation:\n{suite}");
    assert!(class["techniques"]["theories"]["probes"].as_f64().unwrap() > 0.0, "{class}");
}

#[test]
fn a_main_class_can_be_the_sample_run() {
    let dir = tempfile::tempdir().unwrap();
    let (classes, _) = compiled(dir.path());
    let demo = compiled_extra(dir.path(), &classes, "main");
    let cp = format!("{}:{}", classes.display(), demo.display());
    let out = util::ferrosuite(&[
        "palus",
        "model",
        "-c",
        &cp,
        "--sample-main",
        "demo.Demo",
        "--class",
        "protocols.Turnstile",
    ]);
    let (stdout, stderr) = (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap());
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("sample run: 1 tests passed, 0 skipped"), "{stderr}");
    assert!(stdout.contains("1 -> 2: coin(int) x1  [25]") && stdout.contains("3 -> 4: push() x1"), "{stdout}");
    let out = util::ferrosuite(&[
        "palus",
        "model",
        "-c",
        &cp,
        "--sample-main",
        "demo.Nope",
        "--class",
        "protocols.Turnstile",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
}
