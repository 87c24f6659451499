//! What is checked on one test, and the tests that check it.
//!
//! A [`Plan`] takes a test of the suite (its *base*: the statements
//! before the one it throws at, without assertions), picks the objects to
//! check (values whose static type may hold an object of a user's class),
//! gives up to [`MAX_TWINS`] of them a *twin* (the statement that made it
//! and the calls made on it, repeated: an object likely equal to it, which
//! random tests seldom make), and lists the [`Check`]s: per object
//! `x.equals(x)`, `x.equals(null)`, `x.hashCode()`, `x.toString()` and
//! `x.compareTo(x)`, per pair of objects of one static type (an object and
//! its twin among them) `x.equals(y)`, `y.equals(x)`, `x.compareTo(y)` and
//! `y.compareTo(x)`. [`assemble`] appends checks to the base as ordinary
//! statements (calls of `Object`'s methods, dispatched to the class's own,
//! and of the declared `compareTo`); [`read`] maps an execution back to
//! the checks.

use std::collections::BTreeMap;

use exec::{ExceptionInfo, ExecutionResult, StatementOutcome, TestOutcome, ValueSummary};
use model::descriptor::FieldType;
use model::names::{BinaryName, InternalName};
use testcase::{MethodRef, Statement, StatementKind, TestCase, VarId};

use crate::contract::Method;
use crate::facts::ClassFacts;

/// The most objects checked per test.
pub const MAX_OBJECTS: usize = 6;
/// The most twins made per test.
pub const MAX_TWINS: usize = 3;
/// The most pairs of distinct objects of the test checked per test.
pub const MAX_PAIRS: usize = 4;

/// An object a check is about: a value of the base, or its twin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Obj {
    /// The value of statement `.0` of the base.
    Var(VarId),
    /// The twin of the value of statement `.0` of the base.
    Twin(VarId),
}

impl Obj {
    /// The value of the base this object is, or is the twin of.
    pub fn origin(self) -> VarId {
        match self {
            Obj::Var(v) | Obj::Twin(v) => v,
        }
    }
}

/// One appended call.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Check {
    /// `a.equals(b)`, `a.equals(null)` for `None`.
    Equals(Obj, Option<Obj>),
    /// `a.hashCode()`.
    HashCode(Obj),
    /// `a.toString()`.
    ToString(Obj),
    /// `a.compareTo(b)`, by the `compareTo` the class declares.
    CompareTo(Obj, Obj, MethodRef),
}

impl Check {
    /// The receiver.
    pub fn receiver(&self) -> Obj {
        match self {
            Check::Equals(a, _) | Check::HashCode(a) | Check::ToString(a) | Check::CompareTo(a, _, _) => *a,
        }
    }

    /// The objects it calls with (receiver first).
    pub fn objects(&self) -> Vec<Obj> {
        match self {
            Check::Equals(a, b) => std::iter::once(*a).chain(*b).collect(),
            Check::HashCode(a) | Check::ToString(a) => vec![*a],
            Check::CompareTo(a, b, _) => vec![*a, *b],
        }
    }

    /// The contract method it calls.
    pub fn method(&self) -> Method {
        match self {
            Check::Equals(..) => Method::Equals,
            Check::HashCode(_) => Method::HashCode,
            Check::ToString(_) => Method::ToString,
            Check::CompareTo(..) => Method::CompareTo,
        }
    }
}

/// What is checked on one test.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The test checked, without assertions and without the statement it
    /// throws at (and what follows).
    pub base: TestCase,
    /// The values of the base checked.
    pub objects: Vec<VarId>,
    /// The checks, those with twins last.
    pub checks: Vec<Check>,
}

/// The plan for `test`; `None` when it has no object to check.
pub fn plan(test: &TestCase, facts: &mut ClassFacts) -> Option<Plan> {
    let base = base_of(test)?;
    if !within_public_api(&base, facts) {
        return None;
    }
    let candidates = objects(&base, facts);
    if candidates.is_empty() {
        return None;
    }
    let user_typed: BTreeMap<VarId, BinaryName> = candidates
        .iter()
        .filter_map(|&v| Some((v, static_class(&base, v).filter(|c| facts.is_user(c.as_str()))?)))
        .collect();
    let mut checks = Vec::new();
    let mut compare = BTreeMap::new();
    for &v in &candidates {
        let o = Obj::Var(v);
        checks.extend([Check::Equals(o, Some(o)), Check::Equals(o, None), Check::HashCode(o), Check::ToString(o)]);
        if let Some(m) = user_typed.get(&v).and_then(|c| facts.compare_to(c)) {
            checks.push(Check::CompareTo(o, o, m.clone()));
            compare.insert(v, m);
        }
    }
    let mut pairs = 0;
    for (i, &a) in candidates.iter().enumerate() {
        for &b in &candidates[i + 1..] {
            if pairs < MAX_PAIRS && static_class(&base, a).is_some() && static_class(&base, a) == static_class(&base, b)
            {
                pairs += 1;
                checks.extend(pair_checks(Obj::Var(a), Obj::Var(b), compare.get(&a), false));
            }
        }
    }
    let twins = candidates.iter().filter(|&&v| user_typed.contains_key(&v) && twin_statements(&base, v).is_some());
    for &v in twins.take(MAX_TWINS) {
        checks.extend(pair_checks(Obj::Var(v), Obj::Twin(v), compare.get(&v), true));
    }
    Some(Plan { base, objects: candidates, checks })
}

/// The checks of a pair: `a.equals(b)`, `b.equals(a)`, the compare calls
/// both ways when comparable, and `b.hashCode()` when `b` is a twin (the
/// other objects have theirs among the checks of single objects).
fn pair_checks(a: Obj, b: Obj, compare: Option<&MethodRef>, twin: bool) -> Vec<Check> {
    let mut out = Vec::new();
    if twin {
        out.push(Check::HashCode(b));
    }
    out.extend([Check::Equals(a, Some(b)), Check::Equals(b, Some(a))]);
    if let Some(m) = compare {
        out.extend([Check::CompareTo(a, b, m.clone()), Check::CompareTo(b, a, m.clone())]);
    }
    out
}

/// `test` without assertions and without the statement its `Throws`
/// assertion names and those after it; `None` when nothing is left.
pub fn base_of(test: &TestCase) -> Option<TestCase> {
    let throws = test.assertions.iter().find_map(|a| match a.kind {
        testcase::assertion::AssertionKind::Throws { .. } => Some(a.var.index()),
        _ => None,
    });
    let end = throws.unwrap_or(test.len()).min(test.len());
    (end > 0).then(|| TestCase {
        statements: test.statements[..end].to_vec(),
        call_under_test: None,
        assertions: Vec::new(),
    })
}

/// The values of `base` to check, at most [`MAX_OBJECTS`]: those whose
/// static type may hold an object of a user's class, those typed by a
/// user's class first.
fn objects(base: &TestCase, facts: &mut ClassFacts) -> Vec<VarId> {
    let mut found: Vec<(bool, VarId)> = base
        .iter()
        .filter(|(_, s)| !is_literal(&s.kind))
        .filter_map(|(v, _)| Some((v, static_class(base, v)?)))
        .filter(|(_, c)| facts.may_hold_user_object(c.as_str()))
        .map(|(v, c)| (!facts.is_user(c.as_str()), v))
        .collect();
    found.sort();
    let mut out: Vec<VarId> = found.into_iter().take(MAX_OBJECTS).map(|(_, v)| v).collect();
    out.sort();
    out
}

/// Whether a statement makes an object Java source cannot make: an inner
/// class's instance with a `null` outer instance (`((Outer) null).new
/// Inner()` throws in Java; a worker, constructing through JNI, makes it).
/// A test with one fails under JUnit.
fn is_impossible(test: &TestCase, kind: &StatementKind) -> bool {
    let StatementKind::Constructor { method, args } = kind else { return false };
    let (Some(outer), Some(first)) = (method.owner.as_str().rsplit_once('$'), args.first()) else { return false };
    let outer_param = method.descriptor.params.first().and_then(FieldType::to_internal_name);
    outer_param.is_some_and(|p| p.to_binary().as_str() == outer.0)
        && test.get(*first).is_some_and(|s| matches!(s.kind, StatementKind::Null(_)))
}

/// Whether `test` makes and uses its objects as a client of their
/// classes could: through public members only ([`ClassFacts::is_internal`]),
/// and with no object Java source cannot make (an inner object of a
/// `null` outer instance).
/// Contracts are checked, and reported, only on such tests.
pub fn within_public_api(test: &TestCase, facts: &ClassFacts) -> bool {
    !test.statements.iter().any(|s| is_impossible(test, &s.kind) || facts.is_internal(&s.kind))
}

/// Statements whose value is no object a class under test made.
fn is_literal(kind: &StatementKind) -> bool {
    matches!(
        kind,
        StatementKind::Primitive(_)
            | StatementKind::Boxed(_)
            | StatementKind::String(_)
            | StatementKind::Null(_)
            | StatementKind::ClassLiteral(_)
            | StatementKind::Reflect(_)
            | StatementKind::Lambda { .. }
            | StatementKind::Mock { .. }
            | StatementKind::TempFile(_)
            | StatementKind::TempDir(_)
            | StatementKind::NewArray { .. }
    )
}

/// The class of the static type of value `v` (not an array or primitive).
pub fn static_class(test: &TestCase, v: VarId) -> Option<BinaryName> {
    let statement = test.get(v)?;
    match statement.ty.erasure().or_else(|| statement.kind.value_type())? {
        FieldType::Object(name) => Some(name.to_binary()),
        _ => None,
    }
}

/// The statements that make a twin of value `v` of `base`: the
/// constructor or static call that made it, then every call made on it
/// later, each with `v` replaced by the twin (whose id is `at`, the index
/// of the first of them). `None` when `v` was made otherwise (a call on
/// another object may hand out the same object again, or advance it).
pub fn twin_statements(base: &TestCase, v: VarId) -> Option<Vec<Statement>> {
    let made = base.get(v)?;
    if !matches!(made.kind, StatementKind::Constructor { .. } | StatementKind::StaticCall { .. }) {
        return None;
    }
    let calls_on_v = base.statements[v.index() + 1..]
        .iter()
        .filter(|s| matches!(&s.kind, StatementKind::Call { receiver, .. } if *receiver == v));
    Some(std::iter::once(made).chain(calls_on_v).cloned().collect())
}

/// A probe: the base with checks appended.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// The test to run.
    pub test: TestCase,
    /// The statement of each check given to [`assemble`], in order.
    pub at: Vec<usize>,
    /// The statements that make each twin.
    pub twins: BTreeMap<VarId, std::ops::Range<usize>>,
    /// The number of statements of the base.
    pub base_len: usize,
}

/// `base` with `checks` appended, in order; each twin is made before the
/// first check that calls with it, and one `null` before the first
/// `equals(null)`.
pub fn assemble(base: &TestCase, checks: &[Check]) -> Probe {
    let mut test = base.clone();
    let mut vars: BTreeMap<Obj, VarId> = BTreeMap::new();
    let mut twins = BTreeMap::new();
    let mut null = None;
    let mut at = Vec::with_capacity(checks.len());
    for check in checks {
        for o in check.objects() {
            if let (Obj::Twin(v), None) = (o, vars.get(&o)) {
                let start = test.len();
                let twin = crate::probe::var(start);
                for mut s in twin_statements(base, v).unwrap_or_default() {
                    s.kind.map_uses(|u| if u == v { twin } else { u });
                    test.push(s);
                }
                twins.insert(v, start..test.len());
                vars.insert(o, twin);
            }
        }
        let var = |o: Obj| vars.get(&o).copied().unwrap_or(o.origin());
        let kind = match check {
            Check::Equals(a, b) => {
                let arg = match b {
                    Some(b) => var(*b),
                    None => *null.get_or_insert_with(|| {
                        test.push(Statement::new(StatementKind::Null(FieldType::Object(InternalName::object()))))
                    }),
                };
                call(var(*a), Method::Equals, vec![arg])
            }
            Check::HashCode(a) => call(var(*a), Method::HashCode, vec![]),
            Check::ToString(a) => call(var(*a), Method::ToString, vec![]),
            Check::CompareTo(a, b, m) => {
                StatementKind::Call { receiver: var(*a), method: m.clone(), args: vec![var(*b)] }
            }
        };
        at.push(test.len());
        test.push(Statement::new(kind));
    }
    Probe { test, at, twins, base_len: base.len() }
}

/// `receiver.method(args)` through `java.lang.Object`'s method.
fn call(receiver: VarId, method: Method, args: Vec<VarId>) -> StatementKind {
    let method = method.object_method().expect("equals, hashCode and toString are Object's");
    StatementKind::Call { receiver, method, args }
}

/// The id of statement `index`.
pub(crate) fn var(index: usize) -> VarId {
    VarId(u32::try_from(index).unwrap_or(u32::MAX))
}

/// What one check did.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// It returned this value.
    Value(ValueSummary),
    /// It threw this exception.
    Threw(ExceptionInfo),
    /// It says nothing: it ended in a sandbox exception or an error of the
    /// JVM itself, or it could not run.
    Dropped,
}

/// What a run of a probe says: the outcome of each check that ended (by
/// index into the checks given to [`assemble`]), the runtime class of each
/// object seen (`None` for `null`), and the checks that cannot run in this
/// test (after a base or twin statement that threw).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reading {
    /// Outcomes of the checks that ended.
    pub outcomes: Vec<(usize, Outcome)>,
    /// Runtime class of each object, when its statement ran.
    pub classes: BTreeMap<Obj, Option<BinaryName>>,
    /// Checks that cannot run.
    pub dropped: Vec<usize>,
}

/// Reads the run `result` of `probe` made of `checks`.
pub fn read(probe: &Probe, checks: &[Check], result: &ExecutionResult) -> Reading {
    let mut reading = Reading::default();
    let outcome_at = |i: usize| result.statements.get(i);
    let class_at = |i: usize| match outcome_at(i) {
        Some(StatementOutcome::Normal(ValueSummary::Object { class })) => Some(Some(class.clone())),
        Some(StatementOutcome::Normal(ValueSummary::Null)) => Some(None),
        _ => None,
    };
    for check in checks {
        for o in check.objects() {
            let at = match o {
                Obj::Var(v) => Some(v.index()),
                Obj::Twin(v) => probe.twins.get(&v).map(|r| r.start),
            };
            if let Some(class) = at.and_then(class_at) {
                reading.classes.insert(o, class);
            }
        }
    }
    if matches!(result.outcome, TestOutcome::Rejected { .. }) {
        reading.dropped = (0..checks.len()).collect();
        return reading;
    }
    let stopped = result.statements.iter().position(|s| !matches!(s, StatementOutcome::Normal(_)));
    for (k, &i) in probe.at.iter().enumerate() {
        match outcome_at(i) {
            Some(StatementOutcome::Normal(v)) => reading.outcomes.push((k, Outcome::Value(v.clone()))),
            Some(StatementOutcome::Threw(e)) if says_nothing(&e.class) => reading.outcomes.push((k, Outcome::Dropped)),
            Some(StatementOutcome::Threw(e)) => reading.outcomes.push((k, Outcome::Threw(e.clone()))),
            _ => {}
        }
    }
    if let Some(s) = stopped.filter(|s| !probe.at.contains(s)) {
        // A base or twin statement did not end normally: what needs it cannot run.
        let twin = probe.twins.iter().find(|(_, r)| r.contains(&s)).map(|(v, _)| Obj::Twin(*v));
        for (k, check) in checks.iter().enumerate() {
            let blocked = s < probe.base_len || twin.is_some_and(|t| check.objects().contains(&t));
            if blocked && probe.at.get(k).is_some_and(|&i| i > s) {
                reading.dropped.push(k);
            }
        }
    } else if !matches!(result.outcome, TestOutcome::Completed)
        && let Some(k) = probe.at.iter().position(|&i| !matches!(outcome_at(i), Some(StatementOutcome::Normal(_))))
        && !reading.outcomes.iter().any(|(j, _)| *j == k)
    {
        // A time-out or crash at (or before) this check.
        reading.dropped.push(k);
    }
    reading
}

/// Exceptions that say nothing of the class's contracts: the sandbox's
/// (a time limit, an exit) and errors of the JVM itself.
fn says_nothing(class: &BinaryName) -> bool {
    exec::sandbox::EXCEPTIONS.contains(&class.as_str())
        || matches!(class.as_str(), "java.lang.StackOverflowError" | "java.lang.OutOfMemoryError")
}

#[cfg(test)]
mod tests {
    use exec::{ExceptionInfo, ExecutionResult, StatementOutcome, TestOutcome, ValueSummary};
    use model::names::BinaryName;
    use testcase::{TestCaseBuilder, VarId};

    use super::*;
    use crate::testutil::m;

    /// `v0 = 3; v1 = new p.Foo(v0); v2 = v1.grow(v0); v3 = new p.Bar()`.
    fn base() -> TestCase {
        let mut b = TestCaseBuilder::new();
        let three = b.int(3);
        let foo = b.construct(m("p.Foo", "<init>", "(I)V"), &[three]);
        b.call(foo, m("p.Foo", "grow", "(I)Lp/Foo;"), &[three]);
        b.construct(m("p.Bar", "<init>", "()V"), &[]);
        b.build()
    }

    fn result(statements: Vec<StatementOutcome>, outcome: TestOutcome) -> ExecutionResult {
        ExecutionResult {
            outcome,
            statements,
            trace: Default::default(),
            output: Default::default(),
            duration: Default::default(),
        }
    }

    fn object(class: &str) -> StatementOutcome {
        StatementOutcome::Normal(ValueSummary::Object { class: BinaryName::new(class) })
    }

    fn threw(class: &str) -> StatementOutcome {
        StatementOutcome::Threw(ExceptionInfo {
            class: BinaryName::new(class),
            message: None,
            direct: true,
            frames: vec![],
        })
    }

    #[test]
    fn the_base_ends_before_the_statement_a_test_throws_at() {
        let mut test = base();
        test.assertions.push(testcase::assertion::Assertion {
            var: VarId(2),
            kind: testcase::assertion::AssertionKind::Throws {
                exception: BinaryName::new("java.lang.Error"),
                message: None,
            },
        });
        assert_eq!(base_of(&test).unwrap().len(), 2);
        test.assertions[0].var = VarId(0);
        assert_eq!(base_of(&test), None, "nothing is left before the first statement");
    }

    #[test]
    fn an_inner_object_with_a_null_outer_instance_is_impossible() {
        let mut b = TestCaseBuilder::new();
        let null = b.null(FieldType::parse("Lp/Outer;").unwrap());
        let inner = b.construct(m("p.Outer$Inner", "<init>", "(Lp/Outer;)V"), &[null]);
        let nested = b.construct(m("p.Outer$Nested", "<init>", "(Lp/Other;)V"), &[null]);
        let test = b.build();
        assert!(is_impossible(&test, &test[inner].kind));
        assert!(!is_impossible(&test, &test[nested].kind), "not the outer class's instance");
    }

    #[test]
    fn a_twin_repeats_the_constructor_and_the_calls_on_the_object() {
        let base = base();
        let text: Vec<String> = twin_statements(&base, VarId(1)).unwrap().iter().map(ToString::to_string).collect();
        assert_eq!(text, ["new p.Foo(v0)", "v1.grow(v0)"]);
        assert_eq!(twin_statements(&base, VarId(2)), None, "made by a call on another object");
    }

    #[test]
    fn checks_are_appended_as_calls_with_twins_and_null_made_where_first_needed() {
        let foo = Obj::Var(VarId(1));
        let twin = Obj::Twin(VarId(1));
        let checks = [
            Check::Equals(foo, Some(foo)),
            Check::Equals(foo, None),
            Check::ToString(foo),
            Check::Equals(foo, Some(twin)),
            Check::HashCode(twin),
        ];
        let probe = assemble(&base(), &checks);
        assert_eq!(
            probe.test.to_string(),
            "v0 = 3\nv1 = new p.Foo(v0)\nv2 = v1.grow(v0)\nv3 = new p.Bar()\n\
             v4 = v1.equals(v1)\nv5 = (java.lang.Object) null\nv6 = v1.equals(v5)\nv7 = v1.toString()\n\
             v8 = new p.Foo(v0)\nv9 = v8.grow(v0)\nv10 = v1.equals(v8)\nv11 = v8.hashCode()\n"
        );
        assert_eq!(probe.at, [4, 6, 7, 10, 11]);
        assert_eq!(probe.twins.get(&VarId(1)), Some(&(8..10)));
    }

    #[test]
    fn a_run_gives_each_check_its_outcome_and_each_object_its_class() {
        let foo = Obj::Var(VarId(1));
        let checks = [Check::ToString(foo), Check::HashCode(foo), Check::Equals(foo, Some(foo))];
        let probe = assemble(&base(), &checks);
        let mut statements = vec![StatementOutcome::Normal(ValueSummary::Integer(3)), object("p.Sub"), object("p.Foo")];
        statements.push(object("p.Bar"));
        statements.push(StatementOutcome::Normal(ValueSummary::String("x".into())));
        statements.push(threw("java.lang.IllegalStateException"));
        statements.push(StatementOutcome::NotExecuted);
        let reading = read(&probe, &checks, &result(statements, TestOutcome::Completed));
        assert_eq!(reading.classes.get(&foo), Some(&Some(BinaryName::new("p.Sub"))));
        assert_eq!(reading.outcomes.len(), 2);
        assert!(
            matches!(&reading.outcomes[1], (1, Outcome::Threw(e)) if e.class.as_str() == "java.lang.IllegalStateException")
        );
        assert!(reading.dropped.is_empty(), "the equals check after it runs in the next round");
    }

    #[test]
    fn checks_after_a_base_statement_that_throws_are_dropped_and_sandbox_exceptions_say_nothing() {
        let foo = Obj::Var(VarId(1));
        let checks = [Check::ToString(foo), Check::HashCode(foo)];
        let probe = assemble(&base(), &checks);
        let mut statements = vec![StatementOutcome::Normal(ValueSummary::Integer(3)), object("p.Foo")];
        statements.push(threw("java.lang.IllegalStateException"));
        statements.extend([
            StatementOutcome::NotExecuted,
            StatementOutcome::NotExecuted,
            StatementOutcome::NotExecuted,
        ]);
        let reading = read(&probe, &checks, &result(statements, TestOutcome::Completed));
        assert_eq!(reading.dropped, [0, 1]);

        let mut statements = vec![StatementOutcome::Normal(ValueSummary::Integer(3)), object("p.Foo"), object("p.Foo")];
        statements.extend([object("p.Bar"), threw(exec::sandbox::TIME_UP), StatementOutcome::NotExecuted]);
        let reading = read(&probe, &checks, &result(statements, TestOutcome::Timeout));
        assert_eq!(reading.outcomes, [(0, Outcome::Dropped)]);
    }
}
