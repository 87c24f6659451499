//! Process exit codes of the `ferrosuite` binary (mirrored in README.md).

/// The closed set of exit codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum ExitCode {
    /// Everything asked for was done.
    Success = 0,
    /// An unexpected internal error.
    Internal = 1,
    /// Bad command-line usage (clap's own code).
    Usage = 2,
    /// Bad input: class not found, corrupt jar or class file, unsupported
    /// class-file version, missing class-path entry.
    Input = 3,
    /// The command ran, but some classes failed; what succeeded was written.
    Partial = 4,
    /// Interrupted (SIGINT or SIGTERM): what was done was written, the rest
    /// was not started (128 + SIGINT, as shells report it).
    Interrupted = 130,
}

impl From<ExitCode> for std::process::ExitCode {
    fn from(c: ExitCode) -> Self {
        std::process::ExitCode::from(c as u8)
    }
}
