//! Repository hygiene: every crate has a section in ARCHITECTURE.md, and
//! the README opens with the two commands CI and new users rely on.

mod util;

#[test]
fn every_crate_has_a_section_in_architecture_md() {
    let arch = std::fs::read_to_string(util::repo().join("ARCHITECTURE.md")).unwrap();
    for e in std::fs::read_dir(util::repo().join("crates")).unwrap().flatten() {
        let name = e.file_name().into_string().unwrap();
        assert!(arch.contains(&format!("### `crates/{name}`")), "ARCHITECTURE.md lacks a section for crates/{name}");
    }
}

#[test]
fn readme_opens_with_the_example_and_test_commands_and_ci_runs_the_latter() {
    let readme = std::fs::read_to_string(util::repo().join("README.md")).unwrap();
    let head: Vec<&str> = readme.lines().take(6).collect();
    assert!(head.iter().any(|l| l.starts_with("scripts/example.sh")), "{head:?}");
    assert!(head.iter().any(|l| l.starts_with("scripts/test.sh")), "{head:?}");
    let ci = std::fs::read_to_string(util::repo().join(".ci/run")).unwrap();
    assert_eq!(ci.lines().last(), Some("scripts/test.sh"));
}
