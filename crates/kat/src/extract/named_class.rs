//! States that a class other than the value's own reports by a static
//! query: "the named charset is not supported" documenting
//! `PrintStream(File file, String csn)` is `!Charset.isSupported(csn)`:
//! the subject's noun names a class (`Charset`), that class has a static
//! boolean query taking the value (`isSupported(String)`) whose name the
//! predicate says, and the value is the parameter the phrase names by its
//! name or its `@param` text ("The name of a supported charset"). A
//! restriction by another class, not a state of the value's own (T4).

use super::entity::{CLASS_THRESHOLD, MethodContext, StateMethod};
use super::predicate::{Ask, Derived};
use super::sentence::Token;
use super::words::{content, same_word, similarity, words};
use crate::cond::{Cond, Expr};
use crate::graph::{Entity, Link, TriggerKind};

/// Nouns the documentation uses for a class under another name: a
/// character encoding is what a `Charset` names.
const CLASS_NOUNS: &[(&str, &str)] = &[("encoding", "charset")];

/// The static query of the class the subject names, on the parameter the
/// subject names (T4), negated as the predicate says.
pub(super) fn named_class_state(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, predicate, _, negated) = ask.parts();
    let types = ctx.types?;
    let subject = &ask.part[..ask.part.len() - predicate.len()];
    let nouns = content(&join(subject));
    let text = join(predicate);
    let (class, m, score) = nouns.iter().rev().find_map(|noun| {
        let class_noun = CLASS_NOUNS.iter().find(|(n, _)| same_word(n, noun)).map_or(noun.as_str(), |(_, c)| c);
        let (class, statics) = types.statics_named(class_noun)?;
        // A static query documenting itself ("`true` if the character is a
        // digit" of `Character.isDigit`) says nothing.
        let statics = statics.iter().filter(|m| class != ctx.class_simple || m.name != ctx.method);
        let (m, score) = statics.filter_map(|m| fit(m, &text, predicate)).max_by(|a, b| a.1.total_cmp(&b.1))?;
        Some((class, m, score))
    })?;
    let arg = match subj {
        Some(p @ Expr::Param(_)) if takes(ctx, m, p) => p.clone(),
        Some(_) => return None,
        None => named_parameter(ctx, m, &nouns)?,
    };
    let call = Expr::Call { target: Box::new(Expr::Name(class.to_string())), name: m.name.clone(), args: vec![arg] };
    let condition = if negated { Cond::Truth(call).negated() } else { Cond::Truth(call) };
    let entity = Entity::Method { class: None, name: m.name.clone() };
    let link = Link { mention: text, entity, confidence: score };
    Some(Derived { kind: TriggerKind::Other, condition, links: vec![link] })
}

/// A boolean query whose name (without its `is`) the predicate says:
/// "is not supported" → `isSupported`; its similarity.
fn fit<'m>(m: &'m StateMethod, text: &str, predicate: &[Token]) -> Option<(&'m StateMethod, f32)> {
    let query = m.name.strip_prefix("is").filter(|r| r.starts_with(char::is_uppercase))?;
    let copula = predicate.first().is_some_and(|t| ["is", "are", "was", "were"].iter().any(|c| t.is(c)));
    let score = similarity(text, query);
    (m.returns == "boolean" && m.params.len() == 1 && copula && score >= CLASS_THRESHOLD).then_some((m, score))
}

/// Whether `m` takes the value `e` (same erased type).
fn takes(ctx: &MethodContext, m: &StateMethod, e: &Expr) -> bool {
    ctx.type_of(e).is_some_and(|t| t == m.params[0])
}

/// The one parameter of the query's argument type that the subject's
/// nouns name, by its name or by its `@param` text.
fn named_parameter(ctx: &MethodContext, m: &StateMethod, nouns: &[String]) -> Option<Expr> {
    let named = |k: usize| {
        let said = words(&ctx.params[k]).into_iter().chain(content(&ctx.param_docs[k]));
        said.collect::<Vec<_>>().iter().any(|w| nouns.iter().any(|n| same_word(w, n)))
    };
    let fits: Vec<usize> = (0..ctx.params.len()).filter(|&k| ctx.param_types[k] == m.params[0] && named(k)).collect();
    let [k] = fits.as_slice() else { return None };
    Some(Expr::Param(ctx.params[*k].clone()))
}

fn join(t: &[Token]) -> String {
    t.iter().map(|x| x.text.as_str()).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::super::testctx::{Owned, method, shown, throws_triggers};

    #[test]
    fn the_named_charset_is_what_the_class_of_that_name_supports() {
        let mut m =
            Owned::new("PrintStream", "<init>", &[("java.io.File", "file"), ("java.lang.String", "csn")], vec![]);
        m.param_docs = vec!["The file to use".into(), "The name of a supported charset".into()];
        m.statics = vec![("Charset".into(), vec![method("isSupported", &["java.lang.String"], "boolean")])];
        let t = throws_triggers(&m, "If the named charset is not supported");
        assert_eq!(shown(&t), [("T4".to_string(), "!Charset.isSupported(csn)".to_string())]);
        let mut e = Owned::new("PrintStream", "<init>", &[("java.lang.String", "encoding")], vec![]);
        e.statics = m.statics.clone();
        let t = throws_triggers(&e, "If the named encoding is not supported");
        assert_eq!(shown(&t), [("T4".to_string(), "!Charset.isSupported(encoding)".to_string())]);
    }
}
