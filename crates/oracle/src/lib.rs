//! Post-processing of the tests a search found: minimisation, regression
//! assertions, and their mutation analysis.
//!
//! Modules:
//! - [`minimise`]: drop statements that do not change what a test covers;
//!   minimise a suite and drop duplicates.
//! - [`assertions`]: observe values (return values, inspectors of the
//!   objects a test made, through [`assertions::InspectorCall`]s) and turn
//!   the stable ones into assertions.
//! - [`arrays`]: how an array is observed and asserted.
//! - [`mutants`]: keep the assertions that kill a mutant of the class under
//!   test; which mutants a test reaches.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod arrays;
pub mod assertions;
pub mod minimise;
pub mod mutants;
