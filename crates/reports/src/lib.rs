//! The reports of a `generate` run besides `report.json`, each made from
//! `report.json` itself (a [`serde_json::Value`], so `ferrosuite merge`
//! makes them from the shards' reports too): [`csv`] (`report.csv`, one row
//! per class), [`sarif`] (`report.sarif`, every finding as a SARIF 2.1.0
//! result) and [`html`] (`report.html`, one self-contained page, with the
//! uncovered lines on the source files [`sources`] finds).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod csv;
pub mod html;
pub mod sarif;
pub mod sources;

pub use sources::Sources;

use std::path::{Path, PathBuf};

use serde_json::Value;

/// A report file that could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}: {source}", path.display())]
pub struct WriteError {
    /// The file.
    pub path: PathBuf,
    /// Why.
    pub source: std::io::Error,
}

/// The files [`write_all`] writes into the output folder, in order.
pub const FILES: [&str; 4] = ["report.json", "report.csv", "report.sarif", "report.html"];

/// Writes `report` (a `report.json` as JSON) into `out` as the [`FILES`];
/// the HTML page shows the uncovered lines on the files of `sources` and
/// the witness tests of the test files under `tests` (the folder the
/// report's `test_file` and `findings_file` are relative to).
///
/// # Errors
/// The first file that cannot be written.
pub fn write_all(out: &Path, report: &Value, sources: &Sources, tests: &Path) -> Result<(), WriteError> {
    let json = serde_json::to_vec_pretty(report).expect("JSON serialises");
    let sarif = serde_json::to_vec_pretty(&sarif::sarif_of(report, sources)).expect("SARIF serialises");
    let html = html::html_of(report, tests, sources).into_bytes();
    let contents: [Vec<u8>; 4] = [json, csv::csv_of(report).into_bytes(), sarif, html];
    for (name, bytes) in FILES.iter().zip(contents) {
        let path = out.join(name);
        std::fs::write(&path, bytes).map_err(|source| WriteError { path, source })?;
    }
    Ok(())
}
