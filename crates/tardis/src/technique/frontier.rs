//! What a DSE step wants solved: the pending alternatives and the frontier
//! of goals the search works on, with the control-flow facts ([`Reach`])
//! that tell which covered branch sides are still worth a solver query.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use analysis::GoalId;
use testcase::TestCase;

use crate::path::Alternative;
use crate::reach::Reach;
use crate::replay::Replay;

/// An alternative waiting for the solver: the test and replay it came
/// from, the goal of the branch side it aims at and that goal's method.
pub(super) struct Pending {
    pub(super) test: Arc<TestCase>,
    pub(super) replay: Arc<Replay>,
    pub(super) alternative: Alternative,
    pub(super) goal: GoalId,
    pub(super) method: Method,
    /// Whether the test reached a path-condition goal aimed at the same
    /// search goal: such alternatives come next (progress on a flag is the
    /// same branch side at one item after another).
    pub(super) follow_up: bool,
}

/// A method of a replayed class: (class, name, descriptor).
pub(super) type Method = (String, String, String);

/// The goals the search works on now, and their methods.
pub(super) struct Frontier {
    pub(super) goals: BTreeSet<GoalId>,
    pub(super) methods: BTreeSet<Method>,
    pub(super) reach: Arc<Reach>,
    /// Branch sides that help or harm an uncovered side of a flag test ([`Reach::flag_effects`]).
    pub(super) helpful: BTreeSet<GoalId>,
    pub(super) harmful: BTreeSet<GoalId>,
}

impl Frontier {
    /// The frontier of `uncovered`; `methods` holds the branch and switch
    /// goals' methods, `reach` what each branch side can lead to.
    pub(super) fn new(uncovered: &[GoalId], methods: &BTreeMap<GoalId, Method>, reach: Arc<Reach>) -> Frontier {
        let goals: BTreeSet<GoalId> = uncovered.iter().copied().collect();
        let methods = goals.iter().filter_map(|g| methods.get(g).cloned()).collect();
        let (helpful, harmful) = reach.flag_effects(&goals);
        Frontier { goals, methods, reach, helpful, harmful }
    }

    /// Whether an alternative aimed at `goal` in `method` is worth solving:
    /// its goal is uncovered (first choice), or it changes the path through
    /// a method that has uncovered goals (a flag set in a loop needs
    /// covered branches taken again in another iteration) to a side that
    /// can still lead to one of them ([`Reach`]) and does not store into a
    /// flag a value an uncovered flag test does not want.
    pub(super) fn wants(&self, goal: GoalId, method: &Method) -> bool {
        self.goals.contains(&goal)
            || (self.methods.contains(method)
                && self.reach.can_reach(goal, &self.goals)
                && !self.harmful.contains(&goal))
    }
}
