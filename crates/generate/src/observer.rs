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

    /// Whether the run should stop (the user interrupted it): the search
    /// ends at once, the class's tests are post-processed and written, and
    /// no further class starts.
    fn should_stop(&self) -> bool {
        false
    }
}

/// An observer that ignores everything.
impl Observer for () {}

/// Forwards the search's events to an [`Observer`].
pub(crate) struct SearchEvents<'a> {
    pub(crate) observer: &'a mut dyn Observer,
    /// Goals first covered by a targeted test or its offspring.
    pub(crate) targeted: usize,
}

impl SearchObserver for SearchEvents<'_> {
    fn notify(&mut self, event: &SearchEvent) {
        if let SearchEvent::GoalCovered { targeted: true, .. } = event {
            self.targeted += 1;
        }
        self.observer.search_event(event);
    }

    fn should_stop(&self) -> bool {
        self.observer.should_stop()
    }
}
