//! Shared instances ([`TestCluster::is_shared_instance`]): static fields
//! that hold an object with state of its own (`Aliases.INSTANCE`, whose
//! map of aliases every caller shares, as joda-convert's
//! `RenameHandler.INSTANCE`), and the static methods that hand such a
//! field out as it is (`getInstance()`).
//!
//! The workers reset static state before each test, so the search sees a
//! new shared instance in every test; the emitted suite runs all its tests
//! in one JVM, and the static reset it emits (`junit::SuiteOptions`)
//! restores which object a static field holds, not what a test did to that
//! object. A test that registers something on the shared instance changes
//! what the later tests see: their assertions fail in other orders and are
//! removed in verification, or the tests themselves. The operators
//! therefore prefer the other generators of the type (a constructor, a
//! factory) when there are any (`operators::factory`), and keep the shared
//! instance now and then, since it may be set up in a way nothing else is.
//!
//! A class has state of its own when it or a superclass outside the JDK
//! declares an instance field that is not final, or a final one that holds
//! a JDK container (`java.util` collections and maps, string builders,
//! atomics). Arrays do not count: configurations such as commons-csv's
//! `CSVFormat.DEFAULT` keep final arrays no caller writes, and their
//! constants are how tests reach their settings. A field declared with a
//! JDK collection type (`static final List<String> NAMES`) is shared state
//! too. A field of an interface or abstract type outside the JDK is not:
//! nothing says what its object holds.

use std::collections::HashSet;

use model::classpath::ClassPath;
use model::descriptor::FieldType;
use model::hierarchy::access;
use model::names::InternalName;

use super::jdk::is_jdk_class;
use super::{Callable, Generator, TestCluster};
use crate::ir::MethodRef;

/// JDK packages and classes whose objects change when called: containers.
const MUTABLE_JDK: &[&str] = &[
    "java/util/",
    "java/lang/StringBuilder",
    "java/lang/StringBuffer",
    "java/util/concurrent/",
    "java/io/ByteArrayOutputStream",
    "java/io/StringWriter",
];

/// Classes of `java.util` that are values, not containers.
const IMMUTABLE_UTIL: &[&str] = &[
    "java/util/Locale",
    "java/util/UUID",
    "java/util/Optional",
    "java/util/OptionalInt",
    "java/util/OptionalLong",
    "java/util/OptionalDouble",
    "java/util/Currency",
    "java/util/TimeZone",
    "java/util/regex/Pattern",
    "java/util/function/",
];

/// Superclasses looked at, at most (a deeper hierarchy counts as stateless).
const MAX_DEPTH: usize = 8;

/// Finds the static fields among the cluster's generators that hold a
/// shared object with state of its own, and the static methods without
/// parameters that return such a field as it is (`getInstance()`,
/// [`analysis::accessors::returned_static_field`]); see the module docs.
pub(super) fn add(cluster: &mut TestCluster, cp: &ClassPath) {
    let mut fields = HashSet::new();
    let mut accessors = HashSet::new();
    for generator in cluster.generators.values().flatten() {
        match generator {
            Generator::Call(Callable::FieldGet { field, is_static: true, .. }) if holds_state(cp, &field.ty) => {
                fields.insert(field.clone());
            }
            Generator::Call(Callable::StaticMethod { method, .. })
                if method.descriptor.params.is_empty() && returns_shared_field(cp, method) =>
            {
                accessors.insert(method.clone());
            }
            _ => {}
        }
    }
    cluster.shared_instances = fields;
    cluster.shared_accessors = accessors;
}

/// Whether `method` returns a static field as it is, of a type with state
/// of its own.
fn returns_shared_field(cp: &ClassPath, method: &MethodRef) -> bool {
    let Some(FieldType::Object(_)) = &method.descriptor.ret else { return false };
    let Ok(class) = cp.load(method.owner.as_str()) else { return false };
    let descriptor = method.descriptor.to_descriptor();
    let declared =
        class.methods.iter().find(|m| class.member_name(m) == method.name && class.member_descriptor(m) == descriptor);
    declared.is_some_and(|m| {
        analysis::accessors::returned_static_field(&class, m).is_some()
            && method.descriptor.ret.as_ref().is_some_and(|t| holds_state(cp, t))
    })
}

/// Whether a value declared with type `ty` has state of its own.
fn holds_state(cp: &ClassPath, ty: &FieldType) -> bool {
    let FieldType::Object(name) = ty else { return false };
    if is_jdk_class(name.to_binary().as_str()) {
        return is_mutable_jdk(name);
    }
    let declared = cp.load(name.to_binary().as_str()).ok();
    if declared.as_ref().is_some_and(|c| c.access & (access::INTERFACE | access::ABSTRACT) != 0) {
        return false;
    }
    let mut class = declared;
    for _ in 0..MAX_DEPTH {
        let Some(c) = class else { return false };
        let own_state = |f: &model::classfile::Member| {
            f.access & access::STATIC == 0 && field_holds_state(f.access, c.member_descriptor(f))
        };
        if c.fields.iter().any(own_state) {
            return true;
        }
        let sup = c.super_name().map(|s| InternalName::new(s).to_binary());
        class = sup.filter(|s| !is_jdk_class(s.as_str())).and_then(|s| cp.load(s.as_str()).ok());
    }
    false
}

/// Whether an instance field with `access` flags and `descriptor` makes
/// its object stateful: not final, or final and holding a JDK container.
fn field_holds_state(access_flags: u16, descriptor: &str) -> bool {
    if access_flags & access::FINAL == 0 {
        return true;
    }
    match FieldType::parse(descriptor) {
        Ok(FieldType::Object(name)) => is_mutable_jdk(&name),
        _ => false,
    }
}

/// Whether JDK class `name` is a container whose objects change.
fn is_mutable_jdk(name: &InternalName) -> bool {
    let name = name.as_str();
    MUTABLE_JDK.iter().any(|p| name.starts_with(p)) && !IMMUTABLE_UTIL.iter().any(|p| name.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containers_are_mutable_and_values_are_not() {
        let mutable = |n: &str| is_mutable_jdk(&InternalName::new(n));
        assert!(mutable("java/util/HashMap") && mutable("java/util/List") && mutable("java/lang/StringBuilder"));
        assert!(mutable("java/util/concurrent/ConcurrentHashMap"));
        assert!(!mutable("java/util/Locale") && !mutable("java/util/regex/Pattern") && !mutable("java/lang/String"));
        assert!(!mutable("java/util/function/Function"));
    }

    #[test]
    fn a_constant_with_a_field_callers_write_is_a_shared_instance_and_a_value_class_is_not() {
        let Some(cp) = crate::testutil::class_path() else { return };
        let object = |n: &str| FieldType::Object(InternalName::new(n));
        assert!(holds_state(cp, &object("fix/Point")), "public int x");
        assert!(!holds_state(cp, &object("fix/DateCodec")), "one final String, an abstract superclass without fields");
        assert!(!holds_state(cp, &object("fix/Codec")), "abstract: nothing says what its object holds");
        assert!(holds_state(cp, &object("java/util/ArrayList")) && !holds_state(cp, &object("java/lang/String")));
        let cluster = TestCluster::build(cp, "fix.Point", &crate::ClusterOptions::default()).unwrap();
        let generators: Vec<&Callable> = cluster
            .generators("fix.Point")
            .iter()
            .filter_map(|g| match g {
                Generator::Call(c) => Some(c),
                Generator::Subtype(_) => None,
            })
            .collect();
        let origin =
            generators.iter().find(|c| matches!(c, Callable::FieldGet { field, .. } if field.name == "ORIGIN"));
        assert!(cluster.is_shared_instance(origin.expect("Point.ORIGIN is a generator")));
        let others: Vec<_> = generators.iter().filter(|c| !matches!(c, Callable::FieldGet { .. })).collect();
        assert!(!others.is_empty() && others.iter().all(|c| !cluster.is_shared_instance(c)), "{generators:?}");
    }

    #[test]
    fn a_static_method_that_hands_out_a_shared_instance_is_one_and_a_factory_is_not() {
        let Some(cp) = crate::testutil::class_path() else { return };
        let cluster = TestCluster::build(cp, "fix.Hub", &crate::ClusterOptions::default()).unwrap();
        let shared = |name: &str| {
            let generator = cluster.generators("fix.Hub").iter().find_map(|g| match g {
                Generator::Call(c @ Callable::StaticMethod { method, .. }) if method.name == name => Some(c),
                _ => None,
            });
            cluster.is_shared_instance(generator.unwrap_or_else(|| panic!("{name} is a generator")))
        };
        assert!(shared("getInstance"), "returns INSTANCE, whose list every caller shares");
        assert!(!shared("create"));
    }

    #[test]
    fn final_fields_of_values_and_arrays_hold_no_state() {
        assert!(field_holds_state(access::PRIVATE, "I"), "not final");
        assert!(field_holds_state(access::FINAL, "Ljava/util/Map;"));
        assert!(!field_holds_state(access::FINAL, "Ljava/lang/String;"));
        assert!(!field_holds_state(access::FINAL, "[Ljava/lang/String;"));
    }
}
