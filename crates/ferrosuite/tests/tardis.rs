//! TARDIS's DSE step through the real binary on the needle fixture
//! `testdata/tardis/src/needles/Ledger.java`: with `--dse` the search
//! covers every branch, the product needle included, the report counts what
//! the DSE step did, and the emitted tests pass under JUnit; `--no-dse`
//! wins over `--dse`; on `testdata/tardis/src/logged/Basket.java` the DSE
//! step replays tests with their value logs; on `needles/Readings.java`
//! alternatives over JDK results become path-condition goals.

mod util;

use std::path::{Path, PathBuf};

/// Compiles the needles into `dir/classes`.
fn needles(dir: &Path) -> PathBuf {
    let classes = dir.join("classes");
    std::fs::create_dir_all(&classes).unwrap();
    util::javac_dir(&util::repo().join("testdata/tardis/src"), &classes, &[]);
    classes
}

fn report(out: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap()
}

#[test]
fn dse_covers_the_product_needle_and_reports_its_work() {
    let dir = tempfile::tempdir().unwrap();
    let classes = needles(dir.path());
    let out = dir.path().join("out");
    let cp = classes.to_str().unwrap();
    util::ferrosuite_ok(&[
        "generate",
        "-c",
        cp,
        "--class",
        "needles.Ledger",
        "--budget",
        "40",
        "--seed",
        "3",
        "--out",
        out.to_str().unwrap(),
        "--dse",
    ]);
    let r = report(&out);
    let class = &r["classes"][0];
    let uncovered: Vec<&str> =
        class["uncovered"].as_array().unwrap().iter().filter_map(|u| u["goal"].as_str()).collect();
    assert_eq!(class["goals"]["branch"]["covered"], class["goals"]["branch"]["total"], "uncovered: {uncovered:?}");
    let tardis = &class["techniques"]["tardis"];
    for key in ["alternatives", "selected", "solved", "tests", "goals_covered_by_dse", "solver_seconds"] {
        assert!(tardis[key].as_f64().is_some_and(|v| v > 0.0), "{key}: {tardis}");
    }
    // The steps keep to their share of the search (one step may overrun it by its own budget, 2 s).
    let (steps, search) = (tardis["step_seconds"].as_f64().unwrap(), tardis["search_seconds"].as_f64().unwrap());
    assert!(steps <= 0.3 * search + 2.5, "DSE took {steps} s of a {search} s search");
    let source = out.join(class["test_file"].as_str().unwrap());
    let text = std::fs::read_to_string(&source).unwrap();
    assert!(text.contains("settle("), "{text}");
    let name = class["class"].as_str().unwrap().to_string() + "_FerroTest";
    util::all_pass_under_junit4(&classes, &dir.path().join("test-classes"), &[(name, source)], junit::test_methods_in);
}

#[test]
fn no_dse_wins_over_dse() {
    let dir = tempfile::tempdir().unwrap();
    let classes = needles(dir.path());
    let out = dir.path().join("out");
    util::ferrosuite_ok(&[
        "generate",
        "-c",
        classes.to_str().unwrap(),
        "--class",
        "needles.Tag",
        "--budget",
        "3",
        "--out",
        out.to_str().unwrap(),
        "--dse",
        "--no-dse",
    ]);
    let r = report(&out);
    assert!(r["classes"][0]["techniques"].get("tardis").is_none(), "{}", r["classes"][0]["techniques"]);
}

/// `generate --dse` on `class` of the fixtures for `budget` seconds (seed
/// 1): its report's entry for the class, once the emitted suite passed
/// under JUnit 4; `keys` of `techniques.tardis` must be above 0.
fn dse_run_with(class: &str, budget: &str, keys: &[&str]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let classes = needles(dir.path());
    let out = dir.path().join("out");
    let cp = classes.to_str().unwrap();
    let args = ["generate", "-c", cp, "--class", class, "--budget", budget, "--seed", "1"];
    util::ferrosuite_ok(&[&args[..], &["--out", out.to_str().unwrap(), "--dse"]].concat());
    let class = report(&out)["classes"][0].clone();
    let tardis = &class["techniques"]["tardis"];
    for key in keys {
        assert!(tardis[key].as_f64().is_some_and(|v| v > 0.0), "{key}: {tardis}");
    }
    let source = out.join(class["test_file"].as_str().unwrap());
    let name = class["class"].as_str().unwrap().to_string() + "_FerroTest";
    util::all_pass_under_junit4(&classes, &dir.path().join("test-classes"), &[(name, source)], junit::test_methods_in);
    class
}

/// The DSE step has the tests it replays run again with the value log on
/// (`search::Variation::tests_to_log`): on `logged.Basket`, whose methods
/// call into the JDK, replays use logged values, and the suite passes.
#[test]
fn dse_steps_replay_tests_with_their_value_logs() {
    dse_run_with("logged.Basket", "10", &["replays_with_log", "logged_values", "log_seconds"]);
}

/// On `needles.Readings`, whose items live in an `ArrayList`, the
/// alternatives over the items are satisfiable only by other JDK results:
/// the DSE step makes them path-condition goals, the search reaches some
/// (each such test satisfies a whole path condition the JVM confirms by its
/// log), the DSE's share of the search holds, and the suite passes.
#[test]
fn alternatives_over_jdk_results_become_path_condition_goals_the_search_reaches() {
    let class = dse_run_with("needles.Readings", "20", &["indirect", "pc_goals", "pc_goals_reached", "pc_seconds"]);
    let tardis = &class["techniques"]["tardis"];
    let seconds = |key: &str| tardis[key].as_f64().unwrap();
    let (steps, pc, search) = (seconds("step_seconds"), seconds("pc_seconds"), seconds("search_seconds"));
    assert!(steps + pc <= 0.3 * search + 2.5, "DSE took {steps} + {pc} s of a {search} s search");
}
