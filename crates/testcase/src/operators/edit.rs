//! Structural edits that keep the rule "a statement uses only earlier
//! values": inserting a statement (shifting later references), removing
//! statements with everything that uses them (renumbering), redirecting
//! uses from one value to another, and the expected type of each use.

use model::descriptor::FieldType;
use model::names::InternalName;
use model::signature::{JavaType, TypeArg};

use crate::cluster::TestCluster;
use crate::ir::{Statement, StatementKind, TestCase, VarId, var_id};

/// One use of a value by a statement, aligned with [`StatementKind::uses`].
#[derive(Debug, Clone)]
pub(crate) struct Slot {
    /// The type a value in this place must be assignable to.
    pub expected: FieldType,
    /// A receiver (or the array of an array store): `null` throws there.
    pub receiver: bool,
    /// Whether another value of the expected type may take this place
    /// (not for the array of an array store, whose length matters).
    pub replaceable: bool,
    /// The place's generic type where the cluster knows it
    /// (`Collection<? extends CharSequence>` where `expected` is the raw
    /// `Collection`, [`generic_param`]): a value fits only if its type
    /// arguments do too ([`fits_type_args`]), so no edit passes a
    /// `List<Object>` there, which javac would take only raw.
    pub generic: Option<JavaType>,
    /// The object whose field the statement writes: the value a static
    /// field holds never fits here (`factory::writes_shared_object`).
    pub written: bool,
}

impl Slot {
    /// A replaceable argument place of erased type `expected`, generic type unknown.
    pub(crate) fn value(expected: FieldType) -> Slot {
        Slot { expected, receiver: false, replaceable: true, generic: None, written: false }
    }

    /// A replaceable receiver place of type `expected` (`null` throws there).
    pub(crate) fn receiver(expected: FieldType) -> Slot {
        Slot { expected, receiver: true, replaceable: true, generic: None, written: false }
    }
}

/// Inserts `statement` as statement `pos`, shifting the uses, the call
/// under test and the assertions that refer to statements at or after `pos`.
pub(crate) fn insert_at(test: &mut TestCase, pos: usize, statement: Statement) -> VarId {
    let shift = |v: VarId| if v.index() >= pos { VarId(v.0 + 1) } else { v };
    for s in &mut test.statements[pos..] {
        s.kind.map_uses(shift);
    }
    test.call_under_test = test.call_under_test.map(shift);
    test.assertions = test.assertions.iter().filter_map(|a| a.map_vars(|v| Some(shift(v)))).collect();
    test.statements.insert(pos, statement);
    var_id(pos)
}

/// The test case without the statements `roots` and every statement that
/// uses a removed one, directly or not (and without any statement that
/// breaks the rule), renumbered.
pub(crate) fn remove_closure(test: &TestCase, roots: &[VarId]) -> TestCase {
    let removed = forward_closure(test, roots);
    retain(test, &removed)
}

/// The test case without its writes of fields of objects that static
/// fields hold (`Point.ORIGIN.x = 3`, which later tests would see): an edit
/// that makes a written receiver such a value (a constructor replaced by
/// `Point.ORIGIN`, a crossover's repair) loses the write.
pub(crate) fn without_shared_writes(test: TestCase) -> TestCase {
    let shared: Vec<VarId> = (0..test.len())
        .map(var_id)
        .filter(|v| {
            matches!(test[*v].kind, StatementKind::FieldSet { receiver: Some(r), .. } if is_static_field_value(&test, r))
        })
        .collect();
    if shared.is_empty() { test } else { remove_closure(&test, &shared) }
}

/// Marks `roots` and every statement that depends on one of them, plus any
/// statement that uses a missing or later value.
pub(crate) fn forward_closure(test: &TestCase, roots: &[VarId]) -> Vec<bool> {
    let n = test.len();
    let mut removed = vec![false; n];
    for root in roots.iter().filter(|r| r.index() < n) {
        removed[root.index()] = true;
    }
    for (i, s) in test.statements.iter().enumerate() {
        if s.kind.uses().any(|u| u.index() >= i || removed[u.index()]) {
            removed[i] = true;
        }
    }
    removed
}

/// The statements not marked `removed`, renumbered; assertions and the call
/// under test follow their statements or go. The caller marks every
/// statement that uses a removed one ([`forward_closure`]).
fn retain(test: &TestCase, removed: &[bool]) -> TestCase {
    let mut map = vec![None; test.len()];
    let mut next = 0;
    for (i, gone) in removed.iter().enumerate() {
        if !gone {
            map[i] = Some(var_id(next));
            next += 1;
        }
    }
    let lookup = |v: VarId| map.get(v.index()).copied().flatten();
    let statements = test.statements.iter().zip(removed).filter(|(_, gone)| !**gone).map(|(s, _)| {
        let mut s = s.clone();
        s.kind.map_uses(|v| lookup(v).unwrap_or(v));
        s
    });
    TestCase {
        statements: statements.collect(),
        call_under_test: test.call_under_test.and_then(lookup),
        assertions: test.assertions.iter().filter_map(|a| a.map_vars(lookup)).collect(),
    }
}

/// The erased static type of value `var`, as the validator sees it.
pub(crate) fn value_type(test: &TestCase, var: VarId) -> FieldType {
    let statement = &test[var];
    statement.ty.erasure().or_else(|| statement.kind.value_type()).unwrap_or(FieldType::Object(InternalName::object()))
}

/// Whether `var` is a `null` literal.
pub(crate) fn is_null(test: &TestCase, var: VarId) -> bool {
    matches!(test[var].kind, StatementKind::Null(_))
}

/// The slots of a statement of `test`, one per [`StatementKind::uses`].
pub(crate) fn slots(test: &TestCase, cluster: &TestCluster, kind: &StatementKind) -> Vec<Slot> {
    let mut out = erased_slots(test, kind);
    for (i, slot) in out.iter_mut().enumerate() {
        slot.generic = generic_param(test, cluster, kind, i);
    }
    // An element given to a container's `add`/`put` keeps to the
    // container's type arguments, so no edit pollutes the heap
    // (`ArrayList<CharSequence>.add(index)` would cast-fail in the class under test);
    // and the container keeps its type arguments, so its elements still fit
    // (a call that replaces an `ArrayList<Object>` by an `ArrayList<CharSequence>`
    // must not take over its `add(index)`).
    if let StatementKind::Call { receiver, method, .. } = kind
        && let Some(types) = super::factory::fill_types(test, cluster, *receiver, method)
    {
        if let Some(slot) = out.first_mut() {
            slot.generic = Some(test[*receiver].ty.clone());
        }
        for (slot, ty) in out.iter_mut().skip(1).zip(types) {
            if let Some(erased) = ty.erasure() {
                slot.expected = erased;
            }
        }
    }
    out
}

/// The slots of `kind` typed by the erased descriptors only.
fn erased_slots(test: &TestCase, kind: &StatementKind) -> Vec<Slot> {
    let arg = |t: &FieldType| Slot::value(t.clone());
    let receiver = |owner: &model::names::BinaryName| Slot::receiver(FieldType::Object(owner.to_internal()));
    match kind {
        StatementKind::ArrayStore { array, .. } => {
            let array_ty = value_type(test, *array);
            let elem = match &array_ty {
                FieldType::Array(e) => (**e).clone(),
                _ => FieldType::Object(InternalName::object()),
            };
            vec![Slot { replaceable: false, ..Slot::receiver(array_ty) }, arg(&elem)]
        }
        StatementKind::Constructor { method, .. } | StatementKind::StaticCall { method, .. } => {
            method.descriptor.params.iter().map(arg).collect()
        }
        StatementKind::Call { method, .. } => {
            std::iter::once(receiver(&method.owner)).chain(method.descriptor.params.iter().map(arg)).collect()
        }
        StatementKind::FieldGet { receiver: r, field } => r.iter().map(|_| receiver(&field.owner)).collect(),
        StatementKind::FieldSet { receiver: r, field, .. } => {
            let written = |_| Slot { written: true, ..receiver(&field.owner) };
            r.iter().map(written).chain([arg(&field.ty)]).collect()
        }
        StatementKind::Lambda { method, body, .. } => {
            body.returned().iter().filter_map(|_| method.descriptor.ret.as_ref()).map(arg).collect()
        }
        StatementKind::Mock { methods, .. } => {
            methods.iter().filter_map(|m| m.descriptor.ret.as_ref()).map(arg).collect()
        }
        _ => Vec::new(),
    }
}

/// Whether value `var` of `test` may take `slot`'s place: its erased type
/// is assignable to the place's erased type and to the erasure of its
/// generic type (an `ArrayList<CharSequence>`'s `add(E)` takes no `Index`,
/// though it declares `Object`), and its type arguments fit the generic type.
pub(crate) fn fits(test: &TestCase, cluster: &TestCluster, var: VarId, slot: &Slot) -> bool {
    let have = value_type(test, var);
    test[var].produces_value()
        && !(slot.receiver && is_null(test, var))
        && !(slot.written && is_static_field_value(test, var))
        && cluster.is_assignable(&have, &slot.expected)
        && slot.generic.as_ref().is_none_or(|need| {
            need.erasure().is_none_or(|erased| cluster.is_assignable(&have, &erased))
                && fits_type_args(test, cluster, var, need)
        })
}

/// Whether `var` is the value of a static field (`Owner.field`).
pub(crate) fn is_static_field_value(test: &TestCase, var: VarId) -> bool {
    matches!(test[var].kind, StatementKind::FieldGet { receiver: None, .. })
}

/// The generic type of use `slot_idx` of `kind` (aligned with
/// [`StatementKind::uses`]) where the cluster knows the callable:
/// a container's `add`/`put` takes the receiver's element types (not the
/// `Object` it declares); a call, constructor or static call the cluster
/// offers takes its declared generic parameter. `None` for receivers and
/// for callables the cluster does not offer.
pub(crate) fn generic_param(
    test: &TestCase,
    cluster: &TestCluster,
    kind: &StatementKind,
    slot_idx: usize,
) -> Option<JavaType> {
    if let StatementKind::Call { receiver, method, .. } = kind
        && let Some(types) = super::factory::fill_types(test, cluster, *receiver, method)
    {
        return types.get(slot_idx.checked_sub(1)?).cloned();
    }
    let (owner, param) = match kind {
        StatementKind::Call { method, .. } => (&method.owner, slot_idx.checked_sub(1)?),
        StatementKind::Constructor { method, .. } | StatementKind::StaticCall { method, .. } => {
            (&method.owner, slot_idx)
        }
        _ => return None,
    };
    let generators = cluster.generators(owner.as_str()).iter().filter_map(|g| match g {
        crate::cluster::Generator::Call(c) => Some(c),
        crate::cluster::Generator::Subtype(_) => None,
    });
    let mut offered = cluster.calls_under_test().iter().chain(cluster.modifiers(owner.as_str())).chain(generators);
    offered.find(|c| c.matches(kind))?.params().get(param).cloned()
}

/// Whether value `var` fits where a value of generic type `need` is
/// expected, as far as the type arguments of a JDK collection go: a
/// `List<Object>` is no `Collection<? extends CharSequence>`, and a raw
/// `ArrayList` fits no parameterized collection without an unchecked
/// conversion. Values of other classes (`Words extends ArrayList<String>`),
/// `null` and needs without type arguments fit as their erasures do
/// ([`fits`]); a type variable in `need` takes any argument.
pub(crate) fn fits_type_args(test: &TestCase, cluster: &TestCluster, var: VarId, need: &JavaType) -> bool {
    let (JavaType::Class(need), JavaType::Class(have)) = (need, &test[var].ty) else { return true };
    let is_collection = |name: &InternalName| crate::cluster::is_collection(name.to_binary().as_str());
    if need.args.is_empty() || !is_collection(&need.name) || !is_collection(&have.name) || is_null(test, var) {
        return true;
    }
    if have.args.len() != need.args.len() {
        return false;
    }
    let erased = |t: &JavaType| t.erasure();
    let assignable = |from: &JavaType, to: &JavaType| match (erased(from), erased(to)) {
        (Some(from), Some(to)) => cluster.is_assignable(&from, &to),
        _ => false,
    };
    need.args.iter().zip(&have.args).all(|(want, got)| match (want, got) {
        (TypeArg::Wildcard, _) => true,
        (TypeArg::Exact(JavaType::TypeVar(_)) | TypeArg::Extends(JavaType::TypeVar(_)), _) => true,
        (TypeArg::Super(JavaType::TypeVar(_)), _) => true,
        (TypeArg::Exact(w), TypeArg::Exact(g)) => w == g,
        (TypeArg::Extends(w), TypeArg::Exact(g) | TypeArg::Extends(g)) => assignable(g, w),
        (TypeArg::Super(w), TypeArg::Exact(g) | TypeArg::Super(g)) => assignable(w, g),
        _ => false,
    })
}

/// Points the uses of `from` after `to` at `to` wherever `to` fits the
/// slot; uses where it does not fit are left for the caller to remove.
pub(crate) fn redirect(test: &mut TestCase, cluster: &TestCluster, from: VarId, to: VarId) {
    let start = from.index().max(to.index()) + 1;
    for i in start..test.len() {
        let kind = test.statements[i].kind.clone();
        let slots = slots(test, cluster, &kind);
        for (slot_idx, (used, slot)) in kind.uses().zip(&slots).enumerate() {
            if used == from && slot.replaceable && fits(test, cluster, to, slot) {
                test.statements[i].kind.set_use(slot_idx, to);
            }
        }
    }
}

/// The values before statement `before` that fit `slot`, other than `except`.
pub(crate) fn candidates(
    test: &TestCase,
    cluster: &TestCluster,
    before: usize,
    slot: &Slot,
    except: &[VarId],
) -> Vec<VarId> {
    (0..before.min(test.len())).map(var_id).filter(|v| !except.contains(v) && fits(test, cluster, *v, slot)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assertion::{Assertion, AssertionKind};
    use crate::builder::TestCaseBuilder;
    use crate::ir::MethodRef;

    fn m(owner: &str, name: &str, descriptor: &str) -> MethodRef {
        MethodRef::parse(owner, name, descriptor).unwrap()
    }

    /// `v0 = 1; v1 = new Counter(v0); v2 = "x"; v3 = v1.describe(v2); v4 = v1.add(v0)`.
    fn sample() -> TestCase {
        let mut b = TestCaseBuilder::new();
        let v0 = b.int(1);
        let v1 = b.construct(m("fix.Counter", "<init>", "(I)V"), &[v0]);
        let v2 = b.string("x");
        b.call(v1, m("fix.Counter", "describe", "(Ljava/lang/CharSequence;)Ljava/lang/String;"), &[v2]);
        let v4 = b.call(v1, m("fix.Counter", "add", "(I)I"), &[v0]);
        b.call_under_test(v4);
        let mut test = b.build();
        test.assertions.push(Assertion { var: VarId(4), kind: AssertionKind::NotNull });
        test
    }

    #[test]
    fn inserting_shifts_later_references_the_call_under_test_and_assertions() {
        let mut test = sample();
        insert_at(&mut test, 1, Statement::new(StatementKind::Primitive(crate::Primitive::Int(7))));
        assert_eq!(
            test.to_string(),
            "v0 = 1\nv1 = 7\nv2 = new fix.Counter(v0)\nv3 = \"x\"\nv4 = v2.describe(v3)\nv5 = v2.add(v0)  // call under test\nassert v5 != null\n"
        );
        assert_eq!(test.assertions[0].var, VarId(5));
    }

    #[test]
    fn removing_a_value_removes_what_uses_it_and_renumbers() {
        let test = remove_closure(&sample(), &[VarId(2)]);
        assert_eq!(
            test.to_string(),
            "v0 = 1\nv1 = new fix.Counter(v0)\nv2 = v1.add(v0)  // call under test\nassert v2 != null\n"
        );
        assert_eq!(test.assertions[0].var, VarId(2));
        let test = remove_closure(&sample(), &[VarId(0)]);
        assert_eq!(test.to_string(), "v0 = \"x\"\n");
        assert!(test.assertions.is_empty() && test.call_under_test.is_none());
    }

    #[test]
    fn slots_follow_the_order_of_uses() {
        let test = sample();
        let expected: Vec<String> = erased_slots(&test, &test.statements[3].kind)
            .iter()
            .map(|s| format!("{}:{}", s.expected, s.receiver))
            .collect();
        assert_eq!(expected, ["fix.Counter:true", "java.lang.CharSequence:false"]);
    }
}
