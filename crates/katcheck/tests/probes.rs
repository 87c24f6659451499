//! The call-condition probes of KAT's goals on `testdata/kat/src/misuse/Calls.java`:
//! the class instrumented again with a probe per potential violation runs
//! under `-Xverify:all`, and for chosen inputs the recorded distance of each
//! trigger equals the hand-computed branch distance (0 when it holds).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use instrument::Instrumenter;
use instrument::probes::call_condition::{CallConditionProbes, CallSite};
use katcheck::{CheckOptions, check_class};
use model::classfile::ClassFile;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn javac(out: &Path, sources: &[PathBuf]) {
    let status = Command::new("javac").args(["-g", "-nowarn", "-d"]).arg(out).args(sources).status().unwrap();
    assert!(status.success(), "javac failed");
}

/// Instruments `misuse.Calls` with a probe per potential violation (ids from
/// 5000 on); the class path to run it and the probe id of each
/// `method: condition`.
fn instrumented(dir: &Path) -> (String, BTreeMap<String, u32>) {
    let (classes, runner, out) = (dir.join("classes"), dir.join("runner"), dir.join("out"));
    javac(&classes, &[repo().join("testdata/kat/src/misuse/Calls.java")]);
    javac(&runner, &[repo().join("testdata/trace/TraceRunner.java")]);
    let bytes = std::fs::read(classes.join("misuse/Calls.class")).unwrap();
    let cf = ClassFile::parse(&bytes).unwrap();
    let check = check_class(&cf, &kat::KnowledgeGraph::jdk17(), &CheckOptions::default());
    let mut probes = CallConditionProbes::default();
    let mut ids = BTreeMap::new();
    for v in check.violations.iter().filter(|v| v.is_potential_bug()) {
        let method_index = cf.methods.iter().position(|m| cf.member_name(m) == v.method).unwrap() as u16;
        let probe = 5000 + probes.sites.len() as u32;
        ids.insert(format!("{}: {}", v.method, v.condition), probe);
        probes.sites.push(CallSite { method_index, bci: v.bci, probe, condition: v.probe.clone() });
    }
    let mut instrumenter = Instrumenter::default();
    let prior = instrumenter.instrument(&bytes).unwrap();
    let again = instrumenter.reinstrument(&bytes, &prior, &[&probes]).unwrap();
    assert!(again.skipped.is_empty(), "{:?}", again.skipped);
    std::fs::create_dir_all(out.join("misuse")).unwrap();
    std::fs::write(out.join("misuse/Calls.class"), &again.bytes).unwrap();
    instrument::tracer::write_runtime(&out).unwrap();
    (format!("{}:{}", out.display(), runner.display()), ids)
}

/// Runs each session and returns its `branch` records by id: (eq count, min |diff|).
fn run(classpath: &str, sessions: &[&str]) -> Vec<BTreeMap<u32, (u32, f64)>> {
    let out = Command::new("java")
        .args(["-Xverify:all", "-cp", classpath, "TraceRunner", "misuse.Calls"])
        .args(sessions)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut result = vec![BTreeMap::new()];
    for line in text.lines() {
        let words: Vec<&str> = line.split(' ').collect();
        if words[0] == "==" {
            result.push(BTreeMap::new());
        } else if words[0] == "branch" {
            let id: u32 = words[1].parse().unwrap();
            result.last_mut().unwrap().insert(id, (words[4].parse().unwrap(), words[8].parse().unwrap()));
        }
    }
    // Records print after their session's `==` line.
    result.remove(0);
    result
}

#[test]
fn trigger_distances_at_the_calls_equal_hand_computed_values() {
    let tmp = tempfile::tempdir().unwrap();
    let (classpath, ids) = instrumented(tmp.path());
    // (session, `method: condition`, distance; 0 means the trigger held)
    let cases: &[(&str, &str, f64)] = &[
        ("charAt:abc,1", "charAt: index >= this.length()", 2.0),
        ("charAt:abc,1", "charAt: index < 0", 2.0),
        ("charAt:abc,7", "charAt: index >= this.length()", 0.0),
        ("charAt:abc,-4", "charAt: index < 0", 0.0),
        ("tail:abc,-2", "tail: beginIndex > this.length()", 6.0),
        ("tail:abc,9", "tail: beginIndex > this.length()", 0.0),
        ("need:A", "need: obj == null", 1.0),
        ("need:null", "need: obj == null", 0.0),
        ("first:x|y", "first: !this.hasNext()", 1.0),
        ("first:empty", "first: !this.hasNext()", 0.0),
    ];
    let sessions: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let results = run(&classpath, &sessions);
    assert_eq!(results.len(), cases.len());
    for ((session, key, expected), records) in cases.iter().zip(&results) {
        let id = *ids.get(*key).unwrap_or_else(|| panic!("no probe for {key}: {:?}", ids.keys()));
        let (eq, min_abs) = records[&id];
        assert_eq!(min_abs, *expected, "{session} {key}");
        assert_eq!(eq > 0, *expected == 0.0, "{session} {key}");
    }
}
