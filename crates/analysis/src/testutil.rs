//! Test support: compiling small Java sources with `javac`.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use model::classfile::ClassFile;

/// Compiles `(file name, source)` pairs with `javac -g` (plus `extra` flags)
/// and returns the class files by internal name.
pub(crate) fn compile_with(sources: &[(&str, &str)], extra: &[&str]) -> BTreeMap<String, ClassFile> {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = dir.path().join("src");
    let out = dir.path().join("out");
    std::fs::create_dir_all(&src).expect("src dir");
    let mut files = Vec::new();
    for (name, text) in sources {
        let path = src.join(name);
        std::fs::write(&path, text).expect("write source");
        files.push(path);
    }
    let status =
        Command::new("javac").arg("-g").args(extra).arg("-d").arg(&out).args(&files).status().expect("javac runs");
    assert!(status.success(), "javac failed");
    let mut classes = BTreeMap::new();
    collect(&out, &mut classes);
    classes
}

/// [`compile_with`] without extra flags.
pub(crate) fn compile(sources: &[(&str, &str)]) -> BTreeMap<String, ClassFile> {
    compile_with(sources, &[])
}

fn collect(dir: &Path, classes: &mut BTreeMap<String, ClassFile>) {
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            collect(&path, classes);
        } else if path.extension().is_some_and(|e| e == "class") {
            let cf = ClassFile::parse(&std::fs::read(&path).expect("read class")).expect("parse class");
            classes.insert(cf.name().to_string(), cf);
        }
    }
}
