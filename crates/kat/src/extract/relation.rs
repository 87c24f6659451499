//! Relations between a value and the receiver that the receiver's own
//! methods decide: a thing looked up by a key ("a package of the given
//! `name` is already defined by this class loader" is
//! `this.getDefinedPackage(name) != null`), membership ("the argument was
//! a component of this vector" is `this.contains(obj)`), and identity
//! ("the source buffer is this buffer" is `src == this`).

use super::entity::{MethodContext, StateMethod};
use super::predicate::{Ask, Derived};
use super::sentence::{Token, verb_index};
use super::words::{same_word, words};
use crate::cond::{CmpOp, Cond, Expr};
use crate::graph::{Entity, Link, TriggerKind};

/// Words between the copula and what it says: negations and adverbs.
const FILLERS: &[&str] = &["not", "already", "yet", "been", "currently", "no", "longer"];

/// Prepositions that relate a thing to the receiver that holds it.
const HOLDERS: &[&str] = &["in", "by", "to", "within", "on", "with"];

/// The predicate's words after the copula, without [`FILLERS`]; `None`
/// when the predicate does not start with a copula.
fn after_copula(predicate: &[Token]) -> Option<&[Token]> {
    let first = predicate.first()?;
    if !["is", "are", "was", "were", "has", "have"].iter().any(|c| first.is(c)) {
        return None;
    }
    let skip = predicate[1..].iter().take_while(|t| FILLERS.iter().any(|f| t.is(f))).count();
    Some(&predicate[1 + skip..])
}

/// "a package of the given `name` is already defined by this class
/// loader", "a module of the given name is not defined in this layer": a
/// getter or finder of the receiver that takes the key and whose name
/// holds the noun (`getDefinedPackage(name)`, `findModule(name)`) reports
/// it; the thing is there when the result is not `null` (or a present
/// `Optional`), T3.
pub(super) fn looked_up(ask: &Ask) -> Option<Derived> {
    let (ctx, part) = (ask.ctx, ask.part);
    let verb = verb_index(part)?;
    let (noun, key) = keyed_noun(ctx, &part[..verb])?;
    let rest = after_copula(&part[verb..])?;
    let [state, prep, this, ..] = rest else { return None };
    let participle = !state.code && (state.text.ends_with("ed") || state.is("present") || state.is("known"));
    if ctx.is_static || !participle || !HOLDERS.iter().any(|h| prep.is(h)) || !this.is("this") {
        return None;
    }
    let said: Vec<String> = words(&state.text);
    let m = finder(ctx, &noun, &key, &said)?;
    let call = Expr::Call { target: Box::new(Expr::This), name: m.name.clone(), args: vec![key] };
    let condition = if m.returns == "java.util.Optional" {
        Cond::Truth(Expr::call0(call, if ask.negated { "isEmpty" } else { "isPresent" }))
    } else {
        Cond::cmp(call, if ask.negated { CmpOp::Eq } else { CmpOp::Ne }, Expr::Null)
    };
    let link = Link { mention: noun, entity: Entity::Method { class: None, name: m.name.clone() }, confidence: 0.8 };
    Some(Derived { kind: TriggerKind::CallDependency, condition, links: vec![link] })
}

/// "a package of the given `name`", "a module with the specified name":
/// the noun and the parameter that is its key.
fn keyed_noun(ctx: &MethodContext, subject: &[Token]) -> Option<(String, Expr)> {
    let [det, noun, of, key @ ..] = subject else { return None };
    let article = det.is("a") || det.is("an") || det.is("the") || det.is("no");
    if !article || noun.code || !(of.is("of") || of.is("with") || of.is("named")) || key.is_empty() {
        return None;
    }
    match ctx.noun_phrase(key)? {
        (e @ Expr::Param(_), _) => Some((noun.text.to_ascii_lowercase(), e)),
        _ => None,
    }
}

/// The receiver's `get…`/`find…`/`lookup…` method of one parameter that
/// accepts `key`, returns an object and names `noun`; among several, the
/// one whose name shares most words with the predicate (`getDefinedPackage`
/// for "defined" over `getPackage`).
fn finder<'c>(ctx: &MethodContext<'c>, noun: &str, key: &Expr, said: &[String]) -> Option<&'c StateMethod> {
    let key_type = ctx.type_of(key);
    let fits = |m: &&StateMethod| {
        let name = words(&m.name);
        let verb = name.first().is_some_and(|w| ["get", "find", "lookup"].contains(&w.as_str()));
        let object = m.returns.contains('.') && !m.returns.ends_with("[]");
        let accepts = m.params.len() == 1 && key_type.is_none_or(|t| t == m.params[0]);
        verb && object && accepts && name.iter().any(|w| same_word(w, noun))
    };
    let shared = |m: &StateMethod| words(&m.name).iter().filter(|w| said.iter().any(|s| same_word(s, w))).count();
    ctx.receiver_methods.iter().filter(fits).max_by_key(|m| (shared(m), std::cmp::Reverse(m.name.len())))
}

/// "the argument was a component of this vector", "`o` is not an element
/// of this set": `this.contains(o)` (negated as said), T3, when the
/// receiver has `contains` for the value.
pub(super) fn member_of_receiver(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, predicate, _, negated) = ask.parts();
    let s @ Expr::Param(_) = subj? else { return None };
    let rest = after_copula(predicate)?;
    let [article, noun, of, holder @ ..] = rest else { return None };
    let member = ["component", "element", "member", "item", "entry"].iter().any(|n| noun.is(n));
    let receiver = ctx.noun_phrase(holder).is_some_and(|(e, _)| e == Expr::This);
    if !(article.is("a") || article.is("an")) || !member || !(of.is("of") || of.is("in")) || !receiver {
        return None;
    }
    let contains =
        |m: &&StateMethod| m.name == "contains" && m.params.len() == 1 && m.returns == "boolean" && accepts(ctx, m, s);
    ctx.receiver_methods.iter().find(contains)?;
    let call = Cond::Truth(Expr::Call { target: Box::new(Expr::This), name: "contains".into(), args: vec![s.clone()] });
    let condition = if negated { call.negated() } else { call };
    let entity = Entity::Method { class: None, name: "contains".into() };
    let link = Link { mention: noun.text.clone(), entity, confidence: 0.8 };
    Some(Derived { kind: TriggerKind::CallDependency, condition, links: vec![link] })
}

/// Whether `arg` fits the one parameter of `m` (`Object`, the same type,
/// or an unknown type).
fn accepts(ctx: &MethodContext, m: &StateMethod, arg: &Expr) -> bool {
    m.params[0] == "java.lang.Object" || ctx.type_of(arg).is_none_or(|t| t == m.params[0])
}

/// "the source buffer is this buffer", "`obj` is not this object": the
/// identity of a reference parameter and the receiver (`src == this`), a
/// restriction of its own (T4).
pub(super) fn is_receiver(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, predicate, _, negated) = ask.parts();
    let s @ Expr::Param(_) = subj? else { return None };
    let first = predicate.first()?;
    let rest = &predicate[1..];
    let rest = if rest.first().is_some_and(|t| t.is("not")) { &rest[1..] } else { rest };
    let reference = ctx.type_of(s).is_some_and(|t| t.contains('.') || t.ends_with("[]"));
    // "the caller's module is not this module" is about someone else's value.
    let possessive = ask.part.iter().take_while(|t| !t.is(&first.text)).any(|t| t.text.ends_with("'s"));
    if !(first.is("is") || first.is("are")) || !rest.first().is_some_and(|t| t.is("this")) || !reference || possessive {
        return None;
    }
    if ctx.noun_phrase(rest).is_none_or(|(e, _)| e != Expr::This) {
        return None;
    }
    let condition = Cond::cmp(s.clone(), if negated { CmpOp::Ne } else { CmpOp::Eq }, Expr::This);
    Some(Derived { kind: TriggerKind::Other, condition, links: Vec::new() })
}

#[cfg(test)]
mod tests {
    use super::super::testctx::{Owned, method, shown, throws_triggers};

    #[test]
    fn a_thing_looked_up_by_its_key_is_there_when_the_finder_reports_it() {
        let loader = Owned::new(
            "ClassLoader",
            "definePackage",
            &[("java.lang.String", "name"), ("java.lang.String", "specTitle")],
            vec![
                method("getPackage", &["java.lang.String"], "java.lang.Package"),
                method("getDefinedPackage", &["java.lang.String"], "java.lang.Package"),
            ],
        );
        let t = throws_triggers(&loader, "if a package of the given `name` is already defined by this class loader");
        assert_eq!(shown(&t), [("T3".to_string(), "this.getDefinedPackage(name) != null".to_string())]);
        let layer = Owned::new(
            "ModuleLayer",
            "findLoader",
            &[("java.lang.String", "name")],
            vec![method("findModule", &["java.lang.String"], "java.util.Optional")],
        );
        let t = throws_triggers(&layer, "if a module of the given name is not defined in this layer");
        assert_eq!(shown(&t), [("T3".to_string(), "this.findModule(name).isEmpty()".to_string())]);
    }

    #[test]
    fn a_component_of_the_receiver_is_contained_and_the_receiver_itself_is_identity() {
        let vector = Owned::new(
            "Vector",
            "removeElement",
            &[("java.lang.Object", "obj")],
            vec![method("contains", &["java.lang.Object"], "boolean")],
        );
        let t = throws_triggers(&vector, "if the argument was a component of this vector");
        assert_eq!(shown(&t), [("T3".to_string(), "this.contains(obj)".to_string())]);
        let buffer = Owned::new("IntBuffer", "put", &[("java.nio.IntBuffer", "src")], vec![]);
        let t = throws_triggers(&buffer, "If the source buffer is this buffer");
        assert_eq!(shown(&t), [("T4".to_string(), "src == this".to_string())]);
        let module = Owned::new("Module", "addReads", &[("java.lang.Module", "other")], vec![]);
        let t = throws_triggers(&module, "If the caller's module is not this module");
        assert_eq!(shown(&t)[0].1, "?");
    }
}
