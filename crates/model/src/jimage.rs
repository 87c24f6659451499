//! Reader of a JDK's run-time image, `$JAVA_HOME/lib/modules` (the
//! "jimage" format of JEP 220), for JDKs that ship without `jmods`
//! (JEP 493: JDK 24 and later builds such as Temurin 25).
//!
//! The format has no written specification; this follows OpenJDK's reader
//! (`jdk.internal.jimage.BasicImageReader`, `ImageHeader`, `ImageLocation`):
//!
//! - a header of seven 32-bit words in the platform's byte order: magic
//!   `0xCAFEDADA`, version (`major << 16 | minor`, 1.0), flags, resource
//!   count, table length, locations size and strings size (bytes);
//! - a redirect table and an offsets table (table length 32-bit words
//!   each), the locations (attribute streams) and the strings (NUL-ended);
//! - then the resources, each at `index size + OFFSET`.
//!
//! A location is a stream of attributes, each a byte `kind << 3 | (len - 1)`
//! followed by `len` big-endian bytes of value, ended by kind 0. Kinds 1-4
//! are string offsets of the module, parent (package folder), base name and
//! extension; 5 is the resource's offset, 6 its compressed size (0 when
//! stored) and 7 its size. The redirect table serves hashed lookup; this
//! reader instead decodes every location once (about 30,000 for a JDK 25,
//! a few milliseconds) into a map by name.

use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// The jimage magic number (`ImageHeader.MAGIC`).
const MAGIC: u32 = 0xCAFE_DADA;
/// The header's size in bytes: seven 32-bit words.
const HEADER_SIZE: u64 = 28;
/// The one major version of the format this reader knows.
const MAJOR_VERSION: u32 = 1;

/// Why a run-time image cannot be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JImageError {
    /// The file cannot be opened or read.
    #[error("cannot read the JDK run-time image {path}: {error}")]
    Io {
        /// The image file.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
    /// The file is not a jimage of a version this reader knows.
    #[error(
        "{path} is not a JDK run-time image this version of ferrosuite reads ({reason}); use a JDK 17 to 25, or one with jmods"
    )]
    Format {
        /// The image file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

/// Where one resource is in the image.
#[derive(Debug, Clone, Copy)]
struct Location {
    /// Byte offset from the start of the file.
    offset: u64,
    /// Stored size in bytes (compressed size if compressed).
    stored: u64,
    /// Whether the resource is compressed (this reader cannot decompress).
    compressed: bool,
}

/// An opened run-time image: its class files by path within their module
/// (`java/lang/String.class`), read on demand.
pub struct JImage {
    path: PathBuf,
    file: File,
    classes: HashMap<String, Location>,
    /// Binary names of the classes, sorted by module then path.
    names: Vec<String>,
    /// Where each module's `module-info.class` is.
    module_infos: Vec<Location>,
}

impl std::fmt::Debug for JImage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JImage").field("path", &self.path).field("classes", &self.names.len()).finish()
    }
}

/// The image's index, read into memory: the parts the locations are decoded from.
struct Index {
    /// Offsets table: one offset into `locations` per resource.
    offsets: Vec<u32>,
    locations: Vec<u8>,
    strings: Vec<u8>,
    /// Where the resources start: the size of header and index.
    resources_start: u64,
}

impl JImage {
    /// Opens the image at `path` and decodes its index.
    ///
    /// # Errors
    /// [`JImageError::Io`] when the file cannot be read and
    /// [`JImageError::Format`] when it is not a jimage 1.x.
    pub fn open(path: &Path) -> Result<JImage, JImageError> {
        let io = |error| JImageError::Io { path: path.to_path_buf(), error };
        let file = File::open(path).map_err(io)?;
        let index = read_index(&file).map_err(|e| match e {
            IndexError::Io(error) => io(error),
            IndexError::Format(reason) => JImageError::Format { path: path.to_path_buf(), reason },
        })?;
        let mut entries: Vec<(String, String, Location)> = Vec::new();
        let mut module_infos = Vec::new();
        for &at in &index.offsets {
            let attrs = decode_attributes(&index.locations, at as usize);
            match class_entry(&index, &attrs) {
                Some((_, rel, location)) if rel == "module-info.class" => module_infos.push(location),
                Some(entry) => entries.push(entry),
                None => {}
            }
        }
        entries.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        let names = entries.iter().map(|(_, rel, _)| crate::names::BinaryName::from_class_file_path(rel).to_string());
        let names = names.collect();
        let classes = entries.into_iter().map(|(_, rel, loc)| (rel, loc)).collect();
        Ok(JImage { path: path.to_path_buf(), file, classes, names, module_infos })
    }

    /// The bytes of every module's `module-info.class`.
    ///
    /// # Errors
    /// As [`JImage::read`].
    pub fn module_infos(&self) -> Result<Vec<Vec<u8>>, JImageError> {
        self.module_infos.iter().map(|loc| self.read_at(loc, "module-info.class")).collect()
    }

    /// The image file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Binary names of the image's classes (no `module-info`), sorted by module and then by name.
    pub fn class_names(&self) -> &[String] {
        &self.names
    }

    /// The bytes of the class file at `rel` (`java/lang/String.class`),
    /// `None` when the image has no such class.
    ///
    /// # Errors
    /// [`JImageError::Io`] on a read error and [`JImageError::Format`] for
    /// a compressed resource (a JDK linked with `jlink --compress`).
    pub fn read(&self, rel: &str) -> Result<Option<Vec<u8>>, JImageError> {
        let Some(loc) = self.classes.get(rel) else {
            return Ok(None);
        };
        self.read_at(loc, rel).map(Some)
    }

    fn read_at(&self, loc: &Location, rel: &str) -> Result<Vec<u8>, JImageError> {
        if loc.compressed {
            let reason = format!("{rel} is compressed (an image made by `jlink --compress`)");
            return Err(JImageError::Format { path: self.path.clone(), reason });
        }
        let mut bytes = vec![0; loc.stored as usize];
        self.file
            .read_exact_at(&mut bytes, loc.offset)
            .map_err(|error| JImageError::Io { path: self.path.clone(), error })?;
        Ok(bytes)
    }
}

enum IndexError {
    Io(std::io::Error),
    Format(String),
}

fn read_index(file: &File) -> Result<Index, IndexError> {
    let mut header = [0u8; HEADER_SIZE as usize];
    file.read_exact_at(&mut header, 0).map_err(IndexError::Io)?;
    let le = |i: usize| u32::from_le_bytes(header[i * 4..i * 4 + 4].try_into().expect("4 bytes"));
    let little_endian = match (le(0), le(0).swap_bytes()) {
        (MAGIC, _) => true,
        (_, MAGIC) => false,
        (m, _) => return Err(IndexError::Format(format!("magic number {m:#010x}, expected 0xcafedada"))),
    };
    let word = |i: usize| if little_endian { le(i) } else { le(i).swap_bytes() };
    let version = word(1);
    if version >> 16 != MAJOR_VERSION {
        return Err(IndexError::Format(format!("format version {}.{}", version >> 16, version & 0xffff)));
    }
    let (table, locations_size, strings_size) = (u64::from(word(4)), u64::from(word(5)), u64::from(word(6)));
    let read = |at: u64, len: u64| -> Result<Vec<u8>, IndexError> {
        let mut bytes = vec![0; len as usize];
        file.read_exact_at(&mut bytes, at).map_err(IndexError::Io)?;
        Ok(bytes)
    };
    let offsets_at = HEADER_SIZE + table * 4;
    let locations_at = offsets_at + table * 4;
    let strings_at = locations_at + locations_size;
    let offsets = read(offsets_at, table * 4)?
        .chunks_exact(4)
        .map(|c| {
            let w = u32::from_le_bytes(c.try_into().expect("4 bytes"));
            if little_endian { w } else { w.swap_bytes() }
        })
        .collect();
    Ok(Index {
        offsets,
        locations: read(locations_at, locations_size)?,
        strings: read(strings_at, strings_size)?,
        resources_start: strings_at + strings_size,
    })
}

/// Attribute kinds of a location (`ImageLocation.ATTRIBUTE_*`).
const MODULE: usize = 1;
const PARENT: usize = 2;
const BASE: usize = 3;
const EXTENSION: usize = 4;
const OFFSET: usize = 5;
const COMPRESSED: usize = 6;
const UNCOMPRESSED: usize = 7;

/// The attribute values of the location at `at` in `locations`, by kind
/// (0 for an absent attribute); a stream that runs off the end stops there.
fn decode_attributes(locations: &[u8], at: usize) -> [u64; 8] {
    let mut values = [0u64; 8];
    let mut i = at;
    while let Some(&byte) = locations.get(i) {
        let kind = usize::from(byte >> 3);
        if kind == 0 || kind >= values.len() {
            break;
        }
        let len = usize::from(byte & 7) + 1;
        let Some(bytes) = locations.get(i + 1..i + 1 + len) else { break };
        values[kind] = bytes.iter().fold(0u64, |v, &b| (v << 8) | u64::from(b));
        i += 1 + len;
    }
    values
}

/// The NUL-ended string at `offset` of the strings table.
fn string_at(strings: &[u8], offset: u64) -> &str {
    let rest = strings.get(offset as usize..).unwrap_or_default();
    let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
    std::str::from_utf8(&rest[..end]).unwrap_or_default()
}

/// `(module, class file path, location)` of a location that is a class
/// file (`module-info.class` for a module's descriptor); `None` for other resources.
fn class_entry(index: &Index, attrs: &[u64; 8]) -> Option<(String, String, Location)> {
    let text = |kind: usize| string_at(&index.strings, attrs[kind]);
    let (module, parent, base) = (text(MODULE), text(PARENT), text(BASE));
    if text(EXTENSION) != "class" || module.is_empty() {
        return None;
    }
    let rel = if parent.is_empty() { format!("{base}.class") } else { format!("{parent}/{base}.class") };
    let compressed = attrs[COMPRESSED] != 0;
    let stored = if compressed { attrs[COMPRESSED] } else { attrs[UNCOMPRESSED] };
    let location = Location { offset: index.resources_start + attrs[OFFSET], stored, compressed };
    Some((module.to_string(), rel, location))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JDK 17's `lib/modules` holds the classes of its jmods, byte for
    /// byte (checked on a sample), and the few that jlink generates.
    #[test]
    fn the_image_of_jdk17_holds_the_classes_of_its_jmods() {
        let home = Path::new(crate::jdk::DEBIAN_JDK17);
        let image = JImage::open(&home.join("lib/modules")).unwrap();
        let jmods = crate::classpath::ClassPath::new(&[]).unwrap().with_jdk(home).unwrap();
        let from_jmods = jmods.all_class_names();
        let mut a: Vec<&str> = image.class_names().iter().map(String::as_str).collect();
        let mut b: Vec<&str> = from_jmods.iter().map(String::as_str).collect();
        a.sort_unstable();
        b.sort_unstable();
        let extra: Vec<&&str> = a.iter().filter(|n| b.binary_search(n).is_err()).collect();
        let missing: Vec<&&str> = b.iter().filter(|n| a.binary_search(n).is_err()).collect();
        assert!(missing.is_empty(), "{missing:?}");
        // jlink adds classes it generates at link time (method-handle species, the module graph).
        let generated = |n: &str| {
            n.starts_with("java.lang.invoke.BoundMethodHandle$Species_")
                || n.starts_with("jdk.internal.module.SystemModules$")
        };
        assert!(!extra.is_empty() && extra.iter().all(|n| generated(n)), "{extra:?}");
        for name in ["java.lang.String", "java.util.HashMap$TreeNode", "java.sql.ResultSet", "javax.swing.JButton"] {
            let rel = crate::names::BinaryName::new(name).class_file_path();
            assert_eq!(image.read(&rel).unwrap().unwrap(), jmods.find_bytes(name).unwrap().bytes, "{name}");
        }
        assert!(image.read("java/lang/NoSuchClass.class").unwrap().is_none());
    }

    #[test]
    fn a_file_that_is_not_an_image_is_a_clear_error() {
        let err = JImage::open(Path::new("/usr/share/java/commons-lang3.jar")).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("is not a JDK run-time image") && text.contains("magic number"), "{text}");
    }
}
