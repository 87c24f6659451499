//! Checks on the real Debian jars (installed by `scripts/setup.sh`):
//! every class of eight libraries instruments and then loads, links and
//! initialises under `java -Xverify:all`, with the static reset added to
//! every class and each reset run once; and the branch goals of the
//! visible corpus match JaCoCo's branch counter, computed live.

mod util;

const JARS: &[&str] =
    &["commons-lang3", "commons-collections4", "commons-math3", "guava", "asm", "bcel", "jsoup", "joda-time"];

#[test]
fn every_class_of_eight_real_jars_loads_instrumented_under_verify_all() {
    let mut args = vec!["bench".to_string(), "verify".to_string(), "--static-reset".to_string()];
    for j in JARS {
        args.push("--jar".into());
        args.push(format!("/usr/share/java/{j}.jar"));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = util::ferrosuite_ok(&args);
    let rows: Vec<Vec<&str>> =
        out.lines().filter(|l| l.starts_with("/usr/share/java/")).map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), JARS.len(), "{out}");
    for row in &rows {
        let classes: usize = row[1].parse().unwrap();
        assert!(classes > 30, "{row:?}");
        assert_eq!(&row[2..], ["0", "0", "0", "0"], "not instrumented, original, instrumented, caused: {row:?}\n{out}");
    }
    assert!(out.contains("total failures caused by instrumentation: 0"));
    let resets: Vec<&str> = out.lines().filter(|l| l.trim_start().starts_with("resets\t")).collect();
    assert_eq!(resets.len(), JARS.len(), "one line of resets per jar: {out}");
    assert!(resets.iter().all(|l| l.ends_with("threw\t0")), "a reset threw: {out}");
}

#[test]
fn branch_line_and_method_goals_of_the_visible_corpus_match_jacoco() {
    let corpus = util::repo().join("corpus/visible.txt");
    let out = util::ferrosuite_ok(&["bench", "branches", "--corpus", corpus.to_str().unwrap()]);
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("| org.")).collect();
    assert_eq!(rows.len(), 10, "{out}");
    for row in rows {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert!(cells[2].parse::<u32>().unwrap() > 0, "{row}");
        assert_eq!((cells[2], cells[4], cells[6]), (cells[3], cells[5], cells[7]), "ours vs JaCoCo: {row}");
    }
    assert!(out.contains("classes whose counts differ: 0 of 10"));
}
