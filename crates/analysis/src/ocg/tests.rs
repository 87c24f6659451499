use std::collections::BTreeMap;
use std::sync::Arc;

use model::classfile::ClassFile;

use super::*;
use crate::testutil::compile;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/evoobj/src/game/");

fn game() -> BTreeMap<String, Arc<ClassFile>> {
    let names = [
        "Account", "Badge", "Bank", "Crew", "Fleet", "League", "Member", "Player", "Ship", "Stats", "Team", "Vault",
        "Rules",
    ];
    let sources: Vec<(String, String)> = names
        .iter()
        .map(|n| (format!("{n}.java"), std::fs::read_to_string(format!("{FIXTURE}{n}.java")).unwrap()))
        .collect();
    let refs: Vec<(&str, &str)> = sources.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    compile(&refs).into_iter().map(|(k, v)| (k, Arc::new(v))).collect()
}

/// The rendered OCG of the `nth` conditional jump of `method` in `game/Rules`.
fn ocg_of(classes: &BTreeMap<String, Arc<ClassFile>>, method: &str, nth: usize, limits: OcgLimits) -> String {
    let cf = &classes["game/Rules"];
    let index = cf.methods.iter().position(|m| cf.member_name(m) == method).unwrap();
    let insns = model::bytecode::decode(&cf.code(&cf.methods[index]).unwrap().unwrap().code).unwrap();
    let jump = insns.iter().filter(|i| i.is_conditional_jump()).nth(nth).unwrap();
    let source = |name: &str| classes.get(name).cloned();
    build(cf, index as u16, jump.bci, &source, limits).unwrap().render()
}

#[test]
fn getters_and_containers_lead_back_to_the_parameters() {
    let classes = game();
    // canCommand: ship == null, member == null, member.isRetired(), getLevel() != 7 (the fourth jump).
    let text = ocg_of(&classes, "canCommand", 3, OcgLimits::default());
    assert_eq!(
        text,
        concat!(
            " n0 input #0 Lgame/Fleet;\n",
            " n1 input #1 I\n",
            " n2 input #2 I\n",
            " n3 field game/Fleet.ships Ljava/util/List; <- owner n0\n",
            " n4 call java/util/List.get(I)Ljava/lang/Object; <- arg0 n1, owner n3\n",
            " n5 field game/Ship.crew Lgame/Crew; <- owner n4\n",
            " n6 field game/Crew.members Ljava/util/List; <- owner n5\n",
            " n7 call java/util/List.get(I)Ljava/lang/Object; <- arg0 n2, owner n6\n",
            " n8 field game/Member.badge Lgame/Badge; <- owner n7\n",
            "*n9 field game/Badge.level I <- owner n8\n",
        )
    );
}

#[test]
fn a_call_on_a_parameter_binds_the_callees_parameters_to_the_callers_values() {
    let classes = game();
    // winner: team == null, player == null, goals <= 90 (the third jump).
    let text = ocg_of(&classes, "winner", 2, OcgLimits::default());
    for line in [
        " n3 field game/League.teams [Lgame/Team; <- owner n0",
        " n4 element [?] <- index n1, owner n3",
        " n5 field game/Team.seats [Lgame/Player; <- owner n4",
        " n6 element [?] <- index n2, owner n5",
        " n7 field game/Player.stats Lgame/Stats; <- owner n6",
        "*n8 field game/Stats.goals I <- owner n7",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
}

#[test]
fn array_elements_keep_their_constant_index_and_depth_limits_the_callees() {
    let classes = game();
    // bonus: grid.length > 1, grid[1].length > 2, grid[1][2] != null, goals <= 90.
    let text = ocg_of(&classes, "bonus", 3, OcgLimits::default());
    for line in
        [" n1 element [1] <- owner n0", " n2 element [2] <- owner n1", "*n4 field game/Stats.goals I <- owner n3"]
    {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
    // With no callee followed, getStats() stays a call and nothing is read past the element.
    let text = ocg_of(&classes, "bonus", 3, OcgLimits { call_depth: 0, ..OcgLimits::default() });
    assert!(text.contains(" n2 element [2] <- owner n1"), "{text}");
    assert!(!text.contains("Stats.goals"), "{text}");
    // The length check reads no field or element: nothing survives the pruning.
    assert_eq!(ocg_of(&classes, "bonus", 0, OcgLimits::default()), "");
}
