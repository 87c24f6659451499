//! Finding the JDK whose classes complete the class path.
//!
//! The JDK's classes come from its `jmods/*.jmod` files (see
//! [`crate::classpath::ClassPath::with_jdk`]), so a JDK home counts only if
//! it has `jmods/java.base.jmod`; a JRE or a `jlink` image does not.

use std::path::{Path, PathBuf};

/// Debian's default JDK 17 location, used when `$JAVA_HOME` is unset or unusable.
pub const DEBIAN_JDK17: &str = "/usr/lib/jvm/java-17-openjdk-amd64";

/// `$JAVA_HOME` when it has `jmods/java.base.jmod`, else Debian's JDK 17
/// when that has it, else `None`.
pub fn find_java_home() -> Option<PathBuf> {
    let from_env = std::env::var_os("JAVA_HOME").filter(|v| !v.is_empty()).map(PathBuf::from);
    from_env.into_iter().chain([PathBuf::from(DEBIAN_JDK17)]).find(|home| has_jmods(home))
}

/// Whether `java_home` has the jmods that [`crate::classpath::ClassPath::with_jdk`] needs.
pub fn has_jmods(java_home: &Path) -> bool {
    java_home.join("jmods").join("java.base.jmod").is_file()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_found_java_home_has_java_base() {
        // The environment decides whether there is one; when there is, it must be usable.
        if let Some(home) = find_java_home() {
            assert!(has_jmods(&home), "{}", home.display());
        }
    }

    #[test]
    fn a_directory_without_jmods_is_not_a_jdk() {
        assert!(!has_jmods(Path::new("/nonexistent/jdk")));
        assert!(!has_jmods(&std::env::temp_dir()));
    }
}
