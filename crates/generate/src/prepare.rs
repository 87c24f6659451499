//! Stages 1-4 for one class: load the class path, analyse the class under
//! test and its nested classes (goals), instrument them (and the classes
//! they use, for their comparisons), start the workers.

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
    let (cp, cf) = class_path_for(&config.class_path, &config.jdk.home, class)?;
    let cp = Arc::new(cp);
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
    let package_state = crate::static_state::reset_package_state(&user_cp, class, &names, &instrumented)?;
    if !package_state.is_empty() {
        let names: Vec<&str> = package_state.iter().map(|(n, _)| n.as_str()).collect();
        tracing::debug!(classes = ?names, "package classes with static state get the reset");
    }
    let taken: Vec<BinaryName> = package_state.iter().map(|(n, _)| n.clone()).collect();
    let neighbours = crate::neighbours::neighbours(&user_cp, &names, &taken);
    let (neighbours, neighbours_end) =
        crate::neighbours::instrument_neighbours(&user_cp, &neighbours, &batch, &instrumented)?;
    tracing::debug!(classes = neighbours.len(), "neighbours instrumented for their comparisons");
    let sealed = user_cp.is_sealed(class.as_str());
    copy_sealed_packages(&user_cp, std::iter::once(class).chain(&neighbours), &instrumented)?;
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
        static_reset: crate::static_state::statuses(&batch).into_iter().chain(package_state).collect(),
        sealed,
        instrumented: batch.classes.clone(),
        neighbours_end: neighbours_end.branch,
        extra_probes: Default::default(),
    })
}

/// The class path the search sees for `class`: `class_path` (`:`-separated)
/// with the JDK at `java_home`, noting the release tests are compiled for
/// (`--release` of the class's version: the test cluster offers only the
/// JDK members of that release); with the class file of `class`.
///
/// # Errors
/// Class-path errors, `class` not found among them, and
/// [`GenerateError::JdkTooOld`] for a class file newer than the JDK.
pub fn class_path_for(
    class_path: &str,
    java_home: &std::path::Path,
    class: &BinaryName,
) -> Result<(ClassPath, Arc<model::classfile::ClassFile>), GenerateError> {
    let cp = ClassPath::parse(class_path)?.with_jdk(java_home)?;
    let cf = cp.load(class.as_str())?;
    let release = model::classfile::javac_release(cf.major_version);
    let feature = model::jdk::Jdk { home: java_home.to_path_buf() }.feature_version();
    if let Some(feature) = feature.filter(|&f| release > f) {
        return Err(GenerateError::JdkTooOld {
            class: class.clone(),
            major: cf.major_version,
            home: java_home.to_path_buf(),
            jdk: format!("Java {feature}"),
        });
    }
    Ok((cp.with_release(java_home, release)?, cf))
}

/// The options of the test cluster for a class under test whose package
/// is `sealed` or not: tests of a sealed package live in a subpackage and
/// can call only public members.
pub fn cluster_options(sealed: bool, mocks: bool) -> testcase::cluster::ClusterOptions {
    testcase::cluster::ClusterOptions { package_private: !sealed, mocks, ..Default::default() }
}

/// Copies the classes of `class`'s package that were not instrumented into
/// `instrumented` as they are: in a sealed package every class must come
/// from one place, and with the instrumented classes first on the workers'
/// class path, loading the others from the sealed jar would throw
/// `SecurityException: sealing violation`. A folder seals nothing. (`bench
/// mutation` does the same for its mutant schema.)
///
/// # Errors
/// Class-path read errors and I/O errors writing the copies.
pub fn copy_package(cp: &ClassPath, class: &BinaryName, instrumented: &std::path::Path) -> Result<(), GenerateError> {
    for name in package_classes(cp, class) {
        if !instrumented.join(name.class_file_path()).exists() {
            write_class_file(instrumented, &name, &cp.find_bytes(name.as_str())?.bytes)?;
        }
    }
    Ok(())
}

/// Copies, for each class of `classes` whose package is sealed, the classes
/// of its package that are not yet in `instrumented` (see
/// [`copy_package`]), once per package: the class under test's package
/// and those of its instrumented neighbours.
///
/// # Errors
/// As [`copy_package`].
pub fn copy_sealed_packages<'a>(
    cp: &ClassPath,
    classes: impl IntoIterator<Item = &'a BinaryName>,
    instrumented: &std::path::Path,
) -> Result<(), GenerateError> {
    let mut done = std::collections::HashSet::new();
    for class in classes {
        if done.insert(class.package().to_owned()) && cp.is_sealed(class.as_str()) {
            copy_package(cp, class, instrumented)?;
        }
    }
    Ok(())
}

/// The binary names of the classes of `class`'s package on `cp` (`class`
/// among them).
pub(crate) fn package_classes(cp: &ClassPath, class: &BinaryName) -> Vec<BinaryName> {
    let package = class.package();
    cp.all_class_names().into_iter().map(BinaryName::new).filter(|n| n.package() == package).collect()
}

/// Writes the class file `bytes` of `name` into its package folder under `dir`.
///
/// # Errors
/// [`GenerateError::Io`] when the folder or file cannot be written.
pub(crate) fn write_class_file(dir: &std::path::Path, name: &BinaryName, bytes: &[u8]) -> Result<(), GenerateError> {
    let file = dir.join(name.class_file_path());
    let folder = file.parent().unwrap_or(dir);
    std::fs::create_dir_all(folder).map_err(GenerateError::io("create", folder))?;
    std::fs::write(&file, bytes).map_err(GenerateError::io("write", &file))
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
