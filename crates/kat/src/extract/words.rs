//! Lexical tools for entity linking: identifier and phrase splitting into
//! stemmed words, and the similarity measure used instead of KAT's
//! fine-tuned word2vec model (no model download; see ARCHITECTURE.md).
//!
//! Similarity of a mention to a declaration name is the containment of the
//! name's content words in the mention's words (after stemming and a small
//! synonym table of Javadoc idioms, e.g. "more elements" ~ `next`).

/// Words that carry no meaning for linking.
const STOP: &[&str] = &[
    "the",
    "a",
    "an",
    "this",
    "that",
    "these",
    "those",
    "of",
    "to",
    "in",
    "on",
    "for",
    "by",
    "with",
    "its",
    "it",
    "be",
    "been",
    "being",
    "any",
    "all",
    "some",
    "specified",
    "given",
    "supplied",
    "provided",
    "argument",
    "parameter",
];

/// Javadoc idioms mapped onto the word a method name uses.
/// "backed by an accessible array" is how `java.nio` says `hasArray()`.
const SYNONYMS: &[(&str, &str)] =
    &[("more", "next"), ("closed", "close"), ("remaining", "remain"), ("elements", "element"), ("backed", "has")];

/// Splits identifiers (`hasMoreElements`) and phrases into lower-case,
/// stemmed words.
pub fn words(s: &str) -> Vec<String> {
    // A possessive "'s" is no word ("the buffer's position" must not name `s`).
    let s = without_possessives(s);
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in s.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && prev_lower && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
            cur.extend(c.to_lowercase());
        } else {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out.into_iter().map(|w| stem(&w)).collect()
}

/// "the buffer's limit" → "the buffer limit".
fn without_possessives(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let apostrophe = matches!(chars[i], '\'' | '\u{2019}');
        let s_end =
            chars.get(i + 1).is_some_and(|c| *c == 's') && chars.get(i + 2).is_none_or(|c| !c.is_alphanumeric());
        if apostrophe && s_end {
            i += 2;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// A light stemmer: synonyms, then plural and participle endings (the
/// result is compared with [`same_word`], which allows for a dropped `e`).
pub fn stem(w: &str) -> String {
    let w = SYNONYMS.iter().find(|(from, _)| *from == w).map(|(_, to)| *to).unwrap_or(w);
    let strip =
        |suffix: &str, with: &str| w.strip_suffix(suffix).filter(|b| b.len() >= 3).map(|b| format!("{b}{with}"));
    strip("ies", "y")
        .or_else(|| strip("sses", "ss"))
        .or_else(|| strip("ed", ""))
        .or_else(|| if w.ends_with("ss") { None } else { strip("s", "") })
        .unwrap_or_else(|| w.to_string())
}

/// Whether two stemmed words are the same word: equal, or one is the
/// other plus at most two letters (`pars`/`parse`), both at least 4 long.
pub fn same_word(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    a == b || (short.len() >= 4 && long.starts_with(short) && long.len() - short.len() <= 2)
}

/// Content words: [`words`] without stop words.
pub fn content(s: &str) -> Vec<String> {
    words(s).into_iter().filter(|w| !STOP.contains(&w.as_str())).collect()
}

/// Words of declared names that carry no meaning for linking.
const NAME_STOP: &[&str] = &["by", "of", "to", "for", "with", "in", "on", "get"];

/// Similarity (0..=1) of a mention to a declared name: the share of the
/// name's words (prepositions and `get` left out) found among the
/// mention's words.
pub fn similarity(mention: &str, name: &str) -> f32 {
    let m = words(mention);
    let n: Vec<String> = words(name).into_iter().filter(|w| !NAME_STOP.contains(&w.as_str())).collect();
    if n.is_empty() {
        return 0.0;
    }
    let hits = n.iter().filter(|w| m.iter().any(|x| same_word(x, w))).count();
    hits as f32 / n.len() as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split_and_stem() {
        assert_eq!(words("hasMoreElements"), ["has", "next", "element"]);
        assert_eq!(words("initialCapacity"), ["initial", "capacity"]);
        assert_eq!(words("the buffer's current position"), ["the", "buffer", "current", "position"]);
        assert_eq!(words("the `beginIndex` is closed"), ["the", "begin", "index", "is", "close"]);
        assert_eq!(stem("supported"), "support");
        assert_eq!(stem("entries"), "entry");
        assert_eq!(stem("class"), "class");
        assert!(same_word(&stem("parsed"), &stem("parse")));
        assert!(!same_word("next", "nextint"));
    }

    #[test]
    fn similarity_is_containment_of_the_name() {
        assert_eq!(similarity("the iteration has no more elements", "hasNext"), 1.0);
        assert_eq!(similarity("the initial capacity", "initialCapacity"), 1.0);
        assert_eq!(similarity("the index", "fromIndex"), 0.5);
        assert_eq!(similarity("the character does not occur", "size"), 0.0);
    }
}
