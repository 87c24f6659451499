//! `ferrosuite explain-ocg`: EvoObj's object construction graph and test
//! template for one goal ([`evoobj::explain`]).

use std::sync::Arc;

use model::names::BinaryName;

use crate::exit_code::ExitCode;

/// Arguments of `ferrosuite explain-ocg`.
#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    /// Class path of the class and its dependencies (`:`-separated).
    #[arg(long, short = 'c')]
    classpath: String,
    /// Binary name of the class under test.
    #[arg(long)]
    class: String,
    /// The goal's key, as `ferrosuite goals --json` prints it
    /// (`canCommand(Lgame/Crew;I)Z@42:true`).
    #[arg(long)]
    goal: String,
    /// Seed of the template's random values.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Prints the slice, OCG and template of `--goal`.
///
/// # Errors
/// No JDK, class not found, no such goal.
pub fn run(args: &ExplainArgs) -> anyhow::Result<ExitCode> {
    let jdk = javarun::Jdk::find()?;
    let cp = super::open_classpath(&args.classpath)?.with_jdk(&jdk.home)?;
    let text = evoobj::explain::explain(Arc::new(cp), &BinaryName::new(&args.class), &args.goal, args.seed)?;
    print!("{text}");
    Ok(ExitCode::Success)
}
