//! Lookups on [`ClassGoals`]: goals by id, key and line, counts, the
//! control-dependence graph and approach levels, and merging nested classes.

use std::collections::{BTreeSet, VecDeque};

use petgraph::graph::{DiGraph, NodeIndex};

use super::{Approach, ClassGoals, Goal, GoalId, GoalKind};

impl ClassGoals {
    /// Appends the goals of another class (a nested class of this one, so
    /// that its code counts as part of the class under test, as JaCoCo and
    /// EvoSuite count it): its goal, branch and switch ids are shifted past
    /// this class's, and its method indices past this class's methods, so
    /// that `methods[goal.method_index]` stays the goal's method. `class` of
    /// each appended goal keeps the nested class's name; a source line
    /// already taken keeps its first goal.
    pub fn append(&mut self, other: ClassGoals) {
        let (goal_off, branch_off, switch_off) =
            (self.goals.len() as u32, self.branches.len() as u32, self.switches.len() as u32);
        let method_off = self.methods.len() as u16;
        let shift = |id: GoalId| GoalId(id.0 + goal_off);
        for mut goal in other.goals {
            goal.id = shift(goal.id);
            goal.parents = goal.parents.into_iter().map(shift).collect();
            goal.method_index += method_off;
            match &mut goal.kind {
                GoalKind::Branch { branch, .. } => branch.0 += branch_off,
                GoalKind::SwitchCase { switch, .. } => switch.0 += switch_off,
                _ => {}
            }
            self.goals.push(goal);
        }
        for mut b in other.branches {
            b.id.0 += branch_off;
            b.method_index += method_off;
            b.true_goal = shift(b.true_goal);
            b.false_goal = shift(b.false_goal);
            self.branches.push(b);
        }
        for mut sw in other.switches {
            sw.id.0 += switch_off;
            sw.method_index += method_off;
            sw.cases.iter_mut().for_each(|(_, _, goal)| *goal = shift(*goal));
            sw.default.1 = sw.default.1.map(shift);
            self.switches.push(sw);
        }
        for mut m in other.methods {
            m.index += method_off;
            m.method_goal = m.method_goal.map(shift);
            m.root_branch_goal = m.root_branch_goal.map(shift);
            self.methods.push(m);
        }
        for mut f in other.filtered {
            f.method_index += method_off;
            self.filtered.push(f);
        }
        for (line, goal) in other.line_goals {
            self.line_goals.entry(line).or_insert(shift(goal));
        }
    }

    /// The goal with id `id`.
    pub fn goal(&self, id: GoalId) -> &Goal {
        &self.goals[id.0 as usize]
    }

    /// The goal with textual key `key`.
    pub fn goal_by_key(&self, key: &str) -> Option<GoalId> {
        self.goals.iter().find(|g| g.key == key).map(|g| g.id)
    }

    /// The line goal of `line`.
    pub fn line_goal(&self, line: u16) -> Option<GoalId> {
        self.line_goals.get(&line).copied()
    }

    /// The lines that have a line goal, ascending.
    pub fn lines(&self) -> Vec<u16> {
        self.line_goals.keys().copied().collect()
    }

    /// Indices of the methods that have a method goal, ascending.
    pub fn methods_with_goal(&self) -> Vec<u16> {
        self.methods.iter().filter(|m| m.method_goal.is_some()).map(|m| m.index).collect()
    }

    /// One line of counts: goals by kind, probe sites, filtered sites, e.g.
    /// `12 goals: 2 branch, 0 switch-case, 6 line, 3 method, 2 root-branch; 1 branch site, 0 switch sites, 0 filtered`.
    pub fn summary(&self) -> String {
        let count = |name: &str| self.goals.iter().filter(|g| g.kind.name() == name).count();
        format!(
            "{} goals: {} branch, {} switch-case, {} line, {} method, {} root-branch; {} branch sites, {} switch sites, {} filtered",
            self.goals.len(),
            count("branch"),
            count("switch-case"),
            count("line"),
            count("method"),
            count("root-branch"),
            self.branches.len(),
            self.switches.len(),
            self.filtered.len(),
        )
    }

    /// The method goal of method `method_index`.
    pub fn method_goal(&self, method_index: u16) -> Option<GoalId> {
        self.methods.get(usize::from(method_index))?.method_goal
    }

    /// The goal standing for "the method was entered" as a control-dependence
    /// parent: the root branch when the method has one, else the method goal.
    pub fn root_goal(&self, method_index: u16) -> Option<GoalId> {
        let m = self.methods.get(usize::from(method_index))?;
        m.root_branch_goal.or(m.method_goal)
    }

    /// The control-dependence parents of `goal`.
    pub fn parents(&self, goal: GoalId) -> &[GoalId] {
        &self.goal(goal).parents
    }

    /// Number of branch goals as JaCoCo counts branches: two per conditional
    /// jump, one per distinct switch target.
    pub fn branch_goal_count(&self) -> usize {
        self.goals.iter().filter(|g| matches!(g.kind, GoalKind::Branch { .. } | GoalKind::SwitchCase { .. })).count()
    }

    /// The goal-level control dependence graph: node `i` is `GoalId(i)`, an
    /// edge parent → child for every parent.
    pub fn dependence_graph(&self) -> DiGraph<GoalId, ()> {
        let mut g = DiGraph::with_capacity(self.goals.len(), self.goals.len());
        for goal in &self.goals {
            g.add_node(goal.id);
        }
        for goal in &self.goals {
            for p in &goal.parents {
                g.add_edge(NodeIndex::new(p.0 as usize), NodeIndex::new(goal.id.0 as usize), ());
            }
        }
        g
    }

    /// The approach level of `goal`: the fewest control-dependence steps up
    /// from `goal` to a goal whose decision was reached. `reached(g)` says
    /// whether `g`'s decision executed (for branch and switch goals: the
    /// jump or switch ran, either way; for root and method goals: the method
    /// was entered). `None` when no ancestor was reached.
    pub fn approach_level(&self, goal: GoalId, mut reached: impl FnMut(GoalId) -> bool) -> Option<Approach> {
        let mut seen = BTreeSet::from([goal]);
        let mut queue = VecDeque::from([(goal, 0)]);
        while let Some((g, level)) = queue.pop_front() {
            if reached(g) {
                return Some(Approach { level, via: g });
            }
            for &p in self.parents(g) {
                if seen.insert(p) {
                    queue.push_back((p, level + 1));
                }
            }
        }
        None
    }
}
