//! `ferrosuite kat check`: KAT's static detection ([`katcheck`]) on a class
//! or every class of a jar, without running the search: the call sites of
//! documented JDK methods, each condition sat or unsat, with bug and
//! knowledge confidences; text or `--json`.

use std::path::PathBuf;
use std::time::Instant;

use katcheck::{CheckOptions, ClassCheck, Verdict};

use super::InputError;
use crate::exit_code::ExitCode;

/// The newest class-file major version the shipped graph documents (Java 17).
const GRAPH_MAJOR: u16 = 61;

/// Arguments of `kat check`.
#[derive(Debug, Clone, clap::Args)]
pub struct CheckArgs {
    /// Class path of the classes and their dependencies (`:`-separated);
    /// with `--jar`, the jar is added to it.
    #[arg(long, short = 'c', default_value = "")]
    pub classpath: String,
    /// Binary name of one class to check.
    #[arg(long, conflicts_with = "jar", required_unless_present = "jar")]
    pub class: Option<String>,
    /// Check every class of this jar (or class folder).
    #[arg(long)]
    pub jar: Option<PathBuf>,
    /// Print every checked condition, the safe ones too (default: the potential bugs).
    #[arg(long)]
    pub all: bool,
    /// Print JSON: one object per class with all its conditions.
    #[arg(long)]
    pub json: bool,
    /// Time limit of one solver query (milliseconds); a query that hits it is `unknown`.
    #[arg(long, default_value_t = 1000)]
    pub timeout_ms: u32,
    /// A graph file instead of the shipped JDK 17 graph.
    #[arg(long)]
    pub kg: Option<PathBuf>,
}

/// Runs `kat check`.
///
/// # Errors
/// Class path errors, a class that is not found or does not parse, an
/// unreadable graph (input errors).
pub fn run(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let graph = super::kat::load(args.kg.as_deref())?;
    let mut parts = vec![args.classpath.clone()];
    parts.extend(args.jar.iter().map(|j| j.display().to_string()));
    let cp = super::open_classpath(&super::join_classpath(&parts))?;
    let names = match (&args.class, &args.jar) {
        (Some(c), _) => vec![c.clone()],
        (None, Some(jar)) => {
            cp.classes_in(jar).ok_or_else(|| InputError(format!("{} is not on the class path", jar.display())))?
        }
        (None, None) => unreachable!("clap requires --class or --jar"),
    };
    let options = CheckOptions { timeout_ms: args.timeout_ms };
    let start = Instant::now();
    let mut checks = Vec::new();
    for name in &names {
        let cf = match cp.load(name) {
            Ok(cf) => cf,
            Err(e) if args.jar.is_some() => {
                eprintln!("warning: {name} skipped: {e}");
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        if cf.major_version > GRAPH_MAJOR {
            eprintln!(
                "warning: {name} is compiled for Java {}; the knowledge graph documents JDK 17, so calls of APIs added later are not checked",
                model::classfile::java_release(cf.major_version)
            );
        }
        checks.push(katcheck::check_class(&cf, &graph, &options));
    }
    let seconds = start.elapsed().as_secs_f64();
    for w in checks.iter().flat_map(|c| c.warnings.iter().map(move |w| (c, w))) {
        eprintln!("warning: {}.{}: skipped", w.0.class, w.1);
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&checks)?);
    } else {
        print_text(&checks, args.all);
        println!("{}", summary(&checks, seconds));
    }
    Ok(ExitCode::Success)
}

/// One line per condition: where, the API, the trigger, the verdict and the confidences.
fn print_text(checks: &[ClassCheck], all: bool) {
    for check in checks {
        for v in check.violations.iter().filter(|v| all || v.is_potential_bug()) {
            let caught =
                v.caught_by.as_deref().map_or(String::new(), |c| format!("  caught by {}", c.replace('/', ".")));
            println!(
                "{}  in {}{}  {} {}  bug {:.1}  knowledge {:.2}{caught}",
                v.label(check.source_file.as_deref()),
                v.method,
                v.descriptor,
                v.kinds.join("+"),
                v.verdict.name(),
                v.bug_confidence,
                v.knowledge_confidence,
            );
        }
    }
}

/// The totals: classes, call sites, conditions by verdict, time.
fn summary(checks: &[ClassCheck], seconds: f64) -> String {
    let all = || checks.iter().flat_map(|c| &c.violations);
    let count = |verdict: Verdict| all().filter(|v| v.verdict == verdict).count();
    let bugs = all().filter(|v| v.is_potential_bug()).count();
    let per_class = if checks.is_empty() { 0.0 } else { 1000.0 * seconds / checks.len() as f64 };
    format!(
        "{} classes, {} calls of documented JDK methods, {} conditions: {} sat ({bugs} potential bugs, {} caught where called), {} unsat, {} unknown; {seconds:.2} s ({per_class:.1} ms per class)",
        checks.len(),
        checks.iter().map(|c| c.sites).sum::<usize>(),
        all().count(),
        count(Verdict::Sat),
        all().filter(|v| v.verdict == Verdict::Sat && v.caught_by.is_some()).count(),
        count(Verdict::Unsat),
        count(Verdict::Unknown),
    )
}
