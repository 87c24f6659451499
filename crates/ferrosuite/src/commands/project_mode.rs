//! `ferrosuite generate --project DIR`: one generate run per module of a
//! Maven or Gradle project (`project` crate), in build-file order.
//!
//! Per module: the classes are every top-level class of its class folder;
//! the class path is that folder, the other modules' class folders, the
//! dependencies `mvn -o dependency:build-classpath` gives (Maven; when it
//! cannot answer, a note says why) and `--classpath`; tests go to its
//! `src/test/java` (or `--out/<module>`), reports to `<build>/ferrosuite`;
//! JUnit is `--junit`, else what its test dependencies name, else 4; its
//! `src/main/java` is the reports' source (the HTML source view, SARIF paths). A
//! class that already has `<Class>_FerroTest.java` there is skipped unless
//! `--overwrite`; with `--changed-only`, so is a class whose bytes did not
//! change since the last run that tested it (`project::state`).

use std::path::{Path, PathBuf};

use anyhow::Context;
use project::state::{State, class_hash};
use project::{BuildTool, Module, Project};

use super::generate::{GenerateArgs, JunitArg, run_with};
use crate::exit_code::ExitCode;

/// Runs every module; the worst exit code of them.
///
/// # Errors
/// The folder is no project; a module's run fails before generating (bad
/// class path, no JDK).
pub fn run(args: &GenerateArgs, dir: &Path) -> anyhow::Result<ExitCode> {
    let project = project::detect(dir)?;
    println!("{:?} project {} with {} modules", project.tool, dir.display(), project.modules.len());
    let mut worst = ExitCode::Success;
    for module in &project.modules {
        let code = run_module(args, &project, module)?;
        if code as i32 > worst as i32 {
            worst = code;
        }
    }
    Ok(worst)
}

/// One module's run (nothing to do: success).
fn run_module(args: &GenerateArgs, project: &Project, module: &Module) -> anyhow::Result<ExitCode> {
    if !module.classes.is_dir() {
        println!("module {}: no classes in {} (build it first); skipped", module.name, module.classes.display());
        return Ok(ExitCode::Success);
    }
    let out = match &args.out {
        Some(out) if project.modules.len() > 1 => out.join(&module.name),
        Some(out) => out.clone(),
        None => module.test_sources.clone(),
    };
    let mut state = State::load(&module.build_dir);
    let classes = classes_to_test(args, module, &out, &state)?;
    if classes.is_empty() {
        println!("module {}: nothing to test", module.name);
        return Ok(ExitCode::Success);
    }
    let junit = args.junit.or(match module.junit {
        Some(5) => Some(JunitArg::Five),
        _ => Some(JunitArg::Four),
    });
    let classpath = class_path(args, project, module);
    println!("module {}: {} classes, tests into {}", module.name, classes.len(), out.display());
    let mut sources = vec![module.dir.join("src/main/java")];
    sources.extend(args.sources.iter().cloned());
    let module_args = GenerateArgs {
        project: None,
        sources,
        classpath,
        class: classes.clone(),
        package: None,
        jar: None,
        out: Some(out),
        junit,
        ..args.clone()
    };
    let report_dir = module.build_dir.join("ferrosuite");
    let code = run_with(&module_args, Some(report_dir.clone()))?;
    for class in tested_ok(&report_dir) {
        if let Some(hash) = class_hash(&module.classes, &class) {
            state.record(&class, hash);
        }
    }
    state.save(&module.build_dir)?;
    Ok(code)
}

/// The module's top-level classes, less those with ferrosuite tests
/// (unless `--overwrite`) and unchanged ones (with `--changed-only`).
fn classes_to_test(args: &GenerateArgs, module: &Module, out: &Path, state: &State) -> anyhow::Result<Vec<String>> {
    let selection = ::generate::ClassSelection { jar: Some(module.classes.clone()), ..Default::default() };
    let mut names: Vec<String> = match selection.resolve(&module.classes.display().to_string()) {
        Ok(classes) => classes.iter().map(|c| c.as_str().to_string()).collect(),
        Err(::generate::GenerateError::NoClassSelected) => Vec::new(),
        Err(e) => return Err(e).with_context(|| format!("cannot read the classes of module {}", module.name)),
    };
    names.sort();
    let has_tests = |c: &String| out.join(format!("{}_FerroTest.java", c.replace('.', "/"))).is_file();
    let (kept, with_tests): (Vec<String>, Vec<String>) =
        names.into_iter().partition(|c| args.overwrite || !has_tests(c));
    if !with_tests.is_empty() {
        println!(
            "module {}: {} classes already have ferrosuite tests (--overwrite to replace them)",
            module.name,
            with_tests.len()
        );
    }
    if !args.changed_only {
        return Ok(kept);
    }
    let (changed, same): (Vec<String>, Vec<String>) =
        kept.into_iter().partition(|c| class_hash(&module.classes, c).is_none_or(|h| !state.unchanged(c, &h)));
    if !same.is_empty() {
        println!("module {}: {} classes unchanged since the last run", module.name, same.len());
    }
    Ok(changed)
}

/// The module's class path: its classes, the other modules' classes, the
/// build tool's answer (Maven) and `--classpath`.
fn class_path(args: &GenerateArgs, project: &Project, module: &Module) -> String {
    let mut parts: Vec<String> = vec![module.classes.display().to_string()];
    parts.extend(
        project.modules.iter().filter(|m| m != &module && m.classes.is_dir()).map(|m| m.classes.display().to_string()),
    );
    if project.tool == BuildTool::Maven {
        match project::classpath::maven_classpath(&module.dir) {
            Ok(cp) => parts.extend(cp.split(':').filter(|p| !p.is_empty()).map(String::from)),
            Err(why) => println!("module {}: no class path from mvn -o ({why}); using --classpath", module.name),
        }
    }
    parts.extend(args.classpath.split(':').filter(|p| !p.is_empty()).map(String::from));
    parts.join(":")
}

/// The classes of the report in `dir` whose generation ended `ok`.
fn tested_ok(dir: &Path) -> Vec<String> {
    let path: PathBuf = dir.join("report.json");
    let report: serde_json::Value =
        std::fs::read(&path).ok().and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_default();
    report["classes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["status"] == "ok")
        .filter_map(|c| c["class"].as_str().map(String::from))
        .collect()
}
