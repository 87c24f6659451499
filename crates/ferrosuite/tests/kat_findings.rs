//! KAT in `generate` (on by default): the real binary on
//! `testdata/kat/src/misuse/Calls.java`. Every unguarded call of a
//! documented JDK method whose exception the search provokes is a finding
//! with a witness test in `Calls_FerroFindingsTest.java`; no guarded call
//! is; the regression suite never asserts a finding's exception as correct;
//! both test classes compile and pass under JUnit; `--no-kat` turns it off.

mod util;

use std::path::Path;

/// Compiles the fixture into `dir/classes` and runs `generate` on
/// `misuse.Calls` with `extra` options into `dir/out`; the report's class.
fn generate(dir: &Path, extra: &[&str]) -> serde_json::Value {
    let classes = dir.join("classes");
    util::javac_dir(&util::repo().join("testdata/kat/src"), &classes, &[]);
    let out = dir.join("out");
    let mut args = vec!["generate", "-c", classes.to_str().unwrap(), "--class", "misuse.Calls"];
    args.extend(["--evaluations", "4000", "--seed", "1", "--out", out.to_str().unwrap()]);
    args.extend(extra);
    util::ferrosuite_ok(&args);
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    report["classes"][0].clone()
}

#[test]
fn unguarded_misuses_are_findings_with_witness_tests_of_their_own() {
    let tmp = tempfile::tempdir().unwrap();
    let sources = util::repo().join("testdata/kat/src");
    let class = generate(tmp.path(), &["--sources", sources.to_str().unwrap()]);
    // One goal per potential violation (9 triggers at the 7 unguarded
    // calls), each covered by the search.
    let kat_goals = &class["goals"]["api-misuse"];
    assert!(kat_goals["total"].as_u64().unwrap() >= 7, "{kat_goals}");
    assert_eq!(kat_goals["covered"], kat_goals["total"], "{kat_goals}");
    // Uncovered goals say their kind, so `bench triage` can tell KAT's from the class file's.
    let uncovered = class["uncovered"].as_array().unwrap();
    assert!(uncovered.iter().all(|u| u["kind"].is_string()), "{uncovered:?}");
    // KAT's budget shares its targeted tests among the 7 methods holding goals.
    let kat = &class["techniques"]["kat"];
    assert_eq!(kat["methods"], 7.0, "{kat}");
    assert_eq!(kat["goals"], kat_goals["total"].as_f64().unwrap(), "{kat}");
    let findings = class["findings"].as_array().expect("findings");
    let method = |f: &serde_json::Value| f["method"].as_str().unwrap().split('(').next().unwrap().to_string();
    let mut methods: Vec<String> = findings.iter().map(method).collect();
    methods.sort();
    for expected in ["charAt", "first", "need", "number", "tail"] {
        assert!(methods.iter().any(|m| m == expected), "no finding in {expected}: {methods:?}");
    }
    assert!(methods.iter().all(|m| !m.ends_with("Guarded") && m != "loop" && m != "yes"), "{methods:?}");
    let char_at = findings.iter().find(|f| method(f) == "charAt").unwrap();
    assert_eq!(char_at["kind"], "api-misuse");
    assert_eq!(char_at["origin"], "kat");
    assert_eq!(char_at["location"], "Calls.java:15");
    let message = char_at["message"].as_str().unwrap();
    assert!(
        message.starts_with("java.lang.String.charAt(int) throws java.lang.IndexOutOfBoundsException"),
        "{message}"
    );
    let trace: Vec<&str> = char_at["stack_trace"].as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
    assert!(trace.iter().any(|t| t.starts_with("java.lang.String.charAt")), "{trace:?}");
    assert_eq!(trace.last().copied(), Some("misuse.Calls.charAt:15"), "{trace:?}");

    let out = tmp.path().join("out");
    // report.sarif holds every finding, at its source line (its schema is checked in crates/reports).
    let sarif: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("report.sarif")).unwrap()).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), findings.len());
    let at_line_15 =
        results.iter().find(|r| r["message"]["text"].as_str().unwrap().starts_with("java.lang.String.charAt"));
    let physical = &at_line_15.expect("the charAt finding")["locations"][0]["physicalLocation"];
    let uri = physical["artifactLocation"]["uri"].as_str().unwrap();
    assert_eq!(uri, format!("file://{}", sources.join("misuse/Calls.java").display()), "where --sources has it");
    assert_eq!(physical["region"]["startLine"], 15);
    assert_eq!(class["findings_file"], "misuse/Calls_FerroFindingsTest.java");
    // report.html shows each finding with its witness test's code (its structure is checked in crates/reports).
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<section id=\"c-misuse-Calls\">"), "{html}");
    assert_eq!(html.matches("<pre>").count(), findings.len(), "one witness per finding");
    assert!(html.contains("java.lang.String.charAt(int) throws java.lang.IndexOutOfBoundsException"));
    let witnesses = std::fs::read_to_string(out.join("misuse/Calls_FerroFindingsTest.java")).unwrap();
    let regression = std::fs::read_to_string(out.join("misuse/Calls_FerroTest.java")).unwrap();
    for f in findings {
        let name = f["witness"].as_str().unwrap();
        assert!(witnesses.contains(&format!("public void {name}()")), "{name}\n{witnesses}");
        assert!(!regression.contains(&format!("public void {name}()")), "{name}");
    }
    assert!(
        witnesses.contains("    // Likely bug (api-misuse, confidence 0.75) at Calls.java:15 in charAt("),
        "{witnesses}"
    );
    for exception in ["StringIndexOutOfBoundsException", "NoSuchElementException", "NumberFormatException"] {
        assert!(
            !regression.contains(&format!("catch ({exception}")),
            "the regression suite expects {exception}:\n{regression}"
        );
    }
    run_both(tmp.path(), &out);
}

/// Compiles both test classes and runs them under JUnit: every test passes.
fn run_both(dir: &Path, out: &Path) {
    let sources: Vec<_> = ["Calls_FerroTest", "Calls_FerroFindingsTest"]
        .map(|c| (format!("misuse.{c}"), out.join(format!("misuse/{c}.java"))))
        .into();
    util::all_pass_under_junit4(&dir.join("classes"), &dir.join("test-classes"), &sources, junit::test_methods_in);
}

#[test]
fn no_kat_writes_no_findings() {
    let tmp = tempfile::tempdir().unwrap();
    let class = generate(tmp.path(), &["--no-kat"]);
    assert!(class["findings"].is_null(), "{}", class["findings"]);
    assert!(class["findings_file"].is_null());
    assert!(class["goals"]["api-misuse"].is_null(), "{}", class["goals"]);
    assert!(!tmp.path().join("out/misuse/Calls_FerroFindingsTest.java").exists());
}
