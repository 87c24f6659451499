//! KAT as a technique of the pipeline ([`generate::Technique`]): before the
//! search, the static check of the class under test and its nested classes,
//! and a goal with a call-condition probe per potential violation
//! ([`crate::goals`]; the classes are instrumented again with the probes);
//! after verification the findings: tests of the final suite in which a
//! documented exception, thrown at a potential violation, escapes a public
//! method undeclared (kind `api-misuse`).

use std::collections::BTreeMap;
use std::sync::Arc;

use exec::Executor;
use generate::technique::GoalSource;
use generate::{ClassRun, Finding, Technique};
use testcase::cluster::TestCluster;

use crate::budget::KatSource;
use crate::goals::AddedGoal;
use kat::KnowledgeGraph;
use model::names::BinaryName;
use testcase::TestCase;

use crate::witness::{self, Site};
use crate::{CheckOptions, check_class};

/// The kind of KAT's findings.
pub const FINDING_KIND: &str = "api-misuse";

/// JDK methods that exist to throw on a violated precondition
/// (`Objects.requireNonNull(x, "x")`): a finding at their call is reported
/// with half the confidence, since the exception is most likely the calling
/// method's intended contract.
const PRECONDITION_CHECKS: &[&str] = &[
    "java.util.Objects.requireNonNull",
    "java.util.Objects.checkIndex",
    "java.util.Objects.checkFromToIndex",
    "java.util.Objects.checkFromIndexSize",
];

/// KAT's technique.
pub struct Kat {
    graph: Arc<KnowledgeGraph>,
    options: CheckOptions,
    /// The potential violations of the current class, by call site.
    sites: Vec<Site>,
    /// The goals added for the current class.
    goals: Vec<AddedGoal>,
}

impl Kat {
    /// KAT with the knowledge graph `graph`.
    pub fn new(graph: Arc<KnowledgeGraph>, options: CheckOptions) -> Kat {
        Kat { graph, options, sites: Vec::new(), goals: Vec::new() }
    }
}

impl Technique for Kat {
    fn name(&self) -> &'static str {
        "kat"
    }

    fn goals(&mut self, run: &mut ClassRun) {
        self.sites.clear();
        let classes: Vec<BinaryName> =
            std::iter::once(run.class.clone()).chain(run.cp.nested_class_names(&run.class)).collect();
        let mut next_probe = run.next_branch_probe();
        self.goals.clear();
        for class in classes {
            let Ok(cf) = run.cp.load(class.as_str()) else { continue };
            let check = check_class(&cf, &self.graph, &self.options);
            let source_file = check.source_file.as_deref();
            self.sites.extend(witness::sites(&class, source_file, &check.violations));
            let added = crate::goals::add_goals(run, &class, &cf, source_file, &check.violations, &mut next_probe);
            self.goals.extend(added.goals);
            if !added.probes.sites.is_empty()
                && let Err(e) = run.reinstrument(&class, Box::new(added.probes))
            {
                tracing::warn!("kat: {class} keeps no call-condition probes: {e}");
            }
        }
        tracing::debug!(class = %run.class, sites = self.sites.len(), goals = self.goals.len(), "kat: goals");
    }

    fn goal_source(&mut self, _run: &ClassRun, cluster: &TestCluster) -> Option<Box<dyn GoalSource>> {
        let methods = crate::budget::methods_of(&self.goals, cluster);
        (!methods.is_empty()).then(|| Box::new(KatSource::new(methods)) as Box<dyn GoalSource>)
    }

    fn findings(&mut self, run: &mut ClassRun, suite: &[TestCase], names: &[String]) -> Vec<Finding> {
        if self.sites.is_empty() {
            return Vec::new();
        }
        // Only tests that end in an exception can witness one.
        let throwing: Vec<usize> = (0..suite.len()).filter(|&i| ends_in_exception(&suite[i])).collect();
        let tests: Vec<TestCase> = throwing.iter().map(|&i| suite[i].clone()).collect();
        let results = run_until_end(run, &tests);
        // Per site, its witnesses: the shortest test first.
        let mut found: BTreeMap<usize, Vec<(usize, witness::Witness)>> = BTreeMap::new();
        for (k, result) in results.iter().enumerate() {
            for (s, site) in self.sites.iter().enumerate() {
                if let Some(w) = witness::witness(&run.cp, &self.graph, &run.class, &tests[k], &result.statements, site)
                {
                    found.entry(s).or_default().push((k, w));
                }
            }
        }
        let mut out: Vec<Finding> = Vec::new();
        for (s, mut ws) in found {
            ws.sort_by_key(|(k, _)| tests[*k].statements.len());
            let mut f = finding(&self.sites[s], &names[throwing[ws[0].0]], &ws[0].1, &run.class);
            f.more_witnesses = ws[1..].iter().map(|(k, _)| names[throwing[*k]].clone()).collect();
            // Two calls of the documented method on one line are told apart
            // by their line only: the same test witnesses both, one finding.
            if !out.iter().any(|o| o.location == f.location && o.witness == f.witness) {
                out.push(f);
            }
        }
        out
    }
}

/// Runs `tests` on the workers in batches until the class's end
/// ([`generate::class_run::Deadlines::coverage`]); the results of the batches that ran,
/// in order (fewer than the tests when time ran out or a batch failed).
fn run_until_end(run: &mut ClassRun, tests: &[TestCase]) -> Vec<exec::ExecutionResult> {
    const BATCH: usize = 16;
    let mut out = Vec::new();
    for batch in tests.chunks(BATCH) {
        if run.deadlines.coverage.is_some_and(|end| std::time::Instant::now() >= end) {
            tracing::warn!(class = %run.class, left = tests.len() - out.len(), "kat: no time left to run the findings' tests");
            break;
        }
        match run.pool.execute(batch) {
            Ok(results) => out.extend(results),
            Err(e) => {
                tracing::warn!(class = %run.class, "kat: the findings' tests did not run: {e}");
                break;
            }
        }
    }
    out
}

/// Whether a test expects an exception (it has a `Throws` assertion).
fn ends_in_exception(test: &TestCase) -> bool {
    test.assertions.iter().any(|a| matches!(a.kind, testcase::assertion::AssertionKind::Throws { .. }))
}

/// The finding of `site` witnessed by test `name`.
fn finding(site: &Site, name: &str, w: &witness::Witness, cut: &BinaryName) -> Finding {
    let v = &site.violations[0];
    let conditions: Vec<&str> = site.violations.iter().map(|v| v.condition.as_str()).collect();
    let bug = site.violations.iter().map(|v| v.bug_confidence).fold(0.0, f32::max);
    let knowledge = site.violations.iter().map(|v| v.knowledge_confidence).fold(0.0, f32::max);
    let exception = v.exception.replace('/', ".");
    let message = format!(
        "{} throws {exception} \"{}\" ({}); it escapes {}.{} undeclared",
        v.api,
        v.sentence,
        conditions.join(" or "),
        cut.simple_name(),
        w.public_method.split('(').next().unwrap_or(&w.public_method),
    );
    // A precondition check throws by design: likely intended where it is called.
    let precondition = PRECONDITION_CHECKS.iter().any(|p| v.api.starts_with(p));
    let (message, weight) =
        if precondition { (format!("{message} (a precondition check: likely intended)"), 0.5) } else { (message, 1.0) };
    Finding {
        origin: "kat".into(),
        kind: FINDING_KIND.into(),
        method: w.public_method.clone(),
        location: Some(site.location()),
        message,
        witness: name.to_string(),
        more_witnesses: Vec::new(),
        confidence: weight * f64::from(bug + knowledge) / 2.0,
        stack_trace: witness::trace(&w.exception, &w.public_method),
        score: None,
        invariant: None,
    }
}
