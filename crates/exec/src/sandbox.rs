//! The errors ferrosuite's sandbox throws into the class under test, and
//! how an exception is recognised as a refusal of the sandbox.
//!
//! The sandbox is the Java class `ferrosuite.runtime.Sandbox` (source in
//! `crates/instrument/java`, compiled and embedded by the `instrument`
//! crate). Instrumented code calls it instead of ending the JVM and at
//! loop back-edges; it throws one of the two nested `Error`s below. An
//! execution reports them like any exception ([`crate::ExceptionInfo`]),
//! so the executor, the search and the emitter recognise them by these
//! binary names (the spelling of `Class.getName()`).

/// The prefix of a worker's working folder (a new temporary folder per
/// worker, `/tmp/ferrosuite-worker-XXXXXX`).
pub const WORKER_FOLDER_PREFIX: &str = "ferrosuite-worker-";

/// The prefix of the temporary files and folders tests make in a worker
/// (`File.createTempFile("ferrosuite", ".tmp")`: `ferrosuite1234….tmp`).
pub const TEMP_FILE_PREFIX: &str = "ferrosuite";

/// Whether string `s`, seen at run time, names a worker's folder or a
/// temporary file a test made there: such names differ from run to run
/// (a random folder, `createTempFile`'s random number), so they make no
/// seeds, or a seeded run would not be reproducible, and no literal of an
/// emitted test, where they name nothing.
pub fn names_worker_file(s: &str) -> bool {
    s.contains(WORKER_FOLDER_PREFIX)
        || s.match_indices(TEMP_FILE_PREFIX)
            .any(|(i, _)| s[i + TEMP_FILE_PREFIX.len()..].starts_with(|c: char| c.is_ascii_digit()))
}

/// Binary name of `Sandbox.TimeUp`, thrown at an instrumented loop
/// back-edge once the per-test time limit is reached (or the loop ran more
/// back-edges than the sandbox allows): the test timed out.
pub const TIME_UP: &str = "ferrosuite.runtime.Sandbox$TimeUp";

/// Binary name of `Sandbox.ExitRequested`, thrown instead of
/// `System.exit`, `Runtime.exit` and `Runtime.halt`: the test would end the
/// JVM.
pub const EXIT_REQUESTED: &str = "ferrosuite.runtime.Sandbox$ExitRequested";

/// Binary name of `Sandbox.Refused`, thrown before a call of the class
/// under test that would write a file outside the worker's folder, open a
/// TCP socket or start a process. Its message starts with the
/// [`RefusalKind`] name and `": "`.
pub const REFUSED: &str = "ferrosuite.runtime.Sandbox$Refused";

/// The sandbox errors, [`EXIT_REQUESTED`] first: a test that ends in one of
/// them would exit the JVM, loop forever, or do what the sandbox refused,
/// outside the sandbox.
pub const EXCEPTIONS: [&str; 3] = [EXIT_REQUESTED, TIME_UP, REFUSED];

/// What the sandbox refused a class under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RefusalKind {
    /// Writing, creating, deleting or renaming a file outside the worker's folder.
    FileWrite,
    /// A TCP connection or a listening socket.
    Network,
    /// Starting a process.
    Process,
}

impl RefusalKind {
    /// The name used in `Sandbox.Refused` messages and in reports.
    pub fn name(self) -> &'static str {
        match self {
            RefusalKind::FileWrite => "file-write",
            RefusalKind::Network => "network",
            RefusalKind::Process => "process",
        }
    }
}

/// The refusal an exception a statement threw stands for, if any: a
/// `Sandbox.Refused` of ferrosuite's call-site checks, or the exception
/// the JDK throws when the kernel (Landlock, seccomp) refused its system
/// call — `EACCES`/`EPERM` reported as `AccessDeniedException`,
/// `FileNotFoundException: ... (Permission denied)`, a `SocketException`
/// with "Permission denied", or an `IOException` "Cannot run program".
pub fn refusal(e: &crate::ExceptionInfo) -> Option<RefusalKind> {
    let message = e.message.as_deref().unwrap_or("");
    let denied = message.contains("Permission denied") || message.contains("Operation not permitted");
    match e.class.as_str() {
        REFUSED => [RefusalKind::FileWrite, RefusalKind::Network, RefusalKind::Process]
            .into_iter()
            .find(|k| message.starts_with(k.name())),
        "java.nio.file.AccessDeniedException" => Some(RefusalKind::FileWrite),
        "java.io.FileNotFoundException" | "java.nio.file.FileSystemException" if denied => Some(RefusalKind::FileWrite),
        "java.net.SocketException" | "java.net.BindException" | "java.net.ConnectException" if denied => {
            Some(RefusalKind::Network)
        }
        "java.io.IOException" if message.starts_with("Cannot run program") => Some(RefusalKind::Process),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use model::classfile::ClassFile;
    use model::names::BinaryName;

    #[test]
    fn names_of_worker_folders_and_temporary_files_are_told_apart() {
        let named = ["/tmp/ferrosuite-worker-fkepv6/tmp/ferrosuite177895.tmp", "ferrosuite8812.tmp", "x ferrosuite9"];
        assert!(named.iter().all(|s| super::names_worker_file(s)), "{named:?}");
        let plain = ["ferrosuite", "ferrosuite.tmp", "/tmp/other123.tmp", "ferrosuites 1", ""];
        assert!(!plain.iter().any(|s| super::names_worker_file(s)), "{plain:?}");
    }

    /// Each name is the name of a class the `instrument` crate compiled from
    /// the Java runtime sources, nested in the sandbox class.
    #[test]
    fn sandbox_error_names_are_classes_of_the_java_runtime() {
        for name in super::EXCEPTIONS {
            let internal = BinaryName::parse(name).unwrap().to_internal();
            let file = format!("{internal}.class");
            let (_, bytes) = instrument::tracer::RUNTIME_CLASSES
                .iter()
                .find(|(path, _)| *path == file)
                .unwrap_or_else(|| panic!("the runtime has no {file}"));
            assert_eq!(ClassFile::parse(bytes).unwrap().name(), internal.as_str());
            assert_eq!(internal.outer_class().unwrap().as_str(), instrument::tracer::SANDBOX_CLASS);
        }
    }
}
