//! `report.csv`: one row per class of `report.json`, for a spreadsheet or
//! a CI dashboard. It is made from the JSON (not from `generate::Report`),
//! so `ferrosuite merge` makes it from the shards' reports too.
//!
//! Columns: `class`, `status`, `branches_covered`, `branches_total`,
//! `branch_percent`, `lines_covered`, `lines_total`, `line_percent`,
//! `methods_covered`, `methods_total`, `tests`, `assertions`,
//! `removed_tests`, `mutants`, `mutants_killed`, `findings`, `seconds`,
//! `test_file`, `message`. A percentage is empty for a class without goals
//! of that kind.

use serde_json::Value;

/// The column names, in order.
pub const COLUMNS: [&str; 19] = [
    "class",
    "status",
    "branches_covered",
    "branches_total",
    "branch_percent",
    "lines_covered",
    "lines_total",
    "line_percent",
    "methods_covered",
    "methods_total",
    "tests",
    "assertions",
    "removed_tests",
    "mutants",
    "mutants_killed",
    "findings",
    "seconds",
    "test_file",
    "message",
];

/// The CSV text of `report` (a parsed `report.json`): a header and one row per class.
pub fn csv_of(report: &Value) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(COLUMNS).expect("writing to memory");
    for class in report["classes"].as_array().into_iter().flatten() {
        w.write_record(row(class)).expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("CSV of UTF-8 fields")
}

/// One class's fields, in [`COLUMNS`] order.
fn row(c: &Value) -> Vec<String> {
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    let count = |kind: &str, field: &str| c["goals"][kind][field].as_u64().unwrap_or(0);
    let percent = |kind: &str| {
        let total = count(kind, "total");
        if total == 0 { String::new() } else { format!("{:.1}", 100.0 * count(kind, "covered") as f64 / total as f64) }
    };
    let seconds = c["seconds"]["total"].as_f64().map_or(String::new(), |s| format!("{s:.1}"));
    vec![
        text(&c["class"]),
        text(&c["status"]),
        count("branch", "covered").to_string(),
        count("branch", "total").to_string(),
        percent("branch"),
        count("line", "covered").to_string(),
        count("line", "total").to_string(),
        percent("line"),
        count("method", "covered").to_string(),
        count("method", "total").to_string(),
        text(&c["tests"]),
        text(&c["assertions"]),
        text(&c["removed_tests"]),
        text(&c["mutants"]["total"]),
        text(&c["mutants"]["killed"]),
        c["findings"].as_array().map_or(0, Vec::len).to_string(),
        seconds,
        text(&c["test_file"]),
        text(&c["message"]),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_row_per_class_with_percentages_and_quoted_messages() {
        let report = serde_json::json!({"classes": [
            {"class": "p.A", "status": "ok", "goals": {"branch": {"total": 8, "covered": 6}, "line": {"total": 10, "covered": 10}},
             "tests": 4, "assertions": 9, "removed_tests": 1, "mutants": {"total": 20, "killed": 15},
             "findings": [{}, {}], "seconds": {"total": 61.25}, "test_file": "p/A_FerroTest.java", "message": null},
            {"class": "p.B", "status": "failed", "goals": {}, "message": "cannot read, \"B\"", "findings": []}
        ]});
        let text = csv_of(&report);
        let mut r = csv::Reader::from_reader(text.as_bytes());
        assert_eq!(r.headers().unwrap().iter().collect::<Vec<_>>(), COLUMNS);
        let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 2);
        let a: Vec<&str> = rows[0].iter().collect();
        assert_eq!(
            a,
            [
                "p.A",
                "ok",
                "6",
                "8",
                "75.0",
                "10",
                "10",
                "100.0",
                "0",
                "0",
                "4",
                "9",
                "1",
                "20",
                "15",
                "2",
                "61.2",
                "p/A_FerroTest.java",
                ""
            ]
        );
        assert_eq!(&rows[1][4], "", "no branch goals: no percentage");
        assert_eq!(&rows[1][18], "cannot read, \"B\"");
    }
}
