//! `report.sarif` validates against the OASIS SARIF 2.1.0 JSON schema
//! (shipped as `testdata/sarif/sarif-schema-2.1.0.json`), for a report with
//! findings of every oracle (with and without a source location) and for
//! one without findings; and a log the schema rejects is rejected, so the
//! check can fail.

use serde_json::{Value, json};

/// The OASIS schema. Its pattern for `run.language` has a lone `]`, a
/// literal in ECMA-262 regular expressions but an error for the validator's
/// Rust regex check of the schema itself; it is escaped here (the same
/// language), and the file stays as published.
fn schema() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/sarif/sarif-schema-2.1.0.json");
    let text = std::fs::read_to_string(path).unwrap();
    let lone = r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#;
    assert!(text.contains(lone), "the published schema changed");
    serde_json::from_str(&text.replace(lone, r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\\]?$""#)).unwrap()
}

fn errors(log: &Value) -> Vec<String> {
    let validator = jsonschema::validator_for(&schema()).expect("the schema compiles");
    validator.iter_errors(log).map(|e| format!("{} at {}", e, e.instance_path())).collect()
}

#[test]
fn the_sarif_of_findings_of_every_oracle_validates_against_the_schema() {
    let finding = |origin: &str, kind: &str, location: Option<&str>| {
        let mut f = json!({"origin": origin, "kind": kind, "method": "parse(Ljava/lang/String;)I",
            "message": format!("{kind} seen"), "witness": "test1", "confidence": 0.75,
            "stack_trace": ["java.lang.String.charAt(String.java:1515)"]});
        if let Some(l) = location {
            f["location"] = json!(l);
        }
        f
    };
    let report = json!({"version": "0.1.0", "seed": 1, "classes": [
        {"class": "a.b.Parser", "findings_file": "a/b/Parser_FerroFindingsTest.java", "findings": [
            finding("kat", "api-misuse", Some("Parser.java:40")),
            finding("contracts", "contract", None),
            finding("zoomin", "suspicious-assertion", Some("Parser.java:7")),
            finding("theories", "theory", None)]},
        {"class": "Top", "findings": []}]});
    let log = serde_json::to_value(reports::sarif::sarif_of(&report, &reports::Sources::default())).unwrap();
    assert_eq!(errors(&log), Vec::<String>::new());
    assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), 4);
    assert_eq!(log["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap().len(), 4);

    let empty = serde_json::to_value(reports::sarif::sarif_of(
        &json!({"version": "0.1.0", "classes": []}),
        &reports::Sources::default(),
    ))
    .unwrap();
    assert_eq!(errors(&empty), Vec::<String>::new());

    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["level"] = json!("fatal");
    assert!(!errors(&broken).is_empty(), "a level the schema does not know is rejected");
}
