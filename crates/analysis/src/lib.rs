//! Static analysis of class files for test generation: control flow,
//! control dependence, coverage goals and seeding constants.
//!
//! The crate is pure: it reads parsed [`model::classfile::ClassFile`]s and
//! does no IO. Its main entry point is [`goals::class_goals`], which lists a
//! class's coverage goals (branch sides, switch cases, lines, methods, root
//! branches) with stable ids and keys, readable labels, control-dependence
//! parents, and the probe sites the instrumenter needs; the branch goals
//! add up to JaCoCo 0.8.6's branch counter.
//!
//! Brief overview of the modules:
//! - [`cfg`](mod@cfg): basic blocks and the control-flow graph of a method, with
//!   exceptional edges and a virtual entry and exit.
//! - [`dominance`]: post-dominators (with infinite loops connected to the exit).
//! - [`control_dependence`]: control dependence (Ferrante et al. 1987).
//! - [`filter`]: JaCoCo-compatible filtering of compiler-generated code.
//! - [`goals`]: the coverage goals of a class and their probe sites.
//! - [`commit`]: when JaCoCo counts a goal: the probe points that end the
//!   region after each branch side, switch case and branch-free method entry.
//! - [`constants`]: constant-pool and immediate constants for seeding.
//! - [`accessors`]: methods that return a static field as it is (a
//!   singleton's `getInstance()`).
//! - [`assertions`]: the source lines of a method's `assert` statements.
//! - [`condition_inputs`]: why a goal can stay uncovered, statically: code
//!   reached only through exception edges, and what a branch's condition
//!   reads (environment APIs, fields, instance calls).
//! - [`dataflow`]: def-use data flow of a method over its locals and
//!   operand stack (frame simulation): which definitions each instruction pops.
//! - [`ocg`]: object construction graphs (EvoObj): the interprocedural
//!   backward slice from a branch to the method's inputs, kept where it
//!   reads fields or array elements.
//! - [`call_sites`]: the `invoke` instructions of a class's code, by
//!   calling method (the triage follows a private method to its callers).
//! - [`callgraph`]: the call graph of class-path code by class hierarchy
//!   analysis, and which methods write or return a field.
//! - [`method_dependence`]: the fields each method reads and writes and the
//!   tf-idf weighted dependence between methods (Palus).
//! - [`purity`]: which methods of a class change no state (a cheap purity
//!   analysis, for the oracle's inspectors).
//! - [`error`]: [`AnalysisError`], naming class, method and bytecode index.
//!
//! Internal: `condition` renders branch conditions for labels by symbolic
//! execution of a block; `method_analysis` runs the per-method pipeline;
//! `insn` holds instruction helpers.
//!
//! ```no_run
//! let bytes = std::fs::read("CharUtils.class").unwrap();
//! let cf = model::classfile::ClassFile::parse(&bytes).unwrap();
//! let goals = analysis::class_goals(&cf).unwrap();
//! for g in &goals.goals {
//!     println!("{:>4} {:<50} {}", g.id.0, g.key, g.label);
//! }
//! println!("{} branch goals", goals.branch_goal_count());
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod accessors;
pub mod assertions;
pub mod call_sites;
pub mod callgraph;
pub mod cfg;
pub mod commit;
mod condition;
pub mod condition_inputs;
pub mod constants;
pub mod control_dependence;
pub mod dataflow;
pub mod dominance;
pub mod error;
pub mod filter;
pub mod goals;
mod insn;
mod method_analysis;
pub mod method_dependence;
pub mod ocg;
pub mod purity;
#[cfg(test)]
mod testutil;

pub use constants::{Constants, class_constants, class_literals, instanceof_classes};
pub use error::{AnalysisError, ErrorKind, Location};
pub use goals::{
    AnalysisOptions, Approach, BranchId, BranchSite, ClassGoals, FilteredSite, Goal, GoalId, GoalKind, MethodGoals,
    SwitchId, SwitchSite, class_goals, class_goals_with,
};
pub use method_analysis::instruction_lines;
