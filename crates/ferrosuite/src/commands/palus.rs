//! `ferrosuite palus model`: runs the project's tests once with the
//! classes of a class's package recording ([`palus::sample`]) and prints the
//! class's call-sequence model ([`palus::infer`]) as text, Graphviz `dot`
//! or JSON.

use std::time::{Duration, Instant};

use model::jdk::Jdk;

use super::InputError;
use crate::exit_code::ExitCode;

/// The `palus` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum PalusCommand {
    /// Run sample tests with recording and print a class's call-sequence model.
    Model(ModelArgs),
}

/// Arguments of `palus model`.
#[derive(Debug, Clone, clap::Args)]
pub struct ModelArgs {
    /// Class path of the classes under test and their dependencies (`:`-separated).
    #[arg(long, short = 'c', default_value = "")]
    pub classpath: String,
    /// The compiled sample tests: `CP[:CLASSES]`, folders and jars, then
    /// optionally the test classes to run (default: every class with a
    /// JUnit 4 or 5 `@Test` method).
    #[arg(long, value_name = "CP[:CLASSES]", required_unless_present = "sample_main")]
    pub sample_tests: Option<String>,
    /// Instead of tests: a main class on the class path, run once.
    #[arg(long, value_name = "CLASS", conflicts_with = "sample_tests")]
    pub sample_main: Option<String>,
    /// Binary name of the class whose model is printed (its package is recorded).
    #[arg(long)]
    pub class: String,
    /// kTail's k: states with the same calls for the next k steps merge (0: keep the prefix tree).
    #[arg(long, default_value_t = 3)]
    pub k: usize,
    /// Print Graphviz `dot` instead of text.
    #[arg(long, conflicts_with = "json")]
    pub dot: bool,
    /// Print the models of every recorded class as JSON.
    #[arg(long)]
    pub json: bool,
    /// Time limit of each sample test method (seconds).
    #[arg(long, default_value_t = 10)]
    pub test_timeout: u64,
    /// Time limit of the whole sample run (seconds); what was recorded by then is used.
    #[arg(long, default_value_t = 120)]
    pub sample_budget: u64,
}

/// Runs a `palus` subcommand.
///
/// # Errors
/// No JDK, bad class path or sample tests, a class not found (input errors).
pub fn run(cmd: &PalusCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        PalusCommand::Model(args) => model(args),
    }
}

fn model(args: &ModelArgs) -> anyhow::Result<ExitCode> {
    let jdk = Jdk::find()?;
    let cp = super::open_classpath(&args.classpath)?.with_jdk(&jdk.home)?;
    let class = super::require_class(&cp, &args.class)?;
    let work = tempfile::Builder::new().prefix("ferrosuite-palus").tempdir()?;
    let confiner = javarun::Confiner { launcher: std::env::current_exe()? };
    let config = palus::sample::SampleConfig {
        jdk: &jdk,
        user_class_path: &args.classpath,
        cp: &cp,
        recorded: palus::sample::recorded_classes(&cp, &class),
        work: work.path().to_path_buf(),
        test_timeout: Duration::from_secs(args.test_timeout),
        deadline: Some(Instant::now() + Duration::from_secs(args.sample_budget)),
        confiner: Some(&confiner),
        mode: instrument::record::RecordMode::Calls,
        options: Vec::new(),
    };
    let sample = super::generate::run_sample(args.sample_tests.as_deref(), args.sample_main.as_deref(), &config)?;
    let cut = sample.cut.as_ref().map_or(String::new(), |t| format!(" (cut at its budget in {t})"));
    eprintln!(
        "sample run: {} tests passed, {} skipped, {} calls recorded{cut}",
        sample.passed.len(),
        sample.skipped.len(),
        sample.calls.len()
    );
    let k = (args.k > 0).then_some(args.k);
    let models = palus::infer(&sample.methods, &sample.calls, k);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&models)?);
        return Ok(ExitCode::Success);
    }
    let Some(model) = models.classes.get(class.as_str()) else {
        let made = models.classes.keys().cloned().collect::<Vec<_>>().join(", ");
        let made = if made.is_empty() { "nothing was recorded".to_string() } else { format!("recorded: {made}") };
        return Err(InputError(format!(
            "the sample tests made no object of {class} ({made}); name test classes that use it"
        ))
        .into());
    };
    print!("{}", if args.dot { palus::show::dot(model) } else { palus::show::text(model) });
    Ok(ExitCode::Success)
}
