//! Instrumenting a list of classes of a class path into a folder that a JVM
//! can run: package directories of instrumented class files, the runtime
//! classes ([`crate::tracer::write_runtime`]) and `probes.json` (the probe
//! plan of each class, one probe-id space for the whole batch).

use std::path::{Path, PathBuf};

use model::classpath::ClassPath;
use model::names::BinaryName;

use crate::{InstrumentedClass, Instrumenter};

/// The outcome of instrumenting a list of classes.
#[derive(Debug)]
pub struct Batch {
    /// The classes that were instrumented, in the order given.
    pub classes: Vec<InstrumentedClass>,
    /// Classes that could not be instrumented, with the reason; their
    /// original bytes were written instead, unless they could not be read
    /// at all.
    pub failed: Vec<(BinaryName, String)>,
}

impl Batch {
    /// The probe ids that follow the last class's: where another batch's
    /// classes start so that no id is given twice.
    pub fn next_bases(&self) -> crate::plan::ProbeBases {
        self.classes.last().map(|c| c.bases.after(&c.plan)).unwrap_or_default()
    }
}

/// The output folder of a batch could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot {action} {}", path.display())]
pub struct BatchError {
    /// What was being done: `create`, `write`.
    pub action: &'static str,
    /// The file or folder.
    pub path: PathBuf,
    /// The operating system's error.
    #[source]
    pub source: std::io::Error,
}

/// Instruments `names` from `cp` into `out` (package directories), writes
/// the runtime classes and `probes.json`; `every_site` selects
/// [`Instrumenter::instrument_every_site`]. A class that fails is written
/// unchanged and listed in [`Batch::failed`]; a class whose bytes cannot be
/// read (a corrupt jar entry, a name not on the class path) is listed there
/// too, and nothing is written for it.
///
/// # Errors
/// [`BatchError`] when `out` cannot be written.
pub fn instrument_to_dir(
    cp: &ClassPath,
    names: &[BinaryName],
    out: &Path,
    every_site: bool,
) -> Result<Batch, BatchError> {
    instrument_to_dir_with(Instrumenter::default(), cp, names, out, every_site)
}

/// [`instrument_to_dir`] with a configured instrumenter (for instance one
/// that adds the static reset, [`Instrumenter::with_static_reset`]).
///
/// # Errors
/// [`BatchError`] when `out` cannot be written.
pub fn instrument_to_dir_with(
    mut instrumenter: Instrumenter,
    cp: &ClassPath,
    names: &[BinaryName],
    out: &Path,
    every_site: bool,
) -> Result<Batch, BatchError> {
    let mut batch = Batch { classes: Vec::new(), failed: Vec::new() };
    for name in names {
        let found = match cp.find_bytes(name.as_str()) {
            Ok(found) => found,
            Err(e) => {
                batch.failed.push((name.clone(), e.to_string()));
                continue;
            }
        };
        let file = out.join(name.class_file_path());
        let result = if every_site {
            instrumenter.instrument_every_site(&found.bytes)
        } else {
            instrumenter.instrument(&found.bytes)
        };
        let bytes = match result {
            Ok(c) if !crate::is_excluded(&c.class) => {
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
    crate::tracer::write_runtime(out).map_err(|source| BatchError {
        action: "write the runtime classes to",
        path: out.to_path_buf(),
        source,
    })?;
    let map = serde_json::to_vec_pretty(&batch.classes).expect("probe plans serialise");
    write_file(&out.join("probes.json"), &map)?;
    Ok(batch)
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), BatchError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|source| BatchError {
            action: "create",
            path: dir.to_path_buf(),
            source,
        })?;
    }
    std::fs::write(path, bytes).map_err(|source| BatchError { action: "write", path: path.to_path_buf(), source })
}
