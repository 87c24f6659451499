//! [`Factory`]: builds values and calls into a test case, EvoSuite's
//! `TestFactory`.
//!
//! Every method inserts its statements at a moving position `pos` (and
//! advances it), so that a value is always defined before the statement
//! that needs it; values held across insertions are all before `pos` and
//! never shift. A value of type `T` is reused from the test (probability
//! 0.9 for objects, 0.5 for primitives and strings), `null` (0.1 for
//! references), or built: literals directly, arrays element by element,
//! enums from their constants, `Class` values, members by reflection and
//! lambdas as `direct` makes them, other classes through a random generator
//! of the cluster, recursively until [`crate::ClusterOptions::max_depth`].

use model::descriptor::{BaseType, FieldType};
use model::names::{BinaryName, InternalName};
use model::signature::{ClassTypeSig, JavaType, TypeArg};
use rand::Rng;
use rand::seq::IndexedRandom;

use super::edit::{self, Slot};
use super::values;
use crate::cluster::{Callable, Generator, TestCluster, type_argument};
use crate::ir::{MethodRef, Statement, StatementKind, TestCase, VarId, var_id};
use crate::seeds::Seeds;
use crate::seeds::param_values::{self, P_PARAM_VALUE};

/// Probability of `null` for a reference argument (EvoSuite `null_probability`).
const NULL_PROBABILITY: f64 = 0.1;
/// Probability that a new value of a mockable type that also has
/// generators is a mock rather than a generator's value (`cluster::direct`'s
/// module doc); a type without generators always gets a mock.
pub(crate) const P_MOCK_BESIDE_GENERATORS: f64 = 0.2;
/// Probability of reusing an existing object (EvoSuite `object_reuse_probability`).
const OBJECT_REUSE_PROBABILITY: f64 = 0.9;
/// Probability of reusing an existing primitive or string (EvoSuite `primitive_reuse_probability`).
const PRIMITIVE_REUSE_PROBABILITY: f64 = 0.5;
/// Probability that an insertion calls the CUT rather than a value of the test (EvoSuite `insertion_uut`).
const INSERTION_UUT: f64 = 0.5;
/// Random arrays and collections have at most this many elements. EvoSuite
/// allows 10 for arrays; each element costs a statement here, so fewer.
pub(crate) const MAX_ELEMENTS: u32 = 3;
/// Probability that a random array is longer than [`MAX_ELEMENTS`] (up to
/// [`MAX_ARRAY_LENGTH`]), with [`MAX_ELEMENTS`] of its elements set and the
/// rest left at their default: a buffer a `read(byte[], int, int)` fills,
/// or the four or more elements a method needs before its loop does work.
const P_LONG_ARRAY: f64 = 0.25;
/// Probability of each fluent call that configures a new object ([`Factory::configure`]).
const P_FLUENT: f64 = 0.4;
/// The most fluent calls on one new object.
const MAX_FLUENT: usize = 3;
/// The longest random array.
const MAX_ARRAY_LENGTH: u32 = 32;
/// Probability that a shared instance with state of its own, once chosen
/// as a value's generator, gives way to another generator of the type
/// ([`Factory::choose_generator`]).
pub(super) const P_AVOID_SHARED: f64 = 0.9;
/// Generators tried before giving up on a value.
const ATTEMPTS: usize = 3;
/// Probability of each call on a returned value ([`Factory::follow_returned`]).
const P_FOLLOW: f64 = 0.5;
/// The longest chain of calls on returned values ([`Factory::follow_returned`]).
const MAX_FOLLOW: usize = 2;

/// A test case under construction with the cluster, seeds and RNG that shape it.
pub(crate) struct Factory<'a, R: Rng + ?Sized> {
    pub cluster: &'a TestCluster,
    pub seeds: &'a Seeds,
    pub rng: &'a mut R,
    pub test: TestCase,
}

impl<'a, R: Rng + ?Sized> Factory<'a, R> {
    pub fn new(cluster: &'a TestCluster, seeds: &'a Seeds, rng: &'a mut R, test: TestCase) -> Factory<'a, R> {
        Factory { cluster, seeds, rng, test }
    }

    /// Inserts `statement` at `*pos` and moves `pos` past it.
    pub(super) fn insert(&mut self, pos: &mut usize, statement: Statement) -> VarId {
        let var = edit::insert_at(&mut self.test, *pos, statement);
        *pos += 1;
        var
    }

    pub(super) fn insert_kind(&mut self, pos: &mut usize, kind: StatementKind) -> VarId {
        self.insert(pos, Statement::new(kind))
    }

    /// A value of type `need` for a statement at `*pos`: reused (other than
    /// those in `avoid`), `null`, or new.
    pub fn value(&mut self, need: &JavaType, pos: &mut usize, depth: u32, avoid: &[VarId]) -> VarId {
        let Some(erased) = need.erasure() else {
            return self.insert_kind(pos, StatementKind::Null(FieldType::Object(InternalName::object())));
        };
        let reuse = if is_literal(&erased) { PRIMITIVE_REUSE_PROBABILITY } else { OBJECT_REUSE_PROBABILITY };
        if self.rng.random_bool(reuse)
            && let Some(v) = self.existing_for(need, &erased, *pos, avoid)
        {
            return v;
        }
        if erased.is_reference() && self.rng.random_bool(NULL_PROBABILITY) {
            return self.insert_kind(pos, StatementKind::Null(erased));
        }
        match self.new_value(need, &erased, pos, depth) {
            Some(v) => v,
            None => self
                .existing_for(need, &erased, *pos, avoid)
                .unwrap_or_else(|| self.insert_kind(pos, StatementKind::Null(erased))),
        }
    }

    /// A random value before `before` of erasure `erased` whose type
    /// arguments fit `need` ([`edit::fits_type_args`]), other than those in `avoid`.
    fn existing_for(&mut self, need: &JavaType, erased: &FieldType, before: usize, avoid: &[VarId]) -> Option<VarId> {
        let slot = Slot { generic: Some(need.clone()), ..Slot::value(erased.clone()) };
        edit::candidates(&self.test, self.cluster, before, &slot, avoid).choose(self.rng).copied()
    }

    /// A random value before `before` that fits type `ty` (non-null ones
    /// only if `non_null`), other than those in `avoid`.
    pub fn existing(&mut self, ty: &FieldType, before: usize, non_null: bool, avoid: &[VarId]) -> Option<VarId> {
        let slot = Slot { receiver: non_null, ..Slot::value(ty.clone()) };
        edit::candidates(&self.test, self.cluster, before, &slot, avoid).choose(self.rng).copied()
    }

    /// A new, non-null value of type `need` (erasure `erased`) built at
    /// `*pos`; `None` when the cluster knows no way within the depth limit.
    pub fn new_value(&mut self, need: &JavaType, erased: &FieldType, pos: &mut usize, depth: u32) -> Option<VarId> {
        if matches!(erased, FieldType::Object(n) if n.as_str() == "java/lang/String")
            && self.rng.random_bool(super::files::P_FILE_NAME)
        {
            return Some(self.file_name(pos));
        }
        if matches!(erased, FieldType::Object(n) if n.as_str() == "java/io/InputStream")
            && !self.cluster.encoders().is_empty()
            && self.rng.random_bool(super::encoded::P_ENCODED_STREAM)
        {
            return self.encoded_input_stream(pos);
        }
        let kind = match erased {
            FieldType::Base(base) => StatementKind::Primitive(values::random_primitive(*base, self.seeds, self.rng)),
            FieldType::Array(elem) => return self.array(need, elem, pos, depth),
            FieldType::Object(name) => match self.literal(need, name) {
                Some(kind) => kind,
                None => {
                    let binary = name.to_binary();
                    return match self.lambda(need, binary.as_str(), pos, depth) {
                        Some(lambda) => Some(lambda),
                        None if self.cluster.generators(binary.as_str()).is_empty()
                            || (self.cluster.mockable(binary.as_str()).is_some()
                                && self.rng.random_bool(P_MOCK_BESIDE_GENERATORS)) =>
                        {
                            self.mock(binary.as_str(), pos, depth)
                                .or_else(|| self.construct(need, binary.as_str(), pos, depth))
                        }
                        None => self
                            .construct(need, binary.as_str(), pos, depth)
                            .or_else(|| self.mock(binary.as_str(), pos, depth)),
                    };
                }
            },
        };
        let file = match kind {
            StatementKind::TempFile(handle) => Some((handle, false)),
            StatementKind::TempDir(handle) => Some((handle, true)),
            _ => None,
        };
        let var = self.insert_kind(pos, kind);
        match file {
            Some((handle, false)) => self.maybe_fill_file(var, handle, pos),
            Some((handle, true)) => self.maybe_fill_dir(var, handle, pos),
            None => {}
        }
        Some(var)
    }

    /// A literal of class `name` (for a value of type `need`): a string, a
    /// box, a temporary file, a `Class` value, a member by reflection or an
    /// enum constant.
    fn literal(&mut self, need: &JavaType, name: &InternalName) -> Option<StatementKind> {
        let binary = name.to_binary();
        if let Some(base) = unbox(name.as_str()) {
            return Some(StatementKind::Boxed(values::random_primitive(base, self.seeds, self.rng)));
        }
        if let Some(handle) = crate::ir::FileHandle::of(name.as_str()) {
            // Files a test may write: never `new File(String)`, a relative path.
            if self.cluster.uses_folders() && self.rng.random_bool(super::files::P_DIRECTORY) {
                return Some(StatementKind::TempDir(handle));
            }
            return Some(StatementKind::TempFile(handle));
        }
        match name.as_str() {
            "java/lang/String" => Some(StatementKind::String(values::random_string(self.seeds, self.rng))),
            "java/lang/Class" => self.class_value(need),
            _ if name.as_str().starts_with("java/lang/reflect/") => self.reflected(name),
            _ => {
                let constant = self.cluster.enum_constants(binary.as_str()).choose(self.rng)?;
                Some(StatementKind::EnumConstant { class: binary.clone(), name: constant.clone() })
            }
        }
    }

    /// A new array of [`random_array_length`] elements, at most
    /// [`MAX_ELEMENTS`] of them stored, each by its own statement.
    fn array(&mut self, need: &JavaType, elem: &FieldType, pos: &mut usize, depth: u32) -> Option<VarId> {
        if depth > self.cluster.options().max_depth {
            return None;
        }
        let length = random_array_length(self.rng);
        let array = self.insert_kind(pos, StatementKind::NewArray { elem: elem.clone(), length });
        let elem_ty = match need {
            JavaType::Array(component) => (**component).clone(),
            _ => JavaType::from(elem.clone()),
        };
        let mut indices: Vec<u32> =
            rand::seq::index::sample(self.rng, length as usize, length.min(MAX_ELEMENTS) as usize)
                .into_iter()
                .map(|i| i as u32)
                .collect();
        indices.sort_unstable();
        for index in indices {
            let value = self.value(&elem_ty, pos, depth + 1, &[array]);
            self.insert_kind(pos, StatementKind::ArrayStore { array, index, value });
        }
        Some(array)
    }

    /// A new object of class `name` from one of its generators; a failed
    /// attempt leaves the test as it was.
    fn construct(&mut self, need: &JavaType, name: &str, pos: &mut usize, depth: u32) -> Option<VarId> {
        if depth > self.cluster.options().max_depth {
            return None;
        }
        let generators = self.cluster.generators(name);
        for _ in 0..ATTEMPTS {
            let generator = self.choose_generator(generators)?;
            let snapshot = (self.test.clone(), *pos);
            let made = match generator {
                Generator::Subtype(sub) => {
                    let sub = self.with_type_args(need, sub);
                    sub.erasure().and_then(|e| self.new_value(&sub, &e, pos, depth + 1))
                }
                Generator::Call(callable) => self.call(callable, pos, depth, None),
            };
            if let Some(var) = made {
                self.fill_container(var, need, pos, depth);
                return Some(self.configure(var, name, pos, depth));
            }
            (self.test, *pos) = snapshot;
        }
        None
    }

    /// One of `generators`, at random; a shared instance with state of its
    /// own ([`TestCluster::is_shared_instance`]) is chosen again among the
    /// others with probability [`P_AVOID_SHARED`], so that few tests of the
    /// emitted suite depend on what the others did to it.
    fn choose_generator<'g>(&mut self, generators: &'g [Generator]) -> Option<&'g Generator> {
        let shared = |g: &Generator| matches!(g, Generator::Call(c) if self.cluster.is_shared_instance(c));
        let chosen = generators.choose(self.rng)?;
        if !shared(chosen) || !self.rng.random_bool(P_AVOID_SHARED) {
            return Some(chosen);
        }
        let others: Vec<&Generator> = generators.iter().filter(|g| !shared(g)).collect();
        Some(others.choose(self.rng).copied().unwrap_or(chosen))
    }

    /// A value configured by fluent calls: with probability [`P_FLUENT`]
    /// each, up to [`MAX_FLUENT`] times, the result of a call on `var` that
    /// returns its class `name` (`format.withDelimiter(';')`, a builder's
    /// `setX`), so that immutable configurations and builders reach states
    /// other than their defaults. Returns the last value.
    fn configure(&mut self, mut var: VarId, name: &str, pos: &mut usize, depth: u32) -> VarId {
        let internal = FieldType::Object(BinaryName::new(name).to_internal());
        let cluster = self.cluster;
        let fluent: Vec<&Callable> =
            cluster.modifiers(name).iter().filter(|c| c.erased_ret().as_ref() == Some(&internal)).collect();
        for _ in 0..MAX_FLUENT {
            if fluent.is_empty() || !self.rng.random_bool(P_FLUENT) {
                break;
            }
            let callable = *fluent.choose(self.rng).expect("not empty");
            let snapshot = (self.test.clone(), *pos);
            match self.call(callable, pos, depth, Some(var)) {
                Some(next) => var = next,
                None => (self.test, *pos) = snapshot,
            }
        }
        var
    }

    /// `sub` with the type arguments of `need` when `sub` is a JDK
    /// collection standing in for it (`List<String>` → `ArrayList<String>`),
    /// wildcards made exact (`Collection<? extends K>` → `ArrayList<K>`: a
    /// class instance cannot be created with a wildcard, and a collection of
    /// the bound can be filled and passed where the wildcard is expected).
    fn with_type_args(&self, need: &JavaType, sub: &JavaType) -> JavaType {
        match (need, sub) {
            (JavaType::Class(need), JavaType::Class(sub))
                if sub.args.is_empty() && self.cluster.container(sub.name.to_binary().as_str()).is_some() =>
            {
                JavaType::Class(ClassTypeSig {
                    name: sub.name.clone(),
                    args: need.args.iter().map(exact).collect(),
                    outer_args: Vec::new(),
                })
            }
            _ => sub.clone(),
        }
    }

    /// After a JDK collection's constructor: types it as `need` (keeping its
    /// type arguments) and adds 0 to [`MAX_ELEMENTS`] elements.
    fn fill_container(&mut self, var: VarId, need: &JavaType, pos: &mut usize, depth: u32) {
        let StatementKind::Constructor { method, .. } = &self.test[var].kind else { return };
        let Some(container) = self.cluster.container(method.owner.as_str()).cloned() else { return };
        let arity = container.fill.descriptor.params.len();
        let same_class = need.erasure() == self.test[var].kind.value_type();
        let ty = &mut self.test.statements[var.index()].ty;
        if same_class && has_type_args(need) {
            *ty = need.clone();
        } else if let JavaType::Class(class) = ty
            && class.args.is_empty()
        {
            // Asked for a raw type (an erased parameter): `ArrayList<Object>`
            // takes the same elements and needs no raw type in the test.
            class.args = (0..arity).map(|_| exact(&TypeArg::Wildcard)).collect();
        }
        let elements = self.rng.random_range(0..=MAX_ELEMENTS);
        self.add_elements(var, &container.fill, elements, pos, depth);
    }

    /// Calls `fill` (a collection's `add` or a map's `put`) `count` times on
    /// `var`, each with new elements of its type arguments.
    fn add_elements(&mut self, var: VarId, fill: &MethodRef, count: u32, pos: &mut usize, depth: u32) {
        let fill = Callable::Method {
            method: fill.clone(),
            params: element_types(&self.test[var].ty, fill.descriptor.params.len()),
            ret: fill.descriptor.ret.clone().map_or(JavaType::Void, JavaType::from),
        };
        for _ in 0..count {
            self.call(&fill, pos, depth, Some(var));
        }
    }

    /// Calls `callable` at `*pos` on `receiver` (or a receiver found or made),
    /// with arguments made at depth `depth + 1`; `None` without a receiver.
    pub fn call(&mut self, callable: &Callable, pos: &mut usize, depth: u32, receiver: Option<VarId>) -> Option<VarId> {
        let receiver = match (callable.receiver(), receiver) {
            (None, _) => None,
            (Some(_), Some(r)) => Some(r),
            (Some(owner), None) => Some(self.receiver(&owner, pos, depth + 1)?),
        };
        if receiver.is_some_and(|r| writes_shared_object(&self.test, callable, r)) {
            return None;
        }
        let (params, is_fill) = self.param_types(callable, receiver);
        // A collection that contains itself overflows the stack in `hashCode`.
        let avoid: Vec<VarId> = receiver.filter(|_| is_fill).into_iter().collect();
        let mut args = Vec::with_capacity(params.len());
        for param in &params {
            let given = self.param_value(callable, param, pos).or_else(|| self.text_for(callable, param, pos, depth));
            args.push(given.unwrap_or_else(|| self.value(param, pos, depth + 1, &avoid)));
        }
        let statement = callable.statement(receiver, args)?;
        Some(self.insert(pos, statement))
    }

    /// With probability [`P_PARAM_VALUE`], one of the user's values for
    /// `callable`'s parameters that fits `param` (`--param-values`), inserted at `*pos`.
    pub fn param_value(&mut self, callable: &Callable, param: &JavaType, pos: &mut usize) -> Option<VarId> {
        let method = callable.method()?;
        let values = self.seeds.param_values().values_for(method);
        let erased = param.erasure()?;
        let fitting: Vec<StatementKind> = values.iter().filter_map(|v| param_values::literal(v, &erased)).collect();
        if fitting.is_empty() || !self.rng.random_bool(P_PARAM_VALUE) {
            return None;
        }
        let kind = fitting.choose(self.rng)?.clone();
        Some(self.insert_kind(pos, kind))
    }

    /// The parameter types of a call, and whether it fills a collection: a
    /// collection's `add`/`put` takes the receiver's element types.
    fn param_types(&self, callable: &Callable, receiver: Option<VarId>) -> (Vec<JavaType>, bool) {
        if let (Some(method), Some(r)) = (callable.method(), receiver)
            && let Some(types) = fill_types(&self.test, self.cluster, r, method)
        {
            return (types, true);
        }
        (callable.params().to_vec(), false)
    }

    /// A non-null receiver of type `owner`: reused (probability 0.9) or made.
    pub(super) fn receiver(&mut self, owner: &FieldType, pos: &mut usize, depth: u32) -> Option<VarId> {
        if self.rng.random_bool(OBJECT_REUSE_PROBABILITY)
            && let Some(v) = self.existing(owner, *pos, true, &[])
        {
            return Some(v);
        }
        let need = JavaType::from(owner.clone());
        match self.new_value(&need, owner, pos, depth) {
            Some(v) => Some(v),
            None => self.existing(owner, *pos, true, &[]),
        }
    }

    /// Inserts a random call: on the CUT (probability 0.5, or when no value
    /// of the test has modifiers) or on a value of the test; at the end if
    /// `append`, else at a random position. Reverts and returns `false` when
    /// no call could be made or the test would exceed `max_length`.
    pub fn insert_random_call(&mut self, append: bool, max_length: usize) -> bool {
        let snapshot = self.test.clone();
        let inserted = if self.rng.random_bool(INSERTION_UUT) {
            self.insert_call_under_test(append)
        } else {
            self.insert_call_on_value(append) || self.insert_call_under_test(append)
        };
        if inserted && self.test.len() <= max_length {
            return true;
        }
        self.test = snapshot;
        false
    }

    /// Inserts a random call under test, perhaps followed by calls on what
    /// it returns ([`Factory::follow_returned`]).
    pub fn insert_call_under_test(&mut self, append: bool) -> bool {
        let Some(callable) = self.cluster.calls_under_test().choose(self.rng) else { return false };
        let len = self.test.len();
        let mut pos = if append { len } else { self.rng.random_range(0..=len) };
        let Some(value) = self.call(callable, &mut pos, 0, None) else { return false };
        self.follow_returned(value, &mut pos);
        true
    }

    /// With probability [`P_FOLLOW`] each, up to [`MAX_FOLLOW`] calls in a
    /// chain at `*pos`, each on the value the one before returned, while
    /// that value is of a type the CUT returns and implements, or a factory
    /// of those ([`TestCluster::is_returned`]): the `Iterator` that
    /// `iterator()` returns gets its `next()`, the factory that
    /// `createAdapterFactory()` returns its `create(…)` and the adapter
    /// that makes its `toJson(…)`, steps that cover nothing of the CUT on
    /// their own and so give the search no reason to keep them one by one.
    fn follow_returned(&mut self, mut value: VarId, pos: &mut usize) {
        for _ in 0..MAX_FOLLOW {
            let Some(name) = self.test[value].ty.erasure().and_then(|t| t.to_internal_name()) else { return };
            if !self.cluster.is_returned(name.to_binary().as_str()) || !self.rng.random_bool(P_FOLLOW) {
                return;
            }
            let modifiers: Vec<&'a Callable> = self
                .cluster
                .modifiers(name.to_binary().as_str())
                .iter()
                .filter(|c| fits_receiver(&self.test, self.cluster, c, value))
                .collect();
            let Some(callable) = modifiers.choose(self.rng).copied() else { return };
            match self.call(callable, pos, 0, Some(value)) {
                Some(next) if self.test[next].produces_value() => value = next,
                _ => return,
            }
        }
    }

    /// Inserts a call of a modifier on a random non-null value of the test,
    /// after it. A read of a field that holds a JDK collection is followed
    /// by 1 to [`MAX_ELEMENTS`] elements added to the collection.
    fn insert_call_on_value(&mut self, append: bool) -> bool {
        let targets: Vec<(VarId, Vec<&'a Callable>)> = (0..self.test.len())
            .map(var_id)
            .filter(|v| self.test[*v].produces_value() && !edit::is_null(&self.test, *v))
            .map(|v| (v, self.modifiers_of(&edit::value_type(&self.test, v))))
            .map(|(v, m)| {
                (v, m.into_iter().filter(|c| fits_receiver(&self.test, self.cluster, c, v)).collect::<Vec<_>>())
            })
            .filter(|(_, m)| !m.is_empty())
            .collect();
        let Some((var, modifiers)) = targets.choose(self.rng) else { return false };
        let Some(callable) = modifiers.choose(self.rng).copied() else { return false };
        let len = self.test.len();
        let mut pos = if append { len } else { self.rng.random_range(var.index() + 1..=len) };
        let Some(value) = self.call(callable, &mut pos, 0, Some(*var)) else { return false };
        if self.test[value].produces_value() {
            self.follow_returned(value, &mut pos);
        }
        if let Callable::FieldGet { .. } = callable
            && let Some(container) = collection_of(&self.test, self.cluster, value)
        {
            let elements = self.rng.random_range(1..=MAX_ELEMENTS);
            self.add_elements(value, &container.fill.clone(), elements, &mut pos, 0);
        }
        true
    }

    /// The modifiers of every class a value of type `ty` is an instance of.
    fn modifiers_of(&self, ty: &FieldType) -> Vec<&'a Callable> {
        let cluster = self.cluster;
        let FieldType::Object(_) = ty else { return Vec::new() };
        cluster
            .modified_types()
            .filter(|name| cluster.is_assignable(ty, &FieldType::Object(BinaryName::new(*name).to_internal())))
            .flat_map(|name| cluster.modifiers(name))
            .collect()
    }
}

/// A type argument without wildcard: the bound of `? extends T` and
/// `? super T`, `Object` for `?` and type variables.
fn exact(arg: &TypeArg) -> TypeArg {
    let object = || JavaType::from(FieldType::Object(InternalName::object()));
    match arg {
        TypeArg::Exact(JavaType::TypeVar(_))
        | TypeArg::Extends(JavaType::TypeVar(_))
        | TypeArg::Super(JavaType::TypeVar(_))
        | TypeArg::Wildcard => TypeArg::Exact(object()),
        TypeArg::Exact(t) | TypeArg::Extends(t) | TypeArg::Super(t) => TypeArg::Exact(t.clone()),
    }
}

/// The element types `method` takes when it fills the container value
/// `receiver` of `test` (`add(E)`, `put(K, V)` with the receiver's type
/// arguments); `None` when it is not a fill method of the receiver
/// ([`fits_receiver`] keeps fill methods off other receivers).
pub(crate) fn fill_types(
    test: &TestCase,
    cluster: &TestCluster,
    receiver: VarId,
    method: &crate::MethodRef,
) -> Option<Vec<JavaType>> {
    collection_of(test, cluster, receiver)?;
    cluster.is_fill(method).then(|| element_types(&test[receiver].ty, method.descriptor.params.len()))
}

/// The container of `var`'s static type, when it is a JDK collection the
/// cluster fills.
fn collection_of<'c>(test: &TestCase, cluster: &'c TestCluster, var: VarId) -> Option<&'c crate::cluster::Container> {
    let class = test[var].ty.erasure().and_then(|t| t.to_internal_name()).map(|n| n.to_binary().to_string())?;
    cluster.container(&class)
}

/// Whether `callable` may be called on `receiver`: a collection's fill
/// method only on a collection the cluster fills whose type arguments are
/// all exact (no element a test can name fits `List<? extends Foo>`, and
/// the element types of a `ConcurrentHashMap<K, V>` are not known to be its
/// own type arguments).
pub(crate) fn fits_receiver(test: &TestCase, cluster: &TestCluster, callable: &Callable, receiver: VarId) -> bool {
    if writes_shared_object(test, callable, receiver) {
        return false;
    }
    let Some(method) = callable.method().filter(|m| cluster.is_fill(m)) else { return true };
    let arity = method.descriptor.params.len();
    collection_of(test, cluster, receiver).is_some_and(|c| c.fill.descriptor.params.len() == arity)
        && match &test[receiver].ty {
            JavaType::Class(class) => class.args.iter().all(|a| matches!(a, TypeArg::Exact(t) if t.is_exact())),
            _ => true,
        }
}

/// Whether `callable` writes a field of `receiver` that is the object a
/// static field holds (`Interval.INVALID.a = 60`): every later test of the
/// worker, and of the emitted suite, would see the changed object, and the
/// static reset does not put back what a class outside its scope holds
/// (nor does the emitted suite), so tests that cover goals through the
/// changed object fail alone or in another order and lose those goals.
fn writes_shared_object(test: &TestCase, callable: &Callable, receiver: VarId) -> bool {
    matches!(callable, Callable::FieldSet { is_static: false, .. }) && edit::is_static_field_value(test, receiver)
}

/// Whether `ty` is a parameterized class type (`List<String>`, not `List`).
fn has_type_args(ty: &JavaType) -> bool {
    matches!(ty, JavaType::Class(class) if !class.args.is_empty())
}

/// The element types of a collection (`arity` 1) or map (`arity` 2) type.
fn element_types(ty: &JavaType, arity: usize) -> Vec<JavaType> {
    (0..arity).map(|i| type_argument(ty, i)).collect()
}

/// Whether values of the type are literals the factory reuses with the
/// primitive probability: primitives, strings and boxes.
pub(super) fn is_literal(ty: &FieldType) -> bool {
    match ty {
        FieldType::Base(_) => true,
        FieldType::Object(name) => name.as_str() == "java/lang/String" || unbox(name.as_str()).is_some(),
        FieldType::Array(_) => false,
    }
}

/// The primitive type a box class (internal name) holds.
fn unbox(internal_name: &str) -> Option<BaseType> {
    BaseType::ALL.into_iter().find(|b| crate::ir::box_class(*b).as_str() == internal_name)
}

/// The length of a random array: 0 to [`MAX_ELEMENTS`], or with
/// probability [`P_LONG_ARRAY`] up to [`MAX_ARRAY_LENGTH`].
pub(crate) fn random_array_length<R: Rng + ?Sized>(rng: &mut R) -> u32 {
    if rng.random_bool(P_LONG_ARRAY) {
        rng.random_range(MAX_ELEMENTS + 1..=MAX_ARRAY_LENGTH)
    } else {
        rng.random_range(0..=MAX_ELEMENTS)
    }
}
