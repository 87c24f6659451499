//! `report.sarif`: every finding of every oracle as a SARIF 2.1.0 result
//! (OASIS Static Analysis Results Interchange Format), for GitHub code
//! scanning and IDEs. Built with `serde-sarif`'s types, checked against the
//! OASIS schema (`testdata/sarif/sarif-schema-2.1.0.json`) by the tests.
//!
//! One run of the tool `ferrosuite`; one rule per finding kind
//! (`api-misuse` of KAT, `contract`, `suspicious-assertion` of ZoomIn,
//! `theory` of Palus, any other as it comes); one result per finding, at
//! level `warning`: its message and witness test, the class's source file
//! and line when the finding has a location (the file where the sources
//! have it: a relative path as it is, an absolute one as a `file:` URI;
//! without sources `a/b/C.java`, relative to the source root `SRCROOT`), the method as a logical location, and the
//! finding's origin, confidence, witness file and stack trace as
//! properties.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::sources::Sources;
use serde_sarif::sarif::{
    ArtifactLocation, Location, LogicalLocation, Message, MultiformatMessageString, PhysicalLocation, PropertyBag,
    Region, ReportingDescriptor, Result as SarifResult, ResultLevel, Run, Sarif, Tool, ToolComponent,
};

/// The schema URI written into the file.
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The base id of the source files' URIs.
pub const SRCROOT: &str = "SRCROOT";

/// A rule's short description for the finding kinds ferrosuite's oracles report.
fn rule_text(kind: &str) -> String {
    match kind {
        "api-misuse" => "A call into the JDK can violate a condition its documentation states (KAT)".into(),
        "contract" => "An object breaks the contract of equals, hashCode, toString or compareTo".into(),
        "suspicious-assertion" => {
            "A generated assertion contradicts invariants of the project's own tests (ZoomIn)".into()
        }
        "theory" => "A JUnit theory of the project fails on generated objects (Palus)".into(),
        other => format!("A likely bug of kind {other}"),
    }
}

/// The SARIF log of `report` (a parsed `report.json`).
pub fn sarif_of(report: &Value, sources: &Sources) -> Sarif {
    let mut kinds: BTreeMap<String, ()> = BTreeMap::new();
    let mut results = Vec::new();
    for class in report["classes"].as_array().into_iter().flatten() {
        for finding in class["findings"].as_array().into_iter().flatten() {
            let kind = finding["kind"].as_str().unwrap_or("finding").to_string();
            kinds.insert(kind.clone(), ());
            results.push(result_of(class, finding, &kind, sources));
        }
    }
    let rules: Vec<ReportingDescriptor> = kinds
        .keys()
        .map(|kind| {
            let mut rule = ReportingDescriptor::builder().id(kind.clone()).build();
            rule.name = Some(kind.clone());
            rule.short_description = Some(MultiformatMessageString::builder().text(rule_text(kind)).build());
            rule
        })
        .collect();
    let mut driver = ToolComponent::builder().name("ferrosuite".to_string()).build();
    driver.version = report["version"].as_str().map(String::from);
    driver.rules = Some(rules);
    let mut run = Run::builder().tool(Tool::builder().driver(driver).build()).build();
    run.results = Some(results);
    let mut log = Sarif::builder().version(Value::from("2.1.0")).runs(vec![run]).build();
    log.schema = Some(SCHEMA.into());
    log
}

/// One finding of `class` as a result of rule `kind`.
fn result_of(class: &Value, finding: &Value, kind: &str, sources: &Sources) -> SarifResult {
    let class_name = class["class"].as_str().unwrap_or_default();
    let witness = finding["witness"].as_str().unwrap_or_default();
    let findings_file = class["findings_file"].as_str();
    let text = format!(
        "{} (witness test {}{witness})",
        finding["message"].as_str().unwrap_or_default(),
        findings_file
            .map(|f| format!("{}#", f.rsplit('/').next().unwrap_or(f).trim_end_matches(".java")))
            .unwrap_or_default()
    );
    let method = finding["method"].as_str().unwrap_or_default();
    let logical = LogicalLocation {
        fully_qualified_name: Some(format!("{class_name}.{}", method.split('(').next().unwrap_or(method))),
        decorated_name: Some(method.to_string()),
        kind: Some("function".into()),
        ..Default::default()
    };
    let location = Location {
        physical_location: finding["location"].as_str().and_then(|l| physical(class_name, l, sources)),
        logical_locations: Some(vec![logical]),
        ..Default::default()
    };
    let mut properties: BTreeMap<String, Value> = BTreeMap::new();
    for key in ["origin", "confidence", "witness", "more_witnesses", "stack_trace", "score", "invariant"] {
        if !finding[key].is_null() {
            properties.insert(key.to_string(), finding[key].clone());
        }
    }
    if let Some(file) = findings_file {
        properties.insert("witness_file".into(), Value::from(file));
    }
    let mut result = SarifResult::builder().message(Message { text: Some(text), ..Default::default() }).build();
    result.rule_id = Some(kind.to_string());
    result.level = Some(ResultLevel::Warning);
    result.locations = Some(vec![location]);
    result.properties = Some(PropertyBag { additional_properties: properties, ..Default::default() });
    result
}

/// The source file and line of a finding's `File.java:LINE` in the
/// package of `class` (`a.b.C` and `C.java:12` give `a/b/C.java`, line 12),
/// where `sources` finds it.
fn physical(class: &str, location: &str, sources: &Sources) -> Option<PhysicalLocation> {
    let (file, line) = location.rsplit_once(':')?;
    let line: i64 = line.parse().ok().filter(|l| *l > 0)?;
    let package = class.rsplit_once('.').map_or(String::new(), |(p, _)| format!("{}/", p.replace('.', "/")));
    let rel = format!("{package}{file}");
    let (uri, base) = match sources.locate(&rel) {
        Some(path) if path.is_absolute() => (format!("file://{}", path.display()), None),
        Some(path) => (path.display().to_string(), None),
        None => (rel, Some(SRCROOT.to_string())),
    };
    Some(PhysicalLocation {
        artifact_location: Some(ArtifactLocation { uri: Some(uri), uri_base_id: base, ..Default::default() }),
        region: Some(Region { start_line: Some(line), ..Default::default() }),
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finding_with_a_location_points_at_its_source_line_and_names_its_witness() {
        let report = serde_json::json!({"version": "0.1.0", "classes": [{
            "class": "a.b.C", "findings_file": "a/b/C_FerroFindingsTest.java",
            "findings": [{"origin": "kat", "kind": "api-misuse", "method": "m(I)V", "location": "C.java:12",
                          "message": "charAt throws", "witness": "test3", "confidence": 0.9}]}]});
        let log = serde_json::to_value(sarif_of(&report, &Sources::default())).unwrap();
        let result = &log["runs"][0]["results"][0];
        assert_eq!(result["ruleId"], "api-misuse");
        assert_eq!(result["level"], "warning");
        assert_eq!(result["message"]["text"], "charAt throws (witness test C_FerroFindingsTest#test3)");
        let physical = &result["locations"][0]["physicalLocation"];
        assert_eq!(physical["artifactLocation"]["uri"], "a/b/C.java");
        assert_eq!(physical["region"]["startLine"], 12);
        assert_eq!(result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"], "a.b.C.m");
        assert_eq!(result["properties"]["confidence"], 0.9);
        assert_eq!(log["runs"][0]["tool"]["driver"]["rules"][0]["id"], "api-misuse");
        assert_eq!(log["version"], "2.1.0");
    }
}
