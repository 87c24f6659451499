//! [`build`]: reads the class path and fills a [`TestCluster`].
//!
//! The calls under test come first; then the types they need are visited
//! breadth first (CUT and parameter types at depth 1, the parameters of a
//! generator of a depth-`d` type at depth `d + 1`), each type getting its
//! generators and modifiers, until [`ClusterOptions::max_depth`]. Last, the
//! supertypes of every type mentioned are computed for
//! [`TestCluster::is_assignable`], and instance calls under test are kept
//! only if a receiver can be made.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::Arc;

use model::classfile::{ClassFile, Member};
use model::classpath::ClassPath;
use model::descriptor::{FieldType, MethodDescriptor};
use model::hierarchy::{self, Supertypes, access};
use model::names::{BinaryName, InternalName};
use model::signature::{
    ClassTypeSig, JavaType, TypeArg, erase_type_var, parse_class_signature, parse_field_signature,
    parse_method_signature,
};

use super::jdk::{
    CONTAINERS, JdkMethod, LITERAL_TYPES, constant_holders, interface_fill, is_collection, is_jdk_class, jdk_modifiers,
    jdk_producers, substitutes,
};
use super::{Callable, ClusterError, ClusterOptions, Container, Generator, TestCluster};

mod jar;
use crate::ir::{FieldRef, MethodRef};
use jar::AppIndex;

/// At most this many concrete subtypes stand in for one abstract type
/// (same package first, then by name), to keep the cluster small.
const MAX_SUBTYPES: usize = 12;

/// At most this many encoders ([`TestCluster::encoders`]).
pub(super) const MAX_ENCODERS: usize = 8;

/// At most this many serializers ([`TestCluster::serializers`]).
pub(super) const MAX_SERIALIZERS: usize = 8;

/// The classes whose values a format's serializers give text to.
const TEXT_TYPES: [&str; 1] = ["java.io.Reader"];

/// The classes whose values a format's encoders give content to: files
/// (their content) and input streams (read from such a file).
const ENCODED_TYPES: [&str; 3] = ["java.io.File", "java.nio.file.Path", "java.io.InputStream"];

pub(super) fn build(cp: &ClassPath, cut: &str, options: &ClusterOptions) -> Result<TestCluster, ClusterError> {
    let not_loaded = |e: model::classpath::ClassPathError| ClusterError::NotLoaded {
        class: BinaryName::new(cut),
        message: e.to_string(),
    };
    let class = cp.load(cut).map_err(not_loaded)?;
    let mut b = Builder::new(cp, cut, options);
    b.check_accessible(&class)?;
    b.collect_calls_under_test(&class);
    b.collect_nested_calls();
    b.collect_returned_types();
    b.collect_instanceof_classes(&class);
    b.enqueue_name(cut, 1);
    let params: Vec<JavaType> = b.cluster.calls_under_test.iter().flat_map(|c| c.params().to_vec()).collect();
    for p in &params {
        b.enqueue(p, 1);
    }
    b.expand();
    if ENCODED_TYPES.iter().any(|t| b.mentioned.contains(*t)) {
        b.collect_encoders();
        b.expand();
    }
    if TEXT_TYPES.iter().any(|t| b.mentioned.contains(*t)) {
        b.collect_serializers();
        b.expand();
    }
    b.finish(&class)
}

/// [`super::instance_methods`]: the accessible instance methods of an
/// application class, as a build of `cut`'s cluster lists its modifiers.
pub(super) fn instance_methods(
    cp: &ClassPath,
    cut: &str,
    options: &ClusterOptions,
    binary_name: &str,
) -> Vec<Callable> {
    if is_jdk_class(binary_name) {
        return Vec::new();
    }
    Builder::new(cp, cut, options).instance_methods(binary_name)
}

/// [`super::constructors`]: the accessible constructors of a concrete
/// application class, as a build of `cut`'s cluster lists them.
pub(super) fn constructors(cp: &ClassPath, cut: &str, options: &ClusterOptions, binary_name: &str) -> Vec<Callable> {
    let b = Builder::new(cp, cut, options);
    // An inner (non-static nested) class's constructor takes the enclosing
    // instance, which a test writes `outer.new Inner()`: not a plain call.
    let inner = |c: &ClassFile| c.is_inner_class();
    match b.load(binary_name).filter(|c| !is_jdk_class(binary_name) && b.class_accessible(c) && !inner(c)) {
        Some(class) if class.access & (access::ABSTRACT | access::INTERFACE) == 0 => b.constructors(&class),
        _ => Vec::new(),
    }
}

/// The state of one build.
struct Builder<'cp> {
    cp: &'cp ClassPath,
    cut: String,
    /// The CUT's package, binary form (`org.apache.commons.lang3`).
    package: String,
    options: ClusterOptions,
    cluster: TestCluster,
    queue: VecDeque<(String, u32)>,
    queued: HashSet<String>,
    /// Class names whose supertypes [`TestCluster::is_assignable`] needs.
    mentioned: BTreeSet<String>,
    exists: RefCell<HashMap<String, bool>>,
    app: Option<AppIndex>,
    /// Types that calls under test return and that the CUT or a nested
    /// class of it implements, and factories of those
    /// ([`Builder::collect_returned_types`]).
    returned: BTreeSet<String>,
    /// The supertypes of the CUT and of its nested classes (without the
    /// CUT and `Object`).
    implemented: HashSet<String>,
    /// The classes the CUT's code (nested classes included) tests values
    /// against with `instanceof` ([`analysis::instanceof_classes`]), each
    /// with its supertypes.
    instanceof: Vec<(String, HashSet<String>)>,
}

impl<'cp> Builder<'cp> {
    fn new(cp: &'cp ClassPath, cut: &str, options: &ClusterOptions) -> Builder<'cp> {
        let cluster = TestCluster {
            cut: BinaryName::new(cut),
            options: options.clone(),
            calls_under_test: Vec::new(),
            cut_methods: HashSet::new(),
            generators: BTreeMap::new(),
            modifiers: BTreeMap::new(),
            enums: BTreeMap::new(),
            containers: BTreeMap::new(),
            supertypes: HashMap::new(),
            class_values: Vec::new(),
            reflected_members: Vec::new(),
            functional: BTreeMap::new(),
            mockable: BTreeMap::new(),
            returned: BTreeSet::new(),
            encoders: Vec::new(),
            serializers: Vec::new(),
            text_readers: BTreeSet::new(),
            folders: false,
            shared_instances: Default::default(),
            shared_accessors: Default::default(),
        };
        Builder {
            cp,
            cut: cut.to_string(),
            package: package_of(cut).to_string(),
            options: options.clone(),
            cluster,
            queue: VecDeque::new(),
            queued: HashSet::new(),
            mentioned: BTreeSet::new(),
            exists: RefCell::new(HashMap::new()),
            app: None,
            returned: BTreeSet::new(),
            implemented: HashSet::new(),
            instanceof: Vec::new(),
        }
    }

    /// Collects the `instanceof` targets of the CUT and its nested classes
    /// (at most [`MAX_SUBTYPES`], accessible ones).
    fn collect_instanceof_classes(&mut self, class: &ClassFile) {
        let nested = self.cp.nested_class_names(&BinaryName::new(self.cut.as_str()));
        let mut found: BTreeSet<String> = analysis::instanceof_classes(class).into_iter().collect();
        for name in nested {
            found.extend(self.load(name.as_str()).map(|c| analysis::instanceof_classes(&c)).unwrap_or_default());
        }
        let accessible = |n: &String| self.load(n).is_some_and(|c| self.class_accessible(&c));
        let accessible: Vec<String> = found.into_iter().filter(accessible).take(MAX_SUBTYPES).collect();
        self.instanceof = accessible
            .into_iter()
            .map(|c| {
                let supers =
                    hierarchy::Supertypes::of(self.cp, &c).map(|s| s.iter().map(BinaryName::to_string).collect());
                (c, supers.unwrap_or_default())
            })
            .collect();
    }

    /// The `instanceof` targets of the CUT other than `name` that a value of
    /// `name` may be: all of them for `Object`, the subtypes otherwise.
    fn instanceof_subtypes(&self, name: &str) -> Vec<Generator> {
        let fits = |(c, supers): &&(String, HashSet<String>)| {
            c != name && (name == "java.lang.Object" || supers.contains(name))
        };
        self.instanceof.iter().filter(fits).map(|(c, _)| Generator::Subtype(class_type(c))).collect()
    }

    fn check_accessible(&self, class: &ClassFile) -> Result<(), ClusterError> {
        if self.class_accessible(class) {
            return Ok(());
        }
        let reason = if is_local_or_anonymous(&self.cut) {
            "it is a local or anonymous class".to_string()
        } else if class.access & access::PUBLIC == 0 && !self.options.package_private {
            "it is not public and the tests are not in its package".to_string()
        } else {
            "it (or a class enclosing it) is private or synthetic".to_string()
        };
        Err(ClusterError::NotAccessible { class: self.cluster.cut.clone(), reason })
    }

    // ---- accessibility and existence ----

    /// Whether a test in the CUT's package (or any package) can name the class.
    fn class_accessible(&self, class: &ClassFile) -> bool {
        class_accessible(self.cp, class, &self.package, self.options.package_private)
    }

    /// Whether a test can use a member with flags `flags` declared in `declaring`.
    fn member_accessible(&self, flags: u16, declaring: &str) -> bool {
        if flags & (access::SYNTHETIC | access::BRIDGE | access::PRIVATE) != 0 {
            false
        } else if flags & access::PUBLIC != 0 {
            true
        } else {
            self.options.package_private && package_of(declaring) == self.package
        }
    }

    /// [`Builder::member_accessible`] for a field, whose `0x0040` is
    /// `volatile`, not `bridge` (a `public volatile` field is accessible).
    fn field_accessible(&self, flags: u16, declaring: &str) -> bool {
        self.member_accessible(flags & !access::VOLATILE, declaring)
    }

    /// Whether the class is on the class path and, for a JDK class, in the
    /// release the tests are compiled for and in a package its module
    /// exports (cached; no parse, no "nearest names" search).
    fn exists(&self, binary_name: &str) -> bool {
        if let Some(known) = self.exists.borrow().get(binary_name) {
            return *known;
        }
        let in_release = self.cp.release_api().is_none_or(|api| api.has_class(&binary_name.replace('.', "/")));
        let found = in_release && self.cp.is_exported(binary_name) && self.cp.contains(binary_name);
        self.exists.borrow_mut().insert(binary_name.to_string(), found);
        found
    }

    /// Whether every class a type names is on the class path.
    fn type_exists(&self, ty: &JavaType) -> bool {
        class_names(ty).iter().all(|n| self.exists(n))
    }

    /// Whether member `m` of `class` is in the release the tests are compiled
    /// for ([`ClassPath::release_api`]; always for a class outside the JDK).
    fn in_release(&self, class: &ClassFile, m: &Member) -> bool {
        self.cp
            .release_api()
            .is_none_or(|api| api.has_member(class.name(), class.member_name(m), class.member_descriptor(m)))
    }

    fn load(&self, binary_name: &str) -> Option<Arc<ClassFile>> {
        if !self.exists(binary_name) {
            return None;
        }
        self.cp.load(binary_name).ok()
    }

    // ---- calls under test ----

    /// The CUT's constructors, then the methods and fields of the CUT and its
    /// supertypes outside the JDK, nearest declaration first.
    fn collect_calls_under_test(&mut self, class: &ClassFile) {
        let mut calls = Vec::new();
        if class.access & (access::ABSTRACT | access::INTERFACE | access::ENUM) == 0 {
            calls.extend(self.constructors(class));
        }
        let mut seen = HashSet::new();
        let cut = BinaryName::new(self.cut.as_str());
        for (owner, is_superinterface) in self.cut_owners() {
            if let Some(owner_class) = self.load(&owner) {
                calls.extend(self.members_under_test(&owner_class, &owner, is_superinterface, &mut seen, &cut));
            }
        }
        self.cluster.calls_under_test = calls;
    }

    /// Adds the accessible constructors, methods and fields declared by the
    /// CUT's nested classes (`Option$Builder`) to the calls under test, and
    /// queues those classes for generators: their code counts as part of
    /// the CUT (as for EvoSuite and JaCoCo). Local and anonymous classes
    /// cannot be named by a test and are left out.
    fn collect_nested_calls(&mut self) {
        let prefix = format!("{}$", self.cut);
        let nested: Vec<String> = self.cp.all_class_names().into_iter().filter(|n| n.starts_with(&prefix)).collect();
        for name in nested {
            let Some(class) = self.load(&name) else { continue };
            if !self.class_accessible(&class) {
                continue;
            }
            let mut calls = Vec::new();
            if class.access & (access::ABSTRACT | access::INTERFACE | access::ENUM) == 0 {
                calls.extend(self.constructors(&class));
            }
            let owner = BinaryName::new(name.as_str());
            calls.extend(self.members_under_test(&class, &name, false, &mut HashSet::new(), &owner));
            self.cluster.calls_under_test.extend(calls);
            self.enqueue_name(&name, 1);
        }
    }

    /// Finds the types that calls under test return and that the CUT or a
    /// nested, local or anonymous class of it implements (`iterator()`
    /// returning an `Itr` as an `Iterator`, a builder returned as its
    /// interface), and the application types they return whose methods
    /// return such a type (a factory: `createAdapterFactory()` returns a
    /// `TypeAdapterFactory` whose `create` returns the CUT as a
    /// `TypeAdapter`), and queues them: their instance methods become
    /// modifiers ([`Builder::modifiers_for`]), so that the tests call the
    /// CUT's own code behind the objects it returns. [`Builder::expand`]
    /// queues what the factories' methods return.
    fn collect_returned_types(&mut self) {
        let cut = BinaryName::new(self.cut.as_str());
        let nested = self.cp.nested_class_names(&cut);
        for name in std::iter::once(&cut).chain(nested.iter()) {
            if let Ok(supers) = hierarchy::Supertypes::of(self.cp, name.as_str()) {
                self.implemented.extend(supers.iter().map(BinaryName::to_string));
            }
        }
        self.implemented.remove("java.lang.Object");
        self.implemented.remove(&self.cut);
        let returned: Vec<String> = self
            .cluster
            .calls_under_test
            .iter()
            .filter_map(Callable::ret)
            .flat_map(|ret| class_names(&ret))
            .filter(|name| *name != self.cut && (self.implemented.contains(name) || self.is_factory_of_cut(name)))
            .collect();
        for name in returned {
            if self.returned.insert(name.clone()) {
                self.enqueue_name(&name, 1);
            }
        }
    }

    /// Whether application class `name` has an accessible instance method
    /// returning a type the CUT (or a nested class) implements.
    fn is_factory_of_cut(&self, name: &str) -> bool {
        !is_jdk_class(name)
            && self.instance_methods(name).iter().filter_map(Callable::ret).any(|r| self.returns_implemented(&r))
    }

    /// Whether `ret` names a type the CUT (or a nested class) implements.
    fn returns_implemented(&self, ret: &JavaType) -> bool {
        class_names(ret).iter().any(|n| self.implemented.contains(n))
    }

    /// Queues the types the modifiers of returned type `name` return that
    /// the CUT implements (the `TypeAdapter` a returned factory creates).
    fn queue_returned_by_factory(&mut self, modifiers: &[Callable], depth: u32) {
        let rets: Vec<String> = modifiers.iter().filter_map(Callable::ret).flat_map(|r| class_names(&r)).collect();
        for name in rets {
            if self.implemented.contains(&name) && self.returned.insert(name.clone()) {
                self.enqueue_name(&name, depth + 1);
            }
        }
    }

    /// The accessible methods and fields of `owner` not hidden by a nearer
    /// declaration in `seen` (name and parameters; fields by name),
    /// referenced with `reference` as owner (the CUT, or a nested class).
    fn members_under_test(
        &self,
        class: &ClassFile,
        owner: &str,
        is_superinterface: bool,
        seen: &mut HashSet<(String, String)>,
        reference: &BinaryName,
    ) -> Vec<Callable> {
        let cut = reference.clone();
        let mut calls = Vec::new();
        for m in &class.methods {
            let (name, desc) = (class.member_name(m), class.member_descriptor(m));
            // The nearest declaration hides the others, accessible or not; bridges
            // (javac's public copies of a package-private superclass's methods) do not.
            let bridge = m.access & (access::SYNTHETIC | access::BRIDGE) != 0;
            if name.starts_with('<') || bridge || !seen.insert((name.to_string(), params_of(desc).to_string())) {
                continue;
            }
            // Static methods of superinterfaces are not inherited.
            let inherited = !(is_superinterface && m.access & access::STATIC != 0);
            if inherited && self.member_accessible(m.access, owner) && !is_enum_helper(class, m) {
                calls.extend(self.method_callable(class, m, cut.clone()));
            }
        }
        for f in &class.fields {
            if seen.insert((class.member_name(f).to_string(), String::new())) && self.field_accessible(f.access, owner)
            {
                calls.extend(self.field_callables(class, f, cut.clone()));
            }
        }
        calls
    }

    /// The CUT, its superclasses and then its interfaces, outside the JDK;
    /// `true` marks superinterfaces (whose static members are not inherited).
    fn cut_owners(&self) -> Vec<(String, bool)> {
        let supertypes = Supertypes::of(self.cp, &self.cut).ok();
        let (supers, interfaces) = supertypes.map(|s| (s.superclasses, s.interfaces)).unwrap_or_default();
        let classes =
            std::iter::once(self.cut.clone()).chain(supers.iter().map(BinaryName::to_string)).map(|c| (c, false));
        let interfaces = interfaces.iter().map(|i| (i.to_string(), true));
        classes.chain(interfaces).filter(|(c, _)| !is_jdk_class(c)).collect()
    }

    /// The accessible constructors of a concrete class.
    fn constructors(&self, class: &ClassFile) -> Vec<Callable> {
        let owner = class.binary_name();
        class
            .methods
            .iter()
            .filter(|m| class.member_name(m) == "<init>" && self.member_accessible(m.access, owner.as_str()))
            .filter_map(|m| self.method_callable(class, m, owner.clone()))
            .collect()
    }

    /// The callable for method `m` of `class`, referenced with `owner`;
    /// `None` when a type it mentions is not on the class path, or when it
    /// reads the environment (the clock, random seeds, identity hashes:
    /// [`super::environment`]).
    fn method_callable(&self, class: &ClassFile, m: &Member, owner: BinaryName) -> Option<Callable> {
        let name = class.member_name(m);
        if super::environment::is_environment_dependent(class.name(), name, class.member_descriptor(m))
            || !self.in_release(class, m)
        {
            return None;
        }
        let descriptor = MethodDescriptor::parse(class.member_descriptor(m)).ok()?;
        let (params, ret) = method_types(class, m, &descriptor);
        if !params.iter().chain([&ret]).all(|t| self.type_exists(t)) {
            return None;
        }
        let method = MethodRef::new(owner, name, descriptor);
        Some(if name == "<init>" {
            Callable::Constructor { method, params, ret: self_type(class) }
        } else if m.access & access::STATIC != 0 {
            Callable::StaticMethod { method, params, ret }
        } else {
            Callable::Method { method, params, ret }
        })
    }

    /// A read, and a write unless final, of field `f` of `class`, referenced with `owner`.
    fn field_callables(&self, class: &ClassFile, f: &Member, owner: BinaryName) -> Vec<Callable> {
        let Ok(erased) = FieldType::parse(class.member_descriptor(f)) else { return Vec::new() };
        let ty = field_type(class, f, &erased);
        if !self.type_exists(&ty) || !self.in_release(class, f) {
            return Vec::new();
        }
        let field = FieldRef::new(owner, class.member_name(f), erased);
        let is_static = f.access & access::STATIC != 0;
        let get = Callable::FieldGet { field: field.clone(), is_static, ty: ty.clone() };
        let set = (f.access & access::FINAL == 0).then_some(Callable::FieldSet { field, is_static, ty });
        std::iter::once(get).chain(set).collect()
    }

    // ---- the breadth-first walk over needed types ----

    /// Marks every class `ty` names as needed at `depth`.
    fn enqueue(&mut self, ty: &JavaType, depth: u32) {
        for name in class_names(ty) {
            self.enqueue_name(&name, depth);
        }
    }

    fn enqueue_name(&mut self, name: &str, depth: u32) {
        self.mentioned.insert(name.to_string());
        if depth <= self.options.max_depth && self.queued.insert(name.to_string()) {
            self.queue.push_back((name.to_string(), depth));
        }
    }

    /// Notes the types a callable mentions, and queues those it needs at `depth`.
    fn enqueue_callable(&mut self, callable: &Callable, depth: u32) {
        for p in callable.params().to_vec() {
            self.enqueue(&p, depth);
        }
        if let Some(r) = callable.receiver() {
            self.enqueue(&JavaType::from(r), depth);
        }
        if let Some(ret) = callable.ret() {
            // A collection read from a field is filled: its class and element types are needed.
            if matches!(callable, Callable::FieldGet { .. })
                && callable.erased_ret().is_some_and(|t| holds_collection(&t))
            {
                self.enqueue(&ret, depth);
            }
            for name in class_names(&ret) {
                self.mentioned.insert(name);
            }
        }
    }

    fn expand(&mut self) {
        while let Some((name, depth)) = self.queue.pop_front() {
            let generators = self.generators_for(&name);
            for g in &generators {
                match g {
                    Generator::Call(c) => self.enqueue_callable(c, depth + 1),
                    Generator::Subtype(t) => self.enqueue(t, depth + 1),
                }
            }
            if !generators.is_empty() {
                self.cluster.generators.insert(name.clone(), generators);
            }
            self.interface_container(&name);
            let modifiers = self.modifiers_for(&name, depth);
            for m in &modifiers {
                self.enqueue_callable(m, depth + 1);
            }
            if self.returned.contains(&name) {
                self.queue_returned_by_factory(&modifiers, depth);
            }
            if !modifiers.is_empty() {
                self.cluster.modifiers.insert(name, modifiers);
            }
        }
    }

    /// The generators of class `name` (see the module docs of `cluster`),
    /// with the CUT's `instanceof` targets that are subtypes of it.
    fn generators_for(&mut self, name: &str) -> Vec<Generator> {
        let mut out = self.own_generators(name);
        for sub in self.instanceof_subtypes(name) {
            if !out.contains(&sub) {
                out.push(sub);
            }
        }
        out
    }

    /// The generators of class `name` from its own constructors and
    /// factories, the stand-ins, containers and subtypes.
    fn own_generators(&mut self, name: &str) -> Vec<Generator> {
        if LITERAL_TYPES.contains(&name) {
            return Vec::new();
        }
        if let Some(subs) = substitutes(name) {
            let mut out: Vec<Generator> = subs.iter().map(|s| Generator::Subtype(class_type(s))).collect();
            if name == "java.lang.Object" {
                // `equals(Object)` and the like compare with their own class
                // (EvoSuite also offers the CUT for `Object` parameters).
                out.push(Generator::Subtype(class_type(&self.cut)));
            }
            return out;
        }
        if let Some(ctor) = self.container(name) {
            return vec![Generator::Call(ctor)];
        }
        // A test cannot name a value of a class it cannot access.
        let Some(class) = self.load(name).filter(|c| self.class_accessible(c)) else { return Vec::new() };
        if class.access & access::ENUM != 0 {
            self.cluster.enums.insert(name.to_string(), enum_constants(&class));
            return Vec::new();
        }
        let mut out: Vec<Generator> = Vec::new();
        if class.access & (access::ABSTRACT | access::INTERFACE) == 0 {
            out.extend(self.constructors(&class).into_iter().map(Generator::Call));
        }
        let has_constructor = !out.is_empty();
        out.extend(self.static_producers(&class, name).into_iter().map(Generator::Call));
        out.extend(self.held_constants(name).into_iter().map(Generator::Call));
        out.extend(self.jdk_producers(name).into_iter().map(Generator::Call));
        out.extend(self.jar_factories(name).into_iter().map(Generator::Call));
        out.extend(self.cut_methods_returning(name).into_iter().map(Generator::Call));
        if !has_constructor {
            out.extend(self.instance_factories(name).into_iter().map(Generator::Call));
            out.extend(self.concrete_subtypes(name).into_iter().map(|s| Generator::Subtype(class_type(&s))));
        }
        out
    }

    /// For a JDK collection: registers how to fill it and returns its
    /// no-argument constructor.
    fn container(&mut self, name: &str) -> Option<Callable> {
        let (class, fill, desc) = CONTAINERS.iter().find(|(c, _, _)| *c == name)?;
        let fill = MethodRef::parse(class, fill, desc).ok()?;
        self.cluster.containers.insert(name.to_string(), Container { fill });
        let method = MethodRef::parse(class, "<init>", "()V").ok()?;
        Some(Callable::Constructor { method, params: Vec::new(), ret: class_type(class) })
    }

    /// For a JDK collection interface: registers the interface method that
    /// fills its values ([`interface_fill`]), as [`Builder::container`]
    /// does for the collections a test builds.
    fn interface_container(&mut self, name: &str) {
        if let Some((owner, method, descriptor)) = interface_fill(name)
            && let Ok(fill) = MethodRef::parse(owner, method, descriptor)
        {
            self.cluster.containers.insert(name.to_string(), Container { fill });
        }
    }

    /// The constants of the JDK classes that hold constants of `name`
    /// ([`constant_holders`]: `StandardCharsets.UTF_8` for a `Charset`).
    fn held_constants(&self, name: &str) -> Vec<Callable> {
        let holders = constant_holders(name).iter().filter_map(|h| self.load(h));
        holders.flat_map(|h| self.static_producers(&h, name)).collect()
    }

    /// The JDK instance methods producing a `name` ([`jdk_producers`]:
    /// `Method.getGenericReturnType()` for a `Type`).
    fn jdk_producers(&self, name: &str) -> Vec<Callable> {
        self.jdk_methods(jdk_producers(name))
    }

    /// The calls of JDK methods `methods` that the class path has.
    fn jdk_methods(&self, methods: &[JdkMethod]) -> Vec<Callable> {
        let callables = methods.iter().filter_map(|(owner, method, descriptor)| {
            let class = self.load(owner)?;
            let m = class
                .methods
                .iter()
                .find(|m| class.member_name(m) == *method && class.member_descriptor(m) == *descriptor)?;
            self.method_callable(&class, m, BinaryName::new(*owner))
        });
        callables.collect()
    }

    /// The accessible static methods and static field reads of `holder`
    /// whose type is exactly class `produced` (the class's own factories
    /// and constants when `holder` is that class).
    fn static_producers(&self, holder: &ClassFile, produced: &str) -> Vec<Callable> {
        let owner = holder.binary_name();
        let wanted = BinaryName::new(produced).to_internal();
        let returns = |d: &str| d.strip_prefix("L").and_then(|d| d.strip_suffix(";")) == Some(wanted.as_str());
        let methods = holder.methods.iter().filter(|m| {
            m.access & access::STATIC != 0
                && !holder.member_name(m).starts_with('<')
                && self.member_accessible(m.access, owner.as_str())
                && holder.member_descriptor(m).rsplit(')').next().is_some_and(returns)
        });
        let methods = methods.filter_map(|m| self.method_callable(holder, m, owner.clone()));
        let fields = holder.fields.iter().filter(|f| {
            f.access & access::STATIC != 0
                && self.field_accessible(f.access, owner.as_str())
                && returns(holder.member_descriptor(f))
        });
        let fields = fields.flat_map(|f| self.field_callables(holder, f, owner.clone()));
        methods.chain(fields.filter(|c| matches!(c, Callable::FieldGet { .. }))).collect()
    }

    /// Instance methods of the CUT returning a `name` (other than the CUT).
    fn cut_methods_returning(&self, name: &str) -> Vec<Callable> {
        if name == self.cut {
            return Vec::new();
        }
        let wanted = FieldType::Object(BinaryName::new(name).to_internal());
        let calls = self.cluster.calls_under_test.iter();
        calls
            .filter(|c| matches!(c, Callable::Method { .. }) && c.erased_ret() == Some(wanted.clone()))
            .cloned()
            .collect()
    }

    /// Concrete, accessible application subtypes of `name`.
    fn concrete_subtypes(&mut self, name: &str) -> Vec<String> {
        let app = self.app_index();
        let mut subtypes: Vec<String> = app.subclasses.subtypes(name).iter().map(BinaryName::to_string).collect();
        let package = package_of(name).to_string();
        subtypes.sort_by_key(|s| (package_of(s) != package, s.clone()));
        let concrete = |s: &String| self.load(s).is_some_and(|c| self.is_concrete(&c));
        subtypes.into_iter().filter(concrete).take(MAX_SUBTYPES).collect()
    }

    /// Whether `class` is a class (not an interface), not abstract, and
    /// accessible to the tests.
    fn is_concrete(&self, class: &ClassFile) -> bool {
        class.access & (access::ABSTRACT | access::INTERFACE) == 0 && self.class_accessible(class)
    }

    /// Calls on an existing value of class `name`: the instance calls under
    /// test of the CUT (or a nested class) taking that receiver, a JDK
    /// collection's fill method, or the accessible instance methods of an
    /// application class needed below the depth limit.
    fn modifiers_for(&self, name: &str, depth: u32) -> Vec<Callable> {
        // The instance calls under test of the CUT or of one of its nested
        // classes (those of `Outer$Inner` need an `Outer$Inner` receiver).
        let under_test: Vec<Callable> = self
            .cluster
            .calls_under_test
            .iter()
            .filter(|c| c.receiver().and_then(|r| r.to_internal_name()).is_some_and(|r| r.to_binary().as_str() == name))
            .cloned()
            .collect();
        if !under_test.is_empty() || name == self.cut {
            return under_test;
        }
        if let Some(container) = self.cluster.containers.get(name) {
            let object = class_type("java.lang.Object");
            let params = vec![object.clone(); container.fill.descriptor.params.len()];
            let ret = container.fill.descriptor.ret.clone().map_or(JavaType::Void, JavaType::from);
            return vec![Callable::Method { method: container.fill.clone(), params, ret }];
        }
        if self.returned.contains(name) && is_jdk_class(name) {
            return self.declared_instance_methods(name);
        }
        let jdk = self.jdk_methods(jdk_modifiers(name));
        if !jdk.is_empty() {
            return jdk;
        }
        if is_jdk_class(name) || (depth >= self.options.max_depth && !self.returned.contains(name)) {
            return Vec::new();
        }
        let mut out = self.instance_methods(name);
        out.extend(self.instance_field_modifiers(name));
        out
    }

    /// Writes of the accessible, non-final instance fields of application
    /// class `name`, declared or inherited from application superclasses,
    /// referenced with `name`: state a class leaves public (`dfa.s0 = state`)
    /// is set as EvoSuite's field assignments set it. Also reads of its
    /// accessible instance fields that hold a JDK collection, final or not,
    /// which the factory fills after reading ([`is_collection`]:
    /// `dfa.states.put(s, s)`).
    fn instance_field_modifiers(&self, name: &str) -> Vec<Callable> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for (owner, c) in self.application_owners(name) {
            for f in &c.fields {
                let skip = access::STATIC | access::SYNTHETIC;
                if seen.insert(c.member_name(f).to_string())
                    && f.access & skip == 0
                    && self.field_accessible(f.access, &owner)
                {
                    let holds_collection = FieldType::parse(c.member_descriptor(f)).is_ok_and(|t| holds_collection(&t));
                    let callables = self.field_callables(&c, f, BinaryName::new(name)).into_iter();
                    out.extend(callables.filter(|w| match w {
                        Callable::FieldSet { .. } => true,
                        Callable::FieldGet { .. } => holds_collection,
                        _ => false,
                    }));
                }
            }
        }
        out
    }

    /// Application class `name` and its application superclasses, nearest
    /// first, each with its class file; empty when a test cannot name `name`.
    fn application_owners(&self, name: &str) -> Vec<(String, Arc<ClassFile>)> {
        if self.load(name).filter(|c| self.class_accessible(c)).is_none() {
            return Vec::new();
        }
        let (supers, _) = hierarchy::superclasses(self.cp, name).unwrap_or_default();
        let owners = std::iter::once(name.to_string()).chain(supers.iter().map(BinaryName::to_string));
        owners.filter(|c| !is_jdk_class(c)).filter_map(|o| self.load(&o).map(|c| (o, c))).collect()
    }

    /// The public instance methods that JDK type `name` declares itself
    /// (`Iterator.hasNext`/`next`/`remove`), referenced with `name`.
    fn declared_instance_methods(&self, name: &str) -> Vec<Callable> {
        let Some(class) = self.load(name) else { return Vec::new() };
        class
            .methods
            .iter()
            .filter(|m| m.access & (access::STATIC | access::SYNTHETIC | access::BRIDGE) == 0)
            .filter(|m| m.access & access::PUBLIC != 0 && !class.member_name(m).starts_with('<'))
            .filter_map(|m| self.method_callable(&class, m, BinaryName::new(name)))
            .collect()
    }

    /// The accessible instance methods of application class `name`, declared
    /// or inherited from application superclasses, referenced with `name`.
    fn instance_methods(&self, name: &str) -> Vec<Callable> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for (owner, c) in self.application_owners(name) {
            for m in &c.methods {
                let key = (c.member_name(m).to_string(), params_of(c.member_descriptor(m)).to_string());
                let bridge = m.access & (access::SYNTHETIC | access::BRIDGE) != 0;
                if key.0.starts_with('<') || bridge || !seen.insert(key) || m.access & access::STATIC != 0 {
                    continue;
                }
                if self.member_accessible(m.access, &owner) {
                    out.extend(self.method_callable(&c, m, BinaryName::new(name)));
                }
            }
        }
        out
    }

    // ---- the application index ----

    /// The accessible static methods of an accessible class that return a class type.
    fn static_methods(&self, name: &str) -> Vec<Callable> {
        let Some(class) = self.load(name).filter(|c| self.class_accessible(c)) else { return Vec::new() };
        let returns_class = |m: &Member| class.member_descriptor(m).ends_with(';');
        let methods = class.methods.iter().filter(|m| {
            m.access & access::STATIC != 0
                && !class.member_name(m).starts_with('<')
                && returns_class(m)
                && self.member_accessible(m.access, name)
                && !is_enum_helper(&class, m)
        });
        methods.filter_map(|m| self.method_callable(&class, m, BinaryName::new(name))).collect()
    }

    // ---- finishing ----

    fn finish(mut self, class: &ClassFile) -> Result<TestCluster, ClusterError> {
        let always = LITERAL_TYPES.iter().chain(["java.lang.Object"].iter()).map(|s| s.to_string());
        let names: Vec<String> = self.mentioned.iter().cloned().chain(always).collect();
        for name in names {
            if let Some(supertypes) = self.supertypes(&name) {
                self.cluster.supertypes.insert(name, supertypes);
            }
        }
        self.drop_unmakeable_instanceof_subtypes();
        // Instance members need a receiver: of the CUT, or of a nested class.
        let mut can_make: HashMap<String, bool> = HashMap::new();
        let cluster = &self.cluster;
        let keep: Vec<bool> = cluster
            .calls_under_test
            .iter()
            .map(|c| match c.receiver() {
                None => true,
                Some(ty) => {
                    let name = ty.to_internal_name().map(|n| n.to_binary().as_str().to_string()).unwrap_or_default();
                    *can_make.entry(name.clone()).or_insert_with(|| can_generate(cluster, &name, &mut HashSet::new()))
                }
            })
            .collect();
        let mut keep = keep.into_iter();
        self.cluster.calls_under_test.retain(|_| keep.next().unwrap_or(false));
        if self.cluster.calls_under_test.is_empty() {
            let class_name = self.cluster.cut.clone();
            return Err(ClusterError::NothingCallable { class: class_name, reason: nothing_reason(class) });
        }
        self.cluster.cut_methods = self.cluster.calls_under_test.iter().filter_map(|c| c.method().cloned()).collect();
        let returned = self.returned.iter().filter(|r| self.cluster.modifiers.contains_key(*r)).cloned().collect();
        self.cluster.returned = returned;
        if !self.cluster.serializers.is_empty() {
            self.cluster.text_readers = text_readers(&self.cluster);
        }
        let supertypes = self.cluster.supertypes.get(self.cluster.cut.as_str());
        self.cluster.folders = super::folders::uses_folders(class, supertypes);
        Ok(self.cluster)
    }

    /// Removes the `instanceof` stand-ins ([`Builder::instanceof_subtypes`])
    /// that nothing can make (a JDK interface without an implementation on
    /// the class path), so that no attempt is spent on them.
    fn drop_unmakeable_instanceof_subtypes(&mut self) {
        let cluster = &self.cluster;
        let unmakeable: HashSet<String> = self
            .instanceof
            .iter()
            .map(|(c, _)| c)
            .filter(|c| !cluster.functional.contains_key(*c) && !can_generate(cluster, c, &mut HashSet::new()))
            .cloned()
            .collect();
        let is_unmakeable = |g: &Generator| match g {
            Generator::Subtype(t) => t
                .erasure()
                .is_some_and(|e| matches!(&e, FieldType::Object(n) if unmakeable.contains(n.to_binary().as_str()))),
            Generator::Call(_) => false,
        };
        for generators in self.cluster.generators.values_mut() {
            generators.retain(|g| !is_unmakeable(g));
        }
        self.cluster.generators.retain(|_, g| !g.is_empty());
    }

    /// The class, its superclasses and interfaces, and `Object`.
    fn supertypes(&self, name: &str) -> Option<HashSet<String>> {
        self.load(name)?;
        let supertypes = Supertypes::of(self.cp, name).ok()?;
        let own = [name.to_string(), "java.lang.Object".to_string()];
        Some(own.into_iter().chain(supertypes.iter().map(BinaryName::to_string)).collect())
    }
}

/// Whether a test in `package` (binary form) can name the class: not
/// local, anonymous or synthetic, not in a JDK package its module keeps
/// to itself ([`ClassPath::is_exported`]: JDK 25's public
/// `jdk.internal.lang.stable.StableFunction` implements `Function`), and
/// public, or package-private in `package` when `package_private`, as is
/// every class enclosing it.
pub(super) fn class_accessible(cp: &ClassPath, class: &ClassFile, package: &str, package_private: bool) -> bool {
    let name = class.binary_name();
    let hidden = is_local_or_anonymous(name.as_str()) || !cp.is_exported(name.as_str());
    if hidden || class.access & access::SYNTHETIC != 0 {
        return false;
    }
    // A nested class's own flags (`private`, `protected`) are in its
    // InnerClasses entry; the class file's flags say package-private.
    let flags = class.inner_class_flags().unwrap_or(class.access);
    let own = flags & access::PRIVATE == 0
        && (flags & access::PUBLIC != 0 || (package_private && package_of(name.as_str()) == package));
    let outer = name.outer_class();
    own && outer.is_none_or(|o| cp.load(o.as_str()).is_ok_and(|c| class_accessible(cp, &c, package, package_private)))
}

/// Whether the cluster can make a non-null value of class `name`.
fn can_generate(cluster: &TestCluster, name: &str, visiting: &mut HashSet<String>) -> bool {
    if LITERAL_TYPES.contains(&name) || !cluster.enum_constants(name).is_empty() {
        return true;
    }
    if !visiting.insert(name.to_string()) {
        return false;
    }
    cluster.generators(name).iter().any(|g| match g {
        Generator::Call(_) => true,
        Generator::Subtype(t) => t.erasure().is_some_and(|e| match e {
            FieldType::Object(n) => can_generate(cluster, n.to_binary().as_str(), visiting),
            _ => true,
        }),
    })
}

/// Why a CUT without callable members has none, for [`ClusterError::NothingCallable`].
fn nothing_reason(class: &ClassFile) -> String {
    if class.access & access::INTERFACE != 0 {
        "it is an interface, no class on the class path implements it, and it has no accessible static methods or fields"
            .to_string()
    } else if class.access & access::ABSTRACT != 0 {
        "it is abstract, has no concrete subclass on the class path, and has no accessible static methods or fields"
            .to_string()
    } else {
        "it has no accessible constructors, methods or fields".to_string()
    }
}

/// The generic parameter and result types of method `m`, type variables
/// replaced by the erasure of their bounds; the descriptor's types when the
/// signature is missing or disagrees with it (synthetic parameters). The
/// result stays generic only when the signature's is exact
/// ([`JavaType::is_exact`]: `List<String>`); one with type variables or
/// wildcards is erased, since javac infers its arguments from the call
/// (`List<T> asList(T...)`), which the substituted bounds need not match.
fn method_types(class: &ClassFile, m: &Member, descriptor: &MethodDescriptor) -> (Vec<JavaType>, JavaType) {
    let erased = || {
        let params = descriptor.params.iter().cloned().map(JavaType::from).collect();
        (params, descriptor.ret.clone().map_or(JavaType::Void, JavaType::from))
    };
    let Some(sig) = class.signature(&m.attributes).and_then(|s| parse_method_signature(s).ok()) else {
        return erased();
    };
    let class_sig = class.signature(&class.attributes).and_then(|s| parse_class_signature(s).ok());
    let outer = |n: &str| class_sig.as_ref().and_then(|c| c.type_var_erasure(n));
    let bound = |n: &str| erase_type_var(&sig.type_params, n, &outer);
    let erasures: Vec<JavaType> = sig.params.iter().map(|p| resolve(p, &bound)).collect();
    let ret = match &descriptor.ret {
        None => JavaType::Void,
        Some(_) if sig.ret.is_exact() => sig.ret.clone(),
        Some(erased) => JavaType::from(erased.clone()),
    };
    let agrees = erasures.len() == descriptor.params.len()
        && erasures.iter().zip(&descriptor.params).all(|(p, d)| p.erasure().as_ref() == Some(d))
        && ret.erasure() == descriptor.ret;
    if !agrees {
        return erased();
    }
    // The values for a type variable are of the type the cluster gives it (`String` for `A extends Comparable<A>`).
    let outer = |n: &str| class_sig.as_ref().and_then(|c| instantiate(&c.type_params, n, &|_| None));
    let chosen = |n: &str| instantiate(&sig.type_params, n, &outer);
    (sig.params.iter().map(|p| resolve(p, &chosen)).collect(), ret)
}

/// The generic type of field `f` when its signature is exact
/// ([`JavaType::is_exact`], as a method's result in [`method_types`]), or
/// its erased type.
fn field_type(class: &ClassFile, f: &Member, erased: &FieldType) -> JavaType {
    let generic = class.signature(&f.attributes).and_then(|s| parse_field_signature(s).ok());
    let raw = || JavaType::from(erased.clone());
    let Some(generic) = generic.filter(|g| g.erasure().as_ref() == Some(erased)) else { return raw() };
    if generic.is_exact() {
        return generic;
    }
    // `List<T>` of a generic class: the class's type variables as its
    // constructors instantiate them ([`self_type`]), so that a value read
    // from a `Box<Object>` is a `List<Object>` a test fills, not a raw `List`.
    if class.binary_name().as_str().contains('$') {
        return raw();
    }
    let Some(sig) = class.signature(&class.attributes).and_then(|s| parse_class_signature(s).ok()) else {
        return raw();
    };
    let resolved = resolve(&generic, &|name| instantiate(&sig.type_params, name, &|_| None));
    if resolved.is_exact() { resolved } else { raw() }
}

/// Whether values of `ty` are JDK collections a test fills ([`is_collection`]).
fn holds_collection(ty: &FieldType) -> bool {
    matches!(ty, FieldType::Object(name) if is_collection(name.to_binary().as_str()))
}

/// `ty` with every type variable replaced by the erasure of its bound.
fn resolve(ty: &JavaType, bound: &dyn Fn(&str) -> Option<FieldType>) -> JavaType {
    match ty {
        JavaType::TypeVar(name) => JavaType::from(bound(name).unwrap_or(FieldType::Object(InternalName::object()))),
        JavaType::Class(class) => {
            let args = class.args.iter().map(|a| resolve_arg(a, bound)).collect();
            JavaType::Class(ClassTypeSig { name: class.name.clone(), args, outer_args: Vec::new() })
        }
        JavaType::Array(component) => JavaType::Array(Box::new(resolve(component, bound))),
        JavaType::Base(_) | JavaType::Void => ty.clone(),
    }
}

fn resolve_arg(arg: &TypeArg, bound: &dyn Fn(&str) -> Option<FieldType>) -> TypeArg {
    match arg {
        TypeArg::Wildcard => TypeArg::Wildcard,
        TypeArg::Extends(t) => TypeArg::Extends(resolve(t, bound)),
        TypeArg::Super(t) => TypeArg::Super(resolve(t, bound)),
        TypeArg::Exact(t) => TypeArg::Exact(resolve(t, bound)),
    }
}

/// The binary names of the classes a type mentions, type arguments included.
pub(super) fn class_names(ty: &JavaType) -> Vec<String> {
    let mut out = Vec::new();
    collect_class_names(ty, &mut out);
    out
}

fn collect_class_names(ty: &JavaType, out: &mut Vec<String>) {
    match ty {
        JavaType::Class(class) => {
            out.push(class.name.to_binary().to_string());
            for arg in &class.args {
                if let TypeArg::Exact(t) | TypeArg::Extends(t) | TypeArg::Super(t) = arg {
                    collect_class_names(t, out);
                }
            }
        }
        JavaType::Array(component) => collect_class_names(component, out),
        JavaType::Base(_) | JavaType::Void | JavaType::TypeVar(_) => {}
    }
}

/// The type of a new instance of `class`: parameterized with the erasure of
/// each type parameter's bound (`Index<K, V>` → `Index<Object, Object>`),
/// or `String` for a bound that compares the variable with itself
/// (`Pair<A extends Comparable<A>, B>` → `Pair<String, Object>`: a raw
/// `Comparable` is not within that bound), for a generic top-level class,
/// raw otherwise (a nested class may need its enclosing class's arguments
/// as well).
fn self_type(class: &ClassFile) -> JavaType {
    let name = class.binary_name();
    let raw = class_type(name.as_str());
    if name.as_str().contains('$') {
        return raw;
    }
    let Some(sig) = class.signature(&class.attributes).and_then(|s| parse_class_signature(s).ok()) else {
        return raw;
    };
    if sig.type_params.is_empty() {
        return raw;
    }
    let object = || FieldType::Object(InternalName::object());
    let argument = |p: &model::signature::TypeParam| instantiate(&sig.type_params, &p.name, &|_| None);
    let args =
        sig.type_params.iter().map(|p| TypeArg::Exact(JavaType::from(argument(p).unwrap_or_else(object)))).collect();
    JavaType::Class(ClassTypeSig { name: name.to_internal(), args, outer_args: Vec::new() })
}

/// The type the cluster gives type variable `name` of `type_params` (else
/// `outer`'s): `String` when its bound compares it with itself
/// ([`is_self_comparable`]), else the erasure of its bound. Constructors,
/// methods and the class's own type ([`self_type`]) use the same choice,
/// so the values a test makes fit the calls it makes with them.
fn instantiate(
    type_params: &[model::signature::TypeParam],
    name: &str,
    outer: &dyn Fn(&str) -> Option<FieldType>,
) -> Option<FieldType> {
    match type_params.iter().find(|p| p.name == name) {
        Some(p) if is_self_comparable(p) => Some(FieldType::Object(InternalName::new("java/lang/String"))),
        _ => erase_type_var(type_params, name, outer),
    }
}

/// Whether type parameter `p`'s only bound is `Comparable<P>` or
/// `Comparable<? super P>` of itself, which `String` meets.
fn is_self_comparable(p: &model::signature::TypeParam) -> bool {
    let bounds: Vec<&JavaType> = p.class_bound.iter().chain(&p.interface_bounds).filter(|b| !is_object(b)).collect();
    let [JavaType::Class(bound)] = bounds[..] else { return false };
    let itself = |t: &JavaType| matches!(t, JavaType::TypeVar(v) if *v == p.name);
    bound.name.as_str() == "java/lang/Comparable"
        && matches!(&bound.args[..], [TypeArg::Exact(t) | TypeArg::Super(t)] if itself(t))
}

fn is_object(t: &JavaType) -> bool {
    matches!(t, JavaType::Class(c) if c.name.as_str() == "java/lang/Object" && c.args.is_empty())
}

fn class_type(binary_name: &str) -> JavaType {
    JavaType::from(FieldType::Object(BinaryName::new(binary_name).to_internal()))
}

/// The enum's constants in declaration order.
fn enum_constants(class: &ClassFile) -> Vec<String> {
    let own = format!("L{};", class.name());
    let constants = class.fields.iter().filter(|f| f.access & access::ENUM != 0 && class.member_descriptor(f) == own);
    constants.map(|f| class.member_name(f).to_string()).collect()
}

/// Whether `m` is an enum's compiler-generated `values()` or `valueOf(String)`.
fn is_enum_helper(class: &ClassFile, m: &Member) -> bool {
    if class.access & access::ENUM == 0 || m.access & access::STATIC == 0 {
        return false;
    }
    let (name, desc) = (class.member_name(m), class.member_descriptor(m));
    (name == "values" && desc == format!("()[L{};", class.name()))
        || (name == "valueOf" && desc == format!("(Ljava/lang/String;)L{};", class.name()))
}

/// The parameter part of a method descriptor, `(I)` of `(I)V`: overriding
/// methods share it even when the return type is covariant.
fn params_of(descriptor: &str) -> &str {
    descriptor.find(')').map_or(descriptor, |end| &descriptor[..=end])
}

/// The package of a binary name (`""` for the default package).
pub(super) fn package_of(binary_name: &str) -> &str {
    binary_name.rsplit_once('.').map_or("", |(p, _)| p)
}

/// The classes that read text ([`TestCluster::reads_text`]): the owners of
/// the cluster's calls that take a `java.io.Reader`, and `StringReader`.
fn text_readers(cluster: &TestCluster) -> BTreeSet<String> {
    let reader = FieldType::Object(InternalName::new("java/io/Reader"));
    let generators = cluster.generators.values().flatten().filter_map(|g| match g {
        Generator::Call(c) => Some(c),
        Generator::Subtype(_) => None,
    });
    let calls = cluster.calls_under_test.iter().chain(generators).chain(cluster.modifiers.values().flatten());
    let takes_reader = |c: &&Callable| c.params().iter().any(|p| p.erasure().as_ref() == Some(&reader));
    let owners = calls.filter(takes_reader).filter_map(|c| c.method()).map(|m| m.owner.to_string());
    owners.chain(["java.io.StringReader".to_string()]).collect()
}

/// Whether a binary name is a local or anonymous class (`Foo$1`, `Foo$1Local`).
fn is_local_or_anonymous(binary_name: &str) -> bool {
    binary_name.split('$').skip(1).any(|part| part.starts_with(|c: char| c.is_ascii_digit()))
}
