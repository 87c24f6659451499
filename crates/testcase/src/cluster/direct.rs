//! Values the test factory makes directly, found once after the build
//! from what the cluster knows:
//!
//! - `Class` values ([`TestCluster::class_values`]): the primitive classes
//!   and `void.class`, a few array classes (`int[]`, `String[]`,
//!   `Object[][]`), common JDK classes, and the classes of the cluster
//!   (the CUT, its nested classes, an interface, an enum and an abstract
//!   class among them first), plus the bounds of `Class<? extends X>`
//!   parameters, so that a bounded parameter always has a candidate, and
//!   the class literals of the CUT's code (`type == BigInteger.class`).
//! - Members by reflection ([`TestCluster::reflected_members`]): the
//!   declared methods, constructors and fields of the CUT and its nested
//!   classes whose parameter types a test can name, and a few public
//!   members of `Object`, `String` and `Integer`.
//! - Functional interfaces ([`TestCluster::functional`]): those the cluster
//!   mentions that a test can name, with their abstract method
//!   ([`crate::functional`]), except those with JDK stand-ins (`Comparable`
//!   and `Iterable` get a `String` or an `ArrayList`, not a lambda).
//!
//! - Mockable types ([`TestCluster::mockable`], with
//!   [`crate::ClusterOptions::mocks`]): the interfaces and abstract classes
//!   outside the JDK the cluster mentions that are not functional, with the
//!   methods a mock may stub
//!   ([`crate::functional::stubbable_methods`]). The return types of those
//!   methods are the values the factory makes for the stubs. A type with
//!   no generator (no implementation on the class path) always gets a
//!   mock; one with generators, unless it extends a JDK class other than
//!   `Object` (a stream: `extends_jdk_class`), now and then
//!   (`operators::factory::P_MOCK_BESIDE_GENERATORS`), since its
//!   generators may only ever give `null` or one kind of object: jackson's
//!   `JsonFactory.getInputDecorator()` returns the decorator the factory
//!   holds, `null` until one is set, so no test ever set one (EvoSuite
//!   likewise mocks types that have generators, with probability
//!   `p_functional_mocking`, in the second half of its search).
//!
//! Every class here is one a test in the CUT's package can name, and its
//! supertypes are added for [`TestCluster::is_assignable`].

use std::collections::{BTreeMap, BTreeSet, HashSet};

use model::classpath::ClassPath;
use model::descriptor::{FieldType, MethodDescriptor};
use model::hierarchy::{Supertypes, access};
use model::names::BinaryName;
use model::signature::{JavaType, TypeArg, parse_class_signature, parse_method_signature};

use super::build::{class_accessible, package_of};
use super::jdk::{is_jdk_class, substitutes};
use super::{Functional, Generator, TestCluster};
use crate::ir::{FieldRef, MemberRef, MethodRef};

/// Descriptors of the primitive and array classes every cluster offers.
const PRIMITIVE_AND_ARRAY_CLASSES: &[&str] =
    &["Z", "B", "S", "C", "I", "J", "F", "D", "[I", "[Ljava/lang/String;", "[[Ljava/lang/Object;"];

/// JDK classes every cluster offers as `Class` values.
const JDK_CLASSES: &[&str] = &[
    "java.lang.Object",
    "java.lang.String",
    "java.lang.Integer",
    "java.lang.Long",
    "java.lang.Double",
    "java.lang.Boolean",
    "java.lang.Character",
    "java.lang.Number",
    "java.lang.CharSequence",
    "java.lang.Comparable",
    "java.io.Serializable",
    "java.lang.Cloneable",
    "java.util.List",
    "java.util.Map",
];

/// Public JDK members every cluster offers by reflection: (owner, name,
/// descriptor), `<init>` for a constructor, a field when the descriptor
/// is not a method's. Public ones only, so that they exist on every JDK.
const JDK_MEMBERS: &[(&str, &str, &str)] = &[
    ("java.lang.Object", "<init>", "()V"),
    ("java.lang.Object", "toString", "()Ljava/lang/String;"),
    ("java.lang.Object", "equals", "(Ljava/lang/Object;)Z"),
    ("java.lang.Object", "wait", "(JI)V"),
    ("java.lang.String", "<init>", "([CII)V"),
    ("java.lang.String", "length", "()I"),
    ("java.lang.String", "charAt", "(I)C"),
    ("java.lang.String", "valueOf", "(Ljava/lang/Object;)Ljava/lang/String;"),
    ("java.lang.String", "format", "(Ljava/lang/String;[Ljava/lang/Object;)Ljava/lang/String;"),
    ("java.lang.String", "CASE_INSENSITIVE_ORDER", "Ljava/util/Comparator;"),
    ("java.lang.Integer", "MAX_VALUE", "I"),
    ("java.lang.Integer", "parseInt", "(Ljava/lang/String;)I"),
    // Generic types for `Type` values (`cluster::jdk::JDK_PRODUCERS`): a
    // type variable (`E`), a generic array (`T[]`), a parameterized type of
    // a member type with its owner (`Map.Entry<K, V>`) and a wildcard argument (`Class<?>`).
    ("java.util.List", "get", "(I)Ljava/lang/Object;"),
    ("java.util.List", "toArray", "([Ljava/lang/Object;)[Ljava/lang/Object;"),
    ("java.util.NavigableMap", "firstEntry", "()Ljava/util/Map$Entry;"),
    ("java.lang.Object", "getClass", "()Ljava/lang/Class;"),
];

/// The reflection classes, whose supertypes the factory asks about.
const REFLECTION_CLASSES: &[&str] =
    &["java.lang.reflect.Method", "java.lang.reflect.Constructor", "java.lang.reflect.Field"];

/// At most this many classes of the cluster become `Class` values.
const MAX_CLUSTER_CLASSES: usize = 16;
/// At most this many class literals of the CUT's code become `Class` values.
const MAX_CLASS_LITERALS: usize = 32;
/// At most this many members of the CUT and its nested classes are looked up by reflection.
const MAX_MEMBERS: usize = 64;

/// Fills the cluster's class values, reflected members and functional interfaces.
pub(super) fn add(cluster: &mut TestCluster, cp: &ClassPath) {
    let names = Names {
        cp,
        package: package_of(cluster.cut.as_str()).to_string(),
        package_private: cluster.options.package_private,
    };
    let classes = class_values(cluster, &names);
    let members = reflected_members(cluster, &names);
    let functional = functional_interfaces(cluster, &names);
    let mockable = if cluster.options.mocks { mockable_types(cluster, &names, &functional) } else { BTreeMap::new() };
    let needed = classes.iter().flatten().filter_map(|t| t.to_internal_name()).map(|n| n.to_binary().to_string());
    let needed: Vec<String> = needed.chain(REFLECTION_CLASSES.iter().map(|c| c.to_string())).collect();
    for name in needed {
        if !cluster.supertypes.contains_key(&name)
            && let Ok(supertypes) = Supertypes::of(cp, &name)
        {
            let own = [name.clone(), "java.lang.Object".to_string()];
            cluster
                .supertypes
                .insert(name, own.into_iter().chain(supertypes.iter().map(BinaryName::to_string)).collect());
        }
    }
    cluster.class_values = classes;
    cluster.reflected_members = members;
    cluster.functional = functional;
    cluster.mockable = mockable;
}

/// Which classes a test in the CUT's package can name.
struct Names<'cp> {
    cp: &'cp ClassPath,
    package: String,
    /// Whether package-private classes of `package` count ([`crate::ClusterOptions::package_private`]).
    package_private: bool,
}

impl Names<'_> {
    /// Whether a test can name class `binary_name`.
    fn class(&self, binary_name: &str) -> bool {
        self.cp.load(binary_name).is_ok_and(|c| class_accessible(self.cp, &c, &self.package, self.package_private))
    }

    /// Whether a test can name type `ty` (`int`, `String[]`, …).
    fn field_type(&self, ty: &FieldType) -> bool {
        match ty {
            FieldType::Base(_) => true,
            FieldType::Array(elem) => self.field_type(elem),
            FieldType::Object(name) => self.class(name.to_binary().as_str()),
        }
    }
}

/// The `Class` values of the cluster (see the module docs), each once.
fn class_values(cluster: &TestCluster, names: &Names<'_>) -> Vec<Option<FieldType>> {
    let fixed = PRIMITIVE_AND_ARRAY_CLASSES.iter().filter_map(|d| FieldType::parse(d).ok());
    let jdk = JDK_CLASSES.iter().map(|c| class_type(c));
    let ranked = ranked_classes(cluster, names).into_iter().take(MAX_CLUSTER_CLASSES);
    let bounds = class_bounds(cluster).into_iter().filter(|b| names.class(b));
    let literals = class_literals(cluster, names).into_iter().take(MAX_CLASS_LITERALS);
    let mut seen = HashSet::new();
    let all = fixed.chain(jdk).chain(ranked.chain(bounds).chain(literals).map(|c| class_type(&c)));
    std::iter::once(None).chain(all.filter(|t| seen.insert(t.clone())).map(Some)).collect()
}

/// The classes the cluster knows a test can name (the CUT and its nested
/// classes, owners of calls under test, classes with generators, modifiers
/// or constants, concrete stand-ins), ranked: the CUT, its nested classes, the first interface,
/// enum and abstract class, then the others by name, JDK classes last.
fn ranked_classes(cluster: &TestCluster, names: &Names<'_>) -> Vec<String> {
    let owners = cluster.calls_under_test.iter().filter_map(|c| match c.method() {
        Some(m) => Some(m.owner.to_string()),
        None => c.receiver().and_then(|r| r.to_internal_name()).map(|n| n.to_binary().to_string()),
    });
    let subtypes = cluster.generators.values().flatten().filter_map(|g| match g {
        Generator::Subtype(t) => t.erasure().and_then(|e| e.to_internal_name()).map(|n| n.to_binary().to_string()),
        Generator::Call(_) => None,
    });
    let keys = cluster.generators.keys().chain(cluster.enums.keys()).chain(cluster.modifiers.keys()).cloned();
    let nested_classes = names.cp.nested_class_names(&cluster.cut).into_iter().map(|n| n.to_string());
    let known: BTreeSet<String> = owners.chain(subtypes).chain(keys).chain(nested_classes).collect();
    let cut = cluster.cut.as_str();
    let nested = format!("{cut}$");
    let mut kinds_seen = HashSet::new();
    let mut ranked: Vec<(u8, String)> = Vec::new();
    for name in known.into_iter().filter(|n| names.class(n)) {
        let kind = names.cp.load(&name).map_or(0, |c| c.access & (access::INTERFACE | access::ENUM | access::ABSTRACT));
        let rank = if name == cut {
            0
        } else if name.starts_with(&nested) {
            1
        } else if is_jdk_class(&name) {
            4
        } else if kind != 0 && kinds_seen.insert(kind) {
            2
        } else {
            3
        };
        ranked.push((rank, name));
    }
    ranked.sort();
    ranked.into_iter().map(|(_, name)| name).collect()
}

/// The class literals of the code of the CUT and its nested classes
/// ([`analysis::class_literals`]) that a test can name, sorted.
fn class_literals(cluster: &TestCluster, names: &Names<'_>) -> BTreeSet<String> {
    let nested = names.cp.nested_class_names(&cluster.cut).into_iter().map(|n| n.to_string());
    let classes = std::iter::once(cluster.cut.to_string()).chain(nested).filter_map(|c| names.cp.load(&c).ok());
    let literals = classes.flat_map(|c| analysis::class_literals(&c));
    literals.filter(|c| names.class(c)).collect()
}

/// The classes `X` of `Class<X>`, `Class<? extends X>` and `Class<? super X>`
/// parameters of the calls under test and the generators, sorted.
fn class_bounds(cluster: &TestCluster) -> BTreeSet<String> {
    let generators = cluster.generators.values().flatten().filter_map(|g| match g {
        Generator::Call(c) => Some(c),
        Generator::Subtype(_) => None,
    });
    let params = cluster.calls_under_test.iter().chain(generators).flat_map(|c| c.params());
    let bounds = params.filter_map(class_bound).filter_map(|(b, _)| b.to_internal_name());
    bounds.map(|n| n.to_binary().to_string()).collect()
}

/// The erased bound `X` of a `Class<X>`, `Class<? extends X>` or
/// `Class<? super X>` type, and whether it is a lower bound (`super`).
pub(super) fn class_bound(ty: &JavaType) -> Option<(FieldType, bool)> {
    let JavaType::Class(class) = ty else { return None };
    if class.name.as_str() != "java/lang/Class" {
        return None;
    }
    let (bound, is_super) = match class.args.first()? {
        TypeArg::Exact(t) | TypeArg::Extends(t) => (t, false),
        TypeArg::Super(t) => (t, true),
        TypeArg::Wildcard => return None,
    };
    matches!(bound, JavaType::Class(_) | JavaType::Array(_)).then(|| bound.erasure()).flatten().map(|b| (b, is_super))
}

/// The members looked up by reflection (see the module docs).
fn reflected_members(cluster: &TestCluster, names: &Names<'_>) -> Vec<MemberRef> {
    let nested = format!("{}$", cluster.cut);
    let owners: BTreeSet<String> = cluster
        .calls_under_test
        .iter()
        .filter_map(|c| c.method().map(|m| m.owner.to_string()))
        .filter(|o| o.starts_with(&nested))
        .collect();
    let owners = std::iter::once(cluster.cut.to_string()).chain(owners);
    let mut members: Vec<MemberRef> = owners.flat_map(|o| declared_members(&o, names)).take(MAX_MEMBERS).collect();
    for (owner, name, descriptor) in JDK_MEMBERS {
        let member = if descriptor.starts_with('(') {
            MethodRef::parse(owner, name, descriptor).ok().map(MemberRef::Method)
        } else {
            FieldRef::parse(owner, name, descriptor).ok().map(MemberRef::Field)
        };
        members.extend(member.filter(|m| is_declared(names.cp, m)));
    }
    members
}

/// The declared, non-synthetic methods, constructors and fields of `owner`
/// whose parameter types a test can name.
fn declared_members(owner: &str, names: &Names<'_>) -> Vec<MemberRef> {
    let Ok(class) = names.cp.load(owner) else { return Vec::new() };
    let binary = BinaryName::new(owner);
    let generated = access::SYNTHETIC | access::BRIDGE;
    let methods = class.methods.iter().filter(|m| m.access & generated == 0 && class.member_name(m) != "<clinit>");
    let methods = methods.filter_map(|m| {
        let descriptor = MethodDescriptor::parse(class.member_descriptor(m)).ok()?;
        descriptor
            .params
            .iter()
            .all(|p| names.field_type(p))
            .then(|| MemberRef::Method(MethodRef::new(binary.clone(), class.member_name(m), descriptor)))
    });
    let fields = class.fields.iter().filter(|f| f.access & access::SYNTHETIC == 0).filter_map(|f| {
        let ty = FieldType::parse(class.member_descriptor(f)).ok()?;
        Some(MemberRef::Field(FieldRef::new(binary.clone(), class.member_name(f), ty)))
    });
    methods.chain(fields).collect()
}

/// Whether the member is declared by its owner on the class path.
fn is_declared(cp: &ClassPath, member: &MemberRef) -> bool {
    let Ok(class) = cp.load(member.owner().as_str()) else { return false };
    let (members, name, descriptor) = match member {
        MemberRef::Method(m) => (&class.methods, &m.name, m.descriptor.to_descriptor()),
        MemberRef::Field(f) => (&class.fields, &f.name, f.ty.to_descriptor()),
    };
    members.iter().any(|m| class.member_name(m) == name && class.member_descriptor(m) == descriptor)
}

/// The functional interfaces among the classes the cluster mentions.
fn functional_interfaces(cluster: &TestCluster, names: &Names<'_>) -> BTreeMap<String, Functional> {
    let mut out = BTreeMap::new();
    for name in cluster.supertypes.keys().filter(|n| substitutes(n).is_none()) {
        if let Some(method) = crate::functional::functional_method(names.cp, name)
            && names.class(name)
        {
            let (ret_type_param, param_type_params) = type_params_used(names.cp, name, &method);
            out.insert(name.clone(), Functional { method, ret_type_param, param_type_params });
        }
    }
    out
}

/// The interfaces and abstract classes among the classes the cluster mentions that get mocks
/// (see the module docs), with their stubbable methods.
fn mockable_types(
    cluster: &TestCluster,
    names: &Names<'_>,
    functional: &BTreeMap<String, Functional>,
) -> BTreeMap<String, Vec<MethodRef>> {
    let candidates = cluster.supertypes.keys().filter(|n| {
        !super::jdk::is_jdk_class(n)
            && !functional.contains_key(*n)
            && **n != cluster.cut.as_str()
            && (cluster.generators(n).is_empty() || !extends_jdk_class(names.cp, n))
    });
    let mut out = BTreeMap::new();
    for name in candidates {
        if let Some(methods) = crate::functional::stubbable_methods(names.cp, name)
            && names.class(name)
            && methods.iter().all(|m| m.descriptor.params.iter().chain(&m.descriptor.ret).all(|t| names.field_type(t)))
        {
            out.insert(name.clone(), methods);
        }
    }
    out
}

/// Whether class `name` extends a JDK class other than `Object` (xz's
/// `SeekableInputStream` extends `InputStream`), or its superclasses are
/// unknown. Such a class has the JDK class's contract, which a mock's
/// default answers break (a `read` that returns 0, never -1, loops its
/// callers forever), so it gets mocks only when nothing else makes it.
fn extends_jdk_class(cp: &ClassPath, name: &str) -> bool {
    Supertypes::of(cp, name).map_or(true, |s| {
        s.superclasses.iter().any(|c| c.as_str() != "java.lang.Object" && super::jdk::is_jdk_class(c.as_str()))
    })
}

/// Which type parameters of `interface` the method returns and takes
/// (`R` and `T` of `R apply(T)` in `Function<T, R>`: 1 and 0), when the
/// interface declares the method itself; `None` where a type is no type
/// parameter of the interface.
fn type_params_used(cp: &ClassPath, interface: &str, method: &MethodRef) -> (Option<usize>, Vec<Option<usize>>) {
    let none = (None, vec![None; method.descriptor.params.len()]);
    let Ok(class) = cp.load(interface) else { return none };
    let class_sig = class.signature(&class.attributes).and_then(|s| parse_class_signature(s).ok());
    let descriptor = method.descriptor.to_descriptor();
    let member =
        class.methods.iter().find(|m| class.member_name(m) == method.name && class.member_descriptor(m) == descriptor);
    let method_sig = member.and_then(|m| class.signature(&m.attributes)).and_then(|s| parse_method_signature(s).ok());
    let (Some(class_sig), Some(method_sig), true) = (class_sig, method_sig, method.owner.as_str() == interface) else {
        return none;
    };
    let index = |t: &JavaType| match t {
        JavaType::TypeVar(v) => class_sig.type_params.iter().position(|p| p.name == *v),
        _ => None,
    };
    (index(&method_sig.ret), method_sig.params.iter().map(index).collect())
}

/// The class type of a binary name.
fn class_type(binary_name: &str) -> FieldType {
    FieldType::Object(BinaryName::new(binary_name).to_internal())
}
