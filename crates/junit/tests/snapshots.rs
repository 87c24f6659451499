//! Golden-file tests in naga's layout: each suite built in `suites` has its
//! text form in `tests/in/<name>.ir` and its emitted source in
//! `tests/out/<name>.java`. Both are compared exactly; with
//! `UPDATE_SNAPSHOTS=1` they are rewritten instead.

mod suites;

use std::path::{Path, PathBuf};

fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// Compares `actual` with the file at `path`, or writes it when updating;
/// returns a message on a difference.
fn check_file(path: &Path, actual: &str) -> Option<String> {
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|value| value == "1") {
        std::fs::write(path, actual).unwrap();
        return None;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    (expected != actual).then(|| format!("{} differs (UPDATE_SNAPSHOTS=1 accepts it):\n{actual}", path.display()))
}

#[test]
fn every_suite_matches_its_golden_files() {
    let mut failures = Vec::new();
    for (name, input) in suites::all() {
        failures.extend(check_file(&tests_dir().join(format!("in/{name}.ir")), &input.to_ir()));
        let source = input.emit();
        assert_eq!(source, input.emit(), "{name} is emitted the same way twice");
        failures.extend(check_file(&tests_dir().join(format!("out/{name}.java")), &source));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_golden_file_has_a_suite() {
    let names: Vec<&str> = suites::all().iter().map(|(name, _)| *name).collect();
    for dir in ["in", "out"] {
        for entry in std::fs::read_dir(tests_dir().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            assert!(names.contains(&stem.as_str()), "{} has no suite in tests/suites", path.display());
        }
    }
}

#[test]
fn each_test_method_knows_its_lines_from_annotation_to_closing_brace() {
    for (name, input) in suites::all() {
        let suite = junit::emit_suite_with_lines(&input.cut, &input.tests, &input.options);
        assert_eq!(suite.source, input.emit(), "{name}");
        let lines: Vec<&str> = suite.source.lines().collect();
        assert_eq!(suite.tests.len(), input.tests.len(), "{name}");
        for test in &suite.tests {
            let first = lines[*test.lines.start() as usize - 1].trim();
            let last = lines[*test.lines.end() as usize - 1];
            assert!(first.starts_with("@") && first.contains("Test"), "{name}: {first}");
            let declaration = lines[*test.lines.start() as usize..].iter().find(|l| !l.trim().starts_with('@'));
            let declaration = declaration.unwrap().trim();
            assert!(declaration.starts_with(&format!("public void {}(", test.name)), "{name}: {declaration}");
            assert_eq!(last, "    }", "{name}: {}", test.name);
            assert_eq!(suite.tests_at_lines(&[*test.lines.end()]), vec![test.name.as_str()]);
        }
        assert!(suite.tests_at_lines(&[1]).is_empty(), "{name}: the header holds no test");
        let names: Vec<String> = suite.tests.iter().map(|t| t.name.clone()).collect();
        assert_eq!(junit::test_methods_in(&suite.source), names, "{name}");
    }
}

/// Two test cases that differ only where the Java does not (the type of a
/// `null`) read the same: the second is a repeat.
#[test]
fn tests_that_would_read_the_same_are_repeats() {
    let (cut, options, tests) = suites::nulls_of_two_types();
    assert_ne!(tests[0], tests[1]);
    assert_eq!(junit::repeated_tests(&cut, &tests, &options), [1]);
}
