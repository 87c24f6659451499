//! TODO
#![forbid(unsafe_code)]

pub mod cfg;
pub mod control_dependence;
pub mod dominance;
pub mod error;
