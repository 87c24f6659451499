//! What a branch record of the tracer means: which side of a conditional
//! jump was taken and the branch distance of each side.
//!
//! A branch record (see `Tracer.java`) holds, over all executions of one
//! conditional jump since the last reset, how often the compared operands
//! `a, b` had `a < b`, `a == b`, `a > b`, and the min and max of `a - b` and
//! min of `|a - b|`. Single-operand jumps compare with `b = 0`; reference
//! and null checks count same/null as "equal". Distances follow
//! TECHNIQUES.md §0 (EvoSuite's `ControlFlowDistanceCalculator`): for a side
//! that was taken the distance is 0; otherwise `a < b` needs `a - b + 1`,
//! `a <= b` needs `a - b`, `a == b` needs `|a - b|`, `a != b` needs 1.

use model::bytecode::op;
use serde::{Deserialize, Serialize};

/// The relation a conditional jump tests; the jump is taken (side `true`)
/// when the relation holds for its operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Relation {
    /// `a == b` (`ifeq`, `if_icmpeq`, `if_acmpeq`, `ifnull`).
    Eq,
    /// `a != b` (`ifne`, `if_icmpne`, `if_acmpne`, `ifnonnull`).
    Ne,
    /// `a < b` (`iflt`, `if_icmplt`).
    Lt,
    /// `a >= b` (`ifge`, `if_icmpge`).
    Ge,
    /// `a > b` (`ifgt`, `if_icmpgt`).
    Gt,
    /// `a <= b` (`ifle`, `if_icmple`).
    Le,
}

impl Relation {
    /// The relation of a conditional-jump opcode, `None` for other opcodes.
    pub fn of_opcode(opcode: u8) -> Option<Relation> {
        Some(match opcode {
            op::IFEQ | op::IF_ICMPEQ | op::IF_ACMPEQ | op::IFNULL => Relation::Eq,
            op::IFNE | op::IF_ICMPNE | op::IF_ACMPNE | op::IFNONNULL => Relation::Ne,
            op::IFLT | op::IF_ICMPLT => Relation::Lt,
            op::IFGE | op::IF_ICMPGE => Relation::Ge,
            op::IFGT | op::IF_ICMPGT => Relation::Gt,
            op::IFLE | op::IF_ICMPLE => Relation::Le,
            _ => return None,
        })
    }

    /// The relation that holds exactly when this one does not.
    pub fn negate(self) -> Relation {
        match self {
            Relation::Eq => Relation::Ne,
            Relation::Ne => Relation::Eq,
            Relation::Lt => Relation::Ge,
            Relation::Ge => Relation::Lt,
            Relation::Gt => Relation::Le,
            Relation::Le => Relation::Gt,
        }
    }
}

/// One branch record read back from the tracer.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BranchRecord {
    /// Executions of the jump.
    pub hits: u32,
    /// Executions with `a < b`.
    pub lt: u32,
    /// Executions with `a == b` (same object, null for null checks).
    pub eq: u32,
    /// Executions with `a > b` (different objects, non-null for null checks).
    pub gt: u32,
    /// Min of `a - b` (infinite when only NaN operands were seen).
    pub min_diff: f64,
    /// Max of `a - b` (infinite when only NaN operands were seen).
    pub max_diff: f64,
    /// Min of `|a - b|` (infinite when only NaN operands were seen).
    pub min_abs: f64,
}

/// Distance used for a side not taken when no finite operand difference
/// was recorded (NaN operands): "one step away".
const UNKNOWN_DISTANCE: f64 = 1.0;

impl BranchRecord {
    /// Whether the side `side` (true = jump taken) of a jump testing `rel`
    /// was taken at least once.
    pub fn taken(&self, rel: Relation, side: bool) -> bool {
        let rel = if side { rel } else { rel.negate() };
        let n = match rel {
            Relation::Eq => self.eq,
            Relation::Ne => self.lt + self.gt,
            Relation::Lt => self.lt,
            Relation::Ge => self.eq + self.gt,
            Relation::Gt => self.gt,
            Relation::Le => self.lt + self.eq,
        };
        n > 0
    }

    /// Branch distance (≥ 0, 0 iff taken) of side `side` of a jump
    /// testing `rel`, over all recorded executions. A record with no
    /// finite difference (only NaN operands, or `hits == 0`) gives 1.0 for
    /// a side not taken; callers treat a jump never reached through the
    /// approach level, not through this record.
    pub fn distance(&self, rel: Relation, side: bool) -> f64 {
        if self.taken(rel, side) {
            return 0.0;
        }
        let rel = if side { rel } else { rel.negate() };
        let d = match rel {
            Relation::Eq => self.min_abs,
            Relation::Ne => 1.0,
            Relation::Lt => self.min_diff + 1.0,
            Relation::Le => self.min_diff,
            Relation::Gt => -self.max_diff + 1.0,
            Relation::Ge => -self.max_diff,
        };
        if d.is_finite() && d > 0.0 { d } else { UNKNOWN_DISTANCE }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(pairs: &[(f64, f64)]) -> BranchRecord {
        let mut r = BranchRecord {
            hits: 0,
            lt: 0,
            eq: 0,
            gt: 0,
            min_diff: f64::INFINITY,
            max_diff: f64::NEG_INFINITY,
            min_abs: f64::INFINITY,
        };
        for (a, b) in pairs {
            r.hits += 1;
            match a.partial_cmp(b) {
                Some(std::cmp::Ordering::Less) => r.lt += 1,
                Some(std::cmp::Ordering::Equal) => r.eq += 1,
                _ => r.gt += 1,
            }
            r.min_diff = r.min_diff.min(a - b);
            r.max_diff = r.max_diff.max(a - b);
            r.min_abs = r.min_abs.min((a - b).abs());
        }
        r
    }

    #[test]
    fn distances_follow_the_evosuite_formulas() {
        // if_icmpge with a = 3, b = 7: the jump (a >= b) is not taken.
        let r = record(&[(3.0, 7.0)]);
        assert_eq!(r.distance(Relation::Ge, true), 4.0);
        assert_eq!(r.distance(Relation::Ge, false), 0.0);
        // a < b needs a - b + 1 when a = 7, b = 3.
        let r = record(&[(7.0, 3.0), (5.0, 3.0)]);
        assert_eq!(r.distance(Relation::Lt, true), 3.0);
        assert_eq!(r.distance(Relation::Le, true), 2.0);
        assert_eq!(r.distance(Relation::Eq, true), 2.0);
        assert_eq!(r.distance(Relation::Ne, true), 0.0);
        assert_eq!(record(&[(4.0, 4.0)]).distance(Relation::Ne, true), 1.0);
        assert_eq!(record(&[(1.0, 4.0)]).distance(Relation::Gt, true), 4.0);
    }

    #[test]
    fn both_sides_taken_over_several_executions_give_zero() {
        let r = record(&[(3.0, 7.0), (9.0, 7.0)]);
        for rel in [Relation::Lt, Relation::Ge, Relation::Gt, Relation::Le] {
            assert_eq!((r.distance(rel, true), r.distance(rel, false)), (0.0, 0.0), "{rel:?}");
        }
    }

    #[test]
    fn a_clamped_infinite_difference_is_far_not_near() {
        // x < 0.0 with x = +Infinity: the tracer records a - b clamped to f64::MAX.
        let far = record(&[(f64::MAX, 0.0)]);
        let near = record(&[(5.0, 0.0)]);
        assert!(far.distance(Relation::Lt, true) > near.distance(Relation::Lt, true));
    }

    #[test]
    fn an_untaken_side_never_has_distance_zero() {
        let mut r = record(&[]);
        r.hits = 1;
        r.lt = 1; // e.g. fcmpl on NaN: no finite difference recorded
        assert_eq!(r.distance(Relation::Ge, true), UNKNOWN_DISTANCE);
    }
}
