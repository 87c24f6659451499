//! Statistics for comparing two sets of runs (`bench ablation`): the
//! Vargha-Delaney A12 effect size and the two-sided Mann-Whitney U test.
//!
//! Sources:
//! - A. Vargha and H. D. Delaney, "A critique and improvement of the CL
//!   common language effect size statistics of McGraw and Wong", Journal of
//!   Educational and Behavioral Statistics 25(2), 2000, pp. 101-132.
//! - H. B. Mann and D. R. Whitney, "On a test of whether one of two random
//!   variables is stochastically larger than the other", Annals of
//!   Mathematical Statistics 18(1), 1947, pp. 50-60.
//! - The normal approximation with tie and continuity corrections is the one
//!   of SciPy's `scipy.stats.mannwhitneyu(x, y, alternative='two-sided',
//!   method='asymptotic')`; the unit tests compare with SciPy 1.17's values.

use std::f64::consts::PI;

/// The arithmetic mean of `values`; `None` when there are none.
pub fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// Vargha-Delaney A12 of `x` over `y`: the probability that a value drawn
/// from `x` is larger than one drawn from `y`, ties counting one half
/// (Vargha & Delaney 2000: `A12 = (#(x > y) + 0.5 #(x = y)) / (m n)`).
/// 0.5 means no difference; 1 means every `x` beats every `y`.
///
/// `None` when `x` or `y` is empty.
pub fn a12(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.is_empty() || y.is_empty() {
        return None;
    }
    let score: f64 = x
        .iter()
        .flat_map(|a| {
            y.iter().map(move |b| match a.partial_cmp(b) {
                Some(std::cmp::Ordering::Greater) => 1.0,
                Some(std::cmp::Ordering::Equal) => 0.5,
                _ => 0.0,
            })
        })
        .sum();
    Some(score / (x.len() * y.len()) as f64)
}

/// The result of a two-sided Mann-Whitney U test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MannWhitney {
    /// U of the first sample: its rank sum minus `n1 (n1 + 1) / 2` (mid-ranks
    /// for ties); as SciPy reports it.
    pub u: f64,
    /// The two-sided p-value, in `[0, 1]`.
    pub p: f64,
}

/// The two-sided Mann-Whitney U test of `x` against `y` (Mann & Whitney
/// 1947), by the normal approximation: with `U = max(U1, U2)`, `n = n1 + n2`,
/// `T` the sum of `t^3 - t` over the groups of `t` tied values,
/// `sigma = sqrt(n1 n2 / 12 * ((n + 1) - T / (n (n - 1))))` and
/// `z = (U - n1 n2 / 2 - 0.5) / sigma` (continuity correction),
/// `p = min(1, 2 * P(Z > z))`, as SciPy computes it. When every value is
/// tied (`sigma = 0`), `p = 1`.
///
/// `None` when `x` or `y` is empty.
pub fn mann_whitney_u(x: &[f64], y: &[f64]) -> Option<MannWhitney> {
    if x.is_empty() || y.is_empty() {
        return None;
    }
    let (n1, n2) = (x.len() as f64, y.len() as f64);
    let n = n1 + n2;
    let (ranks, tie_term) = mid_ranks(&[x, y].concat());
    let r1: f64 = ranks[..x.len()].iter().sum();
    let u1 = r1 - n1 * (n1 + 1.0) / 2.0;
    let u = u1.max(n1 * n2 - u1);
    let variance = n1 * n2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
    if variance <= 0.0 {
        return Some(MannWhitney { u: u1, p: 1.0 });
    }
    let z = (u - n1 * n2 / 2.0 - 0.5) / variance.sqrt();
    Some(MannWhitney { u: u1, p: (2.0 * normal_sf(z)).clamp(0.0, 1.0) })
}

/// The mid-ranks (1-based, the mean rank for ties) of `values` in their
/// order, and the tie term `T`: the sum of `t^3 - t` over the groups of `t`
/// equal values.
fn mid_ranks(values: &[f64]) -> (Vec<f64>, f64) {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut tie_term = 0.0;
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        // Positions start..end (0-based) share the ranks start+1 ..= end.
        let rank = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        let t = (end - start) as f64;
        tie_term += t * t * t - t;
        start = end;
    }
    (ranks, tie_term)
}

/// The standard normal survival function `P(Z > z) = erfc(z / sqrt(2)) / 2`.
pub fn normal_sf(z: f64) -> f64 {
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

/// The complementary error function, to about 1e-15 absolute below 3 and
/// 1e-15 relative from 3 up (the p-values need absolute accuracy): below 3 by
/// `1 - erf(x)` with erf's series of positive terms
/// `erf(x) = 2/sqrt(pi) e^(-x^2) sum 2^k x^(2k+1) / (1 3 5 ... (2k+1))`
/// (Abramowitz & Stegun 7.1.6), from 3 up by the continued fraction
/// `erfc(x) = e^(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))`
/// (A&S 7.1.14) evaluated with the modified Lentz method.
fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 3.0 {
        let (mut term, mut sum) = (x, x);
        for k in 1..200 {
            term *= 2.0 * x * x / (2 * k + 1) as f64;
            sum += term;
            if term < sum * 1e-17 {
                break;
            }
        }
        return 1.0 - 2.0 / PI.sqrt() * (-x * x).exp() * sum;
    }
    const TINY: f64 = 1e-300;
    let (mut f, mut c, mut d) = (x, x, 0.0);
    for k in 1..1000 {
        let a = f64::from(k) / 2.0;
        d = x + a * d;
        d = if d.abs() < TINY { 1.0 / TINY } else { 1.0 / d };
        c = x + a / c;
        if c.abs() < TINY {
            c = TINY;
        }
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / PI.sqrt() / f
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Relative difference, for values that may be tiny.
    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs().max(f64::MIN_POSITIVE)
    }

    #[test]
    fn erfc_matches_python() {
        // python3 -c "import math; print(repr(math.erfc(z)))"
        let cases = [
            (0.0, 1.0),
            (0.5, 0.4795001221869535),
            (1.0, 0.15729920705028513),
            (2.9, 4.109787809945886e-05),
            (3.0, 2.2090496998585438e-05),
            (3.1, 1.1648657367199589e-05),
            (5.0, 1.5374597944280351e-12),
            (8.0, 1.1224297172982928e-29),
        ];
        for (x, want) in cases {
            // Absolute accuracy below 3, relative from 3 up.
            let ok = if x < 3.0 { (erfc(x) - want).abs() < 1e-15 } else { close(erfc(x), want, 1e-12) };
            assert!(ok, "erfc({x}) = {} not {want}", erfc(x));
            assert!(close(erfc(-x), 2.0 - want, 1e-15), "erfc(-{x})");
        }
        assert!((normal_sf(1.959963984540054) - 0.025).abs() < 1e-12);
        assert_eq!(erfc(40.0), 0.0);
    }

    #[test]
    fn the_mean_of_nothing_is_none() {
        assert_eq!(mean(&[0.25, 0.5, 0.75, 1.0]), Some(0.625));
        assert_eq!(mean(&[]), None);
    }

    #[test]
    fn a12_counts_wins_and_half_ties() {
        assert_eq!(a12(&[1.0, 2.0, 3.0], &[1.0, 2.0, 3.0]), Some(0.5));
        assert_eq!(a12(&[4.0, 5.0], &[1.0, 2.0, 3.0]), Some(1.0));
        assert_eq!(a12(&[1.0, 2.0, 3.0], &[4.0, 5.0]), Some(0.0));
        // x > y in 22 pairs, equal in 2 of 25: (22 + 1) / 25.
        assert_eq!(a12(&[0.8, 0.82, 0.85, 0.85, 0.9], &[0.7, 0.75, 0.8, 0.8, 0.81]), Some(0.92));
        // 1 win (0.4 > 0.3), 2 ties (0.3 = 0.3 twice) in 12 pairs: 2 / 12.
        assert!(close(a12(&[0.3, 0.3, 0.4], &[0.3, 0.5, 0.5, 0.5]).unwrap(), 1.0 / 6.0, 1e-15));
        assert_eq!(a12(&[], &[1.0]), None);
    }

    /// Expected values: `scipy.stats.mannwhitneyu(x, y,
    /// alternative='two-sided', method='asymptotic')` of SciPy 1.17.1.
    #[test]
    fn mann_whitney_matches_scipy() {
        let range = |a: u32, b: u32| (a..=b).map(f64::from).collect::<Vec<_>>();
        let cases: [(Vec<f64>, Vec<f64>, f64, f64); 6] = [
            (vec![1.0, 2.0, 3.0], vec![1.0, 2.0, 3.0], 4.5, 1.0),
            (vec![0.8, 0.82, 0.85, 0.85, 0.9], vec![0.7, 0.75, 0.8, 0.8, 0.81], 23.0, 0.03389485352468927),
            (vec![0.5; 3], vec![0.5; 3], 4.5, 1.0),
            (range(11, 20), range(1, 10), 100.0, 0.00018267179110955002),
            (range(1, 10), vec![4.5, 6.0, 6.0, 7.0, 11.0, 12.0, 13.0], 18.5, 0.11729102860336905),
            (vec![0.3, 0.3, 0.4], vec![0.3, 0.5, 0.5, 0.5], 2.0, 0.18135827590431353),
        ];
        for (x, y, u, p) in cases {
            let got = mann_whitney_u(&x, &y).unwrap();
            assert_eq!(got.u, u, "{x:?} {y:?}");
            assert!((got.p - p).abs() < 1e-9, "{x:?} {y:?}: p {} not {p}", got.p);
        }
        assert_eq!(mann_whitney_u(&[1.0], &[]), None);
    }

    #[test]
    fn mid_ranks_share_the_mean_rank() {
        let (ranks, tie_term) = mid_ranks(&[0.3, 0.1, 0.3, 0.2, 0.3]);
        assert_eq!(ranks, vec![4.0, 1.0, 4.0, 2.0, 4.0]);
        assert_eq!(tie_term, 24.0); // one group of 3: 27 - 3
    }
}
