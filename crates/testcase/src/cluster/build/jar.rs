//! What the CUT's jar (or package) offers a type beyond its own members:
//! the static factories of other classes ([`Builder::jar_factories`]), the
//! instance methods of other classes that return it
//! ([`Builder::instance_factories`]: `JsonFactory.createParser(String)`
//! for an abstract `JsonParser`, as EvoSuite's test cluster takes every
//! method returning a type as its generator), and the jar's encoders and
//! serializers ([`crate::cluster::TestCluster::encoders`], [`crate::cluster::TestCluster::serializers`]).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use model::classfile::ClassFile;
use model::descriptor::FieldType;
use model::hierarchy::{self, SubclassIndex};
use model::names::InternalName;
use model::signature::JavaType;

use super::{Builder, MAX_ENCODERS, MAX_SERIALIZERS, package_of};
use crate::cluster::jdk::is_jdk_class;
use crate::cluster::{Callable, SERIALIZED_TYPES};

/// The most instance methods of other classes that make one type.
const MAX_INSTANCE_FACTORIES: usize = 4;

/// What the build knows about the application's classes (built on first use).
pub(super) struct AppIndex {
    /// Direct subtypes of the application's classes (JDK supertypes included).
    pub(super) subclasses: SubclassIndex,
    /// Static methods of the CUT's jar (or package), by the binary name of the class they return.
    factories: BTreeMap<String, Vec<Callable>>,
    /// Public instance methods declared by the concrete, top-level classes
    /// of the CUT's jar (the CUT left out), by the binary name of the
    /// application class they return (their own class left out).
    instance_factories: BTreeMap<String, Vec<Callable>>,
    /// The binary names of the classes of the CUT's jar (of its package
    /// when it is not in a jar).
    pub(super) jar: Vec<String>,
}

impl Builder<'_> {
    pub(super) fn app_index(&mut self) -> &AppIndex {
        if self.app.is_none() {
            let index = self.build_app_index();
            self.app = Some(index);
        }
        self.app.as_ref().expect("just built")
    }

    fn build_app_index(&self) -> AppIndex {
        let names = self.cp.application_class_names();
        let subclasses = SubclassIndex::of_classes(self.cp, &names);
        let jar = self.cp.find_bytes(&self.cut).ok().and_then(|b| self.cp.classes_in(Path::new(&b.origin)));
        let jar = jar.unwrap_or_else(|| names.iter().filter(|n| package_of(n) == self.package).cloned().collect());
        let mut factories: BTreeMap<String, Vec<Callable>> = BTreeMap::new();
        for name in &jar {
            for callable in self.static_methods(name) {
                if let Some(FieldType::Object(ret)) = callable.erased_ret() {
                    factories.entry(ret.to_binary().to_string()).or_default().push(callable);
                }
            }
        }
        let instance_factories = self.index_instance_factories(&jar);
        AppIndex { subclasses, factories, instance_factories, jar }
    }

    /// Static methods of other classes of the CUT's jar (or package) returning a `name`.
    pub(super) fn jar_factories(&mut self, name: &str) -> Vec<Callable> {
        let app = self.app_index();
        let factories = app.factories.get(name).cloned().unwrap_or_default();
        factories.into_iter().filter(|c| c.method().is_some_and(|m| m.owner.as_str() != name)).collect()
    }

    /// Public instance methods of other classes of the CUT's jar that
    /// return a `name` (at most [`MAX_INSTANCE_FACTORIES`], those of
    /// `name`'s package first): `JsonFactory.createParser(String)` makes
    /// the `JsonParser` that no public constructor makes.
    pub(super) fn instance_factories(&mut self, name: &str) -> Vec<Callable> {
        let package = package_of(name).to_string();
        let app = self.app_index();
        let mut factories = app.instance_factories.get(name).cloned().unwrap_or_default();
        sort_same_package_first(&mut factories, &package);
        factories.truncate(MAX_INSTANCE_FACTORIES);
        factories
    }

    /// [`AppIndex::instance_factories`] of the classes `jar`.
    fn index_instance_factories(&self, jar: &[String]) -> BTreeMap<String, Vec<Callable>> {
        let mut index: BTreeMap<String, Vec<Callable>> = BTreeMap::new();
        for name in jar.iter().filter(|n| **n != self.cut) {
            if !self.load(name).is_some_and(|c| self.is_concrete(&c) && !c.is_inner_class()) {
                continue;
            }
            for callable in self.declared_instance_methods(name) {
                let Some(FieldType::Object(ret)) = callable.erased_ret() else { continue };
                let ret = ret.to_binary().to_string();
                if !is_jdk_class(&ret) && ret != *name {
                    index.entry(ret).or_default().push(callable);
                }
            }
        }
        index
    }

    /// Fills [`crate::cluster::TestCluster::encoders`] from the concrete subtypes of
    /// `OutputStream` in the CUT's jar, and queues the types their
    /// constructors need.
    pub(super) fn collect_encoders(&mut self) {
        let streams = self.jar_classes_same_package_first();
        let extends_output_stream = |name: &String| {
            hierarchy::superclasses(self.cp, name)
                .is_ok_and(|(s, _)| s.iter().any(|c| c.as_str() == "java.io.OutputStream"))
        };
        let classes: Vec<Arc<ClassFile>> = streams
            .iter()
            .filter(|s| extends_output_stream(s))
            .filter_map(|s| self.load(s))
            .filter(|c| self.is_concrete(c) && !c.is_inner_class())
            .collect();
        let output_stream = FieldType::Object(InternalName::new("java/io/OutputStream"));
        let writes_to_stream =
            |c: &Callable| c.params().first().and_then(JavaType::erasure) == Some(output_stream.clone());
        let encoders: Vec<Callable> =
            classes.iter().flat_map(|c| self.constructors(c)).filter(writes_to_stream).take(MAX_ENCODERS).collect();
        for encoder in &encoders {
            self.enqueue_callable(encoder, 1);
        }
        self.cluster.encoders = encoders;
    }

    /// The classes of the CUT's jar (or package), those of the CUT's
    /// package first, each group by name.
    fn jar_classes_same_package_first(&mut self) -> Vec<String> {
        let mut classes: Vec<String> = self.app_index().jar.clone();
        classes.sort_by_key(|s| (package_of(s) != self.package, s.clone()));
        classes
    }

    /// Fills [`crate::cluster::TestCluster::serializers`] from the methods of the classes
    /// of the CUT's jar (same package first) that return a `String` and
    /// take an `Object` (or `Object...`) first: the static ones from
    /// [`AppIndex::factories`], the instance ones of concrete classes. Their
    /// receivers, their other parameters and [`SERIALIZED_TYPES`] join the
    /// cluster at the depth limit, so that a serializer adds its
    /// constructors and no calls of its own.
    pub(super) fn collect_serializers(&mut self) {
        let string = FieldType::Object(InternalName::new("java/lang/String"));
        let object = FieldType::Object(InternalName::object());
        let objects = FieldType::Array(Box::new(object.clone()));
        let writes_object = |c: &Callable| {
            c.erased_ret() == Some(string.clone())
                && c.params().first().and_then(JavaType::erasure).is_some_and(|p| p == object || p == objects)
        };
        let statics = self.app_index().factories.get("java.lang.String").cloned().unwrap_or_default();
        let mut serializers: Vec<Callable> = statics.into_iter().filter(|c| writes_object(c)).collect();
        let mut instance = 0;
        for name in self.jar_classes_same_package_first() {
            if instance >= MAX_SERIALIZERS {
                break;
            }
            if self.load(&name).is_some_and(|c| self.is_concrete(&c) && !c.is_inner_class()) {
                let methods: Vec<Callable> =
                    self.instance_methods(&name).into_iter().filter(|c| writes_object(c)).collect();
                instance += methods.len();
                serializers.extend(methods);
            }
        }
        sort_same_package_first(&mut serializers, &self.package);
        serializers.truncate(MAX_SERIALIZERS);
        let depth = self.options.max_depth;
        for serializer in &serializers {
            self.enqueue_callable(serializer, depth);
        }
        if !serializers.is_empty() {
            for name in SERIALIZED_TYPES {
                self.enqueue_name(name, depth);
            }
        }
        self.cluster.serializers = serializers;
    }
}

/// Sorts `callables` by their owners: those of `package` first, each group
/// by the owner's name (stable: a class's methods keep their order).
fn sort_same_package_first(callables: &mut [Callable], package: &str) {
    let owner = |c: &Callable| c.method().map(|m| m.owner.to_string()).unwrap_or_default();
    callables.sort_by_cached_key(|c| {
        let owner = owner(c);
        (package_of(&owner) != package, owner)
    });
}
