//! Applies probe edits to one method's `Code` and fixes every offset.
//!
//! Each original instruction becomes a group "Before snippets + the
//! instruction (or its replacement)". Jumps, switch targets, exception
//! ranges and handlers, line numbers, local-variable ranges and stack-map
//! frames that pointed at the instruction now point at the start of its
//! group, so a jump into a branch still runs the branch's probe. Only
//! `Uninitialized(offset)` verification types keep pointing at the `new`
//! instruction itself. Code type annotations (which hold offsets) are
//! dropped. The method prologue precedes group 0 and is never a target.
//!
//! The replacement of a conditional jump may itself end with a conditional
//! jump (mutant schemas: `<push id> invokestatic Mutants.icmplt ifne L`); its
//! target is given as an original instruction index, the replaced jump's own
//! target, and is retargeted like the original jumps.

use model::bytecode::{self, BytecodeError, Insn, Operand, op};
use model::classfile::{Attribute, ClassFile, ClassFileError, CodeAttribute};
use model::code_tables::{parse_line_numbers, parse_local_variables, write_line_numbers, write_local_variables};
use model::stackmap::{Frame, FrameKind, VType, parse_stack_map, write_stack_map};

use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};

/// Why a method could not be instrumented.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RewriteError {
    /// The bytecode could not be decoded or re-assembled (e.g. a branch
    /// offset that no longer fits in 16 bits).
    #[error("{0}")]
    Bytecode(#[from] BytecodeError),
    /// A table of the `Code` attribute is malformed, or the constant pool is full.
    #[error("{0}")]
    ClassFile(#[from] ClassFileError),
    /// A probe kind asked for an edit the rewriter cannot apply (a bug in
    /// that kind: a prologue not at index 0, two replacements of one
    /// instruction, an empty replacement, a jump inside a snippet other
    /// than the final conditional jump of a conditional jump's replacement).
    #[error("probe kind {kind}: {problem}")]
    BadEdit {
        /// The probe kind's name ([`crate::probe::ProbeKind::name`]).
        kind: &'static str,
        /// What is wrong with the edit, naming the instruction index.
        problem: String,
    },
    /// The locals would exceed the class-file limit of 65,535 slots.
    #[error("max_locals {0} plus the probes' extra locals exceeds 65,535")]
    TooManyLocals(u16),
    /// The operand stack would exceed the class-file limit of 65,535 slots.
    #[error("max_stack {0} plus the probes' extra slots exceeds 65,535")]
    StackTooDeep(u16),
}

/// Result of rewriting one method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MethodOutcome {
    /// The method has no code (abstract or native).
    NoCode,
    /// The code was rewritten.
    Instrumented {
        /// The number of edits applied.
        edits: usize,
    },
}

/// Rewrites method `method_index` of `cf` with the edits of `kinds`.
///
/// On error the class file is unchanged except for constant-pool entries
/// that were appended (harmless).
///
/// # Errors
/// [`RewriteError`] when the code cannot be decoded or re-assembled.
pub fn rewrite_method(
    cf: &mut ClassFile,
    method_index: usize,
    kinds: &[Box<dyn ProbeKind + '_>],
) -> Result<MethodOutcome, RewriteError> {
    let method = &cf.methods[method_index];
    let Some(code_pos) = method.attributes.iter().position(|a| cf.constant_pool.utf8(a.name_index) == Ok("Code"))
    else {
        return Ok(MethodOutcome::NoCode);
    };
    let mut code = CodeAttribute::parse(&method.attributes[code_pos].info)?;
    let insns = bytecode::decode(&code.code)?;
    let index_of = index_by_bci(&insns, code.code.len());
    let is_target = jump_targets(&insns, &code, &index_of);
    let line_starts = line_starts(cf, &code, &index_of)?;
    let ctx = MethodContext {
        method_index: method_index as u16,
        insns: &insns,
        is_target: &is_target,
        line_starts: &line_starts,
        max_locals: code.max_locals,
    };
    let mut edits: Vec<Vec<Edit>> = vec![Vec::new(); insns.len()];
    let mut n_edits = 0;
    let mut extra_stack = 0;
    let mut extra_locals = 0;
    for kind in kinds {
        let mut emit = Emitter { constant_pool: &mut cf.constant_pool };
        for (index, edit) in kind.edits(&ctx, &mut emit)? {
            check_edit(kind.name(), index, &edit, &edits, &insns)?;
            edits[index].push(edit);
            n_edits += 1;
            extra_stack = extra_stack.max(kind.extra_stack());
            extra_locals = extra_locals.max(kind.extra_locals());
        }
    }
    if n_edits == 0 {
        return Ok(MethodOutcome::Instrumented { edits: 0 });
    }
    let layout = Layout::build(&insns, edits)?;
    let map = layout.assemble(&code.code)?;
    remap_code(cf, &mut code, &map, &index_of)?;
    code.max_stack = code.max_stack.checked_add(extra_stack).ok_or(RewriteError::StackTooDeep(code.max_stack))?;
    code.max_locals = code.max_locals.checked_add(extra_locals).ok_or(RewriteError::TooManyLocals(code.max_locals))?;
    cf.methods[method_index].attributes[code_pos].info = code.to_bytes();
    Ok(MethodOutcome::Instrumented { edits: n_edits })
}

/// Rejects edits the layout cannot apply; see [`RewriteError::BadEdit`].
///
/// Snippets are straight-line code, with one exception: the replacement of
/// a conditional jump may end with a conditional jump whose target is an
/// original instruction index, and that index must be the replaced jump's
/// own target. The stack below the jump's operands and the target are then
/// those of the original jump, so its stack-map frame still applies.
fn check_edit(
    kind: &'static str,
    index: usize,
    edit: &Edit,
    edits: &[Vec<Edit>],
    insns: &[Insn],
) -> Result<(), RewriteError> {
    let bad = |problem: String| Err(RewriteError::BadEdit { kind, problem });
    let snippet = match edit {
        Edit::Prologue(_) if index != 0 => return bad(format!("prologue at instruction {index}, not 0")),
        Edit::Replace(s) if s.is_empty() => return bad(format!("empty replacement of instruction {index}")),
        Edit::Replace(_) if edits.get(index).is_some_and(|e| e.iter().any(|x| matches!(x, Edit::Replace(_)))) => {
            return bad(format!("second replacement of instruction {index}"));
        }
        Edit::After(_) if !insns.get(index).is_some_and(produces_value) => {
            return bad(format!("code after instruction {index}, not an invoke or a field read"));
        }
        Edit::Prologue(s) | Edit::Before(s) | Edit::Replace(s) | Edit::After(s) => s,
    };
    if index >= edits.len() {
        return bad(format!("edit at instruction {index} of {}", edits.len()));
    }
    let is_jump = |i: &Insn| !i.targets().is_empty() || matches!(i.operand, Operand::Jump(_));
    let Some(at) = snippet.iter().position(is_jump) else { return Ok(()) };
    let jump = &snippet[at];
    let final_conditional = matches!(edit, Edit::Replace(_)) && at + 1 == snippet.len() && jump.is_conditional_jump();
    if !final_conditional {
        return bad(format!("snippet for instruction {index} contains a jump ({jump})"));
    }
    let original = insns.get(index).filter(|i| i.is_conditional_jump());
    let Some(original) = original else {
        return bad(format!("replacement of instruction {index}, not a conditional jump, ends with a jump ({jump})"));
    };
    let Operand::Jump(target) = jump.operand else { unreachable!("a conditional jump has a Jump operand") };
    match insns.get(target as usize) {
        Some(t) if original.targets() == [t.bci] => Ok(()),
        _ => bad(format!(
            "replacement of instruction {index} ({original}) jumps to instruction {target}, not to the original target"
        )),
    }
}

/// Whether `insn` calls a method (`invoke*`) or reads a field, the
/// instructions an [`Edit::After`] may follow.
fn produces_value(insn: &Insn) -> bool {
    matches!(
        insn.opcode,
        op::INVOKEVIRTUAL
            | op::INVOKESPECIAL
            | op::INVOKESTATIC
            | op::INVOKEINTERFACE
            | op::INVOKEDYNAMIC
            | op::GETFIELD
            | op::GETSTATIC
    )
}

/// Instruction index for each bytecode index that starts an instruction,
/// `u32::MAX` elsewhere; one extra slot for the code length.
fn index_by_bci(insns: &[Insn], code_len: usize) -> Vec<u32> {
    let mut map = vec![u32::MAX; code_len + 1];
    for (i, insn) in insns.iter().enumerate() {
        map[insn.bci as usize] = i as u32;
    }
    map[code_len] = insns.len() as u32;
    map
}

fn jump_targets(insns: &[Insn], code: &CodeAttribute, index_of: &[u32]) -> Vec<bool> {
    let mut is_target = vec![false; insns.len() + 1];
    let targets = insns.iter().flat_map(|i| i.targets());
    for bci in targets.chain(code.exception_table.iter().map(|e| e.handler_pc)) {
        if let Some(&i) = index_of.get(bci as usize).filter(|i| **i != u32::MAX) {
            is_target[i as usize] = true;
        }
    }
    is_target
}

/// The (instruction index, line) rows of every `LineNumberTable`.
fn line_starts(cf: &ClassFile, code: &CodeAttribute, index_of: &[u32]) -> Result<Vec<(usize, u16)>, ClassFileError> {
    let mut out = Vec::new();
    for a in code.attributes.iter().filter(|a| cf.attribute_name(a) == "LineNumberTable") {
        for row in parse_line_numbers(&a.info)? {
            // A row at the code length (legal, but it starts no instruction) gets no probe.
            let last = index_of.len() - 1; // the sentinel slot at the code length
            if let Some(&i) = index_of[..last].get(row.start_pc as usize).filter(|i| **i != u32::MAX) {
                out.push((i as usize, row.line));
            }
        }
    }
    Ok(out)
}

/// The new instruction list and where each original instruction went.
struct Layout {
    insns: Vec<Insn>,
    /// New index of the first instruction of each original group.
    group_start: Vec<usize>,
    /// New index of each original instruction (or its replacement).
    insn_pos: Vec<usize>,
}

impl Layout {
    fn build(old: &[Insn], mut edits: Vec<Vec<Edit>>) -> Result<Layout, BytecodeError> {
        let mut old_idx = bytecode::targets_to_indices(old)?;
        let mut insns = Vec::with_capacity(old.len() * 2);
        let mut group_start = Vec::with_capacity(old.len() + 1);
        let mut insn_pos = Vec::with_capacity(old.len() + 1);
        let mut jumps = Vec::with_capacity(old.len());
        for (i, insn) in old_idx.iter_mut().enumerate() {
            let mut replacement = None;
            let mut before = Vec::new();
            let mut after = Vec::new();
            for edit in std::mem::take(&mut edits[i]) {
                match edit {
                    Edit::Prologue(s) => insns.extend(s),
                    Edit::Before(s) => before.extend(s),
                    Edit::Replace(s) => replacement = Some(s),
                    Edit::After(s) => after.extend(s),
                }
            }
            group_start.push(insns.len());
            insns.extend(before);
            insn_pos.push(insns.len());
            match replacement {
                Some(s) => {
                    // Only a final conditional jump (see `check_edit`), to an original index.
                    if s.last().is_some_and(|l| matches!(l.operand, Operand::Jump(_))) {
                        jumps.push(insns.len() + s.len() - 1);
                    }
                    insns.extend(s);
                }
                None => {
                    jumps.push(insns.len());
                    insns.push(std::mem::replace(insn, Insn { bci: 0, opcode: 0, operand: Operand::None }));
                }
            }
            insns.extend(after);
        }
        group_start.push(insns.len());
        insn_pos.push(insns.len());
        // Original jumps (and a replacement's final jump) now target the
        // group of their original target.
        for p in jumps {
            retarget(&mut insns[p], &group_start);
        }
        Ok(Layout { insns, group_start, insn_pos })
    }

    fn assemble(&self, old_code: &[u8]) -> Result<OffsetMap, BytecodeError> {
        let assembled = bytecode::assemble(&self.insns)?;
        let at = |i: usize| assembled.bcis.get(i).copied().unwrap_or(assembled.code.len() as u32);
        Ok(OffsetMap {
            group: self.group_start.iter().map(|&i| at(i)).collect(),
            insn: self.insn_pos.iter().map(|&i| at(i)).collect(),
            old_len: old_code.len() as u32,
            code: assembled.code,
        })
    }
}

fn retarget(insn: &mut Insn, group_start: &[usize]) {
    let g = |t: &mut u32| *t = group_start[*t as usize] as u32;
    match &mut insn.operand {
        Operand::Jump(t) => g(t),
        Operand::TableSwitch { default, targets, .. } => {
            g(default);
            targets.iter_mut().for_each(g);
        }
        Operand::LookupSwitch { default, pairs } => {
            g(default);
            pairs.iter_mut().for_each(|(_, t)| g(t));
        }
        _ => {}
    }
}

/// Old bytecode index → new bytecode index, per original instruction.
struct OffsetMap {
    /// New bci of each original group start (plus the new code length).
    group: Vec<u32>,
    /// New bci of each original instruction itself (plus the code length).
    insn: Vec<u32>,
    old_len: u32,
    code: Vec<u8>,
}

impl OffsetMap {
    /// Index of the original instruction at or before `old_bci`.
    fn index(index_of: &[u32], old_bci: u32) -> usize {
        let mut b = (old_bci as usize).min(index_of.len() - 1);
        while index_of[b] == u32::MAX && b > 0 {
            b -= 1;
        }
        index_of[b] as usize
    }

    fn group_of(&self, index_of: &[u32], old_bci: u32) -> u32 {
        self.group[Self::index(index_of, old_bci.min(self.old_len))]
    }

    fn insn_of(&self, index_of: &[u32], old_bci: u32) -> u32 {
        self.insn[Self::index(index_of, old_bci.min(self.old_len))]
    }
}

fn remap_code(
    cf: &ClassFile,
    code: &mut CodeAttribute,
    map: &OffsetMap,
    index_of: &[u32],
) -> Result<(), ClassFileError> {
    code.code.clone_from(&map.code);
    for e in &mut code.exception_table {
        e.start_pc = map.group_of(index_of, e.start_pc);
        e.end_pc = map.group_of(index_of, e.end_pc);
        e.handler_pc = map.group_of(index_of, e.handler_pc);
    }
    let mut kept: Vec<Attribute> = Vec::with_capacity(code.attributes.len());
    for a in std::mem::take(&mut code.attributes) {
        let info = match cf.attribute_name(&a) {
            "LineNumberTable" => remap_lines(&a.info, map, index_of)?,
            "LocalVariableTable" | "LocalVariableTypeTable" => remap_locals(&a.info, map, index_of)?,
            "StackMapTable" => remap_frames(&a.info, map, index_of)?,
            "RuntimeVisibleTypeAnnotations" | "RuntimeInvisibleTypeAnnotations" => continue,
            _ => a.info,
        };
        kept.push(Attribute { name_index: a.name_index, info });
    }
    code.attributes = kept;
    Ok(())
}

fn remap_lines(info: &[u8], map: &OffsetMap, index_of: &[u32]) -> Result<Vec<u8>, ClassFileError> {
    let mut rows = parse_line_numbers(info)?;
    rows.iter_mut().for_each(|r| r.start_pc = map.group_of(index_of, r.start_pc));
    Ok(write_line_numbers(&rows))
}

fn remap_locals(info: &[u8], map: &OffsetMap, index_of: &[u32]) -> Result<Vec<u8>, ClassFileError> {
    let mut rows = parse_local_variables(info)?;
    for r in &mut rows {
        let start = map.group_of(index_of, r.start_pc);
        let end = map.group_of(index_of, r.start_pc + r.length);
        r.start_pc = start;
        r.length = end.saturating_sub(start);
    }
    Ok(write_local_variables(&rows))
}

fn remap_frames(info: &[u8], map: &OffsetMap, index_of: &[u32]) -> Result<Vec<u8>, ClassFileError> {
    let mut frames = parse_stack_map(info)?;
    for f in &mut frames {
        f.offset = map.group_of(index_of, f.offset);
        remap_uninitialized(f, |off| map.insn_of(index_of, off));
    }
    write_stack_map(&frames)
}

fn remap_uninitialized(frame: &mut Frame, new_offset: impl Fn(u32) -> u32) {
    let fix = |t: &mut VType| {
        if let VType::Uninitialized(off) = t {
            *off = new_offset(*off);
        }
    };
    match &mut frame.kind {
        FrameKind::SameLocals1(t) => fix(t),
        FrameKind::Append(ts) => ts.iter_mut().for_each(fix),
        FrameKind::Full { locals, stack } => locals.iter_mut().chain(stack.iter_mut()).for_each(fix),
        FrameKind::Same | FrameKind::Chop(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use model::bytecode::op;

    use super::*;

    fn insn(opcode: u8, operand: Operand) -> Insn {
        Insn { bci: 0, opcode, operand }
    }

    fn check(index: usize, edit: Edit, existing: Vec<Vec<Edit>>) -> String {
        let nops = vec![insn(op::NOP, Operand::None); existing.len()];
        check_in(&nops, index, edit, existing)
    }

    fn check_in(insns: &[Insn], index: usize, edit: Edit, existing: Vec<Vec<Edit>>) -> String {
        match check_edit("test", index, &edit, &existing, insns) {
            Ok(()) => "ok".into(),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn edits_the_layout_cannot_apply_are_rejected() {
        let nop = || vec![insn(op::NOP, Operand::None)];
        let empty = || vec![Vec::new(), Vec::new()];
        assert_eq!(check(0, Edit::Prologue(nop()), empty()), "ok");
        assert_eq!(check(1, Edit::Prologue(nop()), empty()), "probe kind test: prologue at instruction 1, not 0");
        assert_eq!(check(1, Edit::Replace(vec![]), empty()), "probe kind test: empty replacement of instruction 1");
        assert_eq!(
            check(1, Edit::Replace(nop()), vec![vec![], vec![Edit::Replace(nop())]]),
            "probe kind test: second replacement of instruction 1"
        );
        assert_eq!(check(2, Edit::Before(nop()), empty()), "probe kind test: edit at instruction 2 of 2");
        let jump = vec![insn(op::GOTO, Operand::Jump(0))];
        assert!(check(0, Edit::Before(jump), empty()).contains("contains a jump"));
    }

    /// `0: iload_0  1: iload_1  2: if_icmplt 7  5: iconst_0  6: ireturn  7: iconst_1  8: ireturn`
    /// (decoded form: targets are bytecode indices).
    fn less_than() -> Vec<Insn> {
        let at = |bci: u32, opcode: u8, operand: Operand| Insn { bci, opcode, operand };
        vec![
            at(0, op::ILOAD_0, Operand::None),
            at(1, op::ILOAD_1, Operand::None),
            at(2, op::IF_ICMPLT, Operand::Jump(7)),
            at(5, op::ICONST_0, Operand::None),
            at(6, op::IRETURN, Operand::None),
            at(7, op::ICONST_1, Operand::None),
            at(8, op::IRETURN, Operand::None),
        ]
    }

    /// `<push base> invokestatic #99; <jump>`: the shape of a mutated compare.
    fn mutated_compare(jump: Insn) -> Vec<Insn> {
        vec![insn(op::BIPUSH, Operand::Int(7)), insn(op::INVOKESTATIC, Operand::Constant(99)), jump]
    }

    #[test]
    fn a_conditional_jump_may_be_replaced_by_code_ending_in_a_jump_to_its_own_target() {
        let insns = less_than();
        let none = || vec![Vec::new(); insns.len()];
        // Instruction 5 (bci 7) is the target of the jump at instruction 2.
        let ifne = |target: u32| insn(op::IFNE, Operand::Jump(target));
        assert_eq!(check_in(&insns, 2, Edit::Replace(mutated_compare(ifne(5))), none()), "ok");
        assert_eq!(check_in(&insns, 2, Edit::Replace(vec![ifne(5)]), none()), "ok");
        let wrong_target = check_in(&insns, 2, Edit::Replace(mutated_compare(ifne(3))), none());
        assert!(wrong_target.contains("not to the original target"), "{wrong_target}");
        let beyond = check_in(&insns, 2, Edit::Replace(mutated_compare(ifne(70))), none());
        assert!(beyond.contains("not to the original target"), "{beyond}");
        let not_a_jump = check_in(&insns, 3, Edit::Replace(mutated_compare(ifne(5))), none());
        assert!(not_a_jump.contains("not a conditional jump"), "{not_a_jump}");
        // Other jumps stay forbidden: not last, unconditional, in a `Before` snippet, two jumps.
        let mut not_last = mutated_compare(ifne(5));
        not_last.push(insn(op::NOP, Operand::None));
        let goto = mutated_compare(insn(op::GOTO, Operand::Jump(5)));
        let mut two = vec![ifne(5)];
        two.extend(mutated_compare(ifne(5)));
        for edit in [
            Edit::Replace(not_last),
            Edit::Replace(goto),
            Edit::Replace(two),
            Edit::Before(mutated_compare(ifne(5))),
            Edit::Prologue(vec![ifne(5)]),
        ] {
            let index = if matches!(edit, Edit::Prologue(_)) { 0 } else { 2 };
            let problem = check_in(&insns, index, edit.clone(), none());
            assert!(problem.contains("contains a jump"), "{edit:?}: {problem}");
        }
    }

    #[test]
    fn a_replacement_jump_lands_on_the_group_start_of_its_target() {
        let insns = less_than();
        let mut edits = vec![Vec::new(); insns.len()];
        edits[2].push(Edit::Replace(mutated_compare(insn(op::IFNE, Operand::Jump(5)))));
        edits[5].push(Edit::Before(vec![insn(op::NOP, Operand::None), insn(op::NOP, Operand::None)]));
        let layout = Layout::build(&insns, edits).unwrap();
        let ops: Vec<u8> = layout.insns.iter().map(|i| i.opcode).collect();
        assert_eq!(
            ops,
            [
                op::ILOAD_0,
                op::ILOAD_1,
                op::BIPUSH,
                op::INVOKESTATIC,
                op::IFNE,
                op::ICONST_0,
                op::IRETURN,
                op::NOP,
                op::NOP,
                op::ICONST_1,
                op::IRETURN
            ]
        );
        // Group 5 (the jump's target) starts at its first `nop`, new index 7.
        assert_eq!(layout.group_start[5], 7);
        assert_eq!(layout.insns[4].operand, Operand::Jump(7));
        let code = bytecode::assemble(&layout.insns).unwrap();
        let decoded = bytecode::decode(&code.code).unwrap();
        assert_eq!(decoded[4].targets(), [code.bcis[7]]);
    }

    /// `0: iload_0  1: invokestatic #9  4: ifne 8  7: iconst_0  8: ireturn`,
    /// where the jump targets the instruction right after the call's group.
    fn call_then_test() -> Vec<Insn> {
        let at = |bci: u32, opcode: u8, operand: Operand| Insn { bci, opcode, operand };
        vec![
            at(0, op::ILOAD_0, Operand::None),
            at(1, op::INVOKESTATIC, Operand::Constant(9)),
            at(4, op::IFNE, Operand::Jump(8)),
            at(7, op::ICONST_0, Operand::None),
            at(8, op::IRETURN, Operand::None),
        ]
    }

    #[test]
    fn code_after_is_accepted_only_on_invokes() {
        let insns = call_then_test();
        let none = || vec![Vec::new(); insns.len()];
        let dup = || vec![insn(op::DUP, Operand::None), insn(op::POP, Operand::None)];
        assert_eq!(check_in(&insns, 1, Edit::After(dup()), none()), "ok");
        let not_invoke = check_in(&insns, 0, Edit::After(dup()), none());
        assert!(not_invoke.contains("not an invoke or a field read"), "{not_invoke}");
        let jump = check_in(&insns, 1, Edit::After(vec![insn(op::GOTO, Operand::Jump(0))]), none());
        assert!(jump.contains("contains a jump"), "{jump}");
    }

    #[test]
    fn code_after_follows_the_replacement_and_jumps_to_the_next_instruction_skip_it() {
        let insns = call_then_test();
        let mut edits = vec![Vec::new(); insns.len()];
        edits[1].push(Edit::After(vec![insn(op::DUP, Operand::None), insn(op::POP, Operand::None)]));
        edits[1].push(Edit::Replace(vec![insn(op::INVOKESTATIC, Operand::Constant(11))]));
        edits[1].push(Edit::Before(vec![insn(op::NOP, Operand::None)]));
        edits[2].push(Edit::Before(vec![insn(op::NOP, Operand::None)]));
        let layout = Layout::build(&insns, edits).unwrap();
        let ops: Vec<u8> = layout.insns.iter().map(|i| i.opcode).collect();
        assert_eq!(
            ops,
            [op::ILOAD_0, op::NOP, op::INVOKESTATIC, op::DUP, op::POP, op::NOP, op::IFNE, op::ICONST_0, op::IRETURN]
        );
        assert_eq!(layout.insns[2].operand, Operand::Constant(11));
        // Group 2 starts at its own `Before` snippet, after the call's `After` code.
        assert_eq!(layout.group_start[2], 5);
        assert_eq!(layout.insn_pos[1], 2);
        assert_eq!(layout.insns[6].operand, Operand::Jump(8));
    }
}
