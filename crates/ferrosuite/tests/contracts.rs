//! The contracts oracle in `generate` (on by default): the real binary on
//! `testdata/contracts`. Each class that breaks a contract of `Object` or
//! `Comparable` on a reachable state gets a finding of kind `contract`
//! whose witness test is in `<Class>_FerroFindingsTest.java`, never in the
//! regression suite; the correct classes get none; both test classes of
//! every class compile and pass under JUnit; `--no-contracts` leaves the
//! regression suites as they are with the oracle on and reports nothing.

mod util;

use std::path::Path;

/// The fixture classes.
const CLASSES: [&str; 6] = ["Label", "Interval", "Ticket", "Version", "Money", "Counter"];

/// Compiles the fixtures into `dir/classes` and runs `generate` on every
/// class with `extra` options into `dir/out`; the report.
fn generate(dir: &Path, extra: &[&str]) -> serde_json::Value {
    let classes = dir.join("classes");
    util::javac_dir(&util::repo().join("testdata/contracts/src"), &classes, &[]);
    let out = dir.join("out");
    let mut args = vec!["generate", "-c", classes.to_str().unwrap()];
    let names: Vec<String> = CLASSES.iter().map(|c| format!("contracts.{c}")).collect();
    for name in &names {
        args.extend(["--class", name.as_str()]);
    }
    args.extend(["--evaluations", "3000", "--seed", "1", "--out", out.to_str().unwrap()]);
    args.extend(extra);
    util::ferrosuite_ok(&args);
    serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap()
}

/// The report of class `simple`.
fn class<'a>(report: &'a serde_json::Value, simple: &str) -> &'a serde_json::Value {
    let name = format!("contracts.{simple}");
    report["classes"].as_array().unwrap().iter().find(|c| c["class"] == name.as_str()).unwrap()
}

/// The contract findings of a class.
fn contract_findings(class: &serde_json::Value) -> Vec<&serde_json::Value> {
    class["findings"].as_array().map(|f| f.iter().filter(|f| f["kind"] == "contract").collect()).unwrap_or_default()
}

#[test]
fn broken_contracts_are_findings_with_witnesses_of_their_own_and_correct_classes_have_none() {
    let tmp = tempfile::tempdir().unwrap();
    let report = generate(tmp.path(), &[]);
    let out = tmp.path().join("out");
    let expected = [
        (
            "Label",
            "toString()Ljava/lang/String;",
            "toString throws IllegalArgumentException for a Label made by Label(",
        ),
        ("Interval", "equals(Ljava/lang/Object;)Z", "equals is not reflexive: x.equals(x) is false for an Interval"),
        ("Ticket", "hashCode()I", "hashCode is inconsistent with equals: x.equals(y) but x.hashCode() != y.hashCode()"),
        (
            "Version",
            "compareTo(Lcontracts/Version;)I",
            "compareTo is not antisymmetric: x.compareTo(y) is -1 and y.compareTo(x) is -1",
        ),
    ];
    for (simple, method, message) in expected {
        let class = class(&report, simple);
        let findings = contract_findings(class);
        assert_eq!(findings.len(), 1, "{simple}: {findings:?}");
        let f = findings[0];
        assert_eq!((f["origin"].as_str(), f["method"].as_str()), (Some("contracts"), Some(method)), "{f}");
        assert!(f["message"].as_str().unwrap().starts_with(message), "{f}");
        assert_eq!(f["confidence"], 1.0, "{f}");
        assert!(f["location"].as_str().unwrap().starts_with(&format!("{simple}.java:")), "{f}");
        assert_eq!(class["findings_file"], format!("contracts/{simple}_FerroFindingsTest.java"));
        let witnesses =
            std::fs::read_to_string(out.join(format!("contracts/{simple}_FerroFindingsTest.java"))).unwrap();
        let regression = std::fs::read_to_string(out.join(format!("contracts/{simple}_FerroTest.java"))).unwrap();
        let names = std::iter::once(&f["witness"]).chain(f["more_witnesses"].as_array().into_iter().flatten());
        let regression_bodies: Vec<&str> = bodies(&regression).into_iter().map(|(_, b)| b).collect();
        for name in names.map(|n| n.as_str().unwrap()) {
            let body = bodies(&witnesses).into_iter().find(|(n, _)| *n == name).map(|(_, b)| b);
            let body = body.unwrap_or_else(|| panic!("{name}\n{witnesses}"));
            assert!(!regression_bodies.contains(&body), "{name} is in the regression suite too:\n{regression}");
        }
        assert!(witnesses.contains("    // Likely bug (contract, confidence 1.00) at "), "{witnesses}");
        let stats = &class["techniques"]["contracts"];
        assert!(stats["violations"].as_f64().unwrap() >= 1.0 && stats["witnesses"].as_f64().unwrap() >= 1.0, "{stats}");
    }
    // The regression suites assert no violation as expected behaviour.
    let label = std::fs::read_to_string(out.join("contracts/Label_FerroTest.java")).unwrap();
    assert!(!label.contains(".toString();\n            fail("), "{label}");
    let ticket = std::fs::read_to_string(out.join("contracts/Ticket_FerroTest.java")).unwrap();
    assert!(!ticket.contains("assertNotEquals"), "{ticket}");
    for simple in ["Money", "Counter"] {
        let class = class(&report, simple);
        assert!(contract_findings(class).is_empty(), "{simple}: {}", class["findings"]);
        let stats = &class["techniques"]["contracts"];
        assert!(stats["objects_checked"].as_f64().unwrap() > 0.0, "{simple}: {stats}");
        assert_eq!(stats["violations"], 0.0, "{simple}: {stats}");
    }
    for simple in CLASSES {
        run_both(tmp.path(), &out, simple);
    }
    // Without the oracle nothing is reported, and the regression suites are
    // the same but for the search's tests that show a violation, which the
    // oracle moves out. Tests are compared by their statements: which
    // assertions mutation analysis keeps depends on runs in new workers,
    // which a loaded machine can make fail (the filter then keeps them all).
    let without = tempfile::tempdir().unwrap();
    let report = generate(without.path(), &["--no-contracts"]);
    for simple in CLASSES {
        let class = class(&report, simple);
        assert!(contract_findings(class).is_empty(), "{simple}");
        assert!(class["techniques"]["contracts"].is_null(), "{simple}");
        let file = format!("out/contracts/{simple}_FerroTest.java");
        let on = statements(&std::fs::read_to_string(tmp.path().join(&file)).unwrap());
        let off = statements(&std::fs::read_to_string(without.path().join(&file)).unwrap());
        if matches!(simple, "Money" | "Counter") {
            assert_eq!(on, off, "{simple}");
        }
        let off_bodies: Vec<&str> = bodies(&off).into_iter().map(|(_, b)| b).collect();
        assert!(bodies(&on).iter().all(|(_, b)| off_bodies.contains(b)), "{simple}:\n{on}\n{off}");
    }
}

/// `source` without its assertions and the lines that name a worker's
/// temporary folder (a string the search saw compared at run time: it
/// differs between runs).
fn statements(source: &str) -> String {
    let asserts = |l: &str| l.trim_start().starts_with("assert");
    source.lines().filter(|l| !l.contains("/tmp/ferrosuite-worker-") && !asserts(l)).map(|l| format!("{l}\n")).collect()
}

/// The test methods of a test class: name and body.
fn bodies(source: &str) -> Vec<(&str, &str)> {
    source
        .split("    public void ")
        .skip(1)
        .filter_map(|m| {
            let (name, rest) = m.split_once("()")?;
            let body = rest.split_once('{')?.1.split("\n    }\n").next()?;
            Some((name, body))
        })
        .collect()
}

/// Compiles the test classes of `simple` and runs them under JUnit: every test passes.
fn run_both(dir: &Path, out: &Path, simple: &str) {
    let sources: Vec<_> = [format!("{simple}_FerroTest"), format!("{simple}_FerroFindingsTest")]
        .into_iter()
        .map(|c| (format!("contracts.{c}"), out.join(format!("contracts/{c}.java"))))
        .filter(|(_, source)| source.exists())
        .collect();
    util::all_pass_under_junit4(
        &dir.join("classes"),
        &dir.join(format!("test-classes-{simple}")),
        &sources,
        junit::test_methods_in,
    );
}
