//! `report.html`, parsed as a browser would (html5ever through `scraper`):
//! one summary row and one section per class, coverage bars, the
//! uncovered lines marked on the source found in a source folder, a
//! finding with its witness test's code, timings; and nothing loaded from
//! outside the file (no script, no stylesheet link, no image, every link
//! an anchor of the page).

use scraper::{Html, Selector};
use serde_json::json;

fn select<'a>(page: &'a Html, css: &str) -> Vec<scraper::ElementRef<'a>> {
    page.select(&Selector::parse(css).unwrap()).collect()
}

#[test]
fn the_page_shows_each_class_its_uncovered_lines_and_findings_and_loads_nothing_external() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("a")).unwrap();
    std::fs::write(
        src.join("a/Box.java"),
        "package a;\nclass Box {\n  int f(int x) {\n    if (x > 0) {\n      return 1;\n    }\n    return 2;\n  }\n}\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir_all(out.join("a")).unwrap();
    std::fs::write(
        out.join("a/Box_FerroFindingsTest.java"),
        "public class Box_FerroFindingsTest {\n    // Likely bug\n    @Test\n    public void test1() {\n        new Box().f(-1);\n    }\n}\n",
    )
    .unwrap();
    let report = json!({"version": "0.1.0", "seed": 7, "classes": [
        {"class": "a.Box", "status": "ok", "tests": 3, "assertions": 4, "test_file": "a/Box_FerroTest.java",
         "goals": {"branch": {"total": 2, "covered": 1}, "line": {"total": 4, "covered": 3}},
         "seconds": {"search": 1.5, "total": 2.5},
         "uncovered": [{"goal": "Box.java:4 if (x > 0) true", "cause": "search-budget", "kind": "branch"},
                       {"goal": "Box.java:5", "cause": "search-budget", "kind": "line"}],
         "uncovered_by_cause": {"search-budget": 1},
         "findings_file": "a/Box_FerroFindingsTest.java",
         "findings": [{"origin": "contracts", "kind": "contract", "method": "f(I)I", "location": "Box.java:7",
                       "message": "f <breaks> a contract", "witness": "test1", "confidence": 0.5}]},
        {"class": "b.Other", "status": "failed", "message": "cannot read b.Other", "goals": {}}]});
    let html = reports::html::html_of(&report, &out, &reports::Sources::new(vec![src]));
    let page = Html::parse_document(&html);

    assert_eq!(select(&page, "table.summary tr").len(), 3, "a header and a row per class");
    assert_eq!(select(&page, "section").len(), 2);
    assert!(select(&page, "section#c-a-Box .bar > div").iter().any(|d| d.value().attr("style") == Some("width:50%")));
    let missed: Vec<String> =
        select(&page, "section#c-a-Box tr.miss td.n").iter().map(|e| e.text().collect()).collect();
    assert_eq!(missed, ["5"], "line 5 never ran");
    let partial: Vec<String> = select(&page, "tr.part td.why").iter().map(|e| e.text().collect()).collect();
    assert_eq!(partial, ["if (x > 0) true: search-budget"]);
    let code: String = select(&page, "section#c-a-Box pre")[0].text().collect();
    assert!(code.starts_with("// Likely bug\n@Test\npublic void test1() {"), "{code}");
    assert!(page.root_element().text().any(|t| t.contains("f <breaks> a contract")), "escaped text shows as text");
    assert!(html.contains("Time: search 1.5 s · total 2.5 s"), "timings");
    assert!(select(&page, "section#c-b-Other p.failed")[0].text().collect::<String>().contains("cannot read b.Other"));

    assert!(select(&page, "script, link, img, iframe, object, embed, source, video, audio").is_empty());
    for e in select(&page, "[href], [src]") {
        let target = e.value().attr("href").or(e.value().attr("src")).unwrap();
        assert!(target.starts_with('#'), "an external resource: {target}");
    }
    let style: String = select(&page, "style").iter().map(|s| s.text().collect::<String>()).collect();
    assert!(!style.contains("url(") && !style.contains("@import"), "{style}");
}

#[test]
fn without_sources_the_uncovered_goals_are_listed_with_a_hint() {
    let report = json!({"classes": [{"class": "a.Box", "status": "ok", "goals": {},
        "uncovered": [{"goal": "Box.java:5", "cause": "object-state", "kind": "line"}]}]});
    let page =
        Html::parse_document(&reports::html::html_of(&report, std::path::Path::new("."), &reports::Sources::default()));
    let items: Vec<String> = select(&page, "section li").iter().map(|e| e.text().collect()).collect();
    assert_eq!(items, ["5: line  object-state"]);
    assert!(page.root_element().text().any(|t| t.contains("give --sources")));
}
