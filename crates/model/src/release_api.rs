//! The JDK API of an older Java release, as `javac --release N` sees it.
//!
//! Emitted tests are compiled with `--release` of the class under test's
//! class-file version (a library built for Java 8 gets tests that compile
//! on Java 8), so a test must not call a JDK member added later
//! (`OutputStream.nullOutputStream()` is Java 11). The JDK ships the API of
//! each older release it can target in `lib/ct.sym`: a zip whose entries are
//! `RELEASES/MODULE/pkg/Name.sig`, where `RELEASES` lists the releases the
//! entry belongs to, one character each (`7`..`9`, then `A` = 10, `B` = 11,
//! ...), and each `.sig` is a class file without code. This is the table
//! javac itself reads for `--release` (JEP 247).

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::classfile::ClassFile;
use crate::classpath::ClassPathError;

/// The JDK API of one release, from a JDK's `lib/ct.sym`.
pub struct ReleaseApi {
    release: u32,
    path: PathBuf,
    archive: Mutex<zip::ZipArchive<File>>,
    /// Internal name → the `.sig` entry of this release.
    in_release: HashMap<String, String>,
    /// Internal names of every class of any release in the file.
    any_release: HashSet<String>,
    /// Internal name → `name + descriptor` of its members in this release (parsed on demand).
    members: Mutex<HashMap<String, Arc<HashSet<String>>>>,
}

impl std::fmt::Debug for ReleaseApi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReleaseApi").field("release", &self.release).field("path", &self.path).finish()
    }
}

impl ReleaseApi {
    /// The API of `release` from the JDK at `java_home`; `None` when the JDK
    /// has no `lib/ct.sym` or does not list that release (its own feature
    /// version is not listed: its API is its modules).
    ///
    /// # Errors
    /// [`ClassPathError::Io`] or [`ClassPathError::CorruptJar`] when the file exists but cannot be read.
    pub fn open(java_home: &Path, release: u32) -> Result<Option<ReleaseApi>, ClassPathError> {
        let path = java_home.join("lib").join("ct.sym");
        let Some(code) = release_char(release) else { return Ok(None) };
        if !path.is_file() {
            return Ok(None);
        }
        let file = File::open(&path).map_err(|error| ClassPathError::Io { path: path.clone(), error })?;
        let archive = zip::ZipArchive::new(file)
            .map_err(|e| ClassPathError::CorruptJar { path: path.clone(), reason: e.to_string() })?;
        let mut in_release = HashMap::new();
        let mut any_release = HashSet::new();
        for entry in archive.file_names().filter(|n| n.ends_with(".sig")) {
            let mut parts = entry.splitn(3, '/');
            let (Some(releases), Some(_module), Some(rest)) = (parts.next(), parts.next(), parts.next()) else {
                continue;
            };
            let class = rest.trim_end_matches(".sig").to_string();
            if releases.contains(code) {
                in_release.insert(class.clone(), entry.to_string());
            }
            any_release.insert(class);
        }
        if in_release.is_empty() {
            return Ok(None);
        }
        Ok(Some(ReleaseApi {
            release,
            path,
            archive: Mutex::new(archive),
            in_release,
            any_release,
            members: Mutex::new(HashMap::new()),
        }))
    }

    /// The release (`8`, `11`, ...).
    pub fn release(&self) -> u32 {
        self.release
    }

    /// Whether the class (internal name `java/util/List`) may be used: it is
    /// in the release, or it is no JDK API class at all (an application or
    /// library class).
    pub fn has_class(&self, internal_name: &str) -> bool {
        self.in_release.contains_key(internal_name) || !self.any_release.contains(internal_name)
    }

    /// Whether member `name` with `descriptor` (a method or field
    /// descriptor) of class `internal_name` may be used: the class is no JDK
    /// API class, or its release signature declares the member. A signature
    /// that cannot be read allows everything (javac will say).
    pub fn has_member(&self, internal_name: &str, name: &str, descriptor: &str) -> bool {
        if !self.any_release.contains(internal_name) {
            return true;
        }
        match self.members_of(internal_name) {
            Some(members) => members.contains(&format!("{name}{descriptor}")),
            None => false,
        }
    }

    /// The members of a class of this release, `None` when it is not in the release.
    fn members_of(&self, internal_name: &str) -> Option<Arc<HashSet<String>>> {
        if let Some(known) = self.members.lock().expect("release members").get(internal_name) {
            return Some(known.clone());
        }
        let entry = self.in_release.get(internal_name)?;
        let members = Arc::new(self.read_members(entry).unwrap_or_default());
        self.members.lock().expect("release members").insert(internal_name.to_string(), members.clone());
        Some(members)
    }

    fn read_members(&self, entry: &str) -> Option<HashSet<String>> {
        let mut bytes = Vec::new();
        self.archive.lock().expect("ct.sym").by_name(entry).ok()?.read_to_end(&mut bytes).ok()?;
        let class = ClassFile::parse(&bytes).ok()?;
        let members = class.methods.iter().chain(&class.fields);
        Some(members.map(|m| format!("{}{}", class.member_name(m), class.member_descriptor(m))).collect())
    }
}

/// The character `ct.sym` uses for a release: `7`..`9`, then `A` = 10, up to `Z` = 35.
fn release_char(release: u32) -> Option<char> {
    match release {
        7..=9 => char::from_digit(release, 10),
        10..=35 => char::from_u32('A' as u32 + release - 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const JDK17: &str = "/usr/lib/jvm/java-17-openjdk-amd64";

    #[test]
    fn release_characters_follow_ct_sym() {
        assert_eq!(release_char(8), Some('8'));
        assert_eq!(release_char(10), Some('A'));
        assert_eq!(release_char(17), Some('H'));
        assert_eq!(release_char(6), None);
    }

    #[test]
    fn java_8_has_no_java_11_members_and_no_java_9_classes() {
        if !Path::new(JDK17).join("lib/ct.sym").is_file() {
            eprintln!("skipped: no JDK 17 ct.sym");
            return;
        }
        let api8 = ReleaseApi::open(Path::new(JDK17), 8).unwrap().expect("release 8 listed");
        assert!(api8.has_member("java/io/OutputStream", "write", "([B)V"));
        assert!(!api8.has_member("java/io/OutputStream", "nullOutputStream", "()Ljava/io/OutputStream;"));
        assert!(api8.has_member("java/lang/String", "isEmpty", "()Z"));
        assert!(!api8.has_member("java/lang/String", "isBlank", "()Z"));
        assert!(!api8.has_class("java/lang/StackWalker"));
        assert!(api8.has_class("java/util/ArrayList"));
        assert!(api8.has_class("org/apache/commons/lang3/StringUtils"), "not a JDK class: allowed");
        let api11 = ReleaseApi::open(Path::new(JDK17), 11).unwrap().unwrap();
        assert!(api11.has_member("java/io/OutputStream", "nullOutputStream", "()Ljava/io/OutputStream;"));
        assert!(api11.has_class("java/lang/StackWalker"));
        assert!(ReleaseApi::open(Path::new(JDK17), 17).unwrap().is_none(), "the JDK's own release is its modules");
    }
}
