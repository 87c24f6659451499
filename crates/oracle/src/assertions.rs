//! Regression assertions from observed values (EvoSuite's assertion
//! generation; [`crate::mutants`] then keeps those that kill a mutant).
//!
//! A test is observed by executing it with extra statements appended: calls
//! of inspector methods (getters, `size()`, `isEmpty()`, `toString()` where
//! overridden, …) on the objects it made. The test is executed twice; a
//! value becomes an assertion only when both executions agree and it can
//! be written as a Java literal. Assertions check: the return values of
//! calls on the class under test, the inspectors of the objects of the
//! class under test, what was written into the in-memory sinks the test
//! made ([`SINKS`]: a `StringBuilder` a printer appended to), and the
//! exception the test ends with.

use std::collections::HashMap;

use exec::{ExceptionInfo, ExecutionResult, StatementOutcome, ValueSummary};
use model::classpath::ClassPath;
use model::descriptor::{BaseType, FieldType};
use model::hierarchy::{Supertypes, accessible_api};
use model::names::BinaryName;
use testcase::assertion::{Assertion, AssertionKind, Literal};
use testcase::{MethodRef, Primitive, Statement, StatementKind, TestCase, VarId};

/// Inspectors per class at most.
const MAX_INSPECTORS: usize = 8;
/// Assertions per test at most.
pub const MAX_ASSERTIONS: usize = 8;

/// In-memory sinks the test cluster makes for `Appendable`, `Writer` and
/// `OutputStream` parameters, with the inspector that shows what the class
/// under test wrote into them (the descriptor of a no-argument method).
pub const SINKS: [(&str, &str, &str); 3] = [
    ("java.lang.StringBuilder", "toString", "()Ljava/lang/String;"),
    ("java.io.StringWriter", "toString", "()Ljava/lang/String;"),
    ("java.io.ByteArrayOutputStream", "size", "()I"),
];

/// Finds and caches the inspector methods of classes.
pub struct Inspectors<'a> {
    cp: &'a ClassPath,
    cache: HashMap<String, Vec<MethodRef>>,
    /// The pure methods (name, descriptor) of each class asked about
    /// ([`analysis::purity::pure_methods`]).
    pure: HashMap<String, std::collections::BTreeSet<(String, String)>>,
}

/// An appended inspector call: which value it inspects, with what, and the
/// statement index of the call in the observed test.
#[derive(Debug, Clone)]
pub struct InspectorCall {
    /// The inspected value (a variable of the original test).
    pub var: VarId,
    /// The inspector method called on it.
    pub method: MethodRef,
    /// Index of the inspector call's statement in the observed test.
    pub at: usize,
    /// The argument of an `equals` call comparing two objects of the class
    /// under test (`var.equals(other)`); `None` for the inspectors without
    /// arguments.
    pub other: Option<VarId>,
}

impl<'a> Inspectors<'a> {
    /// Inspectors found on `cp` (which should include the JDK).
    pub fn new(cp: &'a ClassPath) -> Inspectors<'a> {
        Inspectors { cp, cache: HashMap::new(), pure: HashMap::new() }
    }

    /// Public instance methods of `class` without parameters that return a
    /// primitive or a `String` and look like inspectors: a record's
    /// component accessors first (`cents()`), then getters and the like,
    /// then the other methods of classes outside the JDK that change no
    /// state ([`analysis::purity`]: `width()`, `fits()`).
    pub fn of_class(&mut self, class: &str) -> Vec<MethodRef> {
        if let Some(m) = self.cache.get(class) {
            return m.clone();
        }
        let components = self.record_components(class);
        let api = accessible_api(self.cp, class).map(|api| api.methods).unwrap_or_default();
        let candidates = api
            .iter()
            .filter(|m| m.access & model::hierarchy::access::STATIC == 0 && m.descriptor.params.is_empty())
            .filter(|m| m.descriptor.ret.as_ref().is_some_and(is_literal_type));
        let mut methods = Vec::new();
        for m in candidates {
            let rank = if components.contains(&m.name) {
                0
            } else if is_inspector_name(&m.name, m.owner.as_str()) {
                1
            } else if !excluded_name(&m.name) && self.is_pure(m.owner.as_str(), &m.name, &m.descriptor.to_descriptor())
            {
                2
            } else {
                continue;
            };
            methods.push((rank, m));
        }
        methods.sort_by_key(|(rank, _)| *rank);
        let methods: Vec<_> = methods.into_iter().map(|(_, m)| m).collect();
        let found: Vec<MethodRef> = methods
            .into_iter()
            .take(MAX_INSPECTORS)
            .map(|m| MethodRef {
                owner: BinaryName::new(class),
                name: m.name.clone(),
                descriptor: m.descriptor.clone(),
            })
            .collect();
        self.cache.insert(class.to_string(), found.clone());
        found
    }

    /// Inspectors of a value of class `class` (binary name) that a call of
    /// the class under test returned: `size()` of a collection or map, its
    /// `toString()` where its iteration order is specified (lists, deques,
    /// sorted and linked sets and maps), `isPresent()` of an `Optional`,
    /// `toString()` of a `CharSequence`, `name()` of an enum constant,
    /// `getTypeName()` of a `Class` or other `Type`, and the inspectors of
    /// any other class ([`Self::of_class`]: getters, an overriding
    /// `toString()`). Each is
    /// called as a method of `class` itself, so the test needs no cast.
    pub fn of_returned(&mut self, class: &str) -> Vec<MethodRef> {
        let Ok(supers) = Supertypes::of(self.cp, class) else { return Vec::new() };
        let is = |name: &str| class == name || supers.iter().any(|s| s.as_str() == name);
        let method = |name: &str, descriptor: &str| MethodRef::parse(class, name, descriptor).ok();
        let ordered =
            ["java.util.List", "java.util.Deque", "java.util.SortedSet", "java.util.SortedMap"].iter().any(|c| is(c))
                || ["java.util.LinkedHashSet", "java.util.LinkedHashMap"].iter().any(|c| is(c));
        let found: Vec<Option<MethodRef>> = if is("java.util.Collection") || is("java.util.Map") {
            vec![method("size", "()I"), ordered.then(|| method("toString", "()Ljava/lang/String;")).flatten()]
        } else if is("java.util.Optional") {
            vec![method("isPresent", "()Z")]
        } else if is("java.lang.CharSequence") {
            vec![method("toString", "()Ljava/lang/String;")]
        } else if supers.superclasses.first().is_some_and(|s| s.as_str() == "java.lang.Enum") {
            vec![method("name", "()Ljava/lang/String;")]
        } else if is("java.lang.reflect.Type") {
            vec![method("getTypeName", "()Ljava/lang/String;")]
        } else {
            return self.of_class(class);
        };
        found.into_iter().flatten().collect()
    }

    /// `equals(Object)` of `class` when the class or a superclass outside
    /// the JDK overrides `Object`'s (the class defines equality).
    pub fn own_equals(&mut self, class: &str) -> Option<MethodRef> {
        let api = accessible_api(self.cp, class).ok()?;
        let equals = api
            .methods
            .iter()
            .find(|m| m.name == "equals" && m.descriptor.to_descriptor() == "(Ljava/lang/Object;)Z")?;
        (!testcase::cluster::is_jdk_class(equals.owner.as_str()))
            .then(|| MethodRef::parse(class, "equals", "(Ljava/lang/Object;)Z").ok())
            .flatten()
    }

    /// Whether method `name descriptor` of `owner` (a class outside the
    /// JDK) is pure ([`analysis::purity::pure_methods`], cached per class).
    fn is_pure(&mut self, owner: &str, name: &str, descriptor: &str) -> bool {
        if testcase::cluster::is_jdk_class(owner) {
            return false;
        }
        let cp = self.cp;
        let pure = self
            .pure
            .entry(owner.to_string())
            .or_insert_with(|| cp.load(owner).map(|cf| analysis::purity::pure_methods(&cf)).unwrap_or_default());
        pure.contains(&(name.to_string(), descriptor.to_string()))
    }

    /// The component names of `class` when it is a record (its instance
    /// fields: a record has no others), else none.
    fn record_components(&self, class: &str) -> Vec<String> {
        let Ok(cf) = self.cp.load(class) else { return Vec::new() };
        if cf.super_name() != Some("java/lang/Record") {
            return Vec::new();
        }
        let instance = cf.fields.iter().filter(|f| f.access & model::access::STATIC == 0);
        instance.map(|f| cf.member_name(f).to_string()).collect()
    }
}

fn is_literal_type(t: &FieldType) -> bool {
    matches!(t, FieldType::Base(_))
        || matches!(t, FieldType::Object(n) if n.as_str() == "java/lang/String")
        || unboxed(t).is_some()
}

/// Methods never called as inspectors, whatever they do: `hashCode` (an
/// identity hash unless overridden), `getClass`, and the copies.
fn excluded_name(name: &str) -> bool {
    matches!(name, "hashCode" | "getClass" | "clone")
}

fn is_inspector_name(name: &str, owner: &str) -> bool {
    let getter = ["get", "is", "has"].iter().any(|p| name.len() > p.len() && name.starts_with(p));
    let known = matches!(name, "size" | "length" | "isEmpty");
    // toString is deterministic only when overridden; hashCode rarely is.
    let to_string = name == "toString" && owner != "java.lang.Object";
    (getter || known || to_string) && name != "getClass" && name != "hashCode"
}

/// The test with inspector calls appended, and where each inspector call
/// is: first on the in-memory sinks it made ([`SINKS`], the last two), then
/// on the objects of the class under test it made (the last two), then on
/// the values of other classes and the arrays that calls of the class
/// under test returned (the last two).
pub fn with_inspectors(test: &TestCase, cut: &str, inspectors: &mut Inspectors<'_>) -> (TestCase, Vec<InspectorCall>) {
    let mut observed = test.clone();
    observed.assertions.clear();
    let mut inspector_calls = Vec::new();
    let mut compare = |var: VarId, method: MethodRef, other: Option<VarId>, observed: &mut TestCase| {
        let kind = match crate::arrays::is_observer(&method) {
            true => StatementKind::StaticCall { method: method.clone(), args: vec![var] },
            false => StatementKind::Call { receiver: var, method: method.clone(), args: other.into_iter().collect() },
        };
        inspector_calls.push(InspectorCall { var, method, at: observed.statements.len(), other });
        observed.statements.push(Statement::new(kind));
    };
    let mut inspect = |var: VarId, method: MethodRef, observed: &mut TestCase| compare(var, method, None, observed);
    let sinks = test.iter().filter_map(|(var, s)| Some((var, sink_inspector(&s.ty.erasure()?)?)));
    for (var, method) in sinks.collect::<Vec<_>>().into_iter().rev().take(2) {
        inspect(var, method, &mut observed);
    }
    let is_cut = |t: FieldType| matches!(&t, FieldType::Object(n) if n.to_binary().as_str() == cut);
    let objects: Vec<VarId> = test.iter().filter(|(_, s)| s.ty.erasure().is_some_and(is_cut)).map(|(v, _)| v).collect();
    for &var in objects.iter().rev().take(2) {
        for method in inspectors.of_class(cut) {
            inspect(var, method, &mut observed);
        }
    }
    // Values of other classes that calls of the class under test returned
    // (a `List` from `splitToList`, an `Optional`, a builder, an array).
    for (var, ty) in returned_values(test, cut).into_iter().rev().take(2) {
        let methods = match &ty {
            FieldType::Object(n) if n.to_binary().as_str() != cut => inspectors.of_returned(n.to_binary().as_str()),
            _ => crate::arrays::observers(&ty),
        };
        for method in methods {
            inspect(var, method, &mut observed);
        }
    }
    // The last two objects of the class under test compared, when it
    // defines equality (`assertEquals(point0, point1)`).
    if let [.., a, b] = objects[..]
        && let Some(equals) = inspectors.own_equals(cut)
    {
        compare(b, equals, Some(a), &mut observed);
    }
    (observed, inspector_calls)
}

/// Removes from `observed` (a test of `n` statements with inspector calls
/// appended, [`with_inspectors`]) the first inspector call that threw in
/// `run`: the executor ends a test at its first exception, so the
/// inspector calls after it were never observed. Returns whether one was
/// removed (observe the test again then).
pub fn drop_throwing_inspector(observed: &mut (TestCase, Vec<InspectorCall>), n: usize, run: &ExecutionResult) -> bool {
    let threw = run.statements.iter().enumerate().skip(n).find(|(_, s)| matches!(s, StatementOutcome::Threw(_)));
    let Some((at, _)) = threw else { return false };
    let (test, calls) = observed;
    let Some(k) = calls.iter().position(|c| c.at == at) else { return false };
    calls.remove(k);
    test.statements.remove(at);
    calls.iter_mut().filter(|c| c.at > at).for_each(|c| c.at -= 1);
    true
}

/// The values that calls of the class under test returned, and the test's
/// last call whatever its class (`cache.getIntArray(512, true)` on an
/// `ArrayCache`), that have no literal (objects and arrays), with their
/// types.
fn returned_values(test: &TestCase, cut: &str) -> Vec<(VarId, FieldType)> {
    let last = test.len().checked_sub(1);
    let values =
        test.iter().filter(|(var, s)| is_cut_call(test, s, cut) || (Some(var.index()) == last && s.kind.is_call()));
    let typed = values.filter_map(|(var, s)| Some((var, s.ty.erasure()?)));
    typed.filter(|(_, ty)| matches!(ty, FieldType::Object(_) | FieldType::Array(_)) && !is_literal_type(ty)).collect()
}

/// Whether the test ends with something a test can observe: the value of
/// its last statement, or for a call without a value its receiver, is a
/// primitive, a string or box, an array, or an object with inspectors
/// ([`Inspectors::of_returned`]). A test that ends so and asserts nothing
/// misses an assertion (the share issue 19 measures).
pub fn ends_observably(test: &TestCase, inspectors: &mut Inspectors<'_>) -> bool {
    let Some((var, last)) = test.iter().last() else { return false };
    let subject = match &last.kind {
        _ if last.produces_value() => var,
        StatementKind::Call { receiver, .. } => *receiver,
        _ => return false,
    };
    let Some(ty) = test.get(subject).and_then(|s| s.ty.erasure()) else { return false };
    match &ty {
        FieldType::Base(_) | FieldType::Array(_) => true,
        FieldType::Object(name) => {
            is_literal_type(&ty) || !inspectors.of_returned(name.to_binary().as_str()).is_empty()
        }
    }
}

/// The inspector of a [`SINKS`] class.
fn sink_inspector(ty: &FieldType) -> Option<MethodRef> {
    let FieldType::Object(name) = ty else { return None };
    let binary = name.to_binary();
    let (class, method, descriptor) = SINKS.iter().find(|(class, _, _)| *class == binary.as_str())?;
    MethodRef::parse(class, method, descriptor).ok()
}

/// Assertions for `test` from two or more executions of its observed form
/// (see [`with_inspectors`]); only values all executions agree on.
pub fn assertions_from(
    test: &TestCase,
    cut: &str,
    inspector_calls: &[InspectorCall],
    runs: &[ExecutionResult],
) -> Vec<Assertion> {
    let n = test.statements.len();
    let agreed = |i: usize| -> Option<&StatementOutcome> {
        let first = runs.first()?.statements.get(i)?;
        runs.iter().all(|r| r.statements.get(i).is_some_and(|o| same_outcome(o, first))).then_some(first)
    };
    let mut out = Vec::new();
    // The exception the test ends with.
    if let Some(last) = (0..n).rev().find(|i| agreed(*i).is_some_and(|o| *o != StatementOutcome::NotExecuted))
        && let Some(StatementOutcome::Threw(e)) = agreed(last)
    {
        let message = agreed_message(runs, last);
        out.push(Assertion {
            var: VarId(last as u32),
            kind: AssertionKind::Throws { exception: e.class.clone(), message },
        });
        return out;
    }
    // Return values of calls on the class under test, last first, and of
    // the test's last call whatever its class (`ctx.toStringTree()` after
    // `Trees.stripChildrenOutOfRange(ctx, …)`): what the test ends with.
    for i in (0..n).rev() {
        let st = &test.statements[i];
        let last_call = i + 1 == n && st.kind.is_call();
        if !is_cut_call(test, st, cut) && !last_call {
            continue;
        }
        if let (Some(StatementOutcome::Normal(v)), Some(ty)) = (agreed(i), st.kind.value_type())
            && let Some(lit) = literal(v, &ty)
        {
            out.push(Assertion { var: VarId(i as u32), kind: AssertionKind::Value(lit) });
        }
    }
    for p in inspector_calls {
        if let Some(StatementOutcome::Normal(v)) = agreed(p.at)
            && let Some(kind) = observed_kind(p, v)
            && !asserted_by_the_test(test, &out, p, &kind)
            && !elements_asserted(&out, p.var, &kind)
        {
            out.push(Assertion { var: p.var, kind });
        }
    }
    out.truncate(MAX_ASSERTIONS);
    out
}

/// The message of the exception that statement `i` threw, when every run
/// threw one with the same [`assertable_message`].
fn agreed_message(runs: &[ExecutionResult], i: usize) -> Option<String> {
    fn message(r: &ExecutionResult, i: usize) -> Option<&str> {
        match r.statements.get(i) {
            Some(StatementOutcome::Threw(e)) => assertable_message(e),
            _ => None,
        }
    }
    let first = message(runs.first()?, i)?;
    runs.iter().all(|r| message(r, i) == Some(first)).then(|| first.to_owned())
}

/// The most characters of an asserted exception message.
const MAX_MESSAGE: usize = 300;

/// The message of `e` when it can be an expected value: written by code
/// outside the JDK and the JVM (the innermost frame's class is not the
/// JDK's, and the message is not one the JVM writes for a bytecode that
/// fails, [`written_by_the_jvm`]: those change between versions and name
/// class loaders and local variables), at most [`MAX_MESSAGE`] characters,
/// and without an identity hash or a lambda.
pub fn assertable_message(e: &ExceptionInfo) -> Option<&str> {
    let message = e.message.as_deref()?;
    let thrown_outside_jdk = e.frames.first().is_some_and(|f| !testcase::cluster::is_jdk_class(&f.class));
    let stable = !shows_a_hash(message);
    let own = thrown_outside_jdk && !written_by_the_jvm(e.class.as_str(), message);
    (own && stable && message.chars().count() <= MAX_MESSAGE).then_some(message)
}

/// Whether `message` of an exception of class `class` is the one the JVM
/// gives an exception it throws itself for a failing bytecode (JVMS §6.5:
/// `athrow` of `null`, `idiv`, `aaload`, `checkcast`, `anewarray`, …), such
/// as the helpful `NullPointerException` message (JEP 358).
fn written_by_the_jvm(class: &str, message: &str) -> bool {
    match class {
        "java.lang.NullPointerException" => message.starts_with("Cannot "),
        "java.lang.ClassCastException" => message.contains(" cannot be cast to "),
        "java.lang.ArrayIndexOutOfBoundsException" => message.contains(" out of bounds for length "),
        "java.lang.ArithmeticException" => message == "/ by zero",
        "java.lang.NegativeArraySizeException" => message.parse::<i64>().is_ok(),
        "java.lang.ArrayStoreException" | "java.lang.IllegalMonitorStateException" => true,
        _ => false,
    }
}

/// Whether `kind` is the length of array `var` whose elements `out`
/// already asserts (they say its length too).
fn elements_asserted(out: &[Assertion], var: VarId, kind: &AssertionKind) -> bool {
    matches!(kind, AssertionKind::ArrayLength(_))
        && out.iter().any(|a| a.var == var && matches!(a.kind, AssertionKind::ArrayElements(_)))
}

/// What the value `v` of inspector call `p` asserts: an
/// [`AssertionKind::Inspector`], for an array observer ([`crate::arrays`])
/// its elements or length, for an `equals` comparison an
/// [`AssertionKind::EqualsOther`]; `None` when `v` has no literal.
pub fn observed_kind(p: &InspectorCall, v: &ValueSummary) -> Option<AssertionKind> {
    if let (Some(other), ValueSummary::Boolean(equal)) = (p.other, v) {
        return Some(AssertionKind::EqualsOther { other, equal: *equal });
    }
    if crate::arrays::is_observer(&p.method) {
        return crate::arrays::assertion(&p.method, v);
    }
    let expected = literal(v, p.method.descriptor.ret.as_ref()?)?;
    Some(AssertionKind::Inspector { method: p.method.clone(), expected })
}

/// The inspector call of `calls` that assertion `a` was observed through
/// (for [`AssertionKind::Inspector`], [`AssertionKind::ArrayElements`],
/// [`AssertionKind::ArrayLength`] and [`AssertionKind::EqualsOther`]);
/// `None` for the other kinds.
pub fn observed_through<'c>(a: &Assertion, calls: &'c [InspectorCall]) -> Option<&'c InspectorCall> {
    let same_var = calls.iter().filter(|c| c.var == a.var);
    match &a.kind {
        AssertionKind::Inspector { method, .. } => same_var.into_iter().find(|c| &c.method == method),
        AssertionKind::ArrayElements(_) => same_var
            .into_iter()
            .find(|c| crate::arrays::is_observer(&c.method) && !crate::arrays::is_length_observer(&c.method)),
        AssertionKind::ArrayLength(_) => same_var.into_iter().find(|c| crate::arrays::is_length_observer(&c.method)),
        AssertionKind::EqualsOther { other, .. } => same_var.into_iter().find(|c| c.other == Some(*other)),
        _ => None,
    }
}

/// Whether the test already asserts what inspector call `p` would: it
/// calls the same method on the same value (with the same argument, or
/// the two swapped, for an `equals` comparison) and asserts the same result (`String string0 =
/// record0.toString(); assertEquals("…", string0);`).
fn asserted_by_the_test(test: &TestCase, out: &[Assertion], p: &InspectorCall, kind: &AssertionKind) -> bool {
    let expected = match kind {
        AssertionKind::Inspector { expected, .. } => expected.clone(),
        AssertionKind::EqualsOther { equal, .. } => Literal::Primitive(Primitive::Boolean(*equal)),
        _ => return false,
    };
    let same_args: Vec<VarId> = p.other.into_iter().collect();
    // `a.equals(b)` asserted says what `b.equals(a)` would.
    let swapped = p.other.map(|other| (other, vec![p.var]));
    out.iter().any(|a| {
        let same_call = test.get(a.var).is_some_and(|s| {
            matches!(&s.kind, StatementKind::Call { receiver, method, args }
                if method.name == p.method.name
                    && ((*receiver == p.var && *args == same_args)
                        || swapped.as_ref().is_some_and(|(r, xs)| receiver == r && args == xs)))
        });
        same_call && matches!(&a.kind, AssertionKind::Value(lit) if *lit == expected)
    })
}

/// Whether `st` calls a method of the class under test: one it declares,
/// or one it inherits, called on a value declared as the class under test
/// (`unescaper.translate(s)`, declared by a superclass).
fn is_cut_call(test: &TestCase, st: &Statement, cut: &str) -> bool {
    match &st.kind {
        StatementKind::StaticCall { method, .. } => method.owner.as_str() == cut,
        StatementKind::Call { method, receiver, .. } => {
            let declared_cut = test
                .get(*receiver)
                .and_then(|r| r.ty.erasure())
                .is_some_and(|t| matches!(&t, FieldType::Object(n) if n.to_binary().as_str() == cut));
            method.owner.as_str() == cut || declared_cut
        }
        _ => false,
    }
}

/// Whether two outcomes of one statement agree (floats by bit pattern, so
/// NaN equals NaN; exceptions by class, since messages are not asserted).
pub fn same_outcome(a: &StatementOutcome, b: &StatementOutcome) -> bool {
    match (a, b) {
        (StatementOutcome::Normal(ValueSummary::Float(x)), StatementOutcome::Normal(ValueSummary::Float(y))) => {
            x.to_bits() == y.to_bits()
        }
        (StatementOutcome::Threw(x), StatementOutcome::Threw(y)) => x.class == y.class,
        _ => a == b,
    }
}

/// The Java literal of an observed value of type `ty`, if it has one
/// (boxed types compare as their primitive). A string that shows a lambda
/// ([`shows_lambda`]) or a mock ([`shows_mock`]) has none: its identity
/// hash differs on every run.
pub fn literal(v: &ValueSummary, ty: &FieldType) -> Option<Literal> {
    let prim = |p: Primitive| Some(Literal::Primitive(p));
    if let (false, Some(base)) = (matches!(v, ValueSummary::Null), unboxed(ty)) {
        return literal(v, &FieldType::Base(base));
    }
    match (v, ty) {
        (ValueSummary::Null, FieldType::Object(_) | FieldType::Array(_)) => Some(Literal::Null),
        (ValueSummary::String(s), FieldType::Object(_)) if !shows_a_hash(s) => Some(Literal::String(s.clone())),
        (ValueSummary::Boolean(b), FieldType::Base(BaseType::Boolean)) => prim(Primitive::Boolean(*b)),
        (ValueSummary::Char(c), FieldType::Base(BaseType::Char)) => prim(Primitive::Char(*c)),
        (ValueSummary::Integer(i), FieldType::Base(b)) => match b {
            BaseType::Byte => prim(Primitive::Byte(*i as i8)),
            BaseType::Short => prim(Primitive::Short(*i as i16)),
            BaseType::Int => prim(Primitive::Int(*i as i32)),
            BaseType::Long => prim(Primitive::Long(*i)),
            _ => None,
        },
        (ValueSummary::Float(f), FieldType::Base(BaseType::Float)) => prim(Primitive::Float(*f as f32)),
        (ValueSummary::Float(f), FieldType::Base(BaseType::Double)) => prim(Primitive::Double(*f)),
        _ => None,
    }
}

/// Whether a string contains the `toString` of a lambda: a Java lambda's
/// (`Foo_FerroTest$$Lambda$14/0x…@1b2c3d` under JUnit) or that of the
/// proxy a worker makes for one (`java.util.function.Function$$Lambda@1b2c3d`,
/// `testcase::StatementKind::Lambda`). Both end in an identity hash.
pub fn shows_lambda(text: &str) -> bool {
    text.contains("$$Lambda")
}

/// Whether a string shows an identity hash, which differs between runs:
/// a lambda's ([`shows_lambda`]), a mock's ([`shows_mock`]) or
/// `Object.toString`'s ([`shows_identity_hash`]).
pub fn shows_a_hash(text: &str) -> bool {
    shows_lambda(text) || shows_mock(text) || shows_identity_hash(text)
}

/// Whether a string contains the `toString` of a mock (Mockito's and the
/// worker's `Mock for Stock, hashCode: 1829164700`,
/// `testcase::StatementKind::Mock`): it ends in an identity hash.
pub fn shows_mock(text: &str) -> bool {
    text.contains("Mock for ") && text.contains(", hashCode: ")
}

/// Whether a string shows an object's identity hash (`demo.Foo@1b2c3d`,
/// `[Foo@6d06d69c]`, what `Object.toString` gives): it differs between
/// JVMs, so it is never an expected value.
pub fn shows_identity_hash(text: &str) -> bool {
    let b = text.as_bytes();
    (0..b.len()).any(|i| {
        let hex = b[i + 1..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
        let named = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'$' || b[i - 1] == b';');
        b[i] == b'@' && named && hex >= 4 && b.get(i + 1 + hex).is_none_or(|c| !c.is_ascii_alphanumeric())
    })
}

/// The primitive type of a box class (`java/lang/Integer` → int).
fn unboxed(ty: &FieldType) -> Option<BaseType> {
    let FieldType::Object(n) = ty else { return None };
    Some(match n.as_str() {
        "java/lang/Integer" => BaseType::Int,
        "java/lang/Long" => BaseType::Long,
        "java/lang/Short" => BaseType::Short,
        "java/lang/Byte" => BaseType::Byte,
        "java/lang/Character" => BaseType::Char,
        "java/lang/Boolean" => BaseType::Boolean,
        "java/lang/Float" => BaseType::Float,
        "java/lang/Double" => BaseType::Double,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_that_show_a_lambda_are_never_expected_values() {
        let string = FieldType::parse("Ljava/lang/String;").unwrap();
        let seen = |s: &str| literal(&ValueSummary::String(s.to_string()), &string);
        assert_eq!(seen("f=x"), Some(Literal::String("f=x".to_string())));
        assert_eq!(seen("f=java.util.function.Function$$Lambda@1b2c3d"), None);
        assert_eq!(seen("demo.Foo_FerroTest$$Lambda$14/0x0000000800c0b000@5e9f23b4"), None);
        assert_eq!(seen("stock: Mock for Stock, hashCode: 1829164700"), None);
    }

    #[test]
    fn an_inherited_method_called_on_the_class_under_test_is_a_call_under_test() {
        let mut b = testcase::TestCaseBuilder::new();
        let ctor = MethodRef::parse("demo.Unescaper", "<init>", "()V").unwrap();
        let unescaper = b.construct(ctor, &[]);
        let text = b.string("&#65;");
        let translate = MethodRef::parse("demo.Translator", "translate", "(Ljava/lang/String;)Ljava/lang/String;");
        let call = b.call(unescaper, translate.unwrap(), &[text]);
        let test = b.build();
        assert!(is_cut_call(&test, test.get(call).unwrap(), "demo.Unescaper"));
        assert!(!is_cut_call(&test, test.get(call).unwrap(), "demo.Other"));
    }

    #[test]
    fn only_messages_the_code_wrote_are_asserted() {
        let thrown = |class: &str, message: &str, frame: &str| ExceptionInfo {
            class: BinaryName::new(class),
            message: Some(message.to_owned()),
            direct: true,
            frames: vec![exec::StackFrame { class: frame.to_owned(), method: "m".to_owned(), line: None }],
        };
        let message = |e: &ExceptionInfo| assertable_message(e).map(str::to_owned);
        let own = thrown("java.lang.IllegalArgumentException", "negative: -3", "demo.Digits");
        assert_eq!(message(&own).as_deref(), Some("negative: -3"));
        let explicit_npe = thrown("java.lang.NullPointerException", "key", "demo.Map");
        assert_eq!(message(&explicit_npe).as_deref(), Some("key"));
        let helpful = thrown("java.lang.NullPointerException", "Cannot invoke \"String.isEmpty()\"", "demo.Digits");
        assert_eq!(message(&helpful), None);
        let cast = thrown(
            "java.lang.ClassCastException",
            "class A cannot be cast to class B (A is in loader 'app')",
            "demo.X",
        );
        assert_eq!(message(&cast), None);
        let jdk = thrown("java.lang.StringIndexOutOfBoundsException", "index 5, length 3", "java.lang.String");
        assert_eq!(message(&jdk), None);
        let hash = thrown("java.lang.IllegalStateException", "bad demo.Foo@1b2c3d", "demo.X");
        assert_eq!(message(&hash), None);
        let reported = ExceptionInfo { frames: vec![], ..own.clone() };
        assert_eq!(message(&reported), None, "an exception the executor reports has no frames");
    }

    #[test]
    fn an_inspector_that_throws_is_dropped_so_the_later_ones_are_observed() {
        let mut b = testcase::TestCaseBuilder::new();
        let ctor = MethodRef::parse("demo.Label", "<init>", "()V").unwrap();
        let label = b.construct(ctor, &[]);
        let test = b.build();
        let inspector = |name: &str, descriptor: &str| MethodRef::parse("demo.Label", name, descriptor).unwrap();
        let mut observed = test.clone();
        let mut calls = Vec::new();
        for (name, descriptor) in [("toString", "()Ljava/lang/String;"), ("width", "()I"), ("fits", "()Z")] {
            let method = inspector(name, descriptor);
            calls.push(InspectorCall {
                var: label,
                method: method.clone(),
                at: observed.statements.len(),
                other: None,
            });
            observed.statements.push(Statement::new(StatementKind::Call { receiver: label, method, args: vec![] }));
        }
        let thrown = ExceptionInfo {
            class: BinaryName::new("java.lang.IllegalArgumentException"),
            message: None,
            direct: false,
            frames: vec![],
        };
        let statements = vec![
            StatementOutcome::Normal(ValueSummary::Object { class: BinaryName::new("demo.Label") }),
            StatementOutcome::Threw(thrown),
            StatementOutcome::NotExecuted,
            StatementOutcome::NotExecuted,
        ];
        let result = |statements| ExecutionResult {
            outcome: exec::TestOutcome::Completed,
            statements,
            trace: exec::Trace::default(),
            output: Default::default(),
            duration: std::time::Duration::ZERO,
        };
        let run = result(statements);
        let mut observed = (observed, calls);
        assert!(drop_throwing_inspector(&mut observed, 1, &run));
        let names: Vec<(&str, usize)> = observed.1.iter().map(|c| (c.method.name.as_str(), c.at)).collect();
        assert_eq!(names, [("width", 1), ("fits", 2)]);
        assert_eq!(observed.0.statements.len(), 3);
        let normal = result(vec![StatementOutcome::NotExecuted; 3]);
        assert!(!drop_throwing_inspector(&mut observed, 1, &normal), "nothing threw");
    }

    #[test]
    fn a_test_ends_observably_with_a_value_an_array_or_an_object_with_inspectors() {
        let Some(java_home) = model::jdk::find_java_home() else { return };
        let cp = ClassPath::new(&[]).unwrap().with_jdk(&java_home).unwrap();
        let mut inspectors = Inspectors::new(&cp);
        let mut ends = |build: &dyn Fn(&mut testcase::TestCaseBuilder)| {
            let mut b = testcase::TestCaseBuilder::new();
            build(&mut b);
            ends_observably(&b.build(), &mut inspectors)
        };
        let list = || MethodRef::parse("java.util.ArrayList", "<init>", "()V").unwrap();
        let clear = || MethodRef::parse("java.util.ArrayList", "clear", "()V").unwrap();
        assert!(ends(&|b| {
            b.int(3);
        }));
        assert!(ends(&|b| {
            b.new_array(FieldType::parse("I").unwrap(), 2);
        }));
        assert!(
            ends(&|b| {
                let l = b.construct(list(), &[]);
                b.call(l, clear(), &[]);
            }),
            "a void call's receiver: the list's size()"
        );
        let object = || MethodRef::parse("java.lang.Object", "<init>", "()V").unwrap();
        let notify = || MethodRef::parse("java.lang.Object", "notify", "()V").unwrap();
        assert!(
            !ends(&|b| {
                b.construct(object(), &[]);
            }),
            "nothing to inspect on an Object"
        );
        assert!(!ends(&|b| {
            let o = b.construct(object(), &[]);
            b.call(o, notify(), &[]);
        }));
        assert!(!ends(&|_| {}));
    }

    #[test]
    fn strings_that_show_an_identity_hash_are_never_expected_values() {
        assert!(shows_identity_hash("demo.Foo@1b2c3d"));
        assert!(shows_identity_hash("[demo.Foo@6d06d69c, x]"));
        assert!(shows_identity_hash("[I@4e25154f"));
        assert!(!shows_identity_hash("user@example.com"));
        assert!(!shows_identity_hash("a @ 1234"));
        assert!(!shows_identity_hash("price@12"));
    }
}
