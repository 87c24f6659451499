//! Goal lists of small compiled classes, rendered one goal per line.

use std::collections::BTreeSet;

use petgraph::graph::NodeIndex;

use super::*;
use crate::filter::InsnFilter;
use crate::testutil::compile;

/// One line per goal: `id key | label <- [parents]`.
fn render(goals: &ClassGoals) -> String {
    goals
        .goals
        .iter()
        .map(|g| {
            let parents: Vec<String> = g.parents.iter().map(|p| p.0.to_string()).collect();
            format!("{} {} | {} <- [{}]", g.id.0, g.key, g.label, parents.join(","))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn goals_of(file: &str, source: &str, class: &str) -> ClassGoals {
    let classes = compile(&[(file, source)]);
    class_goals(&classes[class]).unwrap()
}

const SIMPLE: &str = "public class A {
static int f(int a, String s) {
    if (a < 3) {
        return 1;
    }
    return s.length();
}
static void g() {}
}
";

#[test]
fn goals_are_numbered_by_method_then_bytecode_index_with_parents() {
    let goals = goals_of("A.java", SIMPLE, "A");
    let expected = "\
0 method:<init>()V | A.java:1 method <init>()V <- []
1 root:<init>()V | A.java:1 root <init>()V <- []
2 line:1 | A.java:1 <- [1]
3 method:f(ILjava/lang/String;)I | A.java:3 method f(ILjava/lang/String;)I <- []
4 line:3 | A.java:3 <- [3]
5 f(ILjava/lang/String;)I@2:true | A.java:3 if (a >= 3) true <- [3]
6 f(ILjava/lang/String;)I@2:false | A.java:3 if (a >= 3) false <- [3]
7 line:4 | A.java:4 <- [6]
8 line:6 | A.java:6 <- [5]
9 method:g()V | A.java:8 method g()V <- []
10 root:g()V | A.java:8 root g()V <- []
11 line:8 | A.java:8 <- [10]";
    assert_eq!(render(&goals), expected);
    assert_eq!(goals.branches.len(), 1);
    let site = &goals.branches[0];
    assert_eq!((site.method_index, site.bci, site.opcode), (1, 2, model::bytecode::op::IF_ICMPGE));
    assert_eq!((site.true_goal, site.false_goal), (GoalId(5), GoalId(6)));
    assert_eq!(goals.line_goal(6), Some(GoalId(8)));
    assert_eq!(goals.line_goal(7), None);
    assert_eq!((goals.method_goal(1), goals.root_goal(1)), (Some(GoalId(3)), Some(GoalId(3))));
    assert_eq!((goals.method_goal(2), goals.root_goal(2)), (Some(GoalId(9)), Some(GoalId(10))));
    assert_eq!(goals.goal_by_key("line:4"), Some(GoalId(7)));
    assert_eq!(goals.branch_goal_count(), 2);
    assert_eq!(goals.lines(), [1, 3, 4, 6, 8]);
    assert_eq!(goals.methods_with_goal(), [0, 1, 2]);
    assert_eq!(
        goals.summary(),
        "12 goals: 2 branch, 0 switch-case, 5 line, 3 method, 2 root-branch; 1 branch sites, 0 switch sites, 0 filtered"
    );
}

#[test]
fn nested_branches_give_approach_levels_through_their_parents() {
    let source = "class N {
int f(boolean a, int b) {
    if (a) {
        if (b > 0) {
            return 1;
        }
    }
    return 0;
}
}
";
    let goals = goals_of("N.java", source, "N");
    let key = |k: &str| goals.goal_by_key(k).unwrap();
    let (outer_false, inner_true) = (key("f(ZI)I@1:false"), key("f(ZI)I@5:true"));
    assert_eq!(goals.goal(outer_false).label, "N.java:3 if (!a) false");
    assert_eq!(goals.goal(inner_true).label, "N.java:4 if (b <= 0) true");
    assert_eq!(goals.parents(inner_true), &[outer_false]);
    assert_eq!(goals.parents(outer_false), &[key("method:f(ZI)I")]);
    let method = key("method:f(ZI)I");
    let only_entry = goals.approach_level(inner_true, |g| g == method);
    assert_eq!(only_entry, Some(Approach { level: 2, via: method }));
    let outer_reached = goals.approach_level(inner_true, |g| g == method || g == outer_false);
    assert_eq!(outer_reached, Some(Approach { level: 1, via: outer_false }));
    assert_eq!(goals.approach_level(inner_true, |_| false), None);
    // `return 1` (line 5) is three steps from entry.
    assert_eq!(goals.methods[1].max_approach_level, 3);
    let graph = goals.dependence_graph();
    assert_eq!(graph.node_count(), goals.goals.len());
    assert!(graph.contains_edge(NodeIndex::new(outer_false.0 as usize), NodeIndex::new(inner_true.0 as usize)));
}

#[test]
fn switch_cases_sharing_a_target_are_one_goal_and_the_default_takes_its_cases() {
    let source = "class S {
static int f(int k) {
    switch (k) {
        case 1: case 2: return 10;
        case 3: return 20;
        case 4: default: return 30;
    }
}
}
";
    let goals = goals_of("S.java", source, "S");
    let switch_goals: Vec<String> = goals
        .goals
        .iter()
        .filter(|g| matches!(g.kind, GoalKind::SwitchCase { .. }))
        .map(|g| format!("{} | {}", g.key, g.label))
        .collect();
    assert_eq!(
        switch_goals,
        [
            "f(I)I@1:case:1,2 | S.java:3 switch (k) case 1, 2",
            "f(I)I@1:case:3 | S.java:3 switch (k) case 3",
            "f(I)I@1:case:4,default | S.java:3 switch (k) case 4, default",
        ]
    );
    let site = &goals.switches[0];
    let ids: Vec<GoalId> =
        goals.goals.iter().filter(|g| matches!(g.kind, GoalKind::SwitchCase { .. })).map(|g| g.id).collect();
    assert_eq!(
        site.cases.iter().map(|c| (c.0.clone(), c.2)).collect::<Vec<_>>(),
        [(vec![1, 2], ids[0]), (vec![3], ids[1])]
    );
    assert_eq!(site.default.1, Some(ids[2]));
    // `return 20` depends on its case.
    let line5 = goals.line_goal(5).unwrap();
    assert_eq!(goals.parents(line5), &[ids[1]]);
}

#[test]
fn string_switch_hash_dispatch_is_filtered_but_the_second_switch_stays() {
    let source = "class T {
static int f(String s) {
    switch (s) {
        case \"Aa\": return 1;
        case \"BB\": return 2;
        case \"c\": return 3;
        default: return 0;
    }
}
}
";
    let goals = goals_of("T.java", source, "T");
    // Second switch: cases 0, 1, 2 and the default.
    assert_eq!(goals.branch_goal_count(), 4);
    assert_eq!(goals.switches.len(), 1);
    let reasons: BTreeSet<InsnFilter> = goals.filtered.iter().map(|f| f.reason).collect();
    assert_eq!(reasons, BTreeSet::from([InsnFilter::StringSwitchHash]));
    // The hash switch and three `equals` tests ("Aa" and "BB" share a hash bucket).
    assert_eq!(goals.filtered.len(), 4);
}

#[test]
fn copies_of_a_finally_block_share_one_pair_of_goals() {
    let source = "class F {
int count;
int f(int a) {
    try {
        if (a > 0) return 1;
        count++;
    } finally {
        if (count > 3) count = 0;
    }
    return 2;
}
}
";
    let goals = goals_of("F.java", source, "F");
    assert_eq!(goals.branch_goal_count(), 4);
    // `a > 0` plus three copies of `count > 3` (after `return 1`, after `count++`, in the handler).
    assert_eq!(goals.branches.len(), 4);
    let finally_goals: BTreeSet<(GoalId, GoalId)> =
        goals.branches[1..].iter().map(|b| (b.true_goal, b.false_goal)).collect();
    assert_eq!(finally_goals.len(), 1);
    let (t, _) = *finally_goals.iter().next().unwrap();
    let GoalKind::Branch { branch, .. } = goals.goal(t).kind else { panic!("a branch goal") };
    assert_eq!(branch, goals.branches[1].id, "the first copy names the goal");
    assert_eq!(goals.goal(t).label, "F.java:8 if (this.count <= 3) true");
}

#[test]
fn try_with_resources_null_checks_are_filtered() {
    let source = "class R {
static int f(java.io.Reader in) throws java.io.IOException {
    try (java.io.Reader r = in) {
        return r.read();
    }
}
}
";
    let goals = goals_of("R.java", source, "R");
    assert_eq!(goals.branch_goal_count(), 0);
    assert!(goals.filtered.iter().all(|f| f.reason == InsnFilter::TryWithResources));
    assert_eq!(goals.filtered.len(), 2);
    assert!(goals.root_goal(1).is_some_and(|g| goals.goal(g).kind == GoalKind::RootBranch));
}

#[test]
fn assertion_branches_are_filtered_unless_counting_like_jacoco_0_8_6() {
    let source = "class X {
static int f(int x) {
    assert x > 0 : \"positive\";
    return x;
}
}
";
    let classes = compile(&[("X.java", source)]);
    let default = class_goals(&classes["X"]).unwrap();
    assert_eq!(default.branch_goal_count(), 2);
    let x_positive = default.goal_by_key("f(I)I@7:true").unwrap();
    assert_eq!(default.goal(x_positive).label, "X.java:3 if (x > 0) true");
    // Depending on the filtered `$assertionsDisabled` test means depending on entry.
    assert_eq!(default.parents(x_positive), &[default.method_goal(1).unwrap()]);
    let jacoco = class_goals_with(&classes["X"], &AnalysisOptions { filter_assertions: false }).unwrap();
    // Plus `$assertionsDisabled` in f and `desiredAssertionStatus()` in <clinit>.
    assert_eq!(jacoco.branch_goal_count(), 6);
}

#[test]
fn generated_methods_are_filtered_but_lambdas_are_kept() {
    let source = "enum E { A, B;
static final class C implements Comparable<C> {
    private C() {}
    public int compareTo(C o) { return 0; }
    java.util.function.IntPredicate p() { return i -> i > 0; }
}
}
";
    let classes = compile(&[("E.java", source)]);
    let filters = |class: &str| -> Vec<(String, Option<MethodFilter>)> {
        let goals = class_goals(&classes[class]).unwrap();
        goals.methods.iter().map(|m| (format!("{}{}", m.name, m.descriptor), m.filter)).collect()
    };
    let e = filters("E");
    assert!(e.contains(&("values()[LE;".to_string(), Some(MethodFilter::EnumGenerated))));
    assert!(e.contains(&("valueOf(Ljava/lang/String;)LE;".to_string(), Some(MethodFilter::EnumGenerated))));
    assert!(e.contains(&("<init>(Ljava/lang/String;I)V".to_string(), Some(MethodFilter::EnumEmptyConstructor))));
    assert!(e.contains(&("<clinit>()V".to_string(), None)));
    let c = filters("E$C");
    assert!(c.contains(&("<init>()V".to_string(), Some(MethodFilter::PrivateEmptyConstructor))));
    assert!(c.contains(&("compareTo(Ljava/lang/Object;)I".to_string(), Some(MethodFilter::Synthetic))));
    assert!(c.contains(&("lambda$p$0(I)Z".to_string(), None)));
    let goals = class_goals(&classes["E$C"]).unwrap();
    assert_eq!(goals.goal(goals.goal_by_key("lambda$p$0(I)Z@1:true").unwrap()).label, "E.java:5 if (i <= 0) true");
}

#[test]
fn code_in_an_infinite_loop_still_has_parents() {
    let source = "class L {
static void f(int i) {
    while (true) {
        if (i++ > 10) {
            i = 0;
        }
    }
}
}
";
    let goals = goals_of("L.java", source, "L");
    let taken = goals.goal_by_key("f(I)V@6:true").unwrap();
    let fall = goals.goal_by_key("f(I)V@6:false").unwrap();
    assert_eq!(goals.goal(fall).label, "L.java:4 if (i <= 10) false");
    // The loop test runs again after the body, i.e. after the fall-through side.
    assert_eq!(goals.parents(taken), &[goals.method_goal(1).unwrap(), fall]);
    assert_eq!(goals.parents(goals.line_goal(5).unwrap()), &[fall]);
}

#[test]
fn the_compare_fixture_labels_render_the_jvm_conditions() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/fixtures/src/fixtures/Compare.java");
    let source = std::fs::read_to_string(path).unwrap();
    let goals = goals_of("Compare.java", &source, "fixtures/Compare");
    let label = |method: &str| -> String {
        let is_decision = |g: &&Goal| matches!(g.kind, GoalKind::Branch { .. } | GoalKind::SwitchCase { .. });
        let g = goals.goals.iter().filter(is_decision).find(|g| g.method_name == method).unwrap();
        g.label.split_once(' ').unwrap().1.to_string()
    };
    let expected = [
        ("ltInt", "if (a >= b) true"),
        ("leInt", "if (a > b) true"),
        ("eqInt", "if (a != b) true"),
        ("ltZero", "if (a >= 0) true"),
        ("eqZero", "if (a != 0) true"),
        ("ltLong", "if (a >= b) true"),
        ("eqLong", "if (a != b) true"),
        ("ltFloat", "if (a >= b) true"),
        ("gtDouble", "if (a <= b) true"),
        ("isNull", "if (o != null) true"),
        ("sw", "switch (x) case 1"),
    ];
    for (method, text) in expected {
        assert_eq!(label(method), text, "{method}");
    }
    // The private constructor is filtered; every other method has one decision.
    assert_eq!(goals.methods[0].filter, Some(MethodFilter::PrivateEmptyConstructor));
    assert!(goals.methods[1..].iter().all(|m| m.root_branch_goal.is_none()));
}

#[test]
fn goals_serialise_and_are_deterministic() {
    let classes = compile(&[("A.java", SIMPLE)]);
    let a = class_goals(&classes["A"]).unwrap();
    let b = class_goals(&classes["A"]).unwrap();
    assert_eq!(a, b);
    let json = serde_json::to_string(&a).unwrap();
    let back: ClassGoals = serde_json::from_str(&json).unwrap();
    assert_eq!(back, a);
}
