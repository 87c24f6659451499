//! Which contracts the outcomes of a plan's checks break: a pure function
//! of the checks, their outcomes, the runtime classes of the objects and
//! the contract methods each class has from the user's code
//! ([`crate::facts::Declared`]). A contract is judged only on objects of a
//! user's class that has its method from the user's code, and a pair only
//! on two objects of one runtime class.

use std::collections::BTreeMap;

use exec::{ExceptionInfo, ValueSummary};
use model::names::BinaryName;
use testcase::Primitive;
use testcase::assertion::Literal;

use crate::contract::{Contract, Method};
use crate::facts::Declared;
use crate::probe::{Check, Obj, Outcome};

/// What a witness asserts about one of its checks.
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    /// Nothing (a value another assertion compares with).
    Nothing,
    /// The value.
    Value(Literal),
    /// The exception (the witness ends there).
    Throws(BinaryName),
    /// A value different from that of the check at this index of the steps.
    DiffersFrom(usize),
}

/// A broken contract, with the checks that show it.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// The runtime class of the objects.
    pub class: BinaryName,
    /// The contract.
    pub contract: Contract,
    /// The checks a witness repeats, in order, each with what it asserts.
    pub steps: Vec<(Check, Expect)>,
    /// The exception, when a check threw.
    pub exception: Option<ExceptionInfo>,
}

/// What the judge reads.
pub struct Evidence<'a> {
    /// The checks.
    pub checks: &'a [Check],
    /// The outcome of each check that ended (by index into `checks`).
    pub outcomes: &'a BTreeMap<usize, Outcome>,
    /// The runtime class of each object (`None` for `null`).
    pub classes: &'a BTreeMap<Obj, Option<BinaryName>>,
    /// The contract methods of each user's class among them (absent: not a user's class).
    pub declared: &'a BTreeMap<BinaryName, Declared>,
}

impl Evidence<'_> {
    /// The class of `o` when it is a user's class that has `method` from the user's code.
    fn class_with(&self, o: Obj, method: Method) -> Option<&BinaryName> {
        let class = self.classes.get(&o)?.as_ref()?;
        self.declared.get(class).filter(|d| d.declares(method)).map(|_| class)
    }

    /// The value of the check that is exactly `check`.
    fn value(&self, check: &Check) -> Option<&ValueSummary> {
        let k = self.checks.iter().position(|c| c == check)?;
        match self.outcomes.get(&k)? {
            Outcome::Value(v) => Some(v),
            _ => None,
        }
    }

    /// The common runtime class of `a` and `b`, when it has one of `methods` from the user's code.
    fn pair_class(&self, a: Obj, b: Obj, methods: &[Method]) -> Option<&BinaryName> {
        let class = self.classes.get(&a)?.as_ref()?;
        let same = self.classes.get(&b)?.as_ref() == Some(class);
        let declared = self.declared.get(class)?;
        (same && methods.iter().any(|m| declared.declares(*m))).then_some(class)
    }
}

/// The violations the evidence shows (possibly several of one contract).
pub fn judge(e: &Evidence<'_>) -> Vec<Violation> {
    let mut out = Vec::new();
    for (k, check) in e.checks.iter().enumerate() {
        match e.outcomes.get(&k) {
            Some(Outcome::Threw(x)) => out.extend(thrown(e, check, x)),
            Some(Outcome::Value(v)) => {
                out.extend(single(e, check, v));
                out.extend(pair(e, check, v));
            }
            _ => {}
        }
    }
    out
}

/// A check that threw: `equals`, `hashCode` and `toString` must not,
/// unless the exception came out of a contract method of another class
/// (an element's `hashCode` that throws, called by a container's): that
/// is the other class's violation.
fn thrown(e: &Evidence<'_>, check: &Check, x: &ExceptionInfo) -> Option<Violation> {
    let contract = Contract::throwing(check.method())?;
    let class = e.class_with(check.receiver(), check.method())?.clone();
    if thrown_elsewhere(&x.frames, &e.declared.get(&class)?.chain, check.method()).is_some() {
        return None;
    }
    let steps = vec![(check.clone(), Expect::Throws(x.class.clone()))];
    Some(Violation { class, contract, steps, exception: Some(x.clone()) })
}

/// The contracts of one object: `x.equals(x)`, `!x.equals(null)`, `x.compareTo(x) == 0`.
fn single(e: &Evidence<'_>, check: &Check, v: &ValueSummary) -> Option<Violation> {
    let (contract, expect) = match (check, v) {
        (Check::Equals(a, Some(b)), ValueSummary::Boolean(false)) if a == b => {
            (Contract::EqualsReflexive, Expect::Value(Literal::Primitive(Primitive::Boolean(false))))
        }
        (Check::Equals(_, None), ValueSummary::Boolean(true)) => {
            (Contract::EqualsNull, Expect::Value(Literal::Primitive(Primitive::Boolean(true))))
        }
        (Check::CompareTo(a, b, _), ValueSummary::Integer(c)) if a == b && *c != 0 => {
            (Contract::CompareToReflexive, Expect::Value(int(*c)))
        }
        _ => return None,
    };
    let class = e.class_with(check.receiver(), check.method())?.clone();
    Some(Violation { class, contract, steps: vec![(check.clone(), expect)], exception: None })
}

/// The contracts of two objects of one class, judged at `a.equals(b)` and
/// `a.compareTo(b)` with `a` before `b`.
fn pair(e: &Evidence<'_>, check: &Check, v: &ValueSummary) -> Vec<Violation> {
    let mut out = Vec::new();
    match (check, v) {
        (Check::Equals(a, Some(b)), ValueSummary::Boolean(equal)) if a < b => {
            let Some(class) = e.pair_class(*a, *b, &[Method::Equals, Method::HashCode]) else { return out };
            let equals = Expect::Value(Literal::Primitive(Primitive::Boolean(*equal)));
            let (ha, hb) = (e.value(&Check::HashCode(*a)), e.value(&Check::HashCode(*b)));
            if *equal && ha.is_some() && hb.is_some() && ha != hb {
                let steps = vec![
                    (check.clone(), equals.clone()),
                    (Check::HashCode(*a), Expect::Nothing),
                    (Check::HashCode(*b), Expect::DiffersFrom(1)),
                ];
                out.push(Violation {
                    class: class.clone(),
                    contract: Contract::HashCodeConsistent,
                    steps,
                    exception: None,
                });
            }
            let back = Check::Equals(*b, Some(*a));
            if let Some(ValueSummary::Boolean(other)) = e.value(&back)
                && other != equal
                && e.pair_class(*a, *b, &[Method::Equals]).is_some()
            {
                let steps = vec![
                    (check.clone(), equals),
                    (back, Expect::Value(Literal::Primitive(Primitive::Boolean(*other)))),
                ];
                out.push(Violation {
                    class: class.clone(),
                    contract: Contract::EqualsSymmetric,
                    steps,
                    exception: None,
                });
            }
        }
        (Check::CompareTo(a, b, m), ValueSummary::Integer(c)) if a < b => {
            let Some(class) = e.pair_class(*a, *b, &[Method::CompareTo]) else { return out };
            let back = Check::CompareTo(*b, *a, m.clone());
            if let Some(ValueSummary::Integer(d)) = e.value(&back)
                && c.signum() != -d.signum()
            {
                let steps = vec![(check.clone(), Expect::Value(int(*c))), (back, Expect::Value(int(*d)))];
                out.push(Violation {
                    class: class.clone(),
                    contract: Contract::CompareToAntisymmetric,
                    steps,
                    exception: None,
                });
            }
            let equals = Check::Equals(*a, Some(*b));
            if let Some(ValueSummary::Boolean(equal)) = e.value(&equals)
                && (*c == 0) != *equal
            {
                let steps = vec![
                    (equals, Expect::Value(Literal::Primitive(Primitive::Boolean(*equal)))),
                    (check.clone(), Expect::Value(int(*c))),
                ];
                out.push(Violation {
                    class: class.clone(),
                    contract: Contract::CompareToConsistent,
                    steps,
                    exception: None,
                });
            }
        }
        _ => {}
    }
    out
}

/// Where an exception came from when not from the receiver's code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Elsewhere {
    /// The class of the frame it came out of.
    pub class: BinaryName,
    /// The contract method of that frame, when it is one (an element's `hashCode`).
    pub method: Option<Method>,
}

/// Where an exception thrown by a call of `called` came from when it is
/// not the receiver's own doing: out of a contract method of a class
/// outside the receiver's (an element's `hashCode` a container's calls),
/// or, for `equals`, out of any code outside the receiver's (the
/// argument's `getValue()` that `Map.Entry.equals` calls). The receiver's
/// code is that of the classes of `chain` (its class and user superclasses)
/// and their nests (nested classes and enclosing class); `frames` are
/// innermost first. An exception whose innermost frames are the JDK's
/// counts as the receiver's.
pub fn thrown_elsewhere(frames: &[exec::StackFrame], chain: &[BinaryName], called: Method) -> Option<Elsewhere> {
    let own = |c: &str| is_own(chain, c);
    let mut foreign = frames.iter().filter(|f| !is_jdk(&f.class) && !own(&f.class));
    if let Some(f) = foreign.find(|f| Method::by_name(&f.method).is_some()) {
        return Some(Elsewhere { class: BinaryName::new(f.class.as_str()), method: Method::by_name(&f.method) });
    }
    let innermost = frames.iter().find(|f| !is_jdk(&f.class))?;
    (called == Method::Equals && !own(&innermost.class))
        .then(|| Elsewhere { class: BinaryName::new(innermost.class.as_str()), method: None })
}

/// Whether code of `class` is the receiver's: a class of `chain` (its
/// class and user superclasses) or of their nests (nested and enclosing classes).
fn is_own(chain: &[BinaryName], class: &str) -> bool {
    let top = |c: &str| c.split('$').next().unwrap_or(c).to_string();
    chain.iter().any(|k| top(k.as_str()) == top(class))
}

/// Whether an exception was thrown by code of a user's class other than
/// the receiver's (its innermost frame outside the JDK is another class's):
/// the object called code that rejected what it holds (a `TiedMapEntry`
/// whose map refuses its key), which may be how that object was made.
pub fn thrown_by_other_code(frames: &[exec::StackFrame], chain: &[BinaryName]) -> bool {
    frames.iter().find(|f| !is_jdk(&f.class)).is_some_and(|f| !is_own(chain, &f.class))
}

/// Whether a frame's class is the JDK's (or ferrosuite's runtime, whose
/// `Environment.hashCode` stands in for calls the class under test makes).
fn is_jdk(class: &str) -> bool {
    ["java.", "javax.", "jdk.", "sun.", "com.sun.", "ferrosuite.runtime."].iter().any(|p| class.starts_with(p))
}

/// An `int` literal of an observed `compareTo` result.
fn int(c: i64) -> Literal {
    Literal::Primitive(Primitive::Int(i32::try_from(c).unwrap_or(if c < 0 { i32::MIN } else { i32::MAX })))
}

#[cfg(test)]
mod tests {
    use testcase::{MethodRef, VarId};

    use super::*;

    const FOO: &str = "p.Foo";

    fn declared(methods: &[Method]) -> BTreeMap<BinaryName, Declared> {
        let by = methods.iter().map(|m| (*m, BinaryName::new(FOO))).collect();
        BTreeMap::from([(BinaryName::new(FOO), Declared { by, chain: vec![BinaryName::new(FOO)] })])
    }

    fn b(v: bool) -> Outcome {
        Outcome::Value(ValueSummary::Boolean(v))
    }

    fn i(v: i64) -> Outcome {
        Outcome::Value(ValueSummary::Integer(v))
    }

    /// The contracts `checks` with `outcomes` break, on objects of class `p.Foo` having `methods`.
    fn broken(checks: &[Check], outcomes: Vec<Outcome>, methods: &[Method]) -> Vec<&'static str> {
        let outcomes: BTreeMap<usize, Outcome> = outcomes.into_iter().enumerate().collect();
        let objects = checks.iter().flat_map(Check::objects);
        let classes = objects.map(|o| (o, Some(BinaryName::new(FOO)))).collect();
        let declared = declared(methods);
        let e = Evidence { checks, outcomes: &outcomes, classes: &classes, declared: &declared };
        judge(&e).iter().map(|v| v.contract.name()).collect()
    }

    const X: Obj = Obj::Var(VarId(1));
    const Y: Obj = Obj::Twin(VarId(1));
    const ALL: [Method; 4] = [Method::Equals, Method::HashCode, Method::ToString, Method::CompareTo];

    fn compare(a: Obj, b: Obj) -> Check {
        Check::CompareTo(a, b, MethodRef::parse(FOO, "compareTo", "(Lp/Foo;)I").unwrap())
    }

    #[test]
    fn single_objects_break_reflexivity_null_and_throwing() {
        let checks = [Check::Equals(X, Some(X)), Check::Equals(X, None), compare(X, X)];
        assert_eq!(
            broken(&checks, vec![b(false), b(true), i(1)], &ALL),
            ["equals-reflexive", "equals-null", "compareto-reflexive"]
        );
        assert!(broken(&checks, vec![b(true), b(false), i(0)], &ALL).is_empty());
        let thrown = Outcome::Threw(ExceptionInfo {
            class: BinaryName::new("java.lang.NullPointerException"),
            message: None,
            direct: false,
            frames: vec![],
        });
        let checks = [Check::ToString(X), Check::HashCode(X), compare(X, Y)];
        let outcomes = vec![thrown.clone(), thrown.clone(), thrown];
        assert_eq!(broken(&checks, outcomes, &ALL), ["tostring-throws", "hashcode-throws"], "compareTo may throw");
    }

    #[test]
    fn an_exception_out_of_another_classs_contract_method_is_not_this_classs() {
        let frame =
            |class: &str, method: &str| exec::StackFrame { class: class.into(), method: method.into(), line: None };
        let thrown = |frames: Vec<exec::StackFrame>| {
            let class = BinaryName::new("java.lang.NullPointerException");
            Outcome::Threw(ExceptionInfo { class, message: None, direct: false, frames })
        };
        let element =
            vec![frame("p.Key", "getValue"), frame("p.Key", "hashCode"), frame("java.util.Objects", "hashCode")];
        let own = vec![frame("p.Foo", "get"), frame("java.util.Objects", "hashCode"), frame(FOO, "hashCode")];
        let checks = [Check::HashCode(X), Check::HashCode(Y)];
        assert_eq!(broken(&checks, vec![thrown(element), thrown(own.clone())], &ALL), ["hashcode-throws"]);
        // equals: the argument's code; a nested class of the receiver's is its own.
        let argument = vec![frame("p.Key", "getValue"), frame(FOO, "equals")];
        let nested = vec![frame("p.Foo$Node", "get"), frame(FOO, "equals")];
        let checks = [Check::Equals(X, Some(Y)), Check::Equals(Y, Some(X))];
        assert_eq!(broken(&checks, vec![thrown(argument), thrown(nested)], &ALL), ["equals-throws"]);
        let chain = [BinaryName::new(FOO)];
        let found = thrown_elsewhere(&[frame("p.Key", "getValue"), frame(FOO, "toString")], &chain, Method::ToString);
        assert_eq!(found, None, "toString that passes bad data to other code is its own bug");
    }

    #[test]
    fn methods_a_class_keeps_from_object_or_the_jdk_are_not_judged() {
        let checks = [Check::Equals(X, Some(X)), Check::Equals(X, None)];
        assert!(broken(&checks, vec![b(false), b(true)], &[Method::HashCode, Method::ToString]).is_empty());
    }

    #[test]
    fn pairs_break_hash_consistency_symmetry_and_antisymmetry() {
        let checks = [
            Check::HashCode(X),
            Check::HashCode(Y),
            Check::Equals(X, Some(Y)),
            Check::Equals(Y, Some(X)),
            compare(X, Y),
            compare(Y, X),
        ];
        let outcomes = vec![i(1), i(2), b(true), b(false), i(-1), i(-1)];
        assert_eq!(
            broken(&checks, outcomes, &ALL),
            ["hashcode-consistent", "equals-symmetric", "compareto-antisymmetric", "compareto-consistent"]
        );
        let outcomes = vec![i(7), i(7), b(true), b(true), i(0), i(0)];
        assert!(broken(&checks, outcomes, &ALL).is_empty());
        // Equal hash codes of unequal objects are allowed; so is a class that keeps Object's equals.
        let outcomes = vec![i(1), i(2), b(false), b(false), i(-1), i(1)];
        assert!(broken(&checks, outcomes, &[Method::ToString]).is_empty());
    }

    #[test]
    fn pairs_of_two_runtime_classes_are_not_judged() {
        let checks = [Check::HashCode(X), Check::HashCode(Y), Check::Equals(X, Some(Y))];
        let outcomes: BTreeMap<usize, Outcome> = [i(1), i(2), b(true)].into_iter().enumerate().collect();
        let classes = BTreeMap::from([(X, Some(BinaryName::new(FOO))), (Y, Some(BinaryName::new("p.SubFoo")))]);
        let declared = declared(&ALL);
        let e = Evidence { checks: &checks, outcomes: &outcomes, classes: &classes, declared: &declared };
        assert!(judge(&e).is_empty());
    }

    #[test]
    fn a_hash_violation_asserts_equality_then_different_hash_codes() {
        let checks = [Check::HashCode(X), Check::HashCode(Y), Check::Equals(X, Some(Y))];
        let outcomes: BTreeMap<usize, Outcome> = [i(1), i(2), b(true)].into_iter().enumerate().collect();
        let classes = checks.iter().flat_map(Check::objects).map(|o| (o, Some(BinaryName::new(FOO)))).collect();
        let declared = declared(&ALL);
        let e = Evidence { checks: &checks, outcomes: &outcomes, classes: &classes, declared: &declared };
        let v = &judge(&e)[0];
        let expects: Vec<&Expect> = v.steps.iter().map(|(_, e)| e).collect();
        assert_eq!(
            expects,
            [&Expect::Value(Literal::Primitive(Primitive::Boolean(true))), &Expect::Nothing, &Expect::DiffersFrom(1)]
        );
    }
}
