//! The contracts (Palus, Randoop's `ObjectContracts`; the `java.lang.Object`
//! and `java.lang.Comparable` Javadoc), the methods they are about, and
//! how sure a violation of each is a bug.

use testcase::MethodRef;

/// A method a contract is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Method {
    /// `equals(Object)`.
    Equals,
    /// `hashCode()`.
    HashCode,
    /// `toString()`.
    ToString,
    /// `compareTo(T)` of `Comparable`.
    CompareTo,
}

impl Method {
    /// The JVM descriptor of `java.lang.Object`'s method (`None` for
    /// `compareTo`, whose parameter is the class's own type).
    pub fn object_descriptor(self) -> Option<&'static str> {
        match self {
            Method::Equals => Some("(Ljava/lang/Object;)Z"),
            Method::HashCode => Some("()I"),
            Method::ToString => Some("()Ljava/lang/String;"),
            Method::CompareTo => None,
        }
    }

    /// The method's name.
    pub fn name(self) -> &'static str {
        match self {
            Method::Equals => "equals",
            Method::HashCode => "hashCode",
            Method::ToString => "toString",
            Method::CompareTo => "compareTo",
        }
    }

    /// `java.lang.Object`'s method, called virtually (so the class's own
    /// runs); `None` for `compareTo`.
    pub fn object_method(self) -> Option<MethodRef> {
        MethodRef::parse("java.lang.Object", self.name(), self.object_descriptor()?).ok()
    }

    /// The contract method of that name.
    pub fn by_name(name: &str) -> Option<Method> {
        [Method::Equals, Method::HashCode, Method::ToString, Method::CompareTo].into_iter().find(|m| m.name() == name)
    }

    /// The contract method a call of `method` is, if any: `equals`,
    /// `hashCode` and `toString` by `Object`'s descriptors, `compareTo` by
    /// its shape (one reference parameter, returning `int`).
    pub fn of_call(method: &MethodRef) -> Option<Method> {
        let descriptor = method.descriptor.to_descriptor();
        let found = [Method::Equals, Method::HashCode, Method::ToString]
            .into_iter()
            .find(|m| m.name() == method.name && m.object_descriptor() == Some(descriptor.as_str()));
        let compare = method.name == "compareTo"
            && method.descriptor.params.len() == 1
            && method.descriptor.params[0].is_reference()
            && descriptor.ends_with(")I");
        found.or(compare.then_some(Method::CompareTo))
    }
}

/// One contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Contract {
    /// `x.equals(x)` is true.
    EqualsReflexive,
    /// `x.equals(null)` is false.
    EqualsNull,
    /// `equals` throws nothing.
    EqualsThrows,
    /// `hashCode()` throws nothing.
    HashCodeThrows,
    /// `toString()` throws nothing.
    ToStringThrows,
    /// `x.equals(y)` implies `x.hashCode() == y.hashCode()`.
    HashCodeConsistent,
    /// `x.equals(y)` is `y.equals(x)`.
    EqualsSymmetric,
    /// `x.compareTo(x) == 0`.
    CompareToReflexive,
    /// `sgn(x.compareTo(y)) == -sgn(y.compareTo(x))`.
    CompareToAntisymmetric,
    /// `x.compareTo(y) == 0` exactly when `x.equals(y)` (only "strongly
    /// recommended" by `Comparable`'s documentation).
    CompareToConsistent,
}

impl Contract {
    /// Every contract, in the order findings are reported.
    pub const ALL: [Contract; 10] = [
        Contract::EqualsReflexive,
        Contract::EqualsNull,
        Contract::EqualsThrows,
        Contract::HashCodeThrows,
        Contract::ToStringThrows,
        Contract::HashCodeConsistent,
        Contract::EqualsSymmetric,
        Contract::CompareToReflexive,
        Contract::CompareToAntisymmetric,
        Contract::CompareToConsistent,
    ];

    /// Its name in logs: `equals-reflexive`.
    pub fn name(self) -> &'static str {
        match self {
            Contract::EqualsReflexive => "equals-reflexive",
            Contract::EqualsNull => "equals-null",
            Contract::EqualsThrows => "equals-throws",
            Contract::HashCodeThrows => "hashcode-throws",
            Contract::ToStringThrows => "tostring-throws",
            Contract::HashCodeConsistent => "hashcode-consistent",
            Contract::EqualsSymmetric => "equals-symmetric",
            Contract::CompareToReflexive => "compareto-reflexive",
            Contract::CompareToAntisymmetric => "compareto-antisymmetric",
            Contract::CompareToConsistent => "compareto-consistent",
        }
    }

    /// The method whose code breaks it (the finding's method).
    pub fn method(self) -> Method {
        match self {
            Contract::EqualsReflexive | Contract::EqualsNull | Contract::EqualsThrows | Contract::EqualsSymmetric => {
                Method::Equals
            }
            Contract::HashCodeThrows | Contract::HashCodeConsistent => Method::HashCode,
            Contract::ToStringThrows => Method::ToString,
            Contract::CompareToReflexive | Contract::CompareToAntisymmetric | Contract::CompareToConsistent => {
                Method::CompareTo
            }
        }
    }

    /// The contract a throwing call of `method` breaks (`None` for
    /// `compareTo`: `Comparable` allows it to throw, `ClassCastException`
    /// and `NullPointerException` by name).
    pub fn throwing(method: Method) -> Option<Contract> {
        match method {
            Method::Equals => Some(Contract::EqualsThrows),
            Method::HashCode => Some(Contract::HashCodeThrows),
            Method::ToString => Some(Contract::ToStringThrows),
            Method::CompareTo => None,
        }
    }

    /// How sure a violation is a bug, before the discounts of
    /// [`confidence`]: 1 for what `Object`'s and `Comparable`'s documentation
    /// requires, 0.4 for the consistency of `compareTo` with `equals`, which
    /// it only recommends (`BigDecimal` breaks it on purpose).
    pub fn base_confidence(self) -> f64 {
        match self {
            Contract::CompareToConsistent => 0.4,
            _ => 1.0,
        }
    }
}

/// What makes a violation less likely a bug.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Doubts<'a> {
    /// An object involved was made, or changed by a call, with a `null`
    /// argument: the class may simply not support `null` there, as many
    /// constructors document.
    pub null_argument: bool,
    /// The class is not public: its objects are made by the code of its
    /// package, which may keep invariants a test that makes one does not
    /// (a map's internal node made with a `null` key).
    pub hidden_class: bool,
    /// The exception came out of another class's code the object called
    /// ([`crate::judge::thrown_by_other_code`]).
    pub other_code: bool,
    /// The exception the method threw, if any: an
    /// `UnsupportedOperationException` is a refusal by design (some views
    /// and mutable keys refuse `hashCode`).
    pub exception: Option<&'a str>,
}

/// The confidence of a violation of `contract`: its base
/// ([`Contract::base_confidence`]), halved for each of the [`Doubts`] that holds.
pub fn confidence(contract: Contract, doubts: Doubts<'_>) -> f64 {
    let unsupported = doubts.exception == Some("java.lang.UnsupportedOperationException");
    let halvings =
        [doubts.null_argument, doubts.hidden_class, doubts.other_code, unsupported].iter().filter(|d| **d).count();
    contract.base_confidence() / f64::from(1u32 << halvings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::m;

    #[test]
    fn calls_of_contract_methods_are_told_by_name_and_descriptor() {
        assert_eq!(Method::of_call(&m("p.Foo", "equals", "(Ljava/lang/Object;)Z")), Some(Method::Equals));
        assert_eq!(Method::of_call(&m("p.Foo", "equals", "(Lp/Foo;)Z")), None, "an overload is not the contract");
        assert_eq!(Method::of_call(&m("p.Foo", "hashCode", "()I")), Some(Method::HashCode));
        assert_eq!(Method::of_call(&m("p.Foo", "toString", "()Ljava/lang/String;")), Some(Method::ToString));
        assert_eq!(Method::of_call(&m("p.Foo", "toString", "(I)Ljava/lang/String;")), None);
        assert_eq!(Method::of_call(&m("p.Foo", "compareTo", "(Lp/Foo;)I")), Some(Method::CompareTo));
        assert_eq!(Method::of_call(&m("p.Foo", "compareTo", "(I)I")), None);
    }

    #[test]
    fn every_contract_has_a_distinct_name_and_its_method() {
        let names: std::collections::BTreeSet<&str> = Contract::ALL.iter().map(|c| c.name()).collect();
        assert_eq!(names.len(), Contract::ALL.len());
        assert_eq!(Contract::HashCodeConsistent.method(), Method::HashCode);
        assert_eq!(Contract::throwing(Method::CompareTo), None);
    }

    #[test]
    fn confidence_is_lower_for_null_arguments_hidden_classes_unsupported_operations_and_recommendations() {
        let none = Doubts::default();
        assert_eq!(confidence(Contract::EqualsReflexive, none), 1.0);
        let npe = Some("java.lang.NullPointerException");
        assert_eq!(confidence(Contract::ToStringThrows, Doubts { null_argument: true, exception: npe, ..none }), 0.5);
        let unsupported = Some("java.lang.UnsupportedOperationException");
        assert_eq!(confidence(Contract::HashCodeThrows, Doubts { exception: unsupported, ..none }), 0.5);
        let both = Doubts { null_argument: true, hidden_class: true, ..none };
        assert_eq!(confidence(Contract::HashCodeThrows, both), 0.25);
        assert_eq!(confidence(Contract::CompareToConsistent, none), 0.4);
    }
}
