//! `ferrosuite bench triage` on a `report.json` such as an older binary
//! wrote (`uncovered` as plain labels) for the fixture of `testdata/triage`:
//! the table gives each uncovered branch goal its cause.

mod util;

use analysis::goals::{ClassGoals, Goal};
use model::names::BinaryName;

/// Whether `g` is covered in the run the test imagines: `<init>`, `add`,
/// and `magic` and `state` but for the `true` sides of their branches.
fn covered(g: &Goal) -> bool {
    let triage = g.class.as_str() == "triage/Triage";
    match g.method_name.as_str() {
        "<init>" | "add" => triage,
        "magic" | "state" => !g.key.ends_with(":true"),
        _ => false,
    }
}

/// `report.json` with the goals of `goals` that are not [`covered`] as plain labels.
fn old_report(goals: &ClassGoals) -> serde_json::Value {
    let branches: Vec<&Goal> = goals.goals.iter().filter(|g| g.kind.category() == "branch").collect();
    let uncovered: Vec<&str> = goals.goals.iter().filter(|g| !covered(g)).map(|g| g.label.as_str()).collect();
    serde_json::json!({
        "version": "0.1.0",
        "seed": 1,
        "classes": [{
            "class": "triage.Triage",
            "status": "ok",
            "message": null,
            "goals": {"branch": {"total": branches.len(), "covered": branches.iter().filter(|g| covered(g)).count()}},
            "tests": 2,
            "uncovered": uncovered,
        }]
    })
}

#[test]
fn old_reports_are_triaged_per_class_and_in_total() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = tmp.path().join("classes");
    std::fs::create_dir_all(&classes).unwrap();
    util::javac_dir(&util::repo().join("testdata/triage/src"), &classes, &[]);
    let jars = tmp.path().join("jars");
    std::fs::create_dir_all(&jars).unwrap();
    util::jar_dir(&classes, &jars.join("triage.jar"));
    let cp = model::classpath::ClassPath::parse(classes.to_str().unwrap()).unwrap();
    let goals = generate::prepare::goals_with_nested(&cp, &BinaryName::new("triage.Triage")).unwrap();
    let run = tmp.path().join("run");
    std::fs::create_dir_all(run.join("triage.Triage")).unwrap();
    std::fs::write(run.join("triage.Triage/report.json"), old_report(&goals).to_string()).unwrap();
    let corpus = tmp.path().join("corpus.txt");
    std::fs::write(&corpus, "# one class\ntriage.jar triage.Triage\n").unwrap();
    let out = util::ferrosuite_ok(&[
        "bench",
        "triage",
        "--corpus",
        corpus.to_str().unwrap(),
        "--dir",
        run.to_str().unwrap(),
        "--jar-dir",
        jars.to_str().unwrap(),
    ]);
    // 24 uncovered branch goals: hidden and the lambda (private-or-dead), the
    // handler of parse (exception-path, before method-never-called), the
    // anonymous iterator's hasNext, withHandle, never, clock, guarded and
    // delegate (never called), the private helper only delegate calls (its
    // caller's cause: never called), state (object-state) and magic
    // (search-budget).
    let header = "| class | uncovered branches | lost-after-search | private-or-dead | exception-path | nested-object-not-exercised | \
                  type-never-produced | method-never-called | environment | object-state | search-budget | note |";
    assert!(out.lines().any(|l| l == header), "{out}");
    assert!(out.lines().any(|l| l == "| triage.Triage | 24 | 0 | 4 | 2 | 2 | 2 | 12 | 0 | 1 | 1 |  |"), "{out}");
    assert!(out.lines().any(|l| l == "total,24,0,4,2,2,2,12,0,1,1,"), "{out}");
}

#[test]
fn a_missing_report_is_a_row_with_a_note_and_exit_code_4() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus.txt");
    std::fs::write(&corpus, "triage.jar triage.Missing\n").unwrap();
    let dir = tmp.path().to_str().unwrap();
    let out = util::ferrosuite(&["bench", "triage", "--corpus", corpus.to_str().unwrap(), "--dir", dir]);
    assert_eq!(out.status.code(), Some(4));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("| triage.Missing | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | no report.json |"), "{stdout}");
}
