//! The z3 operations the `z3` crate (0.22) does not wrap, made through
//! `z3-sys` on the thread's context: so far `fp.to_fp` of a signed
//! bit-vector ([`signed_to_fp`]), which TARDIS needs for `i2f`, `i2d`, `l2f`
//! and `l2d`. The unsafe calls live here and nowhere else outside `jvm`.

#![warn(missing_docs)]

use z3::ast::{Ast, BV, Float, RoundingMode};

/// The signed bit-vector `x` rounded to nearest, ties to even, to IEEE
/// binary64 (`double`) or binary32.
pub fn signed_to_fp(x: &BV, double: bool) -> Float {
    let ctx = x.get_ctx();
    // A term of the target sort, to take the sort from (the wrapper does not expose raw sorts).
    let model = if double { Float::from_f64(0.0) } else { Float::from_f32(0.0) };
    let rm = RoundingMode::round_nearest_ties_to_even();
    // SAFETY: every argument is a live AST of this thread's context (held by
    // `x`, `model` and `rm` until the call returns); the result is
    // reference-counted by `wrap` at once.
    unsafe {
        let c = ctx.get_z3_context();
        let sort = z3_sys::Z3_get_sort(c, model.get_z3_ast()).expect("a sort");
        let ast = z3_sys::Z3_mk_fpa_to_fp_signed(c, rm.get_z3_ast(), x.get_z3_ast(), sort).expect("fp.to_fp");
        Float::wrap(ctx, ast)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_round_to_nearest_even() {
        let f = signed_to_fp(&BV::from_i64(16_777_217, 32), false).simplify();
        assert_eq!(f.as_f64(), 16_777_216.0, "2^24 + 1 rounds to even");
        let d = signed_to_fp(&BV::from_i64(-5, 64), true).simplify();
        assert_eq!(d.as_f64(), -5.0);
    }
}
