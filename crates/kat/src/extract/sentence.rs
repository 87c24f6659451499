//! Sentence handling: tokens of normalised Javadoc text, the first
//! sentence, the condition part of a clause, and the split of a condition
//! into triggers at conjunctions (KAT section 3.1, "pre-processing"), with
//! omitted subjects and predicates completed from the neighbouring part.

use crate::graph::Joiner;

/// A word, a punctuation mark, or a back-quoted code span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The word, mark or code (without back-quotes).
    pub text: String,
    /// Whether it was a back-quoted code span.
    pub code: bool,
}

impl Token {
    /// Whether this is the (case-insensitive) word `w`.
    pub fn is(&self, w: &str) -> bool {
        !self.code && self.text.eq_ignore_ascii_case(w)
    }

    fn word(text: &str) -> Token {
        Token { text: text.to_string(), code: false }
    }
}

/// Splits normalised text into tokens; punctuation `, ; ( ) .` and `:`
/// outside code spans are tokens of their own (a `.` inside a word such as
/// `e.g.` is kept).
pub fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('`') {
            let end = after.find('`').unwrap_or(after.len());
            out.push(Token { text: after[..end].to_string(), code: true });
            rest = after.get(end + 1..).unwrap_or("");
            continue;
        }
        let c = rest.chars().next().unwrap();
        if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
        } else if matches!(c, ',' | ';' | '(' | ')' | ':') {
            out.push(Token::word(&c.to_string()));
            rest = &rest[1..];
        } else {
            let end = rest.find(|ch: char| ch.is_whitespace() || matches!(ch, ',' | ';' | '(' | ')' | '`' | ':'));
            let end = end.unwrap_or(rest.len());
            let mut word = &rest[..end];
            rest = &rest[end..];
            if word.len() > 1 && word.ends_with('.') && !word[..word.len() - 1].contains('.') {
                word = &word[..word.len() - 1];
                out.push(Token::word(word));
                out.push(Token::word("."));
            } else {
                out.push(Token::word(word));
            }
        }
    }
    out
}

/// Joins tokens back into text (code spans back-quoted).
pub fn join(tokens: &[Token]) -> String {
    let mut s = String::new();
    for t in tokens {
        let glue = matches!(t.text.as_str(), "," | ";" | ")" | "." | ":") && !t.code;
        if !s.is_empty() && !glue && !s.ends_with('(') {
            s.push(' ');
        }
        if t.code {
            s.push('`');
            s.push_str(&t.text);
            s.push('`');
        } else {
            s.push_str(&t.text);
        }
    }
    s
}

/// The first sentence: up to the first `.` token followed by a capitalised
/// word or the end (abbreviations like `e.g.` are single tokens).
pub fn first_sentence(tokens: &[Token]) -> &[Token] {
    for (i, t) in tokens.iter().enumerate() {
        if t.is(".") {
            let after = if tokens.get(i + 1).is_some_and(|n| n.is("(")) { i + 2 } else { i + 1 };
            let next_capital = tokens.get(after).is_none_or(|n| n.code || n.text.starts_with(char::is_uppercase));
            if next_capital {
                return &tokens[..i];
            }
        }
    }
    tokens
}

/// The condition of an exception clause: the words after a leading
/// `if`/`when`/`where` (or after the first such word, or the whole text).
pub fn throws_condition(tokens: &[Token]) -> &[Token] {
    let starts = ["if", "when", "whenever", "where", "in", "case"];
    let cond = match tokens.iter().position(|t| t.is("if") || t.is("when") || t.is("whenever")) {
        Some(i) => skip_only_if(&tokens[i + 1..]),
        None if tokens.first().is_some_and(|t| starts.iter().any(|s| t.is(s))) => &tokens[1..],
        None => tokens,
    };
    // "any of the following is true: <li>..." lists: the items.
    match cond.iter().position(|t| t.is(":")) {
        Some(c) if cond[..c].iter().any(|t| t.is("following")) => &cond[c + 1..],
        _ => cond,
    }
}

/// Whether a later sentence of an exception clause adds a case of its
/// own: it has an "if"/"when" and says the exception is "also" thrown or
/// "may be thrown" ("It may also be thrown if the stream was closed",
/// "Also thrown if ...", "Implementations may throw this exception if
/// ..."), or starts with "Or if" or "In particular".
pub fn adds_a_case(sentence: &[Token]) -> bool {
    let condition = sentence.iter().any(|t| t.is("if") || t.is("when"));
    // "Implementations may throw this exception if ...".
    let thrown = sentence.iter().any(|t| t.is("thrown") || t.is("throw"));
    let also = sentence.iter().take_while(|t| !(t.is("if") || t.is("when"))).any(|t| t.is("also"));
    let or_if = sentence.first().is_some_and(|t| t.is("or")) && sentence.get(1).is_some_and(|t| t.is("if"));
    // "In particular, if any of the following is true: ...".
    let particular =
        sentence.first().is_some_and(|t| t.is("in")) && sentence.get(1).is_some_and(|t| t.is("particular"));
    condition && (also || thrown || or_if || particular)
}

/// "if the key or value is null, and this map does not permit null keys
/// or values": a top-level ", and"/", but" that follows an "or" list and
/// starts a clause of its own scopes over every alternative before it.
/// Returns (the alternatives, the scoped clause).
pub fn scoped_conjunction(tokens: &[Token]) -> Option<(&[Token], &[Token])> {
    let cleaned_or = |part: &[Token]| top_level(part).any(|(i, t)| t.is("or") && !protected(part, i));
    let mut depth = 0i32;
    for (i, t) in tokens.iter().enumerate() {
        if t.is("(") {
            depth += 1;
        } else if t.is(")") {
            depth = (depth - 1).max(0);
        }
        let conj = tokens.get(i + 1).is_some_and(|n| n.is("and") || n.is("but"));
        if depth == 0 && t.is(",") && conj {
            let (left, right) = (&tokens[..i], &tokens[i + 2..]);
            if cleaned_or(left) && verb_index(left).is_some() && verb_index(right).is_some() {
                return Some((left, right));
            }
        }
    }
    None
}

/// "if and only if", "if, and only if,": the words after it.
fn skip_only_if(tokens: &[Token]) -> &[Token] {
    let comma = |t: &[Token]| if t.first().is_some_and(|c| c.is(",")) { 1 } else { 0 };
    let k = comma(tokens);
    let iff = tokens.len() > k + 3 && tokens[k].is("and") && tokens[k + 1].is("only") && tokens[k + 2].is("if");
    if !iff {
        return tokens;
    }
    let rest = &tokens[k + 3..];
    &rest[comma(rest)..]
}

/// Splits a `@return` text into (value, condition) pairs: "`-1` if the
/// character does not occur" gives (`-1`, "the character does not
/// occur"); "the element, or `null` if none" gives (`null`, "none");
/// "zero if A, a negative value if B, or a positive value if C" gives three
/// pairs. Text after "otherwise"/"else" and "and `false` otherwise" tails
/// are dropped.
pub fn return_conditions(tokens: &[Token]) -> Vec<(String, Vec<Token>)> {
    let mut out = Vec::new();
    let mut start = 0;
    while let Some(at) = tokens[start..].iter().position(|t| t.is("if") || t.is("when")).map(|p| start + p) {
        let end = condition_end(tokens, at);
        let mut cond: Vec<Token> = skip_only_if(&tokens[at + 1..end]).to_vec();
        while cond.last().is_some_and(|t| t.is(",") || t.is(".") || t.is("and") || t.is("or")) {
            cond.pop();
        }
        let mut before = &tokens[start..at];
        while before.last().is_some_and(|t| t.is(",")) {
            before = &before[..before.len() - 1];
        }
        let from = before.iter().rposition(|t| t.is("or") || t.is(",") || t.is(";")).map_or(0, |o| o + 1);
        let value: Vec<Token> =
            before[from..].iter().filter(|t| !t.is(",")).skip_while(|t| t.is("and") || t.is("or")).cloned().collect();
        if !cond.is_empty() && !value.is_empty() && value.len() <= 6 {
            out.push((join(&value), cond));
        }
        start = end;
        if start >= tokens.len() || tokens[start].is("otherwise") || tokens[start].is("else") {
            break;
        }
    }
    out
}

/// Where the condition that starts after `at` ends: at "otherwise",
/// "else", ";", "and/or ⟨value⟩ otherwise", or a ", ⟨value⟩ if" that starts
/// the next value.
fn condition_end(tokens: &[Token], at: usize) -> usize {
    let value_word = |t: &Token| {
        t.code || t.text.parse::<i64>().is_ok() || ["true", "false", "null", "zero", "a", "the"].iter().any(|w| t.is(w))
    };
    // ", `-1` if" or ", or `null` if": the next value ("or it cannot be
    // determined if" is no value).
    let starts_value = |k: usize| {
        let or = tokens.get(k).is_some_and(|n| n.is("or"));
        tokens.get(k + usize::from(or)).is_some_and(value_word)
    };
    (at + 1..tokens.len())
        .find(|&i| {
            let t = &tokens[i];
            let next_if =
                |from: usize| tokens[from..tokens.len().min(from + 8)].iter().any(|n| n.is("if") || n.is("when"));
            let tail = (t.is("and") || t.is("or"))
                && tokens.get(i + 1).is_some_and(value_word)
                && tokens.get(i + 2).is_some_and(|n| n.is("otherwise"));
            t.is("otherwise")
                || t.is("else")
                || t.is(";")
                || tail
                || (t.is(",") && starts_value(i + 1) && next_if(i + 1))
        })
        .unwrap_or(tokens.len())
}

/// Verbs that start the predicate of a trigger.
const VERBS: &[&str] = &[
    "is",
    "are",
    "was",
    "were",
    "be",
    "does",
    "do",
    "did",
    "has",
    "have",
    "had",
    "contains",
    "contain",
    "contained",
    "exceeds",
    "exceed",
    "equals",
    "cannot",
    "can",
    "could",
    "would",
    "will",
    "may",
    "must",
    "refers",
    "represents",
    "specifies",
    "occurs",
    "occur",
    "fails",
    "fail",
    "matches",
    "match",
    "returns",
    "reaches",
    "reached",
    "overflows",
    "denies",
    "lacks",
    "prevents",
    "throws",
    "isn't",
    "aren't",
    "doesn't",
    "don't",
    "hasn't",
    "haven't",
    "differs",
    "results",
    "describes",
    "denotes",
    "indicates",
    "requires",
    "uses",
    "holds",
    "exists",
    "exist",
    // Operators written in plain text: "`m` <= 0".
    "<",
    "<=",
    ">",
    ">=",
    "==",
    "!=",
];

/// Words that start a predicate whose subject (and copula) was omitted:
/// "negative or *not less than* the length".
const PREDICATE_STARTS: &[&str] = &[
    "not",
    "negative",
    "positive",
    "zero",
    "greater",
    "larger",
    "bigger",
    "less",
    "smaller",
    "null",
    "equal",
    "outside",
    "out",
    "beyond",
    "empty",
    "too",
    "nonpositive",
    "non-positive",
    "nonnegative",
    "non-negative",
    "nan",
    "infinite",
];

/// The index of the first verb outside code spans and parentheses.
pub fn verb_index(tokens: &[Token]) -> Option<usize> {
    let mut depth = 0i32;
    for (i, t) in tokens.iter().enumerate() {
        match t.text.as_str() {
            "(" if !t.code => depth += 1,
            ")" if !t.code => depth = (depth - 1).max(0),
            _ if depth == 0 && !t.code && VERBS.iter().any(|v| t.is(v)) => return Some(i),
            _ => {}
        }
    }
    None
}

/// "if parallelism less than or equal to zero": a part without a verb
/// whose predicate starts with a comparative or sign word gets its copula
/// ("parallelism is less than ..."); `None` when it has a verb or no such
/// word after a subject.
pub fn with_copula(part: &[Token]) -> Option<Vec<Token>> {
    if verb_index(part).is_some() {
        return None;
    }
    let words = ["less", "greater", "larger", "smaller", "negative", "positive", "zero", "null", "equal"];
    let k = part.iter().position(|t| words.iter().any(|w| t.is(w))).filter(|&k| k > 0)?;
    let mut out = part[..k].to_vec();
    out.push(Token::word("is"));
    out.extend_from_slice(&part[k..]);
    Some(out)
}

fn starts_predicate(tokens: &[Token]) -> bool {
    tokens.first().is_some_and(|t| VERBS.iter().chain(PREDICATE_STARTS).any(|v| t.is(v)))
}

/// The result of splitting a condition.
#[derive(Debug, PartialEq)]
pub struct Split {
    /// How the parts combine.
    pub joiner: Joiner,
    /// One token list per trigger; a part joined to the next by "and"
    /// inside an "or" list is kept as one part with its "and".
    pub parts: Vec<Vec<Token>>,
}

/// Splits a condition at top-level "or" (else "and"), commas and `;`,
/// protecting "greater than or equal to", "between x and y" and
/// parentheses, then completes omitted subjects and predicates.
pub fn split(tokens: &[Token]) -> Split {
    let cleaned: Vec<Token> = drop_noise(tokens);
    if listed_subject(&cleaned) {
        return Split { joiner: Joiner::Or, parts: vec![trim_part(cleaned)] };
    }
    let has = |w: &str| top_level(&cleaned).any(|(i, t)| t.is(w) && !protected(&cleaned, i));
    let joiner = if has("or") || !(has("and") || has("but")) { Joiner::Or } else { Joiner::And };
    let is_sep = |t: &Token| if joiner == Joiner::Or { t.is("or") } else { t.is("and") || t.is("but") };
    let mut parts: Vec<Vec<Token>> = vec![Vec::new()];
    let mut depth = 0i32;
    for (i, t) in cleaned.iter().enumerate() {
        let boundary = depth == 0
            && !t.code
            && ((is_sep(t) && !protected(&cleaned, i)) || t.is(";") || (t.is(",") && comma_splits(&cleaned, i)));
        if t.is("(") {
            depth += 1;
        } else if t.is(")") {
            depth = (depth - 1).max(0);
        }
        if boundary {
            parts.push(Vec::new());
        } else {
            parts.last_mut().unwrap().push(t.clone());
        }
    }
    let mut parts: Vec<Vec<Token>> = parts.into_iter().map(trim_part).filter(|p| !p.is_empty()).collect();
    complete(&mut parts);
    Split { joiner, parts }
}

/// "the preconditions on the `index`, `offset`, and `length` parameters
/// do not hold", "the preconditions on `start` and `end` do not hold": a
/// list inside one subject that ends in a plural noun naming its items, or
/// a list of code spans after "on" following a plural noun, before the
/// only verb, is no split.
fn listed_subject(tokens: &[Token]) -> bool {
    let Some(v) = verb_index(tokens) else { return false };
    let plural = v > 0 && ["parameters", "arguments"].iter().any(|w| tokens[v - 1].is(w));
    let after = &tokens[v..];
    (plural || code_list_after_on(&tokens[..v]))
        && !after.iter().any(|t| t.is("or") || t.is("and") || t.is(",") || t.is(";"))
}

/// "the preconditions on `start` and `end`": a plural noun, "on", then
/// only code spans, commas, "and" and "the".
fn code_list_after_on(subject: &[Token]) -> bool {
    let Some(on) = subject.iter().position(|t| t.is("on")) else { return false };
    let plural = on > 0 && !subject[on - 1].code && subject[on - 1].text.ends_with('s');
    let list = &subject[on + 1..];
    let item = |t: &Token| t.code || t.is(",") || t.is("and") || t.is("the");
    plural && list.iter().filter(|t| t.code).count() >= 2 && list.iter().all(item)
}

fn top_level(tokens: &[Token]) -> impl Iterator<Item = (usize, &Token)> {
    let mut depth = 0i32;
    tokens.iter().enumerate().filter(move |(_, t)| {
        if t.is("(") {
            depth += 1;
        } else if t.is(")") {
            depth = (depth - 1).max(0);
        }
        depth == 0
    })
}

/// Leading "either"/"both", "(optional)" remarks and trailing dots.
fn drop_noise(tokens: &[Token]) -> Vec<Token> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        let optional = t.is("(")
            && tokens.get(i + 1).is_some_and(|n| n.is("optional"))
            && tokens.get(i + 2).is_some_and(|n| n.is(")"));
        if optional {
            i += 3;
            continue;
        }
        if !(t.is("either") || t.is("both") || t.is("whether")) {
            out.push(t.clone());
        }
        i += 1;
    }
    while out.last().is_some_and(|t| t.is(".") || t.is(",")) {
        out.pop();
    }
    out
}

/// Whether the conjunction at `i` belongs to a fixed phrase.
fn protected(tokens: &[Token], i: usize) -> bool {
    let next = |k: usize| tokens.get(i + k);
    let prev = |k: usize| i.checked_sub(k).and_then(|j| tokens.get(j));
    let or_equal = tokens[i].is("or") && next(1).is_some_and(|n| n.is("equal") || n.is("equals"));
    // "equal to or larger than".
    let comparative = ["greater", "larger", "less", "smaller", "more", "fewer", "bigger", "higher", "lower"];
    let equal_or = tokens[i].is("or")
        && prev(1).is_some_and(|p| p.is("to"))
        && prev(2).is_some_and(|p| p.is("equal"))
        && next(1).is_some_and(|n| comparative.iter().any(|c| n.is(c)));
    let and_or = next(1).is_some_and(|n| n.text.starts_with('/')) || prev(1).is_some_and(|p| p.text.ends_with('/'));
    let between = tokens[i].is("and") && tokens[..i].iter().rev().take(4).any(|t| t.is("between"));
    let or_more = tokens[i].is("or")
        && next(1).is_some_and(|n| n.is("more") || n.is("fewer"))
        && prev(1).is_some_and(|p| p.is("one"));
    or_equal || equal_or || and_or || between || or_more || one_of_list(tokens, i) || joint_subject(tokens, i)
}

/// "the first and second array are equal", "`a` and `b` are the same": an
/// "and" inside the subject of a reciprocal predicate, no conjunction of
/// conditions.
fn joint_subject(tokens: &[Token], i: usize) -> bool {
    if !tokens[i].is("and") || verb_index(&tokens[..i]).is_some() {
        return false;
    }
    let Some(v) = verb_index(&tokens[i + 1..]).map(|v| i + 1 + v) else { return false };
    let reciprocal = ["equal", "same", "identical", "equivalent"];
    (tokens[v].is("are") || tokens[v].is("is"))
        && tokens[v + 1..].iter().take(3).any(|t| reciprocal.iter().any(|r| t.is(r)))
}

/// "one of "maxdepth", "maxrefs", or "maxarray"": the commas and "or" of
/// the options listed after "one of" (quoted or code items) split nothing.
fn one_of_list(tokens: &[Token], i: usize) -> bool {
    // Items: code, quoted strings, constants written in capitals (`PRIMARY`).
    let value = |t: &Token| {
        t.code
            || t.text.starts_with('"')
            || (t.text.len() > 1 && t.text.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
    };
    let item = |t: &Token| value(t) || t.is(",") || t.is("or");
    let start = tokens[..i].iter().rposition(|t| !item(t)).map_or(0, |k| k + 1);
    let next_item = tokens.get(i + 1).is_some_and(|t| value(t) || t.is("or"));
    start >= 2 && tokens[start - 2].is("one") && tokens[start - 1].is("of") && next_item
}

/// A top-level comma splits when it separates list items or precedes a
/// conjunction or a new "if"; not before a relative "which" clause.
fn comma_splits(tokens: &[Token], i: usize) -> bool {
    let next = tokens.get(i + 1);
    // ", which is between 0 and 65535": a relative clause about the part.
    if next.is_some_and(|n| n.is("which")) || one_of_list(tokens, i) {
        return false;
    }
    next.is_some_and(|n| n.is("or") || n.is("and") || n.is("if") || n.is("when"))
        || tokens[i + 1..].iter().any(|t| t.is("or") || t.is("and"))
}

/// Drops leading connectives ("or", "if", "when", "and", commas) and a
/// leading "(it) may (also) be thrown if" from a part.
fn trim_part(mut part: Vec<Token>) -> Vec<Token> {
    let thrown = part.iter().position(|t| t.is("thrown")).filter(|&k| {
        let lead = ["it", "this", "exception", "may", "might", "can", "will", "is", "also", "be", "are"];
        part[..k].iter().all(|t| lead.iter().any(|w| t.is(w)))
            && part.get(k + 1).is_some_and(|t| t.is("if") || t.is("when"))
    });
    if let Some(k) = thrown {
        part.drain(..=k);
    }
    while part.first().is_some_and(|t| ["or", "and", "but", "if", "when", ",", "that", "else"].iter().any(|w| t.is(w)))
    {
        part.remove(0);
    }
    while part.last().is_some_and(|t| t.is(",") || t.is(".")) {
        part.pop();
    }
    part
}

/// Completes parts that lack a subject (copied from the previous part,
/// with its copula) or a predicate (copied from the next part).
fn complete(parts: &mut [Vec<Token>]) {
    for i in 1..parts.len() {
        // A lone participle in a list: "broken, unconnected, closed".
        let participle = parts[i].len() == 1 && parts[i][0].text.ends_with("ed");
        let Some(prev) = (0..i).rev().find(|&k| verb_index(&parts[k]).is_some()) else { continue };
        if starts_predicate(&parts[i]) || participle {
            let v = verb_index(&parts[prev]).unwrap();
            let mut subject: Vec<Token> = parts[prev][..v].to_vec();
            let first_is_verb = VERBS.iter().any(|w| parts[i][0].is(w));
            if !first_is_verb {
                subject.push(parts[prev][v].clone());
            }
            subject.append(&mut parts[i]);
            parts[i] = subject;
        }
    }
    for i in (0..parts.len().saturating_sub(1)).rev() {
        if verb_index(&parts[i]).is_none()
            && let Some(v) = verb_index(&parts[i + 1])
        {
            let predicate: Vec<Token> = parts[i + 1][v..].to_vec();
            parts[i].extend(predicate);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> (Joiner, Vec<String>) {
        let toks = tokens(s);
        let sp = split(throws_condition(first_sentence(&toks)));
        (sp.joiner, sp.parts.iter().map(|p| join(p)).collect())
    }

    #[test]
    fn conjunctions_split_with_subjects_and_predicates_completed() {
        let (j, p) = texts("if the `index` argument is negative or not less than the length of this string.");
        assert_eq!(j, Joiner::Or);
        assert_eq!(
            p,
            ["the `index` argument is negative", "the `index` argument is not less than the length of this string"]
        );
        let (_, p) = texts("if `e1` or `e2` is null");
        assert_eq!(p, ["`e1` is null", "`e2` is null"]);
        let (_, p) = texts(
            "if the `beginIndex` is negative, or `endIndex` is larger than the length of this `String` object, or \
             `beginIndex` is larger than `endIndex`.",
        );
        assert_eq!(p.len(), 3);
        assert_eq!(p[2], "`beginIndex` is larger than `endIndex`");
        let (j, p) = texts("if the specified element is null and this list does not permit null elements (optional)");
        assert_eq!((j, p.len()), (Joiner::And, 2));
        let (_, p) = texts("if `index` is greater than or equal to the size. More text here.");
        assert_eq!(p, ["`index` is greater than or equal to the size"]);
        let (_, p) = texts("if the index is out of range (`index < 0 || index >= size()`)");
        assert_eq!(p, ["the index is out of range (`index < 0 || index >= size()`)"]);
        let (_, p) = texts("if `off`, `len` or `off + len` is negative");
        assert_eq!(p, ["`off` is negative", "`len` is negative", "`off + len` is negative"]);
    }

    #[test]
    fn a_relative_which_clause_stays_with_its_part() {
        let (_, p) = texts(
            "if the port parameter is outside the specified range of valid port values, which is between 0 and \
             65535, inclusive.",
        );
        assert_eq!(p.len(), 1);
    }

    #[test]
    fn a_joint_subject_of_equality_is_not_split() {
        let (j, p) = texts("if the first and second array are equal and contain the same elements in the same order");
        assert_eq!((j, p[0].as_str()), (Joiner::And, "the first and second array are equal"));
    }

    #[test]
    fn equal_to_or_larger_than_is_one_comparison() {
        let (_, p) = texts("if `formatElementIndex` is equal to or larger than the number of format elements");
        assert_eq!(p.len(), 1);
    }

    #[test]
    fn the_options_of_one_of_are_no_alternatives() {
        let (_, p) =
            texts(r#"if a limit is missing the name or the name is not one of "maxdepth", "maxrefs", or "maxarray""#);
        assert_eq!(p.len(), 2);
    }

    #[test]
    fn a_later_sentence_on_what_implementations_may_throw_adds_a_case() {
        let toks = tokens("Implementations may throw this exception if a matching element cannot be removed.");
        assert!(adds_a_case(first_sentence(&toks)));
        assert!(!adds_a_case(first_sentence(&tokens("The caller may retry if the lock is held."))));
    }

    #[test]
    fn return_texts_give_value_and_condition() {
        let toks = tokens("the index of the first occurrence, or `-1` if the character does not occur.");
        let rc = return_conditions(&toks);
        assert_eq!(rc[0].0, "`-1`");
        assert_eq!(join(&rc[0].1), "the character does not occur");
        assert!(return_conditions(&tokens("the length of this string")).is_empty());
        let rc = return_conditions(&tokens("`true` if, and only if, this buffer is backed by an array"));
        assert_eq!((rc.len(), join(&rc[0].1)), (1, "this buffer is backed by an array".to_string()));
        let rc = return_conditions(&tokens("`true` if the arguments are equal to each other and `false` otherwise"));
        assert_eq!(rc.len(), 1);
        assert_eq!(join(&rc[0].1), "the arguments are equal to each other");
        let rc = return_conditions(&tokens(
            "Zero if the argument is equal to this pathname, a value less than zero if this pathname is less than \
             the argument, or a value greater than zero if this pathname is greater than the argument",
        ));
        let values: Vec<&str> = rc.iter().map(|(v, _)| v.as_str()).collect();
        assert_eq!(values, ["Zero", "a value less than zero", "a value greater than zero"]);
        assert_eq!(join(&rc[1].1), "this pathname is less than the argument");
    }
}
