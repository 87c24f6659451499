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
    let null = part[v].is("is") && part.len() == v + 2 && part[v + 1].text.eq_ignore_ascii_case("null");
    if !null {
        return None;
    }
    let k = item_of_named(&part[..v], ctx).or_else(|| item_of_container(&part[..v], ctx))?;
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

/// "an element" of a container parameter named by the noun's plural
/// (`elements`, `tasks`): its index.
fn item_of_named(subject: &[Token], ctx: &MethodContext) -> Option<usize> {
    let [det, noun] = subject else { return None };
    if !INDEFINITE.iter().any(|d| det.is(d)) || noun.code || noun.text.ends_with('s') {
        return None;
    }
    let item = stem(&noun.text.to_ascii_lowercase());
    (0..ctx.params.len()).find(|&k| {
        let name = &ctx.params[k];
        let plural = name.ends_with('s') && words(name).last().is_some_and(|w| *w == item);
        plural && is_container(&ctx.param_types[k])
    })
}

/// "one of the elements of `envp`", "any element in the array": an item
/// of the container parameter named after "of"/"in" (never the container
/// itself: `envp == null` would be wrong); its index.
fn item_of_container(subject: &[Token], ctx: &MethodContext) -> Option<usize> {
    let first = subject.first()?;
    if !INDEFINITE.iter().any(|d| first.is(d)) {
        return None;
    }
    let items = ["element", "item", "entry"];
    let at = subject.windows(2).position(|w| {
        let noun = stem(&w[0].text.to_ascii_lowercase());
        !w[0].code && items.contains(&noun.as_str()) && (w[1].is("of") || w[1].is("in"))
    })?;
    let (Expr::Param(p), _) = ctx.noun_phrase(&subject[at + 2..])? else { return None };
    let k = ctx.params.iter().position(|q| *q == p)?;
    is_container(&ctx.param_types[k]).then_some(k)
}

/// Whether a parameter type holds items: an array or a collection.
fn is_container(ty: &str) -> bool {
    ty.ends_with("[]") || COLLECTIONS.contains(&simple_type(ty))
}

/// "if there are any duplicate keys", "if the keys are duplicates" of
/// `Map.of(k1, v1, k2, v2, k3, v3)`: one trigger per pair of the numbered
/// parameters the noun names (`k1.equals(k2)`, `k1.equals(k3)`,
/// `k2.equals(k3)`), each a restriction of its own (T4, as equality is);
/// `None` without two such parameters.
pub fn duplicates(part: &[Token], ctx: &MethodContext) -> Option<Vec<Trigger>> {
    let lower: Vec<String> = part.iter().map(|t| t.text.to_ascii_lowercase()).collect();
    let at = lower.iter().position(|w| w == "duplicate" || w == "duplicates")?;
    // "duplicate keys", or "the keys are duplicates".
    let noun = if lower[at] == "duplicate" {
        lower.get(at + 1)?
    } else {
        lower[..at].iter().rev().find(|w| !matches!(w.as_str(), "are" | "is" | "any" | "all"))?
    };
    let noun = noun.trim_end_matches('s');
    let series: Vec<&String> = ctx.params.iter().filter(|p| !noun.is_empty() && super::names_noun(p, noun)).collect();
    if series.len() < 2 {
        return None;
    }
    let equal = |a: &String, b: &String| {
        let call = Expr::Call {
            target: Box::new(Expr::Param(a.clone())),
            name: "equals".into(),
            args: vec![Expr::Param(b.clone())],
        };
        Trigger {
            kind: TriggerKind::Other,
            text: join(part),
            triple: None,
            condition: Cond::Truth(call),
            links: Vec::new(),
            confidence: 0.8,
        }
    };
    let pairs = series.iter().enumerate().flat_map(|(i, a)| series[i + 1..].iter().map(move |b| (*a, *b)));
    Some(pairs.map(|(a, b)| equal(a, b)).collect())
}

#[cfg(test)]
mod tests {
    use super::super::testctx::{Owned, shown, throws_triggers};

    #[test]
    fn duplicate_keys_are_pairs_of_equal_numbered_parameters() {
        let of = Owned::new(
            "Map",
            "of",
            &[
                ("java.lang.Object", "k1"),
                ("java.lang.Object", "v1"),
                ("java.lang.Object", "k2"),
                ("java.lang.Object", "v2"),
                ("java.lang.Object", "k3"),
                ("java.lang.Object", "v3"),
            ],
            vec![],
        );
        let t = throws_triggers(&of, "if there are any duplicate keys");
        let conds: Vec<String> = shown(&t).into_iter().map(|(_, c)| c).collect();
        assert_eq!(conds, ["k1.equals(k2)", "k1.equals(k3)", "k2.equals(k3)"]);
        let t = throws_triggers(&of, "if the keys are duplicates");
        assert_eq!(t.len(), 3);
    }

    #[test]
    fn an_item_of_a_plural_container_is_not_the_container() {
        let of = Owned::new("Set", "of", &[("java.lang.Object[]", "elements")], vec![]);
        let t = throws_triggers(&of, "if an element is `null` or if the array is `null`");
        assert_eq!(shown(&t), [("T1".into(), "?".into()), ("T1".into(), "elements == null".into())]);
        let all = Owned::new("ExecutorService", "invokeAll", &[("java.util.Collection", "tasks")], vec![]);
        let t = throws_triggers(&all, "if a task is null");
        assert_eq!(shown(&t), [("T1".to_string(), "tasks.contains(null)".to_string())]);
    }

    #[test]
    fn one_of_the_elements_of_an_array_is_an_item_not_the_array() {
        let exec =
            Owned::new("Runtime", "exec", &[("java.lang.String", "command"), ("java.lang.String[]", "envp")], vec![]);
        let t = throws_triggers(&exec, "If `command` is `null`, or one of the elements of `envp` is `null`");
        assert_eq!(shown(&t), [("T1".to_string(), "command == null".to_string()), ("T1".to_string(), "?".to_string())]);
    }
}
