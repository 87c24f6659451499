//! `docs/scale-out.md` as tested: its Kubernetes manifests' shell scripts
//! and its CI workflow's `run:` lines are read from the file and run here
//! with the real binary on the `PATH` (2 shards of a 3-class jar, a short
//! budget), and the merged folder holds every class.

mod util;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// The fenced `yaml` blocks of the document.
fn yaml_blocks(doc: &str) -> Vec<String> {
    doc.split("```yaml\n").skip(1).map(|rest| rest.split("```").next().unwrap().to_string()).collect()
}

/// The block scalar after `args:` / `- |` in a Job manifest, unindented.
fn job_script(block: &str) -> String {
    let lines: Vec<&str> = block.lines().collect();
    let start = lines.iter().position(|l| l.trim() == "- |").expect("a `- |` script") + 1;
    let indent = lines[start].len() - lines[start].trim_start().len();
    lines[start..]
        .iter()
        .take_while(|l| l.len() > indent && l[..indent].trim().is_empty())
        .map(|l| format!("{}\n", &l[indent..]))
        .collect()
}

/// Runs `script` with `sh -ec` in `cwd`, the binary's folder first on the `PATH`.
fn sh(cwd: &Path, script: &str, env: &[(&str, &str)]) {
    let bin = Path::new(env!("CARGO_BIN_EXE_ferrosuite")).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut cmd = Command::new("sh");
    cmd.arg("-ec").arg(script).current_dir(cwd).env("PATH", path);
    for (k, _) in std::env::vars().filter(|(k, _)| k.starts_with("FERROSUITE_")) {
        cmd.env_remove(k);
    }
    let out = cmd.envs(env.iter().copied()).output().unwrap();
    assert!(out.status.success(), "{script}\n{}", String::from_utf8_lossy(&out.stderr));
}

fn merged_classes(dir: &Path) -> BTreeSet<String> {
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    report["classes"].as_array().unwrap().iter().map(|c| c["class"].as_str().unwrap().to_string()).collect()
}

#[test]
fn the_documented_kubernetes_jobs_and_ci_matrix_shard_and_merge() {
    let doc = std::fs::read_to_string(util::repo().join("docs/scale-out.md")).unwrap();
    let blocks = yaml_blocks(&doc);
    assert_eq!(blocks.len(), 3, "two Job manifests and a workflow");
    let tmp = tempfile::tempdir().unwrap();
    let jar = util::sized_classes_jar(tmp.path(), 3);
    let jar = jar.to_str().unwrap();
    let all: BTreeSet<String> = ["p.C0", "p.C1", "p.C2"].map(String::from).into_iter().collect();
    let common = [("JAR", jar), ("CP", jar), ("BUDGET", "4s"), ("N", "2")];

    // Kubernetes: the Indexed Job's script per completion index, then the merge Job's.
    let results = tmp.path().join("volume");
    std::fs::create_dir_all(&results).unwrap();
    let shard_script = job_script(&blocks[0]);
    assert!(blocks[0].contains("completionMode: Indexed") && shard_script.contains("--shard"), "{shard_script}");
    for index in ["0", "1"] {
        let env = [&common[..], &[("RESULTS", results.to_str().unwrap()), ("JOB_COMPLETION_INDEX", index)]].concat();
        sh(tmp.path(), &shard_script, &env);
    }
    sh(tmp.path(), &job_script(&blocks[1]), &[("RESULTS", results.to_str().unwrap())]);
    assert_eq!(merged_classes(&results.join("merged")), all);

    // The CI matrix: each shard's `run:` line, then the merge job's (artifacts land in results/shard-K).
    let runs: Vec<&str> = blocks[2].lines().filter_map(|l| l.trim().strip_prefix("- run: ")).collect();
    assert_eq!(runs.len(), 2, "{runs:?}");
    for k in ["1", "2"] {
        sh(tmp.path(), &runs[0].replace("${{ matrix.shard }}", k), &common);
    }
    sh(tmp.path(), runs[1], &[]);
    assert_eq!(merged_classes(&tmp.path().join("results/merged")), all);
}
