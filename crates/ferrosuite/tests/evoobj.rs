//! EvoObj on the game fixtures of `testdata/evoobj` (after the game-rules
//! example of Lin et al., ESEC/FSE 2021), with the real binary and JVM:
//! branches guarded by fields reached through getters and lists, through
//! calls on a parameter and arrays, through an array parameter, and through
//! a private field only a checked public method sets are covered with
//! EvoObj in at least 9 of 10 seeds and clearly less often without it; and
//! `explain-ocg` prints the graph and template of a goal, or says why it
//! cannot.

mod util;

use std::path::{Path, PathBuf};

/// The branch each fixture method is about (labels as `report.json` prints them).
const TARGETS: [(&str, &str); 4] = [
    ("getters and lists", "Rules.java:22 if (member.getBadge().getLevel() != 7) false"),
    ("call on a parameter, arrays", "Rules.java:36 if (goals >= 95) false"),
    ("array parameter", "Rules.java:46 if (goals >= 95) false"),
    ("private field, checked setter", "Rules.java:60 if (gold >= 310) false"),
];

/// Executions per run, about 7 s of search without EvoObj here, within the
/// issue's 15 s. A seed does not make a run repeatable: values the class
/// under test computes at run time (temporary file names, hash codes)
/// become dynamic seeds and change later choices. With EvoObj, 30 runs
/// (seeds 1 to 30) covered all four branches after 4,584 to 33,734
/// executions (median about 13,000), so the budget has a margin of three.
/// Without EvoObj none of the four is covered, even in 200,000.
const EVALUATIONS: &str = "100000";

fn game_classes(dir: &Path) -> PathBuf {
    let classes = dir.join("classes");
    std::fs::create_dir_all(&classes).unwrap();
    util::javac_dir(&util::repo().join("testdata/evoobj/src"), &classes, &[]);
    classes
}

/// The game fixtures compiled into a new temporary folder (kept alive by
/// the returned guard), and their class path.
fn compiled_game() -> (tempfile::TempDir, String) {
    let tmp = tempfile::tempdir().unwrap();
    let classes = game_classes(tmp.path());
    let cp = classes.to_str().unwrap().to_string();
    (tmp, cp)
}

/// The report of one run of `generate` on `game.Rules`.
fn run(classes: &Path, out: &Path, seed: u64, evoobj: bool) -> serde_json::Value {
    let seed = seed.to_string();
    let mut args = vec!["generate", "-c", classes.to_str().unwrap(), "--class", "game.Rules"];
    args.extend(["--evaluations", EVALUATIONS, "--seed", &seed, "--out", out.to_str().unwrap()]);
    if !evoobj {
        args.push("--no-evoobj");
    }
    util::ferrosuite_ok(&args);
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    report["classes"][0].clone()
}

fn covers(class: &serde_json::Value, label: &str) -> bool {
    let uncovered = class["uncovered"].as_array().cloned().unwrap_or_default();
    !uncovered.iter().any(|u| u["goal"] == label)
}

#[test]
fn templates_cover_branches_random_construction_misses() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = game_classes(tmp.path());
    let seeds = 1..=10u64;
    let mut with = [0usize; TARGETS.len()];
    let mut without = [0usize; TARGETS.len()];
    for seed in seeds.clone() {
        for (evoobj, counts) in [(true, &mut with), (false, &mut without)] {
            let class = run(&classes, &tmp.path().join(format!("out-{seed}-{evoobj}")), seed, evoobj);
            let stats = &class["techniques"]["evoobj"];
            assert_eq!(stats.is_object(), evoobj, "report.json has EvoObj's numbers only when it is on: {class}");
            if evoobj {
                assert!(stats["templates_inserted"].as_f64().unwrap() > 0.0, "{stats}");
            }
            for (k, (_, label)) in TARGETS.iter().enumerate() {
                counts[k] += usize::from(covers(&class, label));
            }
        }
    }
    println!("| branch | seeds covered with EvoObj | without |\n|---|---:|---:|");
    for (k, (what, label)) in TARGETS.iter().enumerate() {
        println!("| {what}: `{label}` | {} of 10 | {} of 10 |", with[k], without[k]);
    }
    for (k, (what, _)) in TARGETS.iter().enumerate() {
        assert!(with[k] >= 9, "{what}: covered in {} of 10 seeds with EvoObj", with[k]);
        assert!(with[k] >= without[k] + 4, "{what}: {} with, {} without", with[k], without[k]);
    }
}

#[test]
fn explain_ocg_prints_the_graph_and_the_template() {
    let (_tmp, cp) = compiled_game();
    let cp = cp.as_str();
    let goal = "canCommand(Lgame/Fleet;II)Z@50:true";
    let text = util::ferrosuite_ok(&["explain-ocg", "-c", cp, "--class", "game.Rules", "--goal", goal]);
    for line in [
        "n3 field game/Fleet.ships Ljava/util/List; <- owner n0",
        "n4 call java/util/List.get(I)Ljava/lang/Object; <- arg0 n1, owner n3",
        "*n9 field game/Badge.level I <- owner n8",
        ".commission(",
        ".enlist(",
        ".canCommand(",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
}

#[test]
fn explain_ocg_says_what_is_wrong_with_bad_input() {
    let (_tmp, cp) = compiled_game();
    let cp = cp.as_str();
    let out = util::ferrosuite(&["explain-ocg", "-c", cp, "--class", "game.Rules", "--goal", "nope@1:true"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("no goal nope@1:true in game.Rules") && stderr.contains("ferrosuite goals"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // A static method of ints takes no objects; a line is not a branch.
    for goal in ["clamp(I)I@2:true", "line:10"] {
        let text = util::ferrosuite_ok(&["explain-ocg", "-c", cp, "--class", "game.Dice", "--goal", goal]);
        assert!(text.contains("nothing to explain"), "{goal}: {text}");
    }
    let out = util::ferrosuite(&["explain-ocg", "-c", cp, "--class", "game.Nope", "--goal", "x"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("game.Nope"));
}

/// The value of `var` where the template assigns it a literal (`v2 = 0`).
fn literal_of<'t>(template: &'t str, var: &str) -> Option<&'t str> {
    template.lines().find_map(|l| l.trim().strip_prefix(&format!("{var} = ")))
}

/// The arguments of the first call of `.name(` in the template.
fn args_of<'t>(template: &'t str, name: &str) -> Vec<&'t str> {
    let line = template
        .lines()
        .find(|l| l.contains(&format!(".{name}(")))
        .unwrap_or_else(|| panic!("no {name} in\n{template}"));
    let inside = line.split_once(&format!(".{name}(")).unwrap().1.split_once(')').unwrap().0;
    inside.split(", ").collect()
}

#[test]
fn template_indexes_fall_inside_arrays_and_setter_values_are_their_own() {
    let (_tmp, cp) = compiled_game();
    let cp = cp.as_str();
    let goal = "winner(Lgame/League;II)Ljava/lang/String;@45:false";
    for seed in 1..=12 {
        let seed = seed.to_string();
        let args = ["explain-ocg", "-c", cp, "--class", "game.Rules", "--goal", goal, "--seed", &seed];
        let text = util::ferrosuite_ok(&args);
        let template = text.split_once("template (seed").unwrap_or_else(|| panic!("no template in\n{text}")).1;
        // `winner(league, t, p)` reads `teams[t].seats[p]`: both indexes must
        // fall inside the arrays (6 teams, 4 seats) for `enter` and `seat` to
        // store anything.
        let under_test = args_of(template, "winner");
        for index in &under_test[1..] {
            let value: i32 = literal_of(template, index).and_then(|v| v.parse().ok()).unwrap_or(-1);
            assert!((0..4).contains(&value), "index {index} = {value} (seed {seed}) in\n{template}");
        }
        // The goals recorded are a value of their own, not one of the indexes.
        let recorded = args_of(template, "record")[0];
        assert!(!under_test.contains(&recorded), "record({recorded}) shares an index (seed {seed}) in\n{template}");
    }
}
