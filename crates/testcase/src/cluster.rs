//! [`TestCluster`]: what the tests of one class under test (CUT) may call,
//! and how to obtain a value of every type those calls need.
//!
//! Built once per CUT by [`TestCluster::build`] from the class path:
//! 1. the *calls under test*: accessible constructors (none for an abstract
//!    class or interface), methods (declared and inherited from supertypes
//!    outside the JDK) and fields of the CUT ([`TestCluster::calls_under_test`]);
//! 2. *generators* for each reference type those calls need, breadth first
//!    up to [`ClusterOptions::max_depth`] ([`TestCluster::generators`]):
//!    accessible constructors, static factory methods and constants of the
//!    type, static methods of the CUT's jar (or package) returning it,
//!    instance methods of the CUT returning it, for a type no constructor
//!    makes the instance methods of other classes of the jar returning it
//!    (`JsonFactory.createParser(String)` for `JsonParser`) and concrete
//!    subclasses found on the class path, and JDK stand-ins
//!    (`List` → `ArrayList`, `Object` → `String`, `Integer` or the CUT,
//!    `OutputStream` → `ByteArrayOutputStream`), offering only JDK members of
//!    the release the tests are compiled for (`ClassPath::release_api`);
//! 3. *modifiers*: calls on an existing value of a type
//!    ([`TestCluster::modifiers`]), for the insert operator, including the
//!    methods of a type a call under test returns when a nested, local or
//!    anonymous class of the CUT implements it (the `Iterator` that
//!    `iterator()` returns), so the CUT's code behind returned objects runs;
//! 4. a format's own writers from the CUT's jar, when the cluster makes
//!    files, input streams or readers: encoders ([`TestCluster::encoders`])
//!    and serializers ([`TestCluster::serializers`]);
//! 5. the supertypes of every type it mentions, so that the operators can
//!    ask [`TestCluster::is_assignable`] without the class path.
//!
//! After the build, `direct` adds the values the operators make directly
//! (below) and `shared` marks the static fields that hold a shared object
//! with state of its own ([`TestCluster::is_shared_instance`]).
//!
//! Primitives, `String`, boxes, `Class`, enums (by their constants), arrays
//! and `null` need no generator: the operators make them directly, and so
//! members by reflection (`Method`, `Constructor`, `Field`) and lambdas of
//! functional interfaces, from what `direct` finds after the build
//! ([`TestCluster::class_values`], [`TestCluster::reflected_members`],
//! [`TestCluster::functional`]).
//!
//! Members are referenced as the validator resolves them: methods and
//! fields of the CUT with the CUT as owner (also when inherited, so that a
//! public method of a package-private superclass stays callable), other
//! members with their declaring class. Parameter and return types keep
//! their generic form where the signature agrees with the descriptor, with
//! type variables replaced by the erasure of their bound
//! (`List<E>` → `List<Object>`, `List<String>` stays).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::convert::Infallible;

use model::classpath::ClassPath;
use model::descriptor::FieldType;
use model::names::{BinaryName, InternalName};
use model::signature::{JavaType, TypeArg};

use crate::assignability;
use crate::ir::{FieldRef, MemberRef, MethodRef, Statement, StatementKind, TestCase, VarId};

mod build;
mod direct;
mod environment;
mod folders;
mod jdk;
mod shared;
pub(crate) use jdk::is_collection;
pub use jdk::is_jdk_class;

/// The objects a serializer writes (`operators::serialized`,
/// [`TestCluster::serializers`]): a map and a list of strings and numbers.
pub(crate) const SERIALIZED_TYPES: [&str; 2] = ["java.util.HashMap", "java.util.ArrayList"];

/// How the cluster is built and how long the tests made from it may get.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterOptions {
    /// The tests live in the CUT's package, so package-private and
    /// protected members of classes of that package are callable.
    pub package_private: bool,
    /// How deep values are built recursively (a constructor argument of a
    /// constructor argument is depth 2); deeper references are `null` or
    /// reused values.
    pub max_depth: u32,
    /// The most statements a test may have after mutation (EvoSuite's
    /// `chromosome_length`).
    pub max_length: usize,
    /// Interfaces and abstract classes outside the JDK that the cluster
    /// mentions, cannot make otherwise (no implementation, no generator)
    /// and that are not functional interfaces get mocks ([`TestCluster::mockable`],
    /// [`crate::StatementKind::Mock`]).
    pub mocks: bool,
}

impl Default for ClusterOptions {
    /// Tests in the CUT's package, depth 4, at most 40 statements, mocks.
    fn default() -> ClusterOptions {
        ClusterOptions { package_private: true, max_depth: 4, max_length: 40, mocks: true }
    }
}

/// Why no cluster could be built for a class.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ClusterError {
    /// The class under test is not on the class path or cannot be read.
    #[error("cannot load the class under test {class}: {message}")]
    NotLoaded {
        /// The class under test.
        class: BinaryName,
        /// The class path's error.
        message: String,
    },
    /// The class under test cannot be named by a test.
    #[error("{class} is not accessible to tests: {reason}")]
    NotAccessible {
        /// The class under test.
        class: BinaryName,
        /// Why not, as a clause (`it is a local or anonymous class`).
        reason: String,
    },
    /// The class under test has nothing a test could call.
    #[error("nothing to test in {class}: {reason}")]
    NothingCallable {
        /// The class under test.
        class: BinaryName,
        /// Why not, as a clause (`it has no accessible constructors, methods or fields`).
        reason: String,
    },
}

/// Something a test can call: a constructor, method or field access,
/// with the generic types of its parameters and result.
#[derive(Debug, Clone, PartialEq)]
pub enum Callable {
    /// `new Owner(params)`.
    Constructor {
        /// The constructor, with the class to instantiate as owner.
        method: MethodRef,
        /// The generic parameter types, type variables replaced by their bounds' erasure.
        params: Vec<JavaType>,
        /// The type of the new object: `Owner<B1, ...>` with each type
        /// parameter's bound erasure for a generic top-level class (so tests
        /// declare no raw types), else `Owner`.
        ret: JavaType,
    },
    /// `Owner.name(params)`.
    StaticMethod {
        /// The method, referenced with the owner the test names (see the module docs).
        method: MethodRef,
        /// The generic parameter types, type variables replaced by their bounds' erasure.
        params: Vec<JavaType>,
        /// The generic result type ([`JavaType::Void`] for `void`).
        ret: JavaType,
    },
    /// `receiver.name(params)` on an instance of `method.owner`.
    Method {
        /// The method, referenced with the owner the test names (see the module docs).
        method: MethodRef,
        /// The generic parameter types, type variables replaced by their bounds' erasure.
        params: Vec<JavaType>,
        /// The generic result type ([`JavaType::Void`] for `void`).
        ret: JavaType,
    },
    /// `receiver.field`, or `Owner.field` when static.
    FieldGet {
        /// The field, referenced with the owner the test names (see the module docs).
        field: FieldRef,
        /// Whether the field is static (no receiver).
        is_static: bool,
        /// The field's generic type.
        ty: JavaType,
    },
    /// `receiver.field = value`, or `Owner.field = value` when static.
    FieldSet {
        /// The field, referenced with the owner the test names (see the module docs).
        field: FieldRef,
        /// Whether the field is static (no receiver).
        is_static: bool,
        /// The field's generic type.
        ty: JavaType,
    },
}

/// One way to obtain a value of a reference type.
#[derive(Debug, Clone, PartialEq)]
pub enum Generator {
    /// Call this; its result is the value.
    Call(Callable),
    /// Make a value of this subtype instead (`List<String>` →
    /// `ArrayList<String>`, an abstract class → a concrete subclass).
    Subtype(JavaType),
}

/// A JDK collection that the operators fill after constructing it, or a
/// collection interface whose values they fill after reading them (a
/// public field `Map<K, V>`): its fill is then `Collection.add` or `Map.put`.
#[derive(Debug, Clone, PartialEq)]
pub struct Container {
    /// `add(Object)` for collections, `put(Object, Object)` for maps.
    pub fill: MethodRef,
}

/// A functional interface the cluster mentions: its one abstract method,
/// and where the interface's own type parameters appear in it, so that a
/// lambda for `Function<String, Integer>` can return an `Integer`.
#[derive(Debug, Clone, PartialEq)]
pub struct Functional {
    /// The abstract method, with the interface that declares it as owner.
    pub method: MethodRef,
    /// Which type parameter of the interface the method returns (1, `R`,
    /// for `R apply(T)` of `Function<T, R>`), if it returns one and the
    /// interface declares the method itself.
    pub ret_type_param: Option<usize>,
    /// Likewise for each parameter of the method (`[Some(0)]`, `T`, for `apply`).
    pub param_type_params: Vec<Option<usize>>,
}

/// The test cluster of one class under test (see the module docs).
#[derive(Debug, Clone)]
pub struct TestCluster {
    cut: BinaryName,
    options: ClusterOptions,
    calls_under_test: Vec<Callable>,
    /// The methods and constructors among `calls_under_test`.
    cut_methods: HashSet<MethodRef>,
    /// By binary name.
    generators: BTreeMap<String, Vec<Generator>>,
    /// By binary name: calls on an existing value of the type.
    modifiers: BTreeMap<String, Vec<Callable>>,
    /// By binary name: the enum's constants, in declaration order.
    enums: BTreeMap<String, Vec<String>>,
    /// By binary name.
    containers: BTreeMap<String, Container>,
    /// By binary name: the class itself, its superclasses and interfaces.
    supertypes: HashMap<String, HashSet<String>>,
    /// The `Class` values the operators draw from; `None` is `void.class`.
    class_values: Vec<Option<FieldType>>,
    /// The members the operators look up by reflection.
    reflected_members: Vec<MemberRef>,
    /// By binary name: the functional interfaces the cluster mentions.
    functional: BTreeMap<String, Functional>,
    /// By binary name: the interfaces and abstract classes that get mocks, with the methods a
    /// mock of each may stub.
    mockable: BTreeMap<String, Vec<MethodRef>>,
    /// By binary name: the types whose values the CUT returns and whose
    /// methods run its code (they have modifiers), see [`TestCluster::is_returned`].
    returned: BTreeSet<String>,
    /// See [`TestCluster::encoders`].
    encoders: Vec<Callable>,
    /// See [`TestCluster::serializers`].
    serializers: Vec<Callable>,
    /// See [`TestCluster::reads_text`].
    text_readers: BTreeSet<String>,
    /// See [`TestCluster::uses_folders`].
    folders: bool,
    /// See [`TestCluster::is_shared_instance`].
    shared_instances: HashSet<FieldRef>,
    /// See [`TestCluster::is_shared_instance`].
    shared_accessors: HashSet<MethodRef>,
}

impl TestCluster {
    /// Builds the cluster of `cut` (a binary name) on `class_path`, which
    /// should include the JDK ([`ClassPath::with_jdk`]).
    ///
    /// # Errors
    /// [`ClusterError`] when the CUT cannot be loaded, is not accessible,
    /// or has nothing callable (for example an interface with no
    /// implementation on the class path).
    pub fn build(class_path: &ClassPath, cut: &str, options: &ClusterOptions) -> Result<TestCluster, ClusterError> {
        let mut cluster = build::build(class_path, cut, options)?;
        direct::add(&mut cluster, class_path);
        shared::add(&mut cluster, class_path);
        Ok(cluster)
    }

    /// The class under test.
    pub fn cut(&self) -> &BinaryName {
        &self.cut
    }

    /// The options the cluster was built with.
    pub fn options(&self) -> &ClusterOptions {
        &self.options
    }

    /// The constructors, methods and fields of the CUT that tests call.
    pub fn calls_under_test(&self) -> &[Callable] {
        &self.calls_under_test
    }

    /// The ways to obtain a value of class `binary_name` (empty for types
    /// the operators make directly, and for types beyond the depth limit).
    pub fn generators(&self, binary_name: &str) -> &[Generator] {
        self.generators.get(binary_name).map_or(&[], Vec::as_slice)
    }

    /// Whether `generator` reads a static field that holds a shared object
    /// with state of its own (`Aliases.INSTANCE`, see `cluster::shared`),
    /// or calls a static method that returns one (`getInstance()`): what
    /// one test does to it, later tests of the emitted suite see.
    pub fn is_shared_instance(&self, generator: &Callable) -> bool {
        match generator {
            Callable::FieldGet { field, is_static: true, .. } => self.shared_instances.contains(field),
            Callable::StaticMethod { method, .. } => self.shared_accessors.contains(method),
            _ => false,
        }
    }

    /// Whether values of class `binary_name` are what the CUT returns and
    /// implements, or a factory of those (an `Iterator` of a nested class,
    /// a `TypeAdapterFactory` whose `create` returns the CUT): the tests
    /// call one of its modifiers right after a call returns one.
    pub fn is_returned(&self, binary_name: &str) -> bool {
        self.returned.contains(binary_name)
    }

    /// The constructors of the concrete classes of the CUT's jar that extend
    /// `java.io.OutputStream` and take the stream they write to as their
    /// first parameter (`XZOutputStream(OutputStream, FilterOptions)`), at
    /// most [`build::MAX_ENCODERS`]: a format's own encoders, through which
    /// temporary files and input streams get content that the format's
    /// decoders accept (`operators::encoded`). Empty unless the cluster
    /// makes files or input streams.
    pub fn encoders(&self) -> &[Callable] {
        &self.encoders
    }

    /// The methods of the CUT's jar that write an object as text: they
    /// return a `String` and take the object (`java.lang.Object`, or
    /// `Object...`) first (`Yaml.dump(Object)`, `Gson.toJson(Object)`,
    /// `CSVFormat.format(Object...)`), at most [`build::MAX_SERIALIZERS`].
    /// Some strings the tests pass to classes that read text
    /// ([`TestCluster::reads_text`]) are what one of them wrote of a map or
    /// a list, text that the same library's parsers read past their first
    /// check (`operators::serialized`). Empty unless the cluster makes
    /// `java.io.Reader`s.
    pub fn serializers(&self) -> &[Callable] {
        &self.serializers
    }

    /// Whether the class under test works with folders (it lists, walks,
    /// makes or tests for them, or visits files): then some of its `File`
    /// and `Path` values are folders (`cluster/folders.rs`).
    pub fn uses_folders(&self) -> bool {
        self.folders
    }

    /// Whether class `binary_name` reads text: `java.io.StringReader`, or a
    /// class with a call of the cluster that takes a `java.io.Reader`
    /// (`Yaml.load(Reader)`, `new CSVParser(Reader, CSVFormat)`), whose
    /// `String` parameters are then likely text of the same format
    /// (`Yaml.load(String)`). Known only when there are serializers.
    pub fn reads_text(&self, binary_name: &str) -> bool {
        self.text_readers.contains(binary_name)
    }

    /// The calls that take a value of class `binary_name` as receiver.
    pub fn modifiers(&self, binary_name: &str) -> &[Callable] {
        self.modifiers.get(binary_name).map_or(&[], Vec::as_slice)
    }

    /// The classes that have modifiers, sorted.
    pub fn modified_types(&self) -> impl Iterator<Item = &str> {
        self.modifiers.keys().map(String::as_str)
    }

    /// The constants of enum `binary_name`; empty for other classes.
    pub fn enum_constants(&self, binary_name: &str) -> &[String] {
        self.enums.get(binary_name).map_or(&[], Vec::as_slice)
    }

    /// The `Class` values tests use (`None` is `void.class`): primitive,
    /// array and common JDK classes, and classes of the cluster.
    pub fn class_values(&self) -> &[Option<FieldType>] {
        &self.class_values
    }

    /// The [`TestCluster::class_values`] that fit a value of type `need`:
    /// all of them for `Class` and `Class<?>`; for `Class<? extends X>`
    /// (and `Class<X>`, whose `X` may be a type variable's bound) those
    /// assignable to `X`, for `Class<? super X>` those `X` is assignable
    /// to. A primitive class counts as its box (`int.class` is a
    /// `Class<Integer>`), `void.class` as `Void`.
    pub fn class_values_for(&self, need: &JavaType) -> Vec<&Option<FieldType>> {
        let Some((bound, is_super)) = direct::class_bound(need) else { return self.class_values.iter().collect() };
        let fits = |value: &&Option<FieldType>| {
            let class = match value {
                None => FieldType::Object(InternalName::new("java/lang/Void")),
                Some(FieldType::Base(base)) => FieldType::Object(crate::ir::box_class(*base)),
                Some(ty) => ty.clone(),
            };
            if is_super { self.is_assignable(&bound, &class) } else { self.is_assignable(&class, &bound) }
        };
        self.class_values.iter().filter(fits).collect()
    }

    /// The methods, constructors and fields tests look up by reflection.
    pub fn reflected_members(&self) -> &[MemberRef] {
        &self.reflected_members
    }

    /// The functional interface `binary_name`, if the cluster mentions it
    /// and a test can name it.
    pub fn functional(&self, binary_name: &str) -> Option<&Functional> {
        self.functional.get(binary_name)
    }

    /// The methods a mock of `binary_name` may stub, when that interface or
    /// abstract class gets mocks ([`ClusterOptions::mocks`]; the list may be
    /// empty: a mock is still a value other than `null`).
    pub fn mockable(&self, binary_name: &str) -> Option<&[MethodRef]> {
        self.mockable.get(binary_name).map(Vec::as_slice)
    }

    /// The interfaces and abstract classes that get mocks (binary names, sorted).
    pub fn mockable_types(&self) -> impl Iterator<Item = &str> {
        self.mockable.keys().map(String::as_str)
    }

    /// How to fill a JDK collection of class or interface `binary_name`, if it is one.
    pub fn container(&self, binary_name: &str) -> Option<&Container> {
        self.containers.get(binary_name)
    }

    /// Whether `method` fills some JDK collection of the cluster ([`Container::fill`]).
    pub fn is_fill(&self, method: &MethodRef) -> bool {
        self.containers.values().any(|c| c.fill == *method)
    }

    /// Whether the operators can make a value of `ty` other than `null`:
    /// directly (primitives, arrays, `String`, boxes, `Class`, `File`,
    /// `Path`, enum constants) or through at least one generator (which
    /// may itself need values the cluster cannot make; this does not look
    /// further).
    pub fn can_make(&self, ty: &FieldType) -> bool {
        match ty {
            FieldType::Base(_) | FieldType::Array(_) => true,
            FieldType::Object(name) => {
                let binary = name.to_binary();
                let name = binary.as_str();
                jdk::LITERAL_TYPES.contains(&name)
                    || !self.enum_constants(name).is_empty()
                    || !self.generators(name).is_empty()
                    || self.mockable.contains_key(name)
            }
        }
    }

    /// The class types the cluster has generators for, sorted.
    pub fn generated_types(&self) -> impl Iterator<Item = &str> {
        self.generators.keys().map(String::as_str)
    }

    /// Whether a value of static type `from` may be passed where `to` is
    /// expected, by the rules of [`crate::Validator::is_assignable`]. Types
    /// the cluster has not seen are assignable only to themselves and
    /// `Object`, so a `true` here is a `true` for the validator.
    pub fn is_assignable(&self, from: &FieldType, to: &FieldType) -> bool {
        let mut is_subclass = |a: &InternalName, b: &InternalName| {
            let (a, b) = (a.to_binary(), b.to_binary());
            Ok::<_, Infallible>(self.supertypes.get(a.as_str()).is_some_and(|s| s.contains(b.as_str())))
        };
        let Ok(assignable) = assignability::is_assignable(from, to, &mut is_subclass);
        assignable
    }

    /// Whether the statement calls one of the CUT's methods or constructors
    /// under test (a candidate for [`TestCase::call_under_test`]).
    pub fn is_call_under_test(&self, kind: &StatementKind) -> bool {
        match kind {
            StatementKind::Constructor { method, .. }
            | StatementKind::StaticCall { method, .. }
            | StatementKind::Call { method, .. } => self.cut_methods.contains(method),
            _ => false,
        }
    }

    /// The last statement of `test` that [`TestCluster::is_call_under_test`].
    pub fn last_call_under_test(&self, test: &TestCase) -> Option<VarId> {
        test.iter().filter(|(_, s)| self.is_call_under_test(&s.kind)).map(|(v, _)| v).last()
    }
}

impl Callable {
    /// The type of the receiver, for instance methods and fields.
    pub fn receiver(&self) -> Option<FieldType> {
        match self {
            Callable::Method { method, .. } => Some(FieldType::Object(method.owner.to_internal())),
            Callable::FieldGet { field, is_static: false, .. } | Callable::FieldSet { field, is_static: false, .. } => {
                Some(FieldType::Object(field.owner.to_internal()))
            }
            _ => None,
        }
    }

    /// The types of the arguments (for a field write, the value).
    pub fn params(&self) -> &[JavaType] {
        match self {
            Callable::Constructor { params, .. }
            | Callable::StaticMethod { params, .. }
            | Callable::Method { params, .. } => params,
            Callable::FieldGet { .. } => &[],
            Callable::FieldSet { ty, .. } => std::slice::from_ref(ty),
        }
    }

    /// The type of the value the call produces, or `None` (void, field writes).
    pub fn ret(&self) -> Option<JavaType> {
        self.ret_ref().cloned()
    }

    /// [`Callable::ret`], borrowed.
    fn ret_ref(&self) -> Option<&JavaType> {
        match self {
            Callable::Constructor { ret, .. } => Some(ret),
            Callable::StaticMethod { ret, .. } | Callable::Method { ret, .. } => {
                (*ret != JavaType::Void).then_some(ret)
            }
            Callable::FieldGet { ty, .. } => Some(ty),
            Callable::FieldSet { .. } => None,
        }
    }

    /// The erased type of the value the call produces.
    pub fn erased_ret(&self) -> Option<FieldType> {
        self.ret_ref().and_then(JavaType::erasure)
    }

    /// The method or constructor called, if this is a call.
    pub fn method(&self) -> Option<&MethodRef> {
        match self {
            Callable::Constructor { method, .. }
            | Callable::StaticMethod { method, .. }
            | Callable::Method { method, .. } => Some(method),
            Callable::FieldGet { .. } | Callable::FieldSet { .. } => None,
        }
    }

    /// The statement that makes this call, typed with the generic result
    /// type; `None` when the receiver or the number of arguments does not
    /// fit the callable.
    pub fn statement(&self, receiver: Option<VarId>, args: Vec<VarId>) -> Option<Statement> {
        if receiver.is_some() != self.receiver().is_some() || args.len() != self.params().len() {
            return None;
        }
        let kind = match self {
            Callable::Constructor { method, .. } => StatementKind::Constructor { method: method.clone(), args },
            Callable::StaticMethod { method, .. } => StatementKind::StaticCall { method: method.clone(), args },
            Callable::Method { method, .. } => {
                StatementKind::Call { receiver: receiver?, method: method.clone(), args }
            }
            Callable::FieldGet { field, .. } => StatementKind::FieldGet { receiver, field: field.clone() },
            Callable::FieldSet { field, .. } => {
                StatementKind::FieldSet { receiver, field: field.clone(), value: *args.first()? }
            }
        };
        Some(Statement { kind, ty: self.ret().unwrap_or(JavaType::Void) })
    }

    /// Whether `kind` is a statement that makes this call.
    pub fn matches(&self, kind: &StatementKind) -> bool {
        match (self, kind) {
            (Callable::Constructor { method: a, .. }, StatementKind::Constructor { method: b, .. })
            | (Callable::StaticMethod { method: a, .. }, StatementKind::StaticCall { method: b, .. })
            | (Callable::Method { method: a, .. }, StatementKind::Call { method: b, .. }) => a == b,
            (Callable::FieldGet { field: a, .. }, StatementKind::FieldGet { field: b, .. })
            | (Callable::FieldSet { field: a, .. }, StatementKind::FieldSet { field: b, .. }) => a == b,
            _ => false,
        }
    }
}

/// The accessible instance methods of application class `binary_name`
/// (declared by it or its superclasses outside the JDK), referenced with
/// `binary_name`, as the cluster of `cut` would list them as modifiers:
/// for a technique that calls methods on objects of a type the cluster did
/// not reach (a class only ever returned, such as `ship.getCrew()`'s).
/// Empty for JDK classes and classes the test cannot access.
pub fn instance_methods(
    class_path: &ClassPath,
    cut: &str,
    options: &ClusterOptions,
    binary_name: &str,
) -> Vec<Callable> {
    build::instance_methods(class_path, cut, options, binary_name)
}

/// The accessible constructors of concrete application class
/// `binary_name`, as the cluster of `cut` would list them as generators
/// (for a technique that makes objects of a type the cluster did not reach);
/// none for an inner (non-static nested) class, whose constructor takes
/// the enclosing instance.
pub fn constructors(class_path: &ClassPath, cut: &str, options: &ClusterOptions, binary_name: &str) -> Vec<Callable> {
    build::constructors(class_path, cut, options, binary_name)
}

/// Type argument `index` of a generic class type, as the type of a value
/// to make: `String` for `List<String>` and `List<? extends String>`,
/// `Object` for raw types, wildcards and type variables.
pub fn type_argument(ty: &JavaType, index: usize) -> JavaType {
    let object = || JavaType::from(FieldType::Object(InternalName::object()));
    let JavaType::Class(class) = ty else { return object() };
    match class.args.get(index) {
        Some(TypeArg::Exact(t) | TypeArg::Extends(t) | TypeArg::Super(t)) if !matches!(t, JavaType::TypeVar(_)) => {
            t.clone()
        }
        _ => object(),
    }
}

#[cfg(test)]
mod tests;
