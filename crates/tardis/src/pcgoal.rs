//! Path-condition goals (TECHNIQUES.md §5 step 4, the "otherwise" case): an
//! alternative the solver can satisfy only by changing a value the JVM
//! logged (a result of a call into the JDK, [`crate::replay::Source::Logged`])
//! cannot be written into the test. It becomes a temporary goal of the
//! search instead, with a SUSHI-style fitness (Braione et al., "Combining
//! symbolic execution and search-based testing for programs with complex
//! heap inputs", ISSTA 2017, §3): the clauses of the path up to the negated
//! one, in path order, the negated one last; a run's fitness is the number of
//! clauses after the first one it does not satisfy plus that clause's
//! normalised branch distance (TECHNIQUES.md §0: `d / (d + 1)`), and 0 when
//! it satisfies them all.
//!
//! Runs of different tests have different symbols, so a goal's clause is
//! found in a run by where it is, not by its symbols: the branch it is about
//! (class, method, bytecode index) and how many times that branch ran
//! before ([`Anchor`]), and its place among the clauses of that branch
//! (steps of a modelled JDK method, a switch's cases). The run's clause
//! there has the same operands in the same roles (the same bytecode made
//! it); the goal's relation is evaluated on their values in that run.

use std::collections::BTreeMap;

use crate::expr::{Expr, Value};
use crate::path::Rel;
use crate::replay::{Origin, Replay, Site};

/// The raw distance of a clause whose branch did not run in a test.
const NOT_REACHED: f64 = 1e12;

/// Where a clause is in a run: the branch it is about, and how many times
/// that branch ran before in the same run.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Anchor {
    class: String,
    method: String,
    descriptor: String,
    bci: u32,
    occurrence: usize,
}

impl Anchor {
    /// The anchor of branch `b` of `branches` (the branches a run ran, in order).
    fn of(branches: &[Site], b: usize) -> Option<Anchor> {
        let site = branches.get(b)?;
        let same = |s: &&Site| {
            s.bci == site.bci && s.method == site.method && s.descriptor == site.descriptor && s.class == site.class
        };
        let occurrence = branches[..b].iter().filter(same).count();
        Some(Anchor {
            class: site.class.clone(),
            method: site.method.clone(),
            descriptor: site.descriptor.clone(),
            bci: site.bci,
            occurrence,
        })
    }
}

/// One clause of a goal.
#[derive(Debug, Clone)]
struct GoalClause {
    anchor: Anchor,
    /// Its place among the clauses of its branch occurrence (pins left out).
    ordinal: usize,
    /// The relation that must hold between the run's operands.
    rel: Rel,
    /// The right-hand side when it is a constant (a switch's case key): it
    /// replaces the run's own.
    constant: Option<Expr>,
    /// For the condition of a jump, the side it must take: what decides
    /// when the run's operands there are concrete (no clause).
    taken: Option<bool>,
}

/// A path-condition goal: the clauses of an alternative's slice, each tied
/// to where it is in a run.
#[derive(Debug, Clone)]
pub struct PcGoal {
    clauses: Vec<GoalClause>,
}

/// A run's clauses by where they are: (anchor, ordinal) to clause index,
/// and each anchor to its branch's index in [`Replay::branches`].
struct RunIndex {
    clauses: BTreeMap<(Anchor, usize), usize>,
    branches: BTreeMap<Anchor, usize>,
}

impl RunIndex {
    fn of(replay: &Replay) -> RunIndex {
        let mut branches = BTreeMap::new();
        let mut anchors: Vec<Option<Anchor>> = Vec::with_capacity(replay.branches.len());
        for b in 0..replay.branches.len() {
            let anchor = Anchor::of(&replay.branches, b);
            if let Some(a) = &anchor {
                branches.insert(a.clone(), b);
            }
            anchors.push(anchor);
        }
        let mut clauses = BTreeMap::new();
        for (j, ordinal) in ordinals(replay).into_iter().enumerate() {
            let Some(ordinal) = ordinal else { continue };
            if let Some(Some(anchor)) = replay.anchors.get(j).and_then(|&b| anchors.get(b)) {
                clauses.insert((anchor.clone(), ordinal), j);
            }
        }
        RunIndex { clauses, branches }
    }
}

/// Per clause of `replay`: its place among the clauses of its branch
/// occurrence, `None` for a pin (a concretisation, not a condition of the path).
fn ordinals(replay: &Replay) -> Vec<Option<usize>> {
    let mut seen: BTreeMap<usize, usize> = BTreeMap::new();
    replay
        .origins
        .iter()
        .zip(&replay.anchors)
        .map(|(origin, &b)| {
            if *origin == Origin::Pin {
                return None;
            }
            let n = seen.entry(b).or_default();
            *n += 1;
            Some(*n - 1)
        })
        .collect()
}

impl PcGoal {
    /// The goal of negating clause `negated` of `replay`'s path condition:
    /// every clause before it as it held (not only the slice the solver
    /// got: SUSHI's goal is the whole path, so a test that meets it keeps
    /// what its origin had, such as the items a flag needs that are already
    /// right), then that clause negated. `None` when no clause of it is
    /// tied to a branch that ran.
    pub fn new(replay: &Replay, negated: usize) -> Option<PcGoal> {
        let ordinals = ordinals(replay);
        let mut clauses = Vec::new();
        for j in 0..=negated {
            let Some(ordinal) = ordinals.get(j).copied().flatten() else { continue };
            let Some(anchor) = replay.anchors.get(j).and_then(|&b| Anchor::of(&replay.branches, b)) else { continue };
            let clause = &replay.path.clauses[j];
            let taken = match replay.origins.get(j) {
                Some(Origin::Branch(site)) if site.key.is_none() => Some(site.taken != (j == negated)),
                _ => None,
            };
            let rel = if j == negated { clause.rel.negate() } else { clause.rel };
            let constant = matches!(clause.rhs, Expr::Const(_)).then(|| clause.rhs.clone());
            clauses.push(GoalClause { anchor, ordinal, rel, constant, taken });
        }
        (!clauses.is_empty()).then_some(PcGoal { clauses })
    }

    /// The number of clauses.
    pub fn len(&self) -> usize {
        self.clauses.len()
    }

    /// Whether the goal has no clause (never: [`PcGoal::new`] makes none such).
    pub fn is_empty(&self) -> bool {
        self.clauses.is_empty()
    }

    /// The fitness of a run (its replay), from 0 (every clause holds, in
    /// order) to the number of clauses: the clauses after the first one
    /// that does not hold, plus its normalised distance.
    pub fn fitness(&self, replay: &Replay) -> f64 {
        let index = RunIndex::of(replay);
        let env = replay.values();
        for (i, goal) in self.clauses.iter().enumerate() {
            let d = goal.distance(replay, &index, &env);
            if d > 0.0 {
                return (self.clauses.len() - i - 1) as f64 + d / (d + 1.0);
            }
        }
        0.0
    }
}

impl GoalClause {
    /// The branch distance of this clause in a run (0 when it holds).
    fn distance(&self, replay: &Replay, index: &RunIndex, env: &BTreeMap<u32, Value>) -> f64 {
        let key = (self.anchor.clone(), self.ordinal);
        let first = (self.anchor.clone(), 0);
        if let Some(&j) = index.clauses.get(&key).or_else(|| index.clauses.get(&first)) {
            let clause = &replay.path.clauses[j];
            let rhs = self.constant.as_ref().unwrap_or(&clause.rhs);
            return distance(self.rel, &clause.lhs, rhs, env);
        }
        match (index.branches.get(&self.anchor), self.taken) {
            (Some(&b), Some(taken)) if replay.branches[b].taken == taken => 0.0,
            (Some(_), _) => 1.0,
            (None, _) => NOT_REACHED,
        }
    }
}

/// The branch distance of `lhs rel rhs` at `env` (TECHNIQUES.md §0): 0 when
/// it holds. A comparison of two `long`s, `float`s or `double`s (`lcmp`,
/// `fcmpl`, ... against 0) is measured on the two operands.
fn distance(rel: Rel, lhs: &Expr, rhs: &Expr, env: &BTreeMap<u32, Value>) -> f64 {
    let operands = match (lhs, rhs) {
        (Expr::Cmp(_, a, b), Expr::Const(Value::Int(0))) => (a.eval(env), b.eval(env)),
        _ => (lhs.eval(env), rhs.eval(env)),
    };
    let (Ok(a), Ok(b)) = operands else { return 1.0 };
    let (a, b) = (a.as_f64(), b.as_f64());
    let d = match rel {
        Rel::Eq => (a - b).abs(),
        Rel::Ne => f64::from(u8::from(a == b)),
        Rel::Lt if a < b => 0.0,
        Rel::Lt => a - b + 1.0,
        Rel::Le if a <= b => 0.0,
        Rel::Le => a - b,
        Rel::Gt if a > b => 0.0,
        Rel::Gt => b - a + 1.0,
        Rel::Ge if a >= b => 0.0,
        Rel::Ge => b - a,
    };
    // NaN compares false everywhere: the clause does not hold.
    if d.is_nan() { 1.0 } else { d }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::JType;
    use crate::path::Clause;
    use crate::replay::Source;
    use crate::testkit::{int, sym};

    fn site(bci: u32, taken: bool) -> Site {
        Site { class: "C".into(), method: "m".into(), descriptor: "()V".into(), bci, taken, key: None }
    }

    /// A run of `for (x : xs) if (x == 42) found = true;` over logged
    /// values `xs`, then `if (n > 2)` on logged `n`: one clause per branch.
    fn run(xs: &[i32], n: i32) -> Replay {
        let mut r = Replay::default();
        let add = |r: &mut Replay, value: i32, clause: Clause, site: Site| {
            let id = r.symbols.len() as u32;
            r.symbols.insert(id, (JType::Int, Value::Int(value), Source::Logged { site: 0, event: id as usize }));
            let clause = Clause { lhs: Expr::Sym(id, JType::Int), ..clause };
            r.path.clauses.push(if site.taken { clause } else { clause.negate() });
            r.origins.push(Origin::Branch(site.clone()));
            r.anchors.push(r.branches.len());
            r.branches.push(site);
        };
        for &x in xs {
            add(&mut r, x, Clause::new(sym(0), Rel::Eq, int(42)), site(10, x == 42));
        }
        add(&mut r, n, Clause::new(sym(0), Rel::Gt, int(2)), site(20, n > 2));
        r
    }

    #[test]
    fn fitness_counts_the_clauses_left_and_the_distance_of_the_first_that_fails() {
        // The goal: the first element still not 42, the second 42 (the
        // clause of the second iteration negated).
        let origin = run(&[1, 7, 3], 5);
        let goal = PcGoal::new(&origin, 1).expect("a goal");
        assert_eq!(goal.len(), 2);
        // 7 is 35 away from 42: 35 / 36.
        assert!((goal.fitness(&origin) - 35.0 / 36.0).abs() < 1e-9, "{}", goal.fitness(&origin));
        // Closer values are fitter; the value 42 at the second iteration reaches it.
        assert!(goal.fitness(&run(&[1, 40, 3], 5)) < goal.fitness(&origin));
        assert_eq!(goal.fitness(&run(&[9, 42], 0)), 0.0);
        // 42 at the first iteration breaks the prefix: one clause left, and a distance of 1.
        assert_eq!(goal.fitness(&run(&[42, 42], 5)), 1.5);
        // A run with one element never gets to the second iteration.
        assert!((goal.fitness(&run(&[2], 5)) - NOT_REACHED / (NOT_REACHED + 1.0)).abs() < 1e-9);
    }

    #[test]
    fn clauses_hold_in_path_order_and_a_failing_prefix_counts_the_rest() {
        // The path of x = 42, n = 1; the goal keeps x == 42 and negates n <= 2.
        let origin = run(&[42], 1);
        let goal = PcGoal::new(&origin, 1).expect("a goal");
        assert_eq!(goal.len(), 2);
        // x misses by 41: one clause left after it.
        assert!((goal.fitness(&run(&[1], 1)) - (1.0 + 41.0 / 42.0)).abs() < 1e-9);
        // x holds, n misses by 2 (n > 2 with n = 1: 2 - 1 + 1).
        assert!((goal.fitness(&origin) - 2.0 / 3.0).abs() < 1e-9);
        assert_eq!(goal.fitness(&run(&[42], 3)), 0.0);
    }

    #[test]
    fn long_and_double_comparisons_are_measured_on_their_operands() {
        use crate::expr::CmpOp;
        let a = Expr::Sym(0, JType::Long);
        let cmp = Expr::cmp(CmpOp::NanIsLess, a, Expr::Const(Value::Long(1000)));
        let env = BTreeMap::from([(0, Value::Long(990))]);
        assert_eq!(distance(Rel::Eq, &cmp, &int(0), &env), 10.0);
        assert_eq!(distance(Rel::Lt, &cmp, &int(0), &env), 0.0);
        let nan = BTreeMap::from([(0, Value::Int(0))]);
        let d = Expr::Const(Value::Double(f64::NAN));
        assert_eq!(distance(Rel::Eq, &d, &Expr::Const(Value::Double(1.0)), &nan), 1.0);
    }
}
