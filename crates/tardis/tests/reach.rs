//! What a branch side can lead to (`tardis::reach`), on
//! `testdata/tardis/src/needles/Readings.java` compiled by javac: in
//! `check`, the side of the size check that throws cannot lead to the
//! final `if (calibrated)`, its other side can, and both sides of the item
//! check in the loop can (the loop goes back), so the DSE step solves
//! alternatives at the item check but not the one that makes `check` throw;
//! and of the item check's sides, the one that clears the flag the needle
//! needs harms it and the other helps.

use std::collections::BTreeSet;
use std::path::Path;

use analysis::class_goals;
use model::classfile::ClassFile;
use tardis::reach::Reach;

mod common;

#[test]
fn a_side_that_throws_cannot_lead_to_the_goals_after_it_and_loop_sides_can() {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/tardis/src/needles/Readings.java");
    common::javac(dir.path(), dir.path(), &[&src]);
    let cf = ClassFile::parse(&std::fs::read(dir.path().join("needles/Readings.class")).unwrap()).unwrap();
    let goals = class_goals(&cf).unwrap();
    let reach = Reach::of(&goals, std::slice::from_ref(&cf));
    let check = cf.methods.iter().position(|m| cf.member_name(m) == "check").unwrap() as u16;
    let mut branches: Vec<_> = goals.branches.iter().filter(|b| b.method_index == check).collect();
    branches.sort_by_key(|b| b.bci);
    // size != 5, the loop's i < size, the item check, if (calibrated).
    assert_eq!(branches.len(), 4, "{branches:?}");
    let (size, item, last) = (branches[0], branches[2], branches[3]);
    let flag: BTreeSet<_> = [last.true_goal, last.false_goal].into();
    let sides = [reach.can_reach(size.true_goal, &flag), reach.can_reach(size.false_goal, &flag)];
    assert!(sides.contains(&true) && sides.contains(&false), "one side throws: {sides:?}");
    assert!(reach.can_reach(item.true_goal, &flag) && reach.can_reach(item.false_goal, &flag));
    // The item check's sides lead back to the item check itself (the loop).
    let itself: BTreeSet<_> = [item.true_goal].into();
    assert!(reach.can_reach(item.false_goal, &itself));
    // `if (calibrated)` (iload; ifeq): its fall-through side needs the flag set. The item check's side
    // that stores `calibrated = false` harms it, its other side helps; the size check's side that goes
    // on to `calibrated = true` helps too, and the loop's condition neither.
    let (helpful, harmful) = reach.flag_effects(&[last.false_goal].into());
    let (item_sides, stores) = ([item.true_goal, item.false_goal], |g| harmful.contains(g));
    assert_eq!(item_sides.iter().filter(|g| stores(g)).count(), 1, "{harmful:?}");
    assert!(item_sides.iter().all(|g| helpful.contains(g) != harmful.contains(g)), "{helpful:?} {harmful:?}");
    assert_eq!([size.true_goal, size.false_goal].iter().filter(|g| helpful.contains(g)).count(), 1);
    let unrelated = [size.true_goal, size.false_goal, branches[1].true_goal, branches[1].false_goal];
    assert!(!unrelated.iter().any(|g| harmful.contains(g)), "{harmful:?}");
    assert!(![branches[1].true_goal, branches[1].false_goal].iter().any(|g| helpful.contains(g)));
}
