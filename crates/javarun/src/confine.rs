//! Confining the JVMs that run tests: `java` is started through a launcher
//! (the `ferrosuite` binary's hidden `confined` mode), which applies the
//! kernel sandbox to itself and then becomes `java`, so the tests can write
//! only in the JVM's scratch folder (and JaCoCo's data file), start no
//! program but the JDK's own, and open no TCP connection.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Jdk;

/// Folders of the system's libraries, from which the dynamic loader that
/// `java` needs is started.
const SYSTEM_LIBRARIES: [&str; 4] = ["/lib", "/lib64", "/usr/lib", "/usr/lib64"];

/// The launcher that confines the test JVMs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confiner {
    /// The program with the hidden `confined` mode (the `ferrosuite` binary).
    pub launcher: PathBuf,
}

impl Confiner {
    /// The command that runs the JDK's `java` confined: writes only beneath
    /// `writable`, programs only from the JDK and the system's libraries.
    pub(crate) fn java(&self, jdk: &Jdk, writable: &[&Path]) -> Command {
        let mut command = Command::new(&self.launcher);
        command.arg("confined");
        for dir in writable {
            command.arg("--write").arg(dir);
        }
        command.arg("--exec").arg(&jdk.home);
        for dir in SYSTEM_LIBRARIES.iter().map(Path::new).filter(|d| d.exists()) {
            command.arg("--exec").arg(dir);
        }
        command.arg("--").arg(jdk.tool("java"));
        command
    }
}

/// The command that starts `java`: confined when a [`Confiner`] is given.
pub(crate) fn java_command(jdk: &Jdk, confiner: Option<&Confiner>, writable: &[&Path]) -> Command {
    match confiner {
        Some(c) => c.java(jdk, writable),
        None => Command::new(jdk.tool("java")),
    }
}
