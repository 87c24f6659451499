//! The class hierarchy and the accessible API of a class.
//!
//! Supertypes are followed through the class path; a supertype that is not
//! on it (JDK classes, for now) ends the walk and is listed as unresolved.
//! Subclasses are found by scanning every class of the class path once
//! ([`SubclassIndex`]).

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

use crate::classfile::{ClassFile, Member};
use crate::classpath::{ClassPath, ClassPathError};
use crate::descriptor::{FieldType, MethodDescriptor};
use crate::signature::{JavaType, MethodSignature, parse_field_signature, parse_method_signature};

/// Access flags (JVMS §4.1, §4.5, §4.6) used by the model; see [`crate::access`].
pub use crate::access;

/// A method or constructor of the accessible API.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MethodInfo {
    /// Binary name of the declaring class.
    pub owner: String,
    /// Simple name, `<init>` for constructors.
    pub name: String,
    pub descriptor: MethodDescriptor,
    /// The generic signature when the method has a `Signature` attribute.
    pub signature: Option<MethodSignature>,
    pub access: u16,
}

/// A field of the accessible API.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldInfo {
    /// Binary name of the declaring class.
    pub owner: String,
    pub name: String,
    pub ty: FieldType,
    /// The generic type when the field has a `Signature` attribute.
    pub generic: Option<JavaType>,
    pub access: u16,
}

/// The public API of a class, inherited members included.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Api {
    pub constructors: Vec<MethodInfo>,
    /// Public methods, overriding ones hiding the overridden, sorted by name and descriptor.
    pub methods: Vec<MethodInfo>,
    pub fields: Vec<FieldInfo>,
    /// Supertypes that are not on the class path (their members are missing).
    pub unresolved: Vec<String>,
}

/// Superclasses of `binary_name`, nearest first, as far as the class path
/// reaches; the first missing one is returned in the second list.
///
/// # Errors
/// [`ClassPathError`] when `binary_name` itself cannot be loaded.
pub fn superclasses(cp: &ClassPath, binary_name: &str) -> Result<(Vec<String>, Vec<String>), ClassPathError> {
    let mut current = cp.load(binary_name)?;
    let (mut found, mut missing) = (Vec::new(), Vec::new());
    while let Some(sup) = current.super_name().map(|s| s.replace('/', ".")) {
        match cp.load(&sup) {
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
/// (binary names, each once, in breadth-first order).
///
/// # Errors
/// [`ClassPathError`] when `binary_name` itself cannot be loaded.
pub fn all_interfaces(cp: &ClassPath, binary_name: &str) -> Result<Vec<String>, ClassPathError> {
    let (supers, _) = superclasses(cp, binary_name)?;
    let mut queue: Vec<String> = std::iter::once(binary_name.to_string()).chain(supers).collect();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut i = 0;
    while i < queue.len() {
        let name = queue[i].clone();
        i += 1;
        let Ok(c) = cp.load(&name) else { continue };
        for itf in c.interface_names().map(|s| s.replace('/', ".")) {
            if seen.insert(itf.clone()) {
                out.push(itf.clone());
                queue.push(itf);
            }
        }
    }
    Ok(out)
}

/// Direct subtypes of every class on a class path, built by one scan.
#[derive(Debug, Default)]
pub struct SubclassIndex {
    direct: BTreeMap<String, Vec<String>>,
}

impl SubclassIndex {
    /// Scans every class of `cp` (classes that fail to load are skipped).
    pub fn build(cp: &ClassPath) -> SubclassIndex {
        let mut direct: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for name in cp.all_class_names() {
            let Ok(c) = cp.load(&name) else { continue };
            for sup in c.super_name().into_iter().chain(c.interface_names()) {
                direct.entry(sup.replace('/', ".")).or_default().push(name.clone());
            }
        }
        SubclassIndex { direct }
    }

    /// All subtypes (transitively) of `binary_name` on the class path, sorted.
    pub fn subtypes(&self, binary_name: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![binary_name.to_string()];
        let mut seen = HashSet::new();
        while let Some(n) = stack.pop() {
            for s in self.direct.get(&n).into_iter().flatten() {
                if seen.insert(s.clone()) {
                    out.push(s.clone());
                    stack.push(s.clone());
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
    let (supers, mut unresolved) = superclasses(cp, binary_name)?;
    let interfaces = all_interfaces(cp, binary_name)?;
    let mut api = Api::default();
    let public = |m: &Member| m.access & access::PUBLIC != 0 && m.access & (access::SYNTHETIC | access::BRIDGE) == 0;
    for m in class.methods.iter().filter(|m| public(m) && class.member_name(m) == "<init>") {
        api.constructors.extend(method_info(&class, binary_name, m));
    }
    let mut methods: BTreeMap<(String, String), MethodInfo> = BTreeMap::new();
    let mut fields: BTreeMap<String, FieldInfo> = BTreeMap::new();
    for owner in std::iter::once(binary_name.to_string()).chain(supers).chain(interfaces) {
        let Ok(c) = cp.load(&owner) else {
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
        for f in c.fields.iter().filter(|f| public(f)) {
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

fn method_info(c: &ClassFile, owner: &str, m: &Member) -> Option<MethodInfo> {
    Some(MethodInfo {
        owner: owner.to_string(),
        name: c.member_name(m).to_string(),
        descriptor: MethodDescriptor::parse(c.member_descriptor(m)).ok()?,
        signature: c.signature(&m.attributes).and_then(|s| parse_method_signature(s).ok()),
        access: m.access,
    })
}

fn field_info(c: &ClassFile, owner: &str, f: &Member) -> Option<FieldInfo> {
    Some(FieldInfo {
        owner: owner.to_string(),
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
        assert!(itfs.contains(&"java.util.List".to_string()), "{itfs:?}");
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
        assert!(api.unresolved.contains(&"java.lang.Object".to_string()));
    }

    #[test]
    fn subclass_index_finds_implementations_on_the_class_path() {
        let Some(cp) = cp() else { return };
        let index = SubclassIndex::build(&cp);
        let subs = index.subtypes("org.apache.commons.collections4.Bag");
        assert!(subs.contains(&"org.apache.commons.collections4.bag.HashBag".to_string()), "{subs:?}");
    }
}
