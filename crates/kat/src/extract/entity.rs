//! Entity linking of noun phrases (KAT section 3.1, "triple alignment"):
//! a phrase of a trigger to the receiver, a parameter (intra-method
//! linking, threshold [`PARAM_THRESHOLD`]), or a value derived from them
//! ("the length of this string" is `this.length()`), with a confidence.

use super::sentence::Token;
use super::words::{self, content, same_word, similarity};

use crate::cond::Expr;
use crate::graph::{Entity, Link};

/// Minimum similarity for linking a phrase to a parameter of the same
/// method (KAT's first threshold; its value is not in our copy of the
/// paper, 0.5 keeps "the index" → `fromIndex` out when `index` exists).
pub const PARAM_THRESHOLD: f32 = 0.5;

/// Minimum similarity for linking to a method of the same class (KAT: 0.8).
pub const CLASS_THRESHOLD: f32 = 0.8;

/// Minimum similarity for linking to a method of another class (a
/// parameter's type). KAT uses a different, lower threshold here because
/// wordings differ more across classes; with our containment measure a
/// name must still share most of its words with the phrase.
pub const OTHER_CLASS_THRESHOLD: f32 = 0.7;

/// A zero- or one-argument method of a type, for linking states and sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateMethod {
    /// The method name.
    pub name: String,
    /// Erased Java types of its parameters (at most one).
    pub params: Vec<String>,
    /// Erased Java return type.
    pub returns: String,
}

/// The methods of a type by its erased Java name (`java.nio.channels.DatagramChannel`),
/// for values reached through a getter of the receiver (`this.getChannel()`).
pub trait TypeMethods: std::fmt::Debug {
    /// Its zero- and one-argument instance methods, inherited ones included.
    fn methods_of_type(&self, java: &str) -> &[StateMethod];

    /// The simple name and the static one-parameter methods of the
    /// exported class a noun names ("charset": `Charset`), when exactly
    /// one class has that simple name.
    fn statics_named(&self, _noun: &str) -> Option<(&str, &[StateMethod])> {
        None
    }
}

/// What the extractor knows about the documented method.
#[derive(Debug)]
pub struct MethodContext<'a> {
    /// Simple name of the declaring class (`String`, `ArrayList`).
    pub class_simple: &'a str,
    /// The documented method's name (`<init>` for constructors).
    pub method: &'a str,
    /// Its erased Java return type (`boolean`, `void`, `java.lang.String`).
    pub returns: &'a str,
    /// No receiver: a static method or a constructor.
    pub is_static: bool,
    /// Parameter names in order.
    pub params: &'a [String],
    /// Erased Java types of the parameters (`int`, `java.lang.String`).
    pub param_types: &'a [String],
    /// Methods of the receiver's class, inherited ones included.
    pub receiver_methods: &'a [StateMethod],
    /// The declaring class's own static methods of one parameter
    /// (`Files.isDirectory(Path)`), for states of a parameter that the
    /// class itself reports.
    pub static_methods: &'a [StateMethod],
    /// Methods of each parameter's class (empty for primitives/unknown).
    pub param_methods: Vec<&'a [StateMethod]>,
    /// `{@link}`s met in the clause: member name and the text shown for it
    /// (a link gives confidence 1.0 where its text appears).
    pub link_members: Vec<(String, String)>,
    /// Methods of other types (`None`: only the receiver's and the
    /// parameters' are known).
    pub types: Option<&'a dyn TypeMethods>,
    /// Each parameter's `@param` text, normalised (empty when undocumented),
    /// for ranges the documentation states there ("from 1 to 7").
    pub param_docs: Vec<String>,
}

/// Words that are determiners or modifiers of a phrase, not its content.
const DETERMINERS: &[&str] = &[
    "the",
    "a",
    "an",
    "this",
    "that",
    "its",
    "any",
    "each",
    "every",
    "some",
    "specified",
    "given",
    "supplied",
    "provided",
    "passed",
    "input",
    "said",
    "current",
    "new",
    "desired",
    "requested",
];

/// Head nouns that name a parameter or value without naming it.
const GENERIC_HEADS: &[&str] = &["argument", "parameter", "value", "object", "input"];

/// Conventional parameter names for a head noun.
const ALIASES: &[(&str, &[&str])] = &[
    ("element", &["e", "o", "obj", "element", "elem"]),
    ("object", &["o", "obj", "object"]),
    ("key", &["k", "key"]),
    ("value", &["v", "value", "val"]),
    ("collection", &["c", "coll", "collection", "col"]),
    ("array", &["a", "array", "arr"]),
    ("buffer", &["buf", "buffer", "b"]),
    ("string", &["s", "str", "string"]),
    ("character", &["c", "ch", "codePoint"]),
    ("char", &["c", "ch"]),
    ("map", &["m", "map"]),
    ("file", &["file", "f", "path", "dir"]),
    ("directory", &["dir", "directory", "path"]),
    ("action", &["action", "consumer"]),
    ("function", &["function", "mapper", "fn"]),
    ("predicate", &["predicate", "filter"]),
    ("comparator", &["c", "comparator", "cmp"]),
];

impl MethodContext<'_> {
    /// Whether the receiver's class has a zero-argument method `name`.
    pub fn receiver_has(&self, name: &str) -> bool {
        self.receiver_methods.iter().any(|m| m.name == name && m.params.is_empty())
    }

    /// Methods of the type of `e` (receiver or parameter).
    pub fn methods_of(&self, e: &Expr) -> &[StateMethod] {
        match e {
            Expr::This => self.receiver_methods,
            Expr::Param(p) => {
                self.params.iter().position(|q| q == p).and_then(|i| self.param_methods.get(i).copied()).unwrap_or(&[])
            }
            // `this.getChannel()`: the methods of the getter's type.
            Expr::Call { target, name, args } if args.is_empty() => {
                let getter = self.methods_of(target).iter().find(|m| m.name == *name && m.params.is_empty());
                match (getter, self.types) {
                    (Some(m), Some(types)) => types.methods_of_type(&m.returns),
                    _ => &[],
                }
            }
            _ => &[],
        }
    }

    /// The erased Java type of `e` when known.
    pub fn type_of(&self, e: &Expr) -> Option<&str> {
        match e {
            Expr::Param(p) => self.params.iter().position(|q| q == p).map(|i| self.param_types[i].as_str()),
            _ => None,
        }
    }

    /// Links a noun phrase to a value: the receiver, a parameter, a number,
    /// `null`, a code expression, or "the length/size of X".
    pub fn noun_phrase(&self, tokens: &[Token]) -> Option<(Expr, Option<Link>)> {
        let designated = tokens.iter().any(|t| t.is("specified") || t.is("given") || t.is("supplied"));
        let found = self.linked_phrase(strip_determiners(tokens));
        found.or_else(|| designated.then(|| self.only_reference_parameter(tokens)).flatten())
    }

    /// "the specified key" where nothing else links and the method has one
    /// reference parameter (a `Set`'s `e`): that parameter, with a low
    /// confidence.
    fn only_reference_parameter(&self, tokens: &[Token]) -> Option<(Expr, Option<Link>)> {
        // Arrays are references too.
        let reference = |t: &str| t.contains('.') || t.ends_with("[]");
        let refs: Vec<usize> = (0..self.params.len()).filter(|&i| reference(&self.param_types[i])).collect();
        let [i] = refs.as_slice() else { return None };
        // "the specified replacement value" is no `BiFunction function`: the
        // head noun must fit the parameter's type, unless that is `Object` or
        // a string (which stand for anything: "the given regular expression").
        let head = tokens.last().map(|t| super::words::stem(&t.text.to_ascii_lowercase())).unwrap_or_default();
        let ty = &self.param_types[*i];
        let any = matches!(ty.as_str(), "java.lang.Object" | "java.lang.String" | "java.lang.CharSequence");
        let fits = any || content(simple_type(ty)).iter().any(|w| same_word(w, &head));
        if !fits {
            return None;
        }
        let p = self.params[*i].clone();
        let mention = tokens.iter().map(|t| t.text.as_str()).collect::<Vec<_>>().join(" ");
        let link = Link { mention, entity: Entity::Param(p.clone()), confidence: PARAM_THRESHOLD };
        Some((Expr::Param(p), Some(link)))
    }

    /// [`Self::noun_phrase`] of a phrase without determiners.
    fn linked_phrase(&self, tokens: &[Token]) -> Option<(Expr, Option<Link>)> {
        if tokens.is_empty() {
            return None;
        }
        if let Some(found) = self.arithmetic(tokens) {
            return Some(found);
        }
        let whole: String = tokens.iter().map(|t| t.text.as_str()).collect::<Vec<_>>().join(" ");
        // "the initial capacity" names `initialCapacity`; "the array size"
        // is the size of `array`.
        let last = super::words::words(&whole).pop().unwrap_or_default();
        let names_a_parameter = self
            .parameter(&whole)
            .is_some_and(|(p, s)| s >= 0.9 && super::words::words(&p).iter().any(|w| same_word(w, &last)));
        if !names_a_parameter && let Some(found) = self.measure_of(tokens) {
            return Some(found);
        }
        if let Some(e) = literal(tokens) {
            return Some((e, None));
        }
        let code: Vec<&Token> = tokens.iter().filter(|t| t.code).collect();
        if code.len() == 1
            && let Some(found) = self.code_phrase(code[0], tokens)
        {
            return Some(found);
        }
        let text: String = tokens.iter().map(|t| t.text.as_str()).collect::<Vec<_>>().join(" ");
        if self.is_receiver_phrase(tokens) {
            let link = Link { mention: text, entity: Entity::Receiver, confidence: 1.0 };
            return Some((Expr::This, Some(link)));
        }
        if let Some((p, score)) = self.parameter(&text) {
            let link = Link { mention: text.clone(), entity: Entity::Param(p.clone()), confidence: score };
            return Some((Expr::Param(p), Some(link)));
        }
        self.receiver_value(&text).or_else(|| self.receiver_getter(tokens))
    }

    /// "the channel" documenting a method of `Socket`: the object the
    /// receiver's getter of that name reports (`this.getChannel()`), when
    /// the getter exists, takes no argument and returns an object.
    fn receiver_getter(&self, tokens: &[Token]) -> Option<(Expr, Option<Link>)> {
        if self.is_static || tokens.iter().any(|t| t.code) || tokens.len() > 3 {
            return None;
        }
        let content: Vec<String> = tokens.iter().flat_map(|t| super::words::words(&t.text)).collect();
        let (first, rest) = content.split_first()?;
        let capital = |w: &String| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        };
        let camel: String = rest.iter().map(capital).collect();
        let names = [format!("get{}{camel}", capital(first)), format!("{first}{camel}")];
        let m = self.receiver_methods.iter().find(|m| {
            names.contains(&m.name) && m.params.is_empty() && m.returns.contains('.') && !m.returns.ends_with("[]")
        })?;
        let entity = Entity::Method { class: None, name: m.name.clone() };
        let mention = super::sentence::join(tokens);
        Some((Expr::call0(Expr::This, &m.name), Some(Link { mention, entity, confidence: 0.8 })))
    }

    /// "the buffer's limit, minus one", "`off` plus `len`": a sum or
    /// difference of two phrases (`this.limit() - 1`).
    fn arithmetic(&self, tokens: &[Token]) -> Option<(Expr, Option<Link>)> {
        if let Some(found) = self.sum_of(tokens) {
            return Some(found);
        }
        let k = tokens.iter().position(|t| t.is("minus") || t.is("plus"))?;
        let op = if tokens[k].is("minus") { '-' } else { '+' };
        let left = &tokens[..k];
        let left = left.strip_suffix(&[Token { text: ",".into(), code: false }]).unwrap_or(left);
        let (l, link) = self.noun_phrase(left)?;
        let (r, _) = self.noun_phrase(&tokens[k + 1..])?;
        Some((Expr::Arith { op, left: Box::new(l), right: Box::new(r) }, link))
    }

    /// "the sum of `offset` and `length`": `offset + length`.
    fn sum_of(&self, tokens: &[Token]) -> Option<(Expr, Option<Link>)> {
        let [sum, of, rest @ ..] = tokens else { return None };
        let and = rest.iter().position(|t| t.is("and"))?;
        if !sum.is("sum") || !of.is("of") {
            return None;
        }
        let (l, link) = self.noun_phrase(&rest[..and])?;
        let (r, _) = self.noun_phrase(&rest[and + 1..])?;
        Some((Expr::Arith { op: '+', left: Box::new(l), right: Box::new(r) }, link))
    }

    /// "the buffer's current position", "its limit": a numeric zero-argument
    /// method of the receiver whose name the phrase contains.
    fn receiver_value(&self, text: &str) -> Option<(Expr, Option<Link>)> {
        if self.is_static {
            return None;
        }
        // The phrase's head noun must be the name's last word: "its limit"
        // is `limit()`, "the number of registered parties" is not `register()`.
        let head = text.split_whitespace().last().unwrap_or("").trim_end_matches("'s").to_ascii_lowercase();
        let m = self.receiver_methods.iter().find(|m| {
            let last = super::words::words(&m.name).pop().unwrap_or_default();
            m.params.is_empty()
                && matches!(m.returns.as_str(), "int" | "long")
                && similarity(text, &m.name) >= 1.0
                && !head.ends_with("ed")
                && same_word(&super::words::stem(&head), &last)
        })?;
        let entity = Entity::Method { class: None, name: m.name.clone() };
        let link = Link { mention: text.to_string(), entity, confidence: CLASS_THRESHOLD };
        Some((Expr::call0(Expr::This, &m.name), Some(link)))
    }

    /// A phrase with one code span: a parameter, an expression, or the
    /// documented class itself ("this `String` object").
    fn code_phrase(&self, code: &Token, tokens: &[Token]) -> Option<(Expr, Option<Link>)> {
        let mention = code.text.clone();
        if self.params.contains(&code.text) {
            let link = Link { mention, entity: Entity::Param(code.text.clone()), confidence: 1.0 };
            return Some((Expr::Param(code.text.clone()), Some(link)));
        }
        if code.text == self.class_simple || (tokens.len() > 1 && tokens[0].is("this") && !self.is_static) {
            return Some((Expr::This, Some(Link { mention, entity: Entity::Receiver, confidence: 1.0 })));
        }
        // `MAX_CODE_POINT` in the documentation of `Character`: a constant of
        // the documented class.
        let constant = code.text.len() > 1
            && code.text.chars().all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
            && code.text.starts_with(|c: char| c.is_ascii_uppercase());
        if constant {
            let e =
                Expr::Field { target: Box::new(Expr::Name(self.class_simple.to_string())), name: code.text.clone() };
            return Some((e, None));
        }
        let e = Expr::parse_code(&code.text, self.params)?;
        match &e {
            Expr::Call { target, name, args } if **target == Expr::This && args.is_empty() => {
                if !self.receiver_has(name) {
                    return None;
                }
                Some((e.clone(), Some(Link { mention, entity: Entity::Receiver, confidence: 1.0 })))
            }
            _ => Some((e, None)),
        }
    }

    /// "this string", "this list", "this `Vector`": the receiver.
    fn is_receiver_phrase(&self, tokens: &[Token]) -> bool {
        let this_noun = tokens.len() <= 3 && tokens.first().is_some_and(|t| t.is("this"));
        // "the file denoted by this abstract pathname".
        let denoted = tokens
            .windows(3)
            .any(|w| (w[0].is("denoted") || w[0].is("represented")) && w[1].is("by") && w[2].is("this"));
        !self.is_static && (this_noun || denoted)
    }

    /// The parameter a phrase names best, with the similarity score.
    pub fn parameter(&self, text: &str) -> Option<(String, f32)> {
        let words = content(text);
        let head = words.last().cloned().unwrap_or_default();
        let mut best: Option<(String, f32)> = None;
        for (i, p) in self.params.iter().enumerate() {
            let mut score = similarity(text, p);
            // "the hostname parameter" names `host`: the parameter's name
            // with "name" written on.
            let named = words
                .iter()
                .any(|w| w.strip_suffix("name").is_some_and(|b| b.len() >= 3 && b == p.to_ascii_lowercase()));
            // "the package name argument" names `pkg`: an abbreviation.
            let abbreviated = words.iter().any(|w| abbreviates(p, w));
            if score < 1.0 && (is_alias(&head, p) || named || abbreviated) {
                score = score.max(0.8);
            }
            let ty = simple_type(&self.param_types[i]);
            let type_words = content(ty);
            let by_type = !type_words.is_empty() && words.iter().any(|w| type_words.iter().any(|t| same_word(w, t)));
            let array_word = self.param_types[i].ends_with("[]") && words.iter().any(|w| w == "array");
            if (by_type || array_word) && self.unique_type(i) {
                score = score.max(0.9);
            }
            // On a tie the name of more words is the more specific match:
            // "the empty-based action" is `emptyAction`, not `action`.
            let more_specific = |b: &str| score == best_score(&best) && words::words(p).len() > words::words(b).len();
            if best.as_ref().is_none_or(|(b, s)| score > *s || more_specific(b)) {
                best = Some((p.clone(), score));
            }
        }
        // "the function", "the operator": the one functional-interface parameter.
        let functional = ["function", "operator", "supplier", "consumer", "predicate", "action", "mapper"];
        let fi: Vec<usize> =
            (0..self.params.len()).filter(|&i| self.param_types[i].starts_with("java.util.function.")).collect();
        if fi.len() == 1 && functional.iter().any(|f| same_word(&head, f)) {
            let better = best.as_ref().is_none_or(|(_, s)| *s < 0.9);
            if better {
                best = Some((self.params[fi[0]].clone(), 0.9));
            }
        }
        if self.params.len() == 1 && words.iter().all(|w| GENERIC_HEADS.iter().any(|g| same_word(w, g))) {
            return Some((self.params[0].clone(), 0.8));
        }
        best.filter(|(_, s)| *s >= PARAM_THRESHOLD)
    }

    fn unique_type(&self, i: usize) -> bool {
        self.param_types.iter().filter(|t| **t == self.param_types[i]).count() == 1
    }

    /// "the length of X", "the size of X", "the number of elements in X",
    /// "X's length", "the length" (of the receiver).
    fn measure_of(&self, tokens: &[Token]) -> Option<(Expr, Option<Link>)> {
        const MEASURES: [&str; 4] = ["length", "size", "capacity", "count"];
        let first = tokens.first()?;
        let last = tokens.last()?;
        let (measure, target) = if let Some(m) = MEASURES.into_iter().find(|m| first.is(m)) {
            let of = tokens.iter().position(|t| t.is("of") || t.is("in"));
            match of {
                Some(k) => (m, self.noun_phrase(&tokens[k + 1..])?),
                None if tokens.len() == 1 && !self.is_static => (m, (Expr::This, None)),
                None => return None,
            }
        } else {
            // "the array size", "the string's length".
            let m = MEASURES.into_iter().find(|m| last.is(m))?;
            let owner: Vec<Token> = tokens[..tokens.len() - 1]
                .iter()
                .map(|t| Token { text: t.text.trim_end_matches("'s").to_string(), code: t.code })
                .collect();
            (m, self.noun_phrase(&owner)?)
        };
        let (target, link) = target;
        let e = if self.type_of(&target).is_some_and(|t| t.ends_with("[]")) {
            Expr::Field { target: Box::new(target), name: "length".into() }
        } else {
            let methods = self.methods_of(&target);
            let name = [measure, "length", "size"]
                .into_iter()
                .find(|n| methods.iter().any(|m| m.name == *n && m.params.is_empty()));
            match (name, &target) {
                (Some(n), _) => Expr::call0(target, n),
                (None, Expr::This) if measure == "count" => return None,
                (None, _) => Expr::call0(target, measure),
            }
        };
        Some((e, link))
    }
}

/// The score of the best match so far (0 when none).
fn best_score(best: &Option<(String, f32)>) -> f32 {
    best.as_ref().map_or(0.0, |(_, s)| *s)
}

fn strip_determiners(tokens: &[Token]) -> &[Token] {
    let mut t = tokens;
    while let Some(first) = t.first() {
        let keep_this = first.is("this") && t.len() > 1;
        if keep_this || !DETERMINERS.iter().any(|d| first.is(d)) {
            break;
        }
        t = &t[1..];
    }
    t
}

/// Numbers written as words or digits, and `null`.
fn literal(tokens: &[Token]) -> Option<Expr> {
    if tokens.len() != 1 {
        return None;
    }
    let t = tokens[0].text.to_ascii_lowercase();
    Some(match t.as_str() {
        "null" => Expr::Null,
        "zero" => Expr::Int(0),
        "one" => Expr::Int(1),
        "two" => Expr::Int(2),
        "three" => Expr::Int(3),
        "four" => Expr::Int(4),
        "five" => Expr::Int(5),
        "six" => Expr::Int(6),
        "seven" => Expr::Int(7),
        "eight" => Expr::Int(8),
        _ => Expr::Int(t.parse().ok()?),
    })
}

/// Whether a parameter name of three or more lower-case letters is an
/// abbreviation of a longer word: same first letter, its letters in order
/// (`pkg` of "package", `src` of "source", `dst` of "destination").
fn abbreviates(param: &str, word: &str) -> bool {
    let short = param.len() >= 3 && param.len() < word.len() && param.chars().all(|c| c.is_ascii_lowercase());
    if !short || param.chars().next() != word.chars().next() {
        return false;
    }
    let mut rest = word.chars();
    param.chars().all(|c| rest.any(|w| w == c))
}

fn is_alias(head: &str, param: &str) -> bool {
    ALIASES.iter().any(|(h, names)| same_word(head, h) && names.contains(&param))
}

/// `java.util.Collection` → `Collection`; arrays keep no brackets.
pub fn simple_type(java: &str) -> &str {
    let base = java.trim_end_matches("[]");
    base.rsplit(['.', '$']).next().unwrap_or(base)
}

#[cfg(test)]
mod tests {
    use super::super::testctx::{Owned, method, shown, throws_triggers};

    #[test]
    fn the_channel_is_what_the_receivers_getter_reports() {
        let mut send = Owned::new(
            "DatagramSocket",
            "send",
            &[("java.net.DatagramPacket", "p")],
            vec![method("getChannel", &[], "java.nio.channels.DatagramChannel")],
        );
        send.other_types =
            vec![("java.nio.channels.DatagramChannel".into(), vec![method("isBlocking", &[], "boolean")])];
        let t =
            throws_triggers(&send, "if this socket has an associated channel, and the channel is in non-blocking mode");
        assert_eq!(
            shown(&t),
            [
                ("T3".into(), "this.getChannel() != null".into()),
                ("T3".into(), "!this.getChannel().isBlocking()".into())
            ]
        );
        let addr = Owned::new(
            "InetSocketAddress",
            "createUnresolved",
            &[("java.lang.String", "host"), ("int", "port")],
            vec![],
        );
        let pkg = Owned::new("SecurityManager", "checkPackageAccess", &[("java.lang.String", "pkg")], vec![]);
        let t = throws_triggers(&pkg, "if the package name argument is `null`");
        assert_eq!(shown(&t), [("T1".to_string(), "pkg == null".to_string())]);
        let t = throws_triggers(&addr, "if the hostname parameter is `null`");
        assert_eq!(shown(&t), [("T1".to_string(), "host == null".to_string())]);
        let perm = Owned::new(
            "LinkPermission",
            "<init>",
            &[("java.lang.String", "name"), ("java.lang.String", "actions")],
            vec![],
        );
        let t = throws_triggers(&perm, "if actions is a non-empty string");
        assert_eq!(shown(&t), [("T3".to_string(), "!actions.isEmpty()".to_string())]);
    }
}
