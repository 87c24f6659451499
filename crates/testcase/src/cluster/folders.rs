//! Whether the class under test works with folders
//! ([`super::TestCluster::uses_folders`]): only then are some of its `File`
//! and `Path` values new folders (`operators::files`), since to a class
//! that reads files a folder is an input that fails at its first read.
//!
//! It does when its code calls one of the JDK's folder methods ([`FOLDER_METHODS`]:
//! listing, walking, making or testing for folders) or when it is a
//! `java.nio.file.FileVisitor` (commons-io's `DeletingPathVisitor` gets
//! its folders through `preVisitDirectory`).

use std::collections::HashSet;

use model::classfile::ClassFile;
use model::constant_pool::Constant;

/// The JDK's methods that list, walk, make or test for folders: (owner's
/// internal name, method names).
const FOLDER_METHODS: [(&str, &[&str]); 2] = [
    ("java/io/File", &["isDirectory", "list", "listFiles", "mkdir", "mkdirs"]),
    (
        "java/nio/file/Files",
        &[
            "isDirectory",
            "newDirectoryStream",
            "walk",
            "walkFileTree",
            "list",
            "find",
            "createDirectory",
            "createDirectories",
        ],
    ),
];

/// The interface of the classes that visit folders.
const FILE_VISITOR: &str = "java.nio.file.FileVisitor";

/// Whether `class` (the CUT, with `supertypes`: its binary name, its
/// superclasses and interfaces) works with folders (module doc).
pub(super) fn uses_folders(class: &ClassFile, supertypes: Option<&HashSet<String>>) -> bool {
    if supertypes.is_some_and(|s| s.contains(FILE_VISITOR)) {
        return true;
    }
    let pool = &class.constant_pool;
    pool.iter()
        .filter(|(_, c)| matches!(c, Constant::MethodRef { .. }))
        .filter_map(|(i, _)| pool.member_ref(i).ok())
        .any(|m| FOLDER_METHODS.iter().any(|(owner, names)| *owner == m.owner && names.contains(&m.name)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The binary name of `name`, its superclasses and interfaces.
    fn supertypes(cp: &model::classpath::ClassPath, name: &str) -> HashSet<String> {
        let s = model::hierarchy::Supertypes::of(cp, name).unwrap();
        let names = s.superclasses.iter().chain(&s.interfaces).map(|n| n.as_str().to_string());
        names.chain([name.to_string()]).collect()
    }

    /// A file visitor and a class that lists folders work with folders; a
    /// reader of files does not.
    #[test]
    fn visitors_and_classes_that_list_folders_work_with_folders() {
        let Some(cp) = crate::testutil::class_path() else { return };
        let works = |name: &str| uses_folders(&cp.load(name).unwrap(), Some(&supertypes(cp, name)));
        assert!(works("java.nio.file.SimpleFileVisitor"));
        assert!(works("java.io.File"), "listFiles calls list");
        assert!(!works("java.io.FileReader"));
        assert!(!works("java.lang.Integer"));
    }
}
