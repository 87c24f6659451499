//! Project mode's knowledge of Java builds: where a Maven or Gradle
//! project's modules keep their classes and tests ([`layout`]), their
//! dependency class path from the build tool offline ([`classpath`]), and
//! which classes changed since the last run ([`state`]). The class under
//! test is never run here: this crate reads build files and class files.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod classpath;
pub mod layout;
pub mod state;

use std::path::PathBuf;

pub use layout::{BuildTool, Module, Project, detect};

/// What can go wrong reading a project.
#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    /// The folder has no build file ferrosuite knows.
    #[error(
        "{0} has no pom.xml, settings.gradle(.kts) or build.gradle(.kts): give the folder of a Maven or Gradle project"
    )]
    NoBuild(PathBuf),
    /// A build file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A state file cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}
