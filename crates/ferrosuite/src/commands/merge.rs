//! `ferrosuite merge DIR... --out DIR`: combines the output folders of
//! several runs (the shards of `generate --shard K/N`) into one: the test
//! files of every class copied under `--out` at the same relative paths,
//! and one `report.json` with every class, with the reports made from it
//! (`reports::write_all`).
//!
//! The merged `report.json` keeps the first report's `version` and `seed`,
//! lists the folders it came from with their shard and seed (`merged`),
//! and is `interrupted` when any of them was. A class that two folders
//! both report is an error (the same shard twice, or overlapping runs).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde_json::{Value, json};

use crate::exit_code::ExitCode;

/// Arguments of `ferrosuite merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// Output folders of the runs to combine (each with its `report.json`).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// The folder to write the combined tests and reports to (not one of the inputs).
    #[arg(long)]
    pub out: PathBuf,
    /// Java sources of the classes, for `report.html` (as `generate --sources`).
    #[arg(long, value_name = "DIR|JAR")]
    pub sources: Vec<PathBuf>,
}

/// Runs the command.
///
/// # Errors
/// A folder without a readable `report.json`, a class reported twice, an
/// output folder that is one of the inputs, or files that cannot be copied or written.
pub fn run(args: &MergeArgs) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    let out = args.out.canonicalize()?;
    let mut classes: Vec<Value> = Vec::new();
    let mut seen: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut merged = Vec::new();
    let mut first: Option<Value> = None;
    let mut interrupted = false;
    for dir in &args.dirs {
        if dir.canonicalize().ok().as_deref() == Some(out.as_path()) {
            bail!("--out {} is one of the folders to merge: give a new folder", args.out.display());
        }
        let report = read_report(dir)?;
        for class in report["classes"].as_array().into_iter().flatten() {
            let name = class["class"].as_str().unwrap_or_default().to_string();
            if let Some(other) = seen.insert(name.clone(), dir.clone()) {
                bail!("class {name} is in both {} and {}: merge each shard once", other.display(), dir.display());
            }
            copy_class_files(class, dir, &out)?;
            classes.push(class.clone());
        }
        merged.push(json!({"dir": dir.display().to_string(), "shard": report["shard"], "seed": report["seed"]}));
        interrupted |= report["interrupted"].as_bool().unwrap_or(false);
        first.get_or_insert(report);
    }
    let first = first.expect("clap requires a folder");
    let mut report = json!({"version": first["version"], "seed": first["seed"], "merged": merged, "classes": classes});
    if interrupted {
        report["interrupted"] = Value::Bool(true);
    }
    reports::write_all(&out, &report, &reports::Sources::new(args.sources.clone()), &out)?;
    println!(
        "merged {} classes from {} folders into {} ({})",
        report["classes"].as_array().map_or(0, Vec::len),
        args.dirs.len(),
        args.out.display(),
        reports::FILES.join(", ")
    );
    Ok(ExitCode::Success)
}

/// The parsed `dir/report.json`.
fn read_report(dir: &Path) -> anyhow::Result<Value> {
    let path = dir.join("report.json");
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!("{} has no report.json: give the output folders of `ferrosuite generate`", dir.display())
    })?;
    let report: Value = serde_json::from_str(&text).with_context(|| format!("{} is not a report", path.display()))?;
    if !report["classes"].is_array() {
        bail!("{} is not a report of `ferrosuite generate` (no classes)", path.display());
    }
    Ok(report)
}

/// Copies the class's test files (`test_file`, `findings_file`, relative
/// to `dir`) to the same paths under `out`.
fn copy_class_files(class: &Value, dir: &Path, out: &Path) -> anyhow::Result<()> {
    for key in ["test_file", "findings_file"] {
        let Some(rel) = class[key].as_str() else { continue };
        if Path::new(rel).is_absolute() || rel.split('/').any(|part| part == "..") {
            bail!("{}: {key} {rel:?} is not a path inside the folder", dir.display());
        }
        let (from, to) = (dir.join(rel), out.join(rel));
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::copy(&from, &to).with_context(|| format!("cannot copy {} to {}", from.display(), to.display()))?;
    }
    Ok(())
}
