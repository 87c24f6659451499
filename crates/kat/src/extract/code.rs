//! Conditions written in a code span of the text: "`index < 0 || index >=
//! size()`". The span is read as written, after mending what the Javadoc
//! around it did to it: an opening parenthesis the span took from the text
//! ("`(mc.getRoundingMode()==RoundingMode.UNNECESSARY`)") and bare names
//! that mean a receiver method (`size` for `size()`) or a constant of the
//! documented class (`FIELD_COUNT` for `Calendar.FIELD_COUNT`).

use super::entity::{MethodContext, simple_type};
use super::sentence::{Token, verb_index};
use crate::cond::{CmpOp, Cond, Expr};
use crate::graph::TriggerKind;

/// The condition of a code span, `None` when it is none.
pub fn code_condition(code: &str, ctx: &MethodContext) -> Option<Cond> {
    let text = code.replace(" or ", " || ").replace(" and ", " && ");
    let text = unopened_paren_dropped(&text);
    Cond::parse_code(&text, ctx.params).or_else(|| Cond::parse_code(&bare_names_resolved(&text, ctx), ctx.params))
}

/// "`(mc.getRoundingMode()==RoundingMode.UNNECESSARY`)": a code span
/// that took the opening parenthesis of the text around it loses it.
fn unopened_paren_dropped(code: &str) -> String {
    let opens = code.matches('(').count();
    let closes = code.matches(')').count();
    match code.strip_prefix('(') {
        Some(rest) if opens > closes => rest.to_string(),
        _ => code.to_string(),
    }
}

/// "if `fromIndex` or `toIndex` is out of range (`fromIndex < 0 ||
/// toIndex > size() || toIndex < fromIndex`)": a condition that ends in
/// a parenthesised code condition naming every code value before it is
/// that one condition, not split at its "or".
pub fn whole_code_condition(cond: &[Token], ctx: &MethodContext) -> bool {
    let [.., open, code, close] = cond else { return false };
    if !(open.is("(") && code.code && close.is(")")) || code_condition(&code.text, ctx).is_none() {
        return false;
    }
    let before = &cond[..cond.len() - 3];
    let named: Vec<&Token> = before.iter().filter(|t| t.code).collect();
    !named.is_empty() && named.iter().all(|t| code_names(&code.text, &t.text))
}

/// The pieces of a part joined to its code condition by "and" that say
/// something of their own (have a verb): "`roundingMode==ROUND_UNNECESSARY`
/// and `this.scale()` is insufficient to represent the result".
pub fn other_conjuncts(part: &[Token]) -> Vec<Vec<Token>> {
    let pieces: Vec<&[Token]> = part.split(|t| t.is("and")).collect();
    if pieces.len() < 2 {
        return Vec::new();
    }
    let condition_piece = |p: &[Token]| p.iter().any(|t| t.code && t.text.contains(['<', '>', '=']));
    pieces.into_iter().filter(|p| !condition_piece(p) && verb_index(p).is_some()).map(<[Token]>::to_vec).collect()
}

/// The type of a code condition: a value compared with a named constant
/// of a class that is no number is a state (a getter's value, T3) or a
/// choice among constants (a parameter's, T4); otherwise
/// [`super::classify`].
pub fn kind_of(cond: &Cond, ctx: &MethodContext) -> TriggerKind {
    if let Cond::Cmp { left, op: CmpOp::Eq | CmpOp::Ne, right } = cond {
        let constant = |e: &Expr| matches!(e, Expr::Field { target, .. } if matches!(**target, Expr::Name(_)));
        let other = if constant(right) {
            Some(left)
        } else if constant(left) {
            Some(right)
        } else {
            None
        };
        match other {
            Some(Expr::Call { .. }) => return TriggerKind::CallDependency,
            Some(p @ Expr::Param(_)) if ctx.type_of(p).is_some_and(|t| t.contains('.')) => return TriggerKind::Other,
            _ => {}
        }
    }
    super::classify(cond)
}

/// The class that owns a bare constant of a code span: the type of the one
/// reference-typed parameter the span names (`roundingMode ==
/// UNNECESSARY` for a `RoundingMode roundingMode`), else the documented
/// class.
fn constant_owner<'c>(code: &str, ctx: &MethodContext<'c>) -> &'c str {
    let named: Vec<usize> = (0..ctx.params.len()).filter(|&k| code_names(code, &ctx.params[k])).collect();
    match named.as_slice() {
        [k] if ctx.param_types[*k].contains('.') && !ctx.param_types[*k].ends_with("String") => {
            simple_type(&ctx.param_types[*k])
        }
        _ => ctx.class_simple,
    }
}

/// Whether `code` holds the identifier `name`.
fn code_names(code: &str, name: &str) -> bool {
    code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).any(|w| w == name)
}

/// Bare identifiers that are no parameter: a zero-argument method of the
/// receiver becomes a call (`size` → `size()`), an upper-case constant a
/// field of the documented class (`FIELD_COUNT` → `Calendar.FIELD_COUNT`).
fn bare_names_resolved(code: &str, ctx: &MethodContext) -> String {
    let chars: Vec<char> = code.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if !(c.is_ascii_alphabetic() || c == '_') {
            out.push(c);
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
            i += 1;
        }
        let name: String = chars[start..i].iter().collect();
        let after = chars[i..].iter().find(|c| !c.is_whitespace());
        let qualified = start > 0 && chars[start - 1] == '.';
        let bare = !qualified && !matches!(after, Some('(' | '.')) && !ctx.params.contains(&name);
        let constant = name.len() > 1 && name.chars().all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit());
        if bare && !ctx.is_static && ctx.receiver_has(&name) {
            out.push_str(&format!("{name}()"));
        } else if bare && constant {
            out.push_str(&format!("{}.{name}", constant_owner(code, ctx)));
        } else {
            out.push_str(&name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::testctx::{Owned, method, shown, throws_triggers};

    #[test]
    fn bare_names_in_code_are_receiver_methods_or_class_constants() {
        let list = Owned::new(
            "AbstractList",
            "subList",
            &[("int", "fromIndex"), ("int", "toIndex")],
            vec![method("size", &[], "int")],
        );
        let t =
            throws_triggers(&list, "if an endpoint index value is out of range `(fromIndex < 0 || toIndex > size)`");
        assert_eq!(shown(&t)[0].1, "fromIndex < 0 || toIndex > this.size()");
        let cal = Owned::new("Calendar", "get", &[("int", "field")], vec![]);
        let t = throws_triggers(&cal, "if the specified field is out of range (`field < 0 || field >= FIELD_COUNT`)");
        assert_eq!(shown(&t)[0].1, "field < 0 || field >= Calendar.FIELD_COUNT");
        let scale = Owned::new(
            "BigDecimal",
            "setScale",
            &[("int", "newScale"), ("java.math.RoundingMode", "roundingMode")],
            vec![],
        );
        let t = throws_triggers(
            &scale,
            "if `roundingMode==UNNECESSARY` and the specified scaling operation would require rounding",
        );
        assert_eq!(shown(&t)[0], ("T4".into(), "roundingMode == RoundingMode.UNNECESSARY".into()));
    }

    #[test]
    fn a_closing_code_condition_over_the_named_values_is_one_trigger() {
        let list = Owned::new(
            "ArrayList",
            "removeRange",
            &[("int", "fromIndex"), ("int", "toIndex")],
            vec![method("size", &[], "int")],
        );
        let t = throws_triggers(
            &list,
            "if `fromIndex` or `toIndex` is out of range (`fromIndex < 0 || toIndex > size() || toIndex < fromIndex`)",
        );
        assert_eq!(
            shown(&t),
            [("T2".to_string(), "fromIndex < 0 || toIndex > this.size() || toIndex < fromIndex".to_string())]
        );
    }

    #[test]
    fn a_code_condition_and_a_clause_of_its_own_are_both_kept() {
        let divide =
            Owned::new("BigDecimal", "divide", &[("java.math.BigDecimal", "divisor"), ("int", "roundingMode")], vec![]);
        let t = throws_triggers(
            &divide,
            "if `divisor==0`, or `roundingMode==ROUND_UNNECESSARY` and `this.scale()` is insufficient to represent the result",
        );
        assert_eq!(shown(&t)[1].1, "roundingMode == BigDecimal.ROUND_UNNECESSARY && ?");
    }
}
