//! Probe instrumentation of class files.
//!
//! Brief overview: [`Instrumenter::instrument`] takes the bytes of a class,
//! computes its goals ([`analysis::goals::class_goals`]), derives a
//! [`plan::ProbePlan`] (which instructions get which probe) with global probe
//! ids, and rewrites every method ([`rewrite::rewrite_method`]) so that it
//! calls the Java-side tracer ([`tracer`]). Behaviour is unchanged: probes
//! are stack-neutral straight-line snippets, and every offset of the `Code`
//! attribute is remapped.
//!
//! Modules:
//! - [`batch`]: a list of classes instrumented into a folder a JVM can run.
//! - [`tracer`]: the tracer class bytes and its probe methods.
//! - [`probe`]: the [`probe::ProbeKind`] trait and snippet building.
//! - [`probes`]: branch, switch, line and method-entry probes, the sandbox
//!   rewrites, and the mutant schema.
//! - [`plan`]: probe sites and global id bases.
//! - [`rewrite`]: applying edits to one method and fixing offsets.
//! - [`trace`]: reading branch records as taken sides and branch distances.
//! - [`record`]: recording instrumentation for Palus's sample runs (entry
//!   and exit of every method a client can call, no coverage probes).
//! - [`static_reset`]: the reset method that puts a class's static fields
//!   back to their initial state before each test
//!   ([`Instrumenter::with_static_reset`]).
//!
//! [`Instrumenter::instrument_mutants`] instead makes a class's mutant
//! schema ([`probes::mutants`]): all its mutants in one class, switched by
//! the runtime's `Mutants.active`, with the sandbox probes but no coverage
//! probes.
//!
//! ```no_run
//! let bytes = std::fs::read("Foo.class").unwrap();
//! let mut instrumenter = instrument::Instrumenter::default();
//! let out = instrument::Instrumenter::instrument(&mut instrumenter, &bytes).unwrap();
//! std::fs::write("out/Foo.class", &out.bytes).unwrap();
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod batch;
pub mod plan;
pub mod probe;
pub mod probes;
pub mod record;
pub mod rewrite;
pub mod static_reset;
pub mod trace;
pub mod tracer;

use analysis::error::AnalysisError;
use model::classfile::{ClassFile, ClassFileError};
use model::names::InternalName;
use serde::{Deserialize, Serialize};

use crate::plan::{PlanError, ProbeBases, ProbePlan};
use crate::probes::mutants::{MethodFacts, MutantSchema, append_bootstrap_methods, bootstrap_methods};
pub use crate::probes::mutants::{Mutant, MutantOperator};
use crate::rewrite::{MethodOutcome, RewriteError, rewrite_method};
use crate::static_reset::{ResetScope, ResetStatus};

/// Errors that stop a whole class from being instrumented.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InstrumentError {
    /// The class file could not be decoded.
    #[error("cannot read class file: {0}")]
    ClassFile(#[from] ClassFileError),
    /// The analysis failed on the class.
    #[error("cannot analyse {class}: {source}")]
    Analysis {
        /// The class.
        class: InternalName,
        /// What the analysis found malformed.
        #[source]
        source: AnalysisError,
    },
    /// A method of the class could not be decoded while listing every probe
    /// site ([`Instrumenter::instrument_every_site`]).
    #[error("cannot analyse {class}: {source}")]
    Plan {
        /// The class.
        class: InternalName,
        /// The method and what is malformed in it.
        #[source]
        source: PlanError,
    },
}

/// A method left without (some) probes, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedMethod {
    /// `name descriptor`.
    pub method: String,
    /// Which probes the method kept.
    pub kept: Kept,
    /// Why the full set of probes did not fit.
    pub reason: String,
}

/// The probes a method kept when the full set did not fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kept {
    /// Every probe but the line probes.
    AllButLines,
    /// Only exit rewriting and loop checks; no coverage probes.
    SandboxOnly,
    /// None: the method is unchanged.
    Nothing,
}

/// One instrumented class: its new bytes and how probe ids map to it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct InstrumentedClass {
    /// Internal name.
    pub class: InternalName,
    /// The instrumented class file (not serialised into `probes.json`).
    #[serde(skip)]
    pub bytes: Vec<u8>,
    /// Probe sites, in probe-id order per kind.
    pub plan: ProbePlan,
    /// First global probe id of each kind; site k of a kind has id base + k.
    pub bases: ProbeBases,
    /// Methods that could not take every probe.
    pub skipped: Vec<SkippedMethod>,
    /// Whether the class got a static reset ([`Instrumenter::with_static_reset`]).
    #[serde(default)]
    pub static_reset: ResetStatus,
}

/// One class instrumented with all its mutants as a mutant schema.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MutantSchemaClass {
    /// Internal name.
    pub class: InternalName,
    /// The class file with the mutant schema (not serialised).
    #[serde(skip)]
    pub bytes: Vec<u8>,
    /// Its mutants, in id order (ids are consecutive).
    pub mutants: Vec<Mutant>,
    /// Methods that could not take their mutants ([`Kept::SandboxOnly`]:
    /// the method has no mutants; [`Kept::Nothing`]: it is unchanged).
    pub skipped: Vec<SkippedMethod>,
}

/// Instruments classes one after another, handing out global probe ids
/// and global mutant ids.
#[derive(Debug, Default)]
pub struct Instrumenter {
    next: ProbeBases,
    /// Value-log site ids handed out so far by [`Self::instrument_every_site`].
    value_sites: u32,
    /// Mutant ids handed out so far (ids start at 1).
    mutants: u32,
    /// The classes that get a static reset ([`static_reset`]), if any.
    reset: Option<ResetScope>,
}

impl Instrumenter {
    /// Gives the classes of `scope` that are instrumented from now on a
    /// static reset ([`static_reset`]), in coverage and mutant instrumentation.
    pub fn with_static_reset(mut self, scope: ResetScope) -> Instrumenter {
        self.reset = Some(scope);
        self
    }

    /// The original `<clinit>` code of `cf` (`Some(None)` when it has none)
    /// when `cf` is in the reset scope, `None` when it gets no reset.
    fn reset_source(&self, cf: &ClassFile) -> Option<Option<model::classfile::Attribute>> {
        let scope = self.reset.as_ref()?;
        scope.covers(cf.name()).then(|| static_reset::original_clinit(cf))
    }

    /// Instruments one class file.
    ///
    /// # Errors
    /// [`InstrumentError`] when the class cannot be read or analysed;
    /// methods that cannot be rewritten are kept unchanged and listed in
    /// [`InstrumentedClass::skipped`] instead.
    pub fn instrument(&mut self, bytes: &[u8]) -> Result<InstrumentedClass, InstrumentError> {
        let cf = ClassFile::parse(bytes)?;
        let goals = analysis::goals::class_goals(&cf)
            .map_err(|source| InstrumentError::Analysis { class: InternalName::new(cf.name()), source })?;
        let commits = analysis::commit::commit_rules(&cf, &goals);
        let plan = ProbePlan::from_goals(&goals).with_commits(commits);
        Ok(self.apply(cf, plan))
    }

    /// Instruments a class the class under test uses (a neighbour) for the
    /// values it compares, not for goals: a branch probe at every
    /// conditional jump (its operands feed the dynamic seeds and the
    /// input-to-state pairs, `Tracer.cmpII`; its records map to no goal),
    /// the `String.equals` rewrite and the sandbox probes; no line, switch
    /// or method probes and no static reset. EvoSuite likewise applies its
    /// testability transformation to every class of the project under test.
    ///
    /// # Errors
    /// [`InstrumentError`] when the class cannot be read or decoded.
    pub fn instrument_comparisons(&mut self, bytes: &[u8]) -> Result<InstrumentedClass, InstrumentError> {
        let cf = ClassFile::parse(bytes)?;
        let plan_error = |source| InstrumentError::Plan { class: InternalName::new(cf.name()), source };
        let branches = ProbePlan::every_site(&cf).map_err(plan_error)?.branches;
        let reset = self.reset.take();
        let out = self.apply(cf, ProbePlan { branches, ..ProbePlan::default() });
        self.reset = reset;
        Ok(out)
    }

    /// The probe ids the next class instrumented gets.
    pub fn next_bases(&self) -> ProbeBases {
        self.next
    }

    /// An instrumenter whose first class gets the probe ids `bases`: one
    /// that goes on after another's classes ([`batch::Batch::next_bases`]).
    pub fn starting_at(bases: ProbeBases) -> Instrumenter {
        Instrumenter { next: bases, ..Instrumenter::default() }
    }

    /// Instruments one class file with a probe at every conditional jump,
    /// switch, line and method, goals or not ([`ProbePlan::every_site`]),
    /// and a value-log probe after every logged call
    /// ([`probes::value_log`]): the most probes a class can get.
    ///
    /// # Errors
    /// [`InstrumentError`] when the class cannot be read or decoded.
    pub fn instrument_every_site(&mut self, bytes: &[u8]) -> Result<InstrumentedClass, InstrumentError> {
        let cf = ClassFile::parse(bytes)?;
        let plan_error = |source| InstrumentError::Plan { class: InternalName::new(cf.name()), source };
        let plan = ProbePlan::every_site(&cf).map_err(plan_error)?;
        let this = cf.name().to_string();
        let values =
            probes::value_log::ValueLogProbes::plan(&cf, self.value_sites, &|c| c == this).map_err(plan_error)?;
        self.value_sites += values.sites.len() as u32;
        let bases = self.next;
        self.next = bases.after(&plan);
        Ok(self.apply_with(cf, plan, bases, &[&values]))
    }

    /// The class with all its mutants as a schema (no coverage probes; the
    /// sandbox probes are kept), and the list of mutants. Mutant ids are
    /// global across the classes this `Instrumenter` handled, starting at 1;
    /// setting `ferrosuite.runtime.Mutants.active` to an id activates that
    /// mutant, 0 runs the original code.
    ///
    /// # Errors
    /// [`InstrumentError`] when the class cannot be read or its
    /// `BootstrapMethods` attribute cannot be extended; methods that cannot
    /// be rewritten keep the sandbox probes only (or stay unchanged), have
    /// no mutants and are listed in [`MutantSchemaClass::skipped`].
    pub fn instrument_mutants(&mut self, bytes: &[u8]) -> Result<MutantSchemaClass, InstrumentError> {
        let mut cf = ClassFile::parse(bytes)?;
        let class = InternalName::new(cf.name());
        let existing = bootstrap_methods(&cf)?;
        let reset = self.reset_source(&cf);
        let mut added = Vec::new();
        let mut mutants = Vec::new();
        let mut skipped = Vec::new();
        for index in 0..cf.methods.len() {
            let Some(facts) = MethodFacts::of(&cf, index) else {
                let sandbox = probes::sandbox_probes(&cf.constant_pool);
                if let Err(e) = rewrite_method(&mut cf, index, &sandbox) {
                    skipped.push(skipped_method(&cf, index, Kept::Nothing, &e));
                }
                continue;
            };
            let kind = MutantSchema::new(facts, self.mutants + 1, existing.len() + added.len());
            let mut kinds: Vec<Box<dyn probe::ProbeKind + '_>> = vec![Box::new(&kind)];
            kinds.extend(probes::sandbox_probes(&cf.constant_pool));
            let result = rewrite_method(&mut cf, index, &kinds);
            drop(kinds);
            let recorded = kind.recorded.into_inner();
            // Appended even when the rewrite failed: the pool refers to them.
            added.extend(recorded.bootstrap);
            match result {
                Ok(_) => {
                    self.mutants += recorded.mutants.len() as u32;
                    mutants.extend(recorded.mutants);
                }
                Err(e) => {
                    let sandbox = probes::sandbox_probes(&cf.constant_pool);
                    let kept = if rewrite_method(&mut cf, index, &sandbox).is_ok() {
                        Kept::SandboxOnly
                    } else {
                        Kept::Nothing
                    };
                    skipped.push(skipped_method(&cf, index, kept, &e));
                }
            }
        }
        append_bootstrap_methods(&mut cf, &existing, &added)?;
        if let Some(clinit) = reset {
            static_reset::add_reset(&mut cf, clinit);
        }
        Ok(MutantSchemaClass { class, bytes: cf.to_bytes(), mutants, skipped })
    }

    /// Instruments `bytes` again as `prior` was instrumented from them (the
    /// same plan and probe ids, so goal maps built for `prior` still apply),
    /// with the probe kinds `extra` added to the coverage probes: how a
    /// technique adds probes for goals of its own (`generate::Technique::goals`).
    /// A method that cannot take them all loses them with the line probes.
    ///
    /// # Errors
    /// [`InstrumentError`] when the class cannot be read.
    pub fn reinstrument(
        &mut self,
        bytes: &[u8],
        prior: &InstrumentedClass,
        extra: &[&dyn probe::ProbeKind],
    ) -> Result<InstrumentedClass, InstrumentError> {
        let cf = ClassFile::parse(bytes)?;
        Ok(self.apply_with(cf, prior.plan.clone(), prior.bases, extra))
    }

    fn apply(&mut self, cf: ClassFile, plan: ProbePlan) -> InstrumentedClass {
        let bases = self.next;
        self.next = bases.after(&plan);
        self.apply_with(cf, plan, bases, &[])
    }

    fn apply_with(
        &mut self,
        mut cf: ClassFile,
        plan: ProbePlan,
        bases: ProbeBases,
        extra: &[&dyn probe::ProbeKind],
    ) -> InstrumentedClass {
        let class = InternalName::new(cf.name());
        let reset = self.reset_source(&cf);
        let skipped = instrument_methods(&mut cf, &plan, bases, extra);
        let static_reset = reset.map_or(ResetStatus::NotAsked, |clinit| static_reset::add_reset(&mut cf, clinit));
        InstrumentedClass { class, bytes: cf.to_bytes(), plan, bases, skipped, static_reset }
    }
}

/// Rewrites every method with the sandbox and coverage probes; on failure
/// retries without line probes, then with the sandbox probes only, and
/// otherwise leaves the method as it was.
fn instrument_methods(
    cf: &mut ClassFile,
    plan: &ProbePlan,
    bases: ProbeBases,
    extra: &[&dyn probe::ProbeKind],
) -> Vec<SkippedMethod> {
    let attempts = probe_sets(cf, plan, bases, extra);
    let mut skipped = Vec::new();
    for index in 0..cf.methods.len() {
        let Err(first) = rewrite_method(cf, index, &attempts[0]) else { continue };
        let m = &cf.methods[index];
        let method = format!("{} {}", cf.member_name(m), cf.member_descriptor(m));
        let kept = attempts[1..]
            .iter()
            .position(|kinds| matches!(rewrite_method(cf, index, kinds), Ok(MethodOutcome::Instrumented { .. })));
        let kept = match kept {
            Some(0) => Kept::AllButLines,
            Some(_) => Kept::SandboxOnly,
            None => Kept::Nothing,
        };
        skipped.push(SkippedMethod { method, kept, reason: first.to_string() });
    }
    skipped
}

fn skipped_method(cf: &ClassFile, index: usize, kept: Kept, error: &RewriteError) -> SkippedMethod {
    let m = &cf.methods[index];
    let method = format!("{} {}", cf.member_name(m), cf.member_descriptor(m));
    SkippedMethod { method, kept, reason: error.to_string() }
}

/// The probe sets tried in order: everything (with `extra`), everything but
/// line and commit probes and `extra`, the sandbox probes only.
fn probe_sets<'a>(
    cf: &ClassFile,
    plan: &'a ProbePlan,
    bases: ProbeBases,
    extra: &[&'a dyn probe::ProbeKind],
) -> [Vec<Box<dyn probe::ProbeKind + 'a>>; 3] {
    let with_sandbox = |mut kinds: Vec<Box<dyn probe::ProbeKind + 'a>>| {
        kinds.push(Box::new(probes::string_equals::StringEquals::new(&cf.constant_pool)));
        kinds.extend(probes::sandbox_probes(&cf.constant_pool));
        kinds
    };
    let mut all = probes::coverage_probes(plan, bases);
    all.extend(extra.iter().map(|k| Box::new(*k) as Box<dyn probe::ProbeKind + 'a>));
    let no_lines =
        probes::coverage_probes(plan, bases).into_iter().filter(|k| !probes::is_line_kind(k.name())).collect();
    [with_sandbox(all), with_sandbox(no_lines), probes::sandbox_probes(&cf.constant_pool)]
}

/// Whether a class must never be instrumented (the tracer itself).
pub fn is_excluded(internal_name: &InternalName) -> bool {
    internal_name.as_str().starts_with("ferrosuite/runtime/")
}
