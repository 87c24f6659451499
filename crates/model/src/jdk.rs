//! Finding the JDK: the one place that decides which Java installation
//! ferrosuite uses, for its class path (the JDK's `jmods`), its worker JVMs
//! (`libjvm.so`) and the tools it runs (`javac`, `java`).
//!
//! A home counts as a JDK only if it has all of these; a JRE or a `jlink`
//! image does not (they lack `javac`). The JDK's own classes come from its
//! `jmods` or, for JDKs that ship without them (JDK 24+ builds, JEP 493),
//! from its run-time image `lib/modules`.
//!
//! The choice, first that applies: `--java-home` ([`choose`]), which must be
//! a complete JDK; `$JAVA_HOME` when it is one; Debian's JDK 17.

use std::path::{Path, PathBuf};

/// Debian's default JDK 17 location, used when `$JAVA_HOME` is unset or unusable.
pub const DEBIAN_JDK17: &str = "/usr/lib/jvm/java-17-openjdk-amd64";

/// A JDK installation that has everything ferrosuite needs (see [`Jdk::find`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Jdk {
    /// The JDK's home directory (what `$JAVA_HOME` names).
    pub home: PathBuf,
}

/// No usable JDK was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JdkError {
    /// The JDK named by `--java-home` is not a complete JDK.
    #[error("--java-home {}: not a JDK, it has no {lack}; name the folder of a JDK 17 to 25 (e.g. /usr/lib/jvm/java-17-openjdk-amd64)", home.display())]
    NotAJdk {
        /// The folder given.
        home: PathBuf,
        /// The first part it lacks.
        lack: &'static str,
    },
    /// Neither `$JAVA_HOME` nor Debian's JDK 17 is a complete JDK.
    #[error(
        "no JDK found: set JAVA_HOME to a JDK 17 or install it with `apt-get install openjdk-17-jdk-headless`{}",
        checked_text(.checked)
    )]
    NotFound {
        /// Each home looked at, with the first part it lacks.
        checked: Vec<(PathBuf, &'static str)>,
    },
}

fn checked_text(checked: &[(PathBuf, &'static str)]) -> String {
    let parts: Vec<String> = checked.iter().map(|(home, lack)| format!("{} has no {lack}", home.display())).collect();
    if parts.is_empty() { String::new() } else { format!(" ({})", parts.join("; ")) }
}

impl Jdk {
    /// The JDK chosen by `--java-home` ([`choose`]), else `$JAVA_HOME`
    /// when it is a complete JDK, else Debian's JDK 17 when that is one.
    ///
    /// # Errors
    /// [`JdkError::NotAJdk`] when `--java-home` names no complete JDK, and
    /// [`JdkError::NotFound`], which says how to install or point to a JDK
    /// and what each candidate lacks.
    pub fn find() -> Result<Jdk, JdkError> {
        if let Some(home) = CHOSEN.get() {
            return match missing_part(home) {
                None => Ok(Jdk { home: home.clone() }),
                Some(lack) => Err(JdkError::NotAJdk { home: home.clone(), lack }),
            };
        }
        let from_env = std::env::var_os("JAVA_HOME").filter(|v| !v.is_empty()).map(PathBuf::from);
        let mut checked = Vec::new();
        for home in from_env.into_iter().chain([PathBuf::from(DEBIAN_JDK17)]) {
            match missing_part(&home) {
                None => return Ok(Jdk { home }),
                Some(lack) => checked.push((home, lack)),
            }
        }
        Err(JdkError::NotFound { checked })
    }

    /// Path of a JDK tool (`java`, `javac`, `javap`).
    pub fn tool(&self, name: &str) -> PathBuf {
        self.home.join("bin").join(name)
    }

    /// Path of the JVM library the worker processes load.
    pub fn libjvm(&self) -> PathBuf {
        libjvm(&self.home)
    }
}

/// The JDK `--java-home` names, set once at start-up ([`choose`]).
static CHOSEN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Makes `home` the JDK that [`Jdk::find`] returns for the rest of the
/// process (the `--java-home` option); a second call is ignored.
pub fn choose(home: &Path) {
    let _ = CHOSEN.set(home.to_path_buf());
}

/// Where Debian and the JDK vendors' packages install JDKs.
pub const JVM_DIR: &str = "/usr/lib/jvm";

impl Jdk {
    /// The feature version of this JDK from its `release` file
    /// (`JAVA_VERSION="25.0.3"` → 25), if it has one.
    pub fn feature_version(&self) -> Option<u32> {
        let release = std::fs::read_to_string(self.home.join("release")).ok()?;
        let line = release.lines().find_map(|l| l.strip_prefix("JAVA_VERSION=\""))?;
        line.split(['.', '"']).next()?.parse().ok()
    }

    /// Another JDK with `javac` and `java` in [`JVM_DIR`], of a feature
    /// version other than this one's (the newest such), to run tests on a
    /// second JDK; `None` when there is none.
    pub fn second(&self) -> Option<Jdk> {
        let own = self.feature_version();
        let candidates = std::fs::read_dir(JVM_DIR).ok()?.flatten().map(|e| Jdk { home: e.path() });
        let usable = |jdk: &Jdk| jdk.tool("java").is_file() && jdk.tool("javac").is_file();
        let others = candidates.filter(|jdk| usable(jdk) && jdk.feature_version().is_some_and(|v| Some(v) != own));
        let mut others: Vec<Jdk> = others.collect();
        others.sort_by_key(|jdk| (jdk.feature_version(), jdk.home.clone()));
        others.pop()
    }
}

/// The path of `libjvm.so` in a Java home.
pub fn libjvm(java_home: &Path) -> PathBuf {
    java_home.join("lib/server/libjvm.so")
}

/// The first part of a complete JDK that `home` lacks, if any.
fn missing_part(home: &Path) -> Option<&'static str> {
    if !home.join("bin/javac").is_file() {
        Some("bin/javac")
    } else if !home.join("bin/java").is_file() {
        Some("bin/java")
    } else if !has_jmods(home) && !home.join("lib/modules").is_file() {
        Some("jmods/java.base.jmod or lib/modules")
    } else if !libjvm(home).is_file() {
        Some("lib/server/libjvm.so")
    } else {
        None
    }
}

/// `$JAVA_HOME` or Debian's JDK 17, whichever [`Jdk::find`] picks.
pub fn find_java_home() -> Option<PathBuf> {
    Jdk::find().ok().map(|jdk| jdk.home)
}

/// Whether `java_home` has the jmods that [`crate::classpath::ClassPath::with_jdk`] needs.
pub fn has_jmods(java_home: &Path) -> bool {
    java_home.join("jmods").join("java.base.jmod").is_file()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_found_jdk_has_java_base_javac_and_a_jvm_library() {
        // The environment decides whether there is one; when there is, it must be usable.
        if let Ok(jdk) = Jdk::find() {
            assert!(has_jmods(&jdk.home) || jdk.home.join("lib/modules").is_file(), "{}", jdk.home.display());
            assert!(jdk.tool("javac").is_file());
            assert!(jdk.libjvm().is_file());
        }
    }

    #[test]
    fn a_second_jdk_has_another_feature_version() {
        let Ok(jdk) = Jdk::find() else { return };
        assert!(jdk.feature_version().is_some_and(|v| v >= 17), "{jdk:?}");
        if let Some(second) = jdk.second() {
            assert_ne!(second.feature_version(), jdk.feature_version());
            assert!(second.tool("java").is_file());
        }
    }

    #[test]
    fn a_directory_without_jmods_is_not_a_jdk() {
        assert!(!has_jmods(Path::new("/nonexistent/jdk")));
        assert!(!has_jmods(&std::env::temp_dir()));
        assert_eq!(missing_part(Path::new("/nonexistent/jdk")), Some("bin/javac"));
    }

    #[test]
    fn the_not_found_message_says_what_each_home_lacks() {
        let err = JdkError::NotFound { checked: vec![(PathBuf::from("/opt/jre"), "bin/javac")] };
        let text = err.to_string();
        assert!(text.starts_with("no JDK found: set JAVA_HOME"), "{text}");
        assert!(text.ends_with("(/opt/jre has no bin/javac)"), "{text}");
    }
}
