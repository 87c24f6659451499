//! One module per subcommand, plus the mapping of errors to exit codes.

pub mod bench;
pub mod bench_exec;
pub mod goals;
pub mod instrument;
pub mod jacoco;

use model::classpath::ClassPathError;

use crate::exit_code::ExitCode;

/// Input errors (anything the class path reports) give [`ExitCode::Input`].
pub fn exit_code_for(e: &anyhow::Error) -> ExitCode {
    if e.chain().any(|c| c.downcast_ref::<ClassPathError>().is_some()) { ExitCode::Input } else { ExitCode::Internal }
}

/// Opens the class path given with `--classpath`.
pub fn open_classpath(spec: &str) -> anyhow::Result<model::classpath::ClassPath> {
    Ok(model::classpath::ClassPath::parse(spec)?)
}
