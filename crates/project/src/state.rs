//! `--changed-only`: what a module's classes looked like at the last run,
//! kept in `<build folder>/ferrosuite-state.json` as a SHA-256 of each
//! class's bytes (its class file and its nested classes' files), so a run
//! can skip the classes whose bytes did not change.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::ProjectError;

/// The state file's name in a module's build folder.
pub const FILE_NAME: &str = "ferrosuite-state.json";

/// Hashes of classes, by binary name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct State {
    hashes: BTreeMap<String, String>,
}

impl State {
    /// The state kept in `build_dir`; empty when there is none or it cannot be parsed.
    pub fn load(build_dir: &Path) -> State {
        let text = std::fs::read_to_string(build_dir.join(FILE_NAME)).unwrap_or_default();
        let hashes = serde_json::from_str(&text).unwrap_or_default();
        State { hashes }
    }

    /// Writes the state into `build_dir` (created if missing).
    ///
    /// # Errors
    /// [`ProjectError::Write`] when it cannot be written.
    pub fn save(&self, build_dir: &Path) -> Result<(), ProjectError> {
        let path = build_dir.join(FILE_NAME);
        let write = |path: &PathBuf| -> std::io::Result<()> {
            std::fs::create_dir_all(build_dir)?;
            std::fs::write(path, serde_json::to_vec_pretty(&self.hashes).expect("a map serialises"))
        };
        write(&path).map_err(|source| ProjectError::Write { path, source })
    }

    /// Whether `class` had `hash` at the last run.
    pub fn unchanged(&self, class: &str, hash: &str) -> bool {
        self.hashes.get(class).is_some_and(|h| h == hash)
    }

    /// Records `class` with `hash`.
    pub fn record(&mut self, class: &str, hash: String) {
        self.hashes.insert(class.to_string(), hash);
    }
}

/// The hash of top-level class `class` in the class folder `classes`: its
/// class file and those of its nested classes (`Outer$*.class` of the same
/// folder), in name order. `None` when its class file cannot be read.
pub fn class_hash(classes: &Path, class: &str) -> Option<String> {
    let rel = class.replace('.', "/");
    let file = classes.join(format!("{rel}.class"));
    let dir = file.parent()?;
    let simple = file.file_stem()?.to_string_lossy().to_string();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with(&format!("{simple}$"))))
        .collect();
    files.sort();
    let mut hasher = Sha256::new();
    hasher.update(std::fs::read(&file).ok()?);
    for f in files {
        hasher.update(f.file_name()?.to_string_lossy().as_bytes());
        hasher.update(std::fs::read(&f).ok()?);
    }
    Some(format!("{:x}", hasher.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_is_unchanged_until_its_bytes_or_a_nested_class_change() {
        let dir = tempfile::tempdir().unwrap();
        let classes = dir.path().join("classes");
        std::fs::create_dir_all(classes.join("p")).unwrap();
        std::fs::write(classes.join("p/A.class"), b"one").unwrap();
        std::fs::write(classes.join("p/AB.class"), b"another class").unwrap();
        let first = class_hash(&classes, "p.A").unwrap();
        std::fs::write(classes.join("p/AB.class"), b"changed, but not nested in A").unwrap();
        assert_eq!(class_hash(&classes, "p.A").unwrap(), first);
        std::fs::write(classes.join("p/A$1.class"), b"nested").unwrap();
        let nested = class_hash(&classes, "p.A").unwrap();
        assert_ne!(nested, first);
        assert_eq!(class_hash(&classes, "p.Missing"), None);

        let build = dir.path().join("target");
        let mut state = State::load(&build);
        assert!(!state.unchanged("p.A", &nested));
        state.record("p.A", nested.clone());
        state.save(&build).unwrap();
        let again = State::load(&build);
        assert!(again.unchanged("p.A", &nested) && !again.unchanged("p.A", &first));
    }
}
