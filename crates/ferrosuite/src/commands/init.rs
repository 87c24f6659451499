//! `ferrosuite init`: writes the commented default `ferrosuite.toml`
//! ([`crate::config::default_file`]) into a project folder.

use std::path::PathBuf;

use anyhow::{Context, bail};

use crate::config::{FILE_NAME, default_file};
use crate::exit_code::ExitCode;

/// Arguments of `ferrosuite init`.
#[derive(Debug, clap::Args)]
pub struct InitArgs {
    /// The project folder to write `ferrosuite.toml` into.
    #[arg(long, default_value = ".")]
    pub dir: PathBuf,
    /// Replace an existing `ferrosuite.toml`.
    #[arg(long)]
    pub force: bool,
}

/// Writes the file; prints where.
///
/// # Errors
/// The folder does not exist, the file exists (without `--force`), or it cannot be written.
pub fn run(args: &InitArgs) -> anyhow::Result<ExitCode> {
    if !args.dir.is_dir() {
        bail!("{} is not a folder: give the project folder with --dir", args.dir.display());
    }
    let path = args.dir.join(FILE_NAME);
    if path.exists() && !args.force {
        bail!("{} exists: edit it, or add --force to replace it with the default", path.display());
    }
    std::fs::write(&path, default_file()).with_context(|| format!("cannot write {}", path.display()))?;
    println!("wrote {} (every option of `ferrosuite generate`, commented out)", path.display());
    Ok(ExitCode::Success)
}
