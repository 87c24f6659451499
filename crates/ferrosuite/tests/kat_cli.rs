//! `ferrosuite kat`: the real binary on the shipped JDK 17 knowledge graph
//! and on JDK sources (`/usr/lib/jvm/openjdk-17/lib/src.zip`, installed by
//! `scripts/setup.sh`): show, stats, build-kg, and its errors.

mod util;

const SRC_ZIP: &str = "/usr/lib/jvm/openjdk-17/lib/src.zip";

fn run(args: &[&str]) -> (i32, String, String) {
    let out = util::ferrosuite(args);
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code().unwrap(), text(out.stdout), text(out.stderr))
}

#[test]
fn show_prints_typed_triggers_with_conditions() {
    let (code, out, err) = run(&["kat", "show", "java.lang.String.charAt"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("java.lang.String.charAt(int index)  (I)C"), "{out}");
    assert!(
        out.contains("throws java.lang.IndexOutOfBoundsException when index < 0 || index >= this.length()"),
        "{out}"
    );
    assert!(out.contains("T2 index < 0 "), "{out}");
    let (code, out, _) = run(&["kat", "show", "java.util.Iterator.next"]);
    assert_eq!(code, 0);
    assert!(out.contains("throws java.util.NoSuchElementException when !this.hasNext()"), "{out}");
    assert!(out.contains("T3 !this.hasNext()"), "{out}");
}

/// The four methods issue 20 names: the triggers a Java developer would
/// write down, as `kat show` prints them.
#[test]
fn show_gives_the_triggers_a_developer_would_write_for_issue_20s_methods() {
    let cases: [(&str, &[&str]); 4] = [
        (
            "java.util.OptionalLong.ifPresentOrElse",
            &["T1 this.isPresent() && action == null ", "T1 !this.isPresent() && emptyAction == null "],
        ),
        ("java.util.concurrent.ConcurrentMap.remove", &["T1 key == null && ? ", "T1 value == null && ? "]),
        ("java.net.DatagramSocket.setReceiveBufferSize", &["T2 size == 0 ", "T2 size < 0 "]),
        (
            "java.nio.ByteBuffer.getChar",
            &["T2 index < 0 ", "T2 index >= this.limit() - 1 ", "T2 this.remaining() < 2 "],
        ),
    ];
    for (method, triggers) in cases {
        let (code, out, err) = run(&["kat", "show", method]);
        assert_eq!(code, 0, "{err}");
        for t in triggers {
            assert!(out.contains(t), "{method}: no `{t}` in\n{out}");
        }
        assert!(!out.contains("<a href"), "{method}: HTML left in\n{out}");
    }
}

#[test]
fn show_finds_inherited_methods_and_filters_by_descriptor() {
    let (code, out, _) = run(&["kat", "show", "java.lang.StringBuilder.charAt"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("java.lang.AbstractStringBuilder.charAt(int index)"), "{out}");
    let (code, out, _) = run(&["kat", "show", "java/util/Map$Entry.setValue"]);
    assert_eq!(code, 0, "internal names are accepted");
    assert!(out.starts_with("java.util.Map.Entry.setValue("), "{out}");
    let (code, out, _) = run(&["kat", "show", "java.lang.String.substring", "--descriptor", "(II)Ljava/lang/String;"]);
    assert_eq!(code, 0);
    assert_eq!(out.matches("java.lang.String.substring(").count(), 1, "{out}");
    assert!(out.contains("beginIndex < 0 || endIndex > this.length() || beginIndex > endIndex"), "{out}");
}

#[test]
fn show_json_is_machine_readable() {
    let (code, out, err) = run(&[
        "kat",
        "show",
        "java.util.Objects.requireNonNull",
        "--descriptor",
        "(Ljava/lang/Object;)Ljava/lang/Object;",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["owner"], "java/util/Objects");
    let npe = &v["clauses"][0];
    assert_eq!(npe["origin"], "throws java/lang/NullPointerException");
    assert_eq!(npe["condition"], "obj == null");
    assert_eq!(npe["triggers"][0]["kind"], "T1");
}

#[test]
fn stats_count_triggers_per_type_and_package() {
    let (code, out, err) = run(&["kat", "stats"]);
    assert_eq!(code, 0, "{err}");
    let with_triggers: usize = out
        .lines()
        .next()
        .and_then(|l| l.rsplit("methods with triggers ").next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no count in {out}"));
    assert!(with_triggers >= 2000, "{out}");
    for row in ["T1 Nullness", "T2 Range", "T3 CallDependency", "T4 Other", "\njava.util ", "\njava.lang "] {
        assert!(out.contains(row), "missing {row:?} in {out}");
    }
}

#[test]
fn unknown_methods_and_bad_files_are_input_errors() {
    let (code, _, err) = run(&["kat", "show", "java.lang.String.nope"]);
    assert_eq!(code, 3);
    assert!(err.starts_with("error: no method java.lang.String.nope in the knowledge graph;"), "{err}");
    let tmp = tempfile::tempdir().unwrap();
    let junk = tmp.path().join("junk.kg");
    std::fs::write(&junk, b"not a graph").unwrap();
    let (code, _, err) = run(&["kat", "stats", "--kg", junk.to_str().unwrap()]);
    assert_eq!(code, 3);
    assert!(err.contains("not a ferrosuite knowledge graph"), "{err}");
    let (code, _, err) =
        run(&["kat", "build-kg", "--src-zip", "/nonexistent/src.zip", "--out", junk.to_str().unwrap()]);
    assert_eq!(code, 3);
    assert!(err.contains("openjdk-17-source"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let (code, _, err) = run(&["kat", "build-kg", "--src-zip", junk.to_str().unwrap(), "--out", "/dev/null"]);
    assert_eq!(code, 3);
    assert!(err.contains("not a readable zip archive"), "{err}");
}

#[test]
fn build_kg_writes_a_graph_that_the_other_commands_read() {
    let tmp = tempfile::tempdir().unwrap();
    let out_path = tmp.path().join("jdk.kg");
    let kg = out_path.to_str().unwrap();
    let (code, out, err) = run(&["kat", "build-kg", "--src-zip", SRC_ZIP, "--out", kg]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("built in "), "{out}");
    let (code, out, _) = run(&["kat", "show", "java.util.ArrayList", "--kg", kg]);
    assert_eq!(code, 0);
    assert!(out.contains("throws java.lang.IllegalArgumentException when initialCapacity < 0"), "{out}");
}

/// `testdata/kat/src` compiled into a jar in `dir`.
fn misuse_jar(dir: &std::path::Path) -> std::path::PathBuf {
    let classes = dir.join("classes");
    util::javac_dir(&util::repo().join("testdata/kat/src"), &classes, &[]);
    let jar = dir.join("misuse.jar");
    util::jar_dir(&classes, &jar);
    jar
}

#[test]
fn check_prints_the_potential_misuses_of_a_class_and_totals() {
    let tmp = tempfile::tempdir().unwrap();
    let jar = misuse_jar(tmp.path());
    let (code, out, err) = run(&["kat", "check", "-c", jar.to_str().unwrap(), "--class", "misuse.Calls"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Calls.java:15 java.lang.String.charAt(int) with index >= this.length()  in charAt(Ljava/lang/String;I)C  T2 sat  bug 0.5  knowledge 1.00"),
        "{out}"
    );
    assert!(out.contains("java.util.Iterator.next() with !this.hasNext()  in first("), "{out}");
    // Guarded calls are not listed as potential bugs; with --all they are, as unsat or caught.
    assert!(!out.contains("in charAtGuarded("), "{out}");
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("1 classes, "), "{last}");
    assert!(last.contains(" unsat, 0 unknown;"), "{last}");
    let (_, all, _) = run(&["kat", "check", "-c", jar.to_str().unwrap(), "--class", "misuse.Calls", "--all"]);
    assert!(all.contains("with index < 0  in charAtGuarded(Ljava/lang/String;I)C  T2 unsat  bug 0.0"), "{all}");
    assert!(all.contains("T4 sat  bug 0.5  knowledge 0.90  caught by java.lang.NumberFormatException"), "{all}");
}

#[test]
fn check_json_lists_every_condition_of_every_class_of_a_jar() {
    let tmp = tempfile::tempdir().unwrap();
    let jar = misuse_jar(tmp.path());
    let (code, out, err) = run(&["kat", "check", "--jar", jar.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let checks: serde_json::Value = serde_json::from_str(&out).unwrap();
    let calls = checks.as_array().unwrap().iter().find(|c| c["class"] == "misuse.Calls").expect("misuse.Calls checked");
    let violations = calls["violations"].as_array().unwrap();
    let guarded_next = violations
        .iter()
        .find(|v| v["method"] == "firstGuarded" && v["api"] == "java.util.Iterator.next()")
        .expect("the guarded next() is listed");
    assert_eq!(guarded_next["verdict"], "unsat");
    assert_eq!(guarded_next["condition"], "!this.hasNext()");
    assert!(violations.iter().all(|v| v["line"].is_u64() && v["kinds"].is_array()));
}

#[test]
fn check_errors_name_the_problem() {
    let tmp = tempfile::tempdir().unwrap();
    let jar = misuse_jar(tmp.path());
    let (code, _, err) = run(&["kat", "check", "-c", jar.to_str().unwrap(), "--class", "misuse.Nope"]);
    assert_eq!(code, 3);
    assert!(err.contains("misuse.Nope"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let junk = tmp.path().join("junk.jar");
    std::fs::write(&junk, b"not a jar").unwrap();
    let (code, _, err) = run(&["kat", "check", "--jar", junk.to_str().unwrap()]);
    assert_eq!(code, 3);
    assert!(err.contains("junk.jar"), "{err}");
    let (code, _, err) = run(&["kat", "check", "-c", jar.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--class") || err.contains("--jar"), "{err}");
}

#[test]
fn check_skips_what_it_cannot_resolve_and_bounds_each_query() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = tmp.path().join("classes");
    util::javac_dir(&util::repo().join("testdata/kat/src"), &classes, &[]);
    std::fs::remove_file(classes.join("misuse/Gone.class")).unwrap();
    // A class whose calls reference a missing class: its documented calls are still checked.
    let cp = classes.to_str().unwrap();
    let (code, out, err) = run(&["kat", "check", "-c", cp, "--class", "misuse.Uses"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("java.lang.String.charAt(int) with index >= this.length()  in use("), "{out}");
    // A query limit of 1 ms: every condition still gets a verdict, none crashes.
    let (code, out, err) = run(&["kat", "check", "-c", cp, "--class", "misuse.Calls", "--timeout-ms", "1", "--all"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().last().unwrap().starts_with("1 classes, "), "{out}");
}
