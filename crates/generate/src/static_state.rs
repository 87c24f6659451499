//! The static reset of the class under test (issue 10, item 2): which
//! classes get it, and the report's note on initialisers whose effects it
//! does not undo.
//!
//! The scope is the package of the class under test
//! ([`instrument::static_reset::ResetScope`]). The class under test and its
//! nested classes are instrumented with the reset; the package's other
//! classes whose static fields some code of the package assigns outside
//! their initialiser get the reset alone ([`reset_package_state`]), so a
//! test that calls `Other.setDefault(x)` does not change what later tests
//! of the same worker see. The mutant workers load the same classes.

use instrument::Instrumenter;
use instrument::batch::Batch;
use instrument::static_reset::{ResetScope, ResetStatus, clinit_side_effects};
use model::classpath::ClassPath;
use model::names::BinaryName;

use crate::GenerateError;
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

/// Writes into `dir` (the instrumented classes' folder, first on the
/// workers' class path) a reset-only copy
/// ([`instrument::static_reset::reset_only`]) of each class of `class`'s
/// package, other than `instrumented`, whose static fields code of the
/// package assigns outside that class's initialiser
/// ([`instrument::static_reset::static_writes_outside_initialisers`]).
/// Returns those classes with what the reset did; classes that get no
/// reset (interfaces, enums, failures, which are logged) are not written.
///
/// # Errors
/// Class-path read errors and I/O errors writing the copies.
pub fn reset_package_state(
    cp: &ClassPath,
    class: &BinaryName,
    instrumented: &[BinaryName],
    dir: &std::path::Path,
) -> Result<Vec<(BinaryName, ResetStatus)>, GenerateError> {
    let mut out = Vec::new();
    for name in written_package_statics(cp, class) {
        if instrumented.contains(&name) {
            continue;
        }
        let bytes = cp.find_bytes(name.as_str())?.bytes;
        let (bytes, status) = match instrument::static_reset::reset_only(&bytes) {
            Ok(done) => done,
            Err(e) => (bytes, ResetStatus::Failed(e.to_string())),
        };
        match &status {
            ResetStatus::Added(_) => {
                crate::prepare::write_class_file(dir, &name, &bytes)?;
                out.push((name, status));
            }
            ResetStatus::Failed(reason) => tracing::warn!("{name} gets no static reset: {reason}"),
            _ => {}
        }
    }
    Ok(out)
}

/// The classes of `class`'s package whose static fields code of the
/// package assigns outside their initialiser, sorted; classes that cannot
/// be read are skipped.
fn written_package_statics(cp: &ClassPath, class: &BinaryName) -> Vec<BinaryName> {
    let package = class.package();
    let mut owners = std::collections::BTreeSet::new();
    for name in crate::prepare::package_classes(cp, class) {
        let Ok(cf) = cp.load(name.as_str()) else { continue };
        let Ok(writes) = instrument::static_reset::static_writes_outside_initialisers(&cf) else { continue };
        owners.extend(writes.into_iter().map(|w| model::names::InternalName::new(&w).to_binary()));
    }
    owners.into_iter().filter(|o| o.package() == package).collect()
}

/// The static fields of `class` that its calls assign after its
/// initialiser ([`instrument::static_reset::own_statics_assigned_after_initialiser`]),
/// which the emitted suite restores before each test; none when the class
/// cannot be read.
pub fn reassigned_statics(cp: &ClassPath, class: &BinaryName) -> Vec<String> {
    let Ok(cf) = cp.load(class.as_str()) else { return Vec::new() };
    instrument::static_reset::own_statics_assigned_after_initialiser(&cf).unwrap_or_else(|e| {
        tracing::warn!("cannot read the static writes of {class}: {e}");
        Vec::new()
    })
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
