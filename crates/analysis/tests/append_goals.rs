//! `ClassGoals::append`: a nested class's goals follow the outer class's,
//! with every goal, branch, switch and method reference shifted.

use model::classpath::ClassPath;

#[test]
fn appended_goals_keep_their_references_consistent() {
    let cp = ClassPath::parse("/usr/share/java/commons-cli.jar").expect("run scripts/setup.sh (libcommons-cli-java)");
    let outer = analysis::goals::class_goals(&cp.load("org.apache.commons.cli.Option").unwrap()).unwrap();
    let nested = analysis::goals::class_goals(&cp.load("org.apache.commons.cli.Option$Builder").unwrap()).unwrap();
    let mut merged = outer.clone();
    merged.append(nested.clone());
    assert_eq!(merged.goals.len(), outer.goals.len() + nested.goals.len());
    assert_eq!(merged.branches.len(), outer.branches.len() + nested.branches.len());
    assert_eq!(merged.methods.len(), outer.methods.len() + nested.methods.len());
    for (i, g) in merged.goals.iter().enumerate() {
        assert_eq!(g.id.0 as usize, i, "ids stay dense");
        assert!(g.parents.iter().all(|p| (p.0 as usize) < merged.goals.len()));
        let m = &merged.methods[usize::from(g.method_index)];
        assert_eq!((m.name.as_str(), m.descriptor.as_str()), (g.method_name.as_str(), g.method_descriptor.as_str()));
    }
    for b in &merged.branches {
        for side in [b.true_goal, b.false_goal] {
            let goal = &merged.goals[side.0 as usize];
            assert!(
                matches!(goal.kind, analysis::goals::GoalKind::Branch { branch, .. } if branch == b.id || goal.bci != b.bci)
            );
            assert_eq!(goal.method_index, b.method_index);
        }
    }
    let builder_goals = merged.goals.iter().filter(|g| g.class == "org/apache/commons/cli/Option$Builder").count();
    assert_eq!(builder_goals, nested.goals.len());
}
