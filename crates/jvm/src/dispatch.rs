//! How one batch's tests are dealt to the pool's workers
//! ([`crate::pool::Pool`]): each worker's fixed share, or one queue they
//! all take from.
//!
//! A fixed share (test `i` to worker `i mod n`) sends each worker the same
//! tests in the same order on every run of the same batch, so the static
//! state one test leaves for the next evolves the same way and a seeded
//! run with an evaluation budget is reproducible. Its cost is idle time: a
//! worker whose share ends early waits for the other, and a test that runs
//! into its time limit (20-100 ms, where most tests take 0.1 ms) stops its
//! worker's share alone. Measured on commons-csv's `CSVPrinter` (30 s,
//! seed 1) the workers waited 31% of the time they spent in batches,
//! on snakeyaml's `ParserImpl` 15%. A run with a time budget, which is not
//! reproducible anyway, takes from one queue instead.

use std::collections::VecDeque;
use std::sync::Mutex;

/// Requests in flight per worker with a fixed share: the worker runs them
/// back to back, so pipe round trips overlap with execution.
pub(crate) const WINDOW: usize = 32;

/// Requests in flight per worker taking from a shared queue: enough to
/// hide a round trip behind the tests before it, few enough that a worker
/// stopped by a slow test holds back little of what the others could run.
pub(crate) const SHARED_WINDOW: usize = 4;

/// The tests (by index in the batch) a worker is still to send.
pub(crate) enum Queue<'a> {
    /// The worker's own share.
    Own(VecDeque<usize>),
    /// One queue for all the workers.
    Shared(&'a Mutex<VecDeque<usize>>),
}

impl Queue<'_> {
    /// The next test to send, if any is left.
    pub(crate) fn pop_front(&mut self) -> Option<usize> {
        match self {
            Queue::Own(q) => q.pop_front(),
            Queue::Shared(q) => q.lock().expect("queue").pop_front(),
        }
    }

    /// Puts test `i` back at the front (a worker that failed gives back
    /// the tests it had sent but not run).
    pub(crate) fn push_front(&mut self, i: usize) {
        match self {
            Queue::Own(q) => q.push_front(i),
            Queue::Shared(q) => q.lock().expect("queue").push_front(i),
        }
    }

    /// How many requests the worker keeps in flight.
    pub(crate) fn window(&self) -> usize {
        match self {
            Queue::Own(_) => WINDOW,
            Queue::Shared(_) => SHARED_WINDOW,
        }
    }
}

/// The queues of `n` workers for the tests `valid` (in order): each its
/// fixed share when `!shared`, else `n` handles on `one`, which is filled.
pub(crate) fn deal(valid: VecDeque<usize>, n: usize, shared: bool, one: &Mutex<VecDeque<usize>>) -> Vec<Queue<'_>> {
    if shared {
        *one.lock().expect("queue") = valid;
        return (0..n).map(|_| Queue::Shared(one)).collect();
    }
    let mut queues: Vec<VecDeque<usize>> = vec![VecDeque::new(); n];
    for (k, i) in valid.into_iter().enumerate() {
        queues[k % n].push_back(i);
    }
    queues.into_iter().map(Queue::Own).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_share_deals_round_robin_and_a_shared_queue_gives_each_test_once() {
        let one = Mutex::new(VecDeque::new());
        let mut own = deal((0..5).collect(), 2, false, &one);
        let drain = |q: &mut Queue<'_>| std::iter::from_fn(|| q.pop_front()).collect::<Vec<_>>();
        assert_eq!(drain(&mut own[0]), vec![0, 2, 4]);
        assert_eq!(drain(&mut own[1]), vec![1, 3]);
        assert_eq!(own[0].window(), WINDOW);
        let mut shared = deal((0..5).collect(), 2, true, &one);
        let (a, b) = (shared[0].pop_front(), shared[1].pop_front());
        assert_eq!((a, b), (Some(0), Some(1)));
        shared[0].push_front(0);
        assert_eq!(drain(&mut shared[1]), vec![0, 2, 3, 4], "a test given back goes to whichever worker asks");
        assert_eq!(shared[0].pop_front(), None);
        assert_eq!(shared[0].window(), SHARED_WINDOW);
    }
}
