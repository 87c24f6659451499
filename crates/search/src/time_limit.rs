//! The per-test time limit of the search, adapted to the tests that end.
//!
//! A class whose inputs can make a loop never end (`IndexHash.add` with a
//! negative size loops forever in a library's `getVLISize`, where no
//! instrumented back edge checks the time) spends most of its budget
//! waiting for the configured limit (100 ms) on tests that would never
//! end. The tests that do end take a fraction of a millisecond. The search
//! therefore lowers the limit to a multiple of the durations of the tests
//! that ended ([`AdaptiveLimit::limit`]): a timed-out test costs about that
//! multiple instead of the configured limit, and a test that would have
//! ended after it, rare by construction, is lost.
//!
//! The limit adapts only once tests time out ([`MIN_TIMEOUTS`]), never
//! exceeds the configured one, and the executor gets its
//! configured limit back when the search ends (the final runs that vouch
//! for the emitted tests are not judged by the search's limit).

use std::time::Duration;

/// Multiple of the 99th percentile of the durations of ended tests that
/// the adapted limit allows.
pub const P99_FACTOR: u32 = 20;
/// The adapted limit is never below this: loading and initializing a
/// library's classes for the first time in a restarted worker may take
/// this long, and a test stopped in a class initializer leaves the class
/// unusable in that worker.
pub const MIN_LIMIT: Duration = Duration::from_millis(20);
/// Ended tests needed before the limit adapts.
pub const MIN_SAMPLES: usize = 200;
/// Timed-out tests needed before the limit adapts: a class whose tests all
/// end keeps the configured limit (and a seeded run its archive, whatever
/// the machine's load).
pub const MIN_TIMEOUTS: usize = 10;
/// Durations of ended tests kept (the most recent ones): the tests of the
/// search change as it goes.
const WINDOW: usize = 2000;

/// The durations of the tests that ended, and the limit they allow.
#[derive(Debug, Clone)]
pub struct AdaptiveLimit {
    configured: Duration,
    /// The most recent durations, at most [`WINDOW`], as a ring.
    durations: Vec<Duration>,
    next: usize,
    timeouts: usize,
}

impl AdaptiveLimit {
    /// Adapts below `configured`, the executor's own limit.
    pub fn new(configured: Duration) -> AdaptiveLimit {
        AdaptiveLimit { configured, durations: Vec::with_capacity(WINDOW), next: 0, timeouts: 0 }
    }

    /// The executor's own limit, restored after the search.
    pub fn configured(&self) -> Duration {
        self.configured
    }

    /// Records the duration of a test that ended (normally or by an
    /// exception of its own; not a timeout).
    pub fn record(&mut self, duration: Duration) {
        if self.durations.len() < WINDOW {
            self.durations.push(duration);
        } else {
            self.durations[self.next] = duration;
        }
        self.next = (self.next + 1) % WINDOW;
    }

    /// Records a test that hit the time limit.
    pub fn record_timeout(&mut self) {
        self.timeouts += 1;
    }

    /// The limit for the next tests: [`P99_FACTOR`] times the 99th
    /// percentile of the recorded durations, between [`MIN_LIMIT`] and the
    /// configured limit; the configured limit until [`MIN_SAMPLES`] tests
    /// ended and [`MIN_TIMEOUTS`] timed out.
    pub fn limit(&self) -> Duration {
        if self.durations.len() < MIN_SAMPLES || self.timeouts < MIN_TIMEOUTS {
            return self.configured;
        }
        let mut sorted = self.durations.clone();
        sorted.sort_unstable();
        let p99 = sorted[(sorted.len() * 99 / 100).min(sorted.len() - 1)];
        (p99 * P99_FACTOR).clamp(MIN_LIMIT.min(self.configured), self.configured)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// A limit that has seen enough timeouts to adapt.
    fn timed_out(configured: Duration) -> AdaptiveLimit {
        let mut limit = AdaptiveLimit::new(configured);
        (0..MIN_TIMEOUTS).for_each(|_| limit.record_timeout());
        limit
    }

    #[test]
    fn the_configured_limit_holds_until_enough_tests_ended_and_timed_out() {
        let mut limit = AdaptiveLimit::new(ms(100));
        for _ in 0..MIN_SAMPLES - 1 {
            limit.record(Duration::from_micros(50));
        }
        (0..MIN_TIMEOUTS - 1).for_each(|_| limit.record_timeout());
        assert_eq!(limit.limit(), ms(100));
        limit.record(Duration::from_micros(50));
        assert_eq!(limit.limit(), ms(100), "too few timeouts");
        limit.record_timeout();
        assert_eq!(limit.limit(), MIN_LIMIT, "fast tests: the floor");
    }

    #[test]
    fn the_limit_is_a_multiple_of_the_99th_percentile_within_bounds() {
        let mut limit = timed_out(ms(100));
        // 98% take 0.1 ms, 2% take 2 ms: the 99th percentile is 2 ms.
        for i in 0..1000 {
            limit.record(if i % 50 == 0 || i % 50 == 1 { ms(2) } else { Duration::from_micros(100) });
        }
        assert_eq!(limit.limit(), ms(40));
        // Only 0.5% take 2 ms: the 99th percentile is 0.1 ms, the floor holds.
        for i in 0..WINDOW {
            limit.record(if i % 200 == 0 { ms(2) } else { Duration::from_micros(100) });
        }
        assert_eq!(limit.limit(), MIN_LIMIT);
        // Slow tests: never above the configured limit.
        for _ in 0..WINDOW {
            limit.record(ms(30));
        }
        assert_eq!(limit.limit(), ms(100));
    }

    #[test]
    fn only_the_most_recent_durations_count() {
        let mut limit = timed_out(ms(100));
        for _ in 0..WINDOW {
            limit.record(ms(4));
        }
        assert_eq!(limit.limit(), ms(80));
        for _ in 0..WINDOW {
            limit.record(Duration::from_micros(10));
        }
        assert_eq!(limit.limit(), MIN_LIMIT);
    }

    #[test]
    fn a_configured_limit_below_the_floor_is_kept() {
        let mut limit = timed_out(ms(5));
        for _ in 0..MIN_SAMPLES {
            limit.record(Duration::from_micros(1));
        }
        assert_eq!(limit.limit(), ms(5));
    }
}
