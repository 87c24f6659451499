//! Per-method analysis feeding [`crate::goals`] (crate-private): decoding,
//! line table, control flow, control dependence, JaCoCo filters, and the
//! grouping of branch instructions into decisions (one decision per
//! conditional jump or switch, duplicated `finally` copies grouped).

use std::collections::{BTreeMap, BTreeSet};

use model::access;
use model::bytecode::{Insn, Operand, decode};
use model::classfile::{Attribute, ClassFile, CodeAttribute, Member};
use model::code_tables::{LineNumber, parse_line_numbers, parse_local_variables};

use crate::cfg::ControlFlowGraph;
use crate::condition::{LocalName, MethodContext};
use crate::control_dependence::ControlDependence;
use crate::dominance::PostDominators;
use crate::error::{AnalysisError, Location};
use crate::filter::{InsnFilter, MethodFilter, MethodFilters, instruction_filters, method_filter};
use crate::insn::split_descriptor;

/// One distinct target of a switch decision, in goal order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TargetSpec {
    /// Case keys jumping here, ascending (empty for a pure default target).
    pub keys: Vec<i32>,
    /// Whether the default jumps here.
    pub default: bool,
    /// Target bytecode index (in the first site's copy).
    pub target: u32,
}

/// A conditional jump or switch that yields goals, with all its copies.
#[derive(Debug, Clone)]
pub(crate) struct Decision {
    /// Instruction indices of the copies, ascending; the first names the goals.
    pub sites: Vec<usize>,
    /// `None` for a conditional jump, the targets for a switch.
    pub switch: Option<Vec<TargetSpec>>,
}

/// Everything [`crate::goals`] needs about one method with goals.
pub(crate) struct MethodAnalysis<'a> {
    pub index: u16,
    pub name: &'a str,
    pub descriptor: &'a str,
    pub insns: Vec<Insn>,
    /// The source line of each instruction.
    pub lines: Vec<Option<u16>>,
    pub cfg: ControlFlowGraph,
    pub cd: ControlDependence,
    pub filters: MethodFilters,
    pub ctx: MethodContext<'a>,
    /// Decisions ordered by the bytecode index of their first site.
    pub decisions: Vec<Decision>,
}

impl MethodAnalysis<'_> {
    /// The line of the first instruction that has one.
    pub fn first_line(&self) -> Option<u16> {
        self.lines.iter().flatten().next().copied()
    }

    /// Whether instruction `k` counts for line coverage (JaCoCo ignores
    /// filtered instructions; a single-target switch is still code).
    pub fn counts_for_lines(&self, k: usize) -> bool {
        !matches!(self.filters.ignored.get(&self.insns[k].bci), Some(f) if *f != InsnFilter::SingleTargetSwitch)
    }

    /// The instructions of the block ending at instruction `k`, up to `k`.
    pub fn block_until(&self, k: usize) -> &[Insn] {
        let start = self.cfg.block_containing(self.insns[k].bci).map_or(k, |b| self.cfg.block(b).insns.start);
        &self.insns[start..=k]
    }
}

/// Analyses method `index` of `cf`; `Ok(Err(filter))` when the whole method
/// is filtered.
pub(crate) fn analyse<'a>(
    cf: &'a ClassFile,
    index: u16,
    m: &'a Member,
    filter_assertions: bool,
) -> Result<Result<MethodAnalysis<'a>, MethodFilter>, AnalysisError> {
    let name = cf.member_name(m);
    let descriptor = cf.member_descriptor(m);
    let location = Location::method(cf.name(), name, descriptor);
    let code = cf.code(m).map_err(|e| AnalysisError::new(location.clone(), e))?;
    let insns = match &code {
        Some(c) => Some(decode(&c.code).map_err(|e| AnalysisError::new(location.clone(), e))?),
        None => None,
    };
    if let Some(filter) = method_filter(cf, m, insns.as_deref()) {
        return Ok(Err(filter));
    }
    let (Some(code), Some(insns)) = (code, insns) else { return Ok(Err(MethodFilter::NoCode)) };
    let cfg = ControlFlowGraph::build(&insns, &code.exception_table, &location)?;
    let cd = ControlDependence::compute(&cfg, &PostDominators::compute(&cfg));
    let line_table = line_numbers(cf, &code).map_err(|e| AnalysisError::new(location.clone(), e))?;
    let lines = insns.iter().map(|i| line_at(&line_table, i.bci)).collect();
    let filters = instruction_filters(cf, name, &insns, &code, filter_assertions);
    let (params, _) = split_descriptor(descriptor);
    let ctx = MethodContext {
        cp: &cf.constant_pool,
        is_static: m.access & access::STATIC != 0,
        params: params.into_iter().map(str::to_string).collect(),
        locals: local_names(cf, &code),
    };
    let decisions = decisions(&insns, &filters);
    Ok(Ok(MethodAnalysis { index, name, descriptor, insns, lines, cfg, cd, filters, ctx, decisions }))
}

fn code_attributes<'c>(cf: &ClassFile, code: &'c CodeAttribute, name: &str) -> impl Iterator<Item = &'c Attribute> {
    let name_owned = name.to_string();
    let cp = &cf.constant_pool;
    code.attributes.iter().filter(move |a| cp.utf8(a.name_index).is_ok_and(|n| n == name_owned))
}

/// The source line of each of `insns` (decoded from `code`), as JaCoCo
/// assigns lines; `None` where the `LineNumberTable` has none (or the
/// class was compiled without it, or the table is malformed).
pub fn instruction_lines(cf: &ClassFile, code: &CodeAttribute, insns: &[Insn]) -> Vec<Option<u16>> {
    let rows = line_numbers(cf, code).unwrap_or_default();
    insns.iter().map(|i| line_at(&rows, i.bci)).collect()
}

/// All `LineNumberTable` rows, stable-sorted by `start_pc`.
pub(crate) fn line_numbers(
    cf: &ClassFile,
    code: &CodeAttribute,
) -> Result<Vec<LineNumber>, model::classfile::ClassFileError> {
    let mut rows = Vec::new();
    for a in code_attributes(cf, code, "LineNumberTable") {
        rows.extend(parse_line_numbers(&a.info)?);
    }
    rows.sort_by_key(|r| r.start_pc);
    Ok(rows)
}

/// The line of `bci`: the last row (in table order) of the greatest
/// `start_pc <= bci`, as ASM and JaCoCo assign it.
pub(crate) fn line_at(rows: &[LineNumber], bci: u32) -> Option<u16> {
    let i = rows.partition_point(|r| r.start_pc <= bci);
    i.checked_sub(1).map(|i| rows[i].line)
}

/// Local variable names from the `LocalVariableTable`; a malformed table
/// only costs the names.
fn local_names(cf: &ClassFile, code: &CodeAttribute) -> Vec<LocalName> {
    let cp = &cf.constant_pool;
    code_attributes(cf, code, "LocalVariableTable")
        .filter_map(|a| parse_local_variables(&a.info).ok())
        .flatten()
        .filter_map(|v| {
            Some(LocalName {
                start: v.start_pc,
                end: v.start_pc + v.length,
                slot: v.index,
                name: cp.utf8(v.name_index).ok()?.to_string(),
                descriptor: cp.utf8(v.descriptor_index).ok()?.to_string(),
            })
        })
        .collect()
}

/// Groups the unfiltered conditional jumps and switches into decisions.
fn decisions(insns: &[Insn], filters: &MethodFilters) -> Vec<Decision> {
    let index_of: BTreeMap<u32, usize> = insns.iter().enumerate().map(|(k, i)| (i.bci, k)).collect();
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (k, insn) in insns.iter().enumerate() {
        if !(insn.is_conditional_jump() || insn.is_switch()) || filters.ignored.contains_key(&insn.bci) {
            continue;
        }
        let rep = filters.merged.get(&insn.bci).and_then(|r| index_of.get(r)).copied().unwrap_or(k);
        let same_shape = jacoco_ordinals(&insns[rep]).len() == jacoco_ordinals(insn).len();
        groups.entry(if same_shape { rep } else { k }).or_default().push(k);
    }
    let mut out: Vec<Decision> = groups
        .into_values()
        .map(|mut sites| {
            sites.sort_unstable();
            let first = &insns[sites[0]];
            let switch =
                first.is_switch().then(|| switch_targets(first, !filters.without_default.contains(&first.bci)));
            Decision { sites, switch }
        })
        .collect();
    out.sort_by_key(|d| d.sites[0]);
    out
}

/// The distinct targets of a switch in JaCoCo's branch order: the default
/// first, then case targets in operand order.
pub(crate) fn jacoco_ordinals(insn: &Insn) -> Vec<u32> {
    let mut seen = BTreeSet::new();
    insn.targets().into_iter().filter(|t| seen.insert(*t)).collect()
}

/// The switch's distinct targets in goal order: by smallest key, the
/// default's target last (left out unless `with_default`: the default of
/// an exhaustive switch has no branch).
fn switch_targets(insn: &Insn, with_default: bool) -> Vec<TargetSpec> {
    let (default, pairs): (u32, Vec<(i32, u32)>) = match &insn.operand {
        Operand::TableSwitch { default, low, targets, .. } => {
            (*default, targets.iter().enumerate().map(|(i, t)| (low.wrapping_add(i as i32), *t)).collect())
        }
        Operand::LookupSwitch { default, pairs } => (*default, pairs.clone()),
        _ => return Vec::new(),
    };
    let mut by_target: BTreeMap<u32, Vec<i32>> = BTreeMap::new();
    for (key, target) in pairs {
        by_target.entry(target).or_default().push(key);
    }
    let default_keys = by_target.remove(&default).unwrap_or_default();
    let mut out: Vec<TargetSpec> = by_target
        .into_iter()
        .map(|(target, mut keys)| {
            keys.sort_unstable();
            TargetSpec { keys, default: false, target }
        })
        .collect();
    out.sort_by_key(|t| t.keys[0]);
    if with_default {
        let mut keys = default_keys;
        keys.sort_unstable();
        out.push(TargetSpec { keys, default: true, target: default });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switch_targets_group_keys_and_put_the_default_last() {
        let insn = Insn {
            bci: 0,
            opcode: model::bytecode::op::LOOKUPSWITCH,
            operand: Operand::LookupSwitch { default: 40, pairs: vec![(1, 30), (2, 20), (5, 30), (9, 40)] },
        };
        let got = switch_targets(&insn, true);
        assert_eq!(
            got,
            vec![
                TargetSpec { keys: vec![1, 5], default: false, target: 30 },
                TargetSpec { keys: vec![2], default: false, target: 20 },
                TargetSpec { keys: vec![9], default: true, target: 40 },
            ]
        );
        assert_eq!(jacoco_ordinals(&insn), vec![40, 30, 20]);
    }

    #[test]
    fn lines_come_from_the_last_row_at_or_before_the_bci() {
        let rows = [LineNumber { start_pc: 0, line: 10 }, LineNumber { start_pc: 4, line: 12 }];
        assert_eq!(line_at(&rows, 0), Some(10));
        assert_eq!(line_at(&rows, 3), Some(10));
        assert_eq!(line_at(&rows, 9), Some(12));
        assert_eq!(line_at(&[], 9), None);
    }
}
