//! `ferrosuite.toml` with the real binary: `init` writes the commented
//! default (and will not overwrite it), `generate` takes its options from
//! the file in the folder it runs in, with paths relative to the file, and
//! options typed on the command line win over the file's.

mod util;

use std::path::Path;

fn generate_in(dir: &Path, args: &[&str]) {
    let out = util::ferrosuite_in(dir, args);
    assert!(out.status.success(), "ferrosuite {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn init_writes_every_option_and_generate_reads_the_file_with_typed_options_winning() {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path();
    let init = util::ferrosuite(&["init", "--dir", project.to_str().unwrap()]);
    assert!(init.status.success(), "{}", String::from_utf8_lossy(&init.stderr));
    let default = std::fs::read_to_string(project.join("ferrosuite.toml")).unwrap();
    for option in ["budget", "junit", "no-kat", "test-timeout-ms", "dse-strategy"] {
        assert!(default.contains(&format!("\n# {option} = ")), "{option} missing from:\n{default}");
    }
    let again = util::ferrosuite(&["init", "--dir", project.to_str().unwrap()]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists"), "{again:?}");

    util::compile(
        &project.join("build"),
        &[("p/Small.java", "package p; public class Small { public int f(int x) { return x > 0 ? 1 : 2; } }")],
        &[],
    );
    std::fs::write(
        project.join("ferrosuite.toml"),
        // The default ends inside its [generate] table: the settings join it.
        format!(
            "{default}\n# the project's own settings\nclasspath = \"build/classes\"\nclass = [\"p.Small\"]\n\
             evaluations = 400\nseed = 3\njunit = \"5\"\nout = \"generated\"\nno-kat = true\n"
        ),
    )
    .unwrap();
    generate_in(project, &["generate"]);
    let suite = std::fs::read_to_string(project.join("generated/p/Small_FerroTest.java")).unwrap();
    assert!(suite.contains("org.junit.jupiter"), "junit = \"5\" from the file:\n{suite}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(project.join("generated/report.json")).unwrap()).unwrap();
    assert_eq!(report["seed"], 3, "{report}");

    // Typed options win; the rest still comes from the file.
    generate_in(project, &["generate", "--junit", "4", "--out", "typed"]);
    let suite = std::fs::read_to_string(project.join("typed/p/Small_FerroTest.java")).unwrap();
    assert!(suite.contains("org.junit.Test") && !suite.contains("jupiter"), "--junit 4 typed:\n{suite}");

    // A key that is no option is an error that names it.
    std::fs::write(project.join("bad.toml"), "[generate]\nbudgett = \"1s\"\n").unwrap();
    let bad = util::ferrosuite_in(project, &["--config", "bad.toml", "generate", "--class", "p.Small"]);
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");
    assert!(String::from_utf8_lossy(&bad.stderr).contains("`budgett` in [generate] is not an option"), "{bad:?}");
}
