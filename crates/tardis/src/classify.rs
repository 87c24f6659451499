//! The feasibility classifier and path selection (TARDIS paper §4.3-4.5):
//! k-nearest neighbours (k = 3, Jaccard similarity of [`Fingerprint`]s)
//! over a training set that grows as alternatives are tried (feasible: the
//! sliced prefixes of executed paths, and solved targets; infeasible:
//! targets the solver proved unsatisfiable or the search failed on). Pending
//! alternatives are classified when added and again each time the training
//! set has grown by [`Selector::reclassify_every`]. Selection draws a bucket
//! — feasible by 3 votes (50%), feasible by 2 (30%), infeasible by 2 (15%),
//! infeasible by 3 (5%), moving on to the next non-empty bucket — and then
//! an alternative of the bucket with probability proportional to the mean
//! similarity of its neighbours (the paper's cumulative intervals).

use std::collections::HashSet;

use rand::Rng;

use crate::fingerprint::Fingerprint;

/// Neighbours that vote.
pub const K: usize = 3;
/// Buckets in selection order and their probabilities: (feasible, votes, probability).
pub const BUCKETS: [(bool, usize, f64); 4] = [(true, 3, 0.50), (true, 2, 0.30), (false, 2, 0.15), (false, 3, 0.05)];

/// A classification: the majority label, its votes, and the mean Jaccard
/// similarity of the k neighbours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Verdict {
    /// Whether the neighbours' majority is feasible.
    pub feasible: bool,
    /// Votes for the majority (2 or 3; with fewer than 3 examples, the votes there are).
    pub votes: usize,
    /// Mean similarity of the neighbours (0 to 1).
    pub similarity: f64,
}

/// The training set: fingerprints labelled feasible or infeasible, each
/// (fingerprint, label) pair once (TARDIS keeps a set).
#[derive(Debug, Clone, Default)]
pub struct Training {
    examples: Vec<(Fingerprint, bool)>,
    known: HashSet<(Fingerprint, bool)>,
}

impl Training {
    /// Adds an example; whether it was new.
    pub fn learn(&mut self, fp: Fingerprint, feasible: bool) -> bool {
        let new = self.known.insert((fp, feasible));
        if new {
            self.examples.push((fp, feasible));
        }
        new
    }

    /// How many examples it holds.
    pub fn len(&self) -> usize {
        self.examples.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.examples.is_empty()
    }

    /// The k-NN verdict for `fp`. A neighbour that shares no bit with
    /// `fp` does not vote (as in TARDIS's implementation); with no voting
    /// neighbour, feasible by 2 votes at similarity 1 (the prior: untried
    /// alternatives are worth trying).
    pub fn classify(&self, fp: &Fingerprint) -> Verdict {
        const PRIOR: Verdict = Verdict { feasible: true, votes: 2, similarity: 1.0 };
        let mut scored: Vec<(f64, bool)> = self.examples.iter().map(|(e, l)| (fp.jaccard(e), *l)).collect();
        // Most similar first; among equals the latest example (the freshest evidence).
        let n = scored.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| scored[b].0.total_cmp(&scored[a].0).then(b.cmp(&a)));
        scored = order.into_iter().take(K).map(|i| scored[i]).filter(|(s, _)| *s > 0.0).collect();
        if scored.is_empty() {
            return PRIOR;
        }
        let yes = scored.iter().filter(|(_, l)| *l).count();
        let no = scored.len() - yes;
        let similarity = scored.iter().map(|(s, _)| s).sum::<f64>() / scored.len() as f64;
        let feasible = yes >= no;
        Verdict { feasible, votes: yes.max(no).clamp(2, K), similarity }
    }
}

/// How the next alternative is chosen (the classifier, or the baselines of its ablation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Strategy {
    /// k-NN buckets and similarity (the paper's).
    Knn,
    /// First in, first out.
    Fifo,
    /// Uniformly at random.
    Random,
}

/// Pending alternatives (of any payload `T`) and how to pick the next.
#[derive(Debug)]
pub struct Selector<T> {
    /// The training set.
    pub training: Training,
    /// Reclassify the pending alternatives when the training set has grown by this many.
    pub reclassify_every: usize,
    strategy: Strategy,
    pending: Vec<(T, Fingerprint, Verdict)>,
    classified_at: usize,
}

impl<T> Selector<T> {
    /// An empty selector.
    pub fn new(strategy: Strategy) -> Selector<T> {
        Selector { training: Training::default(), reclassify_every: 5, strategy, pending: Vec::new(), classified_at: 0 }
    }

    /// Adds an alternative with its fingerprint; it is classified at once.
    pub fn add(&mut self, item: T, fp: Fingerprint) {
        let verdict = self.training.classify(&fp);
        self.pending.push((item, fp, verdict));
    }

    /// Pending alternatives.
    pub fn len(&self) -> usize {
        self.pending.len()
    }

    /// Whether none is pending.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// Adds a training example, reclassifying the pending alternatives when
    /// the training set has grown enough since the last time.
    pub fn learn(&mut self, fp: Fingerprint, feasible: bool) {
        if !self.training.learn(fp, feasible) {
            return;
        }
        if self.training.len() >= self.classified_at + self.reclassify_every {
            for (_, fp, verdict) in &mut self.pending {
                *verdict = self.training.classify(fp);
            }
            self.classified_at = self.training.len();
        }
    }

    /// Keeps only the pending alternatives `keep` accepts (those whose goal
    /// is still uncovered).
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        self.pending.retain(|(item, _, _)| keep(item));
    }

    /// Removes and returns the next alternative to try, with its verdict.
    pub fn next(&mut self, rng: &mut impl Rng) -> Option<(T, Fingerprint, Verdict)> {
        self.next_among(rng, |_| true)
    }

    /// Removes and returns the next alternative among those `eligible`
    /// accepts (the strategy applied to them alone), with its verdict.
    pub fn next_among(
        &mut self,
        rng: &mut impl Rng,
        eligible: impl Fn(&T) -> bool,
    ) -> Option<(T, Fingerprint, Verdict)> {
        let candidates: Vec<usize> = (0..self.pending.len()).filter(|&i| eligible(&self.pending[i].0)).collect();
        if candidates.is_empty() {
            return None;
        }
        let index = match self.strategy {
            Strategy::Fifo => candidates[0],
            Strategy::Random => candidates[rng.random_range(0..candidates.len())],
            Strategy::Knn => self.knn_pick(&candidates, rng),
        };
        Some(self.pending.remove(index))
    }

    fn knn_pick(&self, candidates: &[usize], rng: &mut impl Rng) -> usize {
        let draw: f64 = rng.random();
        let mut acc = 0.0;
        let first = BUCKETS.iter().position(|(_, _, p)| {
            acc += p;
            draw < acc
        });
        let first = first.unwrap_or(BUCKETS.len() - 1);
        for step in 0..BUCKETS.len() {
            let (feasible, votes, _) = BUCKETS[(first + step) % BUCKETS.len()];
            let members: Vec<usize> = candidates
                .iter()
                .copied()
                .filter(|&i| self.pending[i].2.feasible == feasible && self.pending[i].2.votes == votes)
                .collect();
            if members.is_empty() {
                continue;
            }
            // Roulette over the cumulative mean similarities.
            let weights: Vec<f64> = members.iter().map(|&i| self.pending[i].2.similarity.max(1e-9)).collect();
            let total: f64 = weights.iter().sum();
            let mut at = rng.random::<f64>() * total;
            for (m, w) in members.iter().zip(&weights) {
                if at < *w {
                    return *m;
                }
                at -= w;
            }
            return *members.last().expect("not empty");
        }
        candidates[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn fp(bits: &[(usize, u32)]) -> Fingerprint {
        let mut rows = [0u64; 16];
        for &(r, c) in bits {
            rows[r] |= 1 << c;
        }
        Fingerprint(rows)
    }

    #[test]
    fn three_neighbours_vote_and_their_similarity_is_kept() {
        let mut t = Training::default();
        assert_eq!(t.classify(&fp(&[(0, 1)])), Verdict { feasible: true, votes: 2, similarity: 1.0 });
        t.learn(fp(&[(0, 1), (1, 1)]), false);
        t.learn(fp(&[(0, 1), (2, 1)]), false);
        t.learn(fp(&[(0, 9), (1, 9)]), true);
        t.learn(fp(&[(0, 30)]), true);
        let v = t.classify(&fp(&[(0, 1), (1, 1)]));
        assert!(!v.feasible && v.votes == 2, "{v:?}");
        // The third nearest shares no bit: it does not vote.
        assert!((v.similarity - (1.0 + 1.0 / 3.0) / 2.0).abs() < 1e-9, "{v:?}");
        let far = t.classify(&fp(&[(0, 50)]));
        assert_eq!(far, Verdict { feasible: true, votes: 2, similarity: 1.0 }, "no neighbour votes: the prior");
    }

    #[test]
    fn an_example_is_kept_once_and_does_not_count_toward_reclassification_twice() {
        let mut s: Selector<()> = Selector::new(Strategy::Knn);
        s.reclassify_every = 2;
        let x = fp(&[(0, 2), (5, 2)]);
        s.add((), x);
        s.learn(x, false);
        s.learn(x, false);
        assert_eq!(s.training.len(), 1);
        assert!(s.pending[0].2.feasible, "one distinct example: not yet reclassified");
        s.learn(x, true);
        assert_eq!(s.training.len(), 2, "the same fingerprint with the other label is another example");
    }

    #[test]
    fn buckets_are_drawn_50_30_15_5_and_similar_alternatives_more_often() {
        let verdict = |feasible, votes, similarity| Verdict { feasible, votes, similarity };
        let mut s: Selector<usize> = Selector::new(Strategy::Knn);
        let kinds = [verdict(true, 3, 0.5), verdict(true, 2, 0.5), verdict(false, 2, 0.5), verdict(false, 3, 0.5)];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut picks = [0usize; 4];
        for _ in 0..4000 {
            s.pending = kinds.iter().enumerate().map(|(i, v)| (i, Fingerprint::default(), *v)).collect();
            picks[s.next(&mut rng).unwrap().0] += 1;
        }
        let expected = [2000.0, 1200.0, 600.0, 200.0];
        for (got, want) in picks.iter().zip(expected) {
            assert!((*got as f64 - want).abs() < want * 0.15, "{picks:?}");
        }
        // Inside a bucket, by mean similarity; an empty bucket passes to the next one.
        let mut near = 0;
        for _ in 0..2000 {
            s.pending = vec![
                (0, Fingerprint::default(), verdict(false, 2, 0.9)),
                (1, Fingerprint::default(), verdict(false, 2, 0.1)),
            ];
            near += usize::from(s.next(&mut rng).unwrap().0 == 0);
        }
        assert!((1700..=1900).contains(&near), "{near}");
        let mut fifo: Selector<usize> = Selector::new(Strategy::Fifo);
        fifo.add(7, Fingerprint::default());
        fifo.add(8, Fingerprint::default());
        assert_eq!(fifo.next(&mut rng).unwrap().0, 7);
    }

    #[test]
    fn pending_alternatives_are_reclassified_when_the_training_set_has_grown() {
        let x = fp(&[(0, 2), (5, 2)]);
        let mut s: Selector<()> = Selector::new(Strategy::Knn);
        s.reclassify_every = 2;
        s.add((), x);
        s.learn(x, false);
        assert!(s.pending[0].2.feasible, "not yet reclassified");
        s.learn(fp(&[(0, 2), (6, 2)]), false);
        assert!(!s.pending[0].2.feasible && s.pending[0].2.votes == 2, "{:?}", s.pending[0].2);
    }
}
