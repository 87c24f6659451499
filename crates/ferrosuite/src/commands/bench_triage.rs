//! `ferrosuite bench triage`: why the branch goals of a `bench coverage`
//! run stay uncovered. For each class of a corpus file it reads
//! `DIR/<class>/report.json` (as `bench coverage --out DIR` leaves it),
//! rebuilds the class's goals as `generate` does
//! (`generate::prepare::goals_with_nested`) and its test cluster, takes as
//! covered every goal whose label the report does not list as uncovered,
//! and gives each uncovered goal a cause (`generate::triage::classify`).
//! It prints the uncovered branch goals per class and cause as a markdown
//! table with a total row over the corpus, and the same as CSV.
//!
//! Reports of older binaries, whose `uncovered` is a list of labels, are
//! read too (the causes are computed here either way, so both kinds give
//! the same table). Labels are not always unique (two identical
//! conditions on one line); a label listed `k` times marks the first `k`
//! goals with that label, in goal order, as uncovered.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use analysis::goals::{ClassGoals, GoalId};
use anyhow::Context;
use generate::triage::UncoveredCause;
use model::classpath::ClassPath;
use model::jdk::Jdk;
use model::names::BinaryName;
use serde::Deserialize;
use testcase::cluster::TestCluster;

use super::corpus::CorpusEntry;
use crate::exit_code::ExitCode;

/// The parts of `report.json` the triage reads.
#[derive(Deserialize)]
struct ReportFile {
    classes: Vec<ClassEntry>,
}

/// One class of `report.json`.
#[derive(Deserialize)]
struct ClassEntry {
    class: String,
    status: String,
    #[serde(default)]
    message: Option<String>,
    /// Tests in the emitted suite.
    #[serde(default)]
    tests: usize,
    /// Goals by category; empty when no coverage was measured.
    #[serde(default)]
    goals: BTreeMap<String, GoalCount>,
    #[serde(default)]
    uncovered: Vec<Uncovered>,
    /// The branch goals the search covered and no emitted test does (absent in old reports).
    #[serde(default)]
    lost_after_search: Vec<String>,
}

#[derive(Deserialize)]
struct GoalCount {
    total: usize,
    covered: usize,
}

/// An entry of `uncovered`: a label (older reports) or `{goal, cause}`
/// (with `kind` since KAT's goals).
#[derive(Deserialize)]
#[serde(untagged)]
enum Uncovered {
    Label(String),
    Triaged {
        goal: String,
        #[serde(default)]
        kind: Option<String>,
    },
}

impl Uncovered {
    /// Whether it is a goal of a technique (KAT's `api-misuse`), which the
    /// class file's own goals do not list.
    fn is_technique_goal(&self) -> bool {
        matches!(self, Uncovered::Triaged { kind: Some(k), .. } if k == "api-misuse")
    }

    fn label(&self) -> &str {
        match self {
            Uncovered::Label(label) | Uncovered::Triaged { goal: label, .. } => label,
        }
    }
}

/// One row of the table: the uncovered branch goals of a class by cause.
struct Row {
    class: String,
    counts: BTreeMap<UncoveredCause, usize>,
    /// Why the class has no counts, or what did not add up.
    note: String,
}

impl Row {
    fn total(&self) -> usize {
        self.counts.values().sum()
    }
}

/// Runs the triage over `corpus` with the reports under `dir` and the jars
/// in `jar_dir`; exit code [`ExitCode::Partial`] when a class has no
/// report or could not be triaged (its row says why).
///
/// # Errors
/// An unreadable corpus file, or no JDK.
pub fn bench_triage(corpus: &Path, dir: &Path, jar_dir: &Path) -> anyhow::Result<ExitCode> {
    let entries = super::corpus::read_corpus(corpus)?;
    let jdk = Jdk::find()?;
    let mut rows = Vec::new();
    for entry in &entries {
        let row = triage_class(entry, dir, jar_dir, &jdk).unwrap_or_else(|e| Row {
            class: entry.class.clone(),
            counts: BTreeMap::new(),
            note: crate::one_line(&format!("{e:#}")),
        });
        eprintln!("{}: {} uncovered branch goals {}", row.class, row.total(), row.note);
        rows.push(row);
    }
    print_tables(&rows);
    let failed = rows.iter().filter(|r| r.counts.is_empty() && !r.note.is_empty()).count();
    Ok(if failed == 0 { ExitCode::Success } else { ExitCode::Partial })
}

/// The row of one corpus class.
fn triage_class(entry: &CorpusEntry, dir: &Path, jar_dir: &Path, jdk: &Jdk) -> anyhow::Result<Row> {
    let path = dir.join(&entry.class).join("report.json");
    if !path.exists() {
        anyhow::bail!("no report.json");
    }
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let report: ReportFile = serde_json::from_str(&text).with_context(|| format!("cannot parse {}", path.display()))?;
    let Some(class) = report.classes.into_iter().find(|c| c.class == entry.class) else {
        anyhow::bail!("{} does not report {}", path.display(), entry.class);
    };
    let Some(branches) = class.goals.get("branch") else {
        let message = class.message.as_deref().map(|m| format!(": {m}")).unwrap_or_default();
        anyhow::bail!("no coverage measured (status {}{message})", class.status);
    };
    let cut = BinaryName::new(entry.class.as_str());
    let user_class_path = entry.class_path(jar_dir);
    let (cp, _) = generate::prepare::class_path_for(&user_class_path, &jdk.home, &cut)?;
    let goals = generate::prepare::goals_with_nested(&cp, &cut)?;
    let sealed = ClassPath::parse(&user_class_path)?.is_sealed(cut.as_str());
    let cluster = TestCluster::build(&cp, cut.as_str(), &generate::prepare::cluster_options(sealed, true))?;
    let own = class.uncovered.iter().filter(|u| !u.is_technique_goal());
    let (covered, unmatched) = covered_goals(&goals, own.map(Uncovered::label));
    // What the search covered is in `lost_after_search` (branch goals only).
    let lost: BTreeSet<&str> = class.lost_after_search.iter().map(String::as_str).collect();
    let archived = goals.goals.iter().filter(|g| lost.contains(g.label.as_str())).map(|g| g.id).collect();
    let causes = generate::triage::classify(&cp, &goals, &cluster, &covered, &archived);
    let counts = generate::triage::branch_counts(&goals, &causes);
    let mut notes = Vec::new();
    if unmatched > 0 {
        notes.push(format!("{unmatched} uncovered labels match no goal"));
    }
    if class.tests > 0 && class.goals.values().all(|g| g.covered == 0) {
        notes.push(format!("{} tests cover no goal: the coverage measurement may have failed", class.tests));
    }
    let reported = branches.total - branches.covered;
    let found: usize = counts.values().sum();
    if found != reported {
        notes.push(format!("the report counts {reported} uncovered branch goals"));
    }
    Ok(Row { class: entry.class.clone(), counts, note: notes.join("; ") })
}

/// The goals not named by `uncovered` (labels; a label listed `k` times
/// names the first `k` goals with that label), and how many listed labels
/// named no goal.
fn covered_goals<'a>(goals: &ClassGoals, uncovered: impl Iterator<Item = &'a str>) -> (BTreeSet<GoalId>, usize) {
    let mut left: HashMap<&str, usize> = HashMap::new();
    for label in uncovered {
        *left.entry(label).or_default() += 1;
    }
    let mut covered = BTreeSet::new();
    for g in &goals.goals {
        match left.get_mut(g.label.as_str()) {
            Some(n) if *n > 0 => *n -= 1,
            _ => {
                covered.insert(g.id);
            }
        }
    }
    (covered, left.values().sum())
}

fn print_tables(rows: &[Row]) {
    let names: Vec<&str> = UncoveredCause::ALL.iter().map(|c| c.name()).collect();
    let total = Row {
        class: "total".into(),
        counts: UncoveredCause::ALL.iter().map(|&c| (c, rows.iter().map(|r| count(r, c)).sum())).collect(),
        note: String::new(),
    };
    let cells = |r: &Row| -> Vec<String> {
        let causes = UncoveredCause::ALL.iter().map(|&c| count(r, c).to_string());
        std::iter::once(r.total().to_string()).chain(causes).collect()
    };
    println!("| class | uncovered branches | {} | note |", names.join(" | "));
    println!("| --- | ---: |{} --- |", " ---: |".repeat(names.len()));
    for r in rows {
        println!("| {} | {} | {} |", r.class, cells(r).join(" | "), r.note);
    }
    println!("| **total** | {} | |", cells(&total).iter().map(|c| format!("**{c}**")).collect::<Vec<_>>().join(" | "));
    println!();
    println!("```csv");
    println!("class,uncovered_branches,{},note", names.join(","));
    for r in rows.iter().chain([&total]) {
        println!("{},{},{}", r.class, cells(r).join(","), r.note.replace(',', ";"));
    }
    println!("```");
}

fn count(row: &Row, cause: UncoveredCause) -> usize {
    row.counts.get(&cause).copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_and_new_uncovered_entries_both_give_labels() {
        let json = r#"{"classes":[{"class":"p.A","status":"ok","goals":{"branch":{"total":2,"covered":1}},
            "uncovered":["A.java:3 if (x) true",{"goal":"A.java:4","cause":"search-budget"}]}]}"#;
        let report: ReportFile = serde_json::from_str(json).unwrap();
        let labels: Vec<&str> = report.classes[0].uncovered.iter().map(Uncovered::label).collect();
        assert_eq!(labels, ["A.java:3 if (x) true", "A.java:4"]);
    }
}
