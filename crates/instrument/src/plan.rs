//! Which probe sites a class gets, and the global probe ids they use.
//!
//! A [`ProbePlan`] lists the sites of one class in a deterministic order;
//! the probe id of a site is its kind's base ([`ProbeBases`]) plus its
//! position in the list. The plan is built from the goals of the analysis
//! ([`ProbePlan::from_goals`]), so filtered branches (which are not goals)
//! get no probe.

use std::collections::HashMap;

use analysis::commit::CommitRules;
use analysis::goals::ClassGoals;
use model::bytecode::BytecodeError;
use model::classfile::ClassFileError;
use serde::{Deserialize, Serialize};

/// Why [`ProbePlan::every_site`] cannot list the sites of a class: a method
/// that cannot be decoded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlanError {
    /// The method's `Code` attribute or a `LineNumberTable` in it is
    /// malformed.
    #[error("{source}")]
    ClassFile {
        /// Index of the method in the class file's method table.
        method_index: u16,
        /// What is malformed.
        source: ClassFileError,
    },
    /// The method's bytecode does not decode.
    #[error("{source}")]
    Bytecode {
        /// Index of the method in the class file's method table.
        method_index: u16,
        /// What does not decode.
        source: BytecodeError,
    },
}

/// A probe site: a method (index into the class's method table) and a
/// bytecode index in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Site {
    /// Index into the class file's method table.
    pub method_index: u16,
    /// Bytecode index of the instruction in the original method.
    pub bci: u32,
}

/// The probe sites of one class, each list in probe-id order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbePlan {
    /// Conditional jumps that are branch goals.
    pub branches: Vec<Site>,
    /// `tableswitch`/`lookupswitch` instructions that carry switch goals.
    pub switches: Vec<Site>,
    /// Source lines that are line goals.
    pub lines: Vec<u16>,
    /// Methods (indices) that get a method-entry probe.
    pub methods: Vec<u16>,
    /// When JaCoCo counts each branch goal (`analysis::commit`): its probe
    /// points get line-kind probes after the line probes
    /// ([`ProbePlan::commit_probe_id`]).
    #[serde(default)]
    pub commits: CommitRules,
}

/// First global probe id of each kind for one class.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbeBases {
    /// First branch-record id.
    pub branch: u32,
    /// First switch-record id.
    pub switch: u32,
    /// First line-probe id.
    pub line: u32,
    /// First method-entry-probe id.
    pub method: u32,
}

impl ProbeBases {
    /// The bases that follow this class's ids, for the next class.
    pub fn after(&self, plan: &ProbePlan) -> ProbeBases {
        ProbeBases {
            branch: self.branch + plan.branches.len() as u32,
            switch: self.switch + plan.switches.len() as u32,
            line: self.line + (plan.lines.len() + plan.commits.points.len()) as u32,
            method: self.method + plan.methods.len() as u32,
        }
    }
}

impl ProbePlan {
    /// The plan for the goals of a class: one branch probe per branch site,
    /// one switch probe per switch site, one line probe per line goal and
    /// one method-entry probe per method goal.
    pub fn from_goals(goals: &ClassGoals) -> ProbePlan {
        ProbePlan {
            branches: goals.branches.iter().map(|b| Site { method_index: b.method_index, bci: b.bci }).collect(),
            switches: goals.switches.iter().map(|s| Site { method_index: s.method_index, bci: s.bci }).collect(),
            lines: goals.lines(),
            methods: goals.methods_with_goal(),
            commits: CommitRules::default(),
        }
    }

    /// The plan with the commit rules of its goals (`analysis::commit::commit_rules`).
    pub fn with_commits(mut self, commits: CommitRules) -> ProbePlan {
        self.commits = commits;
        self
    }

    /// The global id of commit point `k` (`CommitRules::points[k]`): a
    /// line-kind probe id after the class's line probes.
    pub fn commit_probe_id(&self, bases: ProbeBases, k: u32) -> u32 {
        bases.line + self.lines.len() as u32 + k
    }

    /// Local ids of the sites in `sites` that lie in `method_index`, by bci.
    pub fn index_sites(sites: &[Site], method_index: u16) -> HashMap<u32, u32> {
        sites
            .iter()
            .enumerate()
            .filter(|(_, s)| s.method_index == method_index)
            .map(|(i, s)| (s.bci, i as u32))
            .collect()
    }
}

impl ProbePlan {
    /// A plan that probes every conditional jump, switch, line and method
    /// of the class, filtered or not: more probes than [`Self::from_goals`],
    /// used to stress the rewriter.
    ///
    /// # Errors
    /// [`PlanError`] naming the method when a method cannot be decoded.
    pub fn every_site(cf: &model::classfile::ClassFile) -> Result<ProbePlan, PlanError> {
        let mut plan = ProbePlan::default();
        let mut lines = std::collections::BTreeSet::new();
        for (index, m) in cf.methods.iter().enumerate() {
            let method_index = index as u16;
            let class_file = |source| PlanError::ClassFile { method_index, source };
            let Some(code) = cf.code(m).map_err(class_file)? else { continue };
            plan.methods.push(index as u16);
            let insns =
                model::bytecode::decode(&code.code).map_err(|source| PlanError::Bytecode { method_index, source })?;
            for insn in &insns {
                let site = Site { method_index: index as u16, bci: insn.bci };
                if insn.is_conditional_jump() {
                    plan.branches.push(site);
                } else if insn.is_switch() {
                    plan.switches.push(site);
                }
            }
            for a in code.attributes.iter().filter(|a| cf.attribute_name(a) == "LineNumberTable") {
                let rows = model::code_tables::parse_line_numbers(&a.info).map_err(class_file)?;
                lines.extend(rows.iter().map(|r| r.line));
            }
        }
        plan.lines = lines.into_iter().collect();
        Ok(plan)
    }
}
