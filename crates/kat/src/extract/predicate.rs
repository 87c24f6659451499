//! Predicates of triggers: the relation and object of a triple turned into
//! a formal condition on the linked subject, and the trigger type (KAT
//! section 3.1: T1/T2 by key patterns, T3 by linking to a state method of
//! the receiver or a parameter, T4 otherwise).

use super::entity::{CLASS_THRESHOLD, MethodContext, OTHER_CLASS_THRESHOLD, StateMethod, simple_type};
use super::sentence::Token;
use super::words::{same_word, similarity, stem, words};
use crate::cond::{CmpOp, Cond, Expr};
use crate::graph::{Entity, Link, TriggerKind};

/// What a predicate gave.
pub struct Derived {
    pub kind: TriggerKind,
    pub condition: Cond,
    pub links: Vec<Link>,
}

const NEGATIONS: &[&str] =
    &["not", "no", "cannot", "never", "isn't", "aren't", "doesn't", "don't", "hasn't", "haven't", "none", "nor"];

/// Words that mark a range limitation without a formal form.
const RANGE_WORDS: &[&str] = &[
    "range",
    "bounds",
    "bound",
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
];

/// Comparative phrases: the words and the operator they denote.
const COMPARATIVES: &[(&[&str], CmpOp)] = &[
    (&["<="], CmpOp::Le),
    (&[">="], CmpOp::Ge),
    (&["<"], CmpOp::Lt),
    (&[">"], CmpOp::Gt),
    (&["=="], CmpOp::Eq),
    (&["!="], CmpOp::Ne),
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

/// Derives the condition of `subject predicate` (predicate starts at the
/// verb; `part` is the whole trigger). `subject_negated` is set for "no
/// value is present".
pub fn derive(
    ctx: &MethodContext,
    subject: Option<&(Expr, Option<Link>)>,
    subject_negated: bool,
    part: &[Token],
    predicate: &[Token],
) -> Derived {
    let lower: Vec<String> =
        predicate.iter().map(|t| if t.code { t.text.clone() } else { t.text.to_ascii_lowercase() }).collect();
    let negated = (lower.iter().any(|w| NEGATIONS.contains(&w.as_str()) || w.ends_with("n't"))) != subject_negated;
    let links: Vec<Link> = subject.and_then(|(_, l)| l.clone()).into_iter().collect();
    let has = |w: &str| lower.iter().any(|x| x == w);
    let subj = subject.map(|(e, _)| e.clone());
    let unknown = |kind| Derived { kind, condition: Cond::Unknown, links: Vec::new() };

    if let Some(d) = null_predicate(ctx, subj.as_ref(), &lower, negated) {
        return with_links(d, links);
    }
    // "the mode is `"rw"`": string equality, a restriction of its own (T4).
    let copula = lower.first().is_some_and(|w| w == "is" || w == "are");
    if let (true, Some(s), [.., last]) = (copula, subj.as_ref(), predicate)
        && last.code
        && let Some(lit @ Expr::Str(_)) = Expr::parse_code(&last.text, ctx.params)
    {
        let call = Cond::Truth(Expr::Call { target: Box::new(s.clone()), name: "equals".into(), args: vec![lit] });
        let condition = if negated { call.negated() } else { call };
        return with_links(Derived { kind: TriggerKind::Other, condition, links: Vec::new() }, links);
    }
    if let Some(d) = interval(ctx, subj.as_ref(), predicate, &lower, negated) {
        return with_links(d, links);
    }
    if let Some(d) = compare(ctx, subj.as_ref(), predicate, &lower, negated) {
        return with_links(d, links);
    }
    if let Some(&(_, op, n)) = SIGNS.iter().find(|(w, _, _)| has(w)) {
        let op = if negated { op.negate() } else { op };
        let signum = |s: &Expr| has_method(ctx, s, "signum", 0);
        return match subj {
            Some(s) if is_numeric(ctx, &s) => {
                Derived { kind: TriggerKind::Range, condition: Cond::cmp(s, op, Expr::Int(n)), links }
            }
            // "`this` is negative" for BigInteger, BigDecimal: the sign.
            Some(s) if signum(&s) => {
                let cond = Cond::cmp(Expr::call0(s, "signum"), op, Expr::Int(n));
                Derived { kind: TriggerKind::Range, condition: cond, links }
            }
            _ => with_links(unknown(TriggerKind::Range), links),
        };
    }
    let contains_none = lower.len() >= 3
        && ["contains", "contain", "has", "have"].contains(&lower[0].as_str())
        && lower[1] == "no"
        && ["element", "elements", "mapping", "mappings", "entries", "characters", "key-value"]
            .contains(&lower[2].as_str());
    if (has("empty") || contains_none)
        && let Some(s) = subj.as_ref()
        && let Some(d) = emptiness(ctx, s, negated && !contains_none)
    {
        return with_links(d, links);
    }
    let all: Vec<String> = part.iter().filter(|t| !t.code).map(|t| t.text.to_ascii_lowercase()).collect();
    let range =
        all.iter().any(|w| RANGE_WORDS.contains(&w.as_str())) || all.windows(2).any(|w| w[0] == "out" && w[1] == "of");
    if range {
        return with_links(unknown(TriggerKind::Range), links);
    }
    if let Some(d) = state_link(ctx, subj.as_ref(), part, predicate, negated) {
        return with_links(d, links);
    }
    with_links(unknown(TriggerKind::Other), links)
}

/// Intervals: "is between X and Y (inclusive)", "is outside the range
/// from X to Y", "is (not) in the range X to Y": `s >= X && s <= Y` or
/// its negation `s < X || s > Y` (strict bounds when "exclusive").
fn interval(
    ctx: &MethodContext,
    subj: Option<&Expr>,
    predicate: &[Token],
    lower: &[String],
    negated: bool,
) -> Option<Derived> {
    let s = subj.filter(|s| is_numeric(ctx, s))?;
    let (lo, hi, outside) = if let Some(b) = lower.iter().position(|w| w == "between") {
        let a = b + 1 + lower[b + 1..].iter().position(|w| w == "and")?;
        (b + 1..a, a + 1, false)
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
fn compare(
    ctx: &MethodContext,
    subj: Option<&Expr>,
    predicate: &[Token],
    lower: &[String],
    negated: bool,
) -> Option<Derived> {
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
fn null_predicate(ctx: &MethodContext, subj: Option<&Expr>, lower: &[String], negated: bool) -> Option<Derived> {
    let at = lower.iter().position(|w| w == "null")?;
    let copula = ["is", "are", "was", "be", "were"].contains(&lower[0].as_str());
    let direct = copula && lower[1..at].iter().all(|w| w == "not" || w == "set" || w == "to" || w == "itself");
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
fn comparative(lower: &[String]) -> Option<(CmpOp, usize)> {
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
fn has_method(ctx: &MethodContext, e: &Expr, name: &str, arity: usize) -> bool {
    ctx.methods_of(e).iter().any(|m| m.name == name && m.params.len() == arity)
}

/// Whether a value is a number: a parameter of a primitive numeric or
/// boxed type, a literal, a length, size or other call we derived, a
/// constant; not the receiver, `null` or a reference parameter.
fn is_numeric(ctx: &MethodContext, e: &Expr) -> bool {
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
        entity: Entity::Method { class: String::new(), name: "isEmpty".into() },
        confidence: 1.0,
    };
    Some(Derived { kind, condition: cond, links: vec![link] })
}

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
fn state_link(
    ctx: &MethodContext,
    subj: Option<&Expr>,
    part: &[Token],
    predicate: &[Token],
    negated: bool,
) -> Option<Derived> {
    let text: String = predicate.iter().map(|t| t.text.as_str()).collect::<Vec<_>>().join(" ");
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
            // "does not represent an enum class" names `isEnum` without its "is".
            let describes =
                matches!(verb.as_deref(), Some("is" | "are" | "represents" | "represent" | "denotes" | "denote"));
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
    let specificity = |m: &StateMethod| (m.returns == "boolean") as usize * 10 + words(&m.name).len();
    candidates.sort_by(|a, b| b.3.total_cmp(&a.3).then(specificity(b.1).cmp(&specificity(a.1))));
    let (target, m, args, score) = candidates.into_iter().next()?;
    let entity = Entity::Method { class: String::new(), name: m.name.clone() };
    let link = Link { mention: text.clone(), entity, confidence: score };
    // A linked method that cannot be called here, or is no boolean query:
    // a call dependency without a formal form.
    let Some(args) = args.filter(|_| m.returns == "boolean") else {
        return Some(Derived { kind: TriggerKind::CallDependency, condition: Cond::Unknown, links: vec![link] });
    };
    let call = Expr::Call { target: Box::new(target), name: m.name.clone(), args };
    let antonym = ANTONYMS.iter().any(|(w, name)| *name == m.name && pred_words.iter().any(|p| p == w));
    let cond = Cond::Truth(call);
    let cond = if negated != antonym { cond.negated() } else { cond };
    Some(Derived { kind: TriggerKind::CallDependency, condition: cond, links: vec![link] })
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
/// ("contains the specified element" → `o`).
fn object_parameter(ctx: &MethodContext, predicate: &[Token]) -> Option<Expr> {
    let start = predicate.iter().position(|t| !(t.is("not") || t.is("no") || VERBISH.iter().any(|v| t.is(v))))?;
    match ctx.noun_phrase(&predicate[start..]) {
        Some((e @ Expr::Param(_), _)) => Some(e),
        _ => None,
    }
}

/// Auxiliaries and verbs skipped before an object.
const VERBISH: &[&str] = &["does", "do", "did", "contains", "contain", "is", "are", "has", "have", "a", "an"];
