//! `ferrosuite instrument`: write instrumented class files, the runtime
//! classes (tracer and sandbox) and
//! the probe map (`probes.json`) to a directory, so that
//! `java -cp DIR:CP` runs the instrumented code.

use std::path::{Path, PathBuf};

use anyhow::Context;
use instrument::{InstrumentedClass, Instrumenter, tracer};
use model::classpath::ClassPath;

use crate::exit_code::ExitCode;

/// Arguments of `ferrosuite instrument`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("what").required(true).multiple(true).args(["class", "jar"])))]
pub struct InstrumentArgs {
    /// Class path: directories and jars separated by `:`.
    #[arg(long, short = 'c', default_value = "")]
    classpath: String,
    /// Binary name of one class to instrument.
    #[arg(long)]
    class: Option<String>,
    /// Instrument every class of this jar, or only `--class` when given
    /// (the jar is put first on the class path).
    #[arg(long)]
    jar: Option<PathBuf>,
    /// Output directory (created if missing).
    #[arg(long)]
    out: PathBuf,
    /// Probe every conditional jump, switch, line and method, including the
    /// compiler-generated branches that are not goals (stress mode).
    #[arg(long)]
    every_site: bool,
}

/// The outcome of instrumenting a list of classes.
pub struct Batch {
    pub classes: Vec<InstrumentedClass>,
    /// (binary name, error) of classes that could not be instrumented;
    /// their original bytes were written instead.
    pub failed: Vec<(String, String)>,
}

/// Runs the command.
///
/// # Errors
/// Class-path errors, class not found, I/O errors on the output directory.
pub fn run(args: &InstrumentArgs) -> anyhow::Result<ExitCode> {
    let mut spec = args.classpath.clone();
    if let Some(jar) = &args.jar {
        spec = format!("{}:{spec}", jar.display());
    }
    let cp = super::open_classpath(&spec)?;
    let names = match (&args.class, &args.jar) {
        (Some(c), _) => vec![c.clone()],
        (None, Some(jar)) => cp.classes_in(jar).unwrap_or_default(),
        (None, None) => unreachable!("clap requires --class or --jar"),
    };
    if let Some(c) = &args.class {
        cp.load(c)?; // a clear "not found" before any work
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
    Ok(if batch.failed.is_empty() { ExitCode::Success } else { ExitCode::Partial })
}

/// Instruments `names` from `cp` into `out` (package directories), writes
/// the runtime classes and `probes.json`; `every_site` selects
/// [`Instrumenter::instrument_every_site`]. A class that fails is written
/// unchanged and listed in [`Batch::failed`].
///
/// # Errors
/// I/O errors on `out`, or a class-path error other than a bad class.
pub fn instrument_to_dir(cp: &ClassPath, names: &[String], out: &Path, every_site: bool) -> anyhow::Result<Batch> {
    let mut instrumenter = Instrumenter::default();
    let mut batch = Batch { classes: Vec::new(), failed: Vec::new() };
    for name in names {
        let found = cp.find_bytes(name)?;
        let file = out.join(format!("{}.class", name.replace('.', "/")));
        let result = if every_site {
            instrumenter.instrument_every_site(&found.bytes)
        } else {
            instrumenter.instrument(&found.bytes)
        };
        let bytes = match result {
            Ok(c) if !instrument::is_excluded(&c.class) => {
                let bytes = c.bytes.clone();
                batch.classes.push(c);
                bytes
            }
            Ok(_) => found.bytes,
            Err(e) => {
                batch.failed.push((name.clone(), e.to_string()));
                found.bytes
            }
        };
        write_file(&file, &bytes)?;
    }
    tracer::write_runtime(out).with_context(|| format!("cannot write the runtime classes to {}", out.display()))?;
    let map = serde_json::to_vec_pretty(&batch.classes)?;
    write_file(&out.join("probes.json"), &map)?;
    Ok(batch)
}

fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}
