//! What ZoomIn tells the developer: the top assertions as findings (kind
//! `suspicious-assertion`), as comments above the assertions in the test
//! sources, and as a summary table.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use generate::Finding;
use serde::Serialize;

use crate::rank::Suspicious;
use crate::run::{Checked, Learned};

/// How many assertions ZoomIn recommends inspecting (the paper's top 5).
pub const DEFAULT_TOP: usize = 5;

/// Violations listed under each assertion of the summary at most.
const MAX_REASONS_SHOWN: usize = 4;

/// The finding kind of a suspicious assertion.
pub const KIND: &str = "suspicious-assertion";

/// The violated invariant and the method of the most unique violation
/// that reaches `s`: (`return.im != 0`, `conjugate()Lp/C;`).
pub fn reason(s: &Suspicious, learned: &Learned, checked: &Checked) -> (String, String) {
    let Some(&k) = s.violations.first() else { return (String::new(), String::new()) };
    let v = &checked.kept[k];
    let invariant = &learned.invariants[v.invariant];
    (invariant.to_string(), learned.method_name(invariant.point.method))
}

/// The comment put above a suspicious assertion.
pub fn comment(s: &Suspicious, learned: &Learned, checked: &Checked) -> String {
    let (invariant, method) = reason(s, learned, checked);
    let simple = method.split('(').next().unwrap_or(&method);
    let more = if s.violations.len() > 1 { format!(" (and {} more)", s.violations.len() - 1) } else { String::new() };
    format!("suspicious (score {:.2}): {invariant} violated in {simple}(){more}", s.score)
}

/// The assertions of the top `top` groups (`Suspicious::group`), in rank order.
pub fn top_assertions(checked: &Checked, top: usize) -> &[Suspicious] {
    let ranked = &checked.ranking.ranked;
    &ranked[..ranked.iter().take_while(|s| s.group <= top).count()]
}

/// The top `top` groups of suspicious assertions as findings of
/// `checked`'s suite, one per group: its test is the witness, its first
/// assertion's line (counted after [`annotate`] put its comments in, when
/// `annotated`) the location.
pub fn findings(learned: &Learned, checked: &Checked, top: usize, annotated: bool) -> Vec<Finding> {
    let chosen = top_assertions(checked, top);
    chosen
        .chunk_by(|a, b| a.group == b.group)
        .map(|group| {
            let s = &group[0];
            let (invariant, method) = reason(s, learned, checked);
            let shift = if annotated { comments_at_or_above(chosen, s) } else { 0 };
            let file = checked.files.get(&s.class).and_then(|f| f.file_name()).map(|f| f.to_string_lossy().to_string());
            let more = if group.len() > 1 {
                let lines: Vec<String> = group[1..].iter().map(|o| o.line.to_string()).collect();
                format!(" (and {} more assertion(s) of the test it reaches, original lines {})", group.len() - 1, lines.join(", "))
            } else {
                String::new()
            };
            Finding {
                origin: "zoomin".into(),
                kind: KIND.into(),
                method,
                location: file.map(|f| format!("{f}:{}", s.line + shift)),
                message: format!(
                    "assertion `{}`{more} is reached by {} value(s) that break invariants of the manual tests, first: {invariant}",
                    s.text,
                    s.violations.len()
                ),
                witness: s.test.clone(),
                more_witnesses: Vec::new(),
                confidence: s.score / (1.0 + s.score),
                stack_trace: Vec::new(),
                score: Some(s.score),
                invariant: Some(invariant),
            }
        })
        .collect()
}

/// Comments that [`annotate`] inserts above `s` in its file (its own included).
fn comments_at_or_above(chosen: &[Suspicious], s: &Suspicious) -> u32 {
    chosen.iter().filter(|o| o.class == s.class && o.line <= s.line).count() as u32
}

/// Puts a `// suspicious (score ..): ..` comment above each assertion of
/// the top `top` groups in its source file.
///
/// # Errors
/// A message when a file cannot be read or written.
pub fn annotate(learned: &Learned, checked: &Checked, top: usize) -> Result<(), String> {
    let mut by_file: BTreeMap<&Path, Vec<(u32, String)>> = BTreeMap::new();
    for s in top_assertions(checked, top) {
        if let Some(file) = checked.files.get(&s.class) {
            by_file.entry(file.as_path()).or_default().push((s.line, comment(s, learned, checked)));
        }
    }
    for (file, mut comments) in by_file {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        comments.sort_by_key(|c| std::cmp::Reverse(c.0));
        for (line, comment) in comments {
            let at = (line as usize).saturating_sub(1).min(lines.len());
            let indent: String = lines.get(at).map_or("", |l| l).chars().take_while(|c| c.is_whitespace()).collect();
            lines.insert(at, format!("{indent}// {comment}"));
        }
        let mut out = lines.join("\n");
        out.push('\n');
        std::fs::write(file, out).map_err(|e| format!("{}: {e}", file.display()))?;
    }
    Ok(())
}

/// The numbers of a ZoomIn run, one `key value` per line: invariants
/// learned, violations, kept, assertions, flagged, plain anomaly detection's
/// flagged, and the seconds of each step; then the top assertions.
pub fn summary(learned: &Learned, checked: &Checked, top: usize) -> String {
    let r = &checked.ranking;
    let mut out = String::new();
    let _ = writeln!(out, "class {}", learned.class);
    let _ = writeln!(out, "manual tests passed {} (skipped {})", learned.passed, learned.skipped.len());
    let _ = writeln!(out, "manual executions {}", learned.executions.len());
    let _ = writeln!(out, "invariants learned {}", learned.invariants.len());
    let _ = writeln!(out, "generated executions {}", checked.executions.len());
    let _ = writeln!(out, "violations {}", checked.all.len());
    let _ = writeln!(out, "violations kept {}", checked.kept.len());
    let _ = writeln!(out, "assertions {}", r.assertions);
    let _ = writeln!(out, "assertions flagged {}", r.ranked.len());
    let _ = writeln!(out, "groups flagged {}", r.ranked.last().map_or(0, |s| s.group));
    let _ = writeln!(out, "assertions flagged by plain anomaly detection {}", r.plain_flagged);
    let _ = writeln!(
        out,
        "seconds: trace manual {:.2}, infer {:.3}, trace generated {:.2}, check and rank {:.3}",
        learned.trace_seconds, learned.infer_seconds, checked.trace_seconds, checked.rank_seconds
    );
    for s in top_assertions(checked, top) {
        let _ = writeln!(out, "#{} {}.{} line {}: {}", s.group, s.class, s.test, s.line, s.text);
        let _ = writeln!(out, "   {}", comment(s, learned, checked));
        for &k in s.violations.iter().take(MAX_REASONS_SHOWN) {
            let e = &checked.executions[checked.kept[k].execution];
            let line = e.line.map_or_else(String::new, |l| format!(", test line {l}"));
            let _ = writeln!(out, "     {}{line}", violated(learned, checked, k));
        }
    }
    out
}

/// A ranked assertion with the invariants its violations broke, for JSON.
#[derive(Debug, Clone, Serialize)]
pub struct RankedJson {
    /// The test class.
    pub class: String,
    /// The test method.
    pub test: String,
    /// The assertion's first line.
    pub line: u32,
    /// Its source text.
    pub text: String,
    /// Its suspiciousness.
    pub score: f64,
    /// Its group's rank (`Suspicious::group`).
    pub group: usize,
    /// `invariant at entry|exit of method`, most unique first.
    pub violated: Vec<String>,
}

/// Everything a ZoomIn run of one class found, for JSON: the numbers of
/// [`summary`] and every unsafe assertion, most suspicious first.
#[derive(Debug, Clone, Serialize)]
pub struct ClassJson {
    /// The class under test.
    pub class: String,
    /// Manual tests that passed.
    pub manual_tests_passed: usize,
    /// Manual tests skipped (failed, timed out, not run).
    pub manual_tests_skipped: usize,
    /// Invariants learned.
    pub invariants: usize,
    /// Violations by the generated tests.
    pub violations: usize,
    /// Violations the profile filter kept.
    pub violations_kept: usize,
    /// Assertions of the generated tests.
    pub assertions: usize,
    /// Assertions some kept violation reaches.
    pub assertions_flagged: usize,
    /// Assertions plain anomaly detection flags.
    pub assertions_flagged_plain: usize,
    /// Seconds per step: trace_manual, infer, trace_generated, rank.
    pub seconds: BTreeMap<String, f64>,
    /// The unsafe assertions, most suspicious first.
    pub ranked: Vec<RankedJson>,
}

impl ClassJson {
    /// The JSON view of a run.
    pub fn new(learned: &Learned, checked: &Checked) -> ClassJson {
        let r = &checked.ranking;
        let ranked = r
            .ranked
            .iter()
            .map(|s| RankedJson {
                class: s.class.clone(),
                test: s.test.clone(),
                line: s.line,
                text: s.text.clone(),
                score: s.score,
                group: s.group,
                violated: s.violations.iter().map(|&k| violated(learned, checked, k)).collect(),
            })
            .collect();
        let seconds = [
            ("trace_manual", learned.trace_seconds),
            ("infer", learned.infer_seconds),
            ("trace_generated", checked.trace_seconds),
            ("rank", checked.rank_seconds),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        ClassJson {
            class: learned.class.clone(),
            manual_tests_passed: learned.passed,
            manual_tests_skipped: learned.skipped.len(),
            invariants: learned.invariants.len(),
            violations: checked.all.len(),
            violations_kept: checked.kept.len(),
            assertions: r.assertions,
            assertions_flagged: r.ranked.len(),
            assertions_flagged_plain: r.plain_flagged,
            seconds,
            ranked,
        }
    }
}

/// `invariant at entry|exit of method()` for kept violation `k`.
fn violated(learned: &Learned, checked: &Checked, k: usize) -> String {
    let inv = &learned.invariants[checked.kept[k].invariant];
    let point = if inv.point.exit { "exit" } else { "entry" };
    format!("{inv} at {point} of {}", learned.method_name(inv.point.method))
}
