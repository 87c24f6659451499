//! A trigger condition as the call-condition probe measures it at run time
//! (`instrument::probes::call_condition`): the documented method's
//! parameters become the call's operands, `this` its receiver, `length()`,
//! `size()` and `.length` a length, a query method of the receiver
//! (`hasNext()`, `isEmpty()`, ...) its recorded result (T3), and negations
//! are pushed down to the comparisons. What has no run-time value (a string,
//! an unknown name, a call with arguments) makes its comparison unknown
//! (distance 1), so such a goal is covered only when the call throws.

use instrument::probes::call_condition::{CallCondition, SiteValue, StateQuery};
use instrument::trace::Relation;
use kat::{CmpOp, Cond, Expr};

use crate::formula::NAMED_CONSTANTS;

/// The probe condition of `c`, a trigger of a method with parameters
/// `params` (source names) called with a receiver or not.
pub fn call_condition(c: &Cond, params: &[String], has_receiver: bool) -> CallCondition {
    Converter { params, has_receiver }.cond(c, false)
}

struct Converter<'a> {
    params: &'a [String],
    has_receiver: bool,
}

impl Converter<'_> {
    /// `c`, or its negation when `negated`.
    fn cond(&self, c: &Cond, negated: bool) -> CallCondition {
        match c {
            Cond::Cmp { left, op, right } => {
                let op = if negated { op.negate() } else { *op };
                match (self.value(left), self.value(right)) {
                    (Some(l), Some(r)) => CallCondition::Cmp(l, rel(op), r),
                    _ => CallCondition::Unknown,
                }
            }
            Cond::Truth(e) => match self.value(e) {
                Some(v) => {
                    CallCondition::Cmp(v, if negated { Relation::Eq } else { Relation::Ne }, SiteValue::Const(0))
                }
                None => CallCondition::Unknown,
            },
            Cond::Not(inner) => self.cond(inner, !negated),
            Cond::And(parts) | Cond::Or(parts) => {
                let parts = parts.iter().map(|p| self.cond(p, negated)).collect();
                // De Morgan: a negated conjunction is a disjunction of negations.
                if matches!(c, Cond::And(_)) != negated { CallCondition::And(parts) } else { CallCondition::Or(parts) }
            }
            Cond::InstanceOf { .. } | Cond::Unknown => CallCondition::Unknown,
        }
    }

    fn operand(&self, e: &Expr) -> Option<u8> {
        let offset = u8::from(self.has_receiver);
        match e {
            Expr::This if self.has_receiver => Some(0),
            Expr::Param(name) => {
                let k = self.params.iter().position(|p| p == name)?;
                u8::try_from(k).ok()?.checked_add(offset)
            }
            _ => None,
        }
    }

    fn value(&self, e: &Expr) -> Option<SiteValue> {
        Some(match e {
            Expr::Param(_) | Expr::This => SiteValue::Operand(self.operand(e)?),
            Expr::Null => SiteValue::Const(0),
            Expr::Int(v) => SiteValue::Const(*v),
            Expr::Bool(b) => SiteValue::Const(i64::from(*b)),
            Expr::Call { target, name, args } if args.is_empty() => {
                let k = self.operand(target)?;
                match name.as_str() {
                    "length" | "size" => SiteValue::Length(k),
                    other => SiteValue::State(k, StateQuery::named(other)?),
                }
            }
            Expr::Field { target, name } if name == "length" => SiteValue::Length(self.operand(target)?),
            // Probes evaluate sums and differences only.
            Expr::Arith { op, left, right } if matches!(op, '+' | '-') => {
                SiteValue::Arith(*op, Box::new(self.value(left)?), Box::new(self.value(right)?))
            }
            Expr::Name(name) => SiteValue::Const(NAMED_CONSTANTS.iter().find(|(n, _)| n == name)?.1),
            Expr::Call { .. } | Expr::Field { .. } | Expr::Arith { .. } | Expr::Str(_) => return None,
        })
    }
}

fn rel(op: CmpOp) -> Relation {
    match op {
        CmpOp::Lt => Relation::Lt,
        CmpOp::Le => Relation::Le,
        CmpOp::Gt => Relation::Gt,
        CmpOp::Ge => Relation::Ge,
        CmpOp::Eq => Relation::Eq,
        CmpOp::Ne => Relation::Ne,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, _params: &[&str]) -> Cond {
        Cond::parse(text).expect("a condition")
    }

    #[test]
    fn parameters_become_operands_after_the_receiver() {
        let params = vec!["index".to_string()];
        let c = call_condition(&parse("index >= this.length()", &["index"]), &params, true);
        assert_eq!(c, CallCondition::Cmp(SiteValue::Operand(1), Relation::Ge, SiteValue::Length(0)));
    }

    #[test]
    fn negations_reach_the_comparisons_and_swap_and_with_or() {
        let params = vec!["a".to_string(), "b".to_string()];
        let c = call_condition(&parse("!(a < 0 && b == null)", &["a", "b"]), &params, false);
        assert_eq!(
            c,
            CallCondition::Or(vec![
                CallCondition::Cmp(SiteValue::Operand(0), Relation::Ge, SiteValue::Const(0)),
                CallCondition::Cmp(SiteValue::Operand(1), Relation::Ne, SiteValue::Const(0)),
            ])
        );
    }

    #[test]
    fn state_queries_and_unknown_values() {
        let c = call_condition(&parse("!this.hasNext()", &[]), &[], true);
        assert_eq!(c, CallCondition::Cmp(SiteValue::State(0, StateQuery::HasNext), Relation::Eq, SiteValue::Const(0)));
        let c = call_condition(&parse("this.matches(s)", &["s"]), &["s".to_string()], true);
        assert_eq!(c, CallCondition::Unknown);
    }
}
