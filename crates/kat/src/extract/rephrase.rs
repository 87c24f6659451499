//! Rewordings of a trigger's part into the "subject verb predicate" form
//! the rules read: a restriction carried by the subject of a passive
//! ("a content length less than zero is specified" is "the content length
//! is less than zero") and an absence told as a subject ("no more tokens
//! are available" is "there are no more tokens").

use super::sentence::{Token, verb_index};

/// Comparative words that start a restriction inside a noun phrase.
const COMPARATIVES: &[&str] = &["less", "greater", "smaller", "larger", "bigger", "fewer", "more"];

/// Sign words that precede the noun they restrict ("a negative timeout").
const SIGNS: &[&str] = &["negative", "positive", "nonpositive", "non-positive", "nonnegative", "non-negative"];

/// Passive verbs that only say a value was handed over.
const HANDED: &[&str] = &["specified", "given", "passed", "supplied", "provided", "used"];

fn word(text: &str) -> Token {
    Token { text: text.into(), code: false }
}

/// "a content length less than zero is specified" → "a content length is
/// less than zero"; "a negative timeout is given" → "a timeout is
/// negative". `None` unless the part is a passive of [`HANDED`] whose
/// subject holds such a restriction.
pub fn restriction_in_subject(part: &[Token]) -> Option<Vec<Token>> {
    let v = verb_index(part)?;
    let tail = &part[v..];
    let copula = ["is", "are", "was", "were"].iter().any(|w| tail[0].is(w));
    if tail.len() != 2 || !copula || !HANDED.iter().any(|w| tail[1].is(w)) {
        return None;
    }
    let subject = &part[..v];
    let is = || word("is");
    let comparative = subject
        .iter()
        .position(|t| COMPARATIVES.iter().any(|w| t.is(w)))
        .filter(|&k| k > 0 && subject.get(k + 1).is_some_and(|t| t.is("than")));
    if let Some(k) = comparative {
        return Some([&subject[..k], &[is()], &subject[k..]].concat());
    }
    let k = subject.iter().position(|t| SIGNS.iter().any(|w| t.is(w))).filter(|&k| k + 1 < subject.len())?;
    Some([&subject[..k], &subject[k + 1..], &[is(), subject[k].clone()]].concat())
}

/// "no more tokens are available", "no more elements exist" → "there are
/// no more tokens" (a state of the receiver).
pub fn absence_as_subject(part: &[Token]) -> Option<Vec<Token>> {
    let v = verb_index(part)?;
    let (subject, tail) = (&part[..v], &part[v..]);
    let no_more = subject.len() >= 3 && subject[0].is("no") && subject[1].is("more");
    let available = match tail {
        [be, adj] => (be.is("is") || be.is("are")) && (adj.is("available") || adj.is("left")),
        [exist] => exist.is("exist") || exist.is("exists"),
        _ => false,
    };
    (no_more && available).then(|| [&[word("there"), word("are")], subject].concat())
}

#[cfg(test)]
mod tests {
    use super::super::testctx::{Owned, method, shown, throws_triggers};

    #[test]
    fn a_restriction_in_the_subject_of_a_passive_is_the_predicate() {
        let http = Owned::new("HttpURLConnection", "setFixedLengthStreamingMode", &[("int", "contentLength")], vec![]);
        let t = throws_triggers(&http, "if a content length less than zero is specified");
        assert_eq!(shown(&t), [("T2".to_string(), "contentLength < 0".to_string())]);
        let wait = Owned::new("Object", "wait", &[("long", "timeout")], vec![]);
        let t = throws_triggers(&wait, "if a negative timeout is given");
        assert_eq!(shown(&t), [("T2".to_string(), "timeout < 0".to_string())]);
    }

    #[test]
    fn no_more_available_is_a_state_of_the_receiver() {
        let scanner = Owned::new("Scanner", "next", &[], vec![method("hasNext", &[], "boolean")]);
        let t = throws_triggers(&scanner, "if no more tokens are available");
        assert_eq!(shown(&t), [("T3".to_string(), "!this.hasNext()".to_string())]);
    }
}
