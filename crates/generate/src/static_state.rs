//! The static reset of the class under test (issue 10, item 2): which
//! classes get it, and the report's note on initialisers whose effects it
//! does not undo.
//!
//! The scope is the package of the class under test
//! ([`instrument::static_reset::ResetScope`]); since only the class under
//! test and its nested classes are instrumented, those are the classes that
//! are reset, in the coverage workers and in the mutant workers alike.

use instrument::Instrumenter;
use instrument::batch::Batch;
use instrument::static_reset::{ResetScope, ResetStatus, clinit_side_effects};
use model::names::BinaryName;

use crate::class_run::ClassRun;
use crate::report::StaticSideEffect;

/// An instrumenter that adds the static reset to the classes of the
/// package of `class`.
pub fn instrumenter(class: &BinaryName) -> Instrumenter {
    Instrumenter::default().with_static_reset(ResetScope::package_of(class.as_str()))
}

/// What the static reset did with each class of `batch`; classes whose
/// reset could not be added are logged.
pub fn statuses(batch: &Batch) -> Vec<(BinaryName, ResetStatus)> {
    let mut out = Vec::with_capacity(batch.classes.len());
    for c in &batch.classes {
        if let ResetStatus::Failed(reason) = &c.static_reset {
            tracing::warn!("{} gets no static reset: {reason}", c.class.to_binary());
        }
        out.push((c.class.to_binary(), c.static_reset.clone()));
    }
    out
}

/// The instrumented classes of `run` whose `<clinit>` has effects beyond
/// their own static fields, with those effects.
pub fn side_effects(run: &ClassRun) -> Vec<StaticSideEffect> {
    let mut out = Vec::new();
    for (class, _) in &run.static_reset {
        let Ok(cf) = run.cp.load(class.as_str()) else { continue };
        match clinit_side_effects(&cf) {
            Ok(effects) if !effects.is_empty() => out.push(StaticSideEffect { class: class.clone(), effects }),
            Ok(_) => {}
            Err(e) => tracing::warn!("cannot read the static initialiser of {class}: {e}"),
        }
    }
    out
}
