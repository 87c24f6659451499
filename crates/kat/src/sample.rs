//! Random samples of clauses (fixed seed), the basis of the labelled
//! sample that measures extraction accuracy (KAT section 4.1 measures on a
//! random sample the same way).
//!
//! Clauses, not single triggers, are drawn: the labeller writes down how a
//! clause splits into triggers, so that a wrong split counts as wrong
//! triggers instead of changing what was sampled.

use model::names::InternalName;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use crate::graph::{KnowledgeGraph, Origin};

/// A clause picked for labelling, identified by method and sentence.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampledClause {
    /// Internal class name.
    pub class: InternalName,
    /// Method name (`<init>` for constructors).
    pub method: String,
    /// JVM method descriptor.
    pub descriptor: String,
    /// Parameter names of the method.
    pub params: Vec<String>,
    /// Erased Java types of the parameters.
    pub param_types: Vec<String>,
    /// Whether there is no receiver (static method or constructor).
    pub is_static: bool,
    /// `throws java/lang/X` or `returns V`.
    pub origin: String,
    /// The clause's normalised sentence (code spans back-quoted).
    pub sentence: String,
}

/// Packages the sample is drawn from (those the issue names).
pub const SAMPLE_PACKAGES: &[&str] = &[
    "java/lang",
    "java/util",
    "java/util/regex",
    "java/util/concurrent",
    "java/io",
    "java/nio",
    "java/nio/file",
    "java/text",
    "java/time",
    "java/math",
    "java/net",
];

/// The printed origin of a clause (`throws java/lang/X`, `returns V`).
pub fn origin_text(origin: &Origin) -> String {
    match origin {
        Origin::Throws(e) => format!("throws {e}"),
        Origin::Returns(v) => format!("returns {v}"),
    }
}

/// Draws `count` distinct clauses uniformly from the own (not inherited)
/// clauses of exported classes of [`SAMPLE_PACKAGES`] (direct members,
/// not subpackages), with a ChaCha8 generator seeded by `seed`.
pub fn draw(graph: &KnowledgeGraph, count: usize, seed: u64) -> Vec<SampledClause> {
    let mut all = Vec::new();
    for c in graph.classes.iter().filter(|c| c.exported && in_sample_packages(&c.name)) {
        for m in &c.methods {
            for cl in m.clauses.iter().filter(|cl| cl.inherited_from.is_none()) {
                all.push(SampledClause {
                    class: c.name.clone(),
                    method: m.name.clone(),
                    descriptor: m.descriptor.clone(),
                    params: m.params.clone(),
                    param_types: m.param_types.clone(),
                    is_static: m.is_static || m.name == "<init>",
                    origin: origin_text(&cl.origin),
                    sentence: cl.sentence.clone(),
                });
            }
        }
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    all.shuffle(&mut rng);
    let mut seen = std::collections::HashSet::new();
    all.retain(|c| {
        seen.insert((c.class.clone(), c.method.clone(), c.descriptor.clone(), c.origin.clone(), c.sentence.clone()))
    });
    all.truncate(count);
    all
}

fn in_sample_packages(class: &InternalName) -> bool {
    SAMPLE_PACKAGES.contains(&class.package())
}
