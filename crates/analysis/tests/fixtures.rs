//! The fixture classes of `testdata/fixtures` (compiled here with `javac`)
//! count branches, lines and methods like JaCoCo 0.8.6, per class and per
//! method, as recorded in `testdata/fixtures/expected/jacoco-branches.tsv`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use analysis::{AnalysisOptions, ClassGoals, GoalKind, class_goals_with};
use model::classfile::ClassFile;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fixtures")
}

/// Compiles every fixture source with `javac --release <release>` and
/// returns the class files by binary name.
fn compile_fixtures(release: &str) -> BTreeMap<String, ClassFile> {
    let out = tempfile::tempdir().expect("temp dir");
    let sources: Vec<PathBuf> = std::fs::read_dir(fixtures_dir().join("src/fixtures"))
        .expect("fixture sources")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "java"))
        .collect();
    let status = Command::new("javac")
        .args(["-g", "-nowarn", "--release", release, "-d"])
        .arg(out.path())
        .args(&sources)
        .status()
        .expect("javac runs");
    assert!(status.success(), "javac failed");
    let mut classes = BTreeMap::new();
    for entry in std::fs::read_dir(out.path().join("fixtures")).expect("compiled classes") {
        let bytes = std::fs::read(entry.expect("dir entry").path()).expect("read class");
        let cf = ClassFile::parse(&bytes).expect("parse class");
        classes.insert(cf.binary_name().to_string(), cf);
    }
    classes
}

/// Class line `name -> (branches, lines, methods)`; method lines
/// `(class, "name desc") -> branches`.
type Expected = (BTreeMap<String, (usize, usize, usize)>, BTreeMap<(String, String), usize>);

fn expected() -> Expected {
    let text = std::fs::read_to_string(fixtures_dir().join("expected/jacoco-branches.tsv")).expect("expected tsv");
    let (mut classes, mut methods) = (BTreeMap::new(), BTreeMap::new());
    let mut class = String::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.trim_start().split('\t').collect();
        let number = |i: usize| fields[i].parse::<usize>().expect("a number");
        if line.starts_with("  ") {
            methods.insert((class.clone(), fields[0].to_string()), number(1));
        } else {
            class = fields[0].to_string();
            classes.insert(class.clone(), (number(1), number(2), number(3)));
        }
    }
    (classes, methods)
}

fn decision_goals(goals: &ClassGoals, method_index: u16) -> usize {
    let is_decision = |k: &GoalKind| matches!(k, GoalKind::Branch { .. } | GoalKind::SwitchCase { .. });
    goals.goals.iter().filter(|g| g.method_index == method_index && is_decision(&g.kind)).count()
}

fn check_release(release: &str) {
    let classes = compile_fixtures(release);
    let (expected_classes, expected_methods) = expected();
    let options = AnalysisOptions { filter_assertions: false };
    for (name, &(branches, lines, methods)) in &expected_classes {
        let goals = class_goals_with(&classes[name], &options).unwrap();
        let n_methods = goals.goals.iter().filter(|g| g.kind == GoalKind::Method).count();
        assert_eq!(
            (goals.branch_goal_count(), goals.line_goals.len(), n_methods),
            (branches, lines, methods),
            "{name}"
        );
        for m in goals.methods.iter().filter(|m| m.method_goal.is_some()) {
            let key = (name.clone(), format!("{} {}", m.name, m.descriptor));
            assert_eq!(Some(&decision_goals(&goals, m.index)), expected_methods.get(&key), "{key:?}");
        }
    }
}

#[test]
fn fixtures_compiled_for_java_8_count_like_jacoco() {
    check_release("8");
}

#[test]
fn fixtures_compiled_for_java_17_count_like_jacoco() {
    check_release("17");
}

#[test]
fn nested_classes_count_with_the_enclosing_class_unless_the_compiler_made_them_up() {
    let classes = compile_fixtures("17");
    // javac's switch map for the enum switch of `Switches` is synthetic.
    let switch_map = classes.get("fixtures.Switches$1").expect("javac made a switch map");
    assert!(!analysis::goals::counts_with_enclosing_class(switch_map));
    for name in ["fixtures.Nested$Counter", "fixtures.Nested$Adder", "fixtures.Switches$Op"] {
        assert!(analysis::goals::counts_with_enclosing_class(&classes[name]), "{name}");
    }
}

#[test]
fn goal_kinds_fall_into_jacocos_counters() {
    let classes = compile_fixtures("17");
    let goals = analysis::class_goals(&classes["fixtures.Switches"]).unwrap();
    let categories: std::collections::BTreeSet<&str> = goals.goals.iter().map(|g| g.kind.category()).collect();
    for expected in ["branch", "line", "method"] {
        assert!(categories.contains(expected), "{categories:?}");
    }
    assert!(categories.iter().all(|c| ["branch", "line", "method", "root-branch"].contains(c)), "{categories:?}");
    let switch_cases = goals.goals.iter().filter(|g| matches!(g.kind, GoalKind::SwitchCase { .. }));
    assert!(switch_cases.clone().count() > 0 && switch_cases.into_iter().all(|g| g.kind.category() == "branch"));
}

#[test]
fn declared_exceptions_come_from_the_throws_clause() {
    let classes = compile_fixtures("17");
    let cf = &classes["fixtures.Exceptions"];
    let declared = |name: &str| {
        let m = cf.methods.iter().find(|m| cf.member_name(m) == name).expect(name);
        cf.declared_exceptions(m).iter().map(|n| n.as_str().to_string()).collect::<Vec<_>>()
    };
    assert_eq!(declared("checked"), ["java/io/IOException"]);
    assert!(declared("<init>").is_empty());
}
