//! The scope of "and" inside an "or" list.
//!
//! "if the specified key is null and this map uses natural ordering, or
//! its comparator does not permit null keys": the alternative after "or"
//! starts with a pronoun ("its", "it") that refers back into the second
//! half of the "and" before it, so the "or" joins only that second half
//! and the first half holds for both alternatives (`A && B || A && C`).

use super::sentence::{Token, verb_index};
use super::words::{content, same_word};
use crate::graph::Trigger;

/// Pronouns that open an alternative referring back into the previous one.
const BACK_REFERENCES: &[&str] = &["its", "it", "their", "they"];

/// Prefixes each part that starts with a back-referring pronoun with the
/// first conjunct of the previous part ("A and B, or its C" gives the parts
/// "A and B" and "A and its C"). Parts are left alone when the previous
/// part has no top-level "and" between two clauses with verbs.
pub fn share_first_conjunct(parts: &mut [Vec<Token>]) {
    for i in 1..parts.len() {
        let refers_back = parts[i].first().is_some_and(|t| BACK_REFERENCES.iter().any(|w| t.is(w)));
        if !refers_back || verb_index(&parts[i]).is_none() {
            continue;
        }
        let Some(head) = first_conjunct(&parts[i - 1]) else { continue };
        let mut joined = head.to_vec();
        joined.push(Token { text: "and".into(), code: false });
        joined.extend(parts[i].iter().cloned());
        parts[i] = joined;
    }
}

/// "if the specified function is null, or the specified replacement value
/// is null, and this map does not permit null values": which alternatives
/// a trailing ", and" clause scopes over. Those whose subject shares a
/// word with the clause ("value" / "values"); all of them when none does
/// ("if the key or value is null, and this map does not permit null keys
/// or values" shares with both).
pub fn scoped_alternatives(alternatives: &[Trigger], scope: &Trigger) -> Vec<bool> {
    let scope_words = content(&scope.text);
    let shares = |t: &Trigger| {
        let subject = t.triple.as_ref().map_or(t.text.as_str(), |tr| tr.subject.as_str());
        content(subject).iter().any(|w| w != "null" && scope_words.iter().any(|s| same_word(s, w)))
    };
    let shared: Vec<bool> = alternatives.iter().map(shares).collect();
    if shared.iter().any(|s| *s) { shared } else { vec![true; alternatives.len()] }
}

/// "A and B" where both A and B are clauses with a verb: A.
fn first_conjunct(part: &[Token]) -> Option<&[Token]> {
    let k = part.iter().position(|t| t.is("and"))?;
    let (head, tail) = (&part[..k], &part[k + 1..]);
    (verb_index(head).is_some() && verb_index(tail).is_some()).then_some(head)
}

#[cfg(test)]
mod tests {
    use super::super::testctx::{Owned, method, shown, throws_triggers};

    #[test]
    fn a_trailing_and_clause_scopes_over_the_alternatives_it_speaks_of() {
        let map = Owned::new("Map", "replaceAll", &[("java.util.function.BiFunction", "function")], vec![]);
        let t = throws_triggers(
            &map,
            "if the specified function is null, or the specified replacement value is null, and this map does not \
             permit null values",
        );
        assert_eq!(shown(&t), [("T1".into(), "function == null".into()), ("T1".into(), "?".into())]);
        let cm = Owned::new(
            "ConcurrentMap",
            "remove",
            &[("java.lang.Object", "key"), ("java.lang.Object", "value")],
            vec![],
        );
        let t = throws_triggers(
            &cm,
            "if the specified key or value is null, and this map does not permit null keys or values",
        );
        assert_eq!(shown(&t), [("T1".into(), "key == null && ?".into()), ("T1".into(), "value == null && ?".into())]);
    }

    #[test]
    fn an_alternative_opening_with_its_shares_the_first_conjunct() {
        let map = Owned::new(
            "TreeMap",
            "get",
            &[("java.lang.Object", "key")],
            vec![method("comparator", &[], "java.util.Comparator")],
        );
        let t = throws_triggers(
            &map,
            "if the specified key is null and this map uses natural ordering, or its comparator does not permit \
             null keys",
        );
        assert_eq!(
            shown(&t),
            [
                ("T1".into(), "key == null && this.comparator() == null".into()),
                ("T1".into(), "key == null && ?".into())
            ]
        );
    }
}
