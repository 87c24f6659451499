//! Which executed tests witness a potential violation: the documented
//! exception was thrown by the documented method, called at the violation's
//! site, and escaped a public method of the class under test that does not
//! declare it (KAT, Ren et al. ESEC/FSE 2023, section 3.3: a covering test
//! is a bug witness when the API's exception escapes undeclared and
//! unhandled).
//!
//! An exception that a JDK supertype documents for the method the class
//! overrides (`IndexOutOfBoundsException` from the `get(int)` of a `List`)
//! is the contract the class implements, like a declared one: no witness.
//!
//! Exceptions the test itself causes are not witnesses:
//! - a `ClassCastException` or `ArrayStoreException` that escapes a method
//!   whose parameter types are parameterized (`contains(T)`,
//!   `intersectionWith(Range<T>)`, `Collection<Observer>`): generated tests
//!   call generic methods through their erasure (raw or bound types), so they
//!   can pass values that a caller respecting the type arguments could not
//!   (heap pollution), and the cast fails because of the test;
//! - an exception thrown inside one of the test's own lambdas (a frame of the
//!   worker's lambda proxies between the throw and the site): a comparator
//!   that compares in natural order fails on objects that are not
//!   `Comparable` because of the test, not the class.

use exec::{ExceptionInfo, StackFrame, StatementOutcome};
use kat::KnowledgeGraph;
use model::access;
use model::classpath::ClassPath;
use model::names::{BinaryName, InternalName};
use model::signature::{JavaType, TypeArg};
use testcase::TestCase;

use crate::check::Violation;

/// How deep a superclass chain is followed.
const MAX_SUPERCLASSES: usize = 32;

/// A call site that can violate a condition: the potential violations of
/// one call in one class, grouped (one finding per call and exception).
#[derive(Debug, Clone)]
pub struct Site {
    /// The class that holds the call (the class under test or a nested class).
    pub class: BinaryName,
    /// Its source file.
    pub source_file: Option<String>,
    /// The violations of this call (same method, bytecode index and exception).
    pub violations: Vec<Violation>,
}

impl Site {
    fn first(&self) -> &Violation {
        &self.violations[0]
    }

    /// `File.java:LINE`, or `method@bci` without a line table.
    pub fn location(&self) -> String {
        self.first().location(self.source_file.as_deref())
    }
}

/// Groups the potential bugs (sat, not caught where called) of `violations`
/// of class `class` by call site and exception.
pub fn sites(class: &BinaryName, source_file: Option<&str>, violations: &[Violation]) -> Vec<Site> {
    let mut out: Vec<Site> = Vec::new();
    for v in violations.iter().filter(|v| v.is_potential_bug()) {
        let same = |s: &&mut Site| {
            let f = s.first();
            f.method == v.method && f.descriptor == v.descriptor && f.bci == v.bci && f.exception == v.exception
        };
        match out.iter_mut().find(same) {
            Some(site) => site.violations.push(v.clone()),
            None => out.push(Site {
                class: class.clone(),
                source_file: source_file.map(str::to_string),
                violations: vec![v.clone()],
            }),
        }
    }
    out
}

/// What a witness test shows.
#[derive(Debug, Clone)]
pub struct Witness {
    /// `name(descriptor)` of the public method of the class under test the
    /// exception escaped from.
    pub public_method: String,
    /// The exception, as thrown.
    pub exception: ExceptionInfo,
}

/// Whether the test `test` with statement outcomes `outcomes` witnesses
/// `site`: its last statement calls a public method of `cut` (or of one of
/// its nested classes) that does not declare the exception, and threw the
/// documented exception (or a subclass) out of the documented method
/// called at the site.
pub fn witness(
    cp: &ClassPath,
    graph: &KnowledgeGraph,
    cut: &BinaryName,
    test: &TestCase,
    outcomes: &[StatementOutcome],
    site: &Site,
) -> Option<Witness> {
    let (index, info) = outcomes.iter().enumerate().find_map(|(i, o)| match o {
        StatementOutcome::Threw(info) => Some((i, info)),
        _ => None,
    })?;
    let called = test.statements.get(index)?.kind.called_method()?;
    let owner = called.owner.as_str();
    if owner != cut.as_str() && !owner.starts_with(&format!("{cut}$")) {
        return None;
    }
    let expected = InternalName::new(site.first().exception.clone());
    if !is_subclass(cp, &info.class, &expected) || !thrown_at(&info.frames, site) {
        return None;
    }
    let descriptor = called.descriptor.to_descriptor();
    let class = cp.load(owner).ok()?;
    let member = class
        .methods
        .iter()
        .find(|m| class.member_name(m) == called.name && class.member_descriptor(m) == descriptor)?;
    let polluted = ["java/lang/ClassCastException", "java/lang/ArrayStoreException"]
        .iter()
        .any(|e| is_subclass(cp, &info.class, &InternalName::new(*e)));
    if (polluted && has_generic_parameters(&class, member)) || thrown_in_test_lambda(&info.frames, site) {
        return None;
    }
    let declared = class.declared_exceptions(member);
    let is_declared = declared.iter().any(|d| is_subclass(cp, &info.class, d))
        || documented_by_supertype(cp, graph, owner, called.name.as_str(), &descriptor, &info.class);
    (member.access & access::PUBLIC != 0 && !is_declared)
        .then(|| Witness { public_method: format!("{}{descriptor}", called.name), exception: info.clone() })
}

/// Whether a JDK supertype of `class` documents `thrown` (or a superclass
/// of it) for a method `name` with as many parameters as `descriptor` (the
/// method `class` overrides): the
/// exception is then the contract the class implements (`get(int)` of a
/// `List` throws `IndexOutOfBoundsException`), not a misuse.
pub fn documented_by_supertype(
    cp: &ClassPath,
    graph: &KnowledgeGraph,
    class: &str,
    name: &str,
    descriptor: &str,
    thrown: &BinaryName,
) -> bool {
    let Ok(supertypes) = model::hierarchy::Supertypes::of(cp, class) else { return false };
    let arity = |d: &str| model::descriptor::MethodDescriptor::parse(d).map(|d| d.params.len()).ok();
    let Some(n) = arity(descriptor) else { return false };
    supertypes.iter().flat_map(|s| graph.lookup_order(s.to_internal().as_str())).any(|c| {
        // Generic parameters and covariant results change the descriptor
        // of an override: the name and the number of parameters decide.
        c.methods.iter().filter(|d| d.name == name && arity(&d.descriptor) == Some(n)).any(|d| {
            d.clauses.iter().any(|c| match &c.origin {
                kat::Origin::Throws(e) => is_subclass(cp, thrown, e),
                kat::Origin::Returns(_) => false,
            })
        })
    })
}

/// Whether a frame between the throw and the site's frame belongs to a
/// lambda of the test (the worker's `ferrosuite.runtime.Lambdas` proxies,
/// `jdk.proxy*`/`$Proxy` classes).
fn thrown_in_test_lambda(frames: &[StackFrame], site: &Site) -> bool {
    let Some(p) = frames.iter().position(|f| f.class == site.class.as_str()) else { return false };
    frames[..p].iter().any(|f| {
        f.class.starts_with("ferrosuite.runtime.") || f.class.starts_with("jdk.proxy") || f.class.contains("$Proxy")
    })
}

/// Whether a parameter type of `member`, a method of `class`, is
/// parameterized: a type variable, or a type with type arguments other than
/// `?` (its `Signature` attribute; no signature: not generic).
pub fn has_generic_parameters(class: &model::classfile::ClassFile, member: &model::classfile::Member) -> bool {
    let Some(signature) = class.signature(&member.attributes) else { return false };
    let Ok(parsed) = model::signature::parse_method_signature(signature) else { return false };
    parsed.params.iter().any(is_parameterized)
}

fn is_parameterized(t: &JavaType) -> bool {
    match t {
        JavaType::TypeVar(_) => true,
        JavaType::Array(component) => is_parameterized(component),
        JavaType::Class(c) => {
            c.args.iter().chain(c.outer_args.iter().flatten()).any(|a| !matches!(a, TypeArg::Wildcard))
        }
        JavaType::Base(_) | JavaType::Void => false,
    }
}

/// Whether the stack shows the documented method called at the site: the
/// innermost frame of the site's class is the site's method at its line,
/// and the frame inside it is the documented method.
fn thrown_at(frames: &[StackFrame], site: &Site) -> bool {
    let Some(p) = frames.iter().position(|f| f.class == site.class.as_str()) else { return false };
    let v = site.first();
    let at_site = frames[p].method == v.method && (v.line.is_none() || frames[p].line == v.line.map(u32::from));
    at_site && p > 0 && frames[p - 1].method == v.api_method
}

/// Whether class `class` is `ancestor` or a subclass of it, as far as the
/// class path knows the chain.
pub(crate) fn is_subclass(cp: &ClassPath, class: &BinaryName, ancestor: &InternalName) -> bool {
    let mut at = class.to_internal();
    for _ in 0..MAX_SUPERCLASSES {
        if &at == ancestor {
            return true;
        }
        let Some(next) = cp.load(at.to_binary().as_str()).ok().and_then(|c| c.super_name().map(InternalName::new))
        else {
            return false;
        };
        at = next;
    }
    false
}

/// The stack frames as text, innermost first, up to the frame of the
/// public method: `java.lang.String.charAt:1515`.
pub fn trace(info: &ExceptionInfo, public_method: &str) -> Vec<String> {
    let name = public_method.split('(').next().unwrap_or(public_method);
    let mut out = Vec::new();
    for f in &info.frames {
        out.push(f.to_string());
        if f.method == name && !f.class.starts_with("java.") {
            break;
        }
    }
    out
}
