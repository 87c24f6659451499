//! Bad input gives a non-zero exit code and one line that says what is
//! wrong: a class that does not exist, a truncated jar, a class file of an
//! unsupported version (65, Java 21).

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
fn a_java21_class_file_is_rejected_with_its_version() {
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
    bytes[6..8].copy_from_slice(&65u16.to_be_bytes());
    std::fs::write(&file, bytes).unwrap();
    let (code, err) = stderr_of(&["goals", "--classpath", classes.to_str().unwrap(), "--class", "p.New"]);
    assert_eq!(code, 3);
    assert_eq!(
        one_line(&err),
        format!(
            "error: cannot read class p.New from {}: unsupported class-file version 65.0 (Java 21); ferrosuite supports versions 45 (Java 1.1) to 61 (Java 17)",
            file.display()
        )
    );
}
