//! ZoomIn inside `generate` (`--manual-tests`): when a class's final test
//! files are written ([`generate::Technique::suite_written`]), its manual
//! tests are traced (once per class) and the written suite is ranked; the
//! top assertions become findings of kind `suspicious-assertion` (their
//! tests stay in the regression suite) and comments above the assertions.
//! A failure is a warning on stderr: the suite stays as it was, unranked;
//! so is each skipped manual test (once per run).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

use generate::{ClassReport, ClassRun, Technique};
use javarun::Confiner;
use model::jdk::Jdk;
use palus::sample::SampleTests;

use crate::report::{annotate, findings};
use crate::run::{ZoomInConfig, learn, rank_suite};

/// The ZoomIn technique of `generate --manual-tests`.
pub struct ZoomIn {
    /// The project's compiled manual tests.
    pub manual: SampleTests,
    /// The JDK that runs them.
    pub jdk: Jdk,
    /// Confines the test JVMs.
    pub confiner: Confiner,
    /// How many assertions are reported (default 5).
    pub top: usize,
    /// Depth of the traced fields (default 2).
    pub depth: u32,
    /// Time limit of each tracing run.
    pub budget: Duration,
    stats: BTreeMap<String, f64>,
    /// Skipped manual tests already warned about.
    warned: BTreeSet<String>,
}

impl ZoomIn {
    /// ZoomIn with `manual` tests, run by `jdk` in JVMs `confiner` confines.
    pub fn new(manual: SampleTests, jdk: Jdk, confiner: Confiner) -> ZoomIn {
        ZoomIn {
            manual,
            jdk,
            confiner,
            top: crate::report::DEFAULT_TOP,
            depth: 2,
            budget: Duration::from_secs(120),
            stats: BTreeMap::new(),
            warned: BTreeSet::new(),
        }
    }

    fn rank(&mut self, run: &ClassRun, files: &[PathBuf], report: &mut ClassReport) -> Result<(), String> {
        let config = ZoomInConfig {
            jdk: &self.jdk,
            user_class_path: &run.user_class_path,
            cp: &run.cp,
            work: run.work.join("zoomin"),
            test_timeout: Duration::from_secs(10),
            budget: self.budget,
            confiner: Some(&self.confiner),
            depth: self.depth,
        };
        let learned = learn(&run.class, &self.manual, &config).map_err(|e| e.to_string())?;
        for (test, why) in &learned.skipped {
            if self.warned.insert(test.clone()) {
                eprintln!("warning: ZoomIn: manual test {test} skipped ({why})");
            }
        }
        let checked = rank_suite(&run.class, &learned, files, &config).map_err(|e| e.to_string())?;
        annotate(&learned, &checked, self.top)?;
        report.findings.extend(findings(&learned, &checked, self.top, true));
        let r = &checked.ranking;
        for (key, value) in [
            ("invariants", learned.invariants.len() as f64),
            ("manual_tests_passed", learned.passed as f64),
            ("manual_tests_skipped", learned.skipped.len() as f64),
            ("violations", checked.all.len() as f64),
            ("violations_kept", checked.kept.len() as f64),
            ("assertions", r.assertions as f64),
            ("assertions_flagged", r.ranked.len() as f64),
            ("assertions_flagged_plain", r.plain_flagged as f64),
            ("trace_manual_seconds", learned.trace_seconds),
            ("infer_seconds", learned.infer_seconds),
            ("trace_generated_seconds", checked.trace_seconds),
            ("rank_seconds", checked.rank_seconds),
        ] {
            self.stats.insert(key.to_string(), value);
        }
        Ok(())
    }
}

impl Technique for ZoomIn {
    fn name(&self) -> &'static str {
        "zoomin"
    }

    fn suite_written(&mut self, run: &mut ClassRun, files: &[PathBuf], report: &mut ClassReport) {
        self.stats.clear();
        if files.is_empty() {
            return;
        }
        if let Err(why) = self.rank(run, files, report) {
            eprintln!("warning: ZoomIn: {}: {why}; its tests are left unranked", run.class);
        }
        if !self.stats.is_empty() {
            report.techniques.entry("zoomin".into()).or_default().extend(std::mem::take(&mut self.stats));
        }
    }
}
