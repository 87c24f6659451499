//! The findings' witness tests in a test class of their own.
//!
//! A witness test shows a likely bug: it passes by expecting what the class
//! under test does (an exception escaping a public method, say). Kept in the
//! regression suite, that behaviour would be asserted as correct. So the
//! pipeline moves every witness test out of `<Class>_FerroTest` into
//! `<Class>_FerroFindingsTest`, each under a comment that says why it is
//! suspicious, and renames the findings' witnesses to the names the tests
//! have there. Both classes were verified together (the tests passed under
//! JUnit before the move), so both still compile and pass.

use std::collections::BTreeMap;

use testcase::TestCase;

use crate::class_run::ClassRun;
use crate::config::GenerateConfig;
use crate::error::GenerateError;
use crate::report::ClassReport;
use crate::technique::Finding;
use crate::verify::{VerifiedSuite, suite_options, write};

/// The suffix of the findings test class's simple name.
pub const FINDINGS_CLASS_SUFFIX: &str = "_FerroFindingsTest";

/// Moves the witness tests of `findings` (their witnesses and more
/// witnesses, named by `names`, the names of `suite`'s tests) into the
/// findings test class, rewrites the regression suite without them, and
/// puts the findings with their new witness names into `report`. Nothing
/// is rewritten when no finding names a test of `suite`.
///
/// # Errors
/// When a test file cannot be written.
pub fn separate(
    config: &GenerateConfig,
    run: &ClassRun,
    suite: &VerifiedSuite,
    names: &[String],
    mut findings: Vec<Finding>,
    report: &mut ClassReport,
) -> Result<(), GenerateError> {
    let index: BTreeMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    let witnesses: Vec<usize> = {
        let named = findings.iter().flat_map(|f| std::iter::once(&f.witness).chain(&f.more_witnesses));
        let mut w: Vec<usize> = named.filter_map(|n| index.get(n.as_str()).copied()).collect();
        w.sort_unstable();
        w.dedup();
        w
    };
    if witnesses.is_empty() {
        report.findings.extend(findings);
        return Ok(());
    }
    let (kept, moved): (Vec<usize>, Vec<usize>) =
        (0..suite.tests.len()).partition(|i| witnesses.binary_search(i).is_err());
    let pick = |ids: &[usize]| -> Vec<TestCase> { ids.iter().map(|&i| suite.tests[i].clone()).collect() };
    let (regression, witness_tests) = (pick(&kept), pick(&moved));
    let cut = &run.class;
    // The options of the verified suite, not of each part: the casts javac
    // needed are looked up per suite, and a part emitted with facts of its
    // own tests alone once lost a cast the whole suite had
    // (`new MappingNode(tag0, (List) arrayList0, boolean0)`) and did not compile.
    let verified = suite_options(config, run, &suite.tests);
    let file = config.out.join(verified.source_path(cut));
    write(&file, &junit::emit_suite(cut, &regression, &verified))?;

    let simple = cut.simple_name().replace('$', "_");
    let mut options = verified.clone();
    options.class_name = format!("{simple}{FINDINGS_CLASS_SUFFIX}");
    options.comments = moved.iter().map(|&i| comment(&findings, &names[i])).collect();
    let new_names = junit::test_names(&witness_tests);
    let renamed: BTreeMap<&str, &str> =
        moved.iter().map(|&i| names[i].as_str()).zip(new_names.iter().map(String::as_str)).collect();
    for f in &mut findings {
        for name in std::iter::once(&mut f.witness).chain(f.more_witnesses.iter_mut()) {
            if let Some(new) = renamed.get(name.as_str()) {
                *name = (*new).to_string();
            }
        }
    }
    let findings_file = config.out.join(options.source_path(cut));
    write(&findings_file, &junit::emit_suite(cut, &witness_tests, &options))?;

    report.count_suite(&regression, &run.cp);
    report.findings_file = findings_file.strip_prefix(&config.out).ok().map(|p| p.display().to_string());
    report.findings.extend(findings);
    Ok(())
}

/// The comment above a witness test: each finding it shows, with where
/// and how sure.
fn comment(findings: &[Finding], witness: &str) -> String {
    findings
        .iter()
        .filter(|f| f.witness == witness || f.more_witnesses.iter().any(|w| w == witness))
        .map(|f| {
            let at = f.location.as_deref().map_or(String::new(), |l| format!(" at {l}"));
            format!("Likely bug ({}, confidence {:.2}){at} in {}: {}", f.kind, f.confidence, f.method, f.message)
        })
        .collect::<Vec<_>>()
        .join("\n")
}
