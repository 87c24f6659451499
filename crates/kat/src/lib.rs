//! KAT phase I: the JDK API exception knowledge graph.
//!
//! KAT (Ren et al., "API-Knowledge Aware Search-Based Software Testing:
//! Where, What, and How", ESEC/FSE 2023; `../shared/TECHNIQUES.md` section
//! 2) turns the JDK's documentation of when an API throws into test goals.
//! This crate builds the knowledge graph those goals come from and answers
//! queries on it:
//!
//! - [`build::build`] reads `src.zip` of the JDK ([`source`]), parses the
//!   sources with tree-sitter ([`declare`]), resolves names and JVM
//!   descriptors ([`resolve`]) and inherited documentation ([`inherit`]),
//!   splits and normalises Javadoc ([`javadoc`]), and extracts typed
//!   triggers with formal conditions ([`extract`], [`cond`], parsed by the
//!   private `cond_parse`) into the graph's types ([`graph`]);
//! - [`store`] writes and reads the compact file shipped as
//!   `data/jdk17.kg`; [`KnowledgeGraph::jdk17`] loads it;
//! - [`KnowledgeGraph::clauses`] gives the triggers of a call (owner class
//!   and JVM descriptor), inherited ones included;
//! - [`stats`] and [`sample`] count triggers and draw the labelled sample
//!   used to measure extraction accuracy; [`show`] renders a method's
//!   clauses as text;
//! - [`error`]: [`KatError`], the errors of building and writing a graph.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod build;
pub mod cond;
mod cond_parse;
pub mod declare;
pub mod error;
pub mod extract;
pub mod graph;
pub mod inherit;
pub mod javadoc;
pub mod resolve;
pub mod sample;
pub mod show;
pub mod source;
pub mod stats;
pub mod store;

pub use cond::{CmpOp, Cond, CondParseError, Expr};
pub use error::KatError;
pub use graph::{Clause, KnowledgeGraph, MethodRef, Origin, Trigger, TriggerKind};
