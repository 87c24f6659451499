//! `generate --project` on two example projects of `testdata/projects`:
//!
//! - Maven, one module: built by real Maven offline (Debian's packaged
//!   plugins and jars, `/usr/share/maven-repo`, as the only repository),
//!   the class path from `mvn -o dependency:build-classpath`, JUnit 4 from
//!   the pom, tests into `src/test/java`, and `mvn -o test` runs them with
//!   the project's own test. A second run skips the class that has tests;
//!   with `--overwrite --changed-only` it skips it as unchanged.
//! - Gradle, two modules (`app` uses `lib`): compiled here with javac
//!   (Debian's Gradle 4.4 does not run on JDK 17), tests into each
//!   module's `src/test/java` with JUnit 5 from the build file; they
//!   compile and pass under JUnit 5.

mod util;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn copy_tree(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

fn example(name: &str, tmp: &Path) -> PathBuf {
    let dir = tmp.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    copy_tree(&util::repo().join("testdata/projects").join(name), &dir);
    dir
}

/// A Maven home whose only repository is Debian's (a `file:` mirror), with
/// a local repository of its own: `MAVEN_OPTS` for every Maven run.
fn maven_opts(tmp: &Path) -> String {
    let home = tmp.join("home");
    std::fs::create_dir_all(home.join(".m2")).unwrap();
    let settings = format!(
        "<settings><localRepository>{}</localRepository><mirrors><mirror><id>debian</id><mirrorOf>*</mirrorOf>\
         <url>file:///usr/share/maven-repo</url></mirror></mirrors></settings>",
        tmp.join("repository").display()
    );
    std::fs::write(home.join(".m2/settings.xml"), settings).unwrap();
    format!("-Duser.home={}", home.display())
}

fn mvn(dir: &Path, opts: &str, args: &[&str]) {
    let out = Command::new("mvn").args(["-B", "-q"]).args(args).current_dir(dir).env("MAVEN_OPTS", opts).output();
    let out = out.expect("mvn runs (scripts/setup.sh installs maven and Debian's Maven plugins)");
    assert!(out.status.success(), "mvn {args:?}: {}", String::from_utf8_lossy(&out.stdout));
}

fn ferrosuite(args: &[&str], opts: &str) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_ferrosuite")).args(args).env("MAVEN_OPTS", opts).output().unwrap();
    assert!(out.status.success(), "ferrosuite {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

#[test]
fn a_maven_project_gets_tests_in_src_test_java_that_mvn_test_runs_offline() {
    let tmp = tempfile::tempdir().unwrap();
    let project = example("maven-single", tmp.path());
    let opts = maven_opts(tmp.path());
    // The developer's build: compiles the classes, fills the local repository, runs the own test.
    mvn(&project, &opts, &["test", "dependency:build-classpath"]);
    let dir = project.to_str().unwrap();
    let out = ferrosuite(&["generate", "--project", dir, "--budget", "5s", "--seed", "1"], &opts);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("module .: 1 classes, tests into"), "{stdout}");
    assert!(!stdout.contains("no class path from mvn -o"), "Maven answered offline: {stdout}");
    let suite = std::fs::read_to_string(project.join("src/test/java/shop/Cart_FerroTest.java")).unwrap();
    assert!(suite.contains("import org.junit.Test;"), "JUnit 4 as the pom says:\n{suite}");
    assert!(project.join("target/ferrosuite/report.json").is_file(), "reports go to the build folder");
    assert!(!project.join("src/test/java/report.json").exists(), "no report among the test sources");

    mvn(&project, &opts, &["-o", "test"]);
    let surefire =
        std::fs::read_to_string(project.join("target/surefire-reports/TEST-shop.Cart_FerroTest.xml")).unwrap();
    let head = surefire.lines().find(|l| l.contains("<testsuite")).unwrap();
    assert!(
        head.contains("failures=\"0\"") && head.contains("errors=\"0\"") && !head.contains("tests=\"0\""),
        "{head}"
    );

    let again = ferrosuite(&["generate", "--project", dir, "--budget", "5s"], &opts);
    assert!(String::from_utf8_lossy(&again.stdout).contains("1 classes already have ferrosuite tests"), "{again:?}");
    let changed = ferrosuite(&["generate", "--project", dir, "--budget", "5s", "--overwrite", "--changed-only"], &opts);
    assert!(String::from_utf8_lossy(&changed.stdout).contains("1 classes unchanged since the last run"), "{changed:?}");
}

#[test]
fn a_gradle_build_of_two_modules_gets_junit5_tests_in_each_module() {
    let tmp = tempfile::tempdir().unwrap();
    let project = example("gradle-multi", tmp.path());
    let (lib, app) = (project.join("lib/build/classes/java/main"), project.join("app/build/classes/java/main"));
    util::javac_dir(&project.join("lib/src/main/java"), &lib, &[]);
    util::javac_dir(&project.join("app/src/main/java"), &app, &["-cp", lib.to_str().unwrap()]);
    let out = ferrosuite(&["generate", "--project", project.to_str().unwrap(), "--budget", "5s", "--seed", "2"], "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Gradle project") && stdout.contains("with 2 modules"), "{stdout}");
    let suites = [
        ("inventory.Stock_FerroTest", "lib/src/test/java/inventory/Stock_FerroTest.java"),
        ("store.Checkout_FerroTest", "app/src/test/java/store/Checkout_FerroTest.java"),
    ];
    for (_, file) in suites {
        let suite = std::fs::read_to_string(project.join(file)).unwrap();
        assert!(suite.contains("org.junit.jupiter"), "JUnit 5 as the build says:\n{suite}");
    }
    assert!(project.join("app/build/ferrosuite/report.html").is_file());
    let classes = PathBuf::from(format!("{}:{}", lib.display(), app.display()));
    let sources: Vec<(String, PathBuf)> = suites.iter().map(|(c, f)| (c.to_string(), project.join(f))).collect();
    util::all_pass_under_junit(5, &classes, &tmp.path().join("test-classes"), &sources, junit::test_methods_in);
}
