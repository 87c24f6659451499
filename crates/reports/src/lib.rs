//! The reports of a `generate` run besides `report.json`, each made from
//! `report.json` itself (a [`serde_json::Value`], so `ferrosuite merge`
//! makes them from the shards' reports too): [`csv`] (`report.csv`, one row
//! per class) and [`sarif`] (`report.sarif`, every finding as a SARIF 2.1.0
//! result).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod csv;
pub mod sarif;

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
pub const FILES: [&str; 3] = ["report.json", "report.csv", "report.sarif"];

/// Writes `report` (a `report.json` as JSON) into `out` as `report.json`,
/// `report.csv` and `report.sarif`.
///
/// # Errors
/// The first file that cannot be written.
pub fn write_all(out: &Path, report: &Value) -> Result<(), WriteError> {
    let json = serde_json::to_vec_pretty(report).expect("JSON serialises");
    let sarif = serde_json::to_vec_pretty(&sarif::sarif_of(report)).expect("SARIF serialises");
    let contents: [Vec<u8>; 3] = [json, csv::csv_of(report).into_bytes(), sarif];
    for (name, bytes) in FILES.iter().zip(contents) {
        let path = out.join(name);
        std::fs::write(&path, bytes).map_err(|source| WriteError { path, source })?;
    }
    Ok(())
}
