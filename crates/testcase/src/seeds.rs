//! [`Seeds`]: constant pools the test factory samples instead of random
//! values (TECHNIQUES.md §0, "Seeding").
//!
//! Two pools per kind of value (`int`, `long`, `float`, `double`, `String`):
//! - the *static* pool, the constants of the CUT's class file
//!   ([`analysis::class_constants`]) and strings matched by the regular
//!   expressions among them, fixed once built;
//! - the *dynamic* pool, values the search observed at run time (strings
//!   compared in `equals`, numbers compared in branches), added with
//!   [`Seeds::add_int`] and friends and bounded to
//!   [`SeedOptions::max_dynamic`] values per kind, oldest dropped first.
//!
//! Sampling follows EvoSuite's defaults (`Properties.PRIMITIVE_POOL = 0.5`,
//! `DYNAMIC_POOL = 0.5`, `DYNAMIC_POOL_SIZE = 50`): a value is taken from a
//! pool with probability [`SeedOptions::p_pool`], and then from the dynamic
//! pool with probability [`SeedOptions::p_dynamic`] when both have values;
//! otherwise the caller makes a random value. `int` pools also seed
//! `byte`, `short`, `char` and `boolean` values that fit.

pub mod param_values;
mod regex;

use model::classfile::ClassFile;
use rand::Rng;
use rand::seq::IndexedRandom;

/// Sampling probabilities and the dynamic pool's bound.
#[derive(Debug, Clone, PartialEq)]
pub struct SeedOptions {
    /// Probability of taking a value from a pool rather than a random one.
    pub p_pool: f64,
    /// Probability of the dynamic pool rather than the static one, when both have values.
    pub p_dynamic: f64,
    /// The most values per kind the dynamic pool keeps.
    pub max_dynamic: usize,
}

impl Default for SeedOptions {
    /// EvoSuite's defaults: 0.5, 0.5 and 50.
    fn default() -> SeedOptions {
        SeedOptions { p_pool: 0.5, p_dynamic: 0.5, max_dynamic: 50 }
    }
}

/// One pool of constants, each kind without duplicates, in insertion order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pool {
    /// `int` constants (`byte`, `short` and `char` values are drawn from those that fit).
    pub ints: Vec<i32>,
    /// `long` constants.
    pub longs: Vec<i64>,
    /// `float` constants.
    pub floats: Vec<f32>,
    /// `double` constants.
    pub doubles: Vec<f64>,
    /// `String` constants.
    pub strings: Vec<String>,
}

/// The static and dynamic pools of one class under test.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Seeds {
    static_pool: Pool,
    dynamic_pool: Pool,
    options: SeedOptions,
    param_values: std::sync::Arc<param_values::ParamValues>,
}

impl Pool {
    /// Whether the pool holds no value at all.
    pub fn is_empty(&self) -> bool {
        self.ints.is_empty()
            && self.longs.is_empty()
            && self.floats.is_empty()
            && self.doubles.is_empty()
            && self.strings.is_empty()
    }
}

impl From<analysis::Constants> for Pool {
    fn from(c: analysis::Constants) -> Pool {
        Pool { ints: c.ints, longs: c.longs, floats: c.floats, doubles: c.doubles, strings: c.strings }
    }
}

impl Seeds {
    /// Empty pools: every sample is `None`, so values are random.
    pub fn new(options: SeedOptions) -> Seeds {
        Seeds { options, ..Seeds::default() }
    }

    /// The static pool from the constants of `class` (the CUT), with
    /// samples of the regular expressions among its strings
    /// ([`regex::regex_samples`]).
    pub fn from_class(class: &ClassFile, options: SeedOptions) -> Seeds {
        let mut pool: Pool = analysis::class_constants(class).into();
        let samples = regex::regex_samples(&pool.strings);
        pool.strings.extend(samples);
        Seeds::with_static(pool, options)
    }

    /// Seeds with a given static pool.
    pub fn with_static(static_pool: Pool, options: SeedOptions) -> Seeds {
        Seeds { static_pool, dynamic_pool: Pool::default(), options, param_values: Default::default() }
    }

    /// These seeds with the user's values for chosen methods' parameters.
    pub fn with_param_values(mut self, values: std::sync::Arc<param_values::ParamValues>) -> Seeds {
        self.param_values = values;
        self
    }

    /// The user's values for chosen methods' parameters (`--param-values`).
    pub fn param_values(&self) -> &param_values::ParamValues {
        &self.param_values
    }

    /// The constants of the class file.
    pub fn static_pool(&self) -> &Pool {
        &self.static_pool
    }

    /// The values observed at run time so far.
    pub fn dynamic_pool(&self) -> &Pool {
        &self.dynamic_pool
    }

    /// The sampling options.
    pub fn options(&self) -> &SeedOptions {
        &self.options
    }

    /// Adds an observed `int` to the dynamic pool.
    pub fn add_int(&mut self, value: i32) {
        add_bounded(&mut self.dynamic_pool.ints, value, self.options.max_dynamic);
    }

    /// Adds an observed `long` to the dynamic pool.
    pub fn add_long(&mut self, value: i64) {
        add_bounded(&mut self.dynamic_pool.longs, value, self.options.max_dynamic);
    }

    /// Adds an observed `float` to the dynamic pool (NaN is kept once).
    pub fn add_float(&mut self, value: f32) {
        if !self.dynamic_pool.floats.iter().any(|f| f.to_bits() == value.to_bits()) {
            add_bounded(&mut self.dynamic_pool.floats, value, self.options.max_dynamic);
        }
    }

    /// Adds an observed `double` to the dynamic pool (NaN is kept once).
    pub fn add_double(&mut self, value: f64) {
        if !self.dynamic_pool.doubles.iter().any(|d| d.to_bits() == value.to_bits()) {
            add_bounded(&mut self.dynamic_pool.doubles, value, self.options.max_dynamic);
        }
    }

    /// Adds an observed string to the dynamic pool.
    pub fn add_string(&mut self, value: impl Into<String>) {
        add_bounded(&mut self.dynamic_pool.strings, value.into(), self.options.max_dynamic);
    }

    /// A seeded `int`, or `None` for "make a random one".
    pub fn sample_int<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<i32> {
        self.sample(rng, |p| &p.ints).copied()
    }

    /// A seeded `long` (from the `long` or `int` pools), or `None`.
    pub fn sample_long<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<i64> {
        if rng.random_bool(0.5) {
            self.sample(rng, |p| &p.longs).copied()
        } else {
            self.sample(rng, |p| &p.ints).map(|i| i64::from(*i))
        }
    }

    /// A seeded `float`, or `None`.
    pub fn sample_float<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<f32> {
        self.sample(rng, |p| &p.floats).copied()
    }

    /// A seeded `double` (from the `double` or `int` pools), or `None`.
    pub fn sample_double<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<f64> {
        if rng.random_bool(0.5) {
            self.sample(rng, |p| &p.doubles).copied()
        } else {
            self.sample(rng, |p| &p.ints).map(|i| f64::from(*i))
        }
    }

    /// A seeded string, or `None`.
    pub fn sample_string<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<String> {
        self.sample(rng, |p| &p.strings).cloned()
    }

    /// With probability `p_pool`, a value of one kind from the dynamic or
    /// static pool (see the module docs); `None` otherwise or when both are empty.
    fn sample<'s, T, R: Rng + ?Sized>(&'s self, rng: &mut R, kind: impl Fn(&'s Pool) -> &'s Vec<T>) -> Option<&'s T> {
        if !rng.random_bool(self.options.p_pool.clamp(0.0, 1.0)) {
            return None;
        }
        let (dynamic, fixed) = (kind(&self.dynamic_pool), kind(&self.static_pool));
        let pool = match (dynamic.is_empty(), fixed.is_empty()) {
            (true, true) => return None,
            (false, true) => dynamic,
            (true, false) => fixed,
            (false, false) if rng.random_bool(self.options.p_dynamic.clamp(0.0, 1.0)) => dynamic,
            (false, false) => fixed,
        };
        pool.choose(rng)
    }
}

/// Appends `value` unless present; drops the oldest value past `max`.
fn add_bounded<T: PartialEq>(pool: &mut Vec<T>, value: T, max: usize) {
    if max == 0 || pool.contains(&value) {
        return;
    }
    if pool.len() >= max {
        pool.remove(0);
    }
    pool.push(value);
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    fn counts(seeds: &Seeds, seed: u64, n: usize) -> (usize, usize, usize) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut none, mut fixed, mut dynamic) = (0, 0, 0);
        for _ in 0..n {
            match seeds.sample_int(&mut rng) {
                None => none += 1,
                Some(7) => fixed += 1,
                Some(_) => dynamic += 1,
            }
        }
        (none, fixed, dynamic)
    }

    #[test]
    fn empty_pools_always_leave_the_value_to_chance() {
        let seeds = Seeds::new(SeedOptions::default());
        assert_eq!(counts(&seeds, 1, 100), (100, 0, 0));
    }

    #[test]
    fn half_the_samples_come_from_the_pools_and_half_of_those_from_the_dynamic_pool() {
        let pool = Pool { ints: vec![7], ..Pool::default() };
        let mut seeds = Seeds::with_static(pool, SeedOptions::default());
        seeds.add_int(99);
        let (none, fixed, dynamic) = counts(&seeds, 2, 4000);
        assert!((1800..2200).contains(&none), "{none}");
        assert!((850..1150).contains(&fixed), "{fixed}");
        assert!((850..1150).contains(&dynamic), "{dynamic}");
    }

    #[test]
    fn the_dynamic_pool_keeps_the_newest_values_without_duplicates() {
        let mut seeds = Seeds::new(SeedOptions { max_dynamic: 3, ..SeedOptions::default() });
        for s in ["a", "b", "a", "c", "d"] {
            seeds.add_string(s);
        }
        seeds.add_double(f64::NAN);
        seeds.add_double(f64::NAN);
        assert_eq!(seeds.dynamic_pool().strings, ["b", "c", "d"]);
        assert_eq!(seeds.dynamic_pool().doubles.len(), 1);
        assert!(seeds.static_pool().is_empty());
    }

    #[test]
    fn the_same_seed_samples_the_same_values() {
        let pool = Pool { strings: vec!["x".into(), "y".into(), "z".into()], ..Pool::default() };
        let seeds = Seeds::with_static(pool, SeedOptions::default());
        let sample = |seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            (0..20).map(|_| seeds.sample_string(&mut rng)).collect::<Vec<_>>()
        };
        assert_eq!(sample(5), sample(5));
    }

    #[test]
    fn the_static_pool_comes_from_the_class_constants() {
        let Some(class_path) = crate::testutil::class_path() else { return };
        let class = class_path.load("fix.Counter").unwrap();
        let seeds = Seeds::from_class(&class, SeedOptions::default());
        assert!(seeds.static_pool().strings.contains(&"c".to_string()), "{:?}", seeds.static_pool());
        assert!(seeds.static_pool().ints.contains(&10), "{:?}", seeds.static_pool());
    }
}
