//! Scale-out with the real binary: `generate --shard K/N` on a jar gives
//! each class to exactly one shard, records the shard in `report.json` and
//! writes `report.csv`; `ferrosuite merge` combines the shards' folders
//! into one with every test file and one report of every class.

mod util;

use std::collections::BTreeSet;
use std::path::Path;

fn classes_of(dir: &Path) -> BTreeSet<String> {
    let report = report_of(dir);
    report["classes"].as_array().unwrap().iter().map(|c| c["class"].as_str().unwrap().to_string()).collect()
}

fn report_of(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap()
}

fn csv_rows(dir: &Path) -> usize {
    csv::Reader::from_path(dir.join("report.csv")).unwrap().records().map(Result::unwrap).count()
}

#[test]
fn shards_partition_a_jar_and_merge_combines_their_tests_and_reports() {
    let tmp = tempfile::tempdir().unwrap();
    let jar = util::sized_classes_jar(tmp.path(), 3);
    let jar = jar.to_str().unwrap();
    let mut shards = Vec::new();
    for k in 1..=2 {
        let out = tmp.path().join(format!("shard{k}"));
        let shard = format!("{k}/2");
        util::ferrosuite_ok(&[
            "generate",
            "-c",
            jar,
            "--jar",
            jar,
            "--shard",
            &shard,
            "--evaluations",
            "200",
            "--seed",
            "1",
            "--no-kat",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(report_of(&out)["shard"], shard.as_str());
        assert_eq!(csv_rows(&out), classes_of(&out).len(), "one CSV row per class");
        shards.push(out);
    }
    let (a, b) = (classes_of(&shards[0]), classes_of(&shards[1]));
    assert!(a.is_disjoint(&b), "{a:?} {b:?}");
    let all: BTreeSet<String> = a.union(&b).cloned().collect();
    assert_eq!(all, ["p.C0", "p.C1", "p.C2"].map(String::from).into_iter().collect());
    assert!(!a.is_empty() && !b.is_empty(), "the largest class alone balances the two others: {a:?} {b:?}");

    let merged = tmp.path().join("merged");
    let args = [shards[0].to_str().unwrap(), shards[1].to_str().unwrap(), "--out", merged.to_str().unwrap()];
    let out = util::ferrosuite_ok(&[&["merge"][..], &args[..]].concat());
    assert!(out.contains("merged 3 classes from 2 folders"), "{out}");
    assert_eq!(classes_of(&merged), all);
    assert_eq!(csv_rows(&merged), 3);
    for class in report_of(&merged)["classes"].as_array().unwrap() {
        let file = class["test_file"].as_str().unwrap();
        assert!(merged.join(file).is_file(), "{file} copied");
    }
    assert_eq!(report_of(&merged)["merged"].as_array().unwrap().len(), 2);

    // Merging a shard twice is an error that names the class and both folders.
    let again = util::ferrosuite(&[
        "merge",
        shards[0].to_str().unwrap(),
        shards[0].to_str().unwrap(),
        "--out",
        tmp.path().join("twice").to_str().unwrap(),
    ]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("merge each shard once"), "{again:?}");
}
