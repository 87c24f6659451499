//! EvoObj (Lin, Ong, Sun, Fraser, Dong: "Graph-based seed object synthesis
//! for search-based unit testing", ESEC/FSE 2021; TECHNIQUES.md §1): when a
//! branch depends on fields of objects reached through the inputs of its
//! method, random construction leaves the branch distance flat. EvoObj
//! slices back from the branch to the inputs (`analysis::ocg`), builds the
//! object construction graph, and synthesises a test template that builds
//! exactly the objects the branch needs ([`template`]); the search gets the
//! template as a targeted test ([`source`]) and evolves it.
//!
//! Modules:
//! - [`classes`]: the class path as the analysis reads it.
//! - [`template`]: the breadth-first synthesis of a template from an OCG.
//! - [`source`]: the goal source the search asks after every generation.
//! - [`explain`]: the slice, OCG and template of one goal, as text
//!   (`ferrosuite explain-ocg`).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod classes;
pub mod explain;
pub mod source;
pub mod template;

use analysis::ocg::OcgLimits;
use generate::ClassRun;
use generate::technique::{GoalSource, Technique};
use testcase::cluster::TestCluster;

/// EvoObj's parameters (the paper's defaults).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EvoObjConfig {
    /// Probability of synthesising a template after a generation (`p_app`, 0.3).
    pub p_app: f64,
    /// How many calls deep slices and setter searches follow callees (`t_dep`, 5).
    pub call_depth: u32,
    /// Longest template kept, in statements (200).
    pub max_statements: usize,
}

impl Default for EvoObjConfig {
    fn default() -> Self {
        EvoObjConfig { p_app: 0.3, call_depth: 5, max_statements: 200 }
    }
}

impl EvoObjConfig {
    /// The slice limits for these parameters.
    pub fn limits(&self) -> OcgLimits {
        OcgLimits { call_depth: self.call_depth, ..OcgLimits::default() }
    }
}

/// The EvoObj technique: a goal source of templates ([`source::TemplateSource`]).
#[derive(Debug, Clone, Default)]
pub struct EvoObj {
    /// Its parameters.
    pub config: EvoObjConfig,
}

impl Technique for EvoObj {
    fn name(&self) -> &'static str {
        "evoobj"
    }

    fn goal_source(&mut self, run: &ClassRun, cluster: &TestCluster) -> Option<Box<dyn GoalSource>> {
        let _ = cluster;
        Some(Box::new(source::TemplateSource::new(self.config, run.cp.clone(), &run.goals)))
    }
}
