//! User theories as an oracle (Palus §3.4, TECHNIQUES.md §4 step 4;
//! `generate --theories CLASS`): the `@Theory` methods of a JUnit theories
//! class are run on the objects the generated tests create.
//!
//! At stage 7 ([`generate::Technique::oracle`]) each theory whose
//! parameters the values of a minimised test can fill (the first value of
//! each parameter's type, in statement order) runs at the end of that test's
//! statements: `new Theories().theory(x, y)`. A theory that returns, or
//! whose assumption fails (`org.junit.AssumptionViolatedException`, its
//! internal superclass, or opentest4j's `TestAbortedException`), holds; one
//! that throws anything else is violated, and the probe becomes a witness
//! test (one per theory and exception class) that ends by expecting that
//! exception, appended to the suite, so verification checks it under JUnit
//! like every other test. After verification ([`generate::Technique::findings`])
//! each witness still in the final suite with its expectation is a finding
//! of kind `theory`; the pipeline moves it into the findings test class.
//!
//! The theories class must be public with a public no-argument constructor,
//! on the class path with JUnit (its theories call `Assume`).

use std::collections::BTreeMap;

use exec::{Executor, StatementOutcome};
use generate::{ClassRun, Finding, Technique};
use model::annotations::annotation_descriptors;
use model::descriptor::{FieldType, MethodDescriptor};
use model::hierarchy::Supertypes;
use model::names::BinaryName;
use testcase::assertion::{Assertion, AssertionKind};
use testcase::ir::{MethodRef, Statement, StatementKind, TestCase, VarId};

/// The JUnit 4 theory annotation.
const THEORY: &str = "Lorg/junit/experimental/theories/Theory;";
/// Exceptions that say a theory's assumption failed: the theory does not apply.
const ASSUMPTION_FAILED: [&str; 3] = [
    "org.junit.AssumptionViolatedException",
    "org.junit.internal.AssumptionViolatedException",
    "org.opentest4j.TestAbortedException",
];
/// How many probes a class runs at most (one test execution each).
const MAX_PROBES: usize = 400;
/// Probes run per batch.
const BATCH: usize = 16;
/// How sure a violated theory is a bug: the developers wrote the property.
const CONFIDENCE: f64 = 0.9;

/// A `@Theory` method.
#[derive(Debug, Clone, PartialEq)]
struct Theory {
    method: MethodRef,
}

/// A witness test and what it shows.
#[derive(Debug, Clone)]
struct Witness {
    statements: Vec<Statement>,
    theory: MethodRef,
    exception: BinaryName,
    message: Option<String>,
    stack: Vec<String>,
}

/// The theories oracle of one theories class.
pub struct Theories {
    class: BinaryName,
    witnesses: Vec<Witness>,
    probes: usize,
}

impl Theories {
    /// The oracle of the theories class `class` (binary name).
    pub fn new(class: BinaryName) -> Theories {
        Theories { class, witnesses: Vec::new(), probes: 0 }
    }

    /// The class's public `@Theory` methods with parameters.
    fn theories(&self, run: &ClassRun) -> Vec<Theory> {
        let Ok(cf) = run.cp.load(self.class.as_str()) else {
            tracing::warn!(class = %self.class, "--theories: class not found on the class path");
            return Vec::new();
        };
        cf.methods
            .iter()
            .filter(|m| m.access & model::access::PUBLIC != 0 && m.access & model::access::STATIC == 0)
            .filter(|m| annotation_descriptors(&cf, &m.attributes).contains(&THEORY))
            .filter_map(|m| {
                let descriptor = MethodDescriptor::parse(cf.member_descriptor(m)).ok()?;
                (!descriptor.params.is_empty()).then(|| Theory {
                    method: MethodRef { owner: self.class.clone(), name: cf.member_name(m).to_string(), descriptor },
                })
            })
            .collect()
    }

    /// The probe of `theory` at the end of `test`'s statements (before the
    /// one it throws at), with the first value of each parameter's type.
    fn probe(&self, run: &ClassRun, test: &TestCase, theory: &Theory) -> Option<TestCase> {
        let end = thrown_at(test).unwrap_or(test.len());
        let mut args = Vec::new();
        for param in &theory.method.descriptor.params {
            let fits = |v: &VarId| {
                let s = &test[*v];
                s.produces_value()
                    && !matches!(s.kind, StatementKind::Null(_))
                    && assignable(run, &s.kind.value_type(), param)
            };
            args.push((0..end).map(var_id).find(fits)?);
        }
        let mut probe = TestCase { statements: test.statements[..end].to_vec(), ..TestCase::default() };
        let constructor = MethodRef {
            owner: self.class.clone(),
            name: "<init>".into(),
            descriptor: MethodDescriptor { params: Vec::new(), ret: None },
        };
        let receiver = var_id(probe.len());
        probe.statements.push(Statement::new(StatementKind::Constructor { method: constructor, args: Vec::new() }));
        probe.statements.push(Statement::new(StatementKind::Call { receiver, method: theory.method.clone(), args }));
        Some(probe)
    }
}

impl Technique for Theories {
    fn name(&self) -> &'static str {
        "theories"
    }

    fn oracle(&mut self, run: &mut ClassRun, tests: &mut Vec<TestCase>) {
        let theories = self.theories(run);
        let mut probes: Vec<(TestCase, &Theory)> = Vec::new();
        for t in tests.iter() {
            for th in &theories {
                if probes.len() < MAX_PROBES
                    && let Some(p) = self.probe(run, t, th)
                {
                    probes.push((p, th));
                }
            }
        }
        let mut seen: Vec<(MethodRef, BinaryName)> = Vec::new();
        for batch in probes.chunks(BATCH) {
            if run.deadlines.minimise.is_some_and(|d| std::time::Instant::now() >= d) {
                break;
            }
            let cases: Vec<TestCase> = batch.iter().map(|(p, _)| p.clone()).collect();
            let Ok(results) = run.pool.execute(&cases) else { break };
            self.probes += cases.len();
            for ((probe, theory), result) in batch.iter().zip(results) {
                let Some(StatementOutcome::Threw(info)) = result.statements.last() else { continue };
                let key = (theory.method.clone(), info.class.clone());
                if ASSUMPTION_FAILED.contains(&info.class.as_str()) || seen.contains(&key) {
                    continue;
                }
                seen.push(key);
                let mut witness = probe.clone();
                let last = var_id(witness.len() - 1);
                witness.assertions.push(Assertion {
                    var: last,
                    kind: AssertionKind::Throws { exception: info.class.clone(), message: None },
                });
                tests.push(witness.clone());
                self.witnesses.push(Witness {
                    statements: witness.statements,
                    theory: theory.method.clone(),
                    exception: info.class.clone(),
                    message: info.message.clone(),
                    stack: info.frames.iter().map(frame_text).collect(),
                });
            }
        }
    }

    fn findings(&mut self, _run: &mut ClassRun, suite: &[TestCase], names: &[String]) -> Vec<Finding> {
        self.witnesses
            .iter()
            .filter_map(|w| {
                let i = suite.iter().position(|t| {
                    t.statements == w.statements
                        && t.assertions.iter().any(
                            |a| matches!(&a.kind, AssertionKind::Throws { exception, .. } if *exception == w.exception),
                        )
                })?;
                let simple = w.theory.owner.simple_name();
                let message = w.message.as_deref().map_or(String::new(), |m| format!(": {m}"));
                Some(Finding {
                    origin: "theories".into(),
                    kind: "theory".into(),
                    method: format!("{}{}", w.theory.name, w.theory.descriptor.to_descriptor()),
                    location: None,
                    message: format!(
                        "theory {simple}.{} does not hold: it throws {}{message}",
                        w.theory.name, w.exception
                    ),
                    witness: names[i].clone(),
                    more_witnesses: Vec::new(),
                    confidence: CONFIDENCE,
                    stack_trace: w.stack.clone(),
                    score: None,
                    invariant: None,
                })
            })
            .collect()
    }

    fn stats(&self) -> BTreeMap<String, f64> {
        BTreeMap::from([
            ("probes".to_string(), self.probes as f64),
            ("violations".to_string(), self.witnesses.len() as f64),
        ])
    }
}

/// The value of statement `index`.
fn var_id(index: usize) -> VarId {
    VarId(index as u32)
}

/// `Class.method(File.java:LINE)`-like text of a frame: `class.method:line`.
fn frame_text(f: &exec::StackFrame) -> String {
    match f.line {
        Some(line) => format!("{}.{}:{line}", f.class, f.method),
        None => format!("{}.{}", f.class, f.method),
    }
}

/// The statement `test` expects to throw at, if any.
fn thrown_at(test: &TestCase) -> Option<usize> {
    test.assertions.iter().find_map(|a| matches!(a.kind, AssertionKind::Throws { .. }).then_some(a.var.index()))
}

/// Whether a value of type `from` can be passed where `to` is declared.
fn assignable(run: &ClassRun, from: &Option<FieldType>, to: &FieldType) -> bool {
    let Some(from) = from else { return false };
    match (from, to) {
        (a, b) if a == b => true,
        (FieldType::Object(a), FieldType::Object(b)) => {
            b.as_str() == "java/lang/Object"
                || Supertypes::of(&run.cp, a.to_binary().as_str())
                    .is_ok_and(|s| s.iter().any(|x| x.to_internal() == *b))
        }
        _ => false,
    }
}
