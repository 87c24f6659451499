//! Functional interfaces: interfaces a lambda can implement
//! ([`crate::StatementKind::Lambda`]), found on the class path for the
//! test cluster and the validator alike.
//!
//! An interface is functional when, over it and all its superinterfaces, it
//! has exactly one abstract method (by name and parameters), not counting
//! the public methods of `Object` an interface may redeclare (`equals`,
//! `hashCode`, `toString`: `Comparator` redeclares `equals`) and methods a
//! default method of one of them overrides. Left out, as javac rejects a
//! lambda for them or a `Proxy` cannot implement them: annotation
//! interfaces, sealed interfaces, and abstract methods with type
//! parameters of their own (`<T> T make()`). A subinterface that narrows
//! an inherited method through generics (`String apply(String)` over
//! `Function<String, String>`) counts as having two and is left out too.

use std::collections::HashSet;
use std::sync::Arc;

use model::classfile::ClassFile;
use model::classpath::ClassPath;
use model::descriptor::{FieldType, MethodDescriptor};
use model::hierarchy::{Supertypes, access};

use crate::ir::MethodRef;

/// The public methods of `Object` an interface may redeclare abstract (name, descriptor).
const OBJECT_METHODS: [(&str, &str); 3] =
    [("equals", "(Ljava/lang/Object;)Z"), ("hashCode", "()I"), ("toString", "()Ljava/lang/String;")];

/// The one abstract method of the functional interface `binary_name`, with
/// the interface that declares it as owner; `None` when the class is not
/// a functional interface (see the module docs) or a superinterface is
/// missing from the class path.
pub(crate) fn functional_method(cp: &ClassPath, binary_name: &str) -> Option<MethodRef> {
    let class = cp.load(binary_name).ok()?;
    let sealed = class.find_attribute(&class.attributes, "PermittedSubclasses").is_some();
    if class.access & access::INTERFACE == 0 || class.access & access::ANNOTATION != 0 || sealed {
        return None;
    }
    let supers = Supertypes::of(cp, binary_name).ok()?.interfaces;
    let mut interfaces = vec![class];
    for name in &supers {
        interfaces.push(cp.load(name.as_str()).ok()?);
    }
    let overridden: HashSet<(String, Vec<FieldType>)> =
        interfaces.iter().flat_map(|c| instance_methods(c, false)).map(|(key, _)| key).collect();
    let mut keys = HashSet::new();
    let mut found = None;
    for c in &interfaces {
        for (key, m) in instance_methods(c, true) {
            let descriptor = c.member_descriptor(m);
            if OBJECT_METHODS.contains(&(key.0.as_str(), descriptor)) || overridden.contains(&key) {
                continue;
            }
            if (keys.insert(key.clone()) && keys.len() > 1) || c.signature(&m.attributes).is_some_and(is_generic) {
                return None;
            }
            if found.is_none() {
                found = Some(MethodRef::new(c.binary_name(), key.0, MethodDescriptor::parse(descriptor).ok()?));
            }
        }
    }
    found
}

/// The most answers a mock gives one stubbed method
/// ([`crate::StatementKind::Mock`]): `hasNext()` true then false, `read()` a
/// byte then -1.
pub const MAX_ANSWERS: usize = 3;

/// The methods a mock of `binary_name` may stub
/// ([`crate::StatementKind::Mock`]), each once (by name and parameters)
/// with the first type that declares it as owner, sorted by name and
/// descriptor: of an interface, over it and all its superinterfaces, the
/// abstract and default methods (a Mockito mock answers both alike); of an
/// abstract class, over it, its superclasses below `Object` and its
/// interfaces, the public instance methods that are not final (a Mockito
/// mock answers them all; a final one runs its own code). In both, only
/// methods that return a value, have no type parameters of their own and
/// are not `equals`, `hashCode` or `toString`. `None` when the class is
/// neither an interface nor an abstract class that a `Proxy` and Mockito
/// can implement (an annotation, a sealed type, an enum), or a supertype is
/// missing.
pub(crate) fn stubbable_methods(cp: &ClassPath, binary_name: &str) -> Option<Vec<MethodRef>> {
    let class = cp.load(binary_name).ok()?;
    let sealed = class.find_attribute(&class.attributes, "PermittedSubclasses").is_some();
    let is_interface = class.access & access::INTERFACE != 0;
    let excluded = access::ANNOTATION | access::ENUM | access::FINAL;
    if (!is_interface && class.access & access::ABSTRACT == 0) || class.access & excluded != 0 || sealed {
        return None;
    }
    let supertypes = Supertypes::of(cp, binary_name).ok()?;
    if supertypes.missing_superclass.is_some() {
        return None;
    }
    let mut classes = vec![class];
    for name in supertypes.superclasses.iter().filter(|n| n.as_str() != "java.lang.Object") {
        classes.push(cp.load(name.as_str()).ok()?);
    }
    let mut interfaces = Vec::new();
    for name in &supertypes.interfaces {
        interfaces.push(cp.load(name.as_str()).ok()?);
    }
    let mut keys = HashSet::new();
    let mut found = Vec::new();
    let mut consider = |c: &Arc<ClassFile>, key: (String, Vec<FieldType>), m: &model::classfile::Member| {
        let descriptor = c.member_descriptor(m);
        let public = c.access & access::INTERFACE != 0 || m.access & access::PUBLIC != 0;
        let stubbable = public
            && m.access & access::FINAL == 0
            && !OBJECT_METHODS.contains(&(key.0.as_str(), descriptor))
            && !c.signature(&m.attributes).is_some_and(is_generic);
        let Ok(parsed) = MethodDescriptor::parse(descriptor) else { return };
        if keys.insert(key.clone()) && stubbable && parsed.ret.is_some() {
            found.push(MethodRef::new(c.binary_name(), key.0, parsed));
        }
    };
    // An abstract class and its superclasses: every instance method; an
    // interface and all interfaces: its abstract methods, then its default ones.
    let (class_chain, interface_like) = if is_interface { (&[][..], &classes[..]) } else { (&classes[..], &[][..]) };
    for c in class_chain {
        c.methods.iter().filter_map(|m| instance_method(c, m)).for_each(|(key, m)| consider(c, key, m));
    }
    for c in interface_like.iter().chain(&interfaces) {
        for (key, m) in instance_methods(c, true).chain(instance_methods(c, false)) {
            consider(c, key, m);
        }
    }
    found.sort_by_key(|m| (m.name.clone(), m.descriptor.to_descriptor()));
    Some(found)
}

/// The abstract (or, if `!is_abstract`, default) instance methods of an
/// interface, keyed by name and parameter types.
fn instance_methods(
    class: &Arc<ClassFile>,
    is_abstract: bool,
) -> impl Iterator<Item = ((String, Vec<FieldType>), &model::classfile::Member)> {
    class
        .methods
        .iter()
        .filter_map(move |m| instance_method(class, m))
        .filter(move |(_, m)| (m.access & access::ABSTRACT != 0) == is_abstract)
}

/// `m` keyed by name and parameter types when it is an instance method
/// (not static, private, synthetic, a bridge or a constructor).
fn instance_method<'c>(
    class: &ClassFile,
    m: &'c model::classfile::Member,
) -> Option<((String, Vec<FieldType>), &'c model::classfile::Member)> {
    let name = class.member_name(m);
    let excluded = access::STATIC | access::PRIVATE | access::SYNTHETIC | access::BRIDGE;
    if m.access & excluded != 0 || name.starts_with('<') {
        return None;
    }
    let params = MethodDescriptor::parse(class.member_descriptor(m)).ok()?.params;
    Some(((name.to_string(), params), m))
}

/// Whether a method signature declares type parameters of its own.
fn is_generic(signature: &str) -> bool {
    signature.starts_with('<')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::class_path;

    fn method(cp: &ClassPath, class: &str) -> Option<String> {
        functional_method(cp, class).map(|m| m.to_string())
    }

    #[test]
    fn jdk_functional_interfaces_have_their_one_abstract_method() {
        let Some(cp) = class_path() else { return };
        let found: Vec<Option<String>> = [
            "java.util.function.Function",
            "java.util.function.Predicate",
            "java.util.function.Supplier",
            "java.util.Comparator",
            "java.lang.Runnable",
            "java.util.function.UnaryOperator",
            "java.util.function.IntBinaryOperator",
        ]
        .iter()
        .map(|c| method(cp, c))
        .collect();
        assert_eq!(
            found,
            [
                Some("java.util.function.Function.apply(Ljava/lang/Object;)Ljava/lang/Object;".to_string()),
                Some("java.util.function.Predicate.test(Ljava/lang/Object;)Z".to_string()),
                Some("java.util.function.Supplier.get()Ljava/lang/Object;".to_string()),
                Some("java.util.Comparator.compare(Ljava/lang/Object;Ljava/lang/Object;)I".to_string()),
                Some("java.lang.Runnable.run()V".to_string()),
                Some("java.util.function.Function.apply(Ljava/lang/Object;)Ljava/lang/Object;".to_string()),
                Some("java.util.function.IntBinaryOperator.applyAsInt(II)I".to_string()),
            ]
        );
    }

    #[test]
    fn a_mock_stubs_the_abstract_methods_that_return_a_value() {
        let Some(cp) = class_path() else { return };
        let names = |class: &str| {
            stubbable_methods(cp, class)
                .map(|ms| ms.iter().map(|m| format!("{}.{}", m.owner, m.name)).collect::<Vec<_>>())
        };
        // `Iterator.remove` and `forEachRemaining` return nothing.
        assert_eq!(
            names("java.util.Iterator"),
            Some(vec!["java.util.Iterator.hasNext".into(), "java.util.Iterator.next".into()])
        );
        // A default method is stubbed like an abstract one; `<U> thenComparing(…)` has a type parameter.
        let comparator = names("java.util.Comparator").unwrap();
        assert!(comparator.contains(&"java.util.Comparator.reversed".to_string()), "{comparator:?}");
        assert!(!comparator.iter().any(|m| m.ends_with(".comparing")), "static: {comparator:?}");
        // `Runnable.run` returns nothing; `String` is neither an interface nor abstract.
        assert_eq!(names("java.lang.Runnable"), Some(vec![]));
        assert_eq!(names("java.lang.String"), None);
        assert_eq!(names("java.lang.Override"), None);
    }

    #[test]
    fn a_mock_of_an_abstract_class_stubs_its_public_methods_that_are_not_final() {
        let Some(cp) = class_path() else { return };
        let stubbable = stubbable_methods(cp, "java.util.AbstractList").unwrap();
        let names: Vec<String> = stubbable.iter().map(|m| format!("{}.{}", m.owner, m.name)).collect();
        // Abstract (`get`), concrete (`indexOf`) and inherited from the superclass (`isEmpty`)
        // and from an interface (`List.replaceAll` returns nothing; `Collection.stream` is a default).
        for expected in ["AbstractList.get", "AbstractList.indexOf", "AbstractCollection.isEmpty", "Collection.stream"]
        {
            assert!(names.contains(&format!("java.util.{expected}")), "{expected}: {names:?}");
        }
        // `Object`'s methods and the protected `removeRange` are not stubbed; `toArray(T[])` has a type parameter.
        assert!(!names.iter().any(|n| n.ends_with(".hashCode") || n.ends_with(".toString")), "{names:?}");
        assert!(!names.iter().any(|n| n.ends_with(".removeRange")), "{names:?}");
        assert!(!stubbable.iter().any(|m| m.name == "toArray" && m.descriptor.params.len() == 1), "{names:?}");
        // Each method once, with the nearest declaring class as owner.
        assert_eq!(names.iter().filter(|n| n.ends_with(".iterator")).count(), 1, "{names:?}");
        assert!(names.contains(&"java.util.AbstractList.iterator".to_string()), "{names:?}");
        // Neither interfaces nor abstract classes: final and enum classes.
        assert_eq!(stubbable_methods(cp, "java.lang.Integer"), None);
        assert_eq!(stubbable_methods(cp, "java.lang.Thread$State"), None);
    }

    #[test]
    fn classes_annotations_and_interfaces_with_more_methods_are_not_functional() {
        let Some(cp) = class_path() else { return };
        for class in ["java.lang.String", "java.util.List", "java.lang.Override", "java.util.function.BiFunction$X"] {
            assert_eq!(method(cp, class), None, "{class}");
        }
        // One abstract method; the others are default (and `Named` has a static one).
        assert_eq!(
            method(cp, "java.lang.Iterable").as_deref(),
            Some("java.lang.Iterable.iterator()Ljava/util/Iterator;")
        );
        assert_eq!(method(cp, "fix.Named").as_deref(), Some("fix.Named.name()Ljava/lang/String;"));
    }
}
