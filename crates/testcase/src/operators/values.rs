//! Random and mutated literals: primitives and strings, seeded from
//! [`Seeds`] with EvoSuite's probabilities and ranges.

use model::descriptor::BaseType;
use rand::Rng;

use crate::ir::Primitive;
use crate::seeds::Seeds;

/// Random integers lie in `[-MAX_INT, MAX_INT]` (EvoSuite `max_int`).
const MAX_INT: i32 = 2048;
/// Standard deviation of a numeric delta (EvoSuite `max_delta`).
const MAX_DELTA: f64 = 20.0;
/// Probability of a fresh random value instead of a delta (EvoSuite `random_perturbation`).
const RANDOM_PERTURBATION: f64 = 0.2;
/// Random strings have at most this many characters (EvoSuite `string_length`).
const STRING_LENGTH: usize = 20;
/// Probability that a random number is one of the boundary values
/// ([`INT_BOUNDS`], [`LONG_BOUNDS`], [`REAL_BOUNDS`]) rather than a small one.
const P_BOUNDARY: f64 = 0.05;
/// Probability that a random character is one of [`SPECIAL_CHARS`] rather
/// than printable ASCII.
const P_SPECIAL_CHAR: f64 = 0.1;
/// `int` values where overflow and sign checks change their outcome.
const INT_BOUNDS: [i32; 4] = [i32::MIN, i32::MAX, -1, 0];
/// `long` values where overflow and sign checks change their outcome.
const LONG_BOUNDS: [i64; 4] = [i64::MIN, i64::MAX, i32::MIN as i64 - 1, i32::MAX as i64 + 1];
/// Floating-point values code tests for (`isNaN`, `isInfinite`, sign of zero,
/// `MIN_VALUE`, `MAX_VALUE`), as `f64`; a `float` takes them converted.
const REAL_BOUNDS: [f64; 7] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, f64::MAX, 1.0e-45, 0.5];
/// UTF-16 code units text handling code tests for: control characters,
/// the first non-ASCII ones, a no-break space, Latin-1, Unicode's line and
/// paragraph separators, a CJK ideograph, the byte-order mark, the
/// replacement character and a high surrogate (a supplementary character's
/// first half; in a string it comes with its second half).
const SPECIAL_CHARS: [u16; 16] =
    [0x00, 0x09, 0x0a, 0x0d, 0x1f, 0x7f, 0x80, 0xa0, 0xe9, 0xff, 0x2028, 0x2029, 0x4e2d, 0xfeff, 0xfffd, 0xd83d];

/// A random value of a primitive type, seeded with [`Seeds`]' probabilities.
pub(crate) fn random_primitive<R: Rng + ?Sized>(base: BaseType, seeds: &Seeds, rng: &mut R) -> Primitive {
    let seeded_int = |rng: &mut R| seeds.sample_int(rng);
    match base {
        BaseType::Boolean => Primitive::Boolean(rng.random_bool(0.5)),
        BaseType::Byte => {
            Primitive::Byte(seeded_int(rng).and_then(|i| i8::try_from(i).ok()).unwrap_or_else(|| rng.random()))
        }
        BaseType::Short => {
            Primitive::Short(seeded_int(rng).and_then(|i| i16::try_from(i).ok()).unwrap_or_else(|| small(rng) as i16))
        }
        BaseType::Char => {
            Primitive::Char(seeded_int(rng).and_then(|i| u16::try_from(i).ok()).unwrap_or_else(|| random_char(rng)))
        }
        BaseType::Int => Primitive::Int(seeded_int(rng).unwrap_or_else(|| boundary(rng, &INT_BOUNDS, small))),
        BaseType::Long => Primitive::Long(
            seeds.sample_long(rng).unwrap_or_else(|| boundary(rng, &LONG_BOUNDS, |rng| i64::from(small(rng)))),
        ),
        BaseType::Float => {
            Primitive::Float(seeds.sample_float(rng).unwrap_or_else(|| boundary(rng, &REAL_BOUNDS, random_real) as f32))
        }
        BaseType::Double => {
            Primitive::Double(seeds.sample_double(rng).unwrap_or_else(|| boundary(rng, &REAL_BOUNDS, random_real)))
        }
    }
}

/// A random string (seeded with [`Seeds`]' probabilities) of printable ASCII.
pub(crate) fn random_string<R: Rng + ?Sized>(seeds: &Seeds, rng: &mut R) -> String {
    if let Some(s) = seeds.sample_string(rng) {
        return s;
    }
    let length = rng.random_range(0..=STRING_LENGTH);
    (0..length).map(|_| random_text_char(rng)).collect()
}

/// An integral literal replaced by the wanted side of an input-to-state
/// substitution ([`Seeds::substitute_number`]) that fits its type, or `None`.
fn substitute_integral<R: Rng + ?Sized>(value: Primitive, seeds: &Seeds, rng: &mut R) -> Option<Primitive> {
    let wanted = value.integral_views().find_map(|v| seeds.substitute_number(v, rng))?;
    value.with_integral(wanted)
}

/// A changed primitive (EvoSuite's `delta`/`randomize`): a boolean flips;
/// an integral literal becomes, with probability [`P_SUBSTITUTE`], the
/// wanted side of an input-to-state substitution when one applies; else a
/// number gets a fresh (possibly seeded) value with probability 0.2, else
/// a Gaussian delta (floating point: also a change of precision). Never
/// returns the same value.
pub(crate) fn mutate_primitive<R: Rng + ?Sized>(value: Primitive, seeds: &Seeds, rng: &mut R) -> Primitive {
    if let Primitive::Boolean(b) = value {
        return Primitive::Boolean(!b);
    }
    if rng.random_bool(P_SUBSTITUTE)
        && let Some(changed) = substitute_integral(value, seeds, rng)
    {
        return changed;
    }
    let changed = if rng.random_bool(RANDOM_PERTURBATION) {
        random_primitive(value.base_type(), seeds, rng)
    } else {
        delta(value, rng)
    };
    if !same(changed, value) {
        return changed;
    }
    // NaN and the infinities absorb deltas.
    match delta_by(value, 1) {
        stepped if !same(stepped, value) => stepped,
        Primitive::Float(_) => Primitive::Float(0.0),
        _ => Primitive::Double(0.0),
    }
}

/// Probability that a string or integral mutation first tries an
/// input-to-state substitution ([`Seeds::substitute`],
/// [`Seeds::substitute_number`]; one applies only where its seen side
/// occurs in the string, or equals the number).
const P_SUBSTITUTE: f64 = 0.3;
/// Probability that a string not replaced by a seed gets one spliced in
/// (when the pools offer one) rather than its characters edited.
const P_SPLICE: f64 = 0.5;
/// Probability that a string whose characters would be edited gets a run
/// of its characters repeated instead ([`clone_run`]).
const P_CLONE: f64 = 0.15;
/// The longest run [`clone_run`] repeats, in characters.
const MAX_CLONED_RUN: usize = 8;
/// Probability that a character a string mutation writes is asked of the
/// pools ([`Seeds::sample_char`], itself `None` with probability
/// `1 - p_pool`) rather than drawn at random.
const P_SEEDED_CHAR: f64 = 0.5;

/// A changed string (EvoSuite's `StringPrimitiveStatement.delta`): with
/// probability [`P_SUBSTITUTE`], an input-to-state substitution when one
/// applies; else a text of several lines gets a line edit with probability
/// [`super::lines::P_LINE_EDIT`] ([`super::lines::mutate_lines`]); else a seeded
/// string; else, with probability [`P_SPLICE`], a seeded string spliced
/// into it ([`splice`]); else, with probability [`P_CLONE`], a run of its
/// characters repeated ([`clone_run`]); else each of delete, replace and
/// insert characters with probability 1/3, the characters written drawn
/// from the pools' characters with probability [`P_SEEDED_CHAR`]
/// ([`text_char`]). Never returns the same string.
pub(crate) fn mutate_string<R: Rng + ?Sized>(value: &str, seeds: &Seeds, rng: &mut R) -> String {
    if rng.random_bool(P_SUBSTITUTE)
        && let Some(s) = seeds.substitute(value, rng)
    {
        return s;
    }
    if value.contains('\n')
        && rng.random_bool(super::lines::P_LINE_EDIT)
        && let Some(edited) = super::lines::mutate_lines(value, seeds, rng)
    {
        return edited;
    }
    if let Some(s) = seeds.sample_string(rng).filter(|s| s != value) {
        return s;
    }
    if !value.is_empty()
        && rng.random_bool(P_SPLICE)
        && let Some(s) = seeds.sample_string(rng)
    {
        let spliced = splice(value, &s, rng);
        if spliced != value {
            return spliced;
        }
    }
    let mut chars: Vec<char> = value.chars().collect();
    if !chars.is_empty() && rng.random_bool(P_CLONE) {
        return clone_run(&chars, rng);
    }
    let p = 1.0 / chars.len().max(1) as f64;
    if rng.random_bool(1.0 / 3.0) {
        chars.retain(|_| !rng.random_bool(p));
    }
    if rng.random_bool(1.0 / 3.0) {
        for c in chars.iter_mut() {
            if rng.random_bool(p) {
                *c = text_char(seeds, rng);
            }
        }
    }
    if rng.random_bool(1.0 / 3.0) {
        insert_chars(&mut chars, seeds, rng);
    }
    let out: String = chars.iter().collect();
    if out == value {
        insert_chars(&mut chars, seeds, rng);
        return chars.into_iter().collect();
    }
    out
}

/// `seed` inserted into `value` at a random character position, or, half
/// the time, written over a random run of its characters (a fuzzer's
/// dictionary insertion and overwrite, AFL's "extras"): inputs that join
/// the words of several constants (`user` + `@` + `[1.2.3.4]`) are a
/// splice or two away from one of them.
fn splice<R: Rng + ?Sized>(value: &str, seed: &str, rng: &mut R) -> String {
    let chars: Vec<char> = value.chars().collect();
    let at = rng.random_range(0..=chars.len());
    let end = if rng.random_bool(0.5) { at } else { rng.random_range(at..=chars.len()) };
    chars[..at].iter().copied().chain(seed.chars()).chain(chars[end..].iter().copied()).collect()
}

/// `chars` with a run of 1 to [`MAX_CLONED_RUN`] of its characters
/// repeated 1 to 3 times, right after itself or, half the time, at a random
/// position (AFL's havoc "clone bytes"): a list parser that counts its
/// segments (`1:2:3:4:5:6:7:8` becoming nine groups with `7:` twice, a
/// nesting depth, a run of digits) is a repetition away from its limit,
/// where single-character edits rarely get. Always longer than `chars`,
/// which must not be empty.
fn clone_run<R: Rng + ?Sized>(chars: &[char], rng: &mut R) -> String {
    let start = rng.random_range(0..chars.len());
    let len = rng.random_range(1..=MAX_CLONED_RUN.min(chars.len() - start));
    let run = &chars[start..start + len];
    let times = if rng.random_bool(0.5) { 1 } else { rng.random_range(2..=3) };
    let at = if rng.random_bool(0.5) { start + len } else { rng.random_range(0..=chars.len()) };
    let repeated = std::iter::repeat_n(run, times).flatten();
    chars[..at].iter().chain(repeated).chain(&chars[at..]).collect()
}

/// A character for a string mutation to write: with probability
/// [`P_SEEDED_CHAR`] one of the pools' characters (the `'&'` a scanner
/// compares with, as a fuzzer's dictionary holds the bytes a parser
/// looks for), else (or when the pools offer none) a random one.
fn text_char<R: Rng + ?Sized>(seeds: &Seeds, rng: &mut R) -> char {
    let seeded = if rng.random_bool(P_SEEDED_CHAR) { seeds.sample_char(rng) } else { None };
    seeded.unwrap_or_else(|| random_text_char(rng))
}

/// Inserts one character ([`text_char`]), then another with probability 1/2, 1/4, …
fn insert_chars<R: Rng + ?Sized>(chars: &mut Vec<char>, seeds: &Seeds, rng: &mut R) {
    let mut count = 0;
    while rng.random_bool(0.5f64.powi(count)) {
        let at = rng.random_range(0..=chars.len());
        chars.insert(at, text_char(seeds, rng));
        count += 1;
    }
}

/// A Gaussian delta of standard deviation [`MAX_DELTA`]; floating-point
/// values alternatively get a small delta or a rounded precision.
fn delta<R: Rng + ?Sized>(value: Primitive, rng: &mut R) -> Primitive {
    let step = (gaussian(rng) * MAX_DELTA).round() as i64;
    match value {
        Primitive::Float(f) => Primitive::Float(real_delta(f64::from(f), rng) as f32),
        Primitive::Double(d) => Primitive::Double(real_delta(d, rng)),
        _ => delta_by(value, if step == 0 { 1 } else { step }),
    }
}

/// An integral value plus `step`, wrapping as Java arithmetic does.
fn delta_by(value: Primitive, step: i64) -> Primitive {
    match value {
        Primitive::Boolean(b) => Primitive::Boolean(!b),
        Primitive::Byte(v) => Primitive::Byte(v.wrapping_add(step as i8)),
        Primitive::Short(v) => Primitive::Short(v.wrapping_add(step as i16)),
        Primitive::Char(v) => Primitive::Char(v.wrapping_add(step as u16)),
        Primitive::Int(v) => Primitive::Int(v.wrapping_add(step as i32)),
        Primitive::Long(v) => Primitive::Long(v.wrapping_add(step)),
        Primitive::Float(v) => Primitive::Float(v + step as f32),
        Primitive::Double(v) => Primitive::Double(v + step as f64),
    }
}

/// One of: a large delta, a small delta, the value rounded to 0–6 decimals.
fn real_delta<R: Rng + ?Sized>(value: f64, rng: &mut R) -> f64 {
    match rng.random_range(0..3) {
        0 => value + gaussian(rng) * MAX_DELTA,
        1 => value + gaussian(rng),
        _ => {
            let scale = 10f64.powi(rng.random_range(0..7));
            (value * scale).round() / scale
        }
    }
}

/// Whether two primitives are the same value, bit for bit.
fn same(a: Primitive, b: Primitive) -> bool {
    match (a, b) {
        (Primitive::Float(x), Primitive::Float(y)) => x.to_bits() == y.to_bits(),
        (Primitive::Double(x), Primitive::Double(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

/// A uniform integer in `[-MAX_INT, MAX_INT]`.
fn small<R: Rng + ?Sized>(rng: &mut R) -> i32 {
    rng.random_range(-MAX_INT..=MAX_INT)
}

/// A uniform real in `[-MAX_INT, MAX_INT]`, rounded to 0–2 decimals half the time.
fn random_real<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    let value = rng.random_range(-f64::from(MAX_INT)..=f64::from(MAX_INT));
    if rng.random_bool(0.5) {
        let scale = 10f64.powi(rng.random_range(0..3));
        (value * scale).round() / scale
    } else {
        value
    }
}

/// With probability [`P_BOUNDARY`] one of `bounds`, else `random(rng)`.
fn boundary<T: Copy, R: Rng + ?Sized>(rng: &mut R, bounds: &[T], random: impl FnOnce(&mut R) -> T) -> T {
    if rng.random_bool(P_BOUNDARY) { bounds[rng.random_range(0..bounds.len())] } else { random(rng) }
}

/// A UTF-16 code unit: printable ASCII, or with probability
/// [`P_SPECIAL_CHAR`] one of [`SPECIAL_CHARS`].
fn random_char<R: Rng + ?Sized>(rng: &mut R) -> u16 {
    if rng.random_bool(P_SPECIAL_CHAR) {
        SPECIAL_CHARS[rng.random_range(0..SPECIAL_CHARS.len())]
    } else {
        rng.random_range(32..127)
    }
}

/// A character of a string: as [`random_char`], with the high surrogate
/// completed to a supplementary character (U+1F600, two code units in Java).
fn random_text_char<R: Rng + ?Sized>(rng: &mut R) -> char {
    char::from_u32(u32::from(random_char(rng))).unwrap_or('\u{1F600}')
}

/// A standard normal sample (Box–Muller), so that no extra crate is needed.
fn gaussian<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    let u1: f64 = rng.random_range(f64::MIN_POSITIVE..1.0);
    let u2: f64 = rng.random();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::seeds::{Pool, SeedOptions};

    fn rng() -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(42)
    }

    #[test]
    fn random_primitives_have_the_requested_type_and_range() {
        let seeds = Seeds::new(SeedOptions::default());
        let mut rng = rng();
        for base in BaseType::ALL {
            for _ in 0..200 {
                let value = random_primitive(base, &seeds, &mut rng);
                assert_eq!(value.base_type(), base);
                if let Primitive::Int(i) = value {
                    assert!((-MAX_INT..=MAX_INT).contains(&i) || INT_BOUNDS.contains(&i), "{i}");
                }
                if let Primitive::Char(c) = value {
                    assert!((32..127).contains(&c) || SPECIAL_CHARS.contains(&c), "{c}");
                }
            }
        }
    }

    /// Code branches on `isNaN`, on overflow at `Integer.MAX_VALUE` and on
    /// characters past ASCII: random values reach them now and then.
    #[test]
    fn boundary_numbers_and_special_characters_come_up() {
        let seeds = Seeds::new(SeedOptions::default());
        let mut rng = rng();
        let doubles: Vec<Primitive> = (0..2000).map(|_| random_primitive(BaseType::Double, &seeds, &mut rng)).collect();
        assert!(doubles.iter().any(|d| matches!(d, Primitive::Double(x) if x.is_nan())));
        assert!(doubles.iter().any(|d| matches!(d, Primitive::Double(x) if *x == f64::NEG_INFINITY)));
        let ints: Vec<Primitive> = (0..2000).map(|_| random_primitive(BaseType::Int, &seeds, &mut rng)).collect();
        assert!(ints.contains(&Primitive::Int(i32::MAX)) && ints.contains(&Primitive::Int(i32::MIN)));
        let text: String = (0..200).map(|_| random_string(&seeds, &mut rng)).collect();
        assert!(!text.is_ascii() && text.chars().any(|c| c.is_ascii_control()), "{text}");
        assert!(text.contains('\u{1F600}'), "a supplementary character, two UTF-16 units");
        let printable = text.chars().filter(|c| (' '..='~').contains(c)).count();
        assert!(printable * 10 >= text.chars().count() * 8, "most characters stay printable ASCII");
    }

    #[test]
    fn seeded_values_appear_about_half_the_time() {
        let seeds = Seeds::with_static(Pool { ints: vec![12345], ..Pool::default() }, SeedOptions::default());
        let mut rng = rng();
        let hits =
            (0..1000).filter(|_| random_primitive(BaseType::Int, &seeds, &mut rng) == Primitive::Int(12345)).count();
        assert!((400..600).contains(&hits), "{hits}");
    }

    #[test]
    fn mutated_values_always_differ_and_keep_their_type() {
        let seeds = Seeds::new(SeedOptions::default());
        let mut rng = rng();
        let values = [
            Primitive::Boolean(true),
            Primitive::Byte(i8::MAX),
            Primitive::Short(0),
            Primitive::Char(65),
            Primitive::Int(i32::MIN),
            Primitive::Long(7),
            Primitive::Float(1.5),
            Primitive::Double(f64::NAN),
        ];
        for value in values {
            for _ in 0..100 {
                let changed = mutate_primitive(value, &seeds, &mut rng);
                assert!(!same(changed, value), "{value:?}");
                assert_eq!(changed.base_type(), value.base_type());
            }
        }
        for text in ["", "a", "hello world"] {
            for _ in 0..100 {
                assert_ne!(mutate_string(text, &seeds, &mut rng), text);
            }
        }
    }

    #[test]
    fn seeds_replace_strings_or_are_spliced_into_them() {
        let pool = Pool { strings: vec!["@host".to_string()], ..Pool::default() };
        let seeds = Seeds::with_static(pool, SeedOptions::default());
        let mut r = rng();
        let (mut whole, mut inside, mut other) = (0, 0, 0);
        for _ in 0..400 {
            let out = mutate_string("user", &seeds, &mut r);
            assert_ne!(out, "user");
            if out == "@host" {
                whole += 1;
            } else if out.contains("@host") {
                inside += 1;
                // Around the seed: a prefix and a suffix of "user".
                let (before, after) = out.split_once("@host").unwrap();
                assert!("user".starts_with(before) && "user".ends_with(after), "{out}");
            } else {
                other += 1;
            }
        }
        // Whole half the time (the pool's probability); of the rest a quarter
        // spliced (half of them try, half of those get a seed); else edited.
        assert!((170..230).contains(&whole), "{whole} {inside} {other}");
        assert!((30..75).contains(&inside), "{whole} {inside} {other}");
        assert!(other > 100, "{whole} {inside} {other}");
    }

    /// A cloned run is a substring of the original repeated in place or
    /// copied elsewhere; some mutations of a list of segments add a segment.
    #[test]
    fn a_cloned_run_repeats_characters_of_the_string() {
        let mut r = rng();
        let value: Vec<char> = "1:2:3".chars().collect();
        let mut four_segments = 0;
        for _ in 0..300 {
            let out = clone_run(&value, &mut r);
            let added = out.len() - value.len();
            assert!((1..=3 * MAX_CLONED_RUN).contains(&added), "{out}");
            let digits = out.chars().filter(char::is_ascii_digit).count();
            let colons = out.chars().filter(|c| *c == ':').count();
            assert_eq!(digits + colons, out.len(), "only the string's own characters: {out}");
            four_segments += usize::from(out.split(':').count() == 4 && out.split(':').all(|s| s.len() == 1));
        }
        assert!(four_segments >= 10, "{four_segments} of 300 mutations made one more well-formed segment");
    }

    #[test]
    fn the_same_seed_gives_the_same_strings() {
        let seeds = Seeds::new(SeedOptions::default());
        let make = || {
            let mut rng = rng();
            (0..10).map(|_| random_string(&seeds, &mut rng)).collect::<Vec<_>>()
        };
        assert_eq!(make(), make());
    }
}
