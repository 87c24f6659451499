//! The facts the JUnit writer needs to leave out argument casts javac does
//! not need ([`junit::CastFacts`]), looked up on the class path for the
//! calls and values of a suite: which methods have a rival overload or a
//! generic parameter, and the supertypes of every class a test declares a
//! value of.

use std::collections::BTreeSet;

use junit::CastFacts;
use model::access;
use model::classpath::ClassPath;
use model::descriptor::FieldType;
use model::hierarchy::Supertypes;
use model::names::BinaryName;
use testcase::{MethodRef, StatementKind, TestCase};

/// The cast facts of `tests` on `cp`. A method called on receivers of
/// several declared classes keeps its casts if it must in any of them (a
/// subclass may add an overload its superclass lacks).
pub fn cast_facts(cp: &ClassPath, tests: &[TestCase]) -> CastFacts {
    let mut facts = CastFacts::default();
    for test in tests {
        for statement in &test.statements {
            let (method, receiver) = match &statement.kind {
                StatementKind::Constructor { method, .. } | StatementKind::StaticCall { method, .. } => (method, None),
                StatementKind::Call { method, receiver, .. } => (method, Some(*receiver)),
                _ => continue,
            };
            let receiver_class = receiver.and_then(|r| test.get(r)).and_then(|s| s.ty.erasure());
            let class = match receiver_class {
                Some(FieldType::Object(name)) => name.to_binary(),
                _ => method.owner.clone(),
            };
            if method.name == "<init>" && is_inner_class(cp, &method.owner) {
                facts.inner_classes.insert(method.owner.clone());
            }
            let key = (method.owner.clone(), method.name.clone(), method.descriptor.params.len());
            let overloads = overloads(cp, &class, method);
            let keeps = overloads.as_ref().is_none_or(|o| o.keeps_casts);
            *facts.keeps_casts.entry(key.clone()).or_insert(keeps) |= keeps;
            let rivals = facts.rivals.entry(key).or_default();
            for rival in overloads.into_iter().flat_map(|o| o.rivals) {
                if !rivals.contains(&rival) {
                    rivals.push(rival);
                }
            }
        }
    }
    for statement in tests.iter().flat_map(|t| t.statements.iter()) {
        if let Some(FieldType::Object(name)) = statement.ty.erasure() {
            let name = name.to_binary();
            if !facts.supertypes.contains_key(&name)
                && let Some(supers) = supertypes(cp, &name)
            {
                facts.supertypes.insert(name, supers);
            }
        }
    }
    facts
}

/// Whether `class` is an inner class: nested and not static (its
/// `InnerClasses` entry has no `ACC_STATIC`), so its constructors take the
/// enclosing instance first.
fn is_inner_class(cp: &ClassPath, class: &BinaryName) -> bool {
    class.as_str().contains('$') && cp.load(class.as_str()).is_ok_and(|cf| cf.is_inner_class())
}

/// What the overloads of a method called on some class decide about the
/// casts of its arguments.
struct Overloads {
    /// A parameter of the method is generic, or a varargs method shares
    /// its name: every cast stays.
    keeps_casts: bool,
    /// The parameter types of the other methods of that name and arity.
    rivals: Vec<Vec<FieldType>>,
}

/// The overloads of `method` called on a `class`: the methods of `class`
/// (or, for a method, of its supertypes) that share its name (bridges and
/// private methods left out); `None` when `class` or one of its supertypes
/// is not on the class path.
fn overloads(cp: &ClassPath, class: &BinaryName, method: &MethodRef) -> Option<Overloads> {
    let owner = class.as_str();
    let arity = method.descriptor.params.len();
    let mut owners = vec![BinaryName::new(owner)];
    if method.name != "<init>" {
        let supers = Supertypes::of(cp, owner).ok()?;
        if supers.first_missing(cp).is_some() {
            return None;
        }
        owners.extend(supers.iter().cloned());
    }
    let own = method.descriptor.to_descriptor();
    let own_params = own.split_once(')').map_or(own.as_str(), |(p, _)| p).to_string();
    let mut keeps_casts = false;
    let mut rivals: BTreeSet<Vec<FieldType>> = BTreeSet::new();
    for class in &owners {
        let cf = cp.load(class.as_str()).ok()?;
        for m in &cf.methods {
            let skipped = access::SYNTHETIC | access::BRIDGE | access::PRIVATE;
            if m.access & skipped != 0 || cf.member_name(m) != method.name {
                continue;
            }
            let descriptor = cf.member_descriptor(m);
            let params = descriptor.split_once(')').map_or(descriptor, |(p, _)| p);
            if params == own_params {
                keeps_casts |= has_generic_param(&cf, m);
                continue;
            }
            let parsed = model::descriptor::MethodDescriptor::parse(descriptor).ok()?;
            keeps_casts |= m.access & access::VARARGS != 0;
            if parsed.params.len() == arity {
                rivals.insert(parsed.params);
            }
        }
    }
    Some(Overloads { keeps_casts, rivals: rivals.into_iter().collect() })
}

/// Whether a parameter of method `m` of `cf` mentions a type variable or a
/// wildcard in its generic signature.
fn has_generic_param(cf: &model::classfile::ClassFile, m: &model::classfile::Member) -> bool {
    let signature = cf.signature(&m.attributes).and_then(|s| model::signature::parse_method_signature(s).ok());
    signature.is_some_and(|s| s.params.iter().any(|p| !p.is_exact()))
}

/// Every supertype of class `name`, `Object` included; `None` when one is
/// not on the class path (then casts to it stay).
fn supertypes(cp: &ClassPath, name: &BinaryName) -> Option<BTreeSet<BinaryName>> {
    let supers = Supertypes::of(cp, name.as_str()).ok()?;
    if supers.first_missing(cp).is_some() {
        return None;
    }
    let object = BinaryName::new("java.lang.Object");
    Some(supers.iter().cloned().chain([object]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use testcase::TestCaseBuilder;

    fn lang3() -> Option<ClassPath> {
        let home = model::jdk::find_java_home()?;
        ClassPath::parse("/usr/share/java/commons-lang3.jar").ok()?.with_jdk(&home).ok()
    }

    /// `StringUtils.isEmpty(CharSequence)` has no rival of one argument;
    /// `StringUtils.join` of two has many, among them the varargs
    /// `join(T...)`, which is generic; `center(String, int, char)` has one
    /// rival, `center(String, int, String)`; a `String` is a `CharSequence`.
    #[test]
    fn lone_methods_and_supertypes_come_from_the_class_path() {
        let Some(cp) = lang3() else { return };
        let utils = "org.apache.commons.lang3.StringUtils";
        let m = |name: &str, descriptor: &str| MethodRef::parse(utils, name, descriptor).unwrap();
        let mut t = TestCaseBuilder::new();
        let s = t.string("a");
        let array = t.null(FieldType::parse("[Ljava/lang/Object;").unwrap());
        let c = t.char(u16::from(b','));
        t.static_call(m("isEmpty", "(Ljava/lang/CharSequence;)Z"), &[s]);
        t.static_call(m("join", "([Ljava/lang/Object;)Ljava/lang/String;"), &[array]);
        t.static_call(m("join", "([Ljava/lang/Object;C)Ljava/lang/String;"), &[array, c]);
        let size = t.int(9);
        t.static_call(m("center", "(Ljava/lang/String;IC)Ljava/lang/String;"), &[s, size, c]);
        let facts = cast_facts(&cp, &[t.build()]);
        let key = |name: &str, arity| (BinaryName::new(utils), name.to_string(), arity);
        assert_eq!(facts.keeps_casts.get(&key("isEmpty", 1)), Some(&false));
        assert_eq!(facts.keeps_casts.get(&key("join", 2)), Some(&true), "overloaded");
        assert_eq!(facts.keeps_casts.get(&key("join", 1)), Some(&true), "join(T...) is generic");
        assert_eq!(facts.keeps_casts.get(&key("center", 3)), Some(&false));
        let string_int_string = ["Ljava/lang/String;", "I", "Ljava/lang/String;"].map(|t| FieldType::parse(t).unwrap());
        assert_eq!(facts.rivals[&key("center", 3)], vec![string_int_string.to_vec()]);
        assert!(facts.rivals[&key("isEmpty", 1)].is_empty(), "{:?}", facts.rivals);
        let string = &facts.supertypes[&BinaryName::new("java.lang.String")];
        assert!(string.contains(&BinaryName::new("java.lang.CharSequence")), "{string:?}");
        assert!(string.contains(&BinaryName::new("java.lang.Object")), "{string:?}");
    }
}
