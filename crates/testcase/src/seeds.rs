//! [`Seeds`]: constant pools the test factory samples instead of random
//! values (TECHNIQUES.md §0, "Seeding").
//!
//! Three pools per kind of value (`int`, `long`, `float`, `double`, `String`):
//! - the *static* pool, the constants of the CUT's class file
//!   ([`analysis::class_constants`]) and strings matched by the regular
//!   expressions among them, fixed once built;
//! - the *non-SUT* pool, the same of the application classes the CUT's
//!   code names ([`Seeds::with_non_sut`], [`non_sut_pool`]: the validator a
//!   class delegates to keeps the patterns and words its inputs must match),
//!   as EvoSuite's `ConstantPoolManager` keeps one;
//! - the *dynamic* pool, values the search observed at run time (strings
//!   compared in `equals`, numbers compared in branches), added with
//!   [`Seeds::add_int`] and friends and bounded to
//!   [`SeedOptions::max_dynamic`] values per kind, oldest dropped first.
//!
//! Sampling follows EvoSuite's defaults (`Properties.PRIMITIVE_POOL = 0.5`,
//! `DYNAMIC_POOL = 0.5`, `DYNAMIC_POOL_SIZE = 50`): a value is taken from a
//! pool with probability [`SeedOptions::p_pool`], and then from the dynamic
//! pool with probability [`SeedOptions::p_dynamic`] when both have values,
//! else from the static or the non-SUT pool, half and half when both have
//! values (EvoSuite splits what the dynamic pool leaves evenly between the
//! two); otherwise the caller makes a random value. `int` pools also seed
//! `byte`, `short`, `char` and `boolean` values that fit.
//!
//! A class that loads classes by name also gets the names of the classes it
//! refers to in its static pool (`class_names`).
//!
//! Beside the pools, input-to-state substitutions (`input_to_state`):
//! a piece of a test's string that a failed comparison saw, with the
//! string that comparison wanted in its place.

mod class_names;
mod input_to_state;
mod numeric;
pub mod param_values;
mod regex;

pub use regex::samples as pattern_samples;

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
    non_sut_pool: Pool,
    dynamic_pool: Pool,
    options: SeedOptions,
    param_values: std::sync::Arc<param_values::ParamValues>,
    /// Input-to-state substitutions (seen, wanted), oldest first
    /// ([`Seeds::add_substitution`]).
    substitutions: Vec<(String, String)>,
    /// Input-to-state substitutions of numbers' texts and characters in
    /// strings, oldest first ([`Seeds::add_number_text_substitution`]): a
    /// pool of their own, so that a scanner's many character comparisons
    /// do not crowd out the string comparisons.
    number_text_substitutions: Vec<(String, String)>,
    /// Input-to-state substitutions of integral literals, oldest first
    /// ([`Seeds::add_number_substitution`]).
    number_substitutions: Vec<(i64, i64)>,
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

impl Pool {
    /// Appends the values of `other` this pool lacks, in their order
    /// (floats and doubles by bit pattern).
    fn absorb(&mut self, other: Pool) {
        fn add<T, K: Eq + std::hash::Hash>(to: &mut Vec<T>, from: Vec<T>, key: impl Fn(&T) -> K) {
            let mut seen: std::collections::HashSet<K> = to.iter().map(&key).collect();
            to.extend(from.into_iter().filter(|v| seen.insert(key(v))));
        }
        add(&mut self.ints, other.ints, |v| *v);
        add(&mut self.longs, other.longs, |v| *v);
        add(&mut self.floats, other.floats, |v| v.to_bits());
        add(&mut self.doubles, other.doubles, |v| v.to_bits());
        add(&mut self.strings, other.strings, String::clone);
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
    /// ([`regex::regex_samples`]), the strings of its numeric constants
    /// and their neighbours ([`numeric::numeric_strings`]), and, when it
    /// loads classes by name, the names of the classes it refers to
    /// ([`class_names::class_name_seeds`]).
    pub fn from_class(class: &ClassFile, options: SeedOptions) -> Seeds {
        let mut pool: Pool = analysis::class_constants(class).into();
        let samples = regex::regex_samples(&pool.strings);
        pool.strings.extend(samples);
        let numbers = numeric::numeric_strings(&pool);
        pool.strings.extend(numbers);
        for name in class_names::class_name_seeds(class) {
            if !pool.strings.contains(&name) {
                pool.strings.push(name);
            }
        }
        Seeds::with_static(pool, options)
    }

    /// Seeds with a given static pool.
    pub fn with_static(static_pool: Pool, options: SeedOptions) -> Seeds {
        Seeds {
            static_pool,
            non_sut_pool: Pool::default(),
            dynamic_pool: Pool::default(),
            options,
            param_values: Default::default(),
            substitutions: Vec::new(),
            number_text_substitutions: Vec::new(),
            number_substitutions: Vec::new(),
        }
    }

    /// These seeds with `pool` as the non-SUT pool ([`non_sut_pool`]).
    pub fn with_non_sut(mut self, pool: Pool) -> Seeds {
        self.non_sut_pool = pool;
        self
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

    /// The constants of the application classes the CUT names.
    pub fn non_sut_pool(&self) -> &Pool {
        &self.non_sut_pool
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

    /// A printable ASCII character other than space (`!` to `~`) among the
    /// `int` constants of a pool, chosen as the other samples choose (see
    /// the module docs), or `None`: the characters a scanner compares with
    /// (`c == '&'`), for string mutation to insert as a fuzzer inserts the
    /// bytes of its dictionary.
    pub fn sample_char<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<char> {
        let pool = self.choose_pool(rng, |p| p.ints.iter().any(|&i| printable(i).is_some()))?;
        let chars: Vec<char> = pool.ints.iter().filter_map(|&i| printable(i)).collect();
        chars.choose(rng).copied()
    }

    /// With probability `p_pool`, a value of one kind from the dynamic or
    /// static pool (see the module docs); `None` otherwise or when both are empty.
    fn sample<'s, T, R: Rng + ?Sized>(&'s self, rng: &mut R, kind: impl Fn(&Pool) -> &Vec<T>) -> Option<&'s T> {
        self.choose_pool(rng, |p| !kind(p).is_empty()).and_then(|p| kind(p).choose(rng))
    }

    /// With probability `p_pool`, the pool to sample from among those for
    /// which `has` holds (see the module docs); `None` otherwise or when none does.
    fn choose_pool<'s, R: Rng + ?Sized>(&'s self, rng: &mut R, has: impl Fn(&Pool) -> bool) -> Option<&'s Pool> {
        if !rng.random_bool(self.options.p_pool.clamp(0.0, 1.0)) {
            return None;
        }
        let (dynamic, fixed, other) = (&self.dynamic_pool, &self.static_pool, &self.non_sut_pool);
        let fixed = match (has(fixed), has(other)) {
            (false, _) => other,
            (true, true) if rng.random_bool(0.5) => other,
            (true, _) => fixed,
        };
        match (has(dynamic), has(fixed)) {
            (false, false) => None,
            (true, false) => Some(dynamic),
            (false, true) => Some(fixed),
            (true, true) if rng.random_bool(self.options.p_dynamic.clamp(0.0, 1.0)) => Some(dynamic),
            (true, true) => Some(fixed),
        }
    }
}

/// `value` as a printable ASCII character other than space, if it is one.
fn printable(value: i32) -> Option<char> {
    u8::try_from(value).ok().filter(|b| b.is_ascii_graphic()).map(char::from)
}

/// The most application classes whose constants make the non-SUT pool.
const MAX_NON_SUT_CLASSES: usize = 16;

/// The non-SUT pool of `cut`: the constants of the application classes
/// (not the JDK's, not `cut` itself) its constant pool names, at most
/// [`MAX_NON_SUT_CLASSES`] of them in name order (its nested classes among
/// them), with samples of the regular expressions among their strings.
/// Classes `cp` cannot load are left out.
pub fn non_sut_pool(cp: &model::classpath::ClassPath, cut: &ClassFile) -> Pool {
    let own = cut.name().to_string();
    let mut names: Vec<String> = cut
        .constant_pool
        .iter()
        .filter_map(|(index, c)| match c {
            model::constant_pool::Constant::Class(_) => cut.constant_pool.class_name(index).ok(),
            _ => None,
        })
        .filter(|n| !n.starts_with('[') && *n != own)
        .map(|n| n.replace('/', "."))
        .filter(|n| !crate::cluster::is_jdk_class(n))
        .collect();
    names.sort();
    names.dedup();
    let mut pool = Pool::default();
    for class in names.iter().filter_map(|n| cp.load(n).ok()).take(MAX_NON_SUT_CLASSES) {
        pool.absorb(analysis::class_constants(&class).into());
    }
    let samples = regex::regex_samples(&pool.strings);
    pool.strings.extend(samples);
    pool
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
    use std::collections::BTreeSet;

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
    fn the_non_sut_pool_holds_the_constants_of_the_application_classes_the_cut_names() {
        let Some(cp) = crate::testutil::commons_class_path() else { return };
        let cut = cp.load("org.apache.commons.cli.HelpFormatter").unwrap();
        let pool = non_sut_pool(&cp, &cut);
        // HelpFormatter names Option, whose strings (its messages) join the pool.
        let option = cp.load("org.apache.commons.cli.Option").unwrap();
        let strings = analysis::class_constants(&option).strings;
        assert!(!strings.is_empty());
        assert!(strings.iter().all(|s| pool.strings.contains(s)), "{strings:?} in {:?}", pool.strings);
        // Not the CUT's own constants unless another class has them too.
        let own = analysis::class_constants(&cut).strings;
        assert!(own.iter().any(|s| !pool.strings.contains(s)), "{own:?}");
    }

    #[test]
    fn the_static_and_non_sut_pools_share_what_the_dynamic_pool_leaves() {
        let pool = Pool { ints: vec![7], ..Pool::default() };
        let mut seeds =
            Seeds::with_static(pool, SeedOptions::default()).with_non_sut(Pool { ints: vec![8], ..Pool::default() });
        seeds.add_int(99);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..8000 {
            *counts.entry(seeds.sample_int(&mut rng)).or_insert(0) += 1;
        }
        // Half random; of the rest half dynamic, a quarter each static and non-SUT.
        assert!((3800..4200).contains(&counts[&None]), "{counts:?}");
        assert!((1800..2200).contains(&counts[&Some(99)]), "{counts:?}");
        assert!((850..1150).contains(&counts[&Some(7)]), "{counts:?}");
        assert!((850..1150).contains(&counts[&Some(8)]), "{counts:?}");
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
    fn characters_come_from_the_printable_int_constants_of_the_pools() {
        let pool = Pool { ints: vec![1, 32, 38, 126, 200], ..Pool::default() };
        let seeds = Seeds::with_static(pool, SeedOptions::default());
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let chars: Vec<Option<char>> = (0..200).map(|_| seeds.sample_char(&mut rng)).collect();
        // Half from the pool (p_pool), only '&' and '~': 1, space and 200 are no printable characters.
        let drawn: BTreeSet<char> = chars.iter().flatten().copied().collect();
        assert_eq!(drawn, BTreeSet::from(['&', '~']));
        assert!((70..130).contains(&chars.iter().flatten().count()), "{chars:?}");
        let none = Seeds::with_static(Pool { ints: vec![1, 2], ..Pool::default() }, SeedOptions::default());
        assert!((0..50).all(|_| none.sample_char(&mut rng).is_none()));
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
