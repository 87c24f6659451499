//! The three mutation phases of EvoSuite's `TestChromosome.mutate`, as
//! methods of [`Factory`]: delete, change and insert statements.

use model::descriptor::FieldType;
use model::signature::JavaType;
use rand::Rng;
use rand::seq::IndexedRandom;

use super::edit::{self, candidates, redirect, remove_closure, slots};
use super::factory::Factory;
use super::values;
use crate::cluster::{Callable, Generator};
use crate::ir::{StatementKind, VarId, var_id};

/// Probability of changing an argument rather than replacing a call (EvoSuite `p_change_parameter`).
const P_CHANGE_PARAMETER: f64 = 0.1;
/// Probability of each further insertion, to the power of the insertions so far (EvoSuite `p_statement_insertion`).
const P_STATEMENT_INSERTION: f64 = 0.5;
/// Probability that an insertion repeats a call on an existing object ([`Factory::repeat_call`]).
const P_REPEAT_CALL: f64 = 0.2;
/// The most copies one repetition adds.
const MAX_REPEATS: usize = 8;
/// Probability that an insertion is a serialization round trip of a
/// value of a `Serializable` class under test (`operators/serial.rs`).
const P_ROUND_TRIP: f64 = 0.05;

impl<'a, R: Rng + ?Sized> Factory<'a, R> {
    /// Deletes each statement with probability 1/n, last first.
    pub fn delete_phase(&mut self) {
        let n = self.test.len();
        for i in (0..n).rev() {
            if i < self.test.len() && self.rng.random_bool(1.0 / n as f64) {
                self.delete(var_id(i));
            }
        }
    }

    /// Deletes statement `var`: each use of its value is pointed at another
    /// fitting earlier value where there is one (that does not depend on
    /// `var`), and the statements still using it are deleted with it.
    pub fn delete(&mut self, var: VarId) {
        let dependents = edit::forward_closure(&self.test, &[var]);
        let except: Vec<VarId> = (0..self.test.len()).filter(|i| dependents[*i]).map(var_id).collect();
        for i in var.index() + 1..self.test.len() {
            let kind = self.test.statements[i].kind.clone();
            for (slot_idx, (used, slot)) in kind.uses().zip(slots(&self.test, self.cluster, &kind)).enumerate() {
                if used != var || !slot.replaceable {
                    continue;
                }
                if let Some(other) = candidates(&self.test, self.cluster, i, &slot, &except).choose(self.rng) {
                    self.test.statements[i].kind.set_use(slot_idx, *other);
                }
            }
        }
        self.test = remove_closure(&self.test, &[var]);
    }

    /// Changes each statement with probability 1/n.
    pub fn change_phase(&mut self) {
        let p = 1.0 / self.test.len().max(1) as f64;
        let mut i = 0;
        while i < self.test.len() {
            i = if self.rng.random_bool(p) { self.change(i) } else { i + 1 };
        }
    }

    /// Changes statement `i` (see [`Factory::change_in_place`],
    /// [`Factory::change_direct`] and the call changes); returns the index after the changed statement. A change
    /// that fails leaves the test as it was.
    fn change(&mut self, i: usize) -> usize {
        let snapshot = self.test.clone();
        let next = match self.test.statements[i].kind.clone() {
            StatementKind::Null(ty) => {
                let need = self.generic_need_of(var_id(i)).unwrap_or_else(|| JavaType::from(ty));
                self.replace_value(i, &need)
            }
            StatementKind::ArrayStore { .. } => self.change_argument(i, 1),
            StatementKind::ClassLiteral(_)
            | StatementKind::Reflect(_)
            | StatementKind::Lambda { .. }
            | StatementKind::Mock { .. } => self.change_direct(i),
            kind if kind.is_call()
                || matches!(kind, StatementKind::FieldGet { .. } | StatementKind::FieldSet { .. }) =>
            {
                self.change_call(i, kind.uses().count())
            }
            _ => Some(self.change_in_place(i)),
        };
        next.unwrap_or_else(|| {
            self.test = snapshot;
            i + 1
        })
    }

    /// With probability 0.1 one argument (or the receiver) changes, else the
    /// whole call is replaced; the other is tried when the first fails.
    fn change_call(&mut self, i: usize, n_uses: usize) -> Option<usize> {
        let change_argument = n_uses > 0 && self.rng.random_bool(P_CHANGE_PARAMETER);
        if change_argument {
            let slot = self.rng.random_range(0..n_uses);
            self.change_argument(i, slot).or_else(|| self.replace_call(i))
        } else {
            self.replace_call(i).or_else(|| {
                let slot = self.rng.random_range(0..n_uses.max(1));
                (n_uses > 0).then(|| self.change_argument(i, slot)).flatten()
            })
        }
    }

    /// Changes a literal without touching other statements: a primitive or
    /// box by a delta or a new value, a string by editing characters, an
    /// enum constant to another, an array's length (dropping stores past
    /// the new end). Returns the index after it.
    fn change_in_place(&mut self, i: usize) -> usize {
        let kind = self.test.statements[i].kind.clone();
        let changed = match kind {
            StatementKind::Primitive(p) => StatementKind::Primitive(values::mutate_primitive(p, self.seeds, self.rng)),
            StatementKind::Boxed(p) => StatementKind::Boxed(values::mutate_primitive(p, self.seeds, self.rng)),
            StatementKind::String(s) => StatementKind::String(values::mutate_string(&s, self.seeds, self.rng)),
            StatementKind::EnumConstant { class, name } => {
                let others: Vec<&String> =
                    self.cluster.enum_constants(class.as_str()).iter().filter(|c| **c != name).collect();
                let name = others.choose(self.rng).map_or(name, |c| (*c).clone());
                StatementKind::EnumConstant { class, name }
            }
            StatementKind::NewArray { elem, length } => {
                let new_length = super::factory::random_array_length(self.rng);
                self.test.statements[i].kind = StatementKind::NewArray { elem, length: new_length };
                self.drop_stores_past(var_id(i), new_length.min(length));
                return i + 1;
            }
            other => other,
        };
        self.test.statements[i].kind = changed;
        i + 1
    }

    /// Deletes the stores into array `array` at index `length` or later.
    fn drop_stores_past(&mut self, array: VarId, length: u32) {
        let past = |k: &StatementKind| matches!(k, StatementKind::ArrayStore { array: a, index, .. } if *a == array && *index >= length);
        let stores: Vec<VarId> = self.test.iter().filter(|(_, s)| past(&s.kind)).map(|(v, _)| v).collect();
        self.test = remove_closure(&self.test, &stores);
    }

    /// Points use `slot` of statement `i` at another value: an existing one
    /// that fits, `null`, or a new one built before it. Returns the index
    /// after the statement, or `None` when the slot cannot change.
    fn change_argument(&mut self, i: usize, slot_idx: usize) -> Option<usize> {
        let kind = self.test.statements[i].kind.clone();
        let slot = slots(&self.test, self.cluster, &kind).into_iter().nth(slot_idx).filter(|s| s.replaceable)?;
        let current = kind.uses().nth(slot_idx)?;
        let generic = slot.generic.clone();
        let existing = candidates(&self.test, self.cluster, i, &slot, &[current]);
        let null_allowed = slot.expected.is_reference() && !slot.receiver && !edit::is_null(&self.test, current);
        let choice = self.rng.random_range(0..3);
        let mut pos = i;
        let new = match choice {
            0 if !existing.is_empty() => *existing.choose(self.rng)?,
            1 if null_allowed => {
                let null = edit::insert_at(&mut self.test, pos, statement_null(&slot.expected));
                pos += 1;
                null
            }
            _ => {
                // The generic parameter type where the cluster knows the call
                // (`Collection<? extends CharSequence>`, not the raw `Collection`);
                // a new receiver keeps the old one's type arguments (`ArrayList<CharSequence>`
                // for its `add`, not a raw `ArrayList` that takes any element).
                let need = match generic {
                    Some(need) => need,
                    None if slot.receiver && self.test[current].ty.erasure().as_ref() == Some(&slot.expected) => {
                        self.test[current].ty.clone()
                    }
                    None => JavaType::from(slot.expected.clone()),
                };
                self.new_value(&need, &slot.expected, &mut pos, 1).or_else(|| existing.choose(self.rng).copied())?
            }
        };
        self.test.statements[pos].kind.set_use(slot_idx, new);
        Some(pos + 1)
    }

    /// The generic parameter type of the first call that uses `var` as an
    /// argument ([`edit::generic_param`]).
    fn generic_need_of(&self, var: VarId) -> Option<JavaType> {
        self.test.statements[var.index() + 1..].iter().find_map(|s| {
            let slot = s.kind.uses().position(|u| u == var)?;
            edit::generic_param(&self.test, self.cluster, &s.kind, slot)
        })
    }

    /// Replaces call `i` by another callable: one whose result fits where
    /// the old value is used, or any call under test when it is unused.
    /// Returns the index after the new call.
    fn replace_call(&mut self, i: usize) -> Option<usize> {
        let old = var_id(i);
        let kind = self.test.statements[i].kind.clone();
        let used = self.test.statements[i + 1..].iter().any(|s| s.kind.uses().any(|u| u == old));
        let value_ty = edit::value_type(&self.test, old);
        let cluster: &'a crate::cluster::TestCluster = self.cluster;
        let options: Vec<&'a Callable> = if used && self.test[old].produces_value() {
            self.callables_returning(&value_ty)
        } else {
            cluster.calls_under_test().iter().collect()
        };
        let options: Vec<&'a Callable> = options.into_iter().filter(|c| !c.matches(&kind)).collect();
        let callable = *options.choose(self.rng)?;
        // Keep the receiver when the new call takes it.
        let receiver = match (&kind, callable.receiver()) {
            (StatementKind::Call { receiver, .. }, Some(owner))
                if edit::fits(&self.test, self.cluster, *receiver, &receiver_slot(owner.clone())) =>
            {
                Some(*receiver)
            }
            _ => None,
        };
        let mut pos = i;
        let new = self.call(callable, &mut pos, 0, receiver)?;
        self.replace_with(VarId(pos as u32), new);
        Some(pos)
    }

    /// Replaces value `i` (a `null`) by a new non-null value of type `need`.
    fn replace_value(&mut self, i: usize, need: &JavaType) -> Option<usize> {
        let erased = need.erasure()?;
        let mut pos = i;
        let new = self.new_value(need, &erased, &mut pos, 1)?;
        self.replace_with(VarId(pos as u32), new);
        Some(pos)
    }

    /// Points the uses of `old` at `new` where it fits, then deletes `old`
    /// and whatever still uses it.
    fn replace_with(&mut self, old: VarId, new: VarId) {
        redirect(&mut self.test, self.cluster, old, new);
        self.test = remove_closure(&self.test, &[old]);
    }

    /// The callables of the cluster whose result fits type `ty`: generators
    /// of its class and calls under test, without the shared instances with
    /// state of their own ([`crate::TestCluster::is_shared_instance`]) with
    /// probability [`super::factory::P_AVOID_SHARED`] when there are others.
    fn callables_returning(&mut self, ty: &FieldType) -> Vec<&'a Callable> {
        let cluster: &'a crate::cluster::TestCluster = self.cluster;
        let class = ty.to_internal_name().map(|n| n.to_binary().to_string()).unwrap_or_default();
        let generators = cluster.generators(&class).iter().filter_map(|g| match g {
            Generator::Call(c) => Some(c),
            Generator::Subtype(_) => None,
        });
        let fits = |c: &&Callable| c.erased_ret().is_some_and(|r| cluster.is_assignable(&r, ty));
        let fitting: Vec<&'a Callable> = generators.chain(cluster.calls_under_test()).filter(fits).collect();
        // Like `Factory::choose_generator`: a shared instance with state of its own is seldom offered.
        if fitting.iter().all(|c| cluster.is_shared_instance(c))
            || !self.rng.random_bool(super::factory::P_AVOID_SHARED)
        {
            return fitting;
        }
        fitting.into_iter().filter(|c| !cluster.is_shared_instance(c)).collect()
    }

    /// Inserts a random call (or, with probability [`P_REPEAT_CALL`],
    /// repeats one: [`Factory::repeat_call`]; or, with probability
    /// [`P_ROUND_TRIP`], appends a serialization round trip), then another with probability
    /// 1/2, 1/4, …, while the test is shorter than `max_length`.
    pub fn insert_phase(&mut self, max_length: usize) {
        let mut count = 0;
        while self.test.len() < max_length && self.rng.random_bool(P_STATEMENT_INSERTION.powi(count)) {
            let done = (self.rng.random_bool(P_REPEAT_CALL) && self.repeat_call(max_length))
                || (self.rng.random_bool(P_ROUND_TRIP) && self.insert_round_trip(max_length));
            if !done {
                self.insert_random_call(false, max_length);
            }
            count += 1;
        }
    }

    /// Repeats a call on an existing object 1 to [`MAX_REPEATS`] times right
    /// after it (`heap.insert(x)`, then `heap.insert(y)`, ...), each copy
    /// with new values for its primitive, boxed and string arguments and the
    /// same objects otherwise, so that states that need many calls (a heap
    /// of 5 to 20 elements) are one mutation away. Reverts and returns
    /// `false` when the test has no call on an object or would exceed `max_length`.
    fn repeat_call(&mut self, max_length: usize) -> bool {
        let calls: Vec<usize> = (0..self.test.len())
            .filter(|&i| matches!(self.test.statements[i].kind, StatementKind::Call { .. }))
            .collect();
        let Some(&i) = calls.choose(self.rng) else { return false };
        let snapshot = self.test.clone();
        let original = self.test.statements[i].clone();
        let StatementKind::Call { receiver, method, args } = &original.kind else { return false };
        let mut pos = i + 1;
        for _ in 0..self.rng.random_range(1..=MAX_REPEATS) {
            let mut new_args = Vec::with_capacity(args.len());
            for &arg in args {
                let fresh = matches!(
                    self.test[arg].kind,
                    StatementKind::Primitive(_) | StatementKind::Boxed(_) | StatementKind::String(_)
                );
                let ty = self.test[arg].ty.clone();
                new_args.push(if fresh { self.value(&ty, &mut pos, 1, &[]) } else { arg });
            }
            let kind = StatementKind::Call { receiver: *receiver, method: method.clone(), args: new_args };
            edit::insert_at(&mut self.test, pos, crate::ir::Statement { kind, ..original.clone() });
            pos += 1;
        }
        if self.test.len() > max_length {
            self.test = snapshot;
            return false;
        }
        true
    }
}

/// `(T) null` for a slot of type `ty`.
fn statement_null(ty: &FieldType) -> crate::ir::Statement {
    crate::ir::Statement::new(StatementKind::Null(ty.clone()))
}

/// The slot of a receiver of type `owner`.
fn receiver_slot(owner: FieldType) -> edit::Slot {
    edit::Slot::receiver(owner)
}
