//! Trigger extraction (KAT section 3.1): from a method's effective
//! documentation to [`Clause`]s of typed triggers with formal conditions.
//!
//! Per clause: normalise markup, take the first sentence and its condition
//! part, resolve "any argument"-style coreferences to the parameters,
//! split at conjunctions, then for each part extract the (subject,
//! relation, object) triple, link subject and object, and derive the
//! condition and type ([`predicate::derive`]). A code span that is itself a
//! condition (`index < 0 || index >= size()`) is taken as written.
//!
//! Modules: [`sentence`] (tokens, first sentence, condition part, the split
//! at conjunctions), [`entity`] (linking noun phrases to the receiver,
//! parameters and derived values), [`predicate`] (conditions and types of
//! predicates), [`state`] (linking a predicate to a state method), [`words`]
//! (words, stemming and the lexical similarity). Rules for particular
//! phrasings: [`bounds`] (ranges given by index parameters), [`code`]
//! (conditions written in a code span), [`documented`] (ranges a
//! parameter's `@param` text states), [`getter`] (properties of the
//! receiver named by a noun), [`items`] (an item of a container
//! parameter), [`known_range`] (quantities whose valid range their name
//! tells), [`named_class`] (states a static query of the class a noun
//! names reports), [`numeric`] (range rules without a comparative), [`ordering`]
//! (natural ordering, comparisons with an argument of the receiver's type),
//! [`relation`] (a value looked up in, held by or identical to the
//! receiver), [`rephrase`] (rewordings into "subject verb predicate"),
//! [`scope`] (the scope of "and" inside an "or" list).

pub mod bounds;
pub mod code;
pub mod documented;
pub mod entity;
pub mod getter;
pub mod items;
pub mod known_range;
pub mod named_class;
pub mod numeric;
pub mod ordering;
pub mod predicate;
pub mod relation;
pub mod rephrase;
pub mod scope;
pub mod sentence;
pub mod state;
pub mod words;

#[cfg(test)]
mod testctx;

use entity::MethodContext;
use sentence::{Token, join, split, tokens, verb_index};

use crate::cond::{CmpOp, Cond, Expr};
use crate::graph::{Clause, Entity, Joiner, Link, Origin, Shape, Trigger, TriggerKind, Triple};
use crate::inherit::EffectiveDoc;
use crate::javadoc::normalise;

/// The clauses of a method's documentation.
pub fn clauses(doc: &EffectiveDoc, ctx: &mut MethodContext) -> Vec<Clause> {
    let mut out = Vec::new();
    for (exception, text, from) in &doc.throws {
        let norm = normalise(text);
        ctx.link_members = link_members(&norm);
        let toks = tokens(&norm.text);
        let (text, cond) = throws_text_and_condition(&toks);
        let (joiner, triggers) = triggers(&cond, ctx);
        let origin = Origin::Throws(exception.clone());
        out.push(Clause { origin, sentence: join(&text), joiner, triggers, inherited_from: from.clone() });
    }
    if let Some((text, from)) = &doc.returns {
        let norm = normalise(text);
        ctx.link_members = link_members(&norm);
        let toks = tokens(&norm.text);
        let first = sentence::first_sentence(&toks);
        for (value, cond) in sentence::return_conditions(first) {
            let cond = with_value_as_subject(&value, cond);
            let (joiner, mut triggers) = triggers(&cond, ctx);
            if let Some(own) = own_query(&value, ctx)
                && triggers.iter().all(|t| t.condition.is_unknown())
            {
                triggers = vec![Trigger { text: join(&cond), ..own }];
            }
            let origin = Origin::Returns(value);
            out.push(Clause { origin, sentence: join(first), joiner, triggers, inherited_from: from.clone() });
        }
    }
    out
}

/// The text of an exception clause that counts (its first sentence and
/// the later sentences that add a case: "It may also be thrown if the
/// stream has been closed.") and its condition, the added cases joined
/// with `;` (a boundary of [`split`]).
fn throws_text_and_condition(toks: &[Token]) -> (Vec<Token>, Vec<Token>) {
    let first = sentence::first_sentence(toks);
    let mut text = first.to_vec();
    let mut cond = sentence::throws_condition(first).to_vec();
    let mut rest = &toks[first.len()..];
    while !rest.is_empty() {
        let after_dot = rest.iter().position(|t| !t.is(".")).unwrap_or(rest.len());
        rest = &rest[after_dot..];
        let next = sentence::first_sentence(rest);
        if next.is_empty() {
            break;
        }
        if sentence::adds_a_case(next) {
            text.push(Token { text: ".".into(), code: false });
            text.extend_from_slice(next);
            cond.push(Token { text: ";".into(), code: false });
            cond.extend_from_slice(sentence::throws_condition(next));
        }
        rest = &rest[next.len()..];
    }
    (text, cond)
}

/// "`true` if the socket successfully connected" documenting
/// `isConnected()`, "`true` if this map maps one or more keys to the
/// specified value" documenting `containsValue(value)`: the @return of a
/// boolean query restates the query, so
/// its condition is the call itself (`this.isConnected()`, negated for
/// `false`), T3. `None` for other methods and values.
fn own_query(value: &str, ctx: &MethodContext) -> Option<Trigger> {
    let truth = match value.trim_matches('`') {
        "true" => true,
        "false" => false,
        _ => return None,
    };
    let query = is_query_name(ctx.method);
    if ctx.is_static || ctx.returns != "boolean" || !query {
        return None;
    }
    let args = ctx.params.iter().map(|p| Expr::Param(p.clone())).collect();
    let call = Cond::Truth(Expr::Call { target: Box::new(Expr::This), name: ctx.method.to_string(), args });
    let entity = Entity::Method { class: None, name: ctx.method.to_string() };
    Some(Trigger {
        kind: TriggerKind::CallDependency,
        text: String::new(),
        triple: None,
        condition: if truth { call } else { call.negated() },
        links: vec![Link { mention: value.to_string(), entity, confidence: 1.0 }],
        confidence: 1.0,
    })
}

/// Whether a method name asks a question: `isEmpty`, `hasNext`,
/// `canRead`, `contains`, `containsKey` (a membership test is a query
/// too), `supportsFileAttributeView`, and the getter of a boolean
/// property (`getSecure`, `getLoopbackMode`: only boolean methods are
/// asked). Not `equals`: "`true` if the objects are the same" is read as
/// a restriction of its own.
fn is_query_name(name: &str) -> bool {
    let prefixed = |p: &str| name.strip_prefix(p).is_some_and(|rest| rest.starts_with(char::is_uppercase));
    ["is", "has", "can", "contains", "supports", "get"].iter().any(|p| prefixed(p)) || name == "contains"
}

fn link_members(norm: &crate::javadoc::Normalised) -> Vec<(String, String)> {
    norm.links.iter().filter(|l| !l.member.is_empty()).map(|l| (l.member.clone(), l.shown.clone())).collect()
}

/// "`obj` if not `null`": a return condition without a subject is about
/// the returned value.
fn with_value_as_subject(value: &str, cond: Vec<Token>) -> Vec<Token> {
    let starts = cond.first().is_some_and(|t| t.is("not") || t.is("null"));
    if !starts || verb_index(&cond).is_some() {
        return cond;
    }
    let mut out = tokens(value);
    out.push(Token { text: "is".into(), code: false });
    out.extend(cond);
    out
}

/// Splits a condition into triggers.
fn triggers(cond: &[Token], ctx: &MethodContext) -> (Joiner, Vec<Trigger>) {
    if cond.is_empty() || (cond.len() == 1 && cond[0].is("always")) {
        let t = Trigger {
            kind: TriggerKind::Other,
            text: join(cond),
            triple: None,
            condition: Cond::Unknown,
            links: Vec::new(),
            confidence: 0.5,
        };
        return (Joiner::Or, vec![t]);
    }
    if let Some((alternatives, scope)) = sentence::scoped_conjunction(cond) {
        let (_, alternatives) = triggers(alternatives, ctx);
        let scope = trigger(scope, ctx);
        let scoped = self::scope::scoped_alternatives(&alternatives, &scope);
        let both = |(t, scoped): (Trigger, bool)| {
            if !scoped {
                return t;
            }
            let text = format!("{}, and {}", t.text, scope.text);
            let triple = t.triple.clone();
            conjunction(vec![t, scope.clone()], text, triple)
        };
        return (Joiner::Or, alternatives.into_iter().zip(scoped).map(both).collect());
    }
    if code::whole_code_condition(cond, ctx) {
        return (Joiner::Or, vec![trigger(cond, ctx)]);
    }
    if let Some(completed) = receiver_as_subject(cond, ctx) {
        let mut t = trigger(&completed, ctx);
        t.text = join(cond);
        return (Joiner::Or, vec![t]);
    }
    let expanded = expand_arguments(cond, ctx);
    let mut sp = split(&expanded);
    scope::share_first_conjunct(&mut sp.parts);
    let mut previous: Option<Expr> = None;
    let mut subjects: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for p in &sp.parts {
        if let Some(pairs) = items::duplicates(p, ctx) {
            out.extend(pairs);
            continue;
        }
        let p = &these_two(p, &subjects);
        let t = elements_of_previous(p, previous.as_ref(), ctx)
            .or_else(|| items::item_is_null(p, ctx))
            .unwrap_or_else(|| trigger(p, ctx));
        let subject = verb_index(p).and_then(|v| ctx.noun_phrase(&p[..v])).map(|(e, _)| e);
        if let Some(Expr::Param(name)) = &subject
            && !subjects.contains(name)
        {
            subjects.push(name.clone());
        }
        previous = subject.or(previous);
        out.push(t);
    }
    (sp.joiner, out)
}

/// "or if the sum of these two values is negative" after parts about
/// `offset` and `length`: "these two values" (or "these two", "both
/// values") are the last two parameters the earlier parts were about.
fn these_two(part: &[Token], subjects: &[String]) -> Vec<Token> {
    let at =
        part.windows(2).position(|w| (w[0].is("these") && w[1].is("two")) || (w[0].is("both") && w[1].is("values")));
    let (Some(at), [.., a, b]) = (at, subjects) else { return part.to_vec() };
    let len = if part.get(at + 2).is_some_and(|t| t.is("values")) { 3 } else { 2 };
    let code = |n: &String| Token { text: n.clone(), code: true };
    let mut out = part[..at].to_vec();
    out.extend([code(a), Token { text: "and".into(), code: false }, code(b)]);
    out.extend_from_slice(&part[at + len..]);
    out
}

/// "the value, if present", "if closed", "if not terminated": a condition
/// of one word (after "not") without subject or verb is a state of the
/// receiver ("this is present"), for an instance method.
fn receiver_as_subject(cond: &[Token], ctx: &MethodContext) -> Option<Vec<Token>> {
    let words: Vec<&Token> = cond.iter().filter(|t| !t.is("not")).collect();
    let [w] = words.as_slice() else { return None };
    let adjective = !w.code && w.text.chars().all(|c| c.is_ascii_alphabetic() || c == '-');
    if ctx.is_static || !adjective || verb_index(cond).is_some() {
        return None;
    }
    let word = |text: &str| Token { text: text.into(), code: false };
    Some([word("this"), word("is")].into_iter().chain(cond.iter().cloned()).collect())
}

/// "the specified collection or any of its elements are null": the
/// elements of the previous part's subject (`c.contains(null)`).
fn elements_of_previous(part: &[Token], previous: Option<&Expr>, ctx: &MethodContext) -> Option<Trigger> {
    let v = verb_index(part)?;
    let subject: Vec<String> = part[..v].iter().map(|t| t.text.to_ascii_lowercase()).collect();
    let about_elements =
        subject.iter().any(|w| w == "its" || w == "their") && subject.last().is_some_and(|w| w.starts_with("element"));
    let null = part[v..].iter().any(|t| t.text.eq_ignore_ascii_case("null"));
    let target = previous?;
    if !about_elements || !null || ctx.type_of(target).is_some_and(|t| t.ends_with("[]")) {
        return None;
    }
    let call = Expr::Call { target: Box::new(target.clone()), name: "contains".into(), args: vec![Expr::Null] };
    Some(Trigger {
        kind: TriggerKind::Nullness,
        text: join(part),
        triple: triple(part),
        condition: Cond::Truth(call),
        links: Vec::new(),
        confidence: 0.8,
    })
}

/// One trigger from one part.
fn trigger(part: &[Token], ctx: &MethodContext) -> Trigger {
    let reworded = rephrase::restriction_in_subject(part).or_else(|| rephrase::absence_as_subject(part));
    if let Some(reworded) = reworded {
        let mut t = trigger_of(&reworded, ctx);
        t.text = join(part);
        return t;
    }
    match sentence::with_copula(part) {
        Some(completed) => trigger_of(&completed, ctx),
        None => trigger_of(part, ctx),
    }
}

/// [`trigger`] of a part with its verb.
fn trigger_of(part: &[Token], ctx: &MethodContext) -> Trigger {
    let text = join(part);
    let triple = triple(part);
    let code_cond = |t: &Token| code::code_condition(&t.text, ctx);
    if let Some(cond) = part.iter().filter(|t| t.code).find_map(code_cond) {
        let cond = predicate::numeric_sides(ctx, cond);
        let kind = if cond.is_unknown() { TriggerKind::Range } else { code::kind_of(&cond, ctx) };
        let own = Trigger {
            kind,
            text: text.clone(),
            triple: triple.clone(),
            condition: cond,
            links: Vec::new(),
            confidence: 1.0,
        };
        // "`roundingMode==ROUND_UNNECESSARY` and `this.scale()` is
        // insufficient ...": the code is one conjunct of the part.
        let rest = code::other_conjuncts(part);
        if rest.is_empty() {
            return own;
        }
        let subs = std::iter::once(own).chain(rest.iter().map(|p| trigger(p, ctx))).collect();
        return conjunction(subs, text, triple);
    }
    // An "and" left inside an "or" list, or a "but" ("does not exist but
    // cannot be created"): one trigger with a conjunction; a piece without
    // a subject takes the first piece's.
    let ands: Vec<&[Token]> = part.split(|t| t.is("and") || t.is("but")).filter(|p| !p.is_empty()).collect();
    if ands.len() > 1 && ands.iter().all(|p| verb_index(p).is_some()) {
        let subject = &ands[0][..verb_index(ands[0]).unwrap_or(0)];
        let subs: Vec<Trigger> = ands
            .iter()
            .map(|p| match verb_index(p) {
                Some(0) => trigger(&[subject, p].concat(), ctx),
                _ => trigger(p, ctx),
            })
            .collect();
        return conjunction(subs, text, triple);
    }
    let (subject_toks, predicate) = match verb_index(part) {
        Some(v) => (&part[..v], &part[v..]),
        None => (&part[..0], part),
    };
    // "there are more tokens": a state of the receiver ("has more tokens").
    let existential = subject_toks.len() == 1 && subject_toks[0].is("there");
    let has: Vec<Token>;
    let predicate = if existential && !predicate.is_empty() {
        has =
            std::iter::once(Token { text: "has".into(), code: false }).chain(predicate[1..].iter().cloned()).collect();
        &has[..]
    } else {
        predicate
    };
    let subject = if existential { None } else { ctx.noun_phrase(subject_toks) };
    let subject_negated = subject_toks.first().is_some_and(|t| t.is("no"));
    if let Some((Expr::Name(n), _)) = &subject
        && ctx.receiver_methods.iter().any(|m| m.name == *n)
    {
        let link =
            Link { mention: n.clone(), entity: Entity::Method { class: None, name: n.clone() }, confidence: 1.0 };
        return Trigger {
            kind: TriggerKind::CallDependency,
            text,
            triple,
            condition: Cond::Unknown,
            links: vec![link],
            confidence: 1.0,
        };
    }
    let d = predicate::derive(ctx, subject.as_ref(), subject_negated, part, predicate);
    let confidence = confidence(&d.links);
    Trigger { kind: d.kind, text, triple, condition: d.condition, links: d.links, confidence }
}

/// One trigger that holds when all of `subs` hold (`A && B`), typed by
/// the first part about a parameter ("a value is present and the given
/// action is null" is a nullness trigger: the parameter is what a caller
/// controls), else by the first typed part.
fn conjunction(subs: Vec<Trigger>, text: String, triple: Option<Triple>) -> Trigger {
    let typed = |s: &&Trigger| s.kind != TriggerKind::Other;
    let kind = subs
        .iter()
        .filter(typed)
        .find(|s| s.condition.has_param())
        .or_else(|| subs.iter().find(typed))
        .map_or(TriggerKind::Other, |s| s.kind);
    let condition = Cond::join(subs.iter().map(|s| s.condition.clone()).collect(), true);
    let links: Vec<Link> = subs.into_iter().flat_map(|s| s.links).collect();
    let confidence = confidence(&links);
    Trigger { kind, text, triple, condition, links, confidence }
}

/// The lowest link confidence; 0.5 when nothing was linked.
fn confidence(links: &[Link]) -> f32 {
    links.iter().map(|l| l.confidence).reduce(f32::min).unwrap_or(0.5)
}

/// T1 for comparisons with `null` or `contains(null)`, T2 for other
/// comparisons, T3 for method states, T4 when nothing is known.
pub fn classify(cond: &Cond) -> TriggerKind {
    match cond {
        Cond::Cmp { left, right, op: CmpOp::Eq | CmpOp::Ne } if *left == Expr::Null || *right == Expr::Null => {
            TriggerKind::Nullness
        }
        Cond::Cmp { .. } => TriggerKind::Range,
        Cond::Truth(Expr::Call { args, .. }) if args.first() == Some(&Expr::Null) => TriggerKind::Nullness,
        Cond::Truth(_) => TriggerKind::CallDependency,
        Cond::Not(inner) => classify(inner),
        Cond::And(parts) | Cond::Or(parts) => {
            parts.iter().map(classify).find(|k| *k != TriggerKind::Other).unwrap_or(TriggerKind::Other)
        }
        Cond::InstanceOf { .. } | Cond::Unknown => TriggerKind::Other,
    }
}

/// The (subject, relation, object) triple of a part and its shape.
fn triple(part: &[Token]) -> Option<Triple> {
    let v = verb_index(part)?;
    let subject = join(&part[..v]);
    let mut r = v + 1;
    let relation_words =
        ["not", "no", "yet", "than", "to", "equal", "or", "less", "greater", "larger", "smaller", "been"];
    while r < part.len() && relation_words.iter().any(|w| part[r].is(w)) {
        r += 1;
    }
    let copula = ["is", "are", "was", "were", "be"].iter().any(|w| part[v].is(w));
    let comparative = part[v..r].iter().any(|t| t.is("than") || t.is("to"));
    let object = join(&part[r..]);
    let shape = if object.is_empty() {
        Shape::SV
    } else if copula && !comparative {
        Shape::SVP
    } else {
        Shape::SVO
    };
    let (relation, object) =
        if shape == Shape::SVP { (join(&part[v..]), String::new()) } else { (join(&part[v..r]), object) };
    Some(Triple { subject, relation, object, shape })
}

/// Replaces "any argument", "either argument", "the arguments", "any of
/// the parameters" by the parameter names joined with "or" (only
/// reference-typed parameters when the text is about `null`); "any key or
/// value", "any element" by the parameters those nouns name (`k1`, `v1`,
/// `e1`, ... of `Map.of`, `List.of`) when there are several.
fn expand_arguments(tokens: &[Token], ctx: &MethodContext) -> Vec<Token> {
    // "the arguments are equal to each other" is about all of them at once.
    let reciprocal =
        tokens.windows(2).any(|w| (w[0].is("each") && w[1].is("other")) || (w[0].is("one") && w[1].is("another")));
    if reciprocal {
        return tokens.to_vec();
    }
    let about_null = tokens.iter().any(|t| t.text.eq_ignore_ascii_case("null"));
    let usable = |i: usize| !about_null || !is_primitive(&ctx.param_types[i]);
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        // Only a phrase in subject position names the arguments as the
        // subjects of triggers ("incompatible with the given arguments" does not).
        let subject_position = i == 0 || ["or", "and", ",", "if", "when", ";"].iter().any(|w| tokens[i - 1].is(w));
        let (len, nouns) = if subject_position { argument_phrase(&tokens[i..]) } else { (0, None) };
        let names_one = |k: usize, n: &String| {
            if n == "field" {
                !about_null && is_field_value(&ctx.param_types[k])
            } else {
                names_noun(&ctx.params[k], n)
            }
        };
        let mut names: Vec<&String> = (0..ctx.params.len())
            .filter(|&k| usable(k) && nouns.as_ref().is_none_or(|n| n.iter().any(|n| names_one(k, n))))
            .map(|k| &ctx.params[k])
            .collect();
        let (len, names) = match typed_phrase(&tokens[i..], ctx) {
            Some((typed_len, typed)) if len == 0 && subject_position => (typed_len, typed),
            _ => (len, std::mem::take(&mut names)),
        };
        if len > 0 && names.len() > 1 {
            for (k, n) in names.iter().enumerate() {
                if k > 0 {
                    out.push(Token { text: "or".into(), code: false });
                }
                out.push(Token { text: (*n).clone(), code: true });
            }
            i += len;
        } else {
            out.push(tokens[i].clone());
            i += 1;
        }
    }
    out
}

/// "either array", "both strings", "any of the arrays": the parameters
/// of the type the noun names, when there are at least two; the phrase's
/// length and their names.
fn typed_phrase<'c>(t: &[Token], ctx: &MethodContext<'c>) -> Option<(usize, Vec<&'c String>)> {
    type Fits = fn(&str) -> bool;
    const TYPE_NOUNS: &[(&str, Fits)] = &[
        ("array", |ty| ty.ends_with("[]")),
        ("string", |ty| ty == "java.lang.String"),
        ("collection", |ty| ty == "java.util.Collection"),
        ("list", |ty| ty == "java.util.List"),
        ("map", |ty| ty == "java.util.Map"),
    ];
    if !t.first().is_some_and(|f| ["either", "both", "any", "each"].iter().any(|q| f.is(q))) {
        return None;
    }
    let k = 1 + t[1..].iter().take_while(|w| w.is("of") || w.is("the") || w.is("two")).count();
    let noun = t.get(k).filter(|n| !n.code)?.text.to_ascii_lowercase();
    let noun = noun.trim_end_matches('s');
    let (_, fits) = TYPE_NOUNS.iter().find(|(n, _)| *n == noun)?;
    let names: Vec<&String> =
        (0..ctx.params.len()).filter(|&i| fits(&ctx.param_types[i])).map(|i| &ctx.params[i]).collect();
    (names.len() >= 2).then_some((k + 1, names))
}

/// Whether parameter `param` is one of a numbered series a noun names
/// (`k3` for "key", `e1` for "element", `value2` for "value").
fn names_noun(param: &str, noun: &str) -> bool {
    let base = param.trim_end_matches(|c: char| c.is_ascii_digit());
    base.len() < param.len() && (base == &noun[..1] || noun.starts_with(base))
}

/// The length of an "any/either/all of the argument(s)" phrase at the
/// start of `t` (0 when there is none), with the nouns it names when they
/// are not "argument"/"parameter" ("any key or value": key, value).
fn argument_phrase(t: &[Token]) -> (usize, Option<Vec<String>>) {
    // "the value of any field is out of range": the fields themselves.
    let value_of = t.len() > 3 && t[0].is("the") && (t[1].is("value") || t[1].is("values")) && t[2].is("of");
    if value_of {
        return match argument_phrase(&t[3..]) {
            (len, Some(nouns)) if len > 0 && nouns == ["field"] => (len + 3, Some(nouns)),
            _ => (0, None),
        };
    }
    let quantifier = ["any", "either", "all", "both", "one", "the", "an", "a"];
    let generic = |tok: &Token| ["argument", "arguments", "parameter", "parameters"].iter().any(|w| tok.is(w));
    if !t.first().is_some_and(|f| quantifier.iter().any(|q| f.is(q))) {
        return (0, None);
    }
    let mut k = 1;
    // "any one of the arguments", "one or more of the arguments".
    let skipped = ["of", "the", "its", "or", "more", "one", "specified", "given"];
    while k < t.len() && skipped.iter().any(|w| t[k].is(w)) {
        k += 1;
    }
    let plural_or_quantified = !t[0].is("the") || t.get(k).is_some_and(|n| n.is("arguments") || n.is("parameters"));
    // "an argument in the `arguments` array" is an item of one parameter.
    let qualified = t.get(k + 1).is_some_and(|n| n.is("in") || n.is("of"));
    if t.get(k).is_some_and(generic) && plural_or_quantified {
        return if qualified { (0, None) } else { (k + 1, None) };
    }
    if !(t[0].is("any") || t[0].is("an") || t[0].is("a")) {
        return (0, None);
    }
    // "any key or value", "any element", "any of the elements", "an
    // element" (of `Set.of(e1, e2, e3)`).
    let noun = |tok: &Token| {
        let w = tok.text.to_ascii_lowercase();
        let w = w.trim_end_matches('s');
        (!tok.code && ["key", "value", "element", "field"].contains(&w)).then(|| w.to_string())
    };
    let mut nouns = Vec::new();
    while let Some(n) = t.get(k).and_then(noun) {
        nouns.push(n);
        k += 1;
        if t.get(k).is_some_and(|o| o.is("or")) && t.get(k + 1).and_then(noun).is_some() {
            k += 1;
        }
    }
    if nouns.is_empty() { (0, None) } else { (k, Some(nouns)) }
}

/// Whether a parameter of type `ty` can be the value of a field ("the
/// value of any field is out of range" of `LocalDate.of(int, int, int)`).
fn is_field_value(ty: &str) -> bool {
    matches!(ty, "int" | "long")
}

/// Whether `ty` (an erased Java type) is a primitive type.
pub(super) fn is_primitive(ty: &str) -> bool {
    matches!(ty, "int" | "long" | "short" | "byte" | "char" | "boolean" | "float" | "double")
}

#[cfg(test)]
mod tests {
    use super::testctx::{Owned, shown, throws_triggers};

    #[test]
    fn the_value_of_any_field_is_each_numeric_parameter() {
        let of = Owned::new(
            "LocalDateTime",
            "of",
            &[("int", "year"), ("int", "month"), ("int", "dayOfMonth"), ("java.time.ZoneOffset", "offset")],
            vec![],
        );
        let t = throws_triggers(
            &of,
            "if the value of any field is out of range, or if the day-of-month is invalid for the month-year",
        );
        let kinds: Vec<String> = shown(&t).into_iter().map(|(k, _)| k).collect();
        assert_eq!(kinds, ["T2", "T2", "T2", "T4"]);
        assert_eq!(t[1].text, "`month` is out of range");
    }

    #[test]
    fn an_element_of_a_numbered_series_is_each_of_them() {
        let of = Owned::new("Set", "of", &[("java.lang.Object", "e1"), ("java.lang.Object", "e2")], vec![]);
        let t = throws_triggers(&of, "if an element is `null`");
        let conds: Vec<String> = shown(&t).into_iter().map(|(_, c)| c).collect();
        assert_eq!(conds, ["e1 == null", "e2 == null"]);
        let format = Owned::new(
            "MessageFormat",
            "format",
            &[("java.lang.String", "pattern"), ("java.lang.Object[]", "arguments")],
            vec![],
        );
        let t = throws_triggers(&format, "if an argument in the `arguments` array is not of the type expected");
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn the_sum_of_these_two_values_is_the_sum_of_the_last_two_subjects() {
        let reader =
            Owned::new("CharArrayReader", "<init>", &[("char[]", "buf"), ("int", "offset"), ("int", "length")], vec![]);
        let t = throws_triggers(
            &reader,
            "If `offset` is negative or greater than `buf.length`, or if `length` is negative, or if the sum of these two values is negative",
        );
        let conds: Vec<String> = shown(&t).into_iter().map(|(_, c)| c).collect();
        assert_eq!(conds, ["offset < 0", "offset > buf.length", "length < 0", "offset + length < 0"]);
    }

    #[test]
    fn a_bare_adjective_is_a_state_of_the_receiver() {
        let optional =
            Owned::new("Optional", "orElseThrow", &[], vec![super::testctx::method("isPresent", &[], "boolean")]);
        let t = throws_triggers(&optional, "if present");
        assert_eq!(shown(&t), [("T3".to_string(), "this.isPresent()".to_string())]);
        let t = throws_triggers(&optional, "if not present");
        assert_eq!(shown(&t), [("T3".to_string(), "!this.isPresent()".to_string())]);
    }

    #[test]
    fn a_membership_query_is_its_own_return_condition() {
        let mut m = Owned::new("ConcurrentHashMap", "containsValue", &[("java.lang.Object", "value")], vec![]);
        m.returns = "boolean".into();
        let t = super::own_query("`true`", &m.ctx()).expect("a query");
        assert_eq!(t.condition.to_string(), "this.containsValue(value)");
        m.method = "add".into();
        assert!(super::own_query("`true`", &m.ctx()).is_none());
    }

    #[test]
    fn a_code_span_with_the_texts_parenthesis_is_a_condition_and_the_rest_splits() {
        let m = Owned::new("BigDecimal", "sqrt", &[("java.math.MathContext", "mc")], vec![]);
        let t = throws_triggers(
            &m,
            "if `(mc.getRoundingMode()==RoundingMode.UNNECESSARY`) and the exact result cannot fit in \
             `mc.getPrecision()` digits",
        );
        let conds: Vec<String> = shown(&t).into_iter().map(|(_, c)| c).collect();
        assert_eq!(conds, ["mc.getRoundingMode() == RoundingMode.UNNECESSARY", "?"]);
    }

    #[test]
    fn any_one_of_the_arguments_and_a_boolean_getter() {
        let put =
            Owned::new("ResponseCache", "put", &[("java.net.URI", "uri"), ("java.net.URLConnection", "conn")], vec![]);
        let conds: Vec<String> =
            shown(&throws_triggers(&put, "if any one of the arguments is null")).into_iter().map(|(_, c)| c).collect();
        assert_eq!(conds, ["uri == null", "conn == null"]);
        let mut secure = Owned::new("HttpCookie", "getSecure", &[], vec![]);
        secure.returns = "boolean".into();
        let t = super::own_query("`false`", &secure.ctx()).expect("a boolean getter is a query");
        assert_eq!(t.condition.to_string(), "!this.getSecure()");
    }
}
