//! Type arguments of constructed values taken from their uses, before a
//! suite is emitted. The search makes a generic class's value with the
//! class's type variables at their bound (`new DoubleKeyMap<Object,
//! Object, Object>()`) and may pass it where a parameter declares other
//! arguments (`DoubleKeyMap<PredictionContext, PredictionContext,
//! PredictionContext>`): the workers run it (generics are erased), javac
//! rejects it, and verification then declares the whole test with raw
//! types. [`retype_from_uses`] declares such a value with the arguments its
//! uses declare instead, when every use still fits. [`unbound_classes`]
//! declares the raw `Class` a method returns (`Class<? extends Object>`,
//! which the test cluster erases) as `Class<?>`, and a new `Class[]` as
//! `Class<?>[]`.

use model::names::InternalName;
use model::signature::{ClassTypeSig, JavaType, TypeArg};

use super::edit::{fits, generic_param, slots};
use super::factory::fill_types;
use crate::cluster::TestCluster;
use crate::ir::{StatementKind, TestCase, VarId};

/// Declares each value of `test` that a constructor without arguments
/// makes with type arguments all `Object` with the type arguments of the
/// parameters it is passed to, when those parameters are of the value's
/// own class (or, for JDK collections, of a collection with as many type
/// arguments: `HashMap` for `Map<K, V>`), all declare the same exact
/// arguments, and every later statement that uses the value still takes
/// it ([`fits`]: the elements a collection's `add`/`put` is given fit the
/// new arguments). A value that is the receiver of another call with an
/// `Object` parameter (a type variable, whose argument the new type would
/// constrain) keeps its type. Returns how many values changed type.
pub fn retype_from_uses(test: &mut TestCase, cluster: &TestCluster) -> usize {
    let mut changed = 0;
    for i in 0..test.len() {
        let Some(ty) = retyped(test, cluster, i) else { continue };
        let mut candidate = test.clone();
        candidate.statements[i].ty = ty;
        if uses_fit(&candidate, cluster, i) {
            *test = candidate;
            changed += 1;
        }
    }
    changed
}

/// Declares each raw `Class` value of `test` that a call or field read
/// gives as `Class<?>`, and each new `Class[]` as `Class<?>[]`, unless it
/// is passed where a parameter's generic type is unknown or names an
/// argument (`Class<? extends Foo>` takes no `Class<?>`, though it takes
/// a raw `Class`). A `Class<?>` is always a fine receiver (no method of
/// `Class` takes its type argument), and a `Class<?>[]` takes any `Class`
/// stored in it. Returns how many values changed type.
pub fn unbound_classes(test: &mut TestCase, cluster: &TestCluster) -> usize {
    let class = InternalName::new("java/lang/Class");
    let raw = JavaType::Class(ClassTypeSig::new(class.clone()));
    let unbound = JavaType::Class(ClassTypeSig { args: vec![TypeArg::Wildcard], ..ClassTypeSig::new(class) });
    let mut changed = 0;
    for i in 0..test.len() {
        let statement = &test.statements[i];
        let (from, to) = match statement.kind {
            StatementKind::Call { .. } | StatementKind::StaticCall { .. } | StatementKind::FieldGet { .. } => {
                (raw.clone(), unbound.clone())
            }
            StatementKind::NewArray { .. } => {
                (JavaType::Array(Box::new(raw.clone())), JavaType::Array(Box::new(unbound.clone())))
            }
            _ => continue,
        };
        if statement.ty == from && passed_only_as(test, cluster, i, &to) {
            test.statements[i].ty = to;
            changed += 1;
        }
    }
    changed
}

/// Whether value `i` of `test`, wherever it is an argument of a parameter
/// of its erased type, is one whose generic type is `to`.
fn passed_only_as(test: &TestCase, cluster: &TestCluster, i: usize, to: &JavaType) -> bool {
    let var = VarId(i as u32);
    let erased = to.erasure();
    (i + 1..test.len()).all(|j| {
        let kind = &test.statements[j].kind;
        let receiver = receiver_of(kind);
        let slots = slots(test, cluster, kind);
        kind.uses().enumerate().filter(|(s, used)| *used == var && Some(*s) != receiver).all(|(s, _)| {
            let same_type = slots.get(s).is_some_and(|slot| Some(&slot.expected) == erased.as_ref());
            !same_type || generic_param(test, cluster, kind, s).as_ref() == Some(to)
        })
    })
}

/// The type statement `i` would be declared with: its class with the
/// arguments every argument use of it declares, if it qualifies.
fn retyped(test: &TestCase, cluster: &TestCluster, i: usize) -> Option<JavaType> {
    let statement = &test.statements[i];
    let StatementKind::Constructor { args, .. } = &statement.kind else { return None };
    let JavaType::Class(have) = &statement.ty else { return None };
    let object = TypeArg::Exact(JavaType::Class(ClassTypeSig::new(InternalName::object())));
    if !args.is_empty() || have.args.is_empty() || have.args.iter().any(|a| *a != object) {
        return None;
    }
    let var = VarId(i as u32);
    let mut wanted: Option<Vec<TypeArg>> = None;
    for j in i + 1..test.len() {
        let kind = &test.statements[j].kind;
        let receiver = receiver_of(kind);
        for (slot, _) in kind.uses().enumerate().filter(|(s, used)| *used == var && Some(*s) != receiver) {
            let Some(JavaType::Class(need)) = generic_param(test, cluster, kind, slot) else { continue };
            if !takes_args_of(have, &need, cluster) {
                continue;
            }
            match &wanted {
                Some(args) if *args != need.args => return None,
                _ => wanted = Some(need.args.clone()),
            }
        }
    }
    let args = wanted?;
    Some(JavaType::Class(ClassTypeSig { name: have.name.clone(), args, outer_args: have.outer_args.clone() }))
}

/// Whether a parameter of type `need` fixes the arguments of a value of
/// class `have`: the same class, or two JDK collections with as many
/// arguments, and exact arguments.
fn takes_args_of(have: &ClassTypeSig, need: &ClassTypeSig, cluster: &TestCluster) -> bool {
    let is_collection = |name: &InternalName| cluster.container(name.to_binary().as_str()).is_some();
    let related = need.name == have.name
        || (is_collection(&have.name) && crate::cluster::is_collection(need.name.to_binary().as_str()));
    related
        && need.args.len() == have.args.len()
        && need.outer_args.is_empty()
        && JavaType::Class(need.clone()).is_exact()
}

/// The use index of the receiver of `kind`: a call's, or the array of an
/// array store (a place no argument type constrains).
fn receiver_of(kind: &StatementKind) -> Option<usize> {
    matches!(kind, StatementKind::Call { .. } | StatementKind::ArrayStore { .. }).then_some(0)
}

/// Whether every later statement of `test` that uses value `i` still takes
/// its values: each use fits its slot, and no call on it other than a
/// collection's fill takes an `Object` (a type variable's erasure).
fn uses_fit(test: &TestCase, cluster: &TestCluster, i: usize) -> bool {
    let var = VarId(i as u32);
    (i + 1..test.len()).all(|j| {
        let kind = &test.statements[j].kind;
        if !kind.uses().any(|u| u == var) {
            return true;
        }
        if let StatementKind::Call { receiver, method, .. } = kind
            && *receiver == var
            && fill_types(test, cluster, var, method).is_none()
            && method
                .descriptor
                .params
                .iter()
                .any(|p| p.to_internal_name().is_some_and(|n| n == InternalName::object()))
        {
            return false;
        }
        let slots = slots(test, cluster, kind);
        kind.uses().zip(&slots).all(|(used, slot)| fits(test, cluster, used, slot))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::TestCaseBuilder;
    use crate::cluster::ClusterOptions;
    use crate::ir::{MethodRef, Primitive};
    use model::signature::parse_field_signature;

    fn m(owner: &str, name: &str, descriptor: &str) -> MethodRef {
        MethodRef::parse(owner, name, descriptor).unwrap()
    }

    /// `v0 = new HashMap<Object, Object>(); ...extra...; bag = Bag.empty(); bag.total(v0)`,
    /// with `int total(Map<String, Integer>)`.
    fn passed_map(extra: impl FnOnce(&mut TestCaseBuilder, VarId)) -> TestCase {
        let mut b = TestCaseBuilder::new();
        let map = b.construct(m("java.util.HashMap", "<init>", "()V"), &[]);
        b.refine(map, parse_field_signature("Ljava/util/HashMap<Ljava/lang/Object;Ljava/lang/Object;>;").unwrap());
        extra(&mut b, map);
        let bag = b.static_call(m("fix.Bag", "empty", "()Lfix/Bag;"), &[]);
        b.call(bag, m("fix.Bag", "total", "(Ljava/util/Map;)I"), &[map]);
        b.build()
    }

    fn put(b: &mut TestCaseBuilder, map: VarId, value: VarId) {
        let key = b.string("k");
        let put = m("java.util.HashMap", "put", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;");
        b.call(map, put, &[key, value]);
    }

    #[test]
    fn a_value_takes_the_type_arguments_of_the_parameter_it_is_passed_to() {
        let Some(class_path) = crate::testutil::class_path() else { return };
        let cluster = TestCluster::build(class_path, "fix.Bag", &ClusterOptions::default()).unwrap();
        let mut test = passed_map(|_, _| {});
        assert_eq!(retype_from_uses(&mut test, &cluster), 1, "{test}");
        assert_eq!(test.statements[0].ty.to_string(), "java.util.HashMap<java.lang.String, java.lang.Integer>");
        let mut filled = passed_map(|b, map| {
            let value = b.boxed(Primitive::Int(3));
            put(b, map, value);
        });
        assert_eq!(retype_from_uses(&mut filled, &cluster), 1, "{filled}");
    }

    #[test]
    fn a_class_a_method_returns_is_declared_unbound_unless_passed_where_an_argument_is_named() {
        let Some(class_path) = crate::testutil::class_path() else { return };
        let cluster = TestCluster::build(class_path, "fix.Values", &ClusterOptions::default()).unwrap();
        // `s = "o"; c = s.getClass(); c.getName(); Values.<method>(c)`
        let passed_to = |method: &str, descriptor: &str| {
            let mut b = TestCaseBuilder::new();
            let s = b.string("o");
            let class = b.call(s, m("java.lang.Object", "getClass", "()Ljava/lang/Class;"), &[]);
            b.call(class, m("java.lang.Class", "getName", "()Ljava/lang/String;"), &[]);
            b.static_call(m("fix.Values", method, descriptor), &[class]);
            b.build()
        };
        let mut unbound = passed_to("describe", "(Ljava/lang/Class;)Ljava/lang/String;");
        assert_eq!(unbound_classes(&mut unbound, &cluster), 1, "{unbound}");
        assert_eq!(unbound.statements[1].ty.to_string(), "java.lang.Class<?>");
        let mut bounded = passed_to("numbers", "(Ljava/lang/Class;)I");
        assert_eq!(unbound_classes(&mut bounded, &cluster), 0, "Class<? extends Number> takes no Class<?>: {bounded}");
        assert_eq!(bounded.statements[1].ty.to_string(), "java.lang.Class");
    }

    #[test]
    fn a_new_class_array_is_declared_unbound_unless_passed_where_an_argument_is_named() {
        let Some(class_path) = crate::testutil::class_path() else { return };
        let cluster = TestCluster::build(class_path, "fix.Kinds", &ClusterOptions::default()).unwrap();
        // `c = int.class; a = new Class[1]; a[0] = c; Kinds.<method>(a)`
        let passed_to = |method: &str| {
            let mut b = TestCaseBuilder::new();
            let class = b.class_literal(model::descriptor::FieldType::parse("I").unwrap());
            let array = b.new_array(model::descriptor::FieldType::parse("Ljava/lang/Class;").unwrap(), 1);
            b.array_store(array, 0, class);
            b.static_call(m("fix.Kinds", method, "([Ljava/lang/Class;)I"), &[array]);
            b.build()
        };
        let mut unbound = passed_to("count");
        assert_eq!(unbound_classes(&mut unbound, &cluster), 1, "{unbound}");
        assert_eq!(unbound.statements[1].ty.to_string(), "java.lang.Class<?>[]");
        let mut bounded = passed_to("numbers");
        assert_eq!(unbound_classes(&mut bounded, &cluster), 0, "{bounded}");
    }

    #[test]
    fn a_value_whose_elements_do_not_fit_the_new_arguments_keeps_its_type() {
        let Some(class_path) = crate::testutil::class_path() else { return };
        let cluster = TestCluster::build(class_path, "fix.Bag", &ClusterOptions::default()).unwrap();
        let mut test = passed_map(|b, map| {
            let value = b.string("not an Integer");
            put(b, map, value);
        });
        let before = test.clone();
        assert_eq!(retype_from_uses(&mut test, &cluster), 0, "{test}");
        assert_eq!(test, before);
    }
}
