//! Bad input gives a non-zero exit code and one line that says what is
//! wrong: a class that does not exist, a truncated jar, a class file of an
//! unsupported version (70, Java 26), a class the analysis rejects (an
//! exception range or a jump that does not fit the code: exit 3, the inner
//! error printed once). A malformed descriptor with non-ASCII characters
//! does not panic.

mod util;

fn stderr_of(args: &[&str]) -> (i32, String) {
    let out = util::ferrosuite(args);
    (out.status.code().unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn one_line(s: &str) -> &str {
    assert_eq!(s.lines().count(), 1, "not one line: {s:?}");
    s.trim_end()
}

#[test]
fn a_missing_class_names_the_class_and_the_nearest_names() {
    let (code, err) = stderr_of(&[
        "goals",
        "--classpath",
        "/usr/share/java/commons-lang3.jar",
        "--class",
        "org.apache.commons.lang3.StringUtil",
    ]);
    assert_eq!(code, 3);
    assert!(
        one_line(&err).starts_with("error: class org.apache.commons.lang3.StringUtil not found on the class path; nearest names found: org.apache.commons.lang3.StringUtils"),
        "{err}"
    );
}

#[test]
fn a_truncated_jar_is_reported_as_corrupt() {
    let tmp = tempfile::tempdir().unwrap();
    let jar = tmp.path().join("truncated.jar");
    let bytes = std::fs::read("/usr/share/java/commons-lang3.jar").unwrap();
    std::fs::write(&jar, &bytes[..bytes.len() / 2]).unwrap();
    let (code, err) =
        stderr_of(&["goals", "--classpath", jar.to_str().unwrap(), "--class", "org.apache.commons.lang3.CharUtils"]);
    assert_eq!(code, 3);
    assert!(one_line(&err).starts_with(&format!("error: corrupt jar {}", jar.display())), "{err}");
}

#[test]
fn a_java26_class_file_is_rejected_with_its_version() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir_all(src.join("p")).unwrap();
    std::fs::write(src.join("p/New.java"), "package p; public class New { int f(int x) { return x > 0 ? 1 : 2; } }")
        .unwrap();
    let classes = tmp.path().join("classes");
    std::fs::create_dir_all(&classes).unwrap();
    util::javac_dir(&src, &classes, &[]);
    let file = classes.join("p/New.class");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[6..8].copy_from_slice(&70u16.to_be_bytes());
    std::fs::write(&file, bytes).unwrap();
    let (code, err) = stderr_of(&["goals", "--classpath", classes.to_str().unwrap(), "--class", "p.New"]);
    assert_eq!(code, 3);
    assert_eq!(
        one_line(&err),
        format!(
            "error: cannot read class p.New from {}: unsupported class-file version 70.0 (Java 26); ferrosuite supports versions 45 (Java 1.1) to 69 (Java 25)",
            file.display()
        )
    );
}

fn compile(tmp: &std::path::Path, sources: &[(&str, &str)]) -> std::path::PathBuf {
    util::compile(tmp, sources, &[])
}

/// Rewrites the `Code` attribute of method `name` of the class file `file`.
fn patch_code(file: &std::path::Path, name: &str, patch: impl FnOnce(&mut model::classfile::CodeAttribute)) {
    let mut cf = model::classfile::ClassFile::parse(&std::fs::read(file).unwrap()).unwrap();
    let index = cf.methods.iter().position(|m| cf.member_name(m) == name).unwrap();
    let mut code = cf.code(&cf.methods[index]).unwrap().unwrap();
    patch(&mut code);
    let attr = cf.methods[index].attributes.iter().position(|a| cf.attribute_name(a) == "Code").unwrap();
    cf.methods[index].attributes[attr].info = code.to_bytes();
    std::fs::write(file, cf.to_bytes()).unwrap();
}

const TRY_CATCH: &str = "package p; public class A {
    static int f(int x) { try { return 10 / x; } catch (ArithmeticException e) { return x > 0 ? 1 : 2; } }
}";

/// A method descriptor with a non-ASCII character where a type letter
/// belongs (`(Xp/Ünïcode;I)I`, patched from javac's `(Lp/Ünïcode;I)I`) used
/// to panic (exit 101) on a byte offset inside `Ü`.
#[test]
fn a_descriptor_with_a_non_ascii_name_in_a_bad_place_does_not_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = compile(
        tmp.path(),
        &[
            ("p/A.java", "package p; public class A { int f(Ünïcode u, int x) { return x > 0 ? 1 : 2; } }"),
            ("p/Ünïcode.java", "package p; public class Ünïcode {}"),
        ],
    );
    let cp = classes.to_str().unwrap();
    let ok = util::ferrosuite_ok(&["goals", "--classpath", cp, "--class", "p.A"]);
    assert!(ok.contains("method f(Lp/Ünïcode;I)I"), "{ok}");
    let file = classes.join("p/A.class");
    let mut bytes = std::fs::read(&file).unwrap();
    let good = "(Lp/Ünïcode;I)I".as_bytes();
    let at = bytes.windows(good.len()).position(|w| w == good).unwrap();
    bytes[at + 1] = b'X';
    std::fs::write(&file, bytes).unwrap();
    let out = util::ferrosuite(&["goals", "--classpath", cp, "--class", "p.A"]);
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("method f(Xp/Ünïcode;I)I"), "{stdout}");
}

/// An exception-table row that ends inside an instruction: exit 3 and one
/// line that gives the row once (the analysis error used to print its
/// inner error twice), and no panic.
#[test]
fn a_bad_exception_range_is_bad_input_reported_once() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = compile(tmp.path(), &[("p/A.java", TRY_CATCH)]);
    patch_code(&classes.join("p/A.class"), "f", |code| {
        let row = &mut code.exception_table[0];
        assert_eq!(code.code[row.start_pc as usize], 0x10, "the try block starts with `bipush 10`");
        row.end_pc = row.start_pc + 1; // inside `bipush 10`
    });
    let (code, err) = stderr_of(&["goals", "--classpath", classes.to_str().unwrap(), "--class", "p.A"]);
    let err = one_line(&err);
    assert_eq!(code, 3, "{err}");
    assert!(err.starts_with("error: cannot analyse p.A: p/A.f(I)I at bytecode index 0: exception-table row"), "{err}");
    assert_eq!(err.matches("does not fit the code").count(), 1, "{err}");
}

/// A conditional jump into the middle of an instruction: exit 3, one line,
/// the bad target named once.
#[test]
fn a_jump_into_an_instruction_is_bad_input_reported_once() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = compile(
        tmp.path(),
        &[("p/A.java", "package p; public class A { static int f(int x) { return x > 0 ? 1 : 2; } }")],
    );
    patch_code(&classes.join("p/A.class"), "f", |code| {
        let jump = model::bytecode::decode(&code.code).unwrap().into_iter().find(|i| i.is_conditional_jump()).unwrap();
        let at = jump.bci as usize;
        code.code[at + 1..at + 3].copy_from_slice(&1i16.to_be_bytes()); // into its own operand
    });
    let (code, err) = stderr_of(&["goals", "--classpath", classes.to_str().unwrap(), "--class", "p.A"]);
    let err = one_line(&err);
    assert_eq!(code, 3, "{err}");
    assert!(err.starts_with("error: cannot analyse p.A: p/A.f(I)I: undecodable bytecode: jump target 2"), "{err}");
    assert_eq!(err.matches("is not the start of an instruction").count(), 1, "{err}");
}

#[test]
fn a_misspelt_algorithm_or_junit_version_is_a_usage_error_not_a_silent_default() {
    let cp = "/usr/share/java/commons-lang3.jar";
    let class = "org.apache.commons.lang3.CharUtils";
    let (code, err) = stderr_of(&["generate", "--classpath", cp, "--class", class, "--algorithm", "dynamosaa"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("dynamosaa") && err.contains("dynamosa, mosa, wholesuite, random"), "{err}");
    let (code, err) = stderr_of(&["generate", "--classpath", cp, "--class", class, "--junit", "3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("[possible values: 4, 5]"), "{err}");
}

#[test]
fn generate_names_a_missing_class_with_exit_code_3() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let (code, err) = stderr_of(&[
        "generate",
        "--classpath",
        "/usr/share/java/commons-lang3.jar",
        "--class",
        "org.apache.commons.lang3.StringUtil",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(one_line(&err).contains("org.apache.commons.lang3.StringUtil"), "{err}");
}

/// A Java 25 class file (version 69) on a JDK 17 gets a message that names
/// both versions and how to choose another JDK, not a javac or a
/// class-loading error.
#[test]
fn generate_on_a_jdk_older_than_the_class_file_says_which_jdk_it_needs() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = compile(
        tmp.path(),
        &[("p/Later.java", "package p; public class Later { public int f(int x) { return x > 0 ? 1 : 2; } }")],
    );
    let file = classes.join("p/Later.class");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[6..8].copy_from_slice(&69u16.to_be_bytes());
    std::fs::write(&file, bytes).unwrap();
    let jdk17 = model::jdk::DEBIAN_JDK17;
    let out = tmp.path().join("out");
    let args = ["--java-home", jdk17, "generate", "--classpath", classes.to_str().unwrap(), "--class", "p.Later"];
    let output = util::ferrosuite(&[&args[..], &["--out", out.to_str().unwrap(), "--evaluations", "100"]].concat());
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    let expected = format!(
        "p.Later is a Java 25 class file (version 69); the JDK at {jdk17} (Java 17) cannot run it: choose a JDK 25 or newer with --java-home or JAVA_HOME"
    );
    assert!(text.contains(&expected), "{text}");
    let report = std::fs::read_to_string(out.join("report.json")).unwrap();
    assert!(report.contains("\"status\": \"failed\""), "{report}");
}

/// `--java-home` that names no JDK is an error that says what it lacks,
/// never a silent fall-back to another JDK.
#[test]
fn a_java_home_that_is_not_a_jdk_says_what_it_lacks() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().to_str().unwrap();
    let (code, err) = stderr_of(&[
        "--java-home",
        home,
        "generate",
        "--classpath",
        "/usr/share/java/commons-lang3.jar",
        "--class",
        "org.apache.commons.lang3.CharUtils",
        "--out",
        tmp.path().join("out").to_str().unwrap(),
    ]);
    assert_ne!(code, 0);
    assert_eq!(
        one_line(&err),
        format!(
            "error: --java-home {home}: not a JDK, it has no bin/javac; name the folder of a JDK 17 to 25 (e.g. /usr/lib/jvm/java-17-openjdk-amd64)"
        )
    );
}
