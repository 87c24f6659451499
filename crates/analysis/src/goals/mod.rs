//! Coverage goals of a class, their probes sites and their control
//! dependences.
//!
//! [`class_goals`] lists, for one class file:
//! - [`GoalKind::Method`]: one per method with code;
//! - [`GoalKind::RootBranch`]: one per method without branch or switch goals
//!   (EvoSuite's root branch, covered on entry);
//! - [`GoalKind::Branch`]: both sides of every conditional jump (`true` = the
//!   jump is taken, i.e. the JVM condition holds);
//! - [`GoalKind::SwitchCase`]: one per distinct target of every switch, the
//!   default's target included (cases sharing a target are one goal; a case
//!   jumping where the default jumps belongs to the default goal), which is
//!   how JaCoCo counts switch branches;
//! - [`GoalKind::Line`]: one per distinct source line of the class.
//!
//! Compiler-generated code is filtered as JaCoCo does (see [`crate::filter`]):
//! filtered methods have no goals, filtered branches no goals and no probes.
//!
//! Ids are dense and deterministic: methods in class-file order; within a
//! method the method goal, then the root branch, then by bytecode index (a
//! line goal before a branch at the same index; true before false; switch
//! targets in [`GoalKind::SwitchCase`] order). Each goal also has a stable
//! textual key (`toChar(Ljava/lang/Character;)C@5:true`, `line:312`,
//! `method:toChar(Ljava/lang/Character;)C`, `root:...`, `...@12:case:1,2`,
//! `...@12:default`).
//!
//! Control-dependence parents (for DynaMOSA and the approach level): a goal's
//! parents are the branch-side and switch-case goals its code is control
//! dependent on; code depending on nothing but method entry gets the method's
//! root goal ([`ClassGoals::root_goal`]). A goal depending on a filtered
//! branch (or on an exceptional edge) inherits that branch's parents.
//!
//! The module is split by job: this file holds the types, `queries` the
//! lookups on a [`ClassGoals`], and `builder` computes them from a class file.

use std::collections::BTreeMap;

use model::classfile::ClassFile;
use model::names::InternalName;
use serde::{Deserialize, Serialize};

use crate::filter::{InsnFilter, MethodFilter};

mod builder;
mod queries;
#[cfg(test)]
mod tests;

pub use builder::{class_goals, class_goals_with};

/// Dense index of a goal in [`ClassGoals::goals`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GoalId(pub u32);

/// Dense index of a conditional-jump site in [`ClassGoals::branches`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BranchId(pub u32);

/// Dense index of a switch site in [`ClassGoals::switches`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SwitchId(pub u32);

/// What a goal asks to cover.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GoalKind {
    /// One side of a conditional jump; `side == true` is the jump taken.
    /// `branch` is the first site (lowest bytecode index) when the jump is
    /// duplicated in `finally` copies.
    Branch {
        /// The site that names the goal.
        branch: BranchId,
        /// Taken (`true`) or fall-through (`false`).
        side: bool,
    },
    /// One distinct target of a switch.
    SwitchCase {
        /// The site that names the goal.
        switch: SwitchId,
        /// Case keys jumping to the target, ascending; empty for a target
        /// only the default reaches.
        keys: Vec<i32>,
        /// Whether the default jumps to the target.
        default: bool,
        /// Bytecode index of the target.
        target_bci: u32,
    },
    /// A source line.
    Line {
        /// The line number.
        line: u16,
    },
    /// Entering a method.
    Method,
    /// Entering a method that has no branch goals.
    RootBranch,
    /// Reaching a call of a documented JDK method with a documented
    /// exception's trigger true, or having the call throw it (KAT,
    /// TECHNIQUES.md §2 step 3). Added by a technique, not by
    /// [`class_goals`]; `bci` is the call's, `label` names the call and the
    /// trigger, the parent is the goal of the call's line.
    ApiMisuse,
}

/// Whether the goals of `nested`, a nested, inner, local or anonymous class
/// of the class under test, count as the class under test's: they do unless
/// the compiler made the class up (`ACC_SYNTHETIC`, such as javac's switch
/// maps `Outer$1`), as JaCoCo and EvoSuite count them.
pub fn counts_with_enclosing_class(nested: &ClassFile) -> bool {
    nested.access & model::access::SYNTHETIC == 0
}

impl GoalKind {
    /// The counter the kind adds to, as JaCoCo names its counters and
    /// `report.json` groups goals: `branch` (branch sides and switch
    /// targets), `line`, `method`, `root-branch`, and `api-misuse` (no
    /// JaCoCo counter).
    pub fn category(&self) -> &'static str {
        match self {
            GoalKind::Branch { .. } | GoalKind::SwitchCase { .. } => "branch",
            GoalKind::Line { .. } => "line",
            GoalKind::Method => "method",
            GoalKind::RootBranch => "root-branch",
            GoalKind::ApiMisuse => "api-misuse",
        }
    }

    /// Short name of the kind: `branch`, `switch-case`, `line`, `method`,
    /// `root-branch`, `api-misuse`.
    pub fn name(&self) -> &'static str {
        match self {
            GoalKind::Branch { .. } => "branch",
            GoalKind::SwitchCase { .. } => "switch-case",
            GoalKind::Line { .. } => "line",
            GoalKind::Method => "method",
            GoalKind::RootBranch => "root-branch",
            GoalKind::ApiMisuse => "api-misuse",
        }
    }
}

/// One coverage goal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Goal {
    /// Its index in [`ClassGoals::goals`].
    pub id: GoalId,
    /// Stable textual key, unique within the class.
    pub key: String,
    /// What to cover.
    pub kind: GoalKind,
    /// Internal name of the class.
    pub class: InternalName,
    /// Name of the method holding the goal (the first one, for a line).
    pub method_name: String,
    /// Descriptor of that method.
    pub method_descriptor: String,
    /// Index of that method in `ClassFile::methods`.
    pub method_index: u16,
    /// Bytecode index (the jump or switch; a line's first instruction; 0
    /// for method and root goals).
    pub bci: u32,
    /// Source line, if the class has line numbers.
    pub line: Option<u16>,
    /// Readable description, e.g. `CharUtils.java:312 if (ch < 128) true`.
    pub label: String,
    /// Control-dependence parents (empty for method and root goals).
    pub parents: Vec<GoalId>,
}

/// A conditional jump that carries a probe. Copies of one jump in
/// duplicated `finally` blocks are separate sites sharing their goals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BranchSite {
    /// Its index in [`ClassGoals::branches`].
    pub id: BranchId,
    /// Index of the method in `ClassFile::methods`.
    pub method_index: u16,
    /// Bytecode index of the jump.
    pub bci: u32,
    /// The jump's opcode (`ifeq` .. `if_acmpne`, `ifnull`, `ifnonnull`).
    pub opcode: u8,
    /// Goal of the taken side.
    pub true_goal: GoalId,
    /// Goal of the fall-through side.
    pub false_goal: GoalId,
}

/// A switch that carries a probe.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwitchSite {
    /// Its index in [`ClassGoals::switches`].
    pub id: SwitchId,
    /// Index of the method in `ClassFile::methods`.
    pub method_index: u16,
    /// Bytecode index of the switch.
    pub bci: u32,
    /// `tableswitch` or `lookupswitch`.
    pub opcode: u8,
    /// One entry per distinct target the default does not jump to: the keys
    /// jumping there, the target, and its goal.
    pub cases: Vec<(Vec<i32>, u32, GoalId)>,
    /// The default's target and goal (the goal also covers the keys that
    /// jump to the same target); no goal for the default of an exhaustive
    /// switch (`filter::InsnFilter::ExhaustiveSwitchDefault`).
    pub default: (u32, Option<GoalId>),
}

/// A conditional jump or switch that has no goals, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilteredSite {
    /// Index of the method in `ClassFile::methods`.
    pub method_index: u16,
    /// Bytecode index of the instruction.
    pub bci: u32,
    /// Its opcode.
    pub opcode: u8,
    /// The filter that removed it.
    pub reason: InsnFilter,
}

/// Per-method summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MethodGoals {
    /// Index in `ClassFile::methods`.
    pub index: u16,
    /// Method name.
    pub name: String,
    /// Method descriptor.
    pub descriptor: String,
    /// Why the method has no goals, if it has none.
    pub filter: Option<MethodFilter>,
    /// The [`GoalKind::Method`] goal.
    pub method_goal: Option<GoalId>,
    /// The [`GoalKind::RootBranch`] goal, if the method has no branch goals.
    pub root_branch_goal: Option<GoalId>,
    /// The largest approach level a goal of this method can have (shortest
    /// parent chain to the root goal, maximised over the goals); a fitness
    /// for "method not entered" must exceed it.
    pub max_approach_level: u32,
}

/// All goals of one class.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassGoals {
    /// Internal name of the class.
    pub class: InternalName,
    /// The source file name (from `SourceFile`, else guessed from the name).
    pub source_file: String,
    /// The goals, indexed by [`GoalId`].
    pub goals: Vec<Goal>,
    /// Conditional-jump probe sites, by method then bytecode index.
    pub branches: Vec<BranchSite>,
    /// Switch probe sites, by method then bytecode index.
    pub switches: Vec<SwitchSite>,
    /// One entry per method of the class file, in order.
    pub methods: Vec<MethodGoals>,
    /// Conditional jumps and switches without goals (merged `finally` copies
    /// are not listed: they are sites).
    pub filtered: Vec<FilteredSite>,
    /// Line goal of each line.
    pub line_goals: BTreeMap<u16, GoalId>,
}

/// Options of [`class_goals_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysisOptions {
    /// Filter `$assertionsDisabled` tests (default `true`; JaCoCo 0.8.6
    /// counts them, so `false` reproduces its counts exactly).
    pub filter_assertions: bool,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions { filter_assertions: true }
    }
}

/// The result of [`ClassGoals::approach_level`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Approach {
    /// Number of control-dependence steps from the goal to `via`.
    pub level: u32,
    /// The closest reached goal (the goal itself at level 0).
    pub via: GoalId,
}
