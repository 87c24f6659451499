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

/// The methods a mock of the interface `binary_name` may stub
/// ([`crate::StatementKind::Mock`]): over the interface and all its
/// superinterfaces, the abstract and default methods (a Mockito mock
/// answers both alike) that return a value, have no type parameters of
/// their own and are not redeclared `Object` methods, each once (by name
/// and parameters) with the first interface that declares it as owner,
/// sorted by name and descriptor. `None` when the class is not an interface a
/// `Proxy` and Mockito can implement (an annotation or a sealed
/// interface) or a superinterface is missing.
pub(crate) fn stubbable_methods(cp: &ClassPath, binary_name: &str) -> Option<Vec<MethodRef>> {
    let class = cp.load(binary_name).ok()?;
    let sealed = class.find_attribute(&class.attributes, "PermittedSubclasses").is_some();
    if class.access & access::INTERFACE == 0 || class.access & access::ANNOTATION != 0 || sealed {
        return None;
    }
    let mut interfaces = vec![class];
    for name in &Supertypes::of(cp, binary_name).ok()?.interfaces {
        interfaces.push(cp.load(name.as_str()).ok()?);
    }
    let mut keys = HashSet::new();
    let mut found = Vec::new();
    for c in &interfaces {
        for (key, m) in instance_methods(c, true).chain(instance_methods(c, false)) {
            let descriptor = c.member_descriptor(m);
            let skip = OBJECT_METHODS.contains(&(key.0.as_str(), descriptor))
                || c.signature(&m.attributes).is_some_and(is_generic);
            let Ok(parsed) = MethodDescriptor::parse(descriptor) else { continue };
            if !skip && parsed.ret.is_some() && keys.insert(key.clone()) {
                found.push(MethodRef::new(c.binary_name(), key.0, parsed));
            }
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
    class.methods.iter().filter_map(move |m| {
        let name = class.member_name(m);
        let excluded = access::STATIC | access::PRIVATE | access::SYNTHETIC | access::BRIDGE;
        if m.access & excluded != 0 || name.starts_with('<') || (m.access & access::ABSTRACT != 0) != is_abstract {
            return None;
        }
        let params = MethodDescriptor::parse(class.member_descriptor(m)).ok()?.params;
        Some(((name.to_string(), params), m))
    })
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
        // `Runnable.run` returns nothing; `String` is no interface.
        assert_eq!(names("java.lang.Runnable"), Some(vec![]));
        assert_eq!(names("java.lang.String"), None);
        assert_eq!(names("java.lang.Override"), None);
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
