//! The probe kinds ferrosuite inserts, one module each.
//!
//! - [`branch`]: operands of every conditional jump that is a goal, and
//!   `lcmp`/`fcmpX`/`dcmpX` replaced by recording calls.
//! - [`call_condition`]: the distance of a condition over a call's operands
//!   (KAT's trigger conditions), recorded as a branch record.
//! - [`switch`]: the key of every switch that carries goals.
//! - [`line`](mod@line): the first instruction of every source line.
//! - [`commit`]: JaCoCo's probe points that decide whether a branch goal
//!   counts (`analysis::commit`), recorded as line-kind probes.
//! - [`method_entry`]: a prologue per method.
//! - [`string_equals`]: `String.equals` calls that remember the compared
//!   strings (dynamic seeding).
//! - [`exit`]: `System.exit`/`Runtime.exit`/`Runtime.halt` rewritten to throw.
//! - [`loop_check`]: a timeout check at every loop back-edge.
//! - [`effects`]: a sandbox check before calls that write files, open
//!   sockets or start processes.
//! - [`environment`]: clock, random, UUID and identity-hash calls made
//!   deterministic in a worker.
//! - [`record`]: entry and exit of every method with receiver, arguments
//!   and result (Palus's sample execution; not a coverage probe: used by
//!   [`crate::record::instrument_recording`]).
//! - [`value_log`]: the results of calls into the JDK, for TARDIS's
//!   concolic replay (a technique's extra kind).
//! - [`mutants`]: the mutants of a method as a mutant schema (not a
//!   coverage probe: used by [`crate::Instrumenter::instrument_mutants`]).

pub mod branch;
pub mod call_condition;
pub mod commit;
pub mod effects;
pub mod environment;
pub mod exit;
pub mod line;
pub mod loop_check;
pub mod method_entry;
pub mod mutants;
pub mod record;
pub mod string_equals;
pub mod switch;
pub mod value_log;

use model::bytecode::{Insn, Operand, op};
use model::constant_pool::ConstantPool;
use model::descriptor::{BaseType, FieldType};

use crate::plan::{ProbeBases, ProbePlan};
use crate::probe::ProbeKind;

/// The coverage probe kinds for one class, in the order their `Before`
/// snippets run at a shared instruction (method entry first).
pub fn coverage_probes<'a>(plan: &'a ProbePlan, bases: ProbeBases) -> Vec<Box<dyn ProbeKind + 'a>> {
    vec![
        Box::new(method_entry::MethodEntryProbes { plan, base: bases.method }),
        Box::new(line::LineProbes { plan, base: bases.line }),
        Box::new(commit::CommitProbes { plan, bases }),
        Box::new(switch::SwitchProbes { plan, base: bases.switch }),
        Box::new(branch::BranchProbes { plan, base: bases.branch }),
    ]
}

/// Whether a probe kind records line-kind probes (line and commit probes),
/// the first ones a method that cannot take every probe gives up.
pub fn is_line_kind(name: &str) -> bool {
    matches!(name, "line" | "commit")
}

/// The sandbox kinds (exit rewriting, loop checks, effect checks) that keep
/// a class under test from ending or hanging the worker JVM or leaving its
/// folder, and the environment rewrite that makes it deterministic there.
pub fn sandbox_probes<'a>(constant_pool: &ConstantPool) -> Vec<Box<dyn ProbeKind + 'a>> {
    vec![
        Box::new(exit::ExitRewrite::new(constant_pool)),
        Box::new(loop_check::LoopCheck),
        Box::new(effects::EffectChecks::new(constant_pool)),
        Box::new(environment::EnvironmentRewrite::new(constant_pool)),
    ]
}

/// `xLOAD index` or `xSTORE index` (the rewriter widens large indices).
pub(crate) fn local(opcode: u8, index: u16) -> Insn {
    Insn { bci: 0, opcode, operand: Operand::Local { index, wide: false } }
}

/// The store instruction for a value of type `t`.
pub(crate) fn store_opcode(t: &FieldType) -> u8 {
    match t {
        FieldType::Base(BaseType::Long) => op::LSTORE,
        FieldType::Base(BaseType::Float) => op::FSTORE,
        FieldType::Base(BaseType::Double) => op::DSTORE,
        FieldType::Base(_) => op::ISTORE,
        _ => op::ASTORE,
    }
}

/// The load instruction for a value of type `t`.
pub(crate) fn load_opcode(t: &FieldType) -> u8 {
    match t {
        FieldType::Base(BaseType::Long) => op::LLOAD,
        FieldType::Base(BaseType::Float) => op::FLOAD,
        FieldType::Base(BaseType::Double) => op::DLOAD,
        FieldType::Base(_) => op::ILOAD,
        _ => op::ALOAD,
    }
}
