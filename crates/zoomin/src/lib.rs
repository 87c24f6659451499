//! ZoomIn (TECHNIQUES.md §3; Pastore and Mariani, "ZoomIn: Discovering
//! Failures by Detecting Wrong Assertions", seed 002): point the developer
//! at the generated assertions most likely to be wrong. The project's own
//! passing tests run with value tracing
//! ([`trace`]); invariants are inferred from them Daikon-style ([`infer`],
//! [`invariant`]; parameters named by [`names`]); the generated tests run
//! with the same tracing, and each
//! value that violates an invariant is a violation, kept only when its
//! coverage profile resembles a manual one ([`check`]); def-use chains over
//! the tests' statements ([`defuse`]) link violations to the assertions
//! they reach, which are ranked by the summed uniqueness of their
//! violations ([`rank`]). [`run`] does it for one class; [`report`] turns
//! the top assertions into findings and comments in the test sources;
//! [`technique`] plugs it into `generate`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod check;
pub mod defuse;
pub mod infer;
pub mod invariant;
pub mod names;
pub mod rank;
pub mod report;
pub mod run;
pub mod technique;
pub mod trace;
