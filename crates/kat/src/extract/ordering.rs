//! Rules about orderings: a sorted collection that "uses natural
//! ordering" has no comparator (`this.comparator() == null`); a boxed
//! number compared with an argument of its own type compares the unboxed
//! values (`this.intValue() < anotherInteger.intValue()`).

use super::entity::simple_type;
use super::predicate::{Ask, Derived, comparative, has_method};
use super::sentence::{Token, verb_index};
use crate::cond::{CmpOp, Cond, Expr};
use crate::graph::{Entity, Link, TriggerKind};

/// "this map uses natural ordering", "the set uses the natural ordering of
/// its elements": `this.comparator() == null` (T3) when the receiver has
/// `comparator()`; negated ("does not use natural ordering") `!= null`.
pub(super) fn natural_ordering(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, _, lower, negated) = ask.parts();
    let natural = lower.windows(2).any(|w| w[0] == "natural" && (w[1] == "ordering" || w[1] == "order"));
    if !natural || ctx.is_static || !matches!(subj, None | Some(Expr::This)) || !ctx.receiver_has("comparator") {
        return None;
    }
    let op = if negated { CmpOp::Ne } else { CmpOp::Eq };
    let condition = Cond::cmp(Expr::call0(Expr::This, "comparator"), op, Expr::Null);
    let entity = Entity::Method { class: None, name: "comparator".into() };
    let link = Link { mention: "natural ordering".into(), entity, confidence: 1.0 };
    Some(Derived { kind: TriggerKind::CallDependency, condition, links: vec![link] })
}

/// The method that unboxes an instance of a boxed primitive class.
fn unboxing(class: &str) -> Option<&'static str> {
    Some(match class {
        "Integer" => "intValue",
        "Long" => "longValue",
        "Short" => "shortValue",
        "Byte" => "byteValue",
        "Float" => "floatValue",
        "Double" => "doubleValue",
        "Character" => "charValue",
        _ => return None,
    })
}

/// "this `Integer` is numerically less than the argument `Integer`" (the
/// `@return` of `compareTo`): `this.intValue() < anotherInteger.intValue()`
/// (T2), the receiver on the left; for other comparable receivers ("this
/// `StringBuffer` is lexicographically less than the `StringBuffer`
/// argument") `this.compareTo(another) < 0` (T2); "the argument
/// `Character` is equal to this `Character`" (equality not said to be
/// numeric): `this.equals(anotherCharacter)` (T3). Sides are the receiver
/// ("this ...") and the one parameter of the receiver's own type ("the
/// argument ...", or its name).
pub(super) fn own_type_comparison(ask: &Ask) -> Option<Derived> {
    let (ctx, _, predicate, lower, negated) = ask.parts();
    if ctx.is_static {
        return None;
    }
    let k = ctx.param_types.iter().position(|t| simple_type(t) == ctx.class_simple && !t.ends_with("[]"))?;
    let (op, rest) = comparative(lower)?;
    let param = Expr::Param(ctx.params[k].clone());
    let side = |toks: &[Token]| {
        if toks.iter().any(|t| t.is("argument") || (t.code && t.text == ctx.params[k])) {
            Some(param.clone())
        } else {
            toks.first().is_some_and(|t| t.is("this")).then_some(Expr::This)
        }
    };
    let left = side(&ask.part[..verb_index(ask.part)?])?;
    let right = side(&predicate[predicate.len() - rest..])?;
    if left == right {
        return None;
    }
    let op = if negated { op.negate() } else { op };
    let op = if left == Expr::This { op } else { op.swap() };
    let numerically = lower.iter().any(|w| w == "numerically");
    let derived = |kind, condition| Some(Derived { kind, condition, links: Vec::new() });
    if matches!(op, CmpOp::Eq | CmpOp::Ne) && !numerically {
        let call = Cond::Truth(Expr::Call { target: Box::new(Expr::This), name: "equals".into(), args: vec![param] });
        return derived(TriggerKind::CallDependency, if op == CmpOp::Ne { call.negated() } else { call });
    }
    if let Some(unbox) = unboxing(ctx.class_simple) {
        return derived(TriggerKind::Range, Cond::cmp(Expr::call0(Expr::This, unbox), op, Expr::call0(param, unbox)));
    }
    if !has_method(ctx, &Expr::This, "compareTo", 1) {
        return None;
    }
    let call = Expr::Call { target: Box::new(Expr::This), name: "compareTo".into(), args: vec![param] };
    derived(TriggerKind::Range, Cond::cmp(call, op, Expr::Int(0)))
}

#[cfg(test)]
mod tests {
    use super::super::testctx::{Owned, method, shown, throws_triggers};

    #[test]
    fn values_of_the_receivers_own_type_compare_by_value() {
        let int = Owned::new("Integer", "compareTo", &[("java.lang.Integer", "anotherInteger")], vec![]);
        let t = throws_triggers(&int, "if this `Integer` is numerically greater than the argument `Integer`");
        assert_eq!(shown(&t)[0], ("T2".into(), "this.intValue() > anotherInteger.intValue()".into()));
        let ch = Owned::new("Character", "compareTo", &[("java.lang.Character", "anotherCharacter")], vec![]);
        let t = throws_triggers(&ch, "if the argument `Character` is equal to this `Character`");
        assert_eq!(shown(&t)[0], ("T3".into(), "this.equals(anotherCharacter)".into()));
        let buf = Owned::new(
            "StringBuffer",
            "compareTo",
            &[("java.lang.StringBuffer", "another")],
            vec![method("compareTo", &["java.lang.StringBuffer"], "int")],
        );
        let t =
            throws_triggers(&buf, "if this `StringBuffer` is lexicographically less than the `StringBuffer` argument");
        assert_eq!(shown(&t)[0], ("T2".into(), "this.compareTo(another) < 0".into()));
    }

    #[test]
    fn natural_ordering_is_a_missing_comparator() {
        let set = Owned::new("TreeSet", "first", &[], vec![method("comparator", &[], "java.util.Comparator")]);
        let t = throws_triggers(&set, "if this set uses natural ordering");
        assert_eq!(shown(&t), [("T3".to_string(), "this.comparator() == null".to_string())]);
        let list = Owned::new("ArrayList", "sort", &[], vec![]);
        assert_eq!(shown(&throws_triggers(&list, "if this list uses natural ordering"))[0].1, "?");
    }
}
