//! Which goals a branch side can still lead to in its method's control
//! flow (every edge, exceptional ones included, so the answer errs towards
//! "can"). The DSE step solves an alternative aimed at a covered branch
//! side only when that side can lead to an uncovered goal of its method: the
//! side of a check that throws cannot lead to the branch after it, and an
//! alternative that takes it is wasted (it is easy to reach, so the
//! classifier would learn to like it).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use analysis::GoalId;
use analysis::Location;
use analysis::cfg::{ControlFlowGraph, EdgeKind};
use analysis::goals::ClassGoals;
use model::bytecode::decode;
use model::classfile::ClassFile;
use petgraph::visit::EdgeRef;

/// Per branch side (its goal), the branch and switch goals reachable after it.
#[derive(Debug, Clone, Default)]
pub struct Reach {
    after: BTreeMap<GoalId, BTreeSet<GoalId>>,
}

/// A method's goal sites: (bytecode index, goals at that site).
type Sites = Vec<(u32, Vec<GoalId>)>;

impl Reach {
    /// The reach of every jump's two sides in `goals`, whose classes are
    /// among `files` (a method whose code cannot be read is left out: its
    /// sides can reach anything).
    pub fn of(goals: &ClassGoals, files: &[ClassFile]) -> Reach {
        let mut methods: BTreeMap<(String, u16), Sites> = BTreeMap::new();
        let class = |g: GoalId| goals.goal(g).class.as_str().to_string();
        for b in &goals.branches {
            let key = (class(b.true_goal), b.method_index);
            methods.entry(key).or_default().push((b.bci, vec![b.true_goal, b.false_goal]));
        }
        for sw in &goals.switches {
            let Some((_, _, first)) = sw.cases.first() else { continue };
            let case_goals = sw.cases.iter().map(|(_, _, g)| *g).collect();
            methods.entry((class(*first), sw.method_index)).or_default().push((sw.bci, case_goals));
        }
        let mut reach = Reach::default();
        for ((class, index), sites) in &methods {
            let Some(cf) = files.iter().find(|f| f.name() == class) else { continue };
            let Some(cfg) = method_cfg(cf, *index) else { continue };
            for b in goals
                .branches
                .iter()
                .filter(|b| b.method_index == *index && goals.goal(b.true_goal).class.as_str() == class)
            {
                for (side, goal) in [(true, b.true_goal), (false, b.false_goal)] {
                    if let Some(after) = after_side(&cfg, b.bci, side, sites) {
                        reach.after.insert(goal, after);
                    }
                }
            }
        }
        reach
    }

    /// Whether the branch side `side` can lead to one of `goals` (true for
    /// a side it knows nothing of).
    pub fn can_reach(&self, side: GoalId, goals: &BTreeSet<GoalId>) -> bool {
        self.after.get(&side).is_none_or(|after| !after.is_disjoint(goals))
    }
}

/// The control-flow graph of method `index` of `cf`.
fn method_cfg(cf: &ClassFile, index: u16) -> Option<ControlFlowGraph> {
    let m = cf.methods.get(usize::from(index))?;
    let code = cf.code(m).ok()??;
    let insns = decode(&code.code).ok()?;
    let location = Location::method(cf.name(), cf.member_name(m), cf.member_descriptor(m));
    ControlFlowGraph::build(&insns, &code.exception_table, &location).ok()
}

/// The goals of `sites` whose site can run after the jump at `bci` took `side`.
fn after_side(cfg: &ControlFlowGraph, bci: u32, side: bool, sites: &Sites) -> Option<BTreeSet<GoalId>> {
    let node = cfg.node(cfg.block_containing(bci)?);
    let edge = cfg.out_edges(node).into_iter().find(|e| *e.weight() == EdgeKind::Branch(side))?;
    let mut seen = BTreeSet::from([edge.target()]);
    let mut queue = VecDeque::from([edge.target()]);
    while let Some(n) = queue.pop_front() {
        for e in cfg.out_edges(n) {
            if seen.insert(e.target()) {
                queue.push_back(e.target());
            }
        }
    }
    let reached = |at: u32| cfg.block_containing(at).is_some_and(|b| seen.contains(&cfg.node(b)));
    Some(sites.iter().filter(|(at, _)| reached(*at)).flat_map(|(_, goals)| goals.iter().copied()).collect())
}
