//! Stages 1-4 for one class: load the class path, analyse the class under
//! test and its nested classes (goals), instrument them, start the workers.

use std::sync::Arc;

use analysis::goals::ClassGoals;
use exec::coverage::GoalMap;
use jvm::pool::{Pool, WorkerConfig};
use model::classpath::ClassPath;
use model::names::BinaryName;

use crate::class_run::ClassRun;
use crate::{GenerateConfig, GenerateError};

/// Loads and analyses the class, instruments it and starts the workers.
///
/// # Errors
/// Class-path, analysis, instrumentation and worker start-up errors.
pub(crate) fn prepare(config: &GenerateConfig, class: &BinaryName) -> Result<ClassRun, GenerateError> {
    let cp = Arc::new(ClassPath::parse(&config.class_path)?.with_jdk(&config.jdk.home)?);
    let cf = cp.load(class.as_str())?;
    let mut goals = class_goals(&cf, class)?;
    let work = config.work_dir.join(class.as_str());
    let instrumented = crate::class_run::instrumented_dir(&work);
    let _ = std::fs::remove_dir_all(&instrumented);
    let user_cp = ClassPath::parse(&config.class_path)?;
    let nested = nested_classes(&user_cp, class);
    let names: Vec<BinaryName> = std::iter::once(class.clone()).chain(nested.iter().map(|(n, _)| n.clone())).collect();
    let instrumenter = crate::static_state::instrumenter(class);
    let batch = instrument::batch::instrument_to_dir_with(instrumenter, &user_cp, &names, &instrumented, false)?;
    let instrumented_class = |name: &BinaryName| batch.classes.iter().find(|c| c.class == name.to_internal());
    for (name, reason) in &batch.failed {
        tracing::warn!("{name} could not be instrumented: {reason}");
    }
    let reason = || batch.failed.iter().find(|(n, _)| n == class).map(|(_, r)| r.clone());
    let instrumented_cut = instrumented_class(class).ok_or_else(|| GenerateError::NotInstrumented {
        reason: reason().unwrap_or_else(|| "it is ferrosuite's own runtime".into()),
    })?;
    let mut map = GoalMap::new(&goals, instrumented_cut);
    // Nested classes count as part of the class under test (as for JaCoCo
    // and EvoSuite): their goals are appended to the class's.
    for (name, nested_goals) in nested {
        let Some(instrumented) = instrumented_class(&name) else { continue };
        let offset = goals.goals.len() as u32;
        map.append(GoalMap::new(&nested_goals, instrumented), offset);
        goals.append(nested_goals);
    }
    let worker = WorkerConfig {
        exe: config.worker_exe.clone(),
        java_home: config.jdk.home.clone(),
        class_path: format!("{}:{}", instrumented.display(), config.class_path),
        heap_mb: config.heap_mb,
        environment: Default::default(),
    };
    let pool = Pool::new(worker.clone(), config.exec.clone(), config.jobs)?.with_validation(cp.clone());
    Ok(ClassRun {
        class: class.clone(),
        cp,
        goals,
        map,
        pool,
        major: cf.major_version,
        work,
        worker,
        exec: config.exec.clone(),
        jobs: config.jobs,
        user_class_path: config.class_path.clone(),
        exception_details: Default::default(),
        deadlines: Default::default(),
        static_reset: crate::static_state::statuses(&batch),
    })
}

/// The goals of `class` with those of its nested classes that count with
/// it appended, as `generate` measures a class (unless a nested class
/// cannot be instrumented: a run leaves its goals out, which this cannot
/// know). `cp` needs only the user's class path.
///
/// # Errors
/// [`GenerateError::ClassPath`] when `class` cannot be loaded,
/// [`GenerateError::Analysis`] when its code cannot be analysed (nested
/// classes that cannot be are left out, and logged).
pub fn goals_with_nested(cp: &ClassPath, class: &BinaryName) -> Result<ClassGoals, GenerateError> {
    let mut goals = class_goals(&*cp.load(class.as_str())?, class)?;
    for (_, nested) in nested_classes(cp, class) {
        goals.append(nested);
    }
    Ok(goals)
}

/// The goals of the class under test `class` (class file `cf`).
fn class_goals(cf: &model::classfile::ClassFile, class: &BinaryName) -> Result<ClassGoals, GenerateError> {
    analysis::goals::class_goals(cf).map_err(|source| GenerateError::Analysis { class: class.clone(), source })
}

/// The nested classes of `class` on the class path whose goals count as
/// the class's ([`analysis::goals::counts_with_enclosing_class`]), with
/// their goals; classes that cannot be read or analysed are left out (and
/// logged), as JaCoCo leaves them out.
fn nested_classes(cp: &ClassPath, class: &BinaryName) -> Vec<(BinaryName, ClassGoals)> {
    let mut out = Vec::new();
    for name in cp.nested_class_names(class) {
        let Ok(cf) = cp.load(name.as_str()) else { continue };
        if !analysis::goals::counts_with_enclosing_class(&cf) {
            continue;
        }
        match analysis::goals::class_goals(&cf) {
            Ok(goals) => out.push((name, goals)),
            Err(e) => tracing::warn!("nested class {name} left out: {e}"),
        }
    }
    out
}
