//! The class path: directories and jars searched in order, with lazy,
//! cached lookup of classes by binary name (`java.util.Map$Entry`).
//!
//! Opening a class path lists the class entries of every jar (cheap: the
//! zip central directory) but reads and parses a class only when asked.

use std::collections::HashMap;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::classfile::{ClassFile, ClassFileError};

/// Errors of class-path lookup. Each names the class or file concerned.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClassPathError {
    /// No entry of the class path holds the class.
    #[error("class {name} not found on the class path{}", hint(nearest))]
    ClassNotFound { name: String, nearest: Vec<String> },
    /// A class-path entry does not exist.
    #[error("class-path entry {path} does not exist")]
    MissingEntry { path: PathBuf },
    /// A jar that cannot be read as a zip archive.
    #[error("corrupt jar {path}: {reason}; check the file is a complete jar (e.g. `unzip -t`)")]
    CorruptJar { path: PathBuf, reason: String },
    /// The class file was found but could not be decoded.
    #[error("cannot read class {name} from {origin}: {error}")]
    BadClass { name: String, origin: String, error: ClassFileError },
    /// An I/O error on a file of the class path.
    #[error("cannot read {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
}

fn hint(nearest: &[String]) -> String {
    if nearest.is_empty() { String::new() } else { format!("; nearest names found: {}", nearest.join(", ")) }
}

/// One entry of the class path.
#[derive(Debug)]
enum Entry {
    Dir(PathBuf),
    Jar(Jar),
}

/// An opened jar: its path, its zip archive and the class names it holds.
struct Jar {
    path: PathBuf,
    archive: Mutex<zip::ZipArchive<File>>,
    /// Binary names of the classes in the jar, in archive order.
    classes: Vec<String>,
}

impl std::fmt::Debug for Jar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Jar").field("path", &self.path).field("classes", &self.classes.len()).finish()
    }
}

/// A class path: ordered directories and jars, with a cache of parsed classes.
#[derive(Debug)]
pub struct ClassPath {
    entries: Vec<Entry>,
    cache: Mutex<HashMap<String, Arc<ClassFile>>>,
}

/// Where a class was found: the class-path entry and the raw bytes.
#[derive(Debug, Clone)]
pub struct ClassBytes {
    /// The jar or directory the class came from, for messages.
    pub origin: String,
    pub bytes: Vec<u8>,
}

impl ClassPath {
    /// Opens a `:`-separated class path of directories and jars.
    ///
    /// # Errors
    /// [`ClassPathError::MissingEntry`] for an entry that does not exist and
    /// [`ClassPathError::CorruptJar`] for a jar that is not a zip archive.
    pub fn parse(spec: &str) -> Result<ClassPath, ClassPathError> {
        let paths: Vec<PathBuf> = spec.split(':').filter(|s| !s.is_empty()).map(PathBuf::from).collect();
        ClassPath::new(&paths)
    }

    /// Opens a class path from a list of directories and jars.
    ///
    /// # Errors
    /// As [`ClassPath::parse`].
    pub fn new(paths: &[PathBuf]) -> Result<ClassPath, ClassPathError> {
        let entries = paths.iter().map(|p| open_entry(p)).collect::<Result<_, _>>()?;
        Ok(ClassPath { entries, cache: Mutex::new(HashMap::new()) })
    }

    /// Loads and parses a class by binary name (`a.b.C$D`), cached.
    ///
    /// # Errors
    /// [`ClassPathError::ClassNotFound`] with the nearest names on the class
    /// path, or [`ClassPathError::BadClass`] when the class file is invalid.
    pub fn load(&self, binary_name: &str) -> Result<Arc<ClassFile>, ClassPathError> {
        if let Some(c) = self.cache.lock().expect("class cache").get(binary_name) {
            return Ok(c.clone());
        }
        let found = self.find_bytes(binary_name)?;
        let class = ClassFile::parse(&found.bytes).map_err(|error| ClassPathError::BadClass {
            name: binary_name.to_string(),
            origin: found.origin.clone(),
            error,
        })?;
        let class = Arc::new(class);
        self.cache.lock().expect("class cache").insert(binary_name.to_string(), class.clone());
        Ok(class)
    }

    /// Whether a class of that binary name is on the class path (no parsing).
    pub fn contains(&self, binary_name: &str) -> bool {
        self.read_raw(binary_name).ok().flatten().is_some()
    }

    /// The raw bytes of a class by binary name.
    ///
    /// # Errors
    /// As [`ClassPath::load`], without the parse step.
    pub fn find_bytes(&self, binary_name: &str) -> Result<ClassBytes, ClassPathError> {
        match self.read_raw(binary_name)? {
            Some(found) => Ok(found),
            None => Err(ClassPathError::ClassNotFound {
                name: binary_name.to_string(),
                nearest: self.nearest_names(binary_name, 3),
            }),
        }
    }

    fn read_raw(&self, binary_name: &str) -> Result<Option<ClassBytes>, ClassPathError> {
        let rel = format!("{}.class", binary_name.replace('.', "/"));
        for entry in &self.entries {
            if let Some(found) = read_from_entry(entry, &rel)? {
                return Ok(Some(found));
            }
        }
        Ok(None)
    }

    /// Binary names of all classes on the class path (entries in order,
    /// directories walked recursively), without duplicates.
    pub fn all_class_names(&self) -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for entry in &self.entries {
            for name in entry_class_names(entry) {
                if seen.insert(name.clone()) {
                    out.push(name);
                }
            }
        }
        out
    }

    /// Binary names of the classes in one jar or directory of the class path,
    /// in archive (or sorted directory) order; `None` if `path` is not an entry.
    pub fn classes_in(&self, path: &Path) -> Option<Vec<String>> {
        self.entries.iter().find(|e| entry_path(e) == path).map(entry_class_names)
    }

    /// Up to `n` class names closest to `binary_name`: by edit distance of
    /// the simple name first, then of the full name.
    pub fn nearest_names(&self, binary_name: &str, n: usize) -> Vec<String> {
        let simple = |s: &str| s.rsplit(['.', '$']).next().unwrap_or(s).to_lowercase();
        let wanted = simple(binary_name);
        let mut scored: Vec<(usize, usize, String)> = self
            .all_class_names()
            .into_iter()
            .map(|c| (strsim::levenshtein(&simple(&c), &wanted), strsim::levenshtein(&c, binary_name), c))
            .filter(|(d, _, _)| *d <= wanted.len().max(3) / 2)
            .collect();
        scored.sort();
        scored.into_iter().take(n).map(|(_, _, c)| c).collect()
    }
}

fn entry_path(e: &Entry) -> &Path {
    match e {
        Entry::Dir(p) => p,
        Entry::Jar(j) => &j.path,
    }
}

fn open_entry(path: &Path) -> Result<Entry, ClassPathError> {
    if path.is_dir() {
        return Ok(Entry::Dir(path.to_path_buf()));
    }
    if !path.exists() {
        return Err(ClassPathError::MissingEntry { path: path.to_path_buf() });
    }
    let file = File::open(path).map_err(|source| ClassPathError::Io { path: path.to_path_buf(), source })?;
    let corrupt =
        |e: zip::result::ZipError| ClassPathError::CorruptJar { path: path.to_path_buf(), reason: e.to_string() };
    let archive = zip::ZipArchive::new(file).map_err(corrupt)?;
    let classes = archive
        .file_names()
        .filter(|n| n.ends_with(".class") && !n.starts_with("META-INF/") && !n.ends_with("module-info.class"))
        .map(|n| n.trim_end_matches(".class").replace('/', "."))
        .collect::<Vec<_>>();
    Ok(Entry::Jar(Jar { path: path.to_path_buf(), archive: Mutex::new(archive), classes }))
}

fn read_from_entry(entry: &Entry, rel: &str) -> Result<Option<ClassBytes>, ClassPathError> {
    match entry {
        Entry::Dir(dir) => {
            let file = dir.join(rel);
            if !file.is_file() {
                return Ok(None);
            }
            let bytes = std::fs::read(&file).map_err(|source| ClassPathError::Io { path: file.clone(), source })?;
            Ok(Some(ClassBytes { origin: file.display().to_string(), bytes }))
        }
        Entry::Jar(jar) => {
            let mut archive = jar.archive.lock().expect("jar lock");
            let mut f = match archive.by_name(rel) {
                Ok(f) => f,
                Err(zip::result::ZipError::FileNotFound) => return Ok(None),
                Err(e) => return Err(ClassPathError::CorruptJar { path: jar.path.clone(), reason: e.to_string() }),
            };
            let mut bytes = Vec::with_capacity(f.size() as usize);
            f.read_to_end(&mut bytes).map_err(|e| ClassPathError::CorruptJar {
                path: jar.path.clone(),
                reason: format!("entry {rel}: {e}"),
            })?;
            Ok(Some(ClassBytes { origin: jar.path.display().to_string(), bytes }))
        }
    }
}

fn entry_class_names(entry: &Entry) -> Vec<String> {
    match entry {
        Entry::Jar(j) => j.classes.clone(),
        Entry::Dir(d) => {
            let mut out = Vec::new();
            walk_dir(d, d, &mut out);
            out.sort();
            out
        }
    }
}

fn walk_dir(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk_dir(root, &p, out);
        } else if p.extension().is_some_and(|x| x == "class") {
            let rel = p.strip_prefix(root).unwrap_or(&p).with_extension("");
            let name = rel.to_string_lossy().replace(std::path::MAIN_SEPARATOR, ".");
            if name != "module-info" {
                out.push(name);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LANG3: &str = "/usr/share/java/commons-lang3.jar";

    #[test]
    fn loads_a_class_from_a_real_jar_and_caches_it() {
        if !Path::new(LANG3).exists() {
            eprintln!("skipped: {LANG3} missing");
            return;
        }
        let cp = ClassPath::parse(LANG3).unwrap();
        let a = cp.load("org.apache.commons.lang3.CharUtils").unwrap();
        assert_eq!(a.name(), "org/apache/commons/lang3/CharUtils");
        assert!(Arc::ptr_eq(&a, &cp.load("org.apache.commons.lang3.CharUtils").unwrap()));
        assert!(cp.load("org.apache.commons.lang3.Range").is_ok());
    }

    #[test]
    fn missing_class_names_the_nearest_classes() {
        if !Path::new(LANG3).exists() {
            return;
        }
        let cp = ClassPath::parse(LANG3).unwrap();
        let err = cp.load("org.apache.commons.lang3.CharUtil").unwrap_err().to_string();
        assert!(err.starts_with("class org.apache.commons.lang3.CharUtil not found on the class path; nearest names found: org.apache.commons.lang3.CharUtils"), "{err}");
    }

    #[test]
    fn truncated_jar_is_reported_as_corrupt() {
        let dir = std::env::temp_dir().join(format!("ferro-cp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let jar = dir.join("broken.jar");
        std::fs::write(&jar, b"PK\x03\x04 this is not a whole jar").unwrap();
        let err = ClassPath::new(std::slice::from_ref(&jar)).unwrap_err().to_string();
        assert!(err.starts_with(&format!("corrupt jar {}", jar.display())), "{err}");
        let missing = ClassPath::parse("/nonexistent/x.jar").unwrap_err().to_string();
        assert_eq!(missing, "class-path entry /nonexistent/x.jar does not exist");
    }
}
