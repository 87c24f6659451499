//! The class hierarchy and the accessible API of a class.
//!
//! This module is the one home of the class hierarchy: [`Supertypes::of`]
//! gives all supertypes of a class, [`SubclassIndex`] the direct and
//! transitive subtypes, and the validator, the test cluster and the
//! accessible API all use them.
//!
//! Supertypes are followed through the class path; a supertype that is not
//! on it (JDK classes, unless the class path has the JDK) ends the walk and
//! is listed as unresolved ([`Supertypes::missing_superclass`]).
//! Subclasses are found by scanning the classes of the class path once
//! ([`SubclassIndex`]).

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

use crate::classfile::{ClassFile, Member};
use crate::classpath::{ClassPath, ClassPathError};
use crate::descriptor::{FieldType, MethodDescriptor};
use crate::names::{BinaryName, InternalName};
use crate::signature::{JavaType, MethodSignature, parse_field_signature, parse_method_signature};

/// Access flags (JVMS §4.1, §4.5, §4.6) used by the model; see [`crate::access`].
pub use crate::access;

/// A method or constructor of the accessible API.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MethodInfo {
    /// Binary name of the declaring class.
    pub owner: BinaryName,
    /// Simple name, `<init>` for constructors.
    pub name: String,
    /// The erased parameter and return types.
    pub descriptor: MethodDescriptor,
    /// The generic signature when the method has a `Signature` attribute.
    pub signature: Option<MethodSignature>,
    /// The method's access flags ([`access`]).
    pub access: u16,
}

/// A field of the accessible API.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldInfo {
    /// Binary name of the declaring class.
    pub owner: BinaryName,
    /// The field's name.
    pub name: String,
    /// The erased type of the field.
    pub ty: FieldType,
    /// The generic type when the field has a `Signature` attribute.
    pub generic: Option<JavaType>,
    /// The field's access flags ([`access`]).
    pub access: u16,
}

/// The public API of a class, inherited members included.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Api {
    /// Public constructors declared by the class, in class-file order.
    pub constructors: Vec<MethodInfo>,
    /// Public methods, overriding ones hiding the overridden, sorted by name and descriptor.
    pub methods: Vec<MethodInfo>,
    /// Public fields, nearer declarations hiding farther ones, sorted by name.
    pub fields: Vec<FieldInfo>,
    /// Supertypes that are not on the class path (their members are missing), sorted, each once.
    pub unresolved: Vec<BinaryName>,
}

/// The supertypes of one class, as far as the class path reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Supertypes {
    /// Superclasses (binary names), nearest first, up to the first one that is not on the class path.
    pub superclasses: Vec<BinaryName>,
    /// The first superclass that is not on the class path, if any: [`Supertypes::superclasses`] end before it and
    /// [`Supertypes::interfaces`] miss the interfaces it would add.
    pub missing_superclass: Option<BinaryName>,
    /// All interfaces the class implements, directly or through its superclasses and superinterfaces (binary names,
    /// each once, in breadth-first order); interfaces that are not on the class path are listed but not followed.
    pub interfaces: Vec<BinaryName>,
}

impl Supertypes {
    /// The supertypes of `binary_name`.
    ///
    /// # Errors
    /// [`ClassPathError`] when `binary_name` itself cannot be loaded.
    pub fn of(cp: &ClassPath, binary_name: &str) -> Result<Supertypes, ClassPathError> {
        let (superclasses, missing) = superclasses(cp, binary_name)?;
        let interfaces = interfaces_of(cp, binary_name, &superclasses);
        Ok(Supertypes { superclasses, missing_superclass: missing.into_iter().next(), interfaces })
    }

    /// The superclasses, then the interfaces (the class itself is not included).
    pub fn iter(&self) -> impl Iterator<Item = &BinaryName> {
        self.superclasses.iter().chain(&self.interfaces)
    }

    /// The first supertype that is not on `cp`: the missing superclass, else the first listed interface that `cp`
    /// does not contain. The interfaces are looked up only when there is no missing superclass.
    pub fn first_missing(&self, cp: &ClassPath) -> Option<&BinaryName> {
        self.missing_superclass.as_ref().or_else(|| self.interfaces.iter().find(|i| !cp.contains(i.as_str())))
    }
}

/// Superclasses of `binary_name`, nearest first, as far as the class path
/// reaches; the first missing one is returned in the second list.
///
/// # Errors
/// [`ClassPathError`] when `binary_name` itself cannot be loaded.
pub fn superclasses(cp: &ClassPath, binary_name: &str) -> Result<(Vec<BinaryName>, Vec<BinaryName>), ClassPathError> {
    let mut current = cp.load(binary_name)?;
    let (mut found, mut missing) = (Vec::new(), Vec::new());
    while let Some(sup) = current.super_name().map(|s| InternalName::new(s).to_binary()) {
        match cp.load(sup.as_str()) {
            Ok(c) => {
                found.push(sup);
                current = c;
            }
            Err(_) => {
                missing.push(sup);
                break;
            }
        }
    }
    Ok((found, missing))
}

/// All interfaces `binary_name` implements, directly or through supertypes
/// (binary names, each once, in breadth-first order): [`Supertypes::interfaces`].
///
/// # Errors
/// [`ClassPathError`] when `binary_name` itself cannot be loaded.
pub fn all_interfaces(cp: &ClassPath, binary_name: &str) -> Result<Vec<BinaryName>, ClassPathError> {
    Ok(Supertypes::of(cp, binary_name)?.interfaces)
}

/// The interfaces of `binary_name` and its superclasses `supers`, and their
/// superinterfaces, breadth first; classes that fail to load add nothing.
fn interfaces_of(cp: &ClassPath, binary_name: &str, supers: &[BinaryName]) -> Vec<BinaryName> {
    let mut queue: Vec<BinaryName> =
        std::iter::once(BinaryName::new(binary_name)).chain(supers.iter().cloned()).collect();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut i = 0;
    while i < queue.len() {
        let name = queue[i].clone();
        i += 1;
        let Ok(c) = cp.load(name.as_str()) else { continue };
        for itf in c.interface_names().map(|s| InternalName::new(s).to_binary()) {
            if seen.insert(itf.clone()) {
                out.push(itf.clone());
                queue.push(itf);
            }
        }
    }
    out
}

/// Direct subtypes of every class on a class path (or of some of its
/// classes), built by one scan.
#[derive(Debug, Default)]
pub struct SubclassIndex {
    direct: BTreeMap<BinaryName, Vec<BinaryName>>,
}

impl SubclassIndex {
    /// Scans every class of `cp` (classes that fail to load are skipped).
    pub fn build(cp: &ClassPath) -> SubclassIndex {
        SubclassIndex::of_classes(cp, &cp.all_class_names())
    }

    /// Scans the classes named in `binary_names` (classes that fail to load
    /// are skipped): each becomes a direct subtype of its superclass and of
    /// its direct interfaces, in the order of `binary_names`. Supertypes
    /// outside `binary_names` (JDK classes) are keys all the same.
    pub fn of_classes(cp: &ClassPath, binary_names: &[String]) -> SubclassIndex {
        let mut direct: BTreeMap<BinaryName, Vec<BinaryName>> = BTreeMap::new();
        for name in binary_names {
            let Ok(c) = cp.load(name) else { continue };
            for sup in c.super_name().into_iter().chain(c.interface_names()) {
                direct.entry(InternalName::new(sup).to_binary()).or_default().push(BinaryName::new(name.as_str()));
            }
        }
        SubclassIndex { direct }
    }

    /// The direct subtypes of `binary_name` among the scanned classes, in scan order.
    pub fn direct_subtypes(&self, binary_name: &str) -> &[BinaryName] {
        self.direct.get(binary_name).map_or(&[], Vec::as_slice)
    }

    /// All subtypes (transitively) of `binary_name` among the scanned classes, sorted.
    pub fn subtypes(&self, binary_name: &str) -> Vec<BinaryName> {
        let mut out = Vec::new();
        let mut stack = vec![binary_name];
        let mut seen = HashSet::new();
        while let Some(n) = stack.pop() {
            for s in self.direct_subtypes(n) {
                if seen.insert(s) {
                    out.push(s.clone());
                    stack.push(s.as_str());
                }
            }
        }
        out.sort();
        out
    }
}

/// The public constructors, methods and fields of `binary_name`, with the
/// public members inherited from superclasses and interfaces on the class
/// path. Bridge and synthetic members are left out.
///
/// # Errors
/// [`ClassPathError`] when `binary_name` itself cannot be loaded.
pub fn accessible_api(cp: &ClassPath, binary_name: &str) -> Result<Api, ClassPathError> {
    let class = cp.load(binary_name)?;
    let Supertypes { superclasses: supers, missing_superclass, interfaces } = Supertypes::of(cp, binary_name)?;
    let mut unresolved: Vec<BinaryName> = missing_superclass.into_iter().collect();
    let mut api = Api::default();
    let public = |m: &Member| m.access & access::PUBLIC != 0 && m.access & (access::SYNTHETIC | access::BRIDGE) == 0;
    for m in class.methods.iter().filter(|m| public(m) && class.member_name(m) == "<init>") {
        api.constructors.extend(method_info(&class, &BinaryName::new(binary_name), m));
    }
    let mut methods: BTreeMap<(String, String), MethodInfo> = BTreeMap::new();
    let mut fields: BTreeMap<String, FieldInfo> = BTreeMap::new();
    for owner in std::iter::once(BinaryName::new(binary_name)).chain(supers).chain(interfaces) {
        let Ok(c) = cp.load(owner.as_str()) else {
            unresolved.push(owner);
            continue;
        };
        for m in c.methods.iter().filter(|m| public(m) && !c.member_name(m).starts_with('<')) {
            let key = (c.member_name(m).to_string(), c.member_descriptor(m).to_string());
            if let (std::collections::btree_map::Entry::Vacant(e), Some(info)) =
                (methods.entry(key), method_info(&c, &owner, m))
            {
                e.insert(info);
            }
        }
        // A field's 0x0040 is `volatile`, not `bridge`.
        let public_field = |f: &&Member| f.access & access::PUBLIC != 0 && f.access & access::SYNTHETIC == 0;
        for f in c.fields.iter().filter(public_field) {
            if let (false, Some(info)) = (fields.contains_key(c.member_name(f)), field_info(&c, &owner, f)) {
                fields.insert(info.name.clone(), info);
            }
        }
    }
    api.methods = methods.into_values().collect();
    api.fields = fields.into_values().collect();
    unresolved.sort();
    unresolved.dedup();
    api.unresolved = unresolved;
    Ok(api)
}

/// The API entry of method `m` of `c`; `None` when its descriptor does not parse.
fn method_info(c: &ClassFile, owner: &BinaryName, m: &Member) -> Option<MethodInfo> {
    Some(MethodInfo {
        owner: owner.clone(),
        name: c.member_name(m).to_string(),
        descriptor: MethodDescriptor::parse(c.member_descriptor(m)).ok()?,
        signature: c.signature(&m.attributes).and_then(|s| parse_method_signature(s).ok()),
        access: m.access,
    })
}

/// The API entry of field `f` of `c`; `None` when its descriptor does not parse.
fn field_info(c: &ClassFile, owner: &BinaryName, f: &Member) -> Option<FieldInfo> {
    Some(FieldInfo {
        owner: owner.clone(),
        name: c.member_name(f).to_string(),
        ty: FieldType::parse(c.member_descriptor(f)).ok()?,
        generic: c.signature(&f.attributes).and_then(|s| parse_field_signature(s).ok()),
        access: f.access,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLLECTIONS4: &str = "/usr/share/java/commons-collections4.jar";

    fn cp() -> Option<ClassPath> {
        std::path::Path::new(COLLECTIONS4).exists().then(|| ClassPath::parse(COLLECTIONS4).unwrap())
    }

    #[test]
    fn superclasses_and_interfaces_follow_the_class_path() {
        let Some(cp) = cp() else { return };
        let name = "org.apache.commons.collections4.list.SetUniqueList";
        let (supers, missing) = superclasses(&cp, name).unwrap();
        assert_eq!(
            supers,
            [
                "org.apache.commons.collections4.list.AbstractSerializableListDecorator",
                "org.apache.commons.collections4.list.AbstractListDecorator",
                "org.apache.commons.collections4.collection.AbstractCollectionDecorator",
            ]
        );
        assert_eq!(missing, ["java.lang.Object"]);
        let itfs = all_interfaces(&cp, name).unwrap();
        assert!(itfs.iter().any(|i| i == "java.util.List"), "{itfs:?}");
        let all = Supertypes::of(&cp, name).unwrap();
        assert_eq!((&all.superclasses, &all.interfaces), (&supers, &itfs));
        assert_eq!(all.missing_superclass, Some(BinaryName::new("java.lang.Object")));
        assert_eq!(all.first_missing(&cp), all.missing_superclass.as_ref());
        assert_eq!(all.iter().count(), supers.len() + itfs.len());
    }

    #[test]
    fn accessible_api_includes_inherited_public_methods_and_generic_signatures() {
        let Some(cp) = cp() else { return };
        let api = accessible_api(&cp, "org.apache.commons.collections4.list.SetUniqueList").unwrap();
        let names: Vec<&str> = api.methods.iter().map(|m| m.name.as_str()).collect();
        assert!(names.contains(&"asSet"), "declared method");
        assert!(names.contains(&"decorated") || names.contains(&"isEmpty"), "inherited method: {names:?}");
        let add = api.methods.iter().find(|m| m.name == "add" && m.descriptor.params.len() == 1).unwrap();
        assert_eq!(add.owner, "org.apache.commons.collections4.list.SetUniqueList");
        let set_unique = api.methods.iter().find(|m| m.name == "setUniqueList").unwrap();
        assert!(set_unique.signature.is_some());
        assert!(api.unresolved.iter().any(|u| u == "java.lang.Object"));
    }

    #[test]
    fn subclass_index_finds_implementations_on_the_class_path() {
        let Some(cp) = cp() else { return };
        let index = SubclassIndex::build(&cp);
        let subs = index.subtypes("org.apache.commons.collections4.Bag");
        assert!(subs.iter().any(|s| s == "org.apache.commons.collections4.bag.HashBag"), "{subs:?}");
        let direct = index.direct_subtypes("org.apache.commons.collections4.Bag");
        assert!(!direct.is_empty() && direct.iter().all(|d| subs.contains(d)), "{direct:?}");
        let some = SubclassIndex::of_classes(&cp, &["org.apache.commons.collections4.bag.HashBag".to_string()]);
        assert_eq!(
            some.subtypes("org.apache.commons.collections4.bag.AbstractMapBag"),
            ["org.apache.commons.collections4.bag.HashBag"]
        );
    }
}
