//! Checking executions of the generated tests against the learned
//! invariants (ZoomIn step 2) and filtering the violations by coverage
//! profile (step 3, TECHNIQUES.md §3).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::invariant::{Invariant, Point, samples};
use crate::trace::Execution;

/// The least Jaccard similarity between a violation's coverage profile and
/// some profile of the same method in the manual tests for the violation
/// to be kept (the paper's threshold, section V: 0.75).
pub const SIMILARITY_THRESHOLD: f64 = 0.75;

/// An invariant violated by an execution of a generated test.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Violation {
    /// Index of the invariant (in the learned list).
    pub invariant: usize,
    /// Index of the execution (in the generated suite's executions).
    pub execution: usize,
    /// The most similar manual profile's Jaccard similarity (1 when the
    /// method has no lines to compare).
    pub similarity: f64,
}

/// Every violation of `invariants` by `executions`, with the similarity of
/// its execution's profile to the closest profile of `manual` (the manual
/// tests' executions) of the same method.
pub fn violations(invariants: &[Invariant], executions: &[Execution], manual: &[Execution]) -> Vec<Violation> {
    let mut by_point: BTreeMap<Point, Vec<usize>> = BTreeMap::new();
    for (i, inv) in invariants.iter().enumerate() {
        by_point.entry(inv.point).or_default().push(i);
    }
    let mut profiles: BTreeMap<u32, BTreeSet<&BTreeSet<u32>>> = BTreeMap::new();
    for e in manual {
        profiles.entry(e.method).or_default().insert(&e.profile);
    }
    let mut out = Vec::new();
    for (x, e) in executions.iter().enumerate() {
        let mut similarity = None;
        for (point, sample) in samples(e) {
            for &i in by_point.get(&point).map_or(&[][..], Vec::as_slice) {
                if invariants[i].form.holds(&sample) == Some(false) {
                    let s = *similarity.get_or_insert_with(|| closest(&e.profile, profiles.get(&e.method)));
                    out.push(Violation { invariant: i, execution: x, similarity: s });
                }
            }
        }
    }
    out
}

/// The greatest Jaccard similarity of `profile` to one of `manual`
/// (0 when there is none; 1 when both are empty).
fn closest(profile: &BTreeSet<u32>, manual: Option<&BTreeSet<&BTreeSet<u32>>>) -> f64 {
    manual.into_iter().flatten().map(|m| jaccard(profile, m)).fold(0.0, f64::max)
}

/// `|A ∩ B| / |A ∪ B|` (the paper's degree of similarity); 1 for two empty sets.
pub fn jaccard(a: &BTreeSet<u32>, b: &BTreeSet<u32>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 1.0;
    }
    a.intersection(b).count() as f64 / union as f64
}

/// Whether a violation passes the profile filter.
pub fn kept(v: &Violation) -> bool {
    v.similarity >= SIMILARITY_THRESHOLD
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jaccard_of_profiles() {
        let set = |v: &[u32]| v.iter().copied().collect::<BTreeSet<u32>>();
        assert_eq!(jaccard(&set(&[1, 2, 3, 4]), &set(&[1, 2, 3])), 0.75);
        assert_eq!(jaccard(&set(&[1, 2]), &set(&[3])), 0.0);
        assert_eq!(jaccard(&set(&[]), &set(&[])), 1.0);
    }
}
