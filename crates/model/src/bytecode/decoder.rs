//! Decoding: a `code` array to [`Insn`]s with absolute targets, and those
//! targets to instruction indices for the assembler.

use std::collections::HashMap;

use super::opcodes::{Shape, shape};
use super::{BytecodeError, Insn, Operand};

/// Decodes a whole code array; targets become absolute bytecode indices and are checked to be instruction starts.
///
/// # Errors
/// [`BytecodeError::Truncated`], [`BytecodeError::InvalidOpcode`],
/// [`BytecodeError::BadWide`], [`BytecodeError::BadSwitch`] for malformed
/// instructions; [`BytecodeError::BadTarget`] for a target outside the code
/// or inside an instruction. Never panics.
pub fn decode(code: &[u8]) -> Result<Vec<Insn>, BytecodeError> {
    let mut insns = Vec::new();
    let mut starts = vec![false; code.len()];
    let mut pos = 0;
    while pos < code.len() {
        starts[pos] = true;
        let (insn, next) = decode_one(code, pos)?;
        insns.push(insn);
        pos = next;
    }
    for insn in &insns {
        if let Some(t) = insn.targets().into_iter().find(|&t| !starts[t as usize]) {
            return Err(BytecodeError::BadTarget { bci: insn.bci, target: t.into() });
        }
    }
    Ok(insns)
}

/// Bounds-checked reads of one instruction's operand bytes.
struct Cursor<'a> {
    code: &'a [u8],
    bci: u32,
    opcode: u8,
    pos: usize,
}

impl Cursor<'_> {
    fn truncated(&self) -> BytecodeError {
        BytecodeError::Truncated { bci: self.bci, opcode: self.opcode }
    }

    /// Checks that `n` more bytes are available without reading them.
    fn ensure(&self, n: usize) -> Result<(), BytecodeError> {
        if self.code.len() - self.pos < n { Err(self.truncated()) } else { Ok(()) }
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], BytecodeError> {
        self.ensure(N)?;
        let mut b = [0; N];
        b.copy_from_slice(&self.code[self.pos..self.pos + N]);
        self.pos += N;
        Ok(b)
    }

    fn u8(&mut self) -> Result<u8, BytecodeError> {
        Ok(self.take::<1>()?[0])
    }

    fn i8(&mut self) -> Result<i8, BytecodeError> {
        Ok(i8::from_be_bytes(self.take()?))
    }

    fn u16(&mut self) -> Result<u16, BytecodeError> {
        Ok(u16::from_be_bytes(self.take()?))
    }

    fn i16(&mut self) -> Result<i16, BytecodeError> {
        Ok(i16::from_be_bytes(self.take()?))
    }

    fn i32(&mut self) -> Result<i32, BytecodeError> {
        Ok(i32::from_be_bytes(self.take()?))
    }

    /// The absolute target of a branch `offset` from this instruction,
    /// checked to lie inside the code.
    fn target(&self, offset: i64) -> Result<u32, BytecodeError> {
        let target = i64::from(self.bci) + offset;
        match usize::try_from(target) {
            Ok(t) if t < self.code.len() => Ok(t as u32),
            _ => Err(BytecodeError::BadTarget { bci: self.bci, target }),
        }
    }

    /// Reads a 2-byte branch offset and resolves it.
    fn target16(&mut self) -> Result<u32, BytecodeError> {
        let offset = self.i16()?;
        self.target(offset.into())
    }

    /// Reads a 4-byte branch offset and resolves it.
    fn target32(&mut self) -> Result<u32, BytecodeError> {
        let offset = self.i32()?;
        self.target(offset.into())
    }

    /// Skips the switch padding up to the next multiple of four (relative to
    /// the start of the code array).
    fn skip_padding(&mut self) -> Result<(), BytecodeError> {
        let pad = (4 - self.pos % 4) % 4;
        self.ensure(pad)?;
        self.pos += pad;
        Ok(())
    }
}

/// Decodes the instruction at `pos` (`pos < code.len()`); returns it and the
/// position of the next one.
fn decode_one(code: &[u8], pos: usize) -> Result<(Insn, usize), BytecodeError> {
    let bci = pos as u32;
    let mut c = Cursor { code, bci, opcode: code[pos], pos: pos + 1 };
    let (opcode, operand) = match shape(c.opcode) {
        Shape::Wide => decode_wide(&mut c)?,
        Shape::Invalid => {
            return Err(BytecodeError::InvalidOpcode { bci, opcode: c.opcode });
        }
        s => (c.opcode, decode_operand(&mut c, s)?),
    };
    Ok((Insn { bci, opcode, operand }, c.pos))
}

/// Decodes the operands of a non-`wide` instruction.
fn decode_operand(c: &mut Cursor<'_>, shape: Shape) -> Result<Operand, BytecodeError> {
    Ok(match shape {
        Shape::Local => Operand::Local { index: c.u8()?.into(), wide: false },
        Shape::Iinc => Operand::Iinc { index: c.u8()?.into(), delta: c.i8()?.into(), wide: false },
        Shape::Byte => Operand::Int(c.i8()?.into()),
        Shape::Short => Operand::Int(c.i16()?.into()),
        Shape::NewArray => Operand::NewArray(c.u8()?),
        Shape::Ldc => Operand::Constant(c.u8()?.into()),
        Shape::Cp => Operand::Constant(c.u16()?),
        Shape::Interface => decode_invokeinterface(c)?,
        Shape::Dynamic => decode_invokedynamic(c)?,
        Shape::MultiArray => Operand::MultiANewArray { index: c.u16()?, dims: c.u8()? },
        Shape::Branch => Operand::Jump(c.target16()?),
        Shape::BranchWide => Operand::Jump(c.target32()?),
        Shape::Table => decode_tableswitch(c)?,
        Shape::Lookup => decode_lookupswitch(c)?,
        Shape::Plain | Shape::Wide | Shape::Invalid => Operand::None,
    })
}

/// `invokeinterface indexbyte1 indexbyte2 count 0` (the zero byte is not checked).
fn decode_invokeinterface(c: &mut Cursor<'_>) -> Result<Operand, BytecodeError> {
    let (index, count) = (c.u16()?, c.u8()?);
    c.u8()?;
    Ok(Operand::InvokeInterface { index, count })
}

/// `invokedynamic indexbyte1 indexbyte2 0 0` (the zero bytes are not checked).
fn decode_invokedynamic(c: &mut Cursor<'_>) -> Result<Operand, BytecodeError> {
    let index = c.u16()?;
    c.u16()?;
    Ok(Operand::InvokeDynamic { index })
}

/// `wide <opcode> indexbyte1 indexbyte2 [constbyte1 constbyte2]`; returns the
/// modified opcode.
fn decode_wide(c: &mut Cursor<'_>) -> Result<(u8, Operand), BytecodeError> {
    let opcode = c.u8()?;
    let operand = match shape(opcode) {
        Shape::Local => Operand::Local { index: c.u16()?, wide: true },
        Shape::Iinc => Operand::Iinc { index: c.u16()?, delta: c.i16()?, wide: true },
        _ => return Err(BytecodeError::BadWide { bci: c.bci, opcode }),
    };
    Ok((opcode, operand))
}

fn decode_tableswitch(c: &mut Cursor<'_>) -> Result<Operand, BytecodeError> {
    c.skip_padding()?;
    let default = c.target32()?;
    let (low, high) = (c.i32()?, c.i32()?);
    if low > high {
        return Err(BytecodeError::BadSwitch { bci: c.bci, opcode: c.opcode });
    }
    let n = (i64::from(high) - i64::from(low) + 1) as usize;
    c.ensure(n.saturating_mul(4))?;
    let targets = (0..n).map(|_| c.target32()).collect::<Result<_, _>>()?;
    Ok(Operand::TableSwitch { default, low, high, targets })
}

fn decode_lookupswitch(c: &mut Cursor<'_>) -> Result<Operand, BytecodeError> {
    c.skip_padding()?;
    let default = c.target32()?;
    let n = usize::try_from(c.i32()?).map_err(|_| BytecodeError::BadSwitch { bci: c.bci, opcode: c.opcode })?;
    c.ensure(n.saturating_mul(8))?;
    let pairs = (0..n).map(|_| Ok((c.i32()?, c.target32()?))).collect::<Result<_, _>>()?;
    Ok(Operand::LookupSwitch { default, pairs })
}

/// Convert decoded instructions (targets = bcis) into assembler input (targets = indices), given the bci->index mapping; used by the instrumenter. Return BadTarget if a bci is not an instruction start.
///
/// The mapping is taken from the `bci` fields of `insns`, which are kept.
///
/// # Errors
/// [`BytecodeError::BadTarget`] when a target is not the `bci` of one of `insns`.
pub fn targets_to_indices(insns: &[Insn]) -> Result<Vec<Insn>, BytecodeError> {
    let index: HashMap<u32, u32> = insns.iter().enumerate().map(|(i, insn)| (insn.bci, i as u32)).collect();
    insns
        .iter()
        .map(|insn| {
            let mut out = insn.clone();
            out.operand.try_map_targets(|t| {
                index.get(&t).copied().ok_or(BytecodeError::BadTarget { bci: insn.bci, target: t.into() })
            })?;
            Ok(out)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytecode::op;

    #[test]
    fn decode_errors() {
        assert_eq!(decode(&[]), Ok(vec![]));
        // goto +1 lands inside the goto itself.
        assert_eq!(decode(&[op::GOTO, 0, 1, op::RETURN]), Err(BytecodeError::BadTarget { bci: 0, target: 1 }));
        assert_eq!(decode(&[op::NOP, op::GOTO, 0xff, 0xfe]), Err(BytecodeError::BadTarget { bci: 1, target: -1 }));
        assert_eq!(decode(&[op::IFNULL, 0, 3]), Err(BytecodeError::BadTarget { bci: 0, target: 3 }));
        assert_eq!(decode(&[op::NOP, 0xcb]), Err(BytecodeError::InvalidOpcode { bci: 1, opcode: 0xcb }));
        let low_gt_high = [op::TABLESWITCH, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1];
        assert_eq!(decode(&low_gt_high), Err(BytecodeError::BadSwitch { bci: 0, opcode: op::TABLESWITCH }));
        let negative_pairs = [op::LOOKUPSWITCH, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff];
        assert_eq!(decode(&negative_pairs), Err(BytecodeError::BadSwitch { bci: 0, opcode: op::LOOKUPSWITCH }));
        let huge_table = [op::TABLESWITCH, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff];
        assert_eq!(decode(&huge_table), Err(BytecodeError::Truncated { bci: 0, opcode: op::TABLESWITCH }));
        assert_eq!(
            BytecodeError::Truncated { bci: 17, opcode: op::TABLESWITCH }.to_string(),
            "truncated instruction at bytecode index 17 (tableswitch)"
        );
    }

    #[test]
    fn targets_to_indices_rejects_unknown_bcis() {
        let insns = vec![
            Insn { bci: 0, opcode: op::GOTO, operand: Operand::Jump(2) },
            Insn { bci: 3, opcode: op::RETURN, operand: Operand::None },
        ];
        assert_eq!(targets_to_indices(&insns), Err(BytecodeError::BadTarget { bci: 0, target: 2 }));
        let ok = vec![Insn { bci: 0, opcode: op::GOTO, operand: Operand::Jump(3) }, insns[1].clone()];
        assert_eq!(targets_to_indices(&ok).unwrap()[0].operand, Operand::Jump(1));
    }
}
