//! The class path: directories, jars and jmods searched in order, with lazy,
//! cached lookup of classes by binary name (`java.util.Map$Entry`).
//!
//! Opening a class path lists the class entries of every jar (cheap: the
//! zip central directory) but reads and parses a class only when asked.
//!
//! A `.jmod` file (the JDK's modules, `$JAVA_HOME/jmods/java.base.jmod`) is a
//! zip archive after a 4-byte `JM\x01\x00` header, with its classes under
//! `classes/`; it works like a jar whose names start after that prefix.
//! [`ClassPath::with_jdk`] appends the jmods of a JDK, so that the JDK's
//! classes (`java.lang.String`, `java.util.ArrayList`) resolve like any other;
//! a JDK without jmods (JDK 24+ builds, JEP 493) gives its run-time image
//! `lib/modules` instead ([`crate::jimage`]).

use std::collections::HashMap;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::classfile::{ClassFile, ClassFileError};
use crate::names::BinaryName;
use crate::release_api::ReleaseApi;

/// Errors of class-path lookup. Each names the class or file concerned.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClassPathError {
    /// No entry of the class path holds the class.
    #[error("class {name} not found on the class path{}", hint(nearest))]
    ClassNotFound {
        /// The class looked for.
        name: BinaryName,
        /// Up to three class names of the class path closest to `name` ([`ClassPath::nearest_names`]).
        nearest: Vec<BinaryName>,
    },
    /// A class-path entry does not exist.
    #[error("class-path entry {path} does not exist")]
    MissingEntry {
        /// The entry as given.
        path: PathBuf,
    },
    /// A JDK home with neither `jmods/java.base.jmod` nor `lib/modules`.
    #[error(
        "{java_home} has neither jmods/java.base.jmod nor lib/modules; set JAVA_HOME to a full JDK (not a JRE), e.g. /usr/lib/jvm/java-17-openjdk-amd64"
    )]
    MissingJmods {
        /// The JDK home given.
        java_home: PathBuf,
    },
    /// A jar (or jmod) that cannot be read as a zip archive.
    #[error("corrupt jar {path}: {reason}; check the file is a complete jar (e.g. `unzip -t`)")]
    CorruptJar {
        /// The jar or jmod.
        path: PathBuf,
        /// The zip reader's error message.
        reason: String,
    },
    /// The JDK's run-time image cannot be read.
    #[error(transparent)]
    Image(#[from] crate::jimage::JImageError),
    /// The class file was found but could not be decoded.
    #[error("cannot read class {name} from {origin}: {error}")]
    BadClass {
        /// The class looked for.
        name: BinaryName,
        /// The jar, jmod or class file it was read from ([`ClassBytes::origin`]).
        origin: String,
        /// Why the bytes are not a class file.
        error: ClassFileError,
    },
    /// An I/O error on a file of the class path. The message includes
    /// `error`, which is therefore not a `source` (it would print twice).
    #[error("cannot read {path}: {error}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
}

fn hint(nearest: &[BinaryName]) -> String {
    if nearest.is_empty() {
        String::new()
    } else {
        let names: Vec<&str> = nearest.iter().map(BinaryName::as_str).collect();
        format!("; nearest names found: {}", names.join(", "))
    }
}

/// One entry of the class path.
#[derive(Debug)]
enum Entry {
    Dir(PathBuf),
    Jar(Jar),
    /// A JDK's run-time image (`lib/modules`).
    Image(crate::jimage::JImage),
}

/// An opened jar or jmod: its path, its zip archive and the class names it holds.
struct Jar {
    path: PathBuf,
    archive: Mutex<zip::ZipArchive<File>>,
    /// The folder of the archive that holds the class files: `""` for a jar,
    /// `"classes/"` for a jmod.
    prefix: &'static str,
    /// Binary names of the classes in the jar, in archive order.
    classes: Vec<String>,
}

impl std::fmt::Debug for Jar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Jar")
            .field("path", &self.path)
            .field("prefix", &self.prefix)
            .field("classes", &self.classes.len())
            .finish()
    }
}

/// A class path: ordered directories and jars, with a cache of parsed classes.
#[derive(Debug)]
pub struct ClassPath {
    entries: Vec<Entry>,
    cache: Mutex<HashMap<String, Arc<ClassFile>>>,
    /// The JDK API of the release the tests are compiled for, when older than the JDK ([`ClassPath::with_release`]).
    release: Option<Arc<ReleaseApi>>,
    /// The JDK's packages (internal form), each with whether its module
    /// exports it to everyone ([`ClassPath::is_exported`]).
    jdk_packages: HashMap<String, bool>,
    /// The index in `entries` of the JDK's first entry (its jmods or its
    /// run-time image), once [`ClassPath::with_jdk`] added them.
    jdk_start: Option<usize>,
}

/// Where a class was found: the class-path entry and the raw bytes.
#[derive(Debug, Clone)]
pub struct ClassBytes {
    /// The jar or directory the class came from, for messages.
    pub origin: String,
    /// The class file's bytes, as stored.
    pub bytes: Vec<u8>,
}

impl ClassPath {
    /// Opens a `:`-separated class path of directories, jars and jmods.
    ///
    /// # Errors
    /// [`ClassPathError::MissingEntry`] for an entry that does not exist and
    /// [`ClassPathError::CorruptJar`] for a jar that is not a zip archive.
    pub fn parse(spec: &str) -> Result<ClassPath, ClassPathError> {
        let paths: Vec<PathBuf> = spec.split(':').filter(|s| !s.is_empty()).map(PathBuf::from).collect();
        ClassPath::new(&paths)
    }

    /// Opens a class path from a list of directories, jars and jmods.
    ///
    /// # Errors
    /// As [`ClassPath::parse`].
    pub fn new(paths: &[PathBuf]) -> Result<ClassPath, ClassPathError> {
        let entries = paths.iter().map(|p| open_entry(p)).collect::<Result<_, _>>()?;
        Ok(ClassPath {
            entries,
            cache: Mutex::new(HashMap::new()),
            release: None,
            jdk_packages: HashMap::new(),
            jdk_start: None,
        })
    }

    /// This class path followed by every jmod of the JDK at `java_home`
    /// (`java.base` first, then the others by file name), or by its
    /// run-time image `lib/modules` when it has no jmods, so that JDK
    /// classes resolve after the application's.
    ///
    /// Only the zip central directories are read (about 27,000 class names
    /// for a full JDK 17, a few milliseconds). [`ClassPath::all_class_names`]
    /// includes the JDK's classes afterwards, so a scan over all of them
    /// ([`crate::hierarchy::SubclassIndex::build`]) parses the whole JDK.
    ///
    /// # Errors
    /// [`ClassPathError::MissingJmods`] when `java_home` has neither
    /// `jmods/java.base.jmod` nor `lib/modules`, the errors of
    /// [`ClassPath::new`] for a jmod and [`ClassPathError::Image`] for an
    /// image that cannot be read.
    pub fn with_jdk(mut self, java_home: &Path) -> Result<ClassPath, ClassPathError> {
        let jmods = java_home.join("jmods");
        let base = jmods.join("java.base.jmod");
        self.jdk_start = Some(self.entries.len());
        if !base.is_file() {
            let image = java_home.join("lib/modules");
            if !image.is_file() {
                return Err(ClassPathError::MissingJmods { java_home: java_home.to_path_buf() });
            }
            let image = crate::jimage::JImage::open(&image)?;
            let infos = image.module_infos()?;
            self.note_jdk_packages(image.class_names(), &infos);
            self.entries.push(Entry::Image(image));
            return Ok(self);
        }
        let read_dir = std::fs::read_dir(&jmods).map_err(|error| ClassPathError::Io { path: jmods.clone(), error })?;
        let mut others: Vec<PathBuf> = read_dir
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "jmod") && *p != base)
            .collect();
        others.sort();
        let (mut names, mut infos) = (Vec::new(), Vec::new());
        for path in std::iter::once(base).chain(others) {
            let entry = open_entry(&path)?;
            if let Entry::Jar(jar) = &entry {
                names.extend(jar.classes.iter().cloned());
                infos.extend(read_from_jar(jar, "classes/module-info.class")?.map(|b| b.bytes));
            }
            self.entries.push(entry);
        }
        self.note_jdk_packages(&names, &infos);
        Ok(self)
    }

    /// Records the packages of the JDK classes `names` and which of them
    /// the module descriptors `module_infos` export to everyone.
    fn note_jdk_packages(&mut self, names: &[String], module_infos: &[Vec<u8>]) {
        for name in names {
            self.jdk_packages.entry(package_of(name)).or_insert(false);
        }
        for info in module_infos.iter().filter_map(|b| ClassFile::parse(b).ok()) {
            for package in crate::module_info::unqualified_exports(&info) {
                self.jdk_packages.insert(package, true);
            }
        }
    }

    /// Whether a test in the unnamed module can name class `binary_name`
    /// as far as modules go: a class outside the JDK, or one of a package
    /// its JDK module exports to everyone ([`crate::module_info`]).
    pub fn is_exported(&self, binary_name: &str) -> bool {
        self.jdk_packages.get(&package_of(binary_name)).is_none_or(|exported| *exported)
    }

    /// This class path, noting that tests are compiled with `--release
    /// release` by the JDK at `java_home`: [`ClassPath::release_api`] then
    /// says which JDK classes and members that release has (nothing changes
    /// when the release is the JDK's own or the JDK has no `lib/ct.sym`).
    ///
    /// # Errors
    /// As [`ReleaseApi::open`].
    pub fn with_release(mut self, java_home: &Path, release: u32) -> Result<ClassPath, ClassPathError> {
        self.release = ReleaseApi::open(java_home, release)?.map(Arc::new);
        Ok(self)
    }

    /// The JDK API of the release tests are compiled for, if older than the JDK's ([`ClassPath::with_release`]).
    pub fn release_api(&self) -> Option<&ReleaseApi> {
        self.release.as_deref()
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
            name: BinaryName::new(binary_name),
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
                name: BinaryName::new(binary_name),
                nearest: self.nearest_names(binary_name, 3),
            }),
        }
    }

    /// Whether the package of `binary_name` is sealed in the jar that
    /// holds the class (its manifest says `Sealed: true` for the jar or for
    /// that package, JAR File Specification, "Package Sealing"): then every
    /// class of the package must come from that jar, and a test class of
    /// the same package in another folder makes the JVM throw
    /// `SecurityException: sealing violation`. `false` for a class in a
    /// directory, not on the class path, or in a jar whose manifest cannot be read.
    pub fn is_sealed(&self, binary_name: &str) -> bool {
        let rel = BinaryName::new(binary_name).class_file_path();
        let package = rel.rsplit_once('/').map_or("", |(p, _)| p);
        for entry in &self.entries {
            match entry {
                Entry::Dir(d) if d.join(&rel).is_file() => return false,
                Entry::Jar(jar) if jar.classes.iter().any(|c| c == binary_name) => {
                    let Ok(Some(manifest)) = read_from_jar(jar, "META-INF/MANIFEST.MF") else { return false };
                    return sealed_in_manifest(&String::from_utf8_lossy(&manifest.bytes), package);
                }
                Entry::Image(image) if image.read(&rel).is_ok_and(|b| b.is_some()) => return false,
                _ => {}
            }
        }
        false
    }

    fn read_raw(&self, binary_name: &str) -> Result<Option<ClassBytes>, ClassPathError> {
        let rel = BinaryName::new(binary_name).class_file_path();
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
        class_names_of(&self.entries)
    }

    /// Binary names of the application's classes: [`ClassPath::all_class_names`]
    /// of the entries before the JDK's ([`ClassPath::with_jdk`]), whether
    /// the JDK comes as jmods or as a run-time image (JDK 24+ builds without
    /// jmods, such as Temurin's); all names without a JDK.
    pub fn application_class_names(&self) -> Vec<String> {
        class_names_of(&self.entries[..self.jdk_start.unwrap_or(self.entries.len())])
    }

    /// Binary names of the classes nested in `outer` at any depth (nested,
    /// inner, local and anonymous: names that start with `outer$`), in
    /// [`ClassPath::all_class_names`] order.
    pub fn nested_class_names(&self, outer: &BinaryName) -> Vec<BinaryName> {
        let prefix = format!("{outer}$");
        self.all_class_names().into_iter().filter(|n| n.starts_with(&prefix)).map(BinaryName::new).collect()
    }

    /// Binary names of the classes in one jar or directory of the class path,
    /// in archive (or sorted directory) order; `None` if `path` is not an entry.
    pub fn classes_in(&self, path: &Path) -> Option<Vec<String>> {
        self.entries.iter().find(|e| entry_path(e) == path).map(entry_class_names)
    }

    /// Up to `n` class names closest to `binary_name`: by edit distance of
    /// the simple name first, then of the full name.
    pub fn nearest_names(&self, binary_name: &str, n: usize) -> Vec<BinaryName> {
        let simple = |s: &str| s.rsplit(['.', '$']).next().unwrap_or(s).to_lowercase();
        let wanted = simple(binary_name);
        let mut scored: Vec<(usize, usize, String)> = self
            .all_class_names()
            .into_iter()
            .map(|c| (strsim::levenshtein(&simple(&c), &wanted), strsim::levenshtein(&c, binary_name), c))
            .filter(|(d, _, _)| *d <= wanted.len().max(3) / 2)
            .collect();
        scored.sort();
        scored.into_iter().take(n).map(|(_, _, c)| BinaryName::new(c)).collect()
    }
}

/// Binary names of the classes of `entries`, in order, without duplicates.
fn class_names_of(entries: &[Entry]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    entries.iter().flat_map(entry_class_names).filter(|n| seen.insert(n.clone())).collect()
}

/// The package of a binary name, in internal form (`java.util.Map$Entry` → `java/util`).
fn package_of(binary_name: &str) -> String {
    crate::names::internal_package(BinaryName::new(binary_name).package())
}

fn entry_path(e: &Entry) -> &Path {
    match e {
        Entry::Dir(p) => p,
        Entry::Jar(j) => &j.path,
        Entry::Image(image) => image.path(),
    }
}

fn open_entry(path: &Path) -> Result<Entry, ClassPathError> {
    if path.is_dir() {
        return Ok(Entry::Dir(path.to_path_buf()));
    }
    if !path.exists() {
        return Err(ClassPathError::MissingEntry { path: path.to_path_buf() });
    }
    let file = File::open(path).map_err(|error| ClassPathError::Io { path: path.to_path_buf(), error })?;
    let corrupt =
        |e: zip::result::ZipError| ClassPathError::CorruptJar { path: path.to_path_buf(), reason: e.to_string() };
    // The zip crate finds the central directory from the end of the file, so
    // the jmod header before the first local header needs no special case.
    let archive = zip::ZipArchive::new(file).map_err(corrupt)?;
    let prefix = if path.extension().is_some_and(|x| x == "jmod") { "classes/" } else { "" };
    let classes = archive
        .file_names()
        .filter_map(|n| n.strip_prefix(prefix))
        .filter(|n| n.ends_with(".class") && !n.starts_with("META-INF/") && !n.ends_with("module-info.class"))
        .map(|n| BinaryName::from_class_file_path(n).to_string())
        .collect::<Vec<_>>();
    Ok(Entry::Jar(Jar { path: path.to_path_buf(), archive: Mutex::new(archive), prefix, classes }))
}

fn read_from_entry(entry: &Entry, rel: &str) -> Result<Option<ClassBytes>, ClassPathError> {
    match entry {
        Entry::Dir(dir) => {
            let file = dir.join(rel);
            if !file.is_file() {
                return Ok(None);
            }
            let bytes = std::fs::read(&file).map_err(|error| ClassPathError::Io { path: file.clone(), error })?;
            Ok(Some(ClassBytes { origin: file.display().to_string(), bytes }))
        }
        Entry::Jar(jar) => read_from_jar(jar, &format!("{}{rel}", jar.prefix)),
        Entry::Image(image) => {
            let origin = || image.path().display().to_string();
            Ok(image.read(rel)?.map(|bytes| ClassBytes { origin: origin(), bytes }))
        }
    }
}

/// The bytes of entry `name` of a jar, `None` when it has no such entry.
fn read_from_jar(jar: &Jar, name: &str) -> Result<Option<ClassBytes>, ClassPathError> {
    let mut archive = jar.archive.lock().expect("jar lock");
    let mut f = match archive.by_name(name) {
        Ok(f) => f,
        Err(zip::result::ZipError::FileNotFound) => return Ok(None),
        Err(e) => return Err(ClassPathError::CorruptJar { path: jar.path.clone(), reason: e.to_string() }),
    };
    let mut bytes = Vec::with_capacity(f.size() as usize);
    f.read_to_end(&mut bytes)
        .map_err(|e| ClassPathError::CorruptJar { path: jar.path.clone(), reason: format!("entry {name}: {e}") })?;
    Ok(Some(ClassBytes { origin: jar.path.display().to_string(), bytes }))
}

/// Whether a manifest seals `package` (internal form, `org/tukaani/xz`):
/// the package's own section (`Name: org/tukaani/xz/`) decides if it has a
/// `Sealed` attribute, else the main section's. Continuation lines (starting
/// with a space) are joined first.
fn sealed_in_manifest(manifest: &str, package: &str) -> bool {
    let joined = manifest.replace("\r\n", "\n").replace("\n ", "");
    let mut main = false;
    let mut own: Option<bool> = None;
    let mut section: Option<String> = None;
    for line in joined.lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match key.trim() {
            "Name" => section = Some(value.trim_end_matches('/').to_string()),
            k if k.eq_ignore_ascii_case("Sealed") => {
                let sealed = value.eq_ignore_ascii_case("true");
                match &section {
                    None => main = sealed,
                    Some(name) if name == package => own = Some(sealed),
                    Some(_) => {}
                }
            }
            _ => {}
        }
    }
    own.unwrap_or(main)
}

fn entry_class_names(entry: &Entry) -> Vec<String> {
    match entry {
        Entry::Jar(j) => j.classes.clone(),
        Entry::Image(image) => image.class_names().to_vec(),
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

    /// An error that prints its inner error has no `source`, so a chain
    /// printed with `{:#}` shows the I/O error once.
    #[test]
    fn an_io_error_is_printed_once_in_an_error_chain() {
        use std::error::Error;
        let err =
            ClassPathError::Io { path: PathBuf::from("/x/A.class"), error: std::io::Error::other("disk on fire") };
        assert_eq!(err.to_string(), "cannot read /x/A.class: disk on fire");
        assert!(err.source().is_none());
    }

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
    fn sealing_is_read_from_the_main_section_or_the_package_section() {
        let main = "Manifest-Version: 1.0\r\nSealed: true\r\n\r\nName: org/a/open/\r\nSealed: false\r\n";
        assert!(sealed_in_manifest(main, "org/a"));
        assert!(!sealed_in_manifest(main, "org/a/open"));
        let own = "Manifest-Version: 1.0\nName: org/a/\nSealed: true\n";
        assert!(sealed_in_manifest(own, "org/a"));
        assert!(!sealed_in_manifest(own, "org/b"));
        assert!(!sealed_in_manifest("Manifest-Version: 1.0\n", "org/a"));
    }

    #[test]
    fn the_xz_jar_is_sealed_and_commons_lang3_is_not() {
        let xz = "/usr/share/java/xz.jar";
        if !Path::new(xz).exists() || !Path::new(LANG3).exists() {
            eprintln!(
                "skipped: xz.jar or commons-lang3.jar missing (apt-get install libxz-java libcommons-lang3-java)"
            );
            return;
        }
        let cp = ClassPath::parse(&format!("{xz}:{LANG3}")).unwrap();
        assert!(cp.is_sealed("org.tukaani.xz.lz.LZDecoder"));
        assert!(!cp.is_sealed("org.apache.commons.lang3.CharUtils"));
        assert!(!cp.is_sealed("no.such.Class"));
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

    fn jdk() -> Option<PathBuf> {
        let home = crate::jdk::find_java_home();
        if home.is_none() {
            eprintln!("skipped: no JDK with jmods");
        }
        home
    }

    #[test]
    fn with_jdk_loads_java_lang_string_from_java_base() {
        let Some(home) = jdk() else { return };
        let cp = ClassPath::new(&[]).unwrap().with_jdk(&home).unwrap();
        let string = cp.load("java.lang.String").unwrap();
        assert_eq!(string.name(), "java/lang/String");
        assert_eq!(
            cp.find_bytes("java.lang.String").unwrap().origin,
            home.join("jmods/java.base.jmod").display().to_string()
        );
        assert!(cp.contains("java.util.Map$Entry"));
        assert!(cp.contains("java.sql.Connection"), "jmods other than java.base are on the class path too");
    }

    #[test]
    fn jmod_class_names_are_listed_without_the_classes_prefix_or_module_info() {
        let Some(home) = jdk() else { return };
        let base = home.join("jmods/java.base.jmod");
        let cp = ClassPath::new(std::slice::from_ref(&base)).unwrap();
        let names = cp.classes_in(&base).unwrap();
        assert!(names.iter().any(|n| n == "java.util.ArrayList"), "{:?}", &names[..5]);
        assert!(names.iter().all(|n| !n.starts_with("classes.") && n != "module-info" && !n.starts_with("META-INF")));
        assert!(!cp.contains("classes.java.lang.String"));
    }

    #[test]
    fn with_jdk_puts_the_application_first() {
        let Some(home) = jdk() else { return };
        let dir = tempfile_dir("shadow");
        std::fs::create_dir_all(dir.join("java/lang")).unwrap();
        std::fs::write(dir.join("java/lang/String.class"), b"not a class").unwrap();
        let cp = ClassPath::new(std::slice::from_ref(&dir)).unwrap().with_jdk(&home).unwrap();
        assert_eq!(cp.find_bytes("java.lang.String").unwrap().bytes, b"not a class");
        assert_eq!(cp.all_class_names().iter().filter(|n| *n == "java.lang.String").count(), 1);
        assert_eq!(cp.application_class_names(), ["java.lang.String"]);
    }

    #[test]
    fn hierarchy_of_array_list_reaches_object_with_the_jdk() {
        let Some(home) = jdk() else { return };
        let cp = ClassPath::new(&[]).unwrap().with_jdk(&home).unwrap();
        let (supers, missing) = crate::hierarchy::superclasses(&cp, "java.util.ArrayList").unwrap();
        assert_eq!(supers, ["java.util.AbstractList", "java.util.AbstractCollection", "java.lang.Object"]);
        assert!(missing.is_empty(), "{missing:?}");
        let itfs = crate::hierarchy::all_interfaces(&cp, "java.util.ArrayList").unwrap();
        for itf in ["java.util.List", "java.util.Collection", "java.lang.Iterable", "java.util.RandomAccess"] {
            assert!(itfs.iter().any(|i| i == itf), "{itf} in {itfs:?}");
        }
    }

    #[test]
    fn with_jdk_rejects_a_home_without_jmods_or_image() {
        let err = ClassPath::new(&[]).unwrap().with_jdk(Path::new("/nonexistent/jdk")).unwrap_err().to_string();
        assert!(err.starts_with("/nonexistent/jdk has neither jmods/java.base.jmod nor lib/modules"), "{err}");
    }

    /// A JDK without jmods (Temurin 25) gives its classes from `lib/modules`:
    /// class files of version 69 that parse. Skipped without a JDK 25.
    #[test]
    fn a_jdk_without_jmods_gives_its_classes_from_its_runtime_image() {
        let home = Path::new("/usr/lib/jvm/temurin-25-jdk-amd64");
        if !home.join("lib/modules").is_file() || crate::jdk::has_jmods(home) {
            eprintln!("skipped: no JDK 25 without jmods at {}", home.display());
            return;
        }
        let cp = ClassPath::new(&[]).unwrap().with_jdk(home).unwrap();
        let string = cp.load("java.lang.String").unwrap();
        assert_eq!(string.major_version, 69);
        assert!(cp.all_class_names().len() > 20_000);
        assert!(cp.find_bytes("java.lang.String").unwrap().origin.ends_with("lib/modules"));
        // The application's classes stop where the image begins, as they stop at the jmods.
        let dir = tempfile_dir("image-app");
        std::fs::create_dir_all(dir.join("app")).unwrap();
        std::fs::write(dir.join("app/Main.class"), b"not parsed").unwrap();
        let cp = ClassPath::new(std::slice::from_ref(&dir)).unwrap().with_jdk(home).unwrap();
        assert_eq!(cp.application_class_names(), ["app.Main"]);
    }

    fn tempfile_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ferro-cp-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
