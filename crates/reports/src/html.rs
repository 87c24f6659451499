//! `report.html`: the run as one self-contained page (inline style, no
//! script, no link to anything outside the file), to open in a browser or
//! keep as a CI artifact: a summary table of the classes with coverage
//! bars, then per class its coverage by counter, its timings, why goals
//! stay uncovered, its findings with the code of their witness tests, and,
//! when the sources are given ([`Sources`]), the source files with the
//! uncovered lines in red and the lines with an uncovered branch side in
//! yellow, each with the causes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;

use crate::sources::Sources;

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}\
table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;vertical-align:top}\
th{border-bottom:1px solid #999}.bar{display:inline-block;width:120px;height:10px;background:#e33;\
margin-right:6px}.bar>div{height:10px;background:#3a3}.ok{color:#282}.partial,.failed{color:#b30}\
section{border-top:2px solid #ccc;margin-top:2em}pre{background:#f6f6f6;padding:8px;overflow-x:auto}\
.src td{padding:0 6px;font:12px monospace;white-space:pre}.src td.n{color:#888;text-align:right}\
tr.miss{background:#fdd}tr.part{background:#ffc}td.why{color:#666;font-family:system-ui}";

/// The page for `report` (a parsed `report.json`); `out` is the folder of
/// the test files the report names (for the witness tests' code).
pub fn html_of(report: &Value, out: &Path, sources: &Sources) -> String {
    let classes: Vec<&Value> = report["classes"].as_array().map(|a| a.iter().collect()).unwrap_or_default();
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>ferrosuite report</title>\
         <style>{STYLE}</style></head><body>\n<h1>ferrosuite report</h1>\n<p>ferrosuite {}, seed {}, {} classes</p>\n",
        esc(report["version"].as_str().unwrap_or("?")),
        report["seed"],
        classes.len()
    );
    page.push_str(&summary(&classes));
    for class in &classes {
        page.push_str(&class_section(class, out, sources));
    }
    page.push_str("</body></html>\n");
    page
}

/// HTML-escaped `s`.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The anchor of a class's section.
fn anchor(class: &Value) -> String {
    format!("c-{}", class["class"].as_str().unwrap_or_default().replace(['.', '$'], "-"))
}

/// A coverage bar and its numbers for goals of `kind`; empty without such goals.
fn bar(class: &Value, kind: &str) -> String {
    let count = |f: &str| class["goals"][kind][f].as_u64().unwrap_or(0);
    let (covered, total) = (count("covered"), count("total"));
    if total == 0 {
        return "-".into();
    }
    let pct = 100.0 * covered as f64 / total as f64;
    format!("<span class=\"bar\"><div style=\"width:{pct:.0}%\"></div></span>{covered}/{total} ({pct:.1}%)")
}

/// The table of every class.
fn summary(classes: &[&Value]) -> String {
    let mut t = String::from(
        "<table class=\"summary\"><tr><th>class</th><th>status</th><th>branches</th><th>lines</th>\
         <th>tests</th><th>findings</th><th>seconds</th></tr>\n",
    );
    for c in classes {
        let status = c["status"].as_str().unwrap_or("?");
        let _ = writeln!(
            t,
            "<tr><td><a href=\"#{}\">{}</a></td><td class=\"{status}\">{status}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{:.1}</td></tr>",
            anchor(c),
            esc(c["class"].as_str().unwrap_or_default()),
            bar(c, "branch"),
            bar(c, "line"),
            c["tests"].as_u64().unwrap_or(0),
            c["findings"].as_array().map_or(0, Vec::len),
            c["seconds"]["total"].as_f64().unwrap_or(0.0)
        );
    }
    t.push_str("</table>\n");
    t
}

/// One class's section.
fn class_section(class: &Value, out: &Path, sources: &Sources) -> String {
    let name = class["class"].as_str().unwrap_or_default();
    let status = class["status"].as_str().unwrap_or("?");
    let mut s = format!("<section id=\"{}\"><h2>{}</h2>\n", anchor(class), esc(name));
    let _ = writeln!(
        s,
        "<p class=\"{status}\">{status}{}</p>",
        class["message"].as_str().map(|m| format!(": {}", esc(m))).unwrap_or_default()
    );
    s.push_str("<table>");
    for kind in class["goals"].as_object().map(|g| g.keys().cloned().collect::<Vec<_>>()).unwrap_or_default() {
        let _ = write!(s, "<tr><td>{}</td><td>{}</td></tr>", esc(&kind), bar(class, &kind));
    }
    s.push_str("</table>\n");
    if let Some(file) = class["test_file"].as_str() {
        let _ = writeln!(
            s,
            "<p>{} tests, {} assertions: <code>{}</code></p>",
            class["tests"],
            class["assertions"],
            esc(file)
        );
    }
    s.push_str(&timings(class));
    s.push_str(&causes(class));
    s.push_str(&findings(class, out));
    s.push_str(&source_view(class, sources));
    s.push_str("</section>\n");
    s
}

/// The seconds of each stage.
fn timings(class: &Value) -> String {
    let parts: Vec<String> = ["search", "post-processing", "verification", "final-coverage", "total"]
        .iter()
        .filter_map(|k| class["seconds"][k].as_f64().map(|v| format!("{k} {v:.1} s")))
        .collect();
    if parts.is_empty() { String::new() } else { format!("<p>Time: {}</p>\n", parts.join(" · ")) }
}

/// The uncovered branch goals by cause.
fn causes(class: &Value) -> String {
    let Some(by_cause) = class["uncovered_by_cause"].as_object().filter(|m| !m.is_empty()) else {
        return String::new();
    };
    let mut s = String::from("<h3>Why branches stay uncovered</h3><table><tr><th>cause</th><th>branch goals</th></tr>");
    for (cause, n) in by_cause {
        let _ = write!(s, "<tr><td>{}</td><td>{n}</td></tr>", esc(cause));
    }
    s.push_str("</table>\n");
    s
}

/// The findings, each with its witness test's code.
fn findings(class: &Value, out: &Path) -> String {
    let Some(list) = class["findings"].as_array().filter(|l| !l.is_empty()) else { return String::new() };
    let file = class["findings_file"].as_str();
    let text = file.and_then(|f| std::fs::read_to_string(out.join(f)).ok()).unwrap_or_default();
    let mut s = format!("<h3>Findings ({})</h3>\n", list.len());
    for f in list {
        let witness = f["witness"].as_str().unwrap_or_default();
        let _ = writeln!(
            s,
            "<p><b>{}</b> ({}, confidence {}) {}: {}</p>",
            esc(f["kind"].as_str().unwrap_or_default()),
            esc(f["origin"].as_str().unwrap_or_default()),
            f["confidence"],
            esc(f["location"].as_str().unwrap_or_else(|| f["method"].as_str().unwrap_or_default())),
            esc(f["message"].as_str().unwrap_or_default())
        );
        let code = method_code(&text, witness).unwrap_or_else(|| format!("test {witness} in {}", file.unwrap_or("?")));
        let _ = writeln!(s, "<pre>{}</pre>", esc(&code));
    }
    s
}

/// The code of test method `name` in a test file's `text`: its comments
/// and annotations, then its body up to the matching brace.
pub fn method_code(text: &str, name: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| l.contains(&format!(" void {name}(")))?;
    let mut start = at;
    while start > 0 && matches!(lines[start - 1].trim_start().chars().next(), Some('@' | '/' | '*')) {
        start -= 1;
    }
    let mut depth = 0i32;
    let mut end = at;
    for (i, l) in lines.iter().enumerate().skip(at) {
        depth += l.matches('{').count() as i32 - l.matches('}').count() as i32;
        end = i;
        if depth <= 0 && l.contains('}') {
            break;
        }
    }
    let indent = lines[at].len() - lines[at].trim_start().len();
    Some(lines[start..=end].iter().map(|l| l.get(indent..).unwrap_or(l.trim_start())).collect::<Vec<_>>().join("\n"))
}

/// The uncovered goals by source file and line: `(file, line) -> [(kind, text, cause)]`.
type Misses = BTreeMap<String, BTreeMap<u32, Vec<(String, String, String)>>>;

/// The uncovered goals of `class` whose labels start with `File.java:LINE`.
fn misses(class: &Value) -> Misses {
    let mut out = Misses::new();
    for u in class["uncovered"].as_array().into_iter().flatten() {
        let goal = u["goal"].as_str().unwrap_or_default();
        let (place, rest) = goal.split_once(' ').unwrap_or((goal, ""));
        let Some((file, line)) = place.rsplit_once(':') else { continue };
        let Ok(line) = line.parse::<u32>() else { continue };
        let entry = (
            u["kind"].as_str().unwrap_or("").to_string(),
            rest.to_string(),
            u["cause"].as_str().unwrap_or("").to_string(),
        );
        out.entry(file.to_string()).or_default().entry(line).or_default().push(entry);
    }
    out
}

/// The source files with their uncovered lines marked, or the uncovered
/// goals as a list when the sources are not at hand.
fn source_view(class: &Value, sources: &Sources) -> String {
    let misses = misses(class);
    if misses.is_empty() {
        return String::new();
    }
    let name = class["class"].as_str().unwrap_or_default();
    let package = name.rsplit_once('.').map_or(String::new(), |(p, _)| format!("{}/", p.replace('.', "/")));
    let mut s = String::from("<h3>Uncovered code</h3>\n");
    for (file, lines) in &misses {
        let rel = format!("{package}{file}");
        match sources.read(&rel) {
            Some(text) => s.push_str(&annotated_source(&rel, &text, lines)),
            None => {
                let hint = if sources.is_empty() {
                    " (give --sources to see them on the source)"
                } else {
                    " (source not found)"
                };
                let _ = write!(s, "<p><code>{}</code>{hint}</p><ul>", esc(&rel));
                for (line, goals) in lines {
                    for (kind, text, cause) in goals {
                        let _ = write!(s, "<li>{line}: {} {} <i>{}</i></li>", esc(kind), esc(text), esc(cause));
                    }
                }
                s.push_str("</ul>\n");
            }
        }
    }
    s
}

/// One source file as a table of lines, uncovered ones marked.
fn annotated_source(rel: &str, text: &str, misses: &BTreeMap<u32, Vec<(String, String, String)>>) -> String {
    let mut s = format!("<p><code>{}</code></p><table class=\"src\">\n", esc(rel));
    for (i, line) in text.lines().enumerate() {
        let n = i as u32 + 1;
        let (class, why) = match misses.get(&n) {
            Some(goals) if goals.iter().any(|(k, _, _)| k == "line") => {
                let cause = goals.iter().find(|(k, _, _)| k == "line").map(|(_, _, c)| c.clone()).unwrap_or_default();
                (" class=\"miss\"", format!("not run: {cause}"))
            }
            Some(goals) => {
                let sides: Vec<String> = goals.iter().map(|(_, t, c)| format!("{t}: {c}")).collect();
                (" class=\"part\"", sides.join("; "))
            }
            None => ("", String::new()),
        };
        let _ = writeln!(
            s,
            "<tr{class}><td class=\"n\">{n}</td><td>{}</td><td class=\"why\">{}</td></tr>",
            esc(line),
            esc(&why)
        );
    }
    s.push_str("</table>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_witness_test_is_cut_out_with_its_comment_and_annotation() {
        let text = "class T {\n    // Likely bug\n    @Test\n    public void test2() {\n        if (x) { y(); }\n    }\n\n    @Test\n    public void test3() {}\n}\n";
        assert_eq!(
            method_code(text, "test2").unwrap(),
            "// Likely bug\n@Test\npublic void test2() {\n    if (x) { y(); }\n}"
        );
        assert_eq!(method_code(text, "test3").unwrap(), "@Test\npublic void test3() {}");
        assert_eq!(method_code(text, "test9"), None);
    }
}
