//! A range given by index parameters that is out of (or within) bounds:
//! "if the sub-range is out of bounds" for `checkFromToIndex(fromIndex,
//! toIndex, length)`, "the defined subarray is not wholly within `in`" for
//! `BigDecimal(char[] in, int offset, int len)`. The parameters' roles
//! (start, end, size, index, the bound) come from their names and types.

use super::entity::{MethodContext, simple_type};
use super::predicate::{Ask, Derived};
use crate::cond::{CmpOp, Cond, Expr};
use crate::graph::TriggerKind;

const STARTS: &[&str] = &["fromIndex", "from", "beginIndex", "begin", "start", "startIndex", "off", "offset"];
const ENDS: &[&str] = &["toIndex", "to", "endIndex", "end"];
const SIZES: &[&str] = &["size", "len", "length", "count"];

/// The first integer parameter with one of `names`, other than `not`.
fn int_param(ctx: &MethodContext, names: &[&str], not: Option<&str>) -> Option<Expr> {
    (0..ctx.params.len())
        .find(|&k| {
            names.contains(&ctx.params[k].as_str())
                && matches!(ctx.param_types[k].as_str(), "int" | "long")
                && Some(ctx.params[k].as_str()) != not
        })
        .map(|k| Expr::Param(ctx.params[k].clone()))
}

/// The bound of the range: the length of the one array or string
/// parameter, else an integer parameter `length`.
fn bound(ctx: &MethodContext, size: Option<&Expr>) -> Option<Expr> {
    let containers: Vec<usize> = (0..ctx.params.len())
        .filter(|&k| {
            let t = &ctx.param_types[k];
            t.ends_with("[]") || matches!(simple_type(t), "String" | "CharSequence")
        })
        .collect();
    if let [k] = containers.as_slice() {
        let p = Expr::Param(ctx.params[*k].clone());
        return Some(if ctx.param_types[*k].ends_with("[]") {
            Expr::Field { target: Box::new(p), name: "length".into() }
        } else {
            Expr::call0(p, "length")
        });
    }
    let length = int_param(ctx, &["length"], None)?;
    (Some(&length) != size).then_some(length)
}

/// The condition that the range of the parameters is out of bounds.
fn out_of_bounds(ctx: &MethodContext) -> Option<Cond> {
    let lt = |a: Expr, b: Expr| Cond::cmp(a, CmpOp::Lt, b);
    let gt = |a: Expr, b: Expr| Cond::cmp(a, CmpOp::Gt, b);
    if let Some(start) = int_param(ctx, STARTS, None) {
        if let Some(end) = int_param(ctx, ENDS, None) {
            let upper = bound(ctx, None)?;
            return Some(Cond::Or(vec![lt(start.clone(), Expr::Int(0)), gt(start, end.clone()), gt(end, upper)]));
        }
        let Expr::Param(s) = &start else { return None };
        let size = int_param(ctx, SIZES, Some(s))?;
        let upper = bound(ctx, Some(&size))?;
        let sum = Expr::Arith { op: '+', left: Box::new(start.clone()), right: Box::new(size.clone()) };
        return Some(Cond::Or(vec![lt(start, Expr::Int(0)), lt(size, Expr::Int(0)), gt(sum, upper)]));
    }
    let index = int_param(ctx, &["index"], None)?;
    let upper = bound(ctx, None)?;
    Some(Cond::Or(vec![lt(index.clone(), Expr::Int(0)), Cond::cmp(index, CmpOp::Ge, upper)]))
}

/// "the sub-range is out of bounds", "the array range is out of bounds",
/// "the `index` is out of bounds", "the defined subarray is not wholly
/// within `in`", "the sub-range within bounds of the range" (T2).
pub(super) fn range_bounds(ask: &Ask) -> Option<Derived> {
    let lower = &ask.lower;
    // A part without a verb ("the sub-range within bounds of the range") is
    // its own subject.
    let subject = match ask.part.len() - ask.predicate.len() {
        0 => ask.part,
        n => &ask.part[..n],
    };
    // The range is the subject ("the sub-range", "the `index`", "it").
    let range = subject.iter().any(|t| {
        let w = t.text.to_ascii_lowercase();
        ["range", "sub-range", "subrange", "subarray", "sub-array", "index", "it"].contains(&w.as_str())
    });
    let at = |w: &str| lower.iter().position(|x| x == w);
    let out = at("out").is_some_and(|o| lower.get(o + 2).is_some_and(|b| b == "bounds"));
    // "within bounds", "(wholly) within `in`".
    let within = at("within").is_some_and(|k| ask.predicate.get(k + 1).is_some_and(|n| n.code || n.is("bounds")));
    if !range || !(out || within) {
        return None;
    }
    let out = out_of_bounds(ask.ctx)?;
    let inside = within != ask.negated;
    let condition = match out {
        // De Morgan: within bounds is every bound kept.
        Cond::Or(parts) if inside => Cond::And(parts.into_iter().map(Cond::negated).collect()),
        out => out,
    };
    Some(Derived { kind: TriggerKind::Range, condition, links: Vec::new() })
}

#[cfg(test)]
mod tests {
    use super::super::testctx::{Owned, shown, throws_triggers};

    #[test]
    fn a_range_of_index_parameters_out_of_bounds() {
        let from_to = Owned::new(
            "Objects",
            "checkFromToIndex",
            &[("int", "fromIndex"), ("int", "toIndex"), ("int", "length")],
            vec![],
        );
        let t = throws_triggers(&from_to, "if the sub-range is out of bounds");
        assert_eq!(shown(&t)[0], ("T2".into(), "fromIndex < 0 || fromIndex > toIndex || toIndex > length".into()));
        let big = Owned::new("BigDecimal", "<init>", &[("char[]", "in"), ("int", "offset"), ("int", "len")], vec![]);
        let t = throws_triggers(&big, "if the defined subarray is not wholly within `in`");
        assert_eq!(shown(&t)[0].1, "offset < 0 || len < 0 || offset + len > in.length");
        let index = Owned::new("Objects", "checkIndex", &[("int", "index"), ("int", "length")], vec![]);
        let t = throws_triggers(&index, "if it is within bounds of the range");
        assert_eq!(shown(&t)[0].1, "index >= 0 && index < length");
        let t = throws_triggers(&from_to, "if the sub-range within bounds of the range");
        assert_eq!(shown(&t)[0].1, "fromIndex >= 0 && fromIndex <= toIndex && toIndex <= length");
    }
}
