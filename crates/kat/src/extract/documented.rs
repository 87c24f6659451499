//! Ranges that a parameter's `@param` text states: "the day-of-week to
//! represent, from 1 (Monday) to 7 (Sunday)", "must be non-negative and
//! no larger than `dst.length - offset`", "either `LONG` or `SHORT`". Where
//! a clause says that the parameter "is invalid" (naming it by its code
//! name or by the noun its `@param` text starts with) or that "the
//! preconditions on" it "do not hold", its condition is that range
//! violated (T2).

use super::entity::MethodContext;
use super::predicate::{Ask, Derived, is_numeric};
use super::sentence::{Token, first_sentence, tokens, verb_index};
use crate::cond::{CmpOp, Cond, Expr};
use crate::graph::TriggerKind;

/// Words in front of a noun that do not belong to it.
const DETERMINERS: &[&str] = &["the", "a", "an", "this", "specified", "given"];

/// "`style` is invalid", "the day-of-week is invalid", "the preconditions
/// on the `offset` and `length` parameters do not hold": the violation of
/// the documented ranges (T2).
pub(super) fn documented_range(ask: &Ask) -> Option<Derived> {
    let condition = preconditions(ask).or_else(|| invalid(ask))?;
    Some(Derived { kind: TriggerKind::Range, condition, links: Vec::new() })
}

/// "the preconditions on `a` (and `b`) do not hold": any of the named
/// parameters out of its documented range; `None` unless every one of
/// them has one.
fn preconditions(ask: &Ask) -> Option<Cond> {
    let (ctx, part) = (ask.ctx, ask.part);
    let at = part.windows(2).position(|w| w[0].is("preconditions") && w[1].is("on"))?;
    let verb = verb_index(part).filter(|&v| v > at)?;
    let held = part[verb..].iter().any(|t| t.is("hold"));
    let named: Vec<usize> = part[at + 2..verb]
        .iter()
        .filter(|t| t.code)
        .map(|t| ctx.params.iter().position(|p| *p == t.text))
        .collect::<Option<_>>()?;
    if !held || !ask.negated || named.is_empty() {
        return None;
    }
    let violations = named.into_iter().map(|k| violation(ctx, k)).collect::<Option<Vec<Cond>>>()?;
    Some(Cond::join(violations, false))
}

/// "`style` is invalid", "the nano-of-second is not valid", "`hour` is
/// out of range": the subject
/// names a numeric parameter by its code name or by the noun its `@param`
/// text starts with ("the day-of-week to represent, ..."), and the
/// predicate says no more than that it is (not) valid.
fn invalid(ask: &Ask) -> Option<Cond> {
    let (ctx, subj, _, lower, negated) = ask.parts();
    let Some(Expr::Param(p)) = subj else { return None };
    let k = ctx.params.iter().position(|q| q == p)?;
    let words: Vec<&str> = lower.iter().map(String::as_str).collect();
    let says_invalid = match words.as_slice() {
        ["is" | "are", "invalid"] => !negated,
        ["is" | "are", "not", "valid"] => negated,
        // "the value of any field is out of range" (one part per field).
        ["is" | "are", "out", "of", "range" | "bounds"] | ["is" | "are", "outside", "the", "valid", "range"] => {
            !negated
        }
        _ => false,
    };
    let subject = &ask.part[..ask.part.len() - ask.predicate.len()];
    if !says_invalid || !names_parameter(subject, p, &ctx.param_docs[k]) {
        return None;
    }
    violation(ctx, k)
}

/// Whether a subject names parameter `p`: its code name, or the words its
/// `@param` text starts with.
fn names_parameter(subject: &[Token], p: &str, doc: &str) -> bool {
    let content = |t: &[Token]| -> Vec<String> {
        t.iter().filter(|w| !DETERMINERS.iter().any(|d| w.is(d))).map(|w| w.text.to_ascii_lowercase()).collect()
    };
    let said = content(subject);
    let documented = content(&tokens(doc));
    match said.as_slice() {
        [] => false,
        [one] if subject.iter().any(|t| t.code) => *one == p.to_ascii_lowercase(),
        _ => documented.starts_with(&said),
    }
}

/// The violation of the range parameter `k`'s `@param` text states, for
/// a numeric parameter.
pub(super) fn violation(ctx: &MethodContext, k: usize) -> Option<Cond> {
    let p = Expr::Param(ctx.params[k].clone());
    if !is_numeric(ctx, &p) {
        return None;
    }
    let toks = tokens(ctx.param_docs.get(k)?);
    let sentence = first_sentence(&toks);
    from_to(sentence, &p).or_else(|| non_negative(ctx, sentence, &p)).or_else(|| listed(ctx, sentence, &p))
}

/// "from 1 (Monday) to 7 (Sunday)", "validated from 0 to 999,999,999":
/// `p < 1 || p > 7`.
fn from_to(sentence: &[Token], p: &Expr) -> Option<Cond> {
    let at = sentence.iter().position(|t| t.is("from"))?;
    let (lo, after) = number(sentence, at + 1)?;
    let to = skip_parenthesis(sentence, after);
    if !sentence.get(to)?.is("to") {
        return None;
    }
    let (hi, _) = number(sentence, to + 1)?;
    let below = Cond::cmp(p.clone(), CmpOp::Lt, Expr::Int(lo));
    Some(Cond::Or(vec![below, Cond::cmp(p.clone(), CmpOp::Gt, Expr::Int(hi))]))
}

/// An integer written at `i` ("-1", "999,999,999") and the index after it.
fn number(t: &[Token], i: usize) -> Option<(i64, usize)> {
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    let first = &t.get(i)?.text;
    let mut n: i64 = first.parse().ok()?;
    let mut end = i + 1;
    // Thousands separated by commas: "999 , 999 , 999" as tokens.
    while end + 1 < t.len() && t[end].is(",") && t[end + 1].text.len() == 3 && digits(&t[end + 1].text) {
        n = n.checked_mul(1000)?.checked_add(t[end + 1].text.parse::<i64>().ok()?)?;
        end += 2;
    }
    Some((n, end))
}

/// The index after a parenthesis that starts at `i` ("(Monday)"), else `i`.
fn skip_parenthesis(t: &[Token], i: usize) -> usize {
    if !t.get(i).is_some_and(|x| x.is("(")) {
        return i;
    }
    t[i..].iter().position(|x| x.is(")")).map_or(i, |c| i + c + 1)
}

/// "must be non-negative and no larger than `array.length`", "must be
/// non-negative and less than `limit()`", "must be non-negative": `p < 0`,
/// or above the bound.
fn non_negative(ctx: &MethodContext, sentence: &[Token], p: &Expr) -> Option<Cond> {
    let at = sentence.iter().position(|t| t.is("non-negative") || t.is("nonnegative"))?;
    let negative = Cond::cmp(p.clone(), CmpOp::Lt, Expr::Int(0));
    let rest = &sentence[at + 1..];
    if !rest.first().is_some_and(|t| t.is("and")) {
        return rest.is_empty().then_some(negative);
    }
    let lower: Vec<String> = rest[1..].iter().map(|t| t.text.to_ascii_lowercase()).collect();
    let (op, len) = match lower.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["no" | "not", "larger" | "greater", "than", ..] => (CmpOp::Gt, 3),
        ["less" | "smaller", "than", ..] => (CmpOp::Ge, 2),
        _ => return None,
    };
    let bound = bound(ctx, &rest[1 + len..])?;
    Some(Cond::Or(vec![negative, Cond::cmp(p.clone(), op, bound)]))
}

/// The bound after "no larger than": one code span (`dst.length - offset`)
/// or a value of the receiver ("the current limit"); not a choice ("the
/// smaller of ...").
fn bound(ctx: &MethodContext, t: &[Token]) -> Option<Expr> {
    let end = t.iter().position(|x| x.is(",") || x.is(";") || x.is(".")).unwrap_or(t.len());
    let t = &t[..end];
    if t.iter().any(|x| x.is("of") || x.is("and") || x.is("or")) {
        return None;
    }
    let e = match t {
        [code] if code.code => Expr::parse_code(&code.text, ctx.params)?,
        _ => ctx.noun_phrase(t).map(|(e, _)| e).filter(|e| matches!(e, Expr::Call { .. }))?,
    };
    is_numeric(ctx, &e).then_some(e)
}

/// "either `LONG` or `SHORT`", "one of `A`, `B` or `C`": constants of the
/// documented class, none of which the value is.
fn listed(ctx: &MethodContext, sentence: &[Token], p: &Expr) -> Option<Cond> {
    let at = sentence
        .iter()
        .position(|t| t.is("either"))
        .or_else(|| sentence.windows(2).position(|w| w[0].is("one") && w[1].is("of")).map(|k| k + 1))?;
    let constant = |t: &Token| {
        let caps = t.text.len() > 1 && t.text.chars().all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit());
        let owner = Box::new(Expr::Name(ctx.class_simple.to_string()));
        (t.code && caps).then(|| Expr::Field { target: owner, name: t.text.clone() })
    };
    let listed = &sentence[at + 1..];
    let separators = |t: &Token| t.code || t.is("or") || t.is(",");
    if !listed.iter().all(separators) {
        return None;
    }
    let values: Vec<Expr> = listed.iter().filter_map(constant).collect();
    if values.len() < 2 || values.len() != listed.iter().filter(|t| t.code).count() {
        return None;
    }
    Some(Cond::And(values.into_iter().map(|v| Cond::cmp(p.clone(), CmpOp::Ne, v)).collect()))
}

#[cfg(test)]
mod tests {
    use super::super::testctx::{Owned, method, shown, throws_triggers};

    fn documented(class: &str, params: &[(&str, &str)], docs: &[&str]) -> Owned {
        let mut m = Owned::new(class, "m", params, vec![method("limit", &[], "int")]);
        m.param_docs = docs.iter().map(|d| d.to_string()).collect();
        m
    }

    #[test]
    fn an_invalid_parameter_is_outside_its_documented_range() {
        let day = documented(
            "DayOfWeek",
            &[("int", "dayOfWeek")],
            &["the day-of-week to represent, from 1 (Monday) to 7 (Sunday)"],
        );
        let t = throws_triggers(&day, "if the day-of-week is invalid");
        assert_eq!(shown(&t), [("T2".to_string(), "dayOfWeek < 1 || dayOfWeek > 7".to_string())]);
        let nano = documented(
            "Duration",
            &[("int", "nanoOfSecond")],
            &["the nano-of-second to represent, from 0 to 999,999,999"],
        );
        let t = throws_triggers(&nano, "if the nano-of-second is invalid");
        assert_eq!(shown(&t)[0].1, "nanoOfSecond < 0 || nanoOfSecond > 999999999");
        let second = documented(
            "LocalDateTime",
            &[("int", "second")],
            &["the second-of-minute to set in the result, from 0 to 59"],
        );
        assert_eq!(shown(&throws_triggers(&second, "if the second value is invalid"))[0].1, "?");
        let zone =
            documented("TimeZone", &[("boolean", "daylight"), ("int", "style")], &["", "either `LONG` or `SHORT`"]);
        let t = throws_triggers(&zone, "if `style` is invalid");
        assert_eq!(shown(&t), [("T2".to_string(), "style != TimeZone.LONG && style != TimeZone.SHORT".to_string())]);
    }

    #[test]
    fn preconditions_that_do_not_hold_are_the_documented_bounds() {
        let get = documented(
            "CharBuffer",
            &[("char[]", "dst"), ("int", "offset"), ("int", "length")],
            &[
                "The array into which characters are to be written",
                "The offset within the array of the first character to be written; must be non-negative and no larger than `dst.length`",
                "The maximum number of characters to be written to the given array; must be non-negative and no larger than `dst.length - offset`",
            ],
        );
        let t = throws_triggers(&get, "If the preconditions on the `offset` and `length` parameters do not hold");
        assert_eq!(
            shown(&t),
            [(
                "T2".to_string(),
                "offset < 0 || offset > dst.length || length < 0 || length > dst.length - offset".to_string()
            )]
        );
        let position = documented(
            "Buffer",
            &[("int", "newPosition")],
            &["The new position value; must be non-negative and no larger than the current limit"],
        );
        let t = throws_triggers(&position, "If the preconditions on `newPosition` do not hold");
        assert_eq!(shown(&t)[0].1, "newPosition < 0 || newPosition > this.limit()");
        let choice = documented(
            "ShortBuffer",
            &[("short[]", "src"), ("int", "offset")],
            &["", "must be non-negative and no larger than the smaller of `src.length` and `limit()`"],
        );
        let t = throws_triggers(&choice, "If the preconditions on the `offset` parameter do not hold");
        assert_eq!(shown(&t), [("T2".to_string(), "?".to_string())]);
    }

    #[test]
    fn a_field_out_of_range_is_outside_its_documented_range() {
        let time = documented(
            "LocalTime",
            &[("int", "hour"), ("int", "minute")],
            &["the hour-of-day to represent, from 0 to 23", "the minute-of-hour to represent, from 0 to 59"],
        );
        let conds: Vec<String> = shown(&throws_triggers(&time, "if the value of any field is out of range"))
            .into_iter()
            .map(|(_, c)| c)
            .collect();
        assert_eq!(conds, ["hour < 0 || hour > 23", "minute < 0 || minute > 59"]);
    }
}
