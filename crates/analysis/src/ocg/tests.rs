use std::collections::BTreeMap;
use std::sync::Arc;

use model::classfile::ClassFile;

use super::*;
use crate::testutil::compile;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/evoobj/src/game/");

fn game() -> BTreeMap<String, Arc<ClassFile>> {
    let names = ["Badge", "Member", "Crew", "Player", "GameState", "Vault", "Rules"];
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
fn getters_and_a_container_lead_back_to_the_parameter() {
    let classes = game();
    // canCommand: m == null, b == null, b.getLevel() == 7 (the third jump).
    let text = ocg_of(&classes, "canCommand", 2, OcgLimits::default());
    assert_eq!(
        text,
        concat!(
            " n0 input #0 Lgame/Crew;\n",
            " n1 input #1 I\n",
            " n2 field game/Crew.members Ljava/util/List; <- owner n0\n",
            " n3 call java/util/List.get(I)Ljava/lang/Object; <- arg0 n1, owner n2\n",
            " n4 field game/Member.badge Lgame/Badge; <- owner n3\n",
            "*n5 field game/Badge.level I <- owner n4\n",
        )
    );
}

#[test]
fn a_call_on_a_parameter_binds_the_callees_parameters_to_the_callers_values() {
    let classes = game();
    // winner: actor < 0, actor > 3, p != null, p.getPoints() == 250 (the fourth jump).
    let text = ocg_of(&classes, "winner", 3, OcgLimits::default());
    assert!(text.contains(" n2 field game/GameState.seats [Lgame/Player; <- owner n0"), "{text}");
    assert!(text.contains("element [?] <- index n1, owner n2"), "{text}");
    assert!(text.contains("field game/Player.points I <- owner n3"), "{text}");
}

#[test]
fn array_elements_keep_their_constant_index_and_depth_limits_the_callees() {
    let classes = game();
    // bonus: team.length > 2, team[2] != null, team[2].getPoints() > 90.
    let text = ocg_of(&classes, "bonus", 2, OcgLimits::default());
    assert!(text.contains("n1 element [2] <- owner n0"), "{text}");
    assert!(text.contains("*n2 field game/Player.points I <- owner n1"), "{text}");
    // With no callee followed, getPoints() stays a call and nothing is read but the element.
    let text = ocg_of(&classes, "bonus", 2, OcgLimits { call_depth: 0, ..OcgLimits::default() });
    assert!(text.contains("n1 element [2] <- owner n0"), "{text}");
    assert!(!text.contains("Player.points"), "{text}");
    // The length check reads no field: nothing but the input survives the pruning.
    assert_eq!(ocg_of(&classes, "bonus", 0, OcgLimits::default()), "");
}
