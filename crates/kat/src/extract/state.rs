//! Linking a predicate to a state method (KAT's T3 "call dependency"):
//! a boolean query of the subject or the receiver ("has no more elements"
//! is `!this.hasNext()`), or an action whose effect the predicate names
//! ("is closed" after `close()`).

use super::entity::{CLASS_THRESHOLD, MethodContext, OTHER_CLASS_THRESHOLD, StateMethod};
use super::predicate::{Ask, Derived};
use super::sentence::Token;
use super::words::{same_word, similarity, stem, words};
use crate::cond::{Cond, Expr};
use crate::graph::{Entity, Link, TriggerKind};

/// Methods never linked as states (every object has them).
const NOT_STATES: &[&str] = &["equals", "hashCode", "toString", "compareTo", "getClass"];

/// How a candidate method relates to the trigger.
struct Fit {
    /// The method is called on the trigger's subject (or on the receiver
    /// when the subject is the receiver or unknown).
    on_subject: bool,
    /// The predicate's main verb is the method's name ("contains", "exists")
    /// and the subject is the method's target.
    verb_is_name: bool,
}

/// Whether a method names a state a predicate can talk about: a boolean
/// query on the subject (`isEmpty`, `hasNext`, `markSupported`, or the verb
/// itself: "exists", "contains the element"), a boolean `is`/`has`/`can`
/// query of the receiver taking the subject ("the unit is not supported"
/// → `this.isSupported(unit)`), or a zero-argument action whose past
/// participle follows a copula ("is closed" → `close`).
fn is_state_name(m: &StateMethod, predicate: &[Token], fit: &Fit) -> bool {
    if NOT_STATES.contains(&m.name.as_str()) {
        return false;
    }
    let prefixed = ["is", "has", "can"]
        .iter()
        .any(|p| m.name.strip_prefix(p).is_some_and(|rest| rest.starts_with(char::is_uppercase)));
    let boolean = m.returns == "boolean";
    let query =
        boolean && if fit.on_subject { prefixed || fit.verb_is_name || words(&m.name).len() >= 2 } else { prefixed };
    let participle = m.params.is_empty()
        && predicate.windows(2).any(|w| {
            let copula = ["is", "are", "was", "were", "been", "already"].iter().any(|c| w[0].is(c));
            copula
                && !w[1].code
                && w[1].text.ends_with("ed")
                && same_word(&stem(&w[1].text.to_ascii_lowercase()), &m.name)
        });
    query || participle
}

/// Antonyms of state words and the method names they negate.
const ANTONYMS: &[(&str, &str)] = &[("closed", "isOpen"), ("close", "isOpen")];

/// Links the predicate to a state method of the subject's type (or of the
/// receiver): "has no more elements" is `!this.hasNext()`, "the unit is not
/// supported" is `!this.isSupported(unit)`, "this list contains the
/// specified element" is `this.contains(o)`. Boolean methods give a formal
/// condition; other methods (`close`, a `{@link}`ed `next`) give T3 with
/// no formal form.
pub(super) fn state_link(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, predicate, _, negated) = ask.parts();
    let part = ask.part;
    let text = without_plain_backing(predicate.iter().map(|t| t.text.as_str()).collect::<Vec<_>>().join(" "));
    let pred_words = words(&text);
    let object = object_parameter(ctx, predicate);
    let mut candidates: Vec<(Expr, &StateMethod, Option<Vec<Expr>>, f32)> = Vec::new();
    let targets = subj.into_iter().cloned().chain((!ctx.is_static).then_some(Expr::This));
    let verb = main_verb(predicate);
    for target in targets {
        let on_subject = subj.is_none_or(|s| *s == target || !matches!(s, Expr::Param(_)));
        for m in ctx.methods_of(&target) {
            let args = match (m.params.len(), subj, &object) {
                (0, _, _) => Some(Vec::new()),
                (1, Some(s), _) if !on_subject && accepts(ctx, m, s) => Some(vec![s.clone()]),
                (1, _, Some(o)) if on_subject && *o != target && accepts(ctx, m, o) => Some(vec![o.clone()]),
                _ => None,
            };
            let linked = ctx
                .link_members
                .iter()
                .any(|(member, shown)| *member == m.name && part.iter().any(|t| t.code && t.text == *shown));
            if args.is_none() && !linked {
                continue;
            }
            // "exists", "contains the element": the verb names the method of
            // the subject itself (an unknown subject is not the receiver).
            let verb_is_name = subj == Some(&target)
                && verb.as_ref().is_some_and(|v| same_word(&stem(v), &stem(&m.name.to_ascii_lowercase())));
            let fit = Fit { on_subject, verb_is_name };
            let antonym = ANTONYMS.iter().any(|(w, name)| *name == m.name && pred_words.iter().any(|p| p == w));
            // "does not represent an enum class" names `isEnum` without its
            // "is", as do "this future was cancelled" (`isCancelled`), "the
            // unit has an estimated duration" (`isDurationEstimated`).
            let describes = matches!(
                verb.as_deref(),
                Some(
                    "is" | "are" | "was" | "were" | "has" | "have" | "represents" | "represent" | "denotes" | "denote"
                )
            );
            let bare =
                m.name.strip_prefix("is").filter(|r| r.starts_with(char::is_uppercase) && on_subject && describes);
            let score = if linked || antonym {
                1.0
            } else {
                similarity(&text, &m.name).max(bare.map_or(0.0, |r| similarity(&text, r)))
            };
            let threshold = if target == Expr::This { CLASS_THRESHOLD } else { OTHER_CLASS_THRESHOLD };
            if score >= threshold && (linked || antonym || is_state_name(m, predicate, &fit)) {
                candidates.push((target.clone(), m, args, score));
            }
        }
    }
    candidates.extend(static_candidates(ask));
    let specificity = |m: &StateMethod| (m.returns == "boolean") as usize * 10 + words(&m.name).len();
    candidates.sort_by(|a, b| b.3.total_cmp(&a.3).then(specificity(b.1).cmp(&specificity(a.1))));
    let (target, m, args, score) = candidates.into_iter().next()?;
    let entity = Entity::Method { class: None, name: m.name.clone() };
    let link = Link { mention: text.clone(), entity, confidence: score };
    // A linked method that cannot be called here, or is no boolean query:
    // a call dependency without a formal form.
    let Some(args) = args.filter(|_| m.returns == "boolean") else {
        return Some(Derived { kind: TriggerKind::CallDependency, condition: Cond::Unknown, links: vec![link] });
    };
    let call = Expr::Call { target: Box::new(target), name: m.name.clone(), args };
    let antonym = ANTONYMS.iter().any(|(w, name)| *name == m.name && pred_words.iter().any(|p| p == w));
    let condition = state_condition(Cond::Truth(call), m, predicate, negated != antonym);
    Some(Derived { kind: TriggerKind::CallDependency, condition, links: vec![link] })
}

/// "`-1` if there is no such occurrence" documenting `lastIndexOf(str)`:
/// the receiver does not contain the one argument, `!this.contains(str)`
/// (T3), when the receiver has `contains` for its type.
pub(super) fn no_occurrence(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, _, lower, _) = ask.parts();
    let said = lower.windows(3).any(|w| w[0] == "no" && w[1] == "such" && w[2] == "occurrence");
    let [param] = ctx.params else { return None };
    if !said || subj.is_some() || ctx.is_static {
        return None;
    }
    let ty = ctx.param_types[0].as_str();
    let fits = |m: &&StateMethod| {
        m.name == "contains"
            && m.params.len() == 1
            && (m.params[0] == ty || (m.params[0] == "java.lang.CharSequence" && ty == "java.lang.String"))
    };
    ctx.receiver_methods.iter().find(fits)?;
    let call =
        Expr::Call { target: Box::new(Expr::This), name: "contains".into(), args: vec![Expr::Param(param.clone())] };
    let link = Link {
        mention: "no such occurrence".into(),
        entity: Entity::Method { class: None, name: "contains".into() },
        confidence: 0.8,
    };
    Some(Derived { kind: TriggerKind::CallDependency, condition: Cond::Truth(call).negated(), links: vec![link] })
}

/// The condition of a linked boolean query: negated as the predicate says
/// ("in non-blocking mode" negates `isBlocking`), and narrowed by `&& ?`
/// when the predicate qualifies what the query reports ("is a multicast
/// address of global scope" is more than `isMulticastAddress()`).
fn state_condition(call: Cond, m: &StateMethod, predicate: &[Token], negated: bool) -> Cond {
    let lower: Vec<String> = predicate.iter().map(|t| t.text.to_ascii_lowercase()).collect();
    let name_words = words(&m.name);
    let non = name_words.iter().any(|w| w.len() > 3 && super::predicate::non_prefixed(&lower, w));
    let cond = if negated != non { call.negated() } else { call };
    if !negated && qualified(predicate, &name_words) { Cond::join(vec![cond, Cond::Unknown], true) } else { cond }
}

/// Whether the words after the last one the query's name covers start a
/// qualifier of their own: "of global scope" after "multicast address",
/// "to a currently unreachable destination" after "connected".
fn qualified(predicate: &[Token], name_words: &[String]) -> bool {
    let covered = |t: &Token| !t.code && words(&t.text).iter().any(|w| name_words.iter().any(|n| same_word(w, n)));
    let Some(last) = predicate.iter().rposition(covered) else { return false };
    let rest = &predicate[last + 1..];
    // "of the elements in the specified collection", "of this class" name
    // values (the query's argument or target), not a qualifier.
    let reference = ["the", "this", "its", "their", "specified", "given", "that", "which"];
    let names_value = |t: &Token| t.code || reference.iter().any(|r| t.is(r));
    let preposition = rest.first().is_some_and(|t| t.is("of") || t.is("to"));
    preposition && rest.len() > 1 && !rest[1..].iter().any(names_value)
}

/// "backed by an accessible array" is how `java.nio` says `hasArray()`
/// (the synonym "backed" → "has"), but a buffer "backed by an array" may
/// be read-only, and then `hasArray()` is false: without "accessible" the
/// word is kept from the synonym.
fn without_plain_backing(text: String) -> String {
    if text.contains("accessible") { text } else { text.replace("backed", "backing") }
}

/// The predicate's main verb, lower case, after auxiliaries and negations.
fn main_verb(predicate: &[Token]) -> Option<String> {
    let aux = ["does", "do", "did", "not", "no", "never", "doesn't", "don't"];
    predicate.iter().find(|t| !aux.iter().any(|a| t.is(a))).filter(|t| !t.code).map(|t| t.text.to_ascii_lowercase())
}

/// Whether `arg` fits the single parameter of `m` (same erased type, or
/// `Object`; unknown types are accepted).
fn accepts(ctx: &MethodContext, m: &StateMethod, arg: &Expr) -> bool {
    let want = m.params[0].as_str();
    want == "java.lang.Object" || ctx.type_of(arg).is_none_or(|t| t == want)
}

/// The parameter named by the object of a transitive predicate
/// ("contains the specified element" → `o`). A relative clause is no part
/// of the object: "contains elements that are not mutually comparable
/// using the specified comparator" is about elements, not the comparator.
fn object_parameter(ctx: &MethodContext, predicate: &[Token]) -> Option<Expr> {
    let start = predicate.iter().position(|t| !(t.is("not") || t.is("no") || VERBISH.iter().any(|v| t.is(v))))?;
    let relative = |t: &Token| ["that", "which", "who", "whose"].iter().any(|r| t.is(r));
    let end = predicate[start..].iter().position(relative).map_or(predicate.len(), |k| start + k);
    match ctx.noun_phrase(&predicate[start..end]) {
        Some((e @ Expr::Param(_), _)) => Some(e),
        _ => None,
    }
}

/// Auxiliaries and verbs skipped before an object.
const VERBISH: &[&str] = &["does", "do", "did", "contains", "contain", "is", "are", "has", "have", "a", "an"];

/// "the file is not a directory" documenting a method of `Files`: a
/// static boolean query of the declaring class that takes the subject
/// first (`Files.isDirectory(path)`; trailing options such as
/// `LinkOption...` are left out of the call).
fn static_candidates<'c>(ask: &Ask<'_, 'c>) -> Vec<(Expr, &'c StateMethod, Option<Vec<Expr>>, f32)> {
    let (ctx, subj, predicate, _, _) = ask.parts();
    // Only objects: a number or character is restricted by its range
    // ("not a valid code point"), and a static query documenting itself
    // (`Character.isDigit`'s "`true` if the character is a digit") says nothing.
    let Some(s @ Expr::Param(_)) = subj.filter(|s| ctx.type_of(s).is_some_and(|t| t.contains('.'))) else {
        return Vec::new();
    };
    // "could not be deleted because the directory is not empty": the reason
    // is about another value.
    let predicate = &predicate[..predicate.iter().position(|t| t.is("because")).unwrap_or(predicate.len())];
    let text: String = predicate.iter().map(|t| t.text.as_str()).collect::<Vec<_>>().join(" ");
    let verb = main_verb(predicate);
    let class = Expr::Name(ctx.class_simple.to_string());
    // A negative query (`notExists`) would read "does not exist" twice negated.
    let negative = |m: &StateMethod| m.name.strip_prefix("not").is_some_and(|r| r.starts_with(char::is_uppercase));
    ctx.static_methods
        .iter()
        .filter(|m| m.name != ctx.method && !negative(m) && m.returns == "boolean" && accepts(ctx, m, s))
        .filter(|m| {
            // "the file does not exist": the verb names the query (`Files.exists`).
            let verb_is_name = verb.as_ref().is_some_and(|v| same_word(&stem(v), &stem(&m.name.to_ascii_lowercase())));
            is_state_name(m, predicate, &Fit { on_subject: true, verb_is_name })
        })
        .filter_map(|m| {
            let bare = m.name.strip_prefix("is").unwrap_or(&m.name);
            let score = similarity(&text, &m.name).max(similarity(&text, bare));
            (score >= CLASS_THRESHOLD).then(|| (class.clone(), m, Some(vec![s.clone()]), score))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::testctx::{Owned, method, shown, throws_triggers};

    #[test]
    fn no_such_occurrence_is_not_contained() {
        let s = Owned::new(
            "String",
            "lastIndexOf",
            &[("java.lang.String", "str")],
            vec![method("contains", &["java.lang.CharSequence"], "boolean")],
        );
        let t = throws_triggers(&s, "if there is no such occurrence");
        assert_eq!(shown(&t), [("T3".to_string(), "!this.contains(str)".to_string())]);
    }

    #[test]
    fn a_qualified_state_claims_no_more_than_the_query() {
        let inet = Owned::new("InetAddress", "isMCGlobal", &[], vec![method("isMulticastAddress", &[], "boolean")]);
        let t = throws_triggers(&inet, "if the address is a multicast address of global scope");
        assert_eq!(shown(&t), [("T3".to_string(), "this.isMulticastAddress() && ?".to_string())]);
        let socket = Owned::new("DatagramSocket", "receive", &[], vec![method("isConnected", &[], "boolean")]);
        let t = throws_triggers(&socket, "if the socket is connected to a currently unreachable destination");
        assert_eq!(shown(&t)[0].1, "this.isConnected() && ?");
        let t = throws_triggers(&inet, "if the address is a multicast address");
        assert_eq!(shown(&t), [("T3".to_string(), "this.isMulticastAddress()".to_string())]);
        let all = Owned::new(
            "Vector",
            "addAll",
            &[("java.util.Collection", "c")],
            vec![method("containsAll", &["java.util.Collection"], "boolean")],
        );
        let t = throws_triggers(&all, "if this Vector contains all of the elements in the specified collection");
        assert_eq!(shown(&t), [("T3".to_string(), "this.containsAll(c)".to_string())]);
    }

    #[test]
    fn a_participle_or_a_had_property_names_an_is_query() {
        let future = Owned::new("CompletableFuture", "get", &[], vec![method("isCancelled", &[], "boolean")]);
        let t = throws_triggers(&future, "if this future was cancelled");
        assert_eq!(shown(&t), [("T3".to_string(), "this.isCancelled()".to_string())]);
        let mut of =
            Owned::new("Duration", "of", &[("long", "amount"), ("java.time.temporal.TemporalUnit", "unit")], vec![]);
        of.param_methods = vec![vec![], vec![method("isDurationEstimated", &[], "boolean")]];
        let t = throws_triggers(&of, "if the period unit has an estimated duration");
        assert_eq!(shown(&t), [("T3".to_string(), "unit.isDurationEstimated()".to_string())]);
    }

    #[test]
    fn a_relative_clause_is_no_part_of_the_object() {
        let mut sort =
            Owned::new("Collections", "sort", &[("java.util.List", "list"), ("java.util.Comparator", "c")], vec![]);
        sort.param_methods = vec![vec![method("contains", &["java.lang.Object"], "boolean")], vec![]];
        let text = "if the list contains elements that are not mutually comparable using the specified comparator";
        assert_eq!(shown(&throws_triggers(&sort, text)), [("T4".to_string(), "?".to_string())]);
    }
}
