//! Robustness of the instrumenter and the tracer on unusual input: a
//! line-number row at the code length, and probes called from many threads.

use std::path::Path;
use std::process::Command;

use model::classfile::{Attribute, ClassFile, CodeAttribute};
use model::code_tables::{LineNumber, parse_line_numbers, write_line_numbers};

fn jdk_tool(tool: &str) -> std::path::PathBuf {
    let home = std::env::var_os("JAVA_HOME")
        .map(std::path::PathBuf::from)
        .filter(|h| h.join("bin/javac").exists())
        .unwrap_or_else(|| "/usr/lib/jvm/java-17-openjdk-amd64".into());
    home.join("bin").join(tool)
}

fn run(tool: &str, args: &[&str]) -> String {
    let out = Command::new(jdk_tool(tool)).args(args).output().unwrap();
    assert!(out.status.success(), "{tool} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn compile(dir: &Path, name: &str, source: &str, cp: &str) {
    let src = dir.join(format!("{name}.java"));
    std::fs::write(&src, source).unwrap();
    run("javac", &["-g", "-nowarn", "-cp", cp, "-d", dir.to_str().unwrap(), src.to_str().unwrap()]);
}

/// Adds a `LineNumberTable` row at the code length to every method.
fn add_row_at_code_end(cf: &mut ClassFile) {
    for m in 0..cf.methods.len() {
        let Some(pos) = cf.methods[m].attributes.iter().position(|a| cf.attribute_name(a) == "Code") else { continue };
        let mut code = CodeAttribute::parse(&cf.methods[m].attributes[pos].info).unwrap();
        for a in code.attributes.iter_mut() {
            if cf.attribute_name(a) == "LineNumberTable" {
                let mut rows = parse_line_numbers(&a.info).unwrap();
                rows.push(LineNumber { start_pc: code.code.len() as u32, line: 999 });
                *a = Attribute { name_index: a.name_index, info: write_line_numbers(&rows) };
            }
        }
        cf.methods[m].attributes[pos].info = code.to_bytes();
    }
}

/// HotSpot itself rejects such a row ("Invalid pc in LineNumberTable"),
/// but the instrumenter must not panic on it: it reports nothing wrong and
/// keeps the row, so the class fails to load exactly as the original does.
#[test]
fn a_line_row_at_the_code_length_is_instrumented_without_panic() {
    let tmp = tempfile::tempdir().unwrap();
    compile(
        tmp.path(),
        "Main",
        "public class Main { public static void main(String[] a) { System.out.println(a.length > 0 ? \"args\" : \"none\"); } }",
        ".",
    );
    let file = tmp.path().join("Main.class");
    let mut cf = ClassFile::parse(&std::fs::read(&file).unwrap()).unwrap();
    add_row_at_code_end(&mut cf);
    std::fs::write(&file, cf.to_bytes()).unwrap();
    let mut instrumenter = instrument::Instrumenter::default();
    for every_site in [false, true] {
        let bytes = std::fs::read(&file).unwrap();
        let c = if every_site { instrumenter.instrument_every_site(&bytes) } else { instrumenter.instrument(&bytes) };
        let c = c.unwrap();
        assert!(c.skipped.is_empty(), "{:?}", c.skipped);
        let rows = line_rows(&ClassFile::parse(&c.bytes).unwrap());
        assert!(rows.iter().any(|(row, len)| row.line == 999 && row.start_pc == *len), "{rows:?}");
    }
}

/// Every line-number row of every method, with the method's code length.
fn line_rows(cf: &ClassFile) -> Vec<(LineNumber, u32)> {
    let mut out = Vec::new();
    for m in &cf.methods {
        let Some(code) = cf.code(m).unwrap() else { continue };
        for a in code.attributes.iter().filter(|a| cf.attribute_name(a) == "LineNumberTable") {
            out.extend(parse_line_numbers(&a.info).unwrap().into_iter().map(|r| (r, code.code.len() as u32)));
        }
    }
    out
}

#[test]
fn probes_never_throw_and_resets_never_hide_ids_under_threads() {
    let tmp = tempfile::tempdir().unwrap();
    instrument::tracer::write_runtime(tmp.path()).unwrap();
    let race = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/tracer-race/TracerRace.java");
    let cp = tmp.path().to_str().unwrap();
    compile(tmp.path(), "TracerRace", &std::fs::read_to_string(race).unwrap(), cp);
    assert_eq!(run("java", &["-cp", cp, "TracerRace"]), "errors 0 lines 50\n");
}
