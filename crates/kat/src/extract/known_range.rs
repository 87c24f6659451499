//! Quantities whose valid range a Java developer knows by their name: a
//! port number is `0..=65535`, a radix is `Character.MIN_RADIX..=
//! Character.MAX_RADIX`, a year is `Year.MIN_VALUE..=Year.MAX_VALUE`
//! (where the text speaks of its valid range). A number that must be one
//! of listed values is restricted to them. "if the port is out of range", "if the radix is
//! invalid" give that range (T2) instead of unknown bounds.

use super::predicate::{Ask, Derived, is_numeric};
use crate::cond::{CmpOp, Cond, Expr};
use crate::graph::TriggerKind;

/// The bounds of a quantity named by a parameter (`port`, `localPort`,
/// `radix`).
fn bounds(param: &str) -> Option<(Expr, Expr)> {
    let lower = param.to_ascii_lowercase();
    let radix = |n: &str| Expr::Field { target: Box::new(Expr::Name("Character".into())), name: n.into() };
    if lower.ends_with("port") {
        Some((Expr::Int(0), Expr::Int(65535)))
    } else if lower == "year" || lower == "isoyear" {
        let year = |n: &str| Expr::Field { target: Box::new(Expr::Name("Year".into())), name: n.into() };
        Some((year("MIN_VALUE"), year("MAX_VALUE")))
    } else if lower == "radix" {
        Some((radix("MIN_RADIX"), radix("MAX_RADIX")))
    } else {
        None
    }
}

/// "`port` is out of range", "the port parameter is outside the specified
/// range of valid port values", "the radix is invalid": `p < lo || p >
/// hi` for a numeric parameter with known bounds.
pub(super) fn known_range(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, _, lower, negated) = ask.parts();
    let Some(Expr::Param(p)) = subj.filter(|s| is_numeric(ctx, s)) else { return None };
    let (lo, hi) = bounds(p)?;
    let has = |w: &str| lower.iter().any(|x| x == w);
    // A year's bounds are known where the text says they are defined ("the
    // valid range of years"), not from "out of range" alone.
    let year = p.eq_ignore_ascii_case("year") || p.eq_ignore_ascii_case("isoYear");
    if year && !(has("valid") || has("invalid")) {
        return None;
    }
    let outside = (has("range") && (has("out") || has("outside"))) || (has("invalid") && !negated);
    let not_valid = has("valid") && negated;
    if !(outside || not_valid) {
        return None;
    }
    let s = Expr::Param(p.clone());
    let condition = Cond::Or(vec![Cond::cmp(s.clone(), CmpOp::Lt, lo), Cond::cmp(s, CmpOp::Gt, hi)]);
    Some(Derived { kind: TriggerKind::Range, condition, links: Vec::new() })
}

/// "the new strength value is not one of PRIMARY, SECONDARY, TERTIARY or
/// IDENTICAL", "`signum` is not one of the three legal values (-1, 0, and
/// 1)": a number restricted to listed values (T2), `s != A && s != B ...`
/// (`s == A || ...` when it must be one of them). Capitalised names are
/// constants of the documented class.
pub(super) fn one_of_values(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, predicate, lower, negated) = ask.parts();
    let s = subj.filter(|s| matches!(s, Expr::Param(_)) && is_numeric(ctx, s))?;
    let at = lower.windows(2).position(|w| w[0] == "one" && w[1] == "of")?;
    let constant = |t: &super::sentence::Token| {
        let text = t.text.as_str();
        if let Ok(n) = text.parse::<i64>() {
            return Some(Expr::Int(n));
        }
        let caps = text.len() > 1 && text.chars().all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit());
        let owner = Box::new(Expr::Name(ctx.class_simple.to_string()));
        caps.then(|| Expr::Field { target: owner, name: text.to_string() })
    };
    let values: Vec<Expr> = predicate[at + 2..].iter().filter_map(constant).collect();
    if values.len() < 2 {
        return None;
    }
    let condition = consecutive(s, &values, negated).unwrap_or_else(|| {
        let (op, and) = if negated { (CmpOp::Ne, true) } else { (CmpOp::Eq, false) };
        Cond::join(values.into_iter().map(|v| Cond::cmp(s.clone(), op, v)).collect(), and)
    });
    Some(Derived { kind: TriggerKind::Range, condition, links: Vec::new() })
}

/// "(-1, 0, and 1)": listed integers without a gap are an interval,
/// `s < -1 || s > 1` outside it (`s >= -1 && s <= 1` inside).
fn consecutive(s: &Expr, values: &[Expr], negated: bool) -> Option<Cond> {
    let mut ints: Vec<i64> =
        values.iter().map(|v| if let Expr::Int(n) = v { Some(*n) } else { None }).collect::<Option<_>>()?;
    ints.sort_unstable();
    ints.dedup();
    let (lo, hi) = (*ints.first()?, *ints.last()?);
    if ints.len() != values.len() || hi - lo + 1 != ints.len() as i64 {
        return None;
    }
    let (below, above) =
        (Cond::cmp(s.clone(), CmpOp::Lt, Expr::Int(lo)), Cond::cmp(s.clone(), CmpOp::Gt, Expr::Int(hi)));
    Some(if negated { Cond::Or(vec![below, above]) } else { Cond::And(vec![below.negated(), above.negated()]) })
}

#[cfg(test)]
mod tests {
    use super::super::testctx::{Owned, shown, throws_triggers};

    #[test]
    fn a_number_that_is_not_one_of_the_listed_values() {
        let collator = Owned::new("Collator", "setStrength", &[("int", "newStrength")], vec![]);
        let t = throws_triggers(&collator, "If the new strength value is not one of PRIMARY, SECONDARY or IDENTICAL");
        assert_eq!(
            shown(&t),
            [(
                "T2".to_string(),
                "newStrength != Collator.PRIMARY && newStrength != Collator.SECONDARY && newStrength != Collator.IDENTICAL"
                    .to_string()
            )]
        );
    }

    #[test]
    fn listed_integers_without_a_gap_are_an_interval() {
        let big = Owned::new("BigInteger", "<init>", &[("int", "signum"), ("byte[]", "magnitude")], vec![]);
        let t = throws_triggers(&big, "if `signum` is not one of the three legal values (-1, 0, and 1)");
        assert_eq!(shown(&t)[0].1, "signum < -1 || signum > 1");
    }

    #[test]
    fn ports_and_radixes_have_known_ranges() {
        let socket =
            Owned::new("InetSocketAddress", "<init>", &[("java.lang.String", "hostname"), ("int", "port")], vec![]);
        let t = throws_triggers(&socket, "if the port parameter is outside the range of valid port values");
        assert_eq!(shown(&t), [("T2".to_string(), "port < 0 || port > 65535".to_string())]);
        let scanner = Owned::new("Scanner", "nextInt", &[("int", "radix")], vec![]);
        let t = throws_triggers(&scanner, "if the radix is out of range");
        assert_eq!(shown(&t)[0].1, "radix < Character.MIN_RADIX || radix > Character.MAX_RADIX");
        let month_day = Owned::new("MonthDay", "atYear", &[("int", "year")], vec![]);
        let t = throws_triggers(&month_day, "if the year is outside the valid range of years");
        assert_eq!(shown(&t)[0].1, "year < Year.MIN_VALUE || year > Year.MAX_VALUE");
        assert_eq!(shown(&throws_triggers(&month_day, "if the year is out of range"))[0].1, "?");
    }
}
