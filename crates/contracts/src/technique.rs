//! The contracts oracle as a technique of the pipeline
//! ([`generate::Technique`]): in stage 7 ([`Technique::oracle`]) it checks
//! the tests' objects and adds one witness test per broken (class,
//! contract); after verification ([`Technique::findings`]) it reports each
//! witness still in the suite with its assertions, and the suite's other
//! tests that show a violation by themselves.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use exec::Executor;
use generate::class_run::Deadlines;
use generate::{ClassRun, Finding, Technique};
use model::names::BinaryName;
use testcase::{StatementKind, TestCase, VarId};

use crate::contract::{Contract, Doubts, Method, confidence};
use crate::describe;
use crate::facts::{ClassFacts, Declared};
use crate::judge::{Evidence, Violation, judge, thrown_by_other_code, thrown_elsewhere};
use crate::probe::{Check, Obj, Outcome, Plan, assemble, plan, read, within_public_api};
use crate::suite::{Shown, carries, shown};
use crate::witness::{holds, minimise, witness};

/// The kind of the findings.
pub const FINDING_KIND: &str = "contract";

/// Rounds of probes per test at most: a check that throws ends a probe,
/// the next round goes on after it.
const MAX_ROUNDS: usize = 4;

/// Probes sent to the workers at once.
const BATCH: usize = 16;

/// The share of the time left before verification's deadline that the
/// oracle may take (it runs after mutation analysis).
const SHARE_OF_VERIFICATION: u32 = 8;

/// The contracts oracle (Palus; TECHNIQUES.md §4 item 4).
#[derive(Default)]
pub struct Contracts {
    /// The witnesses added for the current class, with their findings
    /// (the witness's name is filled in by [`Technique::findings`]).
    recorded: Vec<(TestCase, Finding, (BinaryName, Contract))>,
    /// Numbers of the current class for `report.json`.
    stats: BTreeMap<String, f64>,
}

impl Contracts {
    /// The oracle.
    pub fn new() -> Contracts {
        Contracts::default()
    }

    fn count(&mut self, key: &str, n: usize) {
        *self.stats.entry(key.to_string()).or_default() += n as f64;
    }
}

/// What is known of one plan's checks.
struct Checked {
    plan: Plan,
    outcomes: BTreeMap<usize, Outcome>,
    classes: BTreeMap<Obj, Option<BinaryName>>,
    /// Checks neither ended nor dropped.
    pending: Vec<usize>,
}

impl Technique for Contracts {
    fn name(&self) -> &'static str {
        "contracts"
    }

    fn oracle(&mut self, run: &mut ClassRun, tests: &mut Vec<TestCase>) {
        let started = Instant::now();
        self.recorded.clear();
        self.stats.clear();
        let deadline = oracle_deadline(&run.deadlines, started);
        let mut facts = ClassFacts::new(run.cp.clone(), &run.user_class_path);
        let mut checked: Vec<Checked> = tests
            .iter()
            .filter_map(|t| plan(t, &mut facts))
            .map(|plan| {
                let pending = (0..plan.checks.len()).collect();
                Checked { plan, outcomes: BTreeMap::new(), classes: BTreeMap::new(), pending }
            })
            .collect();
        self.count("tests_checked", checked.len());
        for _ in 0..MAX_ROUNDS {
            if !self.round(run, &mut checked, deadline) {
                break;
            }
        }
        let violations = self.violations(&checked, &mut facts);
        let witnesses = self.witnesses(run, &violations, &mut facts, deadline);
        self.count("witnesses", witnesses.len());
        tests.extend(witnesses);
        self.stats.insert("seconds".into(), started.elapsed().as_secs_f64());
        tracing::debug!(class = %run.class, stats = ?self.stats, "contracts: checked");
    }

    fn findings(&mut self, run: &mut ClassRun, suite: &[TestCase], names: &[String]) -> Vec<Finding> {
        let mut facts = ClassFacts::new(run.cp.clone(), &run.user_class_path);
        let mut out: Vec<(Finding, (BinaryName, Contract))> = Vec::new();
        let mut witnesses = BTreeSet::new();
        for (test, finding, key) in &self.recorded {
            if let Some(i) = suite.iter().position(|t| carries(t, test)) {
                out.push((Finding { witness: names[i].clone(), ..finding.clone() }, key.clone()));
                witnesses.insert(i);
            }
        }
        let mut shown_in: Vec<(usize, Shown)> = Vec::new();
        for (i, test) in suite.iter().enumerate().filter(|(i, _)| !witnesses.contains(i)) {
            if !within_public_api(test, &facts) {
                continue;
            }
            let has = |class: &BinaryName, m: Method| facts.declared(class).is_some_and(|d| d.declares(m));
            shown_in.extend(shown(test, has).into_iter().map(|s| (i, s)));
        }
        let frames = exception_frames(run, suite, &shown_in);
        for (i, s) in shown_in {
            let frames = frames.get(&(i, s.at)).map(Vec::as_slice);
            let chain = facts.declared(&s.class).map(|d| d.chain).unwrap_or_default();
            // An exception out of another class's contract method (an element's)
            // witnesses that class's finding, if it has one.
            let elsewhere = frames.and_then(|f| thrown_elsewhere(f, &chain, s.contract.method()));
            let key = match &elsewhere {
                Some(e) => match e.method.and_then(Contract::throwing) {
                    Some(contract) => (e.class.clone(), contract),
                    None => continue,
                },
                None => (s.class.clone(), s.contract),
            };
            let name = &names[i];
            match out.iter_mut().find(|(_, k)| *k == key) {
                Some((f, _)) if f.witness != *name && !f.more_witnesses.contains(name) => {
                    f.more_witnesses.push(name.clone());
                }
                Some(_) => {}
                None if elsewhere.is_none() => out.push((shown_finding(&suite[i], &s, name, frames, &mut facts), key)),
                None => {}
            }
        }
        self.count("findings", out.len());
        out.into_iter().map(|(f, _)| f).collect()
    }

    fn stats(&self) -> BTreeMap<String, f64> {
        self.stats.clone()
    }
}

impl Contracts {
    /// One round of probes: each plan with pending checks runs them once
    /// (in batches, until `deadline`); whether any probe ran.
    fn round(&mut self, run: &mut ClassRun, checked: &mut [Checked], deadline: Option<Instant>) -> bool {
        let todo: Vec<usize> = (0..checked.len()).filter(|&i| !checked[i].pending.is_empty()).collect();
        let mut ran = false;
        for batch in todo.chunks(BATCH) {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                tracing::debug!(class = %run.class, "contracts: no time left for more probes");
                return false;
            }
            let probes: Vec<_> = batch
                .iter()
                .map(|&i| {
                    let c = &checked[i];
                    let checks: Vec<Check> = c.pending.iter().map(|&k| c.plan.checks[k].clone()).collect();
                    (assemble(&c.plan.base, &checks), checks)
                })
                .collect();
            let tests: Vec<TestCase> = probes.iter().map(|(p, _)| p.test.clone()).collect();
            let results = match run.pool.execute(&tests) {
                Ok(r) => r,
                Err(e) => {
                    tracing::warn!(class = %run.class, "contracts: probes did not run: {e}");
                    return false;
                }
            };
            self.count("executions", results.len());
            ran = true;
            for ((&i, (probe, checks)), result) in batch.iter().zip(&probes).zip(&results) {
                let reading = read(probe, checks, result);
                let c = &mut checked[i];
                let pending = std::mem::take(&mut c.pending);
                for (k, outcome) in reading.outcomes {
                    c.outcomes.insert(pending[k], outcome);
                }
                for (o, class) in reading.classes {
                    c.classes.entry(o).or_insert(class);
                }
                let done: BTreeSet<usize> =
                    c.outcomes.keys().copied().chain(reading.dropped.iter().map(|&k| pending[k])).collect();
                let mut left: Vec<usize> = pending.iter().copied().filter(|k| !done.contains(k)).collect();
                if left.len() == pending.len() {
                    // No progress: give up the first check (a crash or time-out there).
                    left.remove(0);
                }
                c.pending = left;
            }
        }
        ran
    }

    /// The violations of every plan, one per (class, contract): the one of
    /// the shortest test, the first among equals; each with its plan.
    fn violations<'a>(&mut self, checked: &'a [Checked], facts: &mut ClassFacts) -> Vec<(&'a Plan, Violation)> {
        let classes: BTreeSet<&BinaryName> = checked.iter().flat_map(|c| c.classes.values().flatten()).collect();
        let declared: BTreeMap<BinaryName, Declared> =
            classes.into_iter().filter_map(|c| Some((c.clone(), facts.declared(c)?))).collect();
        let user_objects =
            checked.iter().flat_map(|c| c.classes.values().flatten()).filter(|c| declared.contains_key(*c));
        self.count("objects_checked", user_objects.count());
        self.count("checks", checked.iter().map(|c| c.outcomes.len()).sum());
        let mut best: BTreeMap<(BinaryName, Contract), (&Plan, Violation)> = BTreeMap::new();
        for c in checked {
            let evidence =
                Evidence { checks: &c.plan.checks, outcomes: &c.outcomes, classes: &c.classes, declared: &declared };
            for v in judge(&evidence) {
                let key = (v.class.clone(), v.contract);
                let shorter = best.get(&key).is_none_or(|(p, _)| c.plan.base.len() < p.base.len());
                if shorter {
                    best.insert(key, (&c.plan, v));
                }
            }
        }
        self.count("violations", best.len());
        for (plan, v) in best.values() {
            tracing::debug!(contract = v.contract.name(), class = %v.class, "contracts: {}", describe::message(&plan.base, v));
        }
        best.into_values().collect()
    }

    /// The witness tests of `violations`: each run once more and kept when
    /// it shows its violation again, then made smaller (until `deadline`);
    /// each recorded with its finding.
    fn witnesses(
        &mut self,
        run: &mut ClassRun,
        violations: &[(&Plan, Violation)],
        facts: &mut ClassFacts,
        deadline: Option<Instant>,
    ) -> Vec<TestCase> {
        let tests: Vec<TestCase> = violations.iter().map(|(p, v)| witness(&p.base, v)).collect();
        if tests.is_empty() || deadline.is_some_and(|d| Instant::now() >= d) {
            return Vec::new();
        }
        let results = match run.pool.execute(&tests) {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(class = %run.class, "contracts: witnesses did not run: {e}");
                return Vec::new();
            }
        };
        let mut runs = results.len();
        let mut out = Vec::new();
        for (((plan, violation), test), result) in violations.iter().zip(tests).zip(&results) {
            if !holds(&test, result) {
                tracing::debug!(class = %run.class, contract = violation.contract.name(), outcome = ?result.outcome, statements = ?result.statements, "contracts: witness does not hold\n{test}");
                continue;
            }
            let small = minimise(&test, &mut run.pool, deadline, &mut runs).unwrap_or(test);
            tracing::debug!(class = %run.class, contract = violation.contract.name(), "contracts: witness\n{small}");
            let finding = finding(plan, violation, facts);
            self.recorded.push((small.clone(), finding, (violation.class.clone(), violation.contract)));
            out.push(small);
        }
        self.count("executions", runs);
        out
    }
}

/// The stack frames of the exception each throwing `shown` test throws
/// at its call, by (test, statement): the tests run once more on the
/// workers, in batches, until the class's end.
fn exception_frames(
    run: &mut ClassRun,
    suite: &[TestCase],
    shown_in: &[(usize, Shown)],
) -> BTreeMap<(usize, VarId), Vec<exec::StackFrame>> {
    let tests: BTreeSet<usize> = shown_in.iter().filter(|(_, s)| s.exception.is_some()).map(|(i, _)| *i).collect();
    let tests: Vec<usize> = tests.into_iter().collect();
    let mut out = BTreeMap::new();
    for batch in tests.chunks(BATCH) {
        if run.deadlines.coverage.is_some_and(|end| Instant::now() >= end) {
            break;
        }
        let cases: Vec<TestCase> = batch.iter().map(|&i| suite[i].clone()).collect();
        let Ok(results) = run.pool.execute(&cases) else { break };
        for (&i, result) in batch.iter().zip(&results) {
            for (_, s) in shown_in.iter().filter(|(j, _)| *j == i) {
                if let Some(exec::StatementOutcome::Threw(e)) = result.statements.get(s.at.index()) {
                    out.insert((i, s.at), e.frames.clone());
                }
            }
        }
    }
    out
}

/// When the oracle stops: an eighth of the time left before verification's
/// deadline (`None` without a time budget).
fn oracle_deadline(deadlines: &Deadlines, now: Instant) -> Option<Instant> {
    let end = deadlines.verify.or(deadlines.coverage)?;
    Some(now + end.saturating_duration_since(now) / SHARE_OF_VERIFICATION)
}

/// `name(descriptor)` of the method a violation is about.
fn method_key(violation: &Violation) -> String {
    let method = violation.contract.method();
    let compare = violation.steps.iter().find_map(|(c, _)| match c {
        Check::CompareTo(_, _, m) => Some(m),
        _ => None,
    });
    match (compare, method.object_descriptor()) {
        (Some(m), _) if method == Method::CompareTo => format!("{}{}", m.name, m.descriptor.to_descriptor()),
        (_, Some(d)) => format!("{}{d}", method.name()),
        _ => method.name().to_string(),
    }
}

/// The finding of a violation found on `plan` (its witness named later).
fn finding(plan: &Plan, violation: &Violation, facts: &mut ClassFacts) -> Finding {
    let method = violation.contract.method();
    let with_null = describe::objects(violation).iter().any(|o| describe::made_with_null(&plan.base, o.origin()));
    let exception = violation.exception.as_ref();
    let declared = facts.declared(&violation.class).unwrap_or_default();
    let doubts = Doubts {
        null_argument: with_null,
        hidden_class: !facts.is_public(&violation.class),
        other_code: exception.is_some_and(|e| thrown_by_other_code(&e.frames, &declared.chain)),
        exception: exception.map(|e| e.class.as_str()),
    };
    let declaring = declared.by.get(&method).cloned();
    let location = exception
        .and_then(|e| facts.frame_location(&e.frames))
        .or_else(|| declaring.and_then(|d| facts.method_location(&d, method)));
    Finding {
        origin: "contracts".into(),
        kind: FINDING_KIND.into(),
        method: method_key(violation),
        location,
        message: describe::message(&plan.base, violation),
        witness: String::new(),
        more_witnesses: Vec::new(),
        confidence: confidence(violation.contract, doubts),
        stack_trace: exception.map(|e| describe::trace(&e.frames)).unwrap_or_default(),
        score: None,
        invariant: None,
    }
}

/// The finding of a violation a test of the suite shows by itself, with
/// the frames of its exception when it ran again.
fn shown_finding(
    test: &TestCase,
    s: &Shown,
    name: &str,
    frames: Option<&[exec::StackFrame]>,
    facts: &mut ClassFacts,
) -> Finding {
    let method = s.contract.method();
    let StatementKind::Call { receiver, method: called, .. } = &test[s.at].kind else {
        unreachable!("shown names calls only")
    };
    let made = describe::made_by(test, *receiver);
    let class = s.class.java_name();
    let simple = class.rsplit('.').next().unwrap_or_default();
    let exception = s.exception.as_ref().map(|e| e.java_name());
    let object = format!("{} made by {made}", describe::with_article(simple));
    let message = match (&exception, s.contract) {
        (Some(e), _) => format!("{} throws {} for {object}", method.name(), e.rsplit('.').next().unwrap_or_default()),
        (None, Contract::EqualsNull) => format!("equals accepts null: x.equals(null) is true for {object}"),
        _ => format!("equals is not reflexive: x.equals(x) is false for {object}"),
    };
    let declared = facts.declared(&s.class).unwrap_or_default();
    let declaring = declared.by.get(&method).cloned();
    let doubts = Doubts {
        null_argument: describe::made_with_null(test, *receiver),
        hidden_class: !facts.is_public(&s.class),
        other_code: frames.is_some_and(|f| thrown_by_other_code(f, &declared.chain)),
        exception: exception.as_deref(),
    };
    Finding {
        origin: "contracts".into(),
        kind: FINDING_KIND.into(),
        method: format!("{}{}", called.name, called.descriptor.to_descriptor()),
        location: frames
            .and_then(|f| facts.frame_location(f))
            .or_else(|| declaring.and_then(|d| facts.method_location(&d, method))),
        message,
        witness: name.to_string(),
        more_witnesses: Vec::new(),
        confidence: confidence(s.contract, doubts),
        stack_trace: frames.map(describe::trace).unwrap_or_default(),
        score: None,
        invariant: None,
    }
}
