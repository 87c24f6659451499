//! The instrumented fixtures behave exactly like the originals: the driver
//! of `testdata/fixtures` prints the same lines with both, under
//! `-Xverify:all`, for Java 8 and Java 17 class files, with the goal probes
//! and with a probe at every site (and a value-log probe after every
//! logged call, recording).

mod util;

fn check(flags: &[&str], every_site: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let jar = util::fixtures_jar(tmp.path(), flags);
    let jar = jar.to_str().unwrap();
    let out = tmp.path().join("instrumented");
    let mut args = vec!["instrument", "--jar", jar, "--out", out.to_str().unwrap()];
    if every_site {
        args.push("--every-site");
    }
    let summary = util::ferrosuite_ok(&args);
    // BigCode.nearLimit has a jump of 32,730 bytes: with probes its offset
    // no longer fits in 16 bits, so it is left unchanged and reported.
    assert!(summary.contains("(0 failed, 1 methods left without some probes)"), "{summary}");
    let probes: Vec<instrument::InstrumentedClass> =
        serde_json::from_slice(&std::fs::read(out.join("probes.json")).unwrap()).unwrap();
    let skipped: Vec<String> =
        probes.iter().flat_map(|c| c.skipped.iter().map(move |s| format!("{}.{}", c.class, s.method))).collect();
    assert_eq!(skipped, ["fixtures/BigCode.nearLimit (I)I"]);
    let original = util::java(&["-Xverify:all", "-cp", jar, "fixtures.Driver"]);
    let instrumented_cp = format!("{}:{jar}", out.display());
    // The value log (present with every site) records during the run.
    let instrumented =
        util::java(&["-Xverify:all", "-Dferrosuite.valueLog=1000000", "-cp", &instrumented_cp, "fixtures.Driver"]);
    assert!(original.lines().count() > 200, "driver printed too little:\n{original}");
    let diff: Vec<_> = original.lines().zip(instrumented.lines()).filter(|(a, b)| a != b).take(5).collect();
    assert!(diff.is_empty(), "first differences: {diff:#?}");
    assert_eq!(original.lines().count(), instrumented.lines().count());
}

#[test]
fn java17_fixtures_behave_the_same_instrumented() {
    check(&[], false);
}

#[test]
fn java8_fixtures_behave_the_same_instrumented() {
    check(&["--release", "8"], false);
}

#[test]
fn probes_at_every_site_keep_behaviour() {
    check(&[], true);
}
