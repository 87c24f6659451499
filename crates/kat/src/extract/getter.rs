//! Properties of the receiver named by a noun: "the rounding mode" is what
//! `getRoundingMode()` reports, so "with rounding mode being set to
//! `RoundingMode.UNNECESSARY`" is `this.getRoundingMode() ==
//! RoundingMode.UNNECESSARY` (T3, a state set by an earlier call); "a
//! version 1 UUID" is one whose `version()` is 1.

use super::predicate::{Ask, Derived};
use super::sentence::Token;
use super::words::words;
use crate::cond::{CmpOp, Cond, Expr};
use crate::graph::{Entity, Link, TriggerKind};

/// The receiver's getter a noun phrase names (`getRoundingMode` for
/// "rounding mode", `getCount` or `count` for "the count"), when it
/// exists and takes no argument.
pub(super) fn receiver_getter(ask: &Ask, noun: &[Token]) -> Option<String> {
    let ctx = ask.ctx;
    let content: Vec<String> = noun
        .iter()
        .filter(|t| !["the", "a", "an", "this", "its", "current"].iter().any(|d| t.is(d)))
        .flat_map(|t| words(&t.text))
        .collect();
    if ctx.is_static || content.is_empty() {
        return None;
    }
    let camel: String = content.iter().map(|w| capitalised(w)).collect();
    let bare = format!("{}{}", content[0], content[1..].iter().map(|w| capitalised(w)).collect::<String>());
    [format!("get{camel}"), bare].into_iter().find(|n| ctx.receiver_has(n))
}

fn capitalised(w: &str) -> String {
    let mut c = w.chars();
    c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
}

/// "rounding is needed with rounding mode being set to
/// `RoundingMode.UNNECESSARY`", "the rounding mode is set to `HALF_UP`":
/// the receiver's getter of the noun before "(being) set to" equals the
/// constant after it; a clause before "with" adds an unknown conjunct.
pub(super) fn set_to(ask: &Ask) -> Option<Derived> {
    let part = ask.part;
    let at = part.windows(2).position(|w| w[0].is("set") && w[1].is("to"))?;
    let constant = part.get(at + 2).filter(|_| at + 3 == part.len())?;
    let value = Expr::parse_code(&constant.text, ask.ctx.params).filter(|e| matches!(e, Expr::Field { .. }))?;
    let be = at.checked_sub(1).filter(|&b| ["being", "is", "was", "been"].iter().any(|w| part[b].is(w)))?;
    let with = part[..be].iter().rposition(|t| t.is("with"));
    let noun = &part[with.map_or(0, |w| w + 1)..be];
    let getter = receiver_getter(ask, noun)?;
    let negated = part[..be].iter().any(|t| t.is("not"));
    let op = if negated { CmpOp::Ne } else { CmpOp::Eq };
    let setting = Cond::cmp(Expr::call0(Expr::This, &getter), op, value);
    let condition = if with.is_some() { Cond::join(vec![Cond::Unknown, setting], true) } else { setting };
    let link = Link {
        mention: super::sentence::join(noun),
        entity: Entity::Method { class: None, name: getter },
        confidence: 0.8,
    };
    Some(Derived { kind: TriggerKind::CallDependency, condition, links: vec![link] })
}

/// "this UUID is not a version 1 UUID": the receiver's numeric property
/// named by the word before the number (`version()` or `getVersion()`)
/// equals that number (`this.version() != 1`), T3.
pub(super) fn numbered_kind(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, predicate, _, negated) = ask.parts();
    let rest: Vec<&Token> = predicate.iter().filter(|t| !t.is("not")).collect();
    let [copula, article, word, number, noun] = rest.as_slice() else { return None };
    let n: i64 = number.text.parse().ok()?;
    let shape = copula.is("is") && (article.is("a") || article.is("an")) && !word.code && !noun.code;
    if subj != Some(&Expr::This) || !shape {
        return None;
    }
    let getter = receiver_getter(ask, std::slice::from_ref(*word))?;
    let numeric = ctx.receiver_methods.iter().any(|m| m.name == getter && matches!(m.returns.as_str(), "int" | "long"));
    if !numeric {
        return None;
    }
    let op = if negated { CmpOp::Ne } else { CmpOp::Eq };
    let condition = Cond::cmp(Expr::call0(Expr::This, &getter), op, Expr::Int(n));
    let link =
        Link { mention: word.text.clone(), entity: Entity::Method { class: None, name: getter }, confidence: 0.8 };
    Some(Derived { kind: TriggerKind::CallDependency, condition, links: vec![link] })
}

#[cfg(test)]
mod tests {
    use super::super::testctx::{Owned, method, shown, throws_triggers};

    #[test]
    fn a_numbered_kind_of_the_receiver_is_its_numeric_property() {
        let uuid = Owned::new("UUID", "timestamp", &[], vec![method("version", &[], "int")]);
        let t = throws_triggers(&uuid, "If this UUID is not a version 1 UUID");
        assert_eq!(shown(&t), [("T3".to_string(), "this.version() != 1".to_string())]);
    }

    #[test]
    fn a_property_set_to_a_constant_is_its_getter() {
        let format = Owned::new(
            "NumberFormat",
            "format",
            &[("long", "number")],
            vec![method("getRoundingMode", &[], "java.math.RoundingMode")],
        );
        let t =
            throws_triggers(&format, "if rounding is needed with rounding mode being set to RoundingMode.UNNECESSARY");
        assert_eq!(
            shown(&t),
            [("T3".to_string(), "? && this.getRoundingMode() == RoundingMode.UNNECESSARY".to_string())]
        );
    }
}
