//! A memo of the statement prefixes that time out, so that the search
//! does not wait for the time limit again on a test that starts with one.
//!
//! A class whose inputs can make a call loop (a regular expression that
//! backtracks on a long string, a cyclic parent chain) spends a large
//! share of its budget on time-outs: the offspring of a test that loops
//! mostly keep the statements up to the looping call (a mutation changes
//! a statement after it, a crossover keeps the prefix), and each of them
//! waits for the limit again (UrlValidator spent about 40% of its search
//! so). Statements that ran in a fresh state before the limit run the same
//! way again, so the result of the first run stands for the later ones:
//! its coverage and values, with the statements after the looping one not
//! executed.
//!
//! A prefix counts only once two tests timed out in it
//! ([`CONFIRMATIONS`]): one time-out may be a loaded machine or a cold
//! worker, which the evaluator's retries are for. The memo holds at most
//! [`MAX_ENTRIES`] prefixes; it stops learning when full.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::{DefaultHasher, Hasher};

use exec::{ExecutionResult, StatementOutcome, TestOutcome};
use testcase::TestCase;

/// Time-outs in the same prefix before the memo answers for it.
pub const CONFIRMATIONS: u32 = 2;
/// Prefixes the memo holds at most.
pub const MAX_ENTRIES: usize = 2048;

/// Timed-out prefixes by hash ([`prefix_hashes`]), with how often each
/// timed out and the result of its first time-out.
#[derive(Debug, Default)]
pub struct TimeoutMemo {
    entries: HashMap<u64, Entry>,
    /// The longest confirmed prefix, in statements (0 while none is
    /// confirmed): hashes past it are not computed.
    longest: usize,
    /// Tests answered from the memo instead of being run.
    pub hits: u64,
}

#[derive(Debug)]
struct Entry {
    timeouts: u32,
    /// The result of the first time-out, its statements cut after the looping one.
    result: ExecutionResult,
}

impl TimeoutMemo {
    /// The result of `test` when it starts with a confirmed timed-out
    /// prefix: that prefix's result, with one `NotExecuted` outcome per
    /// statement of `test` after it; `None` otherwise (the test must run).
    pub fn answer(&mut self, test: &TestCase) -> Option<ExecutionResult> {
        if self.longest == 0 {
            return None;
        }
        let hashes = prefix_hashes(test, self.longest);
        let entry = hashes.iter().find_map(|h| self.entries.get(h).filter(|e| e.timeouts >= CONFIRMATIONS))?;
        let mut result = entry.result.clone();
        result.statements.resize(test.statements.len(), StatementOutcome::NotExecuted);
        self.hits += 1;
        Some(result)
    }

    /// Learns from the run of `test`: a time-out at a known statement adds
    /// to the count of its prefix. Other outcomes, and time-outs whose
    /// statement is not known (the worker was killed before it said), are ignored.
    pub fn learn(&mut self, test: &TestCase, result: &ExecutionResult) {
        if result.outcome != TestOutcome::Timeout {
            return;
        }
        let Some(looping) = looping_statement(result) else { return };
        let hash = *prefix_hashes(test, looping + 1).last().expect("a prefix of at least one statement");
        if let Some(entry) = self.entries.get_mut(&hash) {
            entry.timeouts += 1;
            if entry.timeouts >= CONFIRMATIONS {
                self.longest = self.longest.max(looping + 1);
            }
            return;
        }
        if self.entries.len() >= MAX_ENTRIES {
            return;
        }
        let mut kept = result.clone();
        kept.statements.truncate(looping + 1);
        self.entries.insert(hash, Entry { timeouts: 1, result: kept });
    }
}

/// The statement that was running when a test timed out: the first one
/// that did not end normally (it threw the watchdog's stop, or it is the
/// first not executed). `None` when every statement ended (the limit fell
/// after them) or none has an outcome (the worker was killed: the
/// statement is not known).
fn looping_statement(result: &ExecutionResult) -> Option<usize> {
    if result.statements.iter().all(|s| matches!(s, StatementOutcome::NotExecuted)) {
        return None;
    }
    result.statements.iter().position(|s| !matches!(s, StatementOutcome::Normal(_)))
}

/// The hashes of the first 1, 2, … statements of `test` (at most `longest`
/// of them), each over the statements' debug text: equal prefixes have
/// equal hashes, and the text is built without allocating.
pub fn prefix_hashes(test: &TestCase, longest: usize) -> Vec<u64> {
    let mut hasher = DefaultHasher::new();
    let mut out = Vec::with_capacity(longest.min(test.statements.len()));
    for statement in test.statements.iter().take(longest) {
        let _ = write!(HashWriter(&mut hasher), "{statement:?}");
        hasher.write_u8(0xff);
        out.push(hasher.finish());
    }
    out
}

/// Feeds formatted text to a hasher.
struct HashWriter<'h>(&'h mut DefaultHasher);

impl std::fmt::Write for HashWriter<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.write(s.as_bytes());
        Ok(())
    }
}
