//! `ferrosuite explain-ocg`: the object construction graph and the
//! template of one goal, for a user who wants to know why a branch stays
//! uncovered and what EvoObj would build for it.

use std::fmt::Write as _;
use std::sync::Arc;

use analysis::goals::ClassGoals;
use generate::GenerateError;
use model::classpath::ClassPath;
use model::names::BinaryName;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use testcase::cluster::{ClusterOptions, TestCluster};
use testcase::seeds::{SeedOptions, Seeds};

use crate::EvoObjConfig;
use crate::source::{TemplateSource, build_ocg, is_eligible, target_call};

/// Why a goal cannot be explained.
#[derive(Debug, thiserror::Error)]
pub enum ExplainError {
    /// The class cannot be loaded or analysed.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// No goal of the class has this key.
    #[error("no goal {key} in {class}; `ferrosuite goals --class {class}` lists the goal keys{hint}")]
    UnknownGoal {
        /// The key asked for.
        key: String,
        /// The class.
        class: BinaryName,
        /// Keys that look alike, as `(did you mean ...?)`, or empty.
        hint: String,
    },
    /// The class under test has nothing a test can call.
    #[error("cannot build the test cluster of {class}: {message}")]
    Cluster {
        /// The class.
        class: BinaryName,
        /// The cluster's error.
        message: String,
    },
}

/// The slice, OCG and template of the goal with key `key` of `class`, as
/// text. A goal EvoObj does not target (a line, or a branch of a method
/// that takes no objects) or whose graph reads no field gets a sentence
/// saying so.
///
/// # Errors
/// [`ExplainError`] when the class cannot be read or has no such goal.
pub fn explain(cp: Arc<ClassPath>, class: &BinaryName, key: &str, seed: u64) -> Result<String, ExplainError> {
    let goals: ClassGoals = generate::prepare::goals_with_nested(&cp, class)?;
    let Some(goal) = goals.goals.iter().find(|g| g.key == key) else {
        return Err(ExplainError::UnknownGoal { key: key.into(), class: class.clone(), hint: hint(&goals, key) });
    };
    let mut out = format!("goal {}\n  {}\n", goal.key, goal.label);
    if !is_eligible(goal) {
        out.push_str("nothing to explain: EvoObj targets branches of methods that take objects (instance methods, or reference parameters other than java.lang types)\n");
        return Ok(out);
    }
    let config = EvoObjConfig::default();
    let mut source = TemplateSource::new(config, cp.clone(), &goals);
    let classes = crate::classes::ClassPathSource::new(cp.clone(), Vec::new());
    let ocg = build_ocg(&classes, &goals, goal.id, config.limits());
    match ocg.as_ref().filter(|o| !o.is_trivial()) {
        None => {
            out.push_str(
                "nothing to explain: the branch's condition reads no field or array element of the method's inputs\n",
            );
            return Ok(out);
        }
        Some(ocg) => {
            let _ = writeln!(out, "object construction graph (* = read by the condition):");
            out.push_str(&indent(&ocg.render()));
        }
    }
    let cluster = TestCluster::build(&cp, class.as_str(), &ClusterOptions::default())
        .map_err(|e| ExplainError::Cluster { class: class.clone(), message: e.to_string() })?;
    if target_call(&cluster, goal).is_none() {
        out.push_str("no template: tests cannot call this method (it is private or synthetic)\n");
        return Ok(out);
    }
    let seeds = Seeds::from_class(&*cp.load(class.as_str()).map_err(GenerateError::from)?, SeedOptions::default());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    match source.template(goal.id, &cluster, &seeds, &mut rng) {
        Some(test) => {
            let _ = writeln!(out, "template (seed {seed}):");
            out.push_str(&indent(&test.to_string()));
        }
        None => out.push_str("no template: no statement sequence could be built for this graph\n"),
    }
    Ok(out)
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}\n")).collect()
}

/// ` (did you mean K?)` for the closest keys sharing the method, or empty.
fn hint(goals: &ClassGoals, key: &str) -> String {
    let method = key.split('@').next().unwrap_or(key);
    let close: Vec<&str> =
        goals.goals.iter().filter(|g| g.key.starts_with(method)).map(|g| g.key.as_str()).take(3).collect();
    if close.is_empty() { String::new() } else { format!(" (did you mean {}?)", close.join(", ")) }
}
