//! An item of a container parameter named by a singular noun: "if an
//! element is `null`" documenting `Set.of(E... elements)` is about one of
//! the array's items, not the array (`elements == null` would be wrong).
//! For a collection that is `elements.contains(null)`; an array has no
//! such method, so it is a nullness trigger without a formal form.

use super::entity::{MethodContext, simple_type};
use super::sentence::{Token, join, verb_index};
use super::words::{stem, words};
use crate::cond::{Cond, Expr};
use crate::graph::{Trigger, TriggerKind};

/// Determiners of one indefinite item.
const INDEFINITE: &[&str] = &["an", "a", "any", "some", "each", "every", "one"];

/// Collection types whose `contains(null)` asks for a null item.
const COLLECTIONS: &[&str] = &["Collection", "List", "Set", "Queue", "Deque", "SortedSet", "NavigableSet"];

/// The trigger of "an element is null" when a parameter is a container
/// named by the plural of the noun (`elements`, `tasks`); `None` otherwise.
pub fn item_is_null(part: &[Token], ctx: &MethodContext) -> Option<Trigger> {
    let v = verb_index(part)?;
    let [det, noun] = &part[..v] else { return None };
    if !INDEFINITE.iter().any(|d| det.is(d)) || noun.code || noun.text.ends_with('s') {
        return None;
    }
    let null = part[v].is("is") && part.len() == v + 2 && part[v + 1].text.eq_ignore_ascii_case("null");
    if !null {
        return None;
    }
    let item = stem(&noun.text.to_ascii_lowercase());
    let k = (0..ctx.params.len()).find(|&k| {
        let name = &ctx.params[k];
        let plural = name.ends_with('s') && words(name).last().is_some_and(|w| *w == item);
        let ty = &ctx.param_types[k];
        plural && (ty.ends_with("[]") || COLLECTIONS.contains(&simple_type(ty)))
    })?;
    let param = Expr::Param(ctx.params[k].clone());
    let condition = if ctx.param_types[k].ends_with("[]") {
        Cond::Unknown
    } else {
        Cond::Truth(Expr::Call { target: Box::new(param), name: "contains".into(), args: vec![Expr::Null] })
    };
    Some(Trigger {
        kind: TriggerKind::Nullness,
        text: join(part),
        triple: None,
        condition,
        links: Vec::new(),
        confidence: 0.8,
    })
}

#[cfg(test)]
mod tests {
    use super::super::testctx::{Owned, shown, throws_triggers};

    #[test]
    fn an_item_of_a_plural_container_is_not_the_container() {
        let of = Owned::new("Set", "of", &[("java.lang.Object[]", "elements")], vec![]);
        let t = throws_triggers(&of, "if an element is `null` or if the array is `null`");
        assert_eq!(shown(&t), [("T1".into(), "?".into()), ("T1".into(), "elements == null".into())]);
        let all = Owned::new("ExecutorService", "invokeAll", &[("java.util.Collection", "tasks")], vec![]);
        let t = throws_triggers(&all, "if a task is null");
        assert_eq!(shown(&t), [("T1".to_string(), "tasks.contains(null)".to_string())]);
    }
}
