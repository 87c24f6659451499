//! The progress display of `generate`: one bar per class showing goals
//! covered of total, and elapsed time of the budget. It is fed by search
//! events (through `commands::generate`'s `generate::Observer`); nothing
//! else in ferrosuite writes to the terminal while it runs.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use search::{SearchEvent, SearchObserver};

/// A progress bar for one class's search.
pub struct ClassProgress {
    bar: ProgressBar,
    total_goals: usize,
}

impl ClassProgress {
    /// A bar for `class` with `total_goals` goals and a `budget` (hidden
    /// when stderr is not a terminal).
    pub fn new(class: &str, total_goals: usize, budget: Option<Duration>) -> ClassProgress {
        let bar = ProgressBar::with_draw_target(Some(total_goals as u64), ProgressDrawTarget::stderr());
        let budget = budget.map_or(String::new(), |b| format!(" / {}s", b.as_secs()));
        let template = format!("{{msg}} [{{bar:30}}] {{pos}}/{{len}} goals, {{elapsed}}{budget}");
        bar.set_style(ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()));
        bar.set_message(class.to_string());
        ClassProgress { bar, total_goals }
    }

    /// Ends the bar, leaving a final line.
    pub fn finish(&self, message: &str) {
        self.bar.set_position(self.bar.position().min(self.total_goals as u64));
        self.bar.finish_with_message(message.to_string());
    }
}

impl SearchObserver for ClassProgress {
    fn notify(&mut self, event: &SearchEvent) {
        if let SearchEvent::Progress { covered, .. } = event {
            self.bar.set_position(*covered as u64);
        }
    }
}
