//! ZoomIn through the real binary on the fixture `testdata/zoomin`: a
//! complex-number class with four planted non-crashing faults
//! (`src/numbers/Complex.java`), the developers' passing tests
//! (`tests/`), and a regression suite in the style of generated tests
//! that asserts each fault as correct (`generated/`). Also the learned
//! invariants against their expected set, `generate --manual-tests`, and
//! bad manual tests.

mod util;

use std::path::{Path, PathBuf};

/// The planted faults: (name in the `// FAULT` marker, witness test, the
/// assertion that encodes the fault).
const FAULTS: [(&str, &str, &str); 4] = [
    ("sign", "testAbsOfNegativeReal", "assertEquals(-3.5, double0, 0.01);"),
    ("zero", "testConjugateOfRealEquals", "assertFalse(boolean0);"),
    ("off-by-one", "testPowZero", "assertEquals(2.0, complex1.getRe(), 0.01);"),
    ("field", "testPlusZero", "assertEquals(1.5, complex1.getIm(), 0.01);"),
];

fn fixture() -> PathBuf {
    util::repo().join("testdata/zoomin")
}

/// `Complex.java` with only fault `keep` (every fault with `None`): the
/// other `// FAULT name: fixed` lines replaced by their fixed code.
fn variant(keep: Option<&str>) -> String {
    let source = std::fs::read_to_string(fixture().join("src/numbers/Complex.java")).unwrap();
    let mut out = String::new();
    for line in source.lines() {
        let fixed = line.split_once("// FAULT ").and_then(|(code, marker)| {
            let (name, fixed) = marker.split_once(": ")?;
            let indent: String = code.chars().take_while(|c| c.is_whitespace()).collect();
            (Some(name) != keep && keep.is_some()).then(|| format!("{indent}{fixed}"))
        });
        out.push_str(fixed.as_deref().unwrap_or(line));
        out.push('\n');
    }
    out
}

/// Compiles the variant of `Complex` with fault `keep` into `dir/classes`.
fn compile_variant(dir: &Path, keep: Option<&str>) -> PathBuf {
    let src = dir.join("src/numbers");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("Complex.java"), variant(keep)).unwrap();
    let classes = dir.join("classes");
    std::fs::create_dir_all(&classes).unwrap();
    util::javac_dir(&dir.join("src"), &classes, &[]);
    classes
}

/// Compiles `testdata/zoomin/<name>` against `classes` and JUnit 4 into `dir/<name>`.
fn compile_tests(dir: &Path, classes: &Path, name: &str) -> PathBuf {
    let out = dir.join(name);
    std::fs::create_dir_all(&out).unwrap();
    let cp = format!("{}:/usr/share/java/junit4.jar", classes.display());
    util::javac_dir(&fixture().join(name), &out, &["-cp", &cp]);
    out
}

/// `ferrosuite zoomin` on the fixture's generated suite, with `extra` arguments.
fn zoomin(classes: &Path, manual: &str, extra: &[&str]) -> std::process::Output {
    let generated = fixture().join("generated");
    let mut args = vec!["zoomin", "-c", classes.to_str().unwrap(), "--class", "numbers.Complex", "--manual-tests"];
    args.extend([manual, "--generated", generated.to_str().unwrap()]);
    args.extend_from_slice(extra);
    util::ferrosuite(&args)
}

/// The JSON object of class `numbers.Complex` that `zoomin --json` prints.
fn zoomin_json(classes: &Path, manual: &str) -> serde_json::Value {
    let out = zoomin(classes, manual, &["--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    json["classes"][0].clone()
}

/// `ferrosuite generate` of `numbers.Complex` into `out` with `--manual-tests
/// manual`; its standard error.
fn generate(classes: &Path, out: &Path, manual: &Path, budget: &str) -> String {
    let run = util::ferrosuite(&[
        "generate",
        "-c",
        classes.to_str().unwrap(),
        "--class",
        "numbers.Complex",
        "--out",
        out.to_str().unwrap(),
        "--seed",
        "1",
        "--budget",
        budget,
        "--manual-tests",
        manual.to_str().unwrap(),
    ]);
    let err = String::from_utf8(run.stderr).unwrap();
    assert!(run.status.success(), "{err}");
    err
}

/// The rank (from 1) of the group of the assertion `text` of test `test`
/// among the unsafe ones, and its score.
fn rank_of(class: &serde_json::Value, test: &str, text: &str) -> Option<(u64, f64)> {
    let ranked = class["ranked"].as_array().unwrap();
    let found = ranked.iter().find(|r| r["test"] == test && r["text"] == text)?;
    Some((found["group"].as_u64().unwrap(), found["score"].as_f64().unwrap()))
}

#[test]
fn each_planted_fault_is_in_the_top_five_and_plain_anomaly_detection_flags_ten_times_more() {
    let dir = tempfile::tempdir().unwrap();
    let original = compile_variant(&dir.path().join("all"), None);
    let manual = compile_tests(dir.path(), &original, "tests");
    println!("fault        rank  score  top-5 assertions  unsafe  plain  assertions");
    for (fault, test, text) in FAULTS {
        let classes = compile_variant(&dir.path().join(fault), Some(fault));
        let class = zoomin_json(&classes, manual.to_str().unwrap());
        let rank = rank_of(&class, test, text);
        let ranked = class["ranked"].as_array().unwrap();
        let top = ranked.iter().filter(|r| r["group"].as_u64().unwrap() <= 5).count();
        let plain = class["assertions_flagged_plain"].as_u64().unwrap() as usize;
        let (group, score) = rank.unwrap_or((0, 0.0));
        println!(
            "{fault:<12} {group:>4}  {score:>5.2}  {top:>16}  {:>6}  {plain:>5}  {:>10}",
            class["assertions_flagged"], class["assertions"]
        );
        assert!(rank.is_some_and(|r| r.0 <= 5), "{fault}: {test} `{text}` ranked {rank:?}: {:#}", class["ranked"]);
        assert!(
            plain > 10 * top,
            "{fault}: plain anomaly detection flags {plain}, not over 10 times the top 5's {top}"
        );
        assert_eq!(class["manual_tests_passed"], 8, "the manual tests pass on every variant");
    }
    // With all four faults in one class, each is still in the top 5.
    let class = zoomin_json(&original, manual.to_str().unwrap());
    let ranks: Vec<Option<(u64, f64)>> = FAULTS.iter().map(|(_, test, text)| rank_of(&class, test, text)).collect();
    println!("all faults at once: ranks {ranks:?}");
    assert!(ranks.iter().all(|r| r.is_some_and(|r| r.0 <= 5)), "{ranks:?}");
}

#[test]
fn the_invariants_learned_from_the_manual_tests_are_the_expected_set() {
    let dir = tempfile::tempdir().unwrap();
    let classes = compile_variant(dir.path(), None);
    let manual = compile_tests(dir.path(), &classes, "tests");
    let out = zoomin(&classes, manual.to_str().unwrap(), &["--invariants"]);
    let out = String::from_utf8(out.stdout).unwrap();
    let got: Vec<&str> = out.lines().filter(|l| l.contains(":::")).collect();
    let expected = std::fs::read_to_string(fixture().join("expected-invariants.txt")).unwrap();
    let expected: Vec<&str> = expected.lines().collect();
    assert_eq!(got, expected, "the invariants of numbers.Complex changed");
    // The planted faults' guards are among them.
    for needed in [
        "abs()D:::EXIT return > 0",
        "conjugate()Lnumbers/Complex;:::ENTER this.im > 0",
        "pow(I)Lnumbers/Complex;:::ENTER n > 0",
        "plus(D)Lnumbers/Complex;:::EXIT orig(this.im) == return.im",
        "<init>(DD)V:::EXIT orig(im) == this.im",
    ] {
        assert!(got.contains(&needed), "{needed}");
    }
}

#[test]
fn generate_with_manual_tests_comments_the_suspicious_assertions_and_reports_them() {
    let dir = tempfile::tempdir().unwrap();
    let classes = compile_variant(dir.path(), None);
    let manual = compile_tests(dir.path(), &classes, "tests");
    let out = dir.path().join("out");
    generate(&classes, &out, &manual, "10s");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let class = &report["classes"][0];
    let stats = &class["techniques"]["zoomin"];
    assert_eq!(stats["manual_tests_passed"], 8.0, "{stats}");
    assert!(stats["invariants"].as_f64().unwrap() > 20.0, "{stats}");
    let file = out.join(class["test_file"].as_str().unwrap());
    let source = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = source.lines().collect();
    let findings: Vec<&serde_json::Value> =
        class["findings"].as_array().unwrap().iter().filter(|f| f["kind"] == "suspicious-assertion").collect();
    assert!(!findings.is_empty() && findings.len() <= 5, "{findings:?}");
    for f in &findings {
        // `Complex_FerroTest.java:LINE`: the assertion, under its comment.
        let line: usize = f["location"].as_str().unwrap().rsplit_once(':').unwrap().1.parse().unwrap();
        assert!(lines[line - 1].trim_start().starts_with("assert"), "{f}: {}", lines[line - 1]);
        assert!(lines[line - 2].trim_start().starts_with("// suspicious (score "), "{f}: {}", lines[line - 2]);
        assert!(f["score"].as_f64().unwrap() > 0.0 && f["invariant"].is_string(), "{f}");
        assert!(source.contains(&format!("void {}()", f["witness"].as_str().unwrap())), "{f}");
    }
    // The commented suite still compiles and passes.
    let test_classes = dir.path().join("test-classes");
    util::all_pass_under_junit4(
        &classes,
        &test_classes,
        &[("numbers.Complex_FerroTest".into(), file)],
        junit::test_methods_in,
    );
}

#[test]
fn failing_and_unlinkable_manual_tests_are_skipped_and_no_manual_test_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let classes = compile_variant(dir.path(), None);
    let manual = compile_tests(dir.path(), &classes, "tests");
    // BrokenComplexTest compiles against Helper, which is not on the class path when it runs.
    let helper = compile_tests(dir.path(), &classes, "missing");
    let out = dir.path().join("broken");
    std::fs::create_dir_all(&out).unwrap();
    let cp = format!("{}:{}:/usr/share/java/junit4.jar", classes.display(), helper.display());
    util::javac_dir(&fixture().join("broken"), &out, &["-cp", &cp]);
    let both = format!("{}:{}", manual.display(), out.display());
    let run = zoomin(&classes, &both, &["--json"]);
    let err = String::from_utf8(run.stderr).unwrap();
    assert!(run.status.success(), "{err}");
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let class = &json["classes"][0];
    assert_eq!(class["manual_tests_passed"], 8);
    assert_eq!(class["manual_tests_skipped"], 2, "the failing and the unlinkable test: {class}");
    for test in ["failsOnPurpose", "needsAMissingClass"] {
        assert!(err.contains(&format!("warning: manual test numbers.BrokenComplexTest#{test} skipped")), "{err}");
    }

    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let run = |manual: &str| {
        let out = zoomin(&classes, manual, &[]);
        (out.status.code(), String::from_utf8(out.stderr).unwrap())
    };
    let (code, err) = run(empty.to_str().unwrap());
    assert_eq!(code, Some(3), "bad input: {err}");
    assert!(err.contains("no JUnit 4 or 5 test method found"), "{err}");
    // Only failing tests: nothing to learn, said plainly.
    let (code, err) = run(&format!("{}:numbers.BrokenComplexTest", out.display()));
    assert_eq!(code, Some(3), "bad input: {err}");
    assert!(err.contains("no manual test of numbers.Complex passed (2 skipped)"), "{err}");

    // generate goes on without a ranking.
    let gen_out = dir.path().join("gen");
    let err = generate(&classes, &gen_out, &empty, "3s");
    assert!(err.contains("warning: ZoomIn: numbers.Complex: no JUnit 4 or 5 test method found"), "{err}");
    assert!(err.contains("its tests are left unranked"), "{err}");
    let report = std::fs::read_to_string(gen_out.join("report.json")).unwrap();
    assert!(report.contains("\"test_file\""), "the suite is written");
    assert!(!report.contains("suspicious-assertion"), "and left unranked");
}
