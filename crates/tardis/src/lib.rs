//! TARDIS (TECHNIQUES.md §5; seed 004): dynamic symbolic execution with a
//! learned feasibility classifier, inside the search.
//!
//! Built so far: the symbolic semantics of Java's arithmetic ([`expr`]:
//! expressions over the four computational types with their concrete
//! evaluation, [`smt`]: the same expressions in z3, bit-vectors with
//! Java's overflow for `int` and `long`, IEEE floating point for `float`
//! and `double`), checked against a real JVM on edge values
//! (`tests/semantics.rs`); path conditions, their alternatives and slices
//! ([`path`]); the fingerprints ([`fingerprint`]) and the k-NN feasibility
//! classifier with the paper's selection rule ([`classify`]); solving an
//! alternative with a time limit ([`solve`]); concolic replay of a class's
//! bytecode in Rust ([`replay`]) and of whole test cases ([`concolic`]);
//! direct DSE of one method ([`dse`]); the DSE step inside the search
//! ([`technique`]), which solves alternatives at covered branch sides only
//! when the side can lead to an uncovered goal ([`reach`]); and, for alternatives that only a change of a value
//! the JVM logged would satisfy, path-condition goals with a SUSHI-style
//! fitness ([`pcgoal`]) that the search works on as temporary objectives
//! ([`objectives`]).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod classify;
pub mod concolic;
pub mod dse;
pub mod expr;
pub mod fingerprint;
pub mod objectives;
pub mod path;
pub mod pcgoal;
pub mod reach;
pub mod replay;
pub mod smt;
pub mod solve;
pub mod technique;

/// Helpers of the unit tests.
#[cfg(test)]
mod testkit {
    use crate::expr::{Expr, JType, Value};

    /// `int` symbol `id`.
    pub(crate) fn sym(id: u32) -> Expr {
        Expr::Sym(id, JType::Int)
    }

    /// The `int` constant `v`.
    pub(crate) fn int(v: i32) -> Expr {
        Expr::Const(Value::Int(v))
    }
}
