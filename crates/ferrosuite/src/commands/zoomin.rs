//! `ferrosuite zoomin`: ranks the assertions of an existing generated suite
//! (from ferrosuite or another tool whose tests compile against the class
//! path) with invariants learned from the project's own tests
//! ([`zoomin::run`]), and prints, per class under test, the numbers of each
//! step with their times (the benchmark of ZoomIn's cost) and the top
//! assertions.

use std::time::Duration;

use model::jdk::Jdk;
use palus::sample::SampleTests;

use super::InputError;
use crate::exit_code::ExitCode;

/// Arguments of `zoomin`.
#[derive(Debug, Clone, clap::Args)]
pub struct ZoominArgs {
    /// Class path of the classes under test and their dependencies (`:`-separated).
    #[arg(long, short = 'c', default_value = "")]
    pub classpath: String,
    /// Binary name of a class under test (repeat for several).
    #[arg(long, required = true)]
    pub class: Vec<String>,
    /// The project's compiled manual tests: `CP[:CLASSES]`, folders and
    /// jars, then optionally the test classes to run (default: every class
    /// with a JUnit 4 or 5 `@Test` method).
    #[arg(long, value_name = "CP[:CLASSES]")]
    pub manual_tests: String,
    /// Folder of the generated test sources (`.java`, searched recursively).
    #[arg(long, value_name = "DIR")]
    pub generated: std::path::PathBuf,
    /// How many assertions to report per class.
    #[arg(long, default_value_t = zoomin::report::DEFAULT_TOP)]
    pub top: usize,
    /// Depth of the traced fields of receivers, parameters and results.
    #[arg(long, default_value_t = 2)]
    pub depth: u32,
    /// Put a `// suspicious (score ..)` comment above each reported assertion in the sources.
    #[arg(long)]
    pub annotate: bool,
    /// Also print every learned invariant.
    #[arg(long)]
    pub invariants: bool,
    /// Print JSON instead of the summary: per class the numbers and every
    /// unsafe assertion with its score and violated invariants, and the findings.
    #[arg(long)]
    pub json: bool,
    /// Time limit of each test method (seconds).
    #[arg(long, default_value_t = 10)]
    pub test_timeout: u64,
    /// Time limit of each tracing run (seconds); what was traced by then is used.
    #[arg(long, default_value_t = 300)]
    pub budget: u64,
}

/// Runs `zoomin`.
///
/// # Errors
/// No JDK, a bad class path, manual tests or generated folder, a class not
/// found, generated tests that do not compile (input errors).
pub fn run(args: &ZoominArgs) -> anyhow::Result<ExitCode> {
    let jdk = Jdk::find()?;
    let cp = super::open_classpath(&args.classpath)?.with_jdk(&jdk.home)?;
    let classes = args.class.iter().map(|c| super::require_class(&cp, c)).collect::<Result<Vec<_>, _>>()?;
    let manual = SampleTests::parse(&args.manual_tests).map_err(|e| InputError(e.to_string()))?;
    let sources = zoomin::run::java_sources(&args.generated).map_err(|e| InputError(e.to_string()))?;
    let work = tempfile::Builder::new().prefix("ferrosuite-zoomin").tempdir()?;
    let confiner = javarun::Confiner { launcher: std::env::current_exe()? };
    let mut all_findings = Vec::new();
    let mut all_classes = Vec::new();
    for class in &classes {
        let config = zoomin::run::ZoomInConfig {
            jdk: &jdk,
            user_class_path: &args.classpath,
            cp: &cp,
            work: work.path().join(class.as_str()),
            test_timeout: Duration::from_secs(args.test_timeout),
            budget: Duration::from_secs(args.budget),
            confiner: Some(&confiner),
            depth: args.depth,
        };
        let learned = zoomin::run::learn(class, &manual, &config).map_err(input)?;
        for (test, why) in &learned.skipped {
            eprintln!("warning: manual test {test} skipped ({why})");
        }
        if args.invariants {
            for inv in &learned.invariants {
                let point = if inv.point.exit { "EXIT" } else { "ENTER" };
                println!("{}:::{point} {inv}", learned.method_name(inv.point.method));
            }
        }
        let checked = zoomin::run::rank_suite(class, &learned, &sources, &config).map_err(input)?;
        if args.annotate {
            zoomin::report::annotate(&learned, &checked, args.top).map_err(anyhow::Error::msg)?;
        }
        all_findings.extend(zoomin::report::findings(&learned, &checked, args.top, args.annotate));
        if args.json {
            all_classes.push(zoomin::report::ClassJson::new(&learned, &checked));
        } else {
            print!("{}", zoomin::report::summary(&learned, &checked, args.top));
        }
    }
    if args.json {
        let json = serde_json::json!({ "classes": all_classes, "findings": all_findings });
        println!("{}", serde_json::to_string_pretty(&json)?);
    }
    Ok(ExitCode::Success)
}

/// ZoomIn's errors about the user's tests are input errors.
fn input(e: zoomin::run::ZoomInError) -> anyhow::Error {
    match e {
        zoomin::run::ZoomInError::Io(_) => anyhow::Error::new(e),
        other => InputError(other.to_string()).into(),
    }
}
