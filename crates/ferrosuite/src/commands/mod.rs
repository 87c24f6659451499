//! One module per subcommand, plus the mapping of errors to exit codes:
//! [`init`] (`ferrosuite.toml`), [`generate`] (the main job; over a Maven or
//! Gradle project: [`project_mode`]), [`goals`], [`explain`] (`explain-ocg`),
//! [`instrument`], [`merge`] (the output of several shards), [`kat`] (with `kat check` in [`kat_check`]), [`palus`]
//! (`palus model`), [`zoomin`] (ranking a suite's assertions), and
//! `bench` ([`bench`]: `instrument`, `verify`, `exec` ([`bench_exec`]),
//! `coverage` ([`bench_coverage`]), `flaky` ([`bench_flaky`]), `branches` ([`jacoco`]), `triage`
//! ([`bench_triage`]), `mutation` ([`bench_mutation`]), `draw` ([`corpus`]), `kat`, `ablation` ([`bench_ablation`], with
//! [`stats`])).

pub mod bench;
pub mod bench_ablation;
pub mod bench_coverage;
pub mod bench_exec;
pub mod bench_flaky;
pub mod bench_mutation;
pub mod bench_triage;
pub mod corpus;
pub mod explain;
pub mod generate;
pub mod goals;
pub mod init;
pub mod instrument;
pub mod jacoco;
pub mod kat;
pub mod kat_check;
pub mod merge;
pub mod palus;
pub mod project_mode;
pub mod stats;
pub mod zoomin;

use model::bytecode::BytecodeError;
use model::classfile::ClassFileError;
use model::classpath::ClassPathError;

use crate::exit_code::ExitCode;

/// Bad input that the library crates do not report themselves (an output
/// directory holding an earlier run, a `--jar` that is not on the class
/// path); gives [`ExitCode::Input`].
#[derive(Debug)]
pub struct InputError(pub String);

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

/// Input errors give [`ExitCode::Input`]: anything the class path reports,
/// class files and bytecode that do not decode, classes the analysis
/// rejects, and [`InputError`]s. Everything else is internal.
pub fn exit_code_for(e: &anyhow::Error) -> ExitCode {
    let is_input = |c: &(dyn std::error::Error + 'static)| {
        c.is::<ClassPathError>()
            || c.is::<ClassFileError>()
            || c.is::<BytecodeError>()
            || c.is::<analysis::AnalysisError>()
            || c.is::<InputError>()
            || c.downcast_ref::<::generate::GenerateError>().is_some_and(::generate::GenerateError::is_input)
    };
    if e.chain().any(is_input) { ExitCode::Input } else { ExitCode::Internal }
}

/// Opens the class path given with `--classpath` (`:`-separated; empty
/// parts are ignored).
///
/// # Errors
/// [`ClassPathError`] when an entry does not exist, a jar is corrupt or
/// cannot be read.
pub fn open_classpath(spec: &str) -> anyhow::Result<model::classpath::ClassPath> {
    Ok(model::classpath::ClassPath::parse(spec)?)
}

/// Joins class-path parts with `:`, leaving out empty parts (and the empty
/// elements of parts that are themselves `:`-separated lists): to `java`,
/// an empty element means the current directory.
pub fn join_classpath<S: AsRef<str>>(parts: &[S]) -> String {
    parts.iter().flat_map(|p| p.as_ref().split(':')).filter(|p| !p.is_empty()).collect::<Vec<_>>().join(":")
}

/// The class `name` of `cp`, or an input error that names the nearest
/// class names (`did you mean ...?`).
///
/// # Errors
/// [`InputError`] when `cp` does not hold the class.
pub fn require_class(cp: &model::classpath::ClassPath, name: &str) -> Result<model::names::BinaryName, InputError> {
    let class = model::names::BinaryName::new(name.to_string());
    if cp.contains(class.as_str()) {
        return Ok(class);
    }
    let near: Vec<String> = cp.nearest_names(class.as_str(), 3).iter().map(ToString::to_string).collect();
    let hint = if near.is_empty() { String::new() } else { format!(" (did you mean {}?)", near.join(", ")) };
    Err(InputError(format!("class {class} is not on the class path{hint}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_paths_are_joined_without_empty_elements() {
        assert_eq!(join_classpath(&["/a", "", "/b.jar"]), "/a:/b.jar");
        assert_eq!(join_classpath(&["/a", "x::y:"]), "/a:x:y");
        assert_eq!(join_classpath(&["", ""]), "");
    }

    #[test]
    fn bad_classes_are_input_errors() {
        let malformed = ClassFileError::Malformed("bad".into());
        assert_eq!(exit_code_for(&anyhow::Error::new(malformed.clone()).context("reading")), ExitCode::Input);
        let bytecode = BytecodeError::InvalidOpcode { bci: 0, opcode: 0xff };
        assert_eq!(exit_code_for(&anyhow::Error::new(bytecode)), ExitCode::Input);
        let analysis = analysis::AnalysisError::new(analysis::Location::class("p/A"), malformed);
        assert_eq!(exit_code_for(&anyhow::Error::new(analysis).context("cannot analyse p.A")), ExitCode::Input);
        assert_eq!(exit_code_for(&anyhow::anyhow!("cannot write")), ExitCode::Internal);
    }
}
