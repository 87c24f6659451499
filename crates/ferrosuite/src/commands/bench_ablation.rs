//! `ferrosuite bench ablation`: what one feature of `generate` is worth.
//!
//! For each class of a corpus file and each seed, `generate` runs twice at
//! the same budget: once as is ("with") and once with `--no-<feature>`
//! ("without"); `--with ARGS` and `--without ARGS` give each variant other
//! `generate` arguments instead (`--with "--algorithm palus --sample-tests T"
//! --without "--algorithm random"`), and `--evaluations N` a budget in test
//! executions. Each run's JaCoCo line and branch coverage is measured as
//! `bench coverage` measures it ([`super::bench_coverage::measure`]).
//! Per class it prints the mean branch coverage with and without, their
//! difference, the Vargha-Delaney A12 of "with" over "without" and the
//! two-sided Mann-Whitney U p-value ([`super::stats`]), the verdict (a win
//! when A12 > 0.5 and p < 0.05, a loss when A12 < 0.5 and p < 0.05, else no
//! difference), and the feature's own numbers from the `techniques` object
//! of each "with" run's `report.json`; over the corpus, the mean of the
//! per-class means and the count of wins, losses and others. Output: CSV
//! and a markdown table on standard output, `OUT/ablation.csv` (the same
//! CSV), `OUT/runs.csv` (one row per run) and `OUT/<class>/<with|without>-seed<k>/`
//! (each run's output folder).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;

use super::InputError;
use super::bench_coverage::{Row, budget_args, measure, pct};
use super::corpus::CorpusEntry;
use super::stats::{self, MannWhitney};
use crate::exit_code::ExitCode;
use javarun::{Jdk, JunitJars};

/// The features `bench ablation` knows: each is turned off by `generate --no-<feature>`.
pub const FEATURES: &[&str] = &["evoobj", "kat", "mocks"];

/// Significance level of the Mann-Whitney U test for a win or a loss.
const ALPHA: f64 = 0.05;

/// The feature's own numbers read from `report.json` (`classes[0].techniques.<feature>`):
/// column header and key, each averaged over the "with" runs that have it.
const TECHNIQUE_MEANS: [(&str, &str); 6] = [
    ("templates made", "templates_made"),
    ("templates inserted", "templates_inserted"),
    ("guided tests", "guided_tests"),
    ("goals covered", "goals_covered"),
    ("DSE solved", "solved"),
    ("goals covered by DSE", "goals_covered_by_dse"),
];

/// Options of `bench ablation`.
#[derive(Debug, Clone, clap::Args)]
pub struct AblationArgs {
    /// The feature to ablate; "without" runs pass `--no-<feature>` to generate (known: evoobj, kat, mocks).
    #[arg(long)]
    pub feature: String,
    /// Corpus file: lines `JAR[:DEPENDENCY...] CLASS`, jars relative to `--jar-dir`.
    #[arg(long, default_value = "corpus/ablation.txt")]
    pub corpus: PathBuf,
    /// Where the corpus jars are.
    #[arg(long, default_value = "/usr/share/java")]
    pub jar_dir: PathBuf,
    /// Search budget per run (seconds).
    #[arg(long, default_value_t = 60)]
    pub budget_secs: u64,
    /// Seeds per class and variant: `--first-seed` and the ones after it.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    pub seeds: u64,
    /// The first seed.
    #[arg(long, default_value_t = 1)]
    pub first_seed: u64,
    /// Output folder (default `target/bench-ablation`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// More `generate` arguments of the "with" runs (whitespace-separated).
    #[arg(long, allow_hyphen_values = true, default_value = "")]
    pub with: String,
    /// The `generate` arguments of the "without" runs instead of
    /// `--no-<feature>` (whitespace-separated); any `--feature` name is then allowed.
    #[arg(long, allow_hyphen_values = true)]
    pub without: Option<String>,
    /// A budget in test executions per run instead of `--budget-secs`
    /// (reproducible with the seed; the time limit stays as a cap).
    #[arg(long)]
    pub evaluations: Option<u64>,
    /// Reuse the runs already measured in the output folder (their
    /// `row.json`), so an interrupted or split benchmark goes on where it
    /// stopped; runs that could not be measured are run again.
    #[arg(long)]
    pub resume: bool,
}

/// The two variants of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Variant {
    With,
    Without,
}

impl Variant {
    /// `with` or `without`: the name in `runs.csv` and the run folders.
    fn name(self) -> &'static str {
        match self {
            Variant::With => "with",
            Variant::Without => "without",
        }
    }
}

/// One `generate` run, measured.
struct Run {
    variant: Variant,
    seed: u64,
    row: Row,
    /// `classes[0].techniques.<feature>` of its `report.json`, when present.
    technique: Option<serde_json::Value>,
}

/// The summary of one class's runs.
struct ClassSummary {
    class: String,
    with: Vec<f64>,
    without: Vec<f64>,
    /// Line coverage of the runs, as ratios.
    lines_with: Vec<f64>,
    lines_without: Vec<f64>,
    a12: Option<f64>,
    test: Option<MannWhitney>,
    /// The means of [`TECHNIQUE_MEANS`], in order.
    technique_means: Vec<Option<f64>>,
    /// Sum of `synthesis_seconds` over sum of `search_seconds`, as a ratio.
    synthesis_share: Option<f64>,
    /// Sum of `synthesis_seconds` over sum of `targets` (the goals the
    /// technique worked on: one synthesis each), in milliseconds.
    synthesis_ms_per_target: Option<f64>,
}

/// The verdict of a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Win,
    Loss,
    NoDifference,
}

impl ClassSummary {
    /// Mean branch coverage of the "with" runs, as a ratio.
    fn mean_with(&self) -> Option<f64> {
        stats::mean(&self.with)
    }

    /// Mean branch coverage of the "without" runs, as a ratio.
    fn mean_without(&self) -> Option<f64> {
        stats::mean(&self.without)
    }

    /// Mean with minus mean without, as a ratio.
    fn difference(&self) -> Option<f64> {
        Some(self.mean_with()? - self.mean_without()?)
    }

    /// A win when A12 > 0.5 and p < [`ALPHA`], a loss when A12 < 0.5 and p < [`ALPHA`].
    fn verdict(&self) -> Verdict {
        match (self.a12, self.test) {
            (Some(a), Some(t)) if t.p < ALPHA && a > 0.5 => Verdict::Win,
            (Some(a), Some(t)) if t.p < ALPHA && a < 0.5 => Verdict::Loss,
            _ => Verdict::NoDifference,
        }
    }
}

/// The `generate` flag that turns `feature` off.
///
/// # Errors
/// [`InputError`] when `feature` is not one of [`FEATURES`].
pub fn feature_flag(feature: &str) -> anyhow::Result<String> {
    if FEATURES.contains(&feature) {
        Ok(format!("--no-{feature}"))
    } else {
        Err(InputError(format!("unknown feature {feature}; known: {}", FEATURES.join(", "))).into())
    }
}

/// Runs the benchmark; exit code [`ExitCode::Partial`] when a run could not
/// be measured or an emitted test fails.
///
/// # Errors
/// An unknown feature, corpus, JDK or JUnit set-up errors, or an output file
/// that cannot be written; a run that fails is a row of `runs.csv` with a note.
pub fn bench_ablation(args: &AblationArgs) -> anyhow::Result<ExitCode> {
    let flag = match &args.without {
        Some(without) => without.clone(),
        None => feature_flag(&args.feature)?,
    };
    let entries = super::corpus::read_corpus(&args.corpus)?;
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("target/bench-ablation"));
    let jdk = Jdk::find()?;
    let junit = super::bench_coverage::junit_jars()?;
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut runs_csv = String::from("class,variant,seed,branch_coverage,failing_tests,seconds,note\n");
    let mut summaries = Vec::new();
    let mut clean = true;
    for entry in &entries {
        let runs = run_class(args, &jdk, &junit, entry, &flag, &out);
        for run in &runs {
            runs_csv += &runs_csv_line(&entry.class, run);
            clean &= run.row.note.is_empty() && run.row.failing == 0;
        }
        write(&out.join("runs.csv"), &runs_csv)?;
        summaries.push(summarise(&entry.class, &runs));
    }
    let csv = ablation_csv(&summaries);
    write(&out.join("ablation.csv"), &csv)?;
    println!("{csv}");
    print_markdown(args, &flag, &summaries);
    Ok(if clean { ExitCode::Success } else { ExitCode::Partial })
}

/// The seeds of a run, "with" then "without" for each, into `out/<class>/<variant>-seed<k>`.
fn run_class(
    args: &AblationArgs,
    jdk: &Jdk,
    junit: &JunitJars,
    entry: &CorpusEntry,
    flag: &str,
    out: &Path,
) -> Vec<Run> {
    let mut runs = Vec::new();
    for seed in (0..args.seeds).map(|k| args.first_seed.wrapping_add(k)) {
        for variant in [Variant::With, Variant::Without] {
            let mut generate_args = budget_args(Duration::from_secs(args.budget_secs));
            if let Some(n) = args.evaluations {
                generate_args.extend(["--evaluations".to_string(), n.to_string()]);
            }
            let extra = if variant == Variant::Without { flag } else { args.with.as_str() };
            generate_args.extend(extra.split_whitespace().map(str::to_string));
            let dir = out.join(&entry.class).join(format!("{}-seed{seed}", variant.name()));
            let row = match args.resume.then(|| measured_row(&dir)).flatten() {
                Some(row) => row,
                None => {
                    let row = measure(jdk, junit, entry, &args.jar_dir, &generate_args, &dir, seed)
                        .unwrap_or_else(|e| Row::failed(&entry.class, &e));
                    save_row(&dir, &row);
                    row
                }
            };
            eprintln!("{} {} seed {seed}: branches {}", entry.class, variant.name(), pct(row.branches));
            if !row.note.is_empty() {
                eprintln!("  {}", row.note);
            }
            let technique = technique_numbers(&dir, &args.feature);
            runs.push(Run { variant, seed, row, technique });
        }
    }
    runs
}

/// The file in a run's folder that keeps its measured [`Row`], for `--resume`.
const ROW_FILE: &str = "row.json";

/// The row kept in `dir` by an earlier run, when it was measured (no note).
fn measured_row(dir: &Path) -> Option<Row> {
    let row: Row = serde_json::from_slice(&std::fs::read(dir.join(ROW_FILE)).ok()?).ok()?;
    row.note.is_empty().then_some(row)
}

/// Keeps `row` in `dir` (best effort: a row that cannot be written is only
/// not resumable, so the failure is a warning).
fn save_row(dir: &Path, row: &Row) {
    let written = std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(dir.join(ROW_FILE), serde_json::to_vec_pretty(row).unwrap_or_default()));
    if let Err(e) = written {
        eprintln!("warning: cannot keep the run in {}: {e}", dir.join(ROW_FILE).display());
    }
}

/// `classes[0].techniques.<feature>` of `dir/report.json`, when the file and the object exist.
fn technique_numbers(dir: &Path, feature: &str) -> Option<serde_json::Value> {
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("report.json")).ok()?).ok()?;
    let numbers = &report["classes"][0]["techniques"][feature];
    numbers.is_object().then(|| numbers.clone())
}

/// The statistics of a class's runs (runs without a branch coverage are left out).
fn summarise(class: &str, runs: &[Run]) -> ClassSummary {
    let coverage = |v: Variant, of: fn(&Row) -> Option<f64>| {
        runs.iter().filter(|r| r.variant == v).filter_map(|r| of(&r.row)).collect::<Vec<_>>()
    };
    let (with, without) = (coverage(Variant::With, |r| r.branches), coverage(Variant::Without, |r| r.branches));
    let lines_with = coverage(Variant::With, |r| r.lines);
    let lines_without = coverage(Variant::Without, |r| r.lines);
    let numbers: Vec<&serde_json::Value> =
        runs.iter().filter(|r| r.variant == Variant::With).filter_map(|r| r.technique.as_ref()).collect();
    let field = |n: &serde_json::Value, key: &str| n.get(key).and_then(serde_json::Value::as_f64);
    let technique_means = TECHNIQUE_MEANS
        .iter()
        .map(|(_, key)| stats::mean(&numbers.iter().filter_map(|n| field(n, key)).collect::<Vec<_>>()))
        .collect();
    let timed: Vec<(f64, f64)> =
        numbers.iter().filter_map(|n| Some((field(n, "synthesis_seconds")?, field(n, "search_seconds")?))).collect();
    let search: f64 = timed.iter().map(|t| t.1).sum();
    let synthesis_share = (search > 0.0).then(|| timed.iter().map(|t| t.0).sum::<f64>() / search);
    let per_target: Vec<(f64, f64)> =
        numbers.iter().filter_map(|n| Some((field(n, "synthesis_seconds")?, field(n, "targets")?))).collect();
    let targets: f64 = per_target.iter().map(|t| t.1).sum();
    let synthesis_ms_per_target =
        (targets > 0.0).then(|| 1000.0 * per_target.iter().map(|t| t.0).sum::<f64>() / targets);
    ClassSummary {
        class: class.to_string(),
        a12: stats::a12(&with, &without),
        test: stats::mann_whitney_u(&with, &without),
        with,
        without,
        lines_with,
        lines_without,
        technique_means,
        synthesis_share,
        synthesis_ms_per_target,
    }
}

/// One line of `runs.csv`: coverage in percent with two decimals.
fn runs_csv_line(class: &str, run: &Run) -> String {
    let coverage = run.row.branches.map_or("-".into(), |b| format!("{:.2}", 100.0 * b));
    let note = run.row.note.replace(',', ";");
    format!(
        "{class},{},{},{coverage},{},{:.1},{note}\n",
        run.variant.name(),
        run.seed,
        run.row.failing,
        run.row.seconds
    )
}

/// The verdict as the tables write it.
fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Win => "win",
        Verdict::Loss => "loss",
        Verdict::NoDifference => "no difference",
    }
}

/// A difference of ratios in percentage points with a sign, `-` for `None`.
fn points(d: Option<f64>) -> String {
    d.map_or("-".into(), |d| format!("{:+.1}", 100.0 * d))
}

/// A number with `decimals` decimals, `-` for `None`.
fn number(v: Option<f64>, decimals: usize) -> String {
    v.map_or("-".into(), |v| format!("{v:.decimals$}"))
}

/// The technique columns of a class: the means, then the synthesis share
/// in percent and the milliseconds per target.
fn technique_cells(s: &ClassSummary) -> Vec<String> {
    let mut cells: Vec<String> = s.technique_means.iter().map(|m| number(*m, 1)).collect();
    cells.push(pct(s.synthesis_share));
    cells.push(number(s.synthesis_ms_per_target, 2));
    cells
}

/// The cells of a class after its run counts: means with and without,
/// difference, A12, p, verdict and [`technique_cells`]; A12 and p with 4 and
/// 6 decimals when `precise` (the CSV), else 2 and 4 (the markdown table).
fn class_cells(s: &ClassSummary, precise: bool) -> Vec<String> {
    let (a12_decimals, p_decimals) = if precise { (4, 6) } else { (2, 4) };
    let mut cells = vec![
        pct(s.mean_with()),
        pct(s.mean_without()),
        points(s.difference()),
        number(s.a12, a12_decimals),
        number(s.test.map(|t| t.p), p_decimals),
        verdict_name(s.verdict()).to_string(),
        pct(stats::mean(&s.lines_with)),
        pct(stats::mean(&s.lines_without)),
    ];
    cells.extend(technique_cells(s));
    cells
}

/// The means over the classes that have both a "with" and a "without"
/// mean: with, without, difference (ratios), and how many classes.
fn corpus_means(summaries: &[ClassSummary]) -> (Option<f64>, Option<f64>, Option<f64>, usize) {
    let both: Vec<&ClassSummary> = summaries.iter().filter(|s| s.difference().is_some()).collect();
    let mean = |f: fn(&ClassSummary) -> Option<f64>| stats::mean(&both.iter().filter_map(|s| f(s)).collect::<Vec<_>>());
    (mean(ClassSummary::mean_with), mean(ClassSummary::mean_without), mean(ClassSummary::difference), both.len())
}

/// The per-class CSV (`ablation.csv`), with a last row `mean`.
fn ablation_csv(summaries: &[ClassSummary]) -> String {
    let mut csv = String::from(
        "class,runs_with,runs_without,branch_with,branch_without,difference,a12,p_value,verdict,line_with,line_without",
    );
    for (header, _) in TECHNIQUE_MEANS {
        csv += &format!(",{}", header.replace(' ', "_"));
    }
    csv += ",synthesis_share,synthesis_ms_per_target\n";
    for s in summaries {
        let cells = class_cells(s, true).join(",");
        let _ = writeln!(csv, "{},{},{},{cells}", s.class, s.with.len(), s.without.len());
    }
    let (with, without, difference, _) = corpus_means(summaries);
    let empty = ",".repeat(TECHNIQUE_MEANS.len() + 4);
    let _ = writeln!(csv, "mean,,,{},{},{},,,{empty}", pct(with), pct(without), points(difference));
    csv
}

/// The markdown table, the corpus means and the verdict counts.
fn print_markdown(args: &AblationArgs, flag: &str, summaries: &[ClassSummary]) {
    let last = args.first_seed.wrapping_add(args.seeds - 1);
    let budget = match args.evaluations {
        Some(n) => format!("{n} executions (at most {}s)", args.budget_secs),
        None => format!("{}s", args.budget_secs),
    };
    let with = if args.with.is_empty() { String::new() } else { format!(" `{}`", args.with) };
    println!(
        "# ferrosuite bench ablation: {}{with} with and without `{flag}`, {}, budget {budget}, seeds {}..={last}",
        args.feature,
        args.corpus.display(),
        args.first_seed
    );
    let headers: Vec<&str> = TECHNIQUE_MEANS.iter().map(|(h, _)| *h).collect();
    println!(
        "| class | runs with/without | branch % with | branch % without | difference (points) | A12 | p | verdict | line % with | line % without | {} | synthesis share % | synthesis ms per target |",
        headers.join(" | ")
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |{}", " ---: |".repeat(headers.len() + 4));
    for s in summaries {
        let cells = class_cells(s, false).join(" | ");
        println!("| {} | {}/{} | {cells} |", s.class, s.with.len(), s.without.len());
    }
    let (with, without, difference, n) = corpus_means(summaries);
    let empty = " |".repeat(headers.len() + 6);
    println!(
        "| **mean** ({n} classes) | | **{}** | **{}** | **{}** |{empty}",
        pct(with),
        pct(without),
        points(difference)
    );
    let count = |v: Verdict| summaries.iter().filter(|s| s.verdict() == v).count();
    println!();
    println!(
        "wins (A12 > 0.5, p < {ALPHA}): {}; losses (A12 < 0.5, p < {ALPHA}): {}; no difference: {} (of {} classes)",
        count(Verdict::Win),
        count(Verdict::Loss),
        count(Verdict::NoDifference),
        summaries.len()
    );
}

/// Writes `text` to `path`, naming the file in the error.
fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(variant: Variant, seed: u64, branches: Option<f64>, technique: Option<serde_json::Value>) -> Run {
        let row = Row {
            class: "p.A".into(),
            lines: None,
            branches,
            tests: 1,
            failing: 0,
            seconds: 1.0,
            executions_per_second: None,
            note: String::new(),
        };
        Run { variant, seed, row, technique }
    }

    #[test]
    fn unknown_features_are_named_with_the_known_ones() {
        assert_eq!(feature_flag("evoobj").unwrap(), "--no-evoobj");
        assert_eq!(feature_flag("palus").unwrap_err().to_string(), "unknown feature palus; known: evoobj, kat, mocks");
    }

    #[test]
    fn a_class_is_summarised_from_its_measured_runs() {
        let numbers = |made: f64, synthesis: f64| serde_json::json!({"templates_made": made, "synthesis_seconds": synthesis, "search_seconds": 10.0});
        let runs = [
            run(Variant::With, 1, Some(0.9), Some(numbers(4.0, 1.0))),
            run(Variant::Without, 1, Some(0.5), None),
            run(Variant::With, 2, Some(0.8), Some(numbers(2.0, 3.0))),
            run(Variant::Without, 2, None, None),
            run(Variant::With, 3, Some(0.7), None),
            run(Variant::Without, 3, Some(0.6), None),
        ];
        let s = summarise("p.A", &runs);
        assert_eq!((s.with.len(), s.without.len()), (3, 2));
        assert!((s.difference().unwrap() - 0.25).abs() < 1e-12);
        assert_eq!(s.a12, Some(1.0));
        assert_eq!(s.verdict(), Verdict::NoDifference, "p {:?}", s.test); // too few runs for p < 0.05
        assert_eq!(technique_cells(&s), ["3.0", "-", "-", "-", "-", "-", "20.0", "-"]);
    }

    #[test]
    fn wins_need_a12_above_half_and_a_small_p() {
        let with: Vec<f64> = (11..=20).map(|k| f64::from(k) / 100.0).collect();
        let without: Vec<f64> = (1..=10).map(|k| f64::from(k) / 100.0).collect();
        let runs = |a: &[f64], b: &[f64]| {
            let mut r: Vec<Run> = a.iter().map(|&c| run(Variant::With, 1, Some(c), None)).collect();
            r.extend(b.iter().map(|&c| run(Variant::Without, 1, Some(c), None)));
            r
        };
        assert_eq!(summarise("p.A", &runs(&with, &without)).verdict(), Verdict::Win);
        assert_eq!(summarise("p.A", &runs(&without, &with)).verdict(), Verdict::Loss);
        assert_eq!(summarise("p.A", &runs(&with, &with)).verdict(), Verdict::NoDifference);
    }

    #[test]
    fn a_measured_run_is_resumed_and_a_failed_one_is_run_again() {
        let dir = tempfile::tempdir().unwrap();
        let measured = run(Variant::With, 1, Some(0.75), None).row;
        save_row(&dir.path().join("with-seed1"), &measured);
        assert_eq!(measured_row(&dir.path().join("with-seed1")), Some(measured));
        let failed = Row::failed("p.A", &anyhow::anyhow!("the suite does not compile"));
        save_row(&dir.path().join("without-seed1"), &failed);
        assert_eq!(measured_row(&dir.path().join("without-seed1")), None);
        assert_eq!(measured_row(&dir.path().join("with-seed2")), None);
    }
}
