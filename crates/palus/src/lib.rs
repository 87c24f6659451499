//! Palus (Zhang, Saff, Bu, Ernst: "Combined static and dynamic automated
//! test generation", ISSTA 2011; TECHNIQUES.md §4): call-sequence models
//! learned from a sample run of the project's own tests.
//!
//! Modules, in pipeline order:
//! - [`events`]: the recorder's event lines read back into calls.
//! - [`infer`]: per class a call-sequence model (kTail-merged prefix tree of
//!   the recorded objects' histories) with argument values, abstract
//!   profiles and state-transition dependences.
//! - [`guided`]: model-guided tests (new sequences at model roots,
//!   extensions of tests that ran cleanly, arguments by recorded value,
//!   state dependence, profile, then type; dependent methods by relevance).
//! - [`sample`]: the sample run: the project's tests under JUnit with the
//!   classes to model instrumented by recording probes.
//! - [`show`]: a model as text and as Graphviz `dot`.
//! - [`technique`]: Palus as a `generate::Technique` (guided initial
//!   tests, a goal source for the search and `--algorithm palus`).
//! - [`theories`]: the user's JUnit theories run on the generated objects
//!   (`--theories CLASS`), violations as findings of kind `theory`.
//!
//! Models are plain data (`serde`).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod events;
pub mod guided;
pub mod infer;
pub mod sample;
pub mod show;
pub mod technique;
pub mod theories;

pub use events::{Call, ObjectId, ObjectRef, Value};
pub use infer::{ArgumentRecord, ClassModel, Dependence, MethodKey, ModelEdge, Models, infer};
pub use technique::Palus;
