//! The JUnit 4 and JUnit 5 jar sets: what tests compile against and what
//! runs them, from Debian's packages or a user-given class path.

use std::path::{Path, PathBuf};

use crate::command::join_paths;
use crate::error::{Error, Result};

/// Where Debian installs library jars.
pub const DEBIAN_JAVA_DIR: &str = "/usr/share/java";

/// A jar's file name and the Debian package that installs it.
type Jars = &'static [(&'static str, &'static str)];

/// The class path of JUnit 4 or JUnit 5: what the tests compile against and
/// what runs them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JunitJars {
    /// 4 or 5.
    pub version: u8,
    /// Jars for compiling tests (JUnit 4 with hamcrest; the Jupiter API).
    pub compile: Vec<PathBuf>,
    /// Jars for running tests: `compile` plus, for JUnit 5, the Jupiter
    /// engine and the Platform launcher.
    pub run: Vec<PathBuf>,
}

impl JunitJars {
    /// The Debian jars in `/usr/share/java` (packages `junit4` and
    /// `libhamcrest-java`; `junit5`, `libopentest4j-java`, `libapiguardian-java`).
    ///
    /// # Errors
    /// A version other than 4 or 5 ([`Error::UnsupportedJunitVersion`]); a
    /// missing jar ([`Error::MissingJunitJar`], named, with its package).
    pub fn debian(version: u8) -> Result<JunitJars> {
        JunitJars::debian_in(Path::new(DEBIAN_JAVA_DIR), version)
    }

    /// Like [`JunitJars::debian`], with the jars looked up in `dir`.
    ///
    /// # Errors
    /// As [`JunitJars::debian`].
    pub fn debian_in(dir: &Path, version: u8) -> Result<JunitJars> {
        let (compile, engine): (Jars, Jars) = match version {
            4 => (&[("junit4.jar", "junit4"), ("hamcrest-core.jar", "libhamcrest-java")], &[]),
            5 => (
                &[
                    ("junit-jupiter-api.jar", "junit5"),
                    ("junit-platform-commons.jar", "junit5"),
                    ("opentest4j.jar", "libopentest4j-java"),
                    ("apiguardian-api.jar", "libapiguardian-java"),
                ],
                &[
                    ("junit-jupiter-engine.jar", "junit5"),
                    ("junit-platform-engine.jar", "junit5"),
                    ("junit-platform-launcher.jar", "junit5"),
                ],
            ),
            version => return Err(Error::UnsupportedJunitVersion { version }),
        };
        let compile = find_jars(dir, version, compile)?;
        let mut run = compile.clone();
        run.extend(find_jars(dir, version, engine)?);
        Ok(JunitJars { version, compile, run })
    }

    /// A user-given class path (`--junit-classpath`), used both to compile
    /// and to run the tests. For JUnit 5 it must hold the Jupiter engine and
    /// the Platform launcher (`junit-platform-console-standalone.jar` does).
    ///
    /// # Errors
    /// A version other than 4 or 5, an empty class path, or an entry that does not exist.
    pub fn from_class_path(version: u8, class_path: &str) -> Result<JunitJars> {
        if version != 4 && version != 5 {
            return Err(Error::UnsupportedJunitVersion { version });
        }
        let entries: Vec<PathBuf> = class_path.split(':').filter(|e| !e.is_empty()).map(PathBuf::from).collect();
        if entries.is_empty() {
            return Err(Error::EmptyJunitClassPath);
        }
        if let Some(missing) = entries.iter().find(|e| !e.exists()) {
            return Err(Error::MissingJunitClassPathEntry { entry: missing.clone() });
        }
        Ok(JunitJars { version, compile: entries.clone(), run: entries })
    }

    /// These jars plus Mockito's (Debian's `libmockito-java`:
    /// `mockito-core`, `byte-buddy`, `byte-buddy-agent`, `objenesis`), for
    /// compiling and running tests that mock, when all are in `dir`;
    /// `None` when one is missing.
    pub fn with_mockito_in(&self, dir: &Path) -> Option<JunitJars> {
        let jars: Vec<PathBuf> = MOCKITO_JARS.iter().map(|jar| dir.join(jar)).collect();
        if !jars.iter().all(|jar| jar.is_file()) {
            return None;
        }
        let mut out = self.clone();
        out.compile.extend(jars.iter().filter(|j| !self.compile.contains(j)).cloned());
        out.run.extend(jars.iter().filter(|j| !self.run.contains(j)).cloned());
        Some(out)
    }

    /// [`JunitJars::with_mockito_in`] Debian's `/usr/share/java`.
    pub fn with_mockito(&self) -> Option<JunitJars> {
        self.with_mockito_in(Path::new(DEBIAN_JAVA_DIR))
    }

    /// The jars for running tests that are Mockito's ([`MOCKITO_JARS`], by
    /// file name), `:`-separated: what a worker needs on its class path to
    /// make Mockito mocks. Empty when there are none.
    pub fn mockito_class_path(&self) -> String {
        let is_mockito = |jar: &&PathBuf| jar.file_name().is_some_and(|n| MOCKITO_JARS.iter().any(|m| n == *m));
        let jars: Vec<PathBuf> = self.run.iter().filter(is_mockito).cloned().collect();
        join_paths(&jars)
    }

    /// The class path for compiling tests, `:`-separated.
    pub fn compile_class_path(&self) -> String {
        join_paths(&self.compile)
    }
}

/// The jars of Mockito 2 and of what it needs at run time, as Debian's
/// `libmockito-java` installs them.
pub const MOCKITO_JARS: [&str; 4] = ["mockito-core.jar", "byte-buddy.jar", "byte-buddy-agent.jar", "objenesis.jar"];

/// The paths of `jars` in `dir`; the first missing one is an error naming its package.
fn find_jars(dir: &Path, version: u8, jars: Jars) -> Result<Vec<PathBuf>> {
    jars.iter()
        .map(|&(jar, package)| {
            let path = dir.join(jar);
            if !path.is_file() {
                return Err(Error::MissingJunitJar { version, jar: path, package });
            }
            Ok(path)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_junit_jar_is_named_with_its_debian_package() {
        let empty = tempfile::tempdir().unwrap();
        let err = JunitJars::debian_in(empty.path(), 4).unwrap_err();
        let Error::MissingJunitJar { version, jar, package } = &err else { panic!("{err:?}") };
        assert_eq!((*version, jar.as_path(), *package), (4, empty.path().join("junit4.jar").as_path(), "junit4"));
        assert_eq!(
            err.to_string(),
            format!(
                "JUnit 4 needs {}, which is missing: install it with `apt-get install junit4`, \
                 or give JUnit's jars with --junit-classpath",
                jar.display()
            )
        );
    }

    #[test]
    fn mockito_is_added_only_when_all_its_jars_are_there() {
        let dir = tempfile::tempdir().unwrap();
        let junit = JunitJars { version: 4, compile: vec![PathBuf::from("j.jar")], run: vec![PathBuf::from("j.jar")] };
        for jar in &MOCKITO_JARS[..3] {
            std::fs::write(dir.path().join(jar), "").unwrap();
        }
        assert_eq!(junit.with_mockito_in(dir.path()), None, "objenesis is missing");
        std::fs::write(dir.path().join("objenesis.jar"), "").unwrap();
        assert_eq!(junit.mockito_class_path(), "");
        let with = junit.with_mockito_in(dir.path()).unwrap();
        assert_eq!(with.compile.len(), 5);
        assert_eq!(with.run[1], dir.path().join("mockito-core.jar"));
        let mockito: Vec<String> = MOCKITO_JARS.iter().map(|j| dir.path().join(j).display().to_string()).collect();
        assert_eq!(with.mockito_class_path(), mockito.join(":"), "the worker's Mockito jars, not JUnit's");
    }

    #[test]
    fn a_missing_junit5_engine_jar_names_junit5() {
        let dir = tempfile::tempdir().unwrap();
        for jar in ["junit-jupiter-api.jar", "junit-platform-commons.jar", "opentest4j.jar", "apiguardian-api.jar"] {
            std::fs::write(dir.path().join(jar), "").unwrap();
        }
        let err = JunitJars::debian_in(dir.path(), 5).unwrap_err();
        assert!(
            matches!(&err, Error::MissingJunitJar { version: 5, jar, package: "junit5" }
                if jar.ends_with("junit-jupiter-engine.jar")),
            "{err:?}"
        );
    }

    #[test]
    fn only_junit_4_and_5_are_supported() {
        let err = JunitJars::debian(3).unwrap_err();
        assert!(matches!(err, Error::UnsupportedJunitVersion { version: 3 }), "{err:?}");
        assert_eq!(err.to_string(), "unsupported JUnit version 3: expected 4 or 5");
        let err = JunitJars::from_class_path(6, "x.jar").unwrap_err();
        assert!(matches!(err, Error::UnsupportedJunitVersion { version: 6 }), "{err:?}");
        assert!(matches!(JunitJars::from_class_path(4, "::"), Err(Error::EmptyJunitClassPath)));
    }
}
