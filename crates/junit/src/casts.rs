//! When an argument needs a cast. javac picks an overload by the declared
//! types of the arguments, so a test passes a value declared more widely
//! or narrowly than the parameter with a cast (`(Object) string0`); where
//! no other overload of that arity could take the arguments as written
//! without their casts (JLS §15.12.2: then the method is the only
//! applicable one) and the value's declared class is already a subtype of
//! the parameter's, the cast only adds noise (`Shape.area((Shape)
//! circle0)`, `new XZOutputStream((OutputStream) out, (FilterOptions)
//! options)` beside `XZOutputStream(OutputStream, FilterOptions[])`). A generic method keeps its casts too:
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
    /// were looked up, with whether their arguments keep their casts
    /// whatever their types: when a varargs method of the owner or its
    /// supertypes shares their name, or when a parameter's type mentions a
    /// type variable or a wildcard.
    pub keeps_casts: BTreeMap<(BinaryName, String, usize), bool>,
    /// The parameter types (erased) of the rival overloads of each method
    /// `(owner, name, arity)`: the other methods of the owner or its
    /// supertypes (constructors: of the owner) with that name and arity.
    pub rivals: BTreeMap<(BinaryName, String, usize), Vec<Vec<FieldType>>>,
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
    /// varargs rival or a generic parameter, `alone` (no rival overload
    /// could take the arguments as written: [`CastFacts::resolves_alone`]),
    /// and `arg` a subclass or implementation of `param`.
    pub fn needs_cast(&self, method: &MethodRef, arg: &FieldType, param: &FieldType, alone: bool) -> bool {
        let key = (method.owner.clone(), method.name.clone(), method.descriptor.params.len());
        if !alone || self.keeps_casts.get(&key).is_none_or(|keeps| *keeps) {
            return true;
        }
        !self.is_subtype(arg, param)
    }

    /// Whether a `null` argument of `method` needs a cast: unless the facts
    /// show `method` without a varargs rival or a generic parameter and
    /// without any other overload of its arity (then `null` can only mean
    /// its parameter: `Shape.describe(null)`, not `Shape.describe((Object) null)`).
    pub fn null_needs_cast(&self, method: &MethodRef) -> bool {
        let key = (method.owner.clone(), method.name.clone(), method.descriptor.params.len());
        self.keeps_casts.get(&key).is_none_or(|keeps| *keeps) || self.rivals.get(&key).is_some_and(|r| !r.is_empty())
    }

    /// Whether no rival overload of `method` could be applicable to
    /// arguments of the types `args` (erased; an argument written with a
    /// cast counts as the cast's type). Conservative: a rival counts as
    /// applicable unless some argument is a reference whose known
    /// supertypes do not include the rival's parameter, or a primitive or
    /// non-box reference where the rival takes a reference or primitive
    /// that no conversion reaches (JLS §5.3).
    pub fn resolves_alone(&self, method: &MethodRef, args: &[FieldType]) -> bool {
        let key = (method.owner.clone(), method.name.clone(), method.descriptor.params.len());
        let may_apply = |params: &Vec<FieldType>| params.iter().zip(args).all(|(p, a)| self.may_convert(a, p));
        self.rivals.get(&key).is_none_or(|rivals| !rivals.iter().any(may_apply))
    }

    /// Whether reference type `arg` is known to be `param` or a subtype of it.
    pub fn is_subtype(&self, arg: &FieldType, param: &FieldType) -> bool {
        match (arg, param) {
            (FieldType::Object(a), FieldType::Object(p)) => {
                let (a, p) = (a.to_binary(), p.to_binary());
                a == p || self.supertypes.get(&a).is_some_and(|s| s.contains(&p))
            }
            _ => false,
        }
    }

    /// Whether a value of type `arg` may be passed for a parameter of type
    /// `param` (`true` where the facts cannot tell).
    fn may_convert(&self, arg: &FieldType, param: &FieldType) -> bool {
        match (arg, param) {
            (FieldType::Object(a), FieldType::Object(_)) => {
                !self.supertypes.contains_key(&a.to_binary()) || self.is_subtype(arg, param)
            }
            (FieldType::Object(a), FieldType::Base(_)) => is_box(&a.to_binary()),
            (FieldType::Array(_), FieldType::Object(p)) => {
                matches!(p.as_str(), "java/lang/Object" | "java/lang/Cloneable" | "java/io/Serializable")
            }
            (FieldType::Array(_), FieldType::Array(_)) => true,
            (FieldType::Object(_) | FieldType::Base(_), FieldType::Array(_))
            | (FieldType::Array(_), FieldType::Base(_)) => false,
            (FieldType::Base(_), _) => true,
        }
    }
}

/// Whether `class` is one of the boxes of the primitive types.
fn is_box(class: &BinaryName) -> bool {
    matches!(
        class.as_str(),
        "java.lang.Boolean"
            | "java.lang.Byte"
            | "java.lang.Short"
            | "java.lang.Character"
            | "java.lang.Integer"
            | "java.lang.Long"
            | "java.lang.Float"
            | "java.lang.Double"
    )
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
        assert!(facts.needs_cast(&area, &o("demo.Circle"), &o("demo.Shape"), true), "nothing known");
        facts.keeps_casts.insert((BinaryName::new("demo.Shape"), "area".into(), 1), false);
        assert!(facts.needs_cast(&area, &o("demo.Circle"), &o("demo.Shape"), true), "supertypes unknown");
        let supers = ["demo.Shape", "java.lang.Object"].map(BinaryName::new).into_iter().collect();
        facts.supertypes.insert(BinaryName::new("demo.Circle"), supers);
        assert!(!facts.needs_cast(&area, &o("demo.Circle"), &o("demo.Shape"), true));
        assert!(facts.needs_cast(&area, &o("java.lang.Object"), &o("demo.Shape"), true), "a downcast stays");
        facts.keeps_casts.insert((BinaryName::new("demo.Shape"), "area".into(), 1), true);
        assert!(facts.needs_cast(&area, &o("demo.Circle"), &o("demo.Shape"), true), "an overload decides");
    }

    #[test]
    fn a_null_goes_without_a_cast_only_where_no_other_overload_of_its_arity_is() {
        let describe = MethodRef::parse("demo.Shape", "describe", "(Ljava/lang/Object;)Ljava/lang/String;").unwrap();
        let key = (BinaryName::new("demo.Shape"), "describe".to_string(), 1);
        let mut facts = CastFacts::default();
        assert!(facts.null_needs_cast(&describe), "nothing known");
        facts.keeps_casts.insert(key.clone(), false);
        assert!(!facts.null_needs_cast(&describe));
        facts.rivals.insert(key.clone(), vec![]);
        assert!(!facts.null_needs_cast(&describe));
        facts.rivals.insert(key.clone(), vec![vec![o("java.lang.String")]]);
        assert!(facts.null_needs_cast(&describe), "describe(String) would take null too");
        facts.rivals.remove(&key);
        facts.keeps_casts.insert(key, true);
        assert!(facts.null_needs_cast(&describe), "a varargs rival or a generic parameter");
    }

    /// `new XZOutputStream(out, options)` beside `XZOutputStream(OutputStream,
    /// FilterOptions[])`: no `LZMA2Options` is an array, so the casts go;
    /// beside a rival taking `Object`, or with supertypes unknown, they stay.
    #[test]
    fn a_cast_is_left_out_when_no_rival_overload_could_take_the_arguments() {
        let init = MethodRef::parse("demo.Out", "<init>", "(Ljava/io/OutputStream;Ldemo/Options;)V").unwrap();
        let key = (BinaryName::new("demo.Out"), "<init>".to_string(), 2);
        let mut facts = CastFacts::default();
        facts.keeps_casts.insert(key.clone(), false);
        let array = FieldType::parse("[Ldemo/Options;").unwrap();
        facts.rivals.insert(key.clone(), vec![vec![o("java.io.OutputStream"), array]]);
        let args = [o("java.io.FileOutputStream"), o("demo.Lzma")];
        assert!(facts.resolves_alone(&init, &args), "no class is an array, whatever its supertypes");
        let supers = |names: &[&str]| names.iter().map(|n| BinaryName::new(*n)).collect();
        let stream = supers(&["java.io.OutputStream", "java.io.Closeable", "java.lang.Object"]);
        facts.supertypes.insert(BinaryName::new("java.io.FileOutputStream"), stream);
        facts.supertypes.insert(BinaryName::new("demo.Lzma"), supers(&["demo.Options", "java.lang.Object"]));
        assert!(facts.resolves_alone(&init, &args));
        assert!(!facts.needs_cast(&init, &args[1], &o("demo.Options"), true));
        assert!(facts.needs_cast(&init, &args[1], &o("demo.Options"), false), "not alone");
        facts.rivals.insert(key.clone(), vec![vec![o("java.io.OutputStream"), o("java.lang.Object")]]);
        assert!(!facts.resolves_alone(&init, &args), "a rival takes any object second");
        let primitive = [o("java.io.FileOutputStream"), FieldType::parse("I").unwrap()];
        assert!(!facts.resolves_alone(&init, &primitive), "an int boxes to an Object");
        facts.rivals.insert(key.clone(), vec![vec![o("java.io.OutputStream"), o("demo.Other")]]);
        assert!(facts.resolves_alone(&init, &args), "an Lzma is no Other");
        facts.supertypes.remove(&BinaryName::new("demo.Lzma"));
        assert!(!facts.resolves_alone(&init, &args), "supertypes unknown");
    }
}
