//! Assembling: instructions whose targets are list indices to a `code`
//! array, laid out from bytecode index 0.

use super::opcodes::{Shape, op, shape};
use super::{BytecodeError, Insn, MAX_CODE_LENGTH, Operand};
use crate::classfile::{put_u16, put_u32};

/// Output of [`assemble`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assembled {
    /// The new code array.
    pub code: Vec<u8>,
    /// new bci of each input instruction
    pub bcis: Vec<u32>,
}

impl Assembled {
    /// The new bytecode index of input instruction `index`, or the code
    /// length for `index == bcis.len()` (handy for exclusive range ends such
    /// as an exception table's `end_pc`); `None` beyond that.
    pub fn bci_at(&self, index: usize) -> Option<u32> {
        match self.bcis.get(index) {
            Some(&bci) => Some(bci),
            None if index == self.bcis.len() => Some(self.code.len() as u32),
            None => None,
        }
    }
}

/// The encoding chosen for one input instruction: the opcode actually
/// written (after `ldc` → `ldc_w` and similar promotions) and whether a
/// `wide` prefix is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Form {
    opcode: u8,
    wide: bool,
}

/// Encodes `insns` laid out from bci 0 (the `bci` fields of the input are
/// ignored). Jump/switch targets are indices into `insns` and must be
/// `< insns.len()`. Switch padding is recomputed. `ldc` whose index > 255
/// becomes `ldc_w`; a local index > 255 (or an `iinc` delta outside `i8`)
/// gets the `wide` prefix, and `wide: true` forces it; `bipush` with a value
/// outside `i8` becomes `sipush`. `goto`/`jsr` whose offset does not fit in
/// `i16` become `goto_w`/`jsr_w` (the layout is iterated to a fixed point;
/// promotions are never undone). Long forms given in the input are kept.
///
/// # Errors
/// [`BytecodeError::BranchOutOfRange`] for a conditional branch whose offset
/// does not fit in 16 bits (the caller falls back),
/// [`BytecodeError::CodeTooLarge`], [`BytecodeError::BadTargetIndex`],
/// [`BytecodeError::BadOperand`] for an operand that does not match its
/// opcode, [`BytecodeError::InvalidOpcode`] (with the instruction's index as
/// `bci`) for `wide` or an opcode above 201.
pub fn assemble(insns: &[Insn]) -> Result<Assembled, BytecodeError> {
    let mut forms =
        insns.iter().enumerate().map(|(i, insn)| initial_form(i, insn, insns.len())).collect::<Result<Vec<_>, _>>()?;
    let bcis = layout(insns, &mut forms)?;
    let mut code = Vec::with_capacity(bcis[insns.len()] as usize);
    for (i, insn) in insns.iter().enumerate() {
        encode_one(&mut code, i, insn, forms[i], &bcis)?;
        debug_assert_eq!(code.len(), bcis[i + 1] as usize, "size/encode mismatch for {insn}");
    }
    let mut bcis = bcis;
    bcis.pop();
    Ok(Assembled { code, bcis })
}

/// Validates an input instruction and picks its smallest allowed encoding.
fn initial_form(index: usize, insn: &Insn, len: usize) -> Result<Form, BytecodeError> {
    let opcode = insn.opcode;
    let bad = BytecodeError::BadOperand { index, opcode };
    let fits_i8 = |v: i32| i8::try_from(v).is_ok();
    let form = match (shape(opcode), &insn.operand) {
        (Shape::Wide | Shape::Invalid, _) => {
            return Err(BytecodeError::InvalidOpcode { bci: index as u32, opcode });
        }
        (Shape::Local, &Operand::Local { index: i, wide }) => Form { opcode, wide: wide || i > 255 },
        (Shape::Iinc, &Operand::Iinc { index: i, delta, wide }) => {
            Form { opcode, wide: wide || i > 255 || !fits_i8(delta.into()) }
        }
        (Shape::Byte, &Operand::Int(v)) if fits_i8(v) => Form { opcode, wide: false },
        (Shape::Byte | Shape::Short, &Operand::Int(v)) if i16::try_from(v).is_ok() => {
            Form { opcode: op::SIPUSH, wide: false }
        }
        (Shape::Ldc, &Operand::Constant(i)) => Form { opcode: if i > 255 { op::LDC_W } else { opcode }, wide: false },
        (Shape::Table, Operand::TableSwitch { low, high, targets, .. })
            if low <= high && targets.len() as i64 == i64::from(*high) - i64::from(*low) + 1 =>
        {
            Form { opcode, wide: false }
        }
        (Shape::Plain, Operand::None)
        | (Shape::NewArray, Operand::NewArray(_))
        | (Shape::Cp, Operand::Constant(_))
        | (Shape::Interface, Operand::InvokeInterface { .. })
        | (Shape::Dynamic, Operand::InvokeDynamic { .. })
        | (Shape::MultiArray, Operand::MultiANewArray { .. })
        | (Shape::Branch | Shape::BranchWide, Operand::Jump(_))
        | (Shape::Lookup, Operand::LookupSwitch { .. }) => Form { opcode, wide: false },
        _ => return Err(bad),
    };
    match insn.targets().into_iter().find(|&t| t as usize >= len) {
        Some(target) => Err(BytecodeError::BadTargetIndex { index, target }),
        None => Ok(form),
    }
}

/// Encoded size in bytes of an instruction with `form` at `bci`.
fn size(form: Form, operand: &Operand, bci: u64) -> u64 {
    let pad = 3 - bci % 4;
    match shape(form.opcode) {
        Shape::Local if form.wide => 4,
        Shape::Iinc if form.wide => 6,
        Shape::Local | Shape::Byte | Shape::NewArray | Shape::Ldc => 2,
        Shape::Iinc | Shape::Short | Shape::Cp | Shape::Branch => 3,
        Shape::MultiArray => 4,
        Shape::Interface | Shape::Dynamic | Shape::BranchWide => 5,
        Shape::Table => 1 + pad + 12 + 4 * count(operand),
        Shape::Lookup => 1 + pad + 8 + 8 * count(operand),
        Shape::Plain | Shape::Wide | Shape::Invalid => 1,
    }
}

/// Number of cases of a switch operand.
fn count(operand: &Operand) -> u64 {
    match operand {
        Operand::TableSwitch { targets, .. } => targets.len() as u64,
        Operand::LookupSwitch { pairs, .. } => pairs.len() as u64,
        _ => 0,
    }
}

/// The bytecode index of every instruction plus the end of the code.
fn offsets(insns: &[Insn], forms: &[Form]) -> Vec<u64> {
    let mut bcis = Vec::with_capacity(insns.len() + 1);
    let mut bci = 0;
    for (insn, &form) in insns.iter().zip(forms) {
        bcis.push(bci);
        bci += size(form, &insn.operand, bci);
    }
    bcis.push(bci);
    bcis
}

/// Lays the code out, promoting `goto`/`jsr` to their wide forms until every
/// short one fits; returns the bytecode indices (plus the end).
fn layout(insns: &[Insn], forms: &mut [Form]) -> Result<Vec<u32>, BytecodeError> {
    // Switch padding can shrink by up to 3 bytes per switch when earlier code
    // grows, everything else only grows: past this bound the code stays too large.
    let slack = 3 * insns.iter().filter(|i| i.is_switch()).count() as u64;
    loop {
        let bcis = offsets(insns, forms);
        let end = bcis[insns.len()];
        let too_large = BytecodeError::CodeTooLarge { len: usize::try_from(end).unwrap_or(usize::MAX) };
        if end > MAX_CODE_LENGTH as u64 + slack {
            return Err(too_large);
        }
        if !promote_far_jumps(insns, forms, &bcis) {
            if end > MAX_CODE_LENGTH as u64 {
                return Err(too_large);
            }
            return Ok(bcis.into_iter().map(|b| b as u32).collect());
        }
    }
}

/// Turns every short `goto`/`jsr` whose offset does not fit in 16 bits into
/// `goto_w`/`jsr_w`; returns whether anything changed.
fn promote_far_jumps(insns: &[Insn], forms: &mut [Form], bcis: &[u64]) -> bool {
    let mut changed = false;
    for (i, insn) in insns.iter().enumerate() {
        if let Operand::Jump(t) = insn.operand
            && matches!(forms[i].opcode, op::GOTO | op::JSR)
            && i16::try_from(bcis[t as usize] as i64 - bcis[i] as i64).is_err()
        {
            forms[i].opcode = if forms[i].opcode == op::GOTO { op::GOTO_W } else { op::JSR_W };
            changed = true;
        }
    }
    changed
}

/// Appends the encoding of input instruction `index` (already validated by
/// [`initial_form`]) to `out`, which holds the code before it.
fn encode_one(out: &mut Vec<u8>, index: usize, insn: &Insn, form: Form, bcis: &[u32]) -> Result<(), BytecodeError> {
    let bci = bcis[index];
    let rel = |t: u32| i64::from(bcis[t as usize]) - i64::from(bci);
    if form.wide {
        out.push(op::WIDE);
    }
    out.push(form.opcode);
    match &insn.operand {
        Operand::None => {}
        &Operand::Local { index: i, .. } => put_index(out, i, form.wide),
        &Operand::Iinc { index: i, delta, .. } => {
            put_index(out, i, form.wide);
            if form.wide { put_u16(out, delta as u16) } else { out.push(delta as u8) }
        }
        &Operand::Int(v) => {
            if form.opcode == op::BIPUSH {
                out.push(v as u8)
            } else {
                put_u16(out, v as u16)
            }
        }
        &Operand::NewArray(atype) => out.push(atype),
        &Operand::Constant(i) => put_index(out, i, form.opcode != op::LDC),
        &Operand::InvokeInterface { index: i, count } => {
            put_u16(out, i);
            out.extend_from_slice(&[count, 0]);
        }
        &Operand::InvokeDynamic { index: i } => put_u32(out, u32::from(i) << 16),
        &Operand::MultiANewArray { index: i, dims } => {
            put_u16(out, i);
            out.push(dims);
        }
        &Operand::Jump(t) => encode_jump(out, index, form, rel(t))?,
        Operand::TableSwitch { .. } | Operand::LookupSwitch { .. } => encode_switch(out, &insn.operand, rel),
    }
    Ok(())
}

/// Padding and body of a `tableswitch`/`lookupswitch`; `rel` turns a target
/// index into an offset from the switch.
fn encode_switch(out: &mut Vec<u8>, operand: &Operand, rel: impl Fn(u32) -> i64) {
    pad(out);
    match operand {
        Operand::TableSwitch { default, low, high, targets } => {
            put_u32(out, rel(*default) as u32);
            put_u32(out, *low as u32);
            put_u32(out, *high as u32);
            targets.iter().for_each(|&t| put_u32(out, rel(t) as u32));
        }
        Operand::LookupSwitch { default, pairs } => {
            put_u32(out, rel(*default) as u32);
            put_u32(out, pairs.len() as u32);
            for &(key, t) in pairs {
                put_u32(out, key as u32);
                put_u32(out, rel(t) as u32);
            }
        }
        _ => {}
    }
}

/// A local-variable or constant-pool index: two bytes if `long`, else one.
fn put_index(out: &mut Vec<u8>, index: u16, long: bool) {
    if long { put_u16(out, index) } else { out.push(index as u8) }
}

/// Zero bytes up to the next multiple of four.
fn pad(out: &mut Vec<u8>) {
    while !out.len().is_multiple_of(4) {
        out.push(0);
    }
}

/// A branch offset: four bytes for `goto_w`/`jsr_w`, else two (which must fit).
fn encode_jump(out: &mut Vec<u8>, index: usize, form: Form, offset: i64) -> Result<(), BytecodeError> {
    if shape(form.opcode) == Shape::BranchWide {
        put_u32(out, offset as u32);
        return Ok(());
    }
    let short = i16::try_from(offset).map_err(|_| BytecodeError::BranchOutOfRange { index, offset })?;
    put_u16(out, short as u16);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytecode::tests::{insn, plain, round_trip};
    use crate::bytecode::{decode, targets_to_indices};

    #[test]
    fn tableswitch_padding_follows_the_switch_position() {
        // iload_0; tableswitch 1..=2 {1: iconst_1/ireturn, 2: iconst_2/ireturn} default: iconst_0/ireturn
        let switch = insn(op::TABLESWITCH, Operand::TableSwitch { default: 6, low: 1, high: 2, targets: vec![2, 4] });
        let tail = [
            plain(op::ICONST_1),
            plain(op::IRETURN),
            plain(op::ICONST_2),
            plain(op::IRETURN),
            plain(op::ICONST_0),
            plain(op::IRETURN),
        ];
        let mut input = vec![plain(op::ILOAD_0), switch];
        input.extend(tail.iter().cloned());
        let out = assemble(&input).unwrap();
        // switch at 1: two padding bytes, default at 4.
        assert_eq!(&out.code[..4], [op::ILOAD_0, op::TABLESWITCH, 0, 0]);
        assert_eq!(out.bcis[2], 1 + 1 + 2 + 12 + 8);
        assert_eq!(i32::from_be_bytes(out.code[4..8].try_into().unwrap()), out.bcis[6] as i32 - 1);

        // One more instruction before it: the switch is at 2, one padding byte.
        let mut shifted: Vec<Insn> = input.clone();
        shifted.iter_mut().for_each(|i| i.operand.try_map_targets(|t| Ok::<_, ()>(t + 1)).unwrap());
        shifted.insert(0, plain(op::NOP));
        let out2 = assemble(&shifted).unwrap();
        assert_eq!(&out2.code[..4], [op::NOP, op::ILOAD_0, op::TABLESWITCH, 0]);
        assert_eq!(out2.code.len(), out.code.len());
        let decoded = decode(&out2.code).unwrap();
        assert_eq!(
            decoded[2].operand,
            Operand::TableSwitch { default: out2.bcis[7], low: 1, high: 2, targets: vec![out2.bcis[3], out2.bcis[5]] }
        );
        assert_eq!(decoded[2].targets(), vec![out2.bcis[7], out2.bcis[3], out2.bcis[5]]);
    }

    #[test]
    fn lookupswitch_round_trips_at_every_alignment() {
        for nops in 0..4 {
            let mut input: Vec<Insn> = (0..nops).map(|_| plain(op::NOP)).collect();
            let base = nops as u32;
            input.push(insn(
                op::LOOKUPSWITCH,
                Operand::LookupSwitch { default: base + 1, pairs: vec![(-5, base + 2), (70000, base + 1)] },
            ));
            input.extend([plain(op::RETURN), plain(op::RETURN)]);
            let out = assemble(&input).unwrap();
            let pad = 3 - nops % 4;
            assert_eq!((nops + 1 + pad) % 4, 0);
            assert!(out.code[nops + 1..nops + 1 + pad].iter().all(|&b| b == 0));
            assert_eq!(out.bcis[nops + 1] as usize, nops + 1 + pad + 8 + 16);
            round_trip(&out.code).unwrap();
        }
    }

    #[test]
    fn far_goto_becomes_goto_w() {
        let n = 40_000;
        let mut input = vec![insn(op::GOTO, Operand::Jump(n + 1))];
        input.extend((0..n).map(|_| plain(op::NOP)));
        input.push(plain(op::RETURN));
        input.push(insn(op::GOTO, Operand::Jump(0))); // backward, also far
        let out = assemble(&input).unwrap();
        assert_eq!(out.code[0], op::GOTO_W);
        assert_eq!(i32::from_be_bytes(out.code[1..5].try_into().unwrap()), 5 + n as i32);
        let back = out.bcis[n as usize + 2] as usize;
        assert_eq!(out.code[back], op::GOTO_W);
        assert_eq!(i32::from_be_bytes(out.code[back + 1..back + 5].try_into().unwrap()), -(back as i32));
        let decoded = decode(&out.code).unwrap();
        assert_eq!(decoded[0].operand, Operand::Jump(out.bcis[n as usize + 1]));
        assert_eq!(decoded.last().unwrap().operand, Operand::Jump(0));
    }

    #[test]
    fn goto_promotion_iterates_to_a_fixed_point() {
        // nop; goto end; 32764 nops; goto 0; return. With short gotos the back
        // jump is exactly -32768 (fits); widening the first goto pushes it out.
        let n = 32_764;
        let mut input = vec![plain(op::NOP), insn(op::GOTO, Operand::Jump(n + 3))];
        input.extend((0..n).map(|_| plain(op::NOP)));
        input.push(insn(op::GOTO, Operand::Jump(0)));
        input.push(plain(op::RETURN));
        let out = assemble(&input).unwrap();
        assert_eq!(out.code[1], op::GOTO_W);
        let back = out.bcis[n as usize + 2] as usize;
        assert_eq!(back, 1 + 5 + n as usize);
        assert_eq!(out.code[back], op::GOTO_W);
        let again = targets_to_indices(&decode(&out.code).unwrap()).unwrap();
        assert_eq!(
            again.iter().map(|i| &i.operand).collect::<Vec<_>>(),
            input.iter().map(|i| &i.operand).collect::<Vec<_>>()
        );
    }

    #[test]
    fn far_conditional_branch_is_out_of_range() {
        let n = 40_000;
        let mut input = vec![plain(op::ILOAD_0), insn(op::IFEQ, Operand::Jump(n + 2))];
        input.extend((0..n).map(|_| plain(op::NOP)));
        input.push(plain(op::RETURN));
        assert_eq!(assemble(&input), Err(BytecodeError::BranchOutOfRange { index: 1, offset: 3 + i64::from(n) }));
        // Within range it assembles.
        input.truncate(30_000);
        input[1].operand = Operand::Jump(29_999);
        assert!(assemble(&input).is_ok());
    }

    #[test]
    fn code_too_large_is_reported() {
        let input: Vec<Insn> = (0..65_536).map(|_| plain(op::NOP)).collect();
        assert_eq!(assemble(&input), Err(BytecodeError::CodeTooLarge { len: 65_536 }));
        assert_eq!(assemble(&input[..65_535]).unwrap().code.len(), 65_535);
    }

    #[test]
    fn operand_promotions_and_kept_long_forms() {
        let out = assemble(&[
            insn(op::LDC, Operand::Constant(300)),
            insn(op::LDC, Operand::Constant(7)),
            insn(op::LDC_W, Operand::Constant(7)),
        ])
        .unwrap();
        assert_eq!(out.code, [op::LDC_W, 1, 44, op::LDC, 7, op::LDC_W, 0, 7]);
        let out = assemble(&[
            insn(op::BIPUSH, Operand::Int(-3)),
            insn(op::BIPUSH, Operand::Int(200)),
            insn(op::SIPUSH, Operand::Int(1)),
        ])
        .unwrap();
        assert_eq!(out.code, [op::BIPUSH, 0xfd, op::SIPUSH, 0, 200, op::SIPUSH, 0, 1]);
        assert_eq!(
            assemble(&[insn(op::SIPUSH, Operand::Int(70_000))]),
            Err(BytecodeError::BadOperand { index: 0, opcode: op::SIPUSH })
        );
        let out = assemble(&[insn(op::GOTO_W, Operand::Jump(1)), insn(op::JSR_W, Operand::Jump(0))]).unwrap();
        assert_eq!(out.code, [op::GOTO_W, 0, 0, 0, 5, op::JSR_W, 0xff, 0xff, 0xff, 0xfb]);
    }

    #[test]
    fn invoke_operands_encode_their_extra_bytes() {
        let input = [
            insn(op::INVOKEINTERFACE, Operand::InvokeInterface { index: 0x0102, count: 3 }),
            insn(op::INVOKEDYNAMIC, Operand::InvokeDynamic { index: 0x0304 }),
            insn(op::MULTIANEWARRAY, Operand::MultiANewArray { index: 0x0506, dims: 2 }),
            insn(op::NEWARRAY, Operand::NewArray(10)),
            plain(op::ARETURN),
        ];
        let out = assemble(&input).unwrap();
        assert_eq!(out.code, [185, 1, 2, 3, 0, 186, 3, 4, 0, 0, 197, 5, 6, 2, 188, 10, 176]);
        assert_eq!(out.bcis, [0, 5, 10, 14, 16]);
        let decoded = decode(&out.code).unwrap();
        assert_eq!(
            decoded.iter().map(|i| &i.operand).collect::<Vec<_>>(),
            input.iter().map(|i| &i.operand).collect::<Vec<_>>()
        );
        assert_eq!(out.bci_at(5), Some(17));
        assert_eq!(out.bci_at(6), None);
    }

    #[test]
    fn assembler_rejects_bad_input() {
        assert_eq!(
            assemble(&[insn(op::GOTO, Operand::Jump(1))]),
            Err(BytecodeError::BadTargetIndex { index: 0, target: 1 })
        );
        assert_eq!(
            assemble(&[insn(op::ILOAD, Operand::None)]),
            Err(BytecodeError::BadOperand { index: 0, opcode: op::ILOAD })
        );
        assert_eq!(
            assemble(&[plain(op::NOP), insn(op::ILOAD_1, Operand::Local { index: 1, wide: false })]),
            Err(BytecodeError::BadOperand { index: 1, opcode: op::ILOAD_1 })
        );
        assert_eq!(assemble(&[plain(op::WIDE)]), Err(BytecodeError::InvalidOpcode { bci: 0, opcode: op::WIDE }));
        assert_eq!(assemble(&[plain(0xca)]), Err(BytecodeError::InvalidOpcode { bci: 0, opcode: 0xca }));
        let bad_table = insn(op::TABLESWITCH, Operand::TableSwitch { default: 0, low: 0, high: 2, targets: vec![0] });
        assert_eq!(assemble(&[bad_table]), Err(BytecodeError::BadOperand { index: 0, opcode: op::TABLESWITCH }));
        assert_eq!(assemble(&[]).unwrap(), Assembled { code: vec![], bcis: vec![] });
    }
}
