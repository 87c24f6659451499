//! The `ferrosuite` command-line tool: a thin layer over the library crates.
//!
//! Commands (one module each in [`commands`]): `init` (write a commented
//! `ferrosuite.toml`, read by [`config`]), `generate` (the main job, over
//! the `generate` crate; also one shard of several), `merge` (combine the
//! shards' output), `goals` (list the coverage goals of a class),
//! `instrument` (write instrumented class files and the runtime), `kat` (the
//! JDK API exception knowledge graph), `bench` (measurements), and the
//! hidden `worker` (a test-execution worker hosting one JVM). The progress
//! display is [`progress`].
//! Errors are printed as one line `error: ...` and mapped to an
//! [`exit_code::ExitCode`].

mod commands;
mod config;
mod exit_code;
mod progress;

use clap::{Parser, Subcommand};

use crate::exit_code::ExitCode;

/// Rust's allocations go to mimalloc (the embedded JVM of a `worker` keeps
/// its own): the search makes and drops test cases, traces and
/// observations thousands of times a second, and glibc's `malloc`/`free`
/// took about a quarter of the orchestrator's main thread (`perf record`
/// on `generate`, ParserImpl, 30 s).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// ferrosuite: unit-test generation for compiled Java classes.
#[derive(Debug, Parser)]
#[command(name = "ferrosuite", version, about)]
struct Cli {
    /// The JDK that runs the class under test, javac and JUnit (default:
    /// $JAVA_HOME, else /usr/lib/jvm/java-17-openjdk-amd64); JDK 17 to 25.
    #[arg(long, global = true, value_name = "DIR")]
    java_home: Option<std::path::PathBuf>,
    /// The configuration file of `generate` (default: `ferrosuite.toml` in
    /// the --project folder or the current folder, when there is one).
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Write a commented default `ferrosuite.toml` (every option of `generate`).
    Init(commands::init::InitArgs),
    /// Combine the output folders of several runs (the shards of `generate --shard K/N`).
    Merge(commands::merge::MergeArgs),
    /// Print the coverage goals of a class (branches, switch cases, lines, methods).
    Goals(commands::goals::GoalsArgs),
    /// Generate JUnit tests for classes (the main job).
    Generate(Box<commands::generate::GenerateArgs>),
    /// Explain one goal: EvoObj's object construction graph and test template for it.
    ExplainOcg(commands::explain::ExplainArgs),
    /// Write instrumented class files and the tracer class to a directory.
    Instrument(commands::instrument::InstrumentArgs),
    /// Measurements: instrumentation speed, instrumentation check on jars.
    #[command(subcommand)]
    Bench(commands::bench::BenchCommand),
    /// The JDK API exception knowledge graph (KAT): build, show, stats.
    #[command(subcommand)]
    Kat(commands::kat::KatCommand),
    /// Palus: call-sequence models learned from the project's own tests.
    #[command(subcommand)]
    Palus(commands::palus::PalusCommand),
    /// ZoomIn: rank a generated suite's assertions by how likely they are
    /// wrong, from invariants of the project's own tests.
    Zoomin(commands::zoomin::ZoominArgs),
    /// Internal: a test-execution worker hosting one JVM (started by ferrosuite itself).
    #[command(hide = true)]
    Worker(WorkerArgs),
    /// Internal: run a program confined by the kernel sandbox (the JUnit JVMs of verification).
    #[command(hide = true)]
    Confined(ConfinedArgs),
}

/// Arguments of the hidden worker mode.
#[derive(Debug, clap::Args)]
struct WorkerArgs {
    #[arg(long)]
    class_path: String,
    #[arg(long, default_value_t = 1024)]
    heap_mb: u32,
    #[arg(long, default_value_t = 0)]
    environment_seed: u64,
    /// Open `java.lang` to the class path, as a coverage agent does.
    #[arg(long)]
    open_java_lang: bool,
}

/// Arguments of the hidden `confined` mode.
#[derive(Debug, clap::Args)]
struct ConfinedArgs {
    /// A folder the program may write beneath (repeatable).
    #[arg(long)]
    write: Vec<std::path::PathBuf>,
    /// A folder whose programs may be started (repeatable).
    #[arg(long)]
    exec: Vec<std::path::PathBuf>,
    /// The program and its arguments.
    #[arg(last = true, required = true)]
    program: Vec<std::ffi::OsString>,
}

/// Confines this process, then replaces it with the program (exit 126 when
/// the program cannot be started).
fn run_confined(args: ConfinedArgs) -> ! {
    use std::os::unix::process::CommandExt;
    let write: Vec<&std::path::Path> = args.write.iter().map(|p| p.as_path()).collect();
    let exec: Vec<&std::path::Path> = args.exec.iter().map(|p| p.as_path()).collect();
    let confinement = jvm::sandbox::confine_process(&write, &exec);
    if !confinement.is_complete() {
        eprintln!("warning: this kernel cannot fully confine the tests: {confinement:?}");
    }
    let error = std::process::Command::new(&args.program[0]).args(&args.program[1..]).exec();
    eprintln!("error: cannot run {}: {error}", args.program[0].to_string_lossy());
    std::process::exit(126)
}

fn main() -> std::process::ExitCode {
    let args = match config::apply(std::env::args_os().collect()) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("error: {}", one_line(&format!("{e:#}")));
            return ExitCode::Usage.into();
        }
    };
    let cli = match Cli::try_parse_from(args) {
        Ok(Cli { command: Command::Worker(w), java_home, .. }) => {
            let Some(java_home) = java_home else {
                eprintln!("error: the worker needs --java-home");
                return ExitCode::Usage.into();
            };
            let environment =
                jvm::environment::Environment { seed: w.environment_seed, open_java_lang: w.open_java_lang };
            let args = jvm::worker::WorkerArgs { java_home, class_path: w.class_path, heap_mb: w.heap_mb, environment };
            std::process::exit(jvm::worker::main(args));
        }
        Ok(Cli { command: Command::Confined(c), .. }) => run_confined(c),
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::Usage.into() } else { ExitCode::Success.into() };
        }
    };
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_env("FERROSUITE_LOG"))
        .with_writer(std::io::stderr)
        .init();
    if let Some(home) = &cli.java_home {
        model::jdk::choose(home);
    }
    let result = match cli.command {
        Command::Init(args) => commands::init::run(&args),
        Command::Merge(args) => commands::merge::run(&args),
        Command::Goals(args) => commands::goals::run(&args),
        Command::Generate(args) => commands::generate::run(&args),
        Command::ExplainOcg(args) => commands::explain::run(&args),
        Command::Instrument(args) => commands::instrument::run(&args),
        Command::Bench(cmd) => commands::bench::run(&cmd),
        Command::Kat(cmd) => commands::kat::run(&cmd),
        Command::Palus(cmd) => commands::palus::run(&cmd),
        Command::Zoomin(args) => commands::zoomin::run(&args),
        Command::Worker(_) | Command::Confined(_) => unreachable!("handled before logging starts"),
    };
    match result {
        Ok(code) => code.into(),
        Err(e) => {
            eprintln!("error: {}", one_line(&format!("{e:#}")));
            commands::exit_code_for(&e).into()
        }
    }
}

/// Error chains are printed on one line.
pub(crate) fn one_line(s: &str) -> String {
    s.split('\n').map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ")
}
