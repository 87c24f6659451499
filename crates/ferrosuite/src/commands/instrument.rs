//! `ferrosuite instrument`: write instrumented class files, the runtime
//! classes (tracer and sandbox) and
//! the probe map (`probes.json`) to a directory, so that
//! `java -cp DIR:CP` runs the instrumented code.

use std::path::PathBuf;

use instrument::Kept;
use instrument::batch::instrument_to_dir;
use model::classpath::ClassPath;
use model::names::BinaryName;

use super::InputError;
use crate::exit_code::ExitCode;

/// Arguments of `ferrosuite instrument`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("what").required(true).multiple(true).args(["class", "jar"])))]
pub struct InstrumentArgs {
    /// Class path: directories and jars separated by `:`.
    #[arg(long, short = 'c', default_value = "")]
    classpath: String,
    /// Binary name of a class to instrument; repeat for several classes
    /// (the classes of one run share one probe-id space).
    #[arg(long)]
    class: Vec<String>,
    /// Instrument every class of this jar, or only the `--class`es when
    /// given (the jar is put first on the class path).
    #[arg(long)]
    jar: Option<PathBuf>,
    /// Output directory (created if missing); it must not hold the
    /// `probes.json` of an earlier run, whose probe ids this run would reuse.
    #[arg(long)]
    out: PathBuf,
    /// Probe every conditional jump, switch, line and method, including the
    /// compiler-generated branches that are not goals (stress mode).
    #[arg(long)]
    every_site: bool,
}

/// Runs the command.
///
/// # Errors
/// Class-path errors, class not found, a `--jar` that does not exist, an
/// `--out` directory that holds an earlier run, I/O errors on the output
/// directory.
pub fn run(args: &InstrumentArgs) -> anyhow::Result<ExitCode> {
    if args.out.join("probes.json").exists() {
        return Err(InputError(format!(
            "{} already holds probes.json from an earlier run, whose probe ids this run would reuse; use a new --out directory",
            args.out.display()
        ))
        .into());
    }
    let mut entries: Vec<PathBuf> = Vec::new();
    if let Some(jar) = &args.jar {
        if !jar.exists() {
            return Err(InputError(format!("--jar {} does not exist", jar.display())).into());
        }
        entries.push(jar.clone());
    }
    entries.extend(args.classpath.split(':').filter(|p| !p.is_empty()).map(PathBuf::from));
    let cp = ClassPath::new(&entries)?;
    let mut names: Vec<BinaryName> = Vec::new();
    for c in &args.class {
        cp.load(c)?; // a clear "not found" before any work
        let c = BinaryName::new(c.as_str());
        if !names.contains(&c) {
            names.push(c);
        }
    }
    if let (true, Some(jar)) = (names.is_empty(), &args.jar) {
        let in_jar = cp.classes_in(jar).ok_or_else(|| {
            InputError(format!("--jar {} is not a jar or directory of the class path", jar.display()))
        })?;
        names = in_jar.into_iter().map(BinaryName::new).collect();
    }
    let batch = instrument_to_dir(&cp, &names, &args.out, args.every_site)?;
    let skipped: usize = batch.classes.iter().map(|c| c.skipped.len()).sum();
    println!(
        "instrumented {} classes into {} ({} failed, {} methods left without some probes)",
        batch.classes.len(),
        args.out.display(),
        batch.failed.len(),
        skipped
    );
    for (name, err) in &batch.failed {
        eprintln!("warning: {name}: {err}");
    }
    for c in &batch.classes {
        for m in &c.skipped {
            let kept = match m.kept {
                Kept::AllButLines => "kept every probe but the line probes",
                Kept::SandboxOnly => "kept the sandbox probes only, no coverage probes",
                Kept::Nothing => "left unchanged, without probes",
            };
            eprintln!("warning: {}.{}: {kept}: {}", c.class.to_binary(), m.method, m.reason);
        }
    }
    Ok(if batch.failed.is_empty() { ExitCode::Success } else { ExitCode::Partial })
}
