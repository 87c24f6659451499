//! The tracer records what the hand-computed branch distances need: for
//! chosen inputs to `fixtures.Compare` (one conditional jump per method),
//! the distances of both sides of the jump equal hand-computed values, and
//! switch probes record the keys seen.

mod util;

use std::collections::HashMap;

use instrument::InstrumentedClass;
use instrument::trace::{BranchRecord, Relation};
use model::bytecode::decode;
use model::classpath::ClassPath;

/// Instrumented `fixtures.Compare` plus what is needed to read its records.
struct Setup {
    _tmp: tempfile::TempDir,
    classpath: String,
    class: InstrumentedClass,
    /// method name → (branch probe id, jump opcode)
    branch_of: HashMap<String, (u32, u8)>,
}

fn setup() -> Setup {
    let tmp = tempfile::tempdir().unwrap();
    let jar = util::fixtures_jar(tmp.path(), &[]);
    let out = tmp.path().join("instrumented");
    let runner = tmp.path().join("runner");
    std::fs::create_dir_all(&runner).unwrap();
    util::javac_dir(&util::repo().join("testdata/trace"), &runner, &[]);
    util::ferrosuite_ok(&[
        "instrument",
        "--jar",
        jar.to_str().unwrap(),
        "--class",
        "fixtures.Compare",
        "--out",
        out.to_str().unwrap(),
    ]);
    let probes: Vec<InstrumentedClass> =
        serde_json::from_slice(&std::fs::read(out.join("probes.json")).unwrap()).unwrap();
    let class = probes.into_iter().find(|c| c.class.as_str() == "fixtures/Compare").unwrap();
    let cp = ClassPath::new(std::slice::from_ref(&jar)).unwrap();
    let cf = cp.load("fixtures.Compare").unwrap();
    let mut branch_of = HashMap::new();
    for (k, site) in class.plan.branches.iter().enumerate() {
        let m = &cf.methods[site.method_index as usize];
        let code = cf.code(m).unwrap().unwrap();
        let opcode = decode(&code.code).unwrap().into_iter().find(|i| i.bci == site.bci).unwrap().opcode;
        branch_of.insert(cf.member_name(m).to_string(), (class.bases.branch + k as u32, opcode));
    }
    let classpath = format!("{}:{}:{}", out.display(), jar.display(), runner.display());
    Setup { _tmp: tmp, classpath, class, branch_of }
}

/// Runs sessions and returns, per session, the dump lines split in words.
fn run(setup: &Setup, sessions: &[&str]) -> Vec<Vec<Vec<String>>> {
    let mut args = vec!["-cp", &setup.classpath, "TraceRunner", "fixtures.Compare"];
    args.extend_from_slice(sessions);
    let out = util::java(&args);
    let mut result: Vec<Vec<Vec<String>>> = Vec::new();
    for line in out.lines() {
        if line.starts_with("== ") {
            result.push(Vec::new());
        } else {
            result.last_mut().unwrap().push(line.split(' ').map(str::to_string).collect());
        }
    }
    result
}

fn branch_record(lines: &[Vec<String>], id: u32) -> BranchRecord {
    let l = lines.iter().find(|l| l[0] == "branch" && l[1] == id.to_string()).expect("branch record");
    let n = |i: usize| l[i].parse::<u32>().unwrap();
    let f = |i: usize| match l[i].as_str() {
        "Infinity" => f64::INFINITY,
        "-Infinity" => f64::NEG_INFINITY,
        s => s.parse::<f64>().unwrap(),
    };
    BranchRecord { hits: n(2), lt: n(3), eq: n(4), gt: n(5), min_diff: f(6), max_diff: f(7), min_abs: f(8) }
}

/// (session, method, distance of the jump-taken side, distance of the fall-through side)
const CASES: &[(&str, &str, f64, f64)] = &[
    // if (a < b) compiles to if_icmpge: the jump is taken when a >= b.
    ("ltInt:3,7", "ltInt", 4.0, 0.0),
    ("ltInt:7,3", "ltInt", 0.0, 5.0),
    ("ltInt:3,7;ltInt:7,3", "ltInt", 0.0, 0.0),
    ("ltInt:-2147483648,2147483647", "ltInt", 4294967295.0, 0.0),
    // if (a == b) compiles to if_icmpne.
    ("eqInt:5,9", "eqInt", 0.0, 4.0),
    ("eqInt:5,5", "eqInt", 1.0, 0.0),
    // if (a < 0) compiles to ifge.
    ("ltZero:-3", "ltZero", 3.0, 0.0),
    ("ltZero:0", "ltZero", 0.0, 1.0),
    // lcmp + ifge: the distance is graded on the long operands.
    ("ltLong:10,4", "ltLong", 0.0, 7.0),
    ("ltLong:-9223372036854775808,9223372036854775807", "ltLong", 18446744073709551615.0, 0.0),
    ("eqLong:3,10", "eqLong", 0.0, 7.0),
    // fcmpg + ifge; NaN makes fcmpg return 1, so the jump is taken.
    ("ltFloat:2.5,1.0", "ltFloat", 0.0, 2.5),
    ("ltFloat:NaN,1.0", "ltFloat", 0.0, 1.0),
    // fcmpl + ifle; NaN makes fcmpl return -1, so the jump is taken.
    ("gtFloat:NaN,1.0", "gtFloat", 0.0, 1.0),
    ("gtFloat:1.0,3.5", "gtFloat", 0.0, 3.5),
    // dcmpl + ifne: -0.0 == 0.0, so the jump (not equal) is not taken.
    ("eqDouble:-0.0,0.0", "eqDouble", 1.0, 0.0),
    ("eqDouble:0.5,0.25", "eqDouble", 0.0, 0.25),
    // ifnonnull and if_acmpne.
    ("isNull:null", "isNull", 1.0, 0.0),
    ("isNull:A", "isNull", 0.0, 1.0),
    ("sameRef:A,A", "sameRef", 1.0, 0.0),
    ("sameRef:A,B", "sameRef", 0.0, 1.0),
];

#[test]
fn recorded_branch_distances_equal_hand_computed_values() {
    let setup = setup();
    let sessions: Vec<&str> = CASES.iter().map(|c| c.0).collect();
    let results = run(&setup, &sessions);
    assert_eq!(results.len(), CASES.len());
    for ((session, method, taken, fall), lines) in CASES.iter().zip(&results) {
        let (id, opcode) = setup.branch_of[*method];
        let rel = Relation::of_opcode(opcode).unwrap();
        let r = branch_record(lines, id);
        let got = (r.distance(rel, true), r.distance(rel, false));
        assert_eq!(got, (*taken, *fall), "{session}: {r:?}");
    }
}

#[test]
fn switch_probes_record_the_keys_and_method_probes_the_entries() {
    let setup = setup();
    let results = run(&setup, &["swDense:2;swDense:7;swDense:2", "sw:5"]);
    let switch_lines: Vec<&Vec<String>> = results[0].iter().filter(|l| l[0] == "switch").collect();
    assert_eq!(switch_lines.len(), 1);
    assert_eq!((switch_lines[0][2].as_str(), switch_lines[0][3].as_str()), ("3", "2,7"));
    let methods: Vec<&Vec<String>> = results[1].iter().filter(|l| l[0] == "method").collect();
    assert_eq!(methods.len(), 1, "only sw was entered: {methods:?}");
    assert_eq!(methods[0][2], "1");
    assert!(setup.class.skipped.is_empty());
}
