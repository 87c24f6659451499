//! Strings that match the regular expressions among a class's string
//! constants: a validator that keeps `"^(\\d{1,3})\\.(\\d{1,3})…$"` takes
//! only inputs no random string or mutation of a constant is likely to be,
//! so samples of the language join the static pool. (EvoSuite reaches such
//! branches with a regex distance over an automaton,
//! `RegexDistanceUtils`; sampling the language is the seeding half of it.)
//!
//! Java's syntax is read by `regex-syntax` after a translation of what it
//! does not share: POSIX classes (`\p{Alpha}`, ASCII in Java) become ASCII
//! classes and possessive quantifiers greedy ones; anchors are dropped and
//! every class is narrowed to printable ASCII where it has such characters,
//! so `\d` gives `0`-`9` and `[^:]` no control characters. Patterns the
//! parser still rejects (back-references, look-arounds) give no samples.

use rand::{Rng, SeedableRng};
use regex_syntax::hir::{Class, ClassBytes, ClassBytesRange, ClassUnicode, ClassUnicodeRange, Hir, HirKind};

/// The most patterns of one class that are sampled.
const MAX_PATTERNS: usize = 24;
/// Samples per pattern.
const SAMPLES: usize = 4;
/// The most repetitions of a quantifier beyond its minimum (`*`, `+`,
/// `{n,}`, `{n,m}`).
const MAX_REPEAT: u32 = 6;
/// The longest sample kept, in bytes.
const MAX_LEN: usize = 200;
/// The longest string a sampled language may hold once its repetitions
/// are bounded, in bytes: sampling costs a draw per byte, and a pattern
/// the search built (`(a{0,900}){0,900}`) would otherwise draw millions.
const MAX_LANGUAGE_LEN: usize = 16 * MAX_LEN;

/// Java's POSIX character classes (ASCII-only unless `UNICODE_CHARACTER_CLASS`,
/// `java.util.regex.Pattern`'s documentation) as bracket expressions.
const POSIX: [(&str, &str); 13] = [
    ("Lower", "[a-z]"),
    ("Upper", "[A-Z]"),
    ("ASCII", r"[\x00-\x7F]"),
    ("Alpha", "[a-zA-Z]"),
    ("Digit", "[0-9]"),
    ("Alnum", "[a-zA-Z0-9]"),
    ("Punct", r"[!-/:-@\[-`{-~]"),
    ("Graph", r"[!-~]"),
    ("Print", r"[ -~]"),
    ("Blank", r"[ \t]"),
    ("Cntrl", r"[\x00-\x1F\x7F]"),
    ("XDigit", "[0-9a-fA-F]"),
    ("Space", r"[ \t\n\x0B\f\r]"),
];

/// Samples of the regular expressions among `strings` (at most
/// [`MAX_PATTERNS`] patterns, [`SAMPLES`] distinct samples each, none equal
/// to a string already in `strings`), in a fixed order: each pattern's
/// samples come from a generator seeded by the pattern's text.
pub fn regex_samples(strings: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for pattern in strings.iter().filter(|s| looks_like_regex(s)).take(MAX_PATTERNS) {
        for sample in samples(pattern, SAMPLES) {
            if !strings.contains(&sample) && !out.contains(&sample) {
                out.push(sample);
            }
        }
    }
    out
}

/// Up to `n` distinct strings matched by the Java regular expression
/// `pattern`; none when it does not parse or matches only one string.
pub fn samples(pattern: &str, n: usize) -> Vec<String> {
    let Some(hir) = parse(pattern) else { return Vec::new() };
    if matches!(hir.kind(), HirKind::Literal(_) | HirKind::Empty) || !cheap_to_sample(&hir) {
        return Vec::new();
    }
    let Ok(generator) = rand_regex::Regex::with_hir(hir, MAX_REPEAT) else { return Vec::new() };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(fnv1a(pattern.as_bytes()));
    let mut out: Vec<String> = Vec::new();
    for _ in 0..4 * n {
        let sample: String = rng.sample(&generator);
        if sample.len() <= MAX_LEN && !out.contains(&sample) {
            out.push(sample);
            if out.len() == n {
                break;
            }
        }
    }
    out
}

/// Whether every string of `hir`'s language is short enough to draw: no
/// longer than [`MAX_LANGUAGE_LEN`], and the shortest no longer than
/// [`MAX_LEN`] (a longer sample would be dropped anyway).
fn cheap_to_sample(hir: &Hir) -> bool {
    let props = hir.properties();
    props.minimum_len().is_some_and(|n| n <= MAX_LEN) && props.maximum_len().is_some_and(|n| n <= MAX_LANGUAGE_LEN)
}

/// Whether `s` uses the syntax of a regular expression beyond literal text
/// and `.` (so messages and plain words are not sampled).
fn looks_like_regex(s: &str) -> bool {
    const TOKENS: [&str; 14] =
        [r"\d", r"\w", r"\s", r"\p{", r"\.", "[^", "]*", "]+", "]{", ")*", ")+", ")?", "*)", "+)"];
    s.len() <= 4096 && (TOKENS.iter().any(|t| s.contains(t)) || (s.starts_with('^') && s.ends_with('$')))
}

/// `pattern` translated from Java's syntax and parsed, without anchors and
/// with classes narrowed to printable ASCII.
fn parse(pattern: &str) -> Option<Hir> {
    let hir = regex_syntax::ParserBuilder::new().build().parse(&java_to_rust(pattern)).ok()?;
    Some(generable(hir))
}

/// Java-only syntax rewritten: `\p{Alpha}`-style POSIX classes, possessive
/// quantifiers (`*+`, `++`, `?+`, `}+`) made greedy.
fn java_to_rust(pattern: &str) -> String {
    let mut text = pattern.to_string();
    for (name, class) in POSIX {
        text = text.replace(&format!(r"\p{{{name}}}"), class).replace(&format!(r"\p{{Is{name}}}"), class);
    }
    let mut out = String::with_capacity(text.len());
    let mut escaped = false;
    for c in text.chars() {
        let possessive = !escaped && c == '+' && matches!(out.chars().last(), Some('*' | '+' | '?' | '}'));
        if !possessive || out.ends_with("\\+") {
            out.push(c);
        }
        escaped = !escaped && c == '\\';
    }
    out
}

/// `hir` with look-arounds (anchors, word boundaries) replaced by the empty
/// string, every class narrowed to printable ASCII where that leaves
/// characters, and every repetition bounded to at most [`MAX_REPEAT`] more
/// than its minimum (a sublanguage: `a{2,}` gives `aa` to `aaaaaaaa`):
/// what `rand_regex` can generate, and what a test reads well.
fn generable(hir: Hir) -> Hir {
    match hir.into_kind() {
        HirKind::Look(_) => Hir::empty(),
        HirKind::Class(class) => Hir::class(printable(class)),
        HirKind::Repetition(mut r) => {
            let most = r.min.saturating_add(MAX_REPEAT);
            r.max = Some(r.max.map_or(most, |max| max.min(most)));
            r.sub = Box::new(generable(*r.sub));
            Hir::repetition(r)
        }
        HirKind::Capture(mut c) => {
            c.sub = Box::new(generable(*c.sub));
            Hir::capture(c)
        }
        HirKind::Concat(subs) => Hir::concat(subs.into_iter().map(generable).collect()),
        HirKind::Alternation(subs) => Hir::alternation(subs.into_iter().map(generable).collect()),
        HirKind::Literal(l) => Hir::literal(l.0),
        HirKind::Empty => Hir::empty(),
    }
}

/// `class` intersected with `' '..='~'`, or `class` when that is empty.
fn printable(class: Class) -> Class {
    match class {
        Class::Unicode(mut c) => {
            let original = c.clone();
            c.intersect(&ClassUnicode::new([ClassUnicodeRange::new(' ', '~')]));
            Class::Unicode(if c.ranges().is_empty() { original } else { c })
        }
        Class::Bytes(mut c) => {
            let original = c.clone();
            c.intersect(&ClassBytes::new([ClassBytesRange::new(b' ', b'~')]));
            Class::Bytes(if c.ranges().is_empty() { original } else { c })
        }
    }
}

/// FNV-1a of `bytes`: a seed that depends on the pattern only.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the `regex` engine, reading the translated pattern, matches
    /// all of `s`.
    fn matches_java(pattern: &str, s: &str) -> bool {
        let anchored = format!("^(?:{})$", java_to_rust(pattern));
        ::regex::Regex::new(&anchored).unwrap().is_match(s)
    }

    #[test]
    fn an_ipv4_pattern_gives_dotted_quads() {
        let ipv4 = r"^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$";
        let got = samples(ipv4, 4);
        assert_eq!(got.len(), 4, "{got:?}");
        for s in &got {
            let parts: Vec<&str> = s.split('.').collect();
            assert_eq!(parts.len(), 4, "{s}");
            assert!(parts.iter().all(|p| (1..=3).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit())), "{s}");
            assert!(matches_java(ipv4, s));
        }
        assert_eq!(got, samples(ipv4, 4), "the same pattern gives the same samples");
    }

    #[test]
    fn posix_classes_and_possessive_quantifiers_are_read_as_java_reads_them() {
        for s in samples(r"^\p{Alpha}[\p{Alnum}\-\.]*+:\d++$", 4) {
            let (scheme, port) = s.split_once(':').unwrap();
            assert!(scheme.as_bytes()[0].is_ascii_alphabetic(), "{s}");
            assert!(scheme.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.'), "{s}");
            assert!(!port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()), "{s}");
            assert!(matches_java(r"^\p{Alpha}[\p{Alnum}\-\.]*+:\d++$", &s), "{s}");
        }
    }

    #[test]
    fn repetitions_are_bounded_and_long_languages_give_no_samples() {
        let bounded = parse(r"[a-z]{2,}(\.[a-z]{1,900})*").unwrap();
        assert_eq!(bounded.properties().maximum_len(), Some(8 + 6 * (1 + 7)), "{bounded:?}");
        for s in samples(r"[a-z]{2,}(\.[a-z]{1,900})*", 4) {
            assert!(matches_java(r"[a-z]{2,}(\.[a-z]{1,900})*", &s), "{s}");
        }
        assert_eq!(samples(r"x{100000}", 4), Vec::<String>::new(), "the shortest sample is too long");
        let nested = r"((((a{0,9}){0,9}){0,9}){0,9}){0,9}";
        assert_eq!(samples(nested, 4), Vec::<String>::new(), "the language holds strings of 6^5 bytes");
        assert!(!samples(r"(a{0,9}){0,9}", 4).is_empty());
    }

    #[test]
    fn messages_literals_and_unsupported_patterns_give_no_samples() {
        let strings: Vec<String> =
            ["Invalid value.", "hello", r"(a)\1", r"^(?=x)y$"].iter().map(|s| s.to_string()).collect();
        assert_eq!(regex_samples(&strings), Vec::<String>::new());
        let negated = samples(r"^[^:]+$", 8);
        assert!(
            !negated.is_empty() && negated.iter().all(|s| s.bytes().all(|b| (b' '..=b'~').contains(&b) && b != b':'))
        );
    }
}
