//! When an argument needs a cast. javac picks an overload by the declared
//! types of the arguments, so a test passes a value declared more widely
//! or narrowly than the parameter with a cast (`(Object) string0`); where
//! the method has no other overload of that arity and the value's declared
//! class is already a subtype of the parameter's, the cast only adds noise
//! (`Shape.area((Shape) circle0)`). A generic method keeps its casts too:
//! they steer javac's inference (`Range.between((Comparable) s, (Comparable)
//! null)` compiles, `Range.between(s, (Comparable) null)` does not).
//! [`CastFacts`] carries what the writer
//! needs to tell, looked up on the class path by the caller
//! (`generate::casts`); without facts every such argument keeps its cast.

use std::collections::{BTreeMap, BTreeSet};

use model::descriptor::FieldType;
use model::names::BinaryName;
use testcase::MethodRef;

/// Facts about the classes and methods of a suite that decide its casts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CastFacts {
    /// Methods `(owner, name, arity)` (constructors named `<init>`) that
    /// were looked up, with whether their arguments keep their casts: when
    /// another method of the owner or its supertypes shares their name and
    /// could take as many arguments (a varargs method can take any number),
    /// or when a parameter's type mentions a type variable or a wildcard.
    pub keeps_casts: BTreeMap<(BinaryName, String, usize), bool>,
    /// Every supertype of each class looked up (transitively, `Object` included).
    pub supertypes: BTreeMap<BinaryName, BTreeSet<BinaryName>>,
    /// The inner (non-static nested) classes the tests construct: their
    /// constructor's first argument is the enclosing instance, which Java
    /// writes `outer.new Inner(...)`.
    pub inner_classes: BTreeSet<BinaryName>,
}

impl CastFacts {
    /// Whether an argument declared `arg` passed for parameter `param` of
    /// `method` needs a cast: unless the facts show `method` without a
    /// rival overload or a generic parameter, and `arg` a subclass or
    /// implementation of `param`.
    pub fn needs_cast(&self, method: &MethodRef, arg: &FieldType, param: &FieldType) -> bool {
        let key = (method.owner.clone(), method.name.clone(), method.descriptor.params.len());
        if self.keeps_casts.get(&key).is_none_or(|keeps| *keeps) {
            return true;
        }
        match (arg, param) {
            (FieldType::Object(a), FieldType::Object(p)) => {
                let (a, p) = (a.to_binary(), p.to_binary());
                !self.supertypes.get(&a).is_some_and(|s| s.contains(&p))
            }
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(name: &str) -> FieldType {
        FieldType::Object(BinaryName::new(name).to_internal())
    }

    #[test]
    fn a_cast_is_left_out_only_for_a_known_lone_method_and_a_known_subtype() {
        let area = MethodRef::parse("demo.Shape", "area", "(Ldemo/Shape;)D").unwrap();
        let mut facts = CastFacts::default();
        assert!(facts.needs_cast(&area, &o("demo.Circle"), &o("demo.Shape")), "nothing known");
        facts.keeps_casts.insert((BinaryName::new("demo.Shape"), "area".into(), 1), false);
        assert!(facts.needs_cast(&area, &o("demo.Circle"), &o("demo.Shape")), "supertypes unknown");
        let supers = ["demo.Shape", "java.lang.Object"].map(BinaryName::new).into_iter().collect();
        facts.supertypes.insert(BinaryName::new("demo.Circle"), supers);
        assert!(!facts.needs_cast(&area, &o("demo.Circle"), &o("demo.Shape")));
        assert!(facts.needs_cast(&area, &o("java.lang.Object"), &o("demo.Shape")), "a downcast stays");
        facts.keeps_casts.insert((BinaryName::new("demo.Shape"), "area".into(), 1), true);
        assert!(facts.needs_cast(&area, &o("demo.Circle"), &o("demo.Shape")), "an overload decides");
    }
}
