//! The probe kinds ferrosuite inserts, one module each.
//!
//! - [`branch`]: operands of every conditional jump that is a goal, and
//!   `lcmp`/`fcmpX`/`dcmpX` replaced by recording calls.
//! - [`switch`]: the key of every switch that carries goals.
//! - [`line`]: the first instruction of every source line.
//! - [`method_entry`]: a prologue per method.

pub mod branch;
pub mod line;
pub mod method_entry;
pub mod switch;

use crate::plan::{ProbeBases, ProbePlan};
use crate::probe::ProbeKind;

/// The coverage probe kinds for one class, in the order their `Before`
/// snippets run at a shared instruction (method entry first).
pub fn coverage_probes<'a>(plan: &'a ProbePlan, bases: ProbeBases) -> Vec<Box<dyn ProbeKind + 'a>> {
    vec![
        Box::new(method_entry::MethodEntryProbes { plan, base: bases.method }),
        Box::new(line::LineProbes { plan, base: bases.line }),
        Box::new(switch::SwitchProbes { plan, base: bases.switch }),
        Box::new(branch::BranchProbes { plan, base: bases.branch }),
    ]
}
