//! Post-processing of the tests a search found: minimisation and
//! regression assertions.
//!
//! Modules:
//! - [`minimise`]: drop statements that do not change what a test covers.
//! - [`assertions`]: observe values (return values, inspectors of the
//!   objects a test made) and turn the stable ones into assertions.
#![forbid(unsafe_code)]

pub mod assertions;
pub mod minimise;
pub mod mutation;
