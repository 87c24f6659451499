//! Predicates of triggers: the relation and object of a triple turned into
//! a formal condition on the linked subject, and the trigger type (KAT
//! section 3.1: T1/T2 by key patterns, T3 by linking to a state method of
//! the receiver or a parameter, T4 otherwise).

use super::entity::{MethodContext, simple_type};
use super::sentence::Token;

use crate::cond::{CmpOp, Cond, Expr};
use crate::graph::{Entity, Link, TriggerKind};

/// What a predicate gave.
pub struct Derived {
    /// The trigger type.
    pub kind: TriggerKind,
    /// The formal condition (`?` when none).
    pub condition: Cond,
    /// Entities linked on the way, with their confidence.
    pub links: Vec<Link>,
}

const NEGATIONS: &[&str] =
    &["not", "no", "cannot", "never", "isn't", "aren't", "doesn't", "don't", "hasn't", "haven't", "none", "nor"];

/// Words that mark a range limitation without a formal form.
const RANGE_WORDS: &[&str] = &[
    "range",
    "bounds",
    "overflow",
    "overflows",
    "underflow",
    "outside",
    "beyond",
    "exceeds",
    "exceed",
    "large",
    "small",
    "negative",
    "positive",
    "limit",
    "maximum",
    "minimum",
    "capacity",
    // "the specified scale is insufficient to represent the result",
    // "insufficient arguments given the format string"
    "insufficient",
    // "the preconditions on the `index`, `offset`, and `length` parameters do not hold"
    "preconditions",
];

/// Comparative phrases: the words and the operator they denote.
const COMPARATIVES: &[(&[&str], CmpOp)] = &[
    (&["<="], CmpOp::Le),
    (&[">="], CmpOp::Ge),
    (&["<"], CmpOp::Lt),
    (&[">"], CmpOp::Gt),
    (&["=="], CmpOp::Eq),
    (&["!="], CmpOp::Ne),
    (&["equal", "to", "or", "greater", "than"], CmpOp::Ge),
    (&["equal", "to", "or", "larger", "than"], CmpOp::Ge),
    (&["equal", "to", "or", "more", "than"], CmpOp::Ge),
    (&["equal", "to", "or", "less", "than"], CmpOp::Le),
    (&["equal", "to", "or", "smaller", "than"], CmpOp::Le),
    (&["less", "than", "or", "equal", "to"], CmpOp::Le),
    (&["smaller", "than", "or", "equal", "to"], CmpOp::Le),
    (&["greater", "than", "or", "equal", "to"], CmpOp::Ge),
    (&["larger", "than", "or", "equal", "to"], CmpOp::Ge),
    (&["less", "than"], CmpOp::Lt),
    (&["smaller", "than"], CmpOp::Lt),
    (&["lower", "than"], CmpOp::Lt),
    (&["fewer", "than"], CmpOp::Lt),
    (&["greater", "than"], CmpOp::Gt),
    (&["larger", "than"], CmpOp::Gt),
    (&["bigger", "than"], CmpOp::Gt),
    (&["more", "than"], CmpOp::Gt),
    (&["higher", "than"], CmpOp::Gt),
    (&["exceeds"], CmpOp::Gt),
    (&["exceed"], CmpOp::Gt),
    (&["at", "least"], CmpOp::Ge),
    (&["at", "most"], CmpOp::Le),
    (&["equal", "to"], CmpOp::Eq),
    (&["equals"], CmpOp::Eq),
];

/// Sign words: `x is negative` is `x < 0`.
const SIGNS: &[(&str, CmpOp, i64)] = &[
    ("negative", CmpOp::Lt, 0),
    ("positive", CmpOp::Gt, 0),
    ("zero", CmpOp::Eq, 0),
    ("nonpositive", CmpOp::Le, 0),
    ("non-positive", CmpOp::Le, 0),
    ("nonnegative", CmpOp::Ge, 0),
    ("non-negative", CmpOp::Ge, 0),
];

/// What the rules of [`derive`] look at: the linked subject, the
/// predicate (from the verb on), the whole trigger, the predicate's words
/// in lower case, and whether it is negated.
pub(super) struct Ask<'a, 'c> {
    pub ctx: &'a MethodContext<'c>,
    pub subj: Option<Expr>,
    pub part: &'a [Token],
    pub predicate: &'a [Token],
    pub lower: Vec<String>,
    pub negated: bool,
}

impl<'a, 'c> Ask<'a, 'c> {
    /// The fields as plain values, for the rules.
    pub(super) fn parts(&self) -> (&'a MethodContext<'c>, Option<&Expr>, &'a [Token], &[String], bool) {
        (self.ctx, self.subj.as_ref(), self.predicate, &self.lower, self.negated)
    }
}

/// A rule of [`derive`]: a condition and type, or `None` to let the next
/// rule try.
type Rule = fn(&Ask) -> Option<Derived>;

/// The rules, most specific first.
const RULES: &[Rule] = &[
    null_predicate,
    super::getter::set_to,
    super::getter::numbered_kind,
    super::numeric::insufficient_space,
    super::numeric::full,
    super::numeric::end_of_file,
    super::numeric::does_not_fit,
    super::numeric::range_exceeds_int,
    super::bounds::range_bounds,
    super::documented::documented_range,
    super::known_range::known_range,
    super::known_range::one_of_values,
    super::numeric::invalid_number,
    super::numeric::units_long,
    super::numeric::special_float,
    super::numeric::exact_overflow,
    string_equality,
    interval,
    code_point,
    remaining_count,
    super::ordering::own_type_comparison,
    compare,
    number_equality,
    sign,
    empty,
    no_mapping,
    super::state::no_occurrence,
    super::ordering::natural_ordering,
    associated,
    instance_of,
    super::relation::looked_up,
    super::relation::member_of_receiver,
    super::relation::is_receiver,
    range_words,
    super::named_class::named_class_state,
    super::state::state_link,
];

/// Derives the condition of `subject predicate` (predicate starts at the
/// verb; `part` is the whole trigger). `subject_negated` is set for "no
/// value is present". The subject's link comes first among the links.
pub fn derive(
    ctx: &MethodContext,
    subject: Option<&(Expr, Option<Link>)>,
    subject_negated: bool,
    part: &[Token],
    predicate: &[Token],
) -> Derived {
    let lower: Vec<String> =
        predicate.iter().map(|t| if t.code { t.text.clone() } else { t.text.to_ascii_lowercase() }).collect();
    let negation = |w: &String| NEGATIONS.contains(&w.as_str()) || w.ends_with("n't") || w == "non-";
    let negated = lower.iter().any(negation) != subject_negated;
    let links: Vec<Link> = subject.and_then(|(_, l)| l.clone()).into_iter().collect();
    let ask = Ask { ctx, subj: subject.map(|(e, _)| e.clone()), part, predicate, lower, negated };
    let derived = RULES.iter().find_map(|rule| rule(&ask));
    // "this map does not permit null keys": about nullness, with no
    // formal form (T1, as KAT's key patterns type it).
    let about_null = ask.lower.iter().any(|w| w == "null");
    // "is already connected", "no match has yet been attempted", "the
    // previous match operation failed": a state left by earlier calls (T3).
    let earlier_calls = ask.part.iter().any(|t| t.is("already") || t.is("yet") || t.is("previous"));
    let fallback = if about_null {
        TriggerKind::Nullness
    } else if earlier_calls {
        TriggerKind::CallDependency
    } else {
        TriggerKind::Other
    };
    with_links(derived.unwrap_or_else(|| unknown(fallback)), links)
}

/// A trigger of type `kind` without a formal condition.
pub(super) fn unknown(kind: TriggerKind) -> Derived {
    Derived { kind, condition: Cond::Unknown, links: Vec::new() }
}

/// "the mode is `"rw"`": string equality, a restriction of its own (T4);
/// "the pattern contains "/"": `pattern.contains("/")` for a string.
fn string_equality(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, predicate, lower, negated) = ask.parts();
    // "the pattern contains "/"": `pattern.contains("/")`.
    let method = match lower.iter().find(|w| !matches!(w.as_str(), "not" | "does" | "do")).map(String::as_str) {
        Some("is" | "are") => "equals",
        Some("contains" | "contain") if subj.is_some_and(|s| is_text(ctx, s)) => "contains",
        _ => return None,
    };
    // `"rw"` in a code span, or "TRACE" in quotes in the text.
    let literal = |t: &Token| {
        let quoted = (!t.code && t.text.len() >= 2 && t.text.starts_with('"') && t.text.ends_with('"'))
            .then(|| Expr::Str(t.text[1..t.text.len() - 1].to_string()));
        quoted
            .or_else(|| t.code.then(|| Expr::parse_code(&t.text, ctx.params)).flatten())
            .filter(|e| matches!(e, Expr::Str(_)))
    };
    // "is not one of "r", "rw", or "rwd"": every listed literal.
    let lits: Vec<Expr> = match lower.windows(2).position(|w| w[0] == "one" && w[1] == "of") {
        Some(k) => predicate[k + 2..].iter().filter_map(literal).collect(),
        None => literal(predicate.last()?).into_iter().collect(),
    };
    let s = subj?;
    let calls: Vec<Cond> = lits
        .into_iter()
        .map(|l| Cond::Truth(Expr::Call { target: Box::new(s.clone()), name: method.into(), args: vec![l] }))
        .collect();
    if calls.is_empty() {
        return None;
    }
    let condition = if negated {
        Cond::join(calls.into_iter().map(Cond::negated).collect(), true)
    } else {
        Cond::join(calls, false)
    };
    Some(Derived { kind: TriggerKind::Other, condition, links: Vec::new() })
}

/// Whether a value is a string or another character sequence.
fn is_text(ctx: &MethodContext, e: &Expr) -> bool {
    ctx.type_of(e)
        .is_some_and(|t| matches!(simple_type(t), "String" | "CharSequence" | "StringBuilder" | "StringBuffer"))
}

/// "`codePoint` is not a valid Unicode code point", "is an invalid code
/// point": outside `0..=Character.MAX_CODE_POINT` (T2), for an `int`.
fn code_point(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, _, lower, negated) = ask.parts();
    let s = subj.filter(|s| ctx.type_of(s) == Some("int"))?;
    let at = lower.windows(2).position(|w| w[0] == "code" && w[1] == "point")?;
    let invalid = lower[..at].iter().any(|w| w == "invalid");
    let valid = lower[..at].iter().any(|w| w == "valid");
    if !invalid && !valid {
        return None;
    }
    let max = Expr::Field { target: Box::new(Expr::Name("Character".into())), name: "MAX_CODE_POINT".into() };
    let outside = Cond::Or(vec![Cond::cmp(s.clone(), CmpOp::Lt, Expr::Int(0)), Cond::cmp(s.clone(), CmpOp::Gt, max)]);
    let condition = if invalid != negated { outside } else { Cond::join(vec![outside], false).negated() };
    Some(Derived { kind: TriggerKind::Range, condition, links: Vec::new() })
}

/// "there are fewer than two bytes remaining in this buffer", "fewer
/// than `length` bytes remaining": the receiver's `remaining()` compared
/// with the number (T2).
fn remaining_count(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, predicate, lower, negated) = ask.parts();
    if subj.is_some() || ctx.is_static || !ctx.receiver_has("remaining") || !lower.iter().any(|w| w == "remaining") {
        return None;
    }
    let (op, rest) = comparative(lower)?;
    let (count, _) = ctx.noun_phrase(&predicate[predicate.len() - rest..][..1])?;
    let number = matches!(count, Expr::Int(_)) || (matches!(count, Expr::Param(_)) && is_numeric(ctx, &count));
    if !number {
        return None;
    }
    let op = if negated { op.negate() } else { op };
    let condition = Cond::cmp(Expr::call0(Expr::This, "remaining"), op, count);
    Some(Derived { kind: TriggerKind::Range, condition, links: Vec::new() })
}

/// "the value is 0", "`n` is not `-1`": equality with a number, T2
/// (`size == 0`) for a numeric subject.
fn number_equality(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, predicate, lower, negated) = ask.parts();
    let copula = lower.first().is_some_and(|w| w == "is" || w == "are" || w == "equals");
    let rest: Vec<&Token> = predicate[1..].iter().filter(|t| !t.is("not")).collect();
    let [number] = rest.as_slice() else { return None };
    let n = match Expr::parse_code(&number.text, ctx.params)? {
        e @ Expr::Int(_) => e,
        _ => return None,
    };
    let s = subj.filter(|s| copula && is_numeric(ctx, s))?;
    let op = if negated { CmpOp::Ne } else { CmpOp::Eq };
    Some(Derived { kind: TriggerKind::Range, condition: Cond::cmp(s.clone(), op, n), links: Vec::new() })
}

/// "there was no mapping (no entry) for `key`" of a map:
/// `!this.containsKey(key)` (T3).
fn no_mapping(ask: &Ask) -> Option<Derived> {
    let (ctx, _, predicate, lower, _) = ask.parts();
    let at = lower.windows(3).position(|w| w[0] == "no" && (w[1] == "mapping" || w[1] == "entry") && w[2] == "for")?;
    if ctx.is_static || !ctx.receiver_methods.iter().any(|m| m.name == "containsKey" && m.params.len() == 1) {
        return None;
    }
    let (key, link) = ctx.noun_phrase(&predicate[at + 3..]).filter(|(k, _)| matches!(k, Expr::Param(_)))?;
    let call = Expr::Call { target: Box::new(Expr::This), name: "containsKey".into(), args: vec![key] };
    let condition = Cond::Truth(call).negated();
    Some(Derived { kind: TriggerKind::CallDependency, condition, links: link.into_iter().collect() })
}

/// "this socket has an associated channel": the receiver's getter of
/// that object is not `null` (`this.getChannel() != null`), T3.
fn associated(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, _, lower, negated) = ask.parts();
    let words: Vec<&str> =
        lower.iter().map(String::as_str).filter(|w| !["not", "no", "does", "do"].contains(w)).collect();
    let noun = match words.as_slice() {
        ["has" | "have", "an" | "a", "associated", noun] | ["has" | "have", "associated", noun] => *noun,
        _ => return None,
    };
    if !matches!(subj, Some(Expr::This)) && subj.is_some() {
        return None;
    }
    let mut chars = noun.chars();
    let getter = format!("get{}{}", chars.next()?.to_ascii_uppercase(), chars.as_str());
    let m = ctx.receiver_methods.iter().find(|m| m.name == getter && m.params.is_empty())?;
    if matches!(m.returns.as_str(), "" | "void") || super::is_primitive(&m.returns) || ctx.is_static {
        return None;
    }
    let op = if negated { CmpOp::Eq } else { CmpOp::Ne };
    let condition = Cond::cmp(Expr::call0(Expr::This, &getter), op, Expr::Null);
    let link =
        Link { mention: noun.to_string(), entity: Entity::Method { class: None, name: getter }, confidence: 1.0 };
    Some(Derived { kind: TriggerKind::CallDependency, condition, links: vec![link] })
}

/// "`context` is not an instance of `AccessControlContext`":
/// `!(context instanceof AccessControlContext)`, a restriction on the
/// class of a value (T4).
fn instance_of(ask: &Ask) -> Option<Derived> {
    let (_, subj, predicate, lower, negated) = ask.parts();
    let at = lower.windows(2).position(|w| w[0] == "instance" && w[1] == "of")?;
    let class = predicate.get(at + 2..)?.iter().find(|t| t.code || t.text.starts_with(char::is_uppercase))?;
    let class = class.text.trim_end_matches(['.', ',']).to_string();
    let valid = !class.is_empty() && class.chars().all(|c| c.is_alphanumeric() || c == '.' || c == '_' || c == '$');
    let s = subj.filter(|_| valid)?;
    let condition = Cond::InstanceOf { value: s.clone(), class };
    let condition = if negated { condition.negated() } else { condition };
    Some(Derived { kind: TriggerKind::Other, condition, links: Vec::new() })
}

/// Signs: "`x` is negative" is `x < 0`; for a BigInteger or BigDecimal,
/// `x.signum() < 0`; for a type that answers the sign itself ("the
/// duration is negative" of a `Duration`), its boolean query
/// (`d.isNegative()`); T2 without a formal form for other subjects.
fn sign(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, _, lower, negated) = ask.parts();
    let &(word, op, n) = SIGNS.iter().find(|(w, _, _)| lower.iter().any(|x| x == w))?;
    let query = sign_query(word);
    let asks_sign =
        |s: &Expr| ctx.methods_of(s).iter().any(|m| m.name == query && m.params.is_empty() && m.returns == "boolean");
    let op = if negated { op.negate() } else { op };
    let condition = match subj {
        Some(s) if is_numeric(ctx, s) => except(lower, Cond::cmp(s.clone(), op, Expr::Int(n))),
        Some(s) if has_method(ctx, s, "signum", 0) => Cond::cmp(Expr::call0(s.clone(), "signum"), op, Expr::Int(n)),
        Some(s) if asks_sign(s) => {
            let call = Cond::Truth(Expr::call0(s.clone(), &query));
            if negated { call.negated() } else { call }
        }
        _ => Cond::Unknown,
    };
    Some(Derived { kind: TriggerKind::Range, condition, links: Vec::new() })
}

/// The boolean query a type may have for a sign word: "negative" →
/// `isNegative`, "non-negative" → `isNonNegative`.
fn sign_query(word: &str) -> String {
    let camel: String = word
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect();
    format!("is{camel}")
}

/// "a negative number other than -1": `s < -1` (an integer below 0 that is
/// not -1); `s < 0 && s != m` for another excepted negative `m`.
fn except(lower: &[String], sign: Cond) -> Cond {
    let excepted = lower.windows(3).find(|w| w[0] == "other" && w[1] == "than").and_then(|w| w[2].parse::<i64>().ok());
    match (&sign, excepted) {
        (Cond::Cmp { left, op: CmpOp::Lt, right: Expr::Int(0) }, Some(-1)) => {
            Cond::cmp(left.clone(), CmpOp::Lt, Expr::Int(-1))
        }
        (Cond::Cmp { left, op: CmpOp::Lt, right: Expr::Int(0) }, Some(m)) if m < 0 => {
            let other = Cond::cmp(left.clone(), CmpOp::Ne, Expr::Int(m));
            Cond::And(vec![sign, other])
        }
        _ => sign,
    }
}

/// "is empty", "contains no elements".
fn empty(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, _, lower, negated) = ask.parts();
    let contains_none = lower.len() >= 3
        && ["contains", "contain", "has", "have"].contains(&lower[0].as_str())
        && lower[1] == "no"
        && ["element", "elements", "mapping", "mappings", "entries", "characters", "key-value"]
            .contains(&lower[2].as_str());
    let non_empty = lower.iter().any(|w| w == "non-empty");
    if !(lower.iter().any(|w| w == "empty") || contains_none || non_empty) {
        return None;
    }
    emptiness(ctx, subj?, (negated && !contains_none) != non_empty)
}

/// "is in non-blocking mode": whether a "non-" word of the predicate
/// negates the word `w` ("non-empty directory" negates "empty", not
/// "directory").
pub(super) fn non_prefixed(lower: &[String], w: &str) -> bool {
    lower
        .iter()
        .any(|x| x.strip_prefix("non-").is_some_and(|rest| super::words::same_word(&super::words::stem(rest), w)))
}

/// Range words anywhere in the trigger ("out of range", "overflow",
/// "exceeds the supported range"): T2 without a formal form.
fn range_words(ask: &Ask) -> Option<Derived> {
    // "this set itself has a restricted range": a property of the receiver,
    // no restriction of a value.
    if matches!(ask.subj, Some(Expr::This)) && ask.lower.first().is_some_and(|w| w == "has" || w == "have") {
        return None;
    }
    let all: Vec<String> = ask.part.iter().filter(|t| !t.code).map(|t| t.text.to_ascii_lowercase()).collect();
    let all = without_range_modifier(all);
    // Nouns of bounds ("a limit is missing the name") speak of a range only
    // in the predicate ("exceeds the limit").
    let nouns = ["limit", "maximum", "minimum", "capacity"];
    let in_predicate = |w: &String| !nouns.contains(&w.as_str()) || ask.lower.contains(w);
    let range = all.iter().any(|w| RANGE_WORDS.contains(&w.as_str()) && in_predicate(w))
        || all.windows(2).any(|w| w[0] == "out" && w[1] == "of");
    range.then(|| unknown(TriggerKind::Range))
}

/// Drops "within the specified range" and the like: a modifier that says
/// where the subject is looked at ("the search key is not comparable to the
/// elements of the array within the specified range"), no range
/// restriction of its own.
fn without_range_modifier(mut words: Vec<String>) -> Vec<String> {
    let at = words.windows(4).position(|w| {
        matches!(w[0].as_str(), "within" | "in" | "over")
            && w[1] == "the"
            && matches!(w[2].as_str(), "specified" | "given")
            && w[3] == "range"
    });
    if let Some(i) = at {
        words.drain(i..i + 4);
    }
    words
}

/// Intervals: "is between X and Y (inclusive)", "is outside the range
/// from X to Y", "is (not) in the range X to Y": `s >= X && s <= Y` or
/// its negation `s < X || s > Y` (strict bounds when "exclusive").
fn interval(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, predicate, lower, negated) = ask.parts();
    let s = subj.filter(|s| is_numeric(ctx, s))?;
    let (lo, hi, outside) = if let Some(b) = lower.iter().position(|w| w == "between") {
        let a = b + 1 + lower[b + 1..].iter().position(|w| w == "and")?;
        // "is outside the range of valid values, which is between 0 and 9".
        let outside = lower[..b].iter().any(|w| w == "outside" || w == "out");
        (b + 1..a, a + 1, outside)
    } else {
        let r = lower.iter().position(|w| w == "range")?;
        let outside = lower[..r].iter().any(|w| w == "outside" || w == "out");
        let inside = lower[..r].iter().any(|w| w == "in" || w == "within");
        if !outside && !inside {
            return None;
        }
        let from = r + 1 + usize::from(lower.get(r + 1).is_some_and(|w| w == "from" || w == "of"));
        let to = from + lower[from..].iter().position(|w| w == "to")?;
        (from..to, to + 1, outside)
    };
    let end = (hi..lower.len())
        .find(|&i| matches!(lower[i].as_str(), "," | "inclusive" | "exclusive" | "("))
        .unwrap_or(lower.len());
    let (low, _) = ctx.noun_phrase(&predicate[lo]).filter(|(e, _)| is_numeric(ctx, e))?;
    let (high, _) = ctx.noun_phrase(&predicate[hi..end]).filter(|(e, _)| is_numeric(ctx, e))?;
    let strict = lower.iter().any(|w| w == "exclusive");
    let (ge, le) = if strict { (CmpOp::Gt, CmpOp::Lt) } else { (CmpOp::Ge, CmpOp::Le) };
    let inside = Cond::And(vec![Cond::cmp(s.clone(), ge, low), Cond::cmp(s.clone(), le, high)]);
    let cond = if negated != outside {
        let Cond::And(parts) = inside else { unreachable!() };
        Cond::Or(parts.into_iter().map(Cond::negated).collect())
    } else {
        inside
    };
    Some(Derived { kind: TriggerKind::Range, condition: cond, links: Vec::new() })
}

/// Comparatives ("is less than X", "exceeds X", "is equal to X", `<=`):
/// T2 with `subject op object` when both sides are numbers; for objects
/// with `compareTo` ("this pathname is less than the argument"),
/// `subject.compareTo(object) op 0`. Equality with a side that cannot be
/// linked is no range statement ("this is equal to the other year") and
/// gives `None`, as do other comparisons of non-numbers.
fn compare(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, predicate, lower, negated) = ask.parts();
    let (op, rest) = comparative(lower)?;
    let op = if negated { op.negate() } else { op };
    let object = ctx.noun_phrase(&predicate[predicate.len() - rest..]);
    let range = |condition, links| Some(Derived { kind: TriggerKind::Range, condition, links });
    match (subj, object) {
        (Some(s), Some((o, _))) if *s == o => None,
        (Some(s), Some((o, link))) if is_numeric(ctx, s) && is_numeric(ctx, &o) => {
            range(Cond::cmp(s.clone(), op, o), link.into_iter().collect())
        }
        // "`m` <= 0" for a BigInteger `m`: its sign.
        (Some(s), Some((Expr::Int(0), link))) if has_method(ctx, s, "signum", 0) => {
            range(Cond::cmp(Expr::call0(s.clone(), "signum"), op, Expr::Int(0)), link.into_iter().collect())
        }
        (Some(s), Some((o, link)))
            if !matches!(op, CmpOp::Eq | CmpOp::Ne) && !is_numeric(ctx, &o) && has_method(ctx, s, "compareTo", 1) =>
        {
            let call = Expr::Call { target: Box::new(s.clone()), name: "compareTo".into(), args: vec![o] };
            range(Cond::cmp(call, op, Expr::Int(0)), link.into_iter().collect())
        }
        // "`fromKey` is greater than `toKey`" of two objects: an order, T2
        // without a formal form.
        (Some(Expr::Param(_)), Some((Expr::Param(_), _))) if !matches!(op, CmpOp::Eq | CmpOp::Ne) => {
            range(Cond::Unknown, Vec::new())
        }
        (Some(_), Some(_)) => None,
        _ if matches!(op, CmpOp::Eq | CmpOp::Ne) => None,
        _ => range(Cond::Unknown, Vec::new()),
    }
}

fn with_links(mut d: Derived, links: Vec<Link>) -> Derived {
    let mut all = links;
    all.append(&mut d.links);
    d.links = all;
    d
}

/// `x is null`, `x is not null`, `x contains null (elements)`.
fn null_predicate(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, _, lower, negated) = ask.parts();
    // "is non-null" (one word) is "is not null".
    let at = lower.iter().position(|w| w == "null" || w == "non-null")?;
    let negated = negated != (lower[at] == "non-null");
    let copula = ["is", "are", "was", "be", "were"].contains(&lower[0].as_str());
    // "is non- `null`" (markup split "non-{@code null}") is "is not null".
    let direct = copula && lower[1..at].iter().all(|w| matches!(w.as_str(), "not" | "set" | "to" | "itself" | "non-"));
    let contains = ["contains", "contain", "has", "have", "includes"].contains(&lower[0].as_str());
    if !direct && !contains {
        return None;
    }
    let kind = TriggerKind::Nullness;
    let condition = match subj {
        Some(s) if direct && at + 1 == lower.len() => {
            Cond::cmp(s.clone(), if negated { CmpOp::Ne } else { CmpOp::Eq }, Expr::Null)
        }
        Some(s) if contains && !ctx.type_of(s).is_some_and(|t| t.ends_with("[]")) && !negated => {
            Cond::Truth(Expr::Call { target: Box::new(s.clone()), name: "contains".into(), args: vec![Expr::Null] })
        }
        _ => Cond::Unknown,
    };
    Some(Derived { kind, condition, links: Vec::new() })
}

/// The comparative in a predicate and how many tokens follow it.
pub(super) fn comparative(lower: &[String]) -> Option<(CmpOp, usize)> {
    for start in 0..lower.len() {
        for (phrase, op) in COMPARATIVES {
            let end = start + phrase.len();
            if end <= lower.len() && lower[start..end].iter().zip(phrase.iter()).all(|(a, b)| a == b) {
                let rest = lower.len() - end;
                if rest > 0 {
                    return Some((*op, rest));
                }
            }
        }
    }
    None
}

/// Makes the ordered comparisons of a condition written in a code span
/// compare numbers: `this < 0` for a BigInteger receiver becomes
/// `this.signum() < 0`; an ordered comparison of non-numbers that has no
/// such reading becomes `?`.
pub fn numeric_sides(ctx: &MethodContext, cond: Cond) -> Cond {
    match cond {
        Cond::Cmp { left, op, right } if !matches!(op, CmpOp::Eq | CmpOp::Ne) => {
            let sign = |e: Expr| {
                if !is_numeric(ctx, &e) && has_method(ctx, &e, "signum", 0) { Expr::call0(e, "signum") } else { e }
            };
            let (left, right) = match (&left, &right) {
                (_, Expr::Int(0)) => (sign(left), right),
                (Expr::Int(0), _) => (left, sign(right)),
                _ => (left, right),
            };
            if is_numeric(ctx, &left) && is_numeric(ctx, &right) && left != right {
                Cond::Cmp { left, op, right }
            } else {
                Cond::Unknown
            }
        }
        Cond::Not(inner) => Cond::Not(Box::new(numeric_sides(ctx, *inner))),
        Cond::And(v) => Cond::join(v.into_iter().map(|c| numeric_sides(ctx, c)).collect(), true),
        Cond::Or(v) => Cond::join(v.into_iter().map(|c| numeric_sides(ctx, c)).collect(), false),
        other => other,
    }
}

/// Whether the type of `e` has a method `name` with `arity` parameters.
pub(super) fn has_method(ctx: &MethodContext, e: &Expr, name: &str, arity: usize) -> bool {
    ctx.methods_of(e).iter().any(|m| m.name == name && m.params.len() == arity)
}

/// Whether a value is a number: a parameter of a primitive numeric or
/// boxed type, a literal, a length, size or other call we derived, a
/// constant; not the receiver, `null` or a reference parameter.
pub(super) fn is_numeric(ctx: &MethodContext, e: &Expr) -> bool {
    const NUMERIC: &[&str] = &[
        "int",
        "long",
        "short",
        "byte",
        "double",
        "float",
        "char",
        "java.lang.Integer",
        "java.lang.Long",
        "java.lang.Short",
        "java.lang.Byte",
        "java.lang.Double",
        "java.lang.Float",
        "java.lang.Character",
    ];
    match e {
        Expr::Param(_) => ctx.type_of(e).is_some_and(|t| NUMERIC.contains(&t)),
        Expr::This | Expr::Null | Expr::Bool(_) => false,
        _ => true,
    }
}

/// `x is empty`: `x.isEmpty()` (T3) when its type has `isEmpty()`,
/// `x.length == 0` for arrays (T2).
fn emptiness(ctx: &MethodContext, s: &Expr, negated: bool) -> Option<Derived> {
    let is_array = ctx.type_of(s).is_some_and(|t| t.ends_with("[]"));
    let (kind, cond) = if is_array {
        let len = Expr::Field { target: Box::new(s.clone()), name: "length".into() };
        (TriggerKind::Range, Cond::cmp(len, CmpOp::Eq, Expr::Int(0)))
    } else if ctx.methods_of(s).iter().any(|m| m.name == "isEmpty" && m.params.is_empty())
        || ctx.type_of(s).is_some_and(|t| matches!(simple_type(t), "String" | "CharSequence"))
    {
        (TriggerKind::CallDependency, Cond::Truth(Expr::call0(s.clone(), "isEmpty")))
    } else {
        return None;
    };
    let cond = if negated { cond.negated() } else { cond };
    let link = Link {
        mention: "empty".into(),
        entity: Entity::Method { class: None, name: "isEmpty".into() },
        confidence: 1.0,
    };
    Some(Derived { kind, condition: cond, links: vec![link] })
}

#[cfg(test)]
mod tests {
    use super::super::testctx::{Owned, method, shown, throws_triggers};

    #[test]
    fn a_string_that_contains_a_literal_and_a_limit_in_the_subject() {
        let m = Owned::new("ObjectInputFilter.Config", "createFilter", &[("java.lang.String", "pattern")], vec![]);
        let t = throws_triggers(
            &m,
            "if the pattern contains \"/\" and the module name is missing or the package is missing",
        );
        assert_eq!(shown(&t)[0], ("T4".to_string(), "pattern.contains(\"/\") && ?".to_string()));
        let t = throws_triggers(&m, "if a limit is missing the name");
        assert_eq!(shown(&t)[0], ("T4".to_string(), "?".to_string()));
    }

    #[test]
    fn not_one_of_listed_strings_is_none_of_them() {
        let m = Owned::new(
            "RandomAccessFile",
            "<init>",
            &[("java.lang.String", "name"), ("java.lang.String", "mode")],
            vec![],
        );
        let t = throws_triggers(&m, r#"if the mode argument is not equal to one of "r", "rw", or "rwd""#);
        assert_eq!(
            shown(&t),
            [("T4".to_string(), r#"!mode.equals("r") && !mode.equals("rw") && !mode.equals("rwd")"#.to_string())]
        );
    }

    #[test]
    fn comparisons_of_objects_and_equal_to_or_larger_than() {
        let sub = Owned::new(
            "NavigableMap",
            "subMap",
            &[("java.lang.Object", "fromKey"), ("java.lang.Object", "toKey")],
            vec![],
        );
        assert_eq!(shown(&throws_triggers(&sub, "if `fromKey` is greater than `toKey`"))[0], ("T2".into(), "?".into()));
        let fmt = Owned::new("MessageFormat", "setFormat", &[("int", "formatElementIndex"), ("int", "limit")], vec![]);
        let t = throws_triggers(&fmt, "if `formatElementIndex` is equal to or larger than `limit`");
        assert_eq!(shown(&t), [("T2".to_string(), "formatElementIndex >= limit".to_string())]);
    }

    #[test]
    fn a_negative_number_other_than_minus_one_is_below_it() {
        let m = Owned::new("URL", "<init>", &[("java.lang.String", "protocol"), ("int", "port")], vec![]);
        let t = throws_triggers(&m, "if the port is a negative number other than -1");
        assert_eq!(shown(&t), [("T2".to_string(), "port < -1".to_string())]);
    }

    #[test]
    fn non_null_split_by_markup_is_not_null() {
        let m = Owned::new("Objects", "requireNonNullElse", &[("java.lang.Object", "obj")], vec![]);
        let t = throws_triggers(&m, "if `obj` is non- `null`");
        assert_eq!(shown(&t), [("T1".to_string(), "obj != null".to_string())]);
        let t = throws_triggers(&m, "if `obj` is non-null");
        assert_eq!(shown(&t), [("T1".to_string(), "obj != null".to_string())]);
    }

    #[test]
    fn outside_a_range_given_by_a_which_clause_is_outside_its_bounds() {
        let m = Owned::new("Pool", "resize", &[("int", "count")], vec![]);
        let t = throws_triggers(&m, "if `count` is outside the allowed range, which is between 1 and 10, inclusive");
        assert_eq!(shown(&t), [("T2".to_string(), "count < 1 || count > 10".to_string())]);
    }

    #[test]
    fn the_given_buffer_among_two_references_is_the_array_named_buf() {
        let m = Owned::new(
            "DatagramPacket",
            "<init>",
            &[("byte[]", "buf"), ("int", "offset"), ("int", "length"), ("java.net.InetAddress", "address")],
            vec![],
        );
        let t = throws_triggers(
            &m,
            "if the length plus the offset is greater than the length of the packet's given buffer",
        );
        assert_eq!(shown(&t)[0].1, "length + offset > buf.length");
    }

    #[test]
    fn backed_by_an_array_is_not_an_accessible_array() {
        let buffer = vec![method("hasArray", &[], "boolean"), method("isReadOnly", &[], "boolean")];
        let m = Owned::new("IntBuffer", "array", &[], buffer);
        let t = throws_triggers(&m, "If this buffer is backed by an array but is read-only");
        assert_eq!(shown(&t), [("T4".into(), "?".into()), ("T3".into(), "this.isReadOnly()".into())]);
        let t = throws_triggers(&m, "If this buffer is not backed by an accessible array");
        assert_eq!(shown(&t), [("T3".to_string(), "!this.hasArray()".to_string())]);
    }

    #[test]
    fn a_range_that_only_says_where_to_look_is_no_range_restriction() {
        let arrays = Owned::new(
            "Arrays",
            "binarySearch",
            &[("java.lang.Object[]", "a"), ("int", "fromIndex"), ("int", "toIndex"), ("java.lang.Object", "key")],
            vec![],
        );
        let text = "if the search key is not comparable to the elements of the array within the specified range";
        assert_eq!(shown(&throws_triggers(&arrays, text))[0], ("T4".into(), "?".into()));
        let text = "if the search key is outside the range";
        assert_eq!(shown(&throws_triggers(&arrays, text))[0].0, "T2");
        let set = Owned::new("SortedSet", "tailSet", &[("java.lang.Object", "fromElement")], vec![]);
        let text = "if this set itself has a restricted range, and `fromElement` lies outside the bounds of the range";
        let kinds: Vec<String> = shown(&throws_triggers(&set, text)).into_iter().map(|(k, _)| k).collect();
        assert_eq!(kinds, ["T4", "T2"]);
    }

    #[test]
    fn a_sign_the_type_answers_itself_is_its_query() {
        let mut tick =
            Owned::new("Clock", "tick", &[("java.time.Clock", "base"), ("java.time.Duration", "tickDuration")], vec![]);
        tick.param_methods = vec![vec![], vec![method("isNegative", &[], "boolean")]];
        let t = throws_triggers(&tick, "if the duration is negative");
        assert_eq!(shown(&t), [("T2".to_string(), "tickDuration.isNegative()".to_string())]);
    }
}
