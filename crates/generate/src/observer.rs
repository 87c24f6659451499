//! What the pipeline tells its caller while it runs (the binary draws a
//! progress bar and prints a line per class from these events; the library
//! itself never writes to the terminal).

use std::time::Duration;

use model::names::BinaryName;
use search::{SearchEvent, SearchObserver};

use crate::report::ClassReport;

/// Receives the pipeline's events; every method defaults to doing nothing.
pub trait Observer {
    /// The search for `class` starts with `n_goals` goals and at most `budget` of time.
    fn search_started(&mut self, class: &BinaryName, n_goals: usize, budget: Option<Duration>) {
        let _ = (class, n_goals, budget);
    }

    /// An event of the running search.
    fn search_event(&mut self, event: &SearchEvent) {
        let _ = event;
    }

    /// The search for `class` has ended (post-processing and verification follow).
    fn search_finished(&mut self, class: &BinaryName) {
        let _ = class;
    }

    /// Everything for `report.class` is done; `report.json` is written next.
    fn class_finished(&mut self, report: &ClassReport) {
        let _ = report;
    }
}

/// An observer that ignores everything.
impl Observer for () {}

/// Forwards the search's events to an [`Observer`].
pub(crate) struct SearchEvents<'a>(pub(crate) &'a mut dyn Observer);

impl SearchObserver for SearchEvents<'_> {
    fn notify(&mut self, event: &SearchEvent) {
        self.0.search_event(event);
    }
}
