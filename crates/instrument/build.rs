//! Compiles the Java-side tracer (`java/ferrosuite/runtime/Tracer.java`)
//! with `javac --release 8`, so instrumented classes of any supported
//! version can call it. The class bytes are embedded with `include_bytes!`.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let src = PathBuf::from("java/ferrosuite/runtime/Tracer.java");
    println!("cargo:rerun-if-changed={}", src.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let javac = std::env::var("JAVA_HOME")
        .map(|h| PathBuf::from(h).join("bin/javac"))
        .ok()
        .filter(|p| p.exists())
        .unwrap_or_else(|| PathBuf::from("javac"));
    let status =
        Command::new(&javac).args(["--release", "8", "-g:none", "-d"]).arg(&out).arg(&src).status().unwrap_or_else(
            |e| panic!("cannot run {} to compile the tracer: {e}; install openjdk-17-jdk-headless", javac.display()),
        );
    assert!(status.success(), "javac failed on {}", src.display());
}
