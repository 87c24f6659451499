//! Where the Java sources of the classes under test are, for the HTML
//! report's source view: folders (a source root such as `src/main/java`)
//! and `-sources.jar` files, given with `--sources`.

use std::io::Read;
use std::path::{Path, PathBuf};

/// Source roots: folders and `.jar`/`.zip` archives, searched in order.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    roots: Vec<PathBuf>,
}

impl Sources {
    /// Sources under `roots` (folders, or archives by their `.jar`/`.zip` ending).
    pub fn new(roots: Vec<PathBuf>) -> Sources {
        Sources { roots }
    }

    /// Whether no root was given.
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }

    /// Where `rel` (`a/b/C.java`) is: the path under the first folder root
    /// that has it (as the root was given: relative roots give relative
    /// paths); `None` when no folder has it (archives have no path of their own).
    pub fn locate(&self, rel: &str) -> Option<PathBuf> {
        self.roots.iter().filter(|r| !is_archive(r)).map(|r| r.join(rel)).find(|p| p.is_file())
    }

    /// The text of `rel` (`a/b/C.java`) from the first root that has it;
    /// `None` when none has it or it is not UTF-8.
    pub fn read(&self, rel: &str) -> Option<String> {
        self.roots
            .iter()
            .find_map(|root| if is_archive(root) { from_archive(root, rel) } else { from_folder(root, rel) })
    }
}

fn is_archive(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "jar" || e == "zip")
}

fn from_folder(root: &Path, rel: &str) -> Option<String> {
    std::fs::read_to_string(root.join(rel)).ok()
}

fn from_archive(archive: &Path, rel: &str) -> Option<String> {
    let file = std::fs::File::open(archive).ok()?;
    let mut zip = zip::ZipArchive::new(file).ok()?;
    let mut entry = zip.by_name(rel).ok()?;
    let mut text = String::new();
    entry.read_to_string(&mut text).ok()?;
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_source_is_found_in_a_folder_or_a_sources_jar_in_root_order() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("src");
        std::fs::create_dir_all(folder.join("a")).unwrap();
        std::fs::write(folder.join("a/B.java"), "class B {}").unwrap();
        let jar = dir.path().join("x-sources.jar");
        let mut zip = zip::ZipWriter::new(std::fs::File::create(&jar).unwrap());
        zip.start_file("a/B.java", zip::write::SimpleFileOptions::default()).unwrap();
        zip.write_all(b"class B { /* jar */ }").unwrap();
        zip.start_file("a/C.java", zip::write::SimpleFileOptions::default()).unwrap();
        zip.write_all(b"class C {}").unwrap();
        zip.finish().unwrap();
        let sources = Sources::new(vec![folder, jar]);
        assert_eq!(sources.read("a/B.java").as_deref(), Some("class B {}"), "the folder comes first");
        assert_eq!(sources.read("a/C.java").as_deref(), Some("class C {}"));
        assert_eq!(sources.read("a/D.java"), None);
        assert_eq!(sources.locate("a/B.java"), Some(dir.path().join("src/a/B.java")));
        assert_eq!(sources.locate("a/C.java"), None, "only in the archive");
        assert!(Sources::default().is_empty());
    }
}
