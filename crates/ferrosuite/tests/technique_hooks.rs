//! The `generate` library's hook points (`generate::Technique`), driven by
//! a technique written for this test on `testdata/generate-edge`'s
//! `edge.Counter` with a real JVM: each hook is called once, in pipeline
//! order; a population source's test reaches the search; findings name a
//! witness test of the emitted suite and land in `report.json`.

mod util;

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use std::collections::BTreeMap;

use analysis::GoalId;
use generate::technique::GoalSource;
use generate::{ClassRun, Finding, GenerateConfig, Technique};
use model::names::BinaryName;
use rand_chacha::ChaCha8Rng;
use testcase::cluster::TestCluster;
use testcase::seeds::Seeds;
use testcase::{MethodRef, Primitive, Statement, StatementKind, TestCase, VarId};

/// `new Counter().add(-7)`, which throws.
fn add_minus_seven() -> TestCase {
    let counter = BinaryName::new("edge.Counter");
    let mut test = TestCase::default();
    let v0 = test.push(Statement::new(StatementKind::Constructor {
        method: MethodRef::parse(counter.as_str(), "<init>", "()V").unwrap(),
        args: vec![],
    }));
    let v1 = test.push(Statement::new(StatementKind::Primitive(Primitive::Int(-7))));
    let add = MethodRef::parse(counter.as_str(), "add", "(I)V").unwrap();
    let v2 = test.push(Statement::new(StatementKind::Call { receiver: v0, method: add, args: vec![v1] }));
    assert_eq!(v2, VarId(2));
    test
}

/// A goal source that counts how often the search asks it and offers the same test each time.
struct Asked {
    asked: usize,
    test: TestCase,
}

impl GoalSource for Asked {
    fn test_for(&mut self, uncovered: &[GoalId], _: &TestCluster, _: &Seeds, _: &mut ChaCha8Rng) -> Option<TestCase> {
        assert!(!uncovered.is_empty(), "the search asks only while goals remain");
        self.asked += 1;
        Some(self.test.clone())
    }

    fn name(&self) -> &'static str {
        "recorder"
    }

    fn stats(&self) -> BTreeMap<String, f64> {
        BTreeMap::from([("asked".to_string(), self.asked as f64)])
    }
}

/// Records which hooks ran, offers one test calling `add(-7)` (which
/// throws) as an initial test and as a goal source's targeted test, and
/// reports every test of the final suite that calls `add`.
struct Recorder {
    calls: Rc<RefCell<Vec<String>>>,
}

impl Technique for Recorder {
    fn name(&self) -> &'static str {
        "recorder"
    }

    fn goals(&mut self, run: &mut ClassRun) {
        self.calls.borrow_mut().push(format!("goals {}", run.goals.goals.len()));
    }

    fn initial_tests(&mut self, _run: &ClassRun, _cluster: &TestCluster, _seeds: &Seeds) -> Vec<TestCase> {
        self.calls.borrow_mut().push("initial_tests".into());
        vec![add_minus_seven()]
    }

    fn goal_source(&mut self, _run: &ClassRun, _cluster: &TestCluster) -> Option<Box<dyn GoalSource>> {
        self.calls.borrow_mut().push("goal_source".into());
        Some(Box::new(Asked { asked: 0, test: add_minus_seven() }))
    }

    fn oracle(&mut self, _run: &mut ClassRun, tests: &mut Vec<TestCase>) {
        self.calls.borrow_mut().push(format!("oracle {}", tests.len()));
    }

    fn findings(&mut self, _run: &mut ClassRun, suite: &[TestCase], names: &[String]) -> Vec<Finding> {
        self.calls.borrow_mut().push(format!("findings {}", suite.len()));
        let calls_add = |t: &TestCase| {
            t.statements.iter().any(|s| matches!(&s.kind, StatementKind::Call { method, .. } if method.name == "add"))
        };
        suite
            .iter()
            .zip(names)
            .filter(|(t, _)| calls_add(t))
            .map(|(_, name)| Finding {
                origin: self.name().into(),
                kind: "calls-add".into(),
                method: "add(I)V".into(),
                location: Some("Counter.java:9".into()),
                message: "calls add".into(),
                witness: name.clone(),
                more_witnesses: Vec::new(),
                confidence: 1.0,
                stack_trace: Vec::new(),
                score: None,
                invariant: None,
            })
            .collect()
    }
}

fn config(jar: &std::path::Path, out: &std::path::Path) -> GenerateConfig {
    GenerateConfig {
        class_path: jar.display().to_string(),
        out: out.to_path_buf(),
        work_dir: out.with_file_name("work"),
        junit: junit::JUnitVersion::Four,
        junit_jars: javarun::JunitJars::debian(4).unwrap(),
        mocks: false,
        seed: 3,
        jobs: 1,
        search: search::SearchConfig {
            budget: search::Budget { time: None, evaluations: Some(300) },
            ..search::SearchConfig::default()
        },
        started: None,
        class_budget: None,
        exec: exec::ExecConfig { timeout: Duration::from_millis(100), ..exec::ExecConfig::default() },
        heap_mb: 256,
        jdk: javarun::Jdk::find().unwrap(),
        second_jdk: None,
        worker_exe: env!("CARGO_BIN_EXE_ferrosuite").into(),
        param_values: Default::default(),
        shard: None,
        report_dir: None,
        sources: Default::default(),
    }
}

#[test]
fn every_hook_runs_once_in_pipeline_order_and_findings_reach_the_report() {
    let tmp = tempfile::tempdir().unwrap();
    let jar = util::edge_jar(tmp.path());
    let out = tmp.path().join("out");
    let calls = Rc::new(RefCell::new(Vec::new()));
    let mut techniques: Vec<Box<dyn Technique>> = vec![Box::new(Recorder { calls: calls.clone() })];
    let cut = [BinaryName::new("edge.Counter")];
    let report = generate::run(&config(&jar, &out), &cut, &mut techniques, &mut ()).unwrap();

    let calls = calls.borrow();
    let kinds: Vec<&str> = calls.iter().map(|c| c.split(' ').next().unwrap()).collect();
    assert_eq!(kinds, ["goals", "initial_tests", "goal_source", "oracle", "findings"], "{calls:?}");
    let class = &report.classes[0];
    assert_eq!(class.status, generate::ClassStatus::Ok, "{:?}", class.message);
    assert!(!class.findings.is_empty(), "the suite calls add, so the recorder reports it");
    // The witness tests are moved out of the regression suite into a class
    // of their own, each under a comment that says why.
    let source = std::fs::read_to_string(out.join("edge/Counter_FerroTest.java")).unwrap();
    assert!(!source.contains(".add("), "{source}");
    assert_eq!(class.findings_file.as_deref(), Some("edge/Counter_FerroFindingsTest.java"));
    let witnesses = std::fs::read_to_string(out.join("edge/Counter_FerroFindingsTest.java")).unwrap();
    assert!(witnesses.contains("public class Counter_FerroFindingsTest"), "{witnesses}");
    for finding in &class.findings {
        assert!(witnesses.contains(&format!("public void {}()", finding.witness)), "{}", finding.witness);
    }
    assert!(
        witnesses.contains(
            "    // Likely bug (calls-add, confidence 1.00) at Counter.java:9 in add(I)V: calls add\n    @Test"
        ),
        "{witnesses}"
    );
    // The population source's test is evaluated first, so it is the one the
    // archive keeps for the `n < 0` branch: the witnesses call add(-7).
    assert!(witnesses.contains("-7"), "{witnesses}");
    // Both classes compile and pass together, as a user would run them.
    let classes_out = tmp.path().join("test-classes");
    let jdk = javarun::Jdk::find().unwrap();
    let junit = javarun::JunitJars::debian(4).unwrap();
    let sources = [out.join("edge/Counter_FerroTest.java"), out.join("edge/Counter_FerroFindingsTest.java")];
    let cp = format!("{}:{}", jar.display(), junit.compile_class_path());
    javarun::compile_tests(&jdk, &sources, &cp, &classes_out, None).unwrap().expect("both test classes compile");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["classes"][0]["findings"][0]["origin"], "recorder");
    // The goal source's numbers are in the report (it is asked after each
    // generation; `Counter` is covered before the first one, so it may not
    // be: `tests/evoobj.rs` shows templates that reach the search).
    let stats = &json["classes"][0]["techniques"]["recorder"];
    assert!(stats["asked"].is_number(), "{stats}");
    assert!(stats["search_seconds"].as_f64().unwrap() > 0.0, "{stats}");
}
