//! Compiles the Java runtime of instrumented classes
//! (`java/ferrosuite/runtime/*.java`: the tracer and the sandbox) with
//! `javac --release 8`, so instrumented classes of any supported version can
//! call it, and generates `runtime_classes.rs`, the list of class files to
//! embed with `include_bytes!`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let src_dir = PathBuf::from("java/ferrosuite/runtime");
    println!("cargo:rerun-if-changed={}", src_dir.display());
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&src_dir)
        .expect("java/ferrosuite/runtime")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    sources.sort();
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let classes = out.join("classes");
    let _ = std::fs::remove_dir_all(&classes);
    let javac = std::env::var("JAVA_HOME")
        .map(|h| PathBuf::from(h).join("bin/javac"))
        .ok()
        .filter(|p| p.exists())
        .unwrap_or_else(|| PathBuf::from("javac"));
    let status = Command::new(&javac)
        .args(["--release", "8", "-nowarn", "-g:none", "-Xlint:-options", "-d"])
        .arg(&classes)
        .args(&sources)
        .status()
        .unwrap_or_else(|e| {
            panic!("cannot run {} to compile the runtime: {e}; install openjdk-17-jdk-headless", javac.display())
        });
    assert!(status.success(), "javac failed on the runtime sources");
    let mut list = String::from("&[\n");
    let runtime = classes.join("ferrosuite/runtime");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&runtime).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();
    for f in files {
        let rel = f.strip_prefix(&classes).unwrap().to_str().unwrap().to_string();
        list += &format!("    ({rel:?}, include_bytes!({:?}) as &[u8]),\n", abs(&f));
    }
    list += "]\n";
    std::fs::write(out.join("runtime_classes.rs"), list).unwrap();
}

fn abs(p: &Path) -> String {
    p.canonicalize().unwrap().to_str().unwrap().to_string()
}
