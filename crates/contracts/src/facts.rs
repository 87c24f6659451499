//! What the contracts need to know of the classes on the class path:
//! which contract methods a class of the user's class path (not the JDK)
//! declares itself or inherits from another such class, the `compareTo`
//! a value of a static type can be called with, and where in the source
//! a method or a stack frame is.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use model::access::{ABSTRACT, BRIDGE, INTERFACE, PUBLIC, STATIC, SYNTHETIC};
use model::classfile::ClassFile;
use model::classpath::ClassPath;
use model::hierarchy::Supertypes;
use model::names::{BinaryName, InternalName};
use testcase::{MethodRef, StatementKind};

use crate::contract::Method;

/// The contract methods a class has from classes of the user's class path:
/// each with the class that declares it (the class itself or a superclass
/// of the user's). A method it has from the JDK (`Object`'s, `Enum`'s,
/// `AbstractList`'s) is not there: the JDK keeps its own contracts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Declared {
    /// The declaring class of each contract method the class has from the user's classes.
    pub by: BTreeMap<Method, BinaryName>,
    /// The class and its superclasses of the user's, nearest first.
    pub chain: Vec<BinaryName>,
}

impl Declared {
    /// Whether the class has `method` from the user's classes.
    pub fn declares(&self, method: Method) -> bool {
        self.by.contains_key(&method)
    }
}

/// Class-path lookups, cached per class.
pub struct ClassFacts {
    cp: Arc<ClassPath>,
    /// The user's class path alone: a class found there is not the JDK's.
    user: Option<ClassPath>,
    /// Answers of [`ClassFacts::is_user`] (each reads the class's bytes).
    users: RefCell<HashMap<String, bool>>,
    declared: HashMap<BinaryName, Option<Declared>>,
}

impl ClassFacts {
    /// Facts from `cp` (the user's class path with the JDK) and
    /// `user_class_path` (the user's alone, `:`-separated).
    pub fn new(cp: Arc<ClassPath>, user_class_path: &str) -> ClassFacts {
        let user = ClassPath::parse(user_class_path).ok();
        ClassFacts { cp, user, users: RefCell::new(HashMap::new()), declared: HashMap::new() }
    }

    /// Whether `class` is on the user's class path (not a JDK class).
    pub fn is_user(&self, class: &str) -> bool {
        if let Some(&known) = self.users.borrow().get(class) {
            return known;
        }
        let found = self.user.as_ref().is_some_and(|u| u.contains(class));
        self.users.borrow_mut().insert(class.to_string(), found);
        found
    }

    /// The contract methods `class` has from the user's classes; `None`
    /// for a class that is not the user's (JDK classes, proxies, classes
    /// not on the class path).
    pub fn declared(&mut self, class: &BinaryName) -> Option<Declared> {
        if let Some(d) = self.declared.get(class) {
            return d.clone();
        }
        let d = self.compute_declared(class);
        self.declared.insert(class.clone(), d.clone());
        d
    }

    fn compute_declared(&self, class: &BinaryName) -> Option<Declared> {
        if !self.is_user(class.as_str()) {
            return None;
        }
        let comparable = Supertypes::of(&self.cp, class.as_str())
            .is_ok_and(|s| s.interfaces.iter().any(|i| i.as_str() == "java.lang.Comparable"));
        let mut declared = Declared::default();
        for (name, cf) in self.user_chain(class) {
            declared.chain.push(name.clone());
            for m in &cf.methods {
                if m.access & (STATIC | ABSTRACT) != 0 {
                    continue;
                }
                let method = contract_method(cf.member_name(m), cf.member_descriptor(m));
                if let Some(method) = method.filter(|&k| k != Method::CompareTo || comparable) {
                    declared.by.entry(method).or_insert_with(|| name.clone());
                }
            }
        }
        Some(declared)
    }

    /// `class` and its superclasses, nearest first, while they are the user's.
    fn user_chain(&self, class: &BinaryName) -> Vec<(BinaryName, Arc<ClassFile>)> {
        let mut out = Vec::new();
        let mut next = Some(class.clone());
        while let Some(name) = next.take() {
            if !self.is_user(name.as_str()) {
                break;
            }
            let Ok(cf) = self.cp.load(name.as_str()) else { break };
            next = cf.super_name().map(|s| InternalName::new(s).to_binary());
            out.push((name, cf));
        }
        out
    }

    /// Whether a value of static type `class` may be an object of a user's
    /// class: a user's class, `Object`, or a JDK interface or abstract
    /// class (a `Map.Entry` the class under test made). Concrete JDK
    /// classes (`String`, `ArrayList`) may not, or keep their contracts.
    pub fn may_hold_user_object(&self, class: &str) -> bool {
        if class == "java.lang.Object" || self.is_user(class) {
            return true;
        }
        self.cp.load(class).is_ok_and(|cf| cf.access & (INTERFACE | ABSTRACT) != 0)
    }

    /// The `compareTo` to call on values of the user's class `class`: the
    /// nearest one declared by it or a user's superclass, not a bridge,
    /// whose parameter a value of `class` can be passed to; `None` when
    /// `class` is not `Comparable` through the user's code.
    pub fn compare_to(&mut self, class: &BinaryName) -> Option<MethodRef> {
        let owner = self.declared(class)?.by.get(&Method::CompareTo)?.clone();
        let supertypes = Supertypes::of(&self.cp, class.as_str()).ok()?;
        let accepts = |param: &BinaryName| {
            param == class || param.as_str() == "java.lang.Object" || supertypes.iter().any(|s| s == param)
        };
        for (name, cf) in self.user_chain(class).into_iter().skip_while(|(n, _)| *n != owner) {
            for m in &cf.methods {
                let (method_name, descriptor) = (cf.member_name(m), cf.member_descriptor(m));
                if m.access & (STATIC | ABSTRACT | BRIDGE | SYNTHETIC) != 0
                    || contract_method(method_name, descriptor) != Some(Method::CompareTo)
                {
                    continue;
                }
                let Ok(method) = MethodRef::parse(name.as_str(), method_name, descriptor) else { continue };
                let param = method.descriptor.params[0].to_internal_name().map(|p| p.to_binary());
                if param.as_ref().is_some_and(accepts) {
                    return Some(method);
                }
            }
        }
        None
    }

    /// Whether `class` is public (for a nested class: declared public in
    /// its enclosing class too).
    pub fn is_public(&self, class: &BinaryName) -> bool {
        self.cp
            .load(class.as_str())
            .is_ok_and(|cf| cf.access & PUBLIC != 0 && cf.inner_class_flags().is_none_or(|flags| flags & PUBLIC != 0))
    }

    /// Whether field `name` as seen from `owner` (declared there or in a
    /// superclass) is public; `true` when it cannot be found.
    pub fn is_public_field(&self, owner: &BinaryName, name: &str) -> bool {
        self.member_access(owner, |cf, f| cf.member_name(f) == name, |cf| &cf.fields).is_none_or(|a| a & PUBLIC != 0)
    }

    /// Whether `method` (declared by its owner or a superclass) is public;
    /// `true` when it cannot be found.
    pub fn is_public_method(&self, method: &MethodRef) -> bool {
        let descriptor = method.descriptor.to_descriptor();
        let named = |cf: &ClassFile, m: &model::classfile::Member| {
            cf.member_name(m) == method.name && cf.member_descriptor(m) == descriptor
        };
        self.member_access(&method.owner, named, |cf| &cf.methods).is_none_or(|a| a & PUBLIC != 0)
    }

    /// The access flags of the first member of `owner` or a superclass
    /// (nearest first) that `is` picks among those `members` lists.
    fn member_access(
        &self,
        owner: &BinaryName,
        is: impl Fn(&ClassFile, &model::classfile::Member) -> bool,
        members: impl Fn(&ClassFile) -> &Vec<model::classfile::Member>,
    ) -> Option<u16> {
        let mut next = Some(owner.clone());
        while let Some(class) = next.take() {
            let cf = self.cp.load(class.as_str()).ok()?;
            if let Some(m) = members(&cf).iter().find(|m| is(&cf, m)) {
                return Some(m.access);
            }
            next = cf.super_name().map(|s| InternalName::new(s).to_binary());
        }
        None
    }

    /// Whether a statement goes past the public API: it calls a method or
    /// constructor, or writes a field, that is not public or that it names
    /// on a class that is not public. Tests in the class's package may; the
    /// class's own code keeps the preconditions of such members
    /// (`removeNode` of a node of this list, a `size` that counts the
    /// entries, a map entry made with the index of a slot), a test does not.
    /// Calls through a public type on an object of a hidden class (an
    /// entry an iterator hands out) are the public API.
    pub fn is_internal(&self, kind: &StatementKind) -> bool {
        match kind {
            StatementKind::FieldSet { field, .. } => {
                !self.is_public_field(&field.owner, &field.name) || !self.is_public(&field.owner)
            }
            StatementKind::Constructor { method, .. }
            | StatementKind::StaticCall { method, .. }
            | StatementKind::Call { method, .. } => !self.is_public_method(method) || !self.is_public(&method.owner),
            _ => false,
        }
    }

    /// `File.java:LINE` of the first line of `method` in `class` (the
    /// declaring class of a contract method).
    pub fn method_location(&self, class: &BinaryName, method: Method) -> Option<String> {
        let cf = self.cp.load(class.as_str()).ok()?;
        let line = cf
            .methods
            .iter()
            .filter(|m| m.access & (BRIDGE | SYNTHETIC) == 0)
            .filter(|m| contract_method(cf.member_name(m), cf.member_descriptor(m)) == Some(method))
            .find_map(|m| first_line(&cf, m))?;
        Some(format!("{}:{line}", cf.source_file()?))
    }

    /// `File.java:LINE` of the innermost frame of `frames` in a user's class.
    pub fn frame_location(&self, frames: &[exec::StackFrame]) -> Option<String> {
        frames.iter().filter(|f| self.is_user(&f.class)).find_map(|f| {
            let cf = self.cp.load(&f.class).ok()?;
            Some(format!("{}:{}", cf.source_file()?, f.line?))
        })
    }
}

/// The contract method a method of that name and descriptor is, if any.
fn contract_method(name: &str, descriptor: &str) -> Option<Method> {
    let method = MethodRef::parse("java.lang.Object", name, descriptor).ok()?;
    Method::of_call(&method)
}

/// The smallest line number of a method's code.
fn first_line(cf: &ClassFile, m: &model::classfile::Member) -> Option<u16> {
    let code = cf.code(m).ok()??;
    let table = code.attributes.iter().find(|a| cf.attribute_name(a) == "LineNumberTable")?;
    model::code_tables::parse_line_numbers(&table.info).ok()?.iter().map(|r| r.line).min()
}
