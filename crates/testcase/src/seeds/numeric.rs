//! Strings that spell the numeric constants of a class and their
//! neighbours: code that parses a string and then compares the number
//! (`Long.parseLong(s) <= Integer.MAX_VALUE`, a validator's range check
//! against `Float.MAX_VALUE`) needs the string of a number on either side
//! of the constant, which a random string almost never is.

use super::Pool;

/// The most strings [`numeric_strings`] makes for one pool.
const MAX_NUMERIC_STRINGS: usize = 24;
/// Integer constants smaller in magnitude than this are left out: loop
/// bounds, flags and characters, not limits of a parsed number.
const MIN_INT_MAGNITUDE: i64 = 8;

/// For each `long`, `double`, `float` and then `int` constant of `pool` (in
/// that order, at most [`MAX_NUMERIC_STRINGS`] strings in all, none that
/// `pool` already holds): an integer `c` gives `c - 1`, `c` and `c + 1`; a
/// floating-point `c` (not 0, ±1, NaN or infinite) gives `c`, `10c` and
/// `c / 10`, each in plain decimal notation without an exponent (as
/// `DecimalFormat` parses it; `Double.parseDouble` reads it as well).
pub(super) fn numeric_strings(pool: &Pool) -> Vec<String> {
    let longs = pool.longs.clone();
    let ints = pool.ints.iter().map(|&i| i64::from(i)).collect();
    let floating = pool.doubles.iter().copied().chain(pool.floats.iter().map(|&f| f64::from(f)));
    let integer_strings = |values: Vec<i64>| {
        values
            .into_iter()
            .filter(|c| c.unsigned_abs() >= MIN_INT_MAGNITUDE as u64)
            .flat_map(|c| [c.checked_sub(1), Some(c), c.checked_add(1)].into_iter().flatten())
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
    };
    let floating_strings = floating
        .filter(|c| c.is_finite() && *c != 0.0 && c.abs() != 1.0)
        .flat_map(|c| [c, c * 10.0, c / 10.0])
        .filter(|n| n.is_finite() && *n != 0.0)
        .map(|n| format!("{n}"));
    let mut out: Vec<String> = Vec::new();
    let candidates = integer_strings(longs).into_iter().chain(floating_strings).chain(integer_strings(ints));
    for s in candidates {
        if out.len() >= MAX_NUMERIC_STRINGS {
            break;
        }
        if !pool.strings.contains(&s) && !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_constant_gives_the_numbers_on_either_side_in_plain_notation() {
        let pool = Pool {
            ints: vec![1, 255],
            longs: vec![2_147_483_647],
            floats: vec![f32::MAX],
            doubles: vec![0.0, 1.5e-45],
            strings: vec!["255".to_string()],
        };
        let strings = numeric_strings(&pool);
        // Longs first, then the floating-point constants, then the ints (1 is too small; "255" is already a seed).
        assert_eq!(&strings[..3], ["2147483646", "2147483647", "2147483648"]);
        let near = |x: f64| strings.iter().any(|s| s.parse::<f64>().is_ok_and(|v| ((v - x) / x).abs() < 1e-9));
        assert!(near(1.5e-45) && near(1.5e-44) && near(1.5e-46), "{strings:?}");
        assert!(strings.contains(&"3402823466385288600000000000000000000000".to_string()), "{strings:?}");
        assert_eq!(&strings[strings.len() - 2..], ["254", "256"]);
        assert!(!strings.iter().any(|s| s.contains('e') || s.contains('E')), "{strings:?}");
    }

    #[test]
    fn at_most_a_bounded_number_of_strings_are_made() {
        let pool = Pool { ints: (100..200).collect(), ..Pool::default() };
        assert_eq!(numeric_strings(&pool).len(), MAX_NUMERIC_STRINGS);
    }
}
