//! JVM instruction decoding and assembling (JVMS §6.5).
//!
//! [`decode`] turns a `code` array into [`Insn`]s whose jump and switch
//! targets are absolute bytecode indices; [`targets_to_indices`] rewrites
//! those targets into indices into the instruction list, which is what
//! [`assemble`] takes. The assembler lays the code out from bytecode index 0,
//! recomputes `tableswitch`/`lookupswitch` padding, and widens instructions
//! only where it must (`ldc` → `ldc_w`, `wide` prefixes, `goto` → `goto_w`,
//! `jsr` → `jsr_w`, `bipush` → `sipush`), so that decoding and re-assembling
//! unmodified code reproduces it byte for byte: explicit long forms
//! (`ldc_w` with a small index, `goto_w`, `wide iload 1`, `iload 0`) are kept.
//!
//! ```
//! use model::bytecode::{Insn, Operand, assemble, decode, op, targets_to_indices};
//! // 0: iload_0; 1: ifeq 6; 4: iconst_1; 5: ireturn; 6: iconst_0; 7: ireturn
//! let code = [0x1a, 0x99, 0, 5, 0x04, 0xac, 0x03, 0xac];
//! let insns = decode(&code).unwrap();
//! assert_eq!(insns[1].operand, Operand::Jump(6));
//! // Insert a nop before everything; the branch offset is recomputed.
//! let mut input = targets_to_indices(&insns).unwrap();
//! input.iter_mut().for_each(|i| i.operand.try_map_targets(|t| Ok::<_, ()>(t + 1)).unwrap());
//! input.insert(0, Insn::new(op::NOP, Operand::None));
//! let out = assemble(&input).unwrap();
//! assert_eq!(out.code, [0x00, 0x1a, 0x99, 0, 5, 0x04, 0xac, 0x03, 0xac]);
//! assert_eq!(out.bcis, [0, 1, 2, 5, 6, 7, 8]);
//! ```
//!
//! The module is split by job: `opcodes` (the opcode table and operand
//! shapes), `decoder` (code array to instructions) and `assembler`
//! (instructions to code array); this file holds the types they share.

use std::fmt;

mod assembler;
mod decoder;
mod opcodes;
#[cfg(test)]
mod tests;

pub use assembler::{Assembled, assemble};
pub use decoder::{decode, targets_to_indices};
pub use opcodes::{op, opcode_name};

/// Largest legal `code` array length (JVMS §4.7.3: `code_length` < 65536).
pub const MAX_CODE_LENGTH: usize = 65535;

/// One decoded instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Insn {
    /// Bytecode index of the first byte (of the `wide` prefix, if any).
    /// Ignored by [`assemble`].
    pub bci: u32,
    /// The opcode; for a `wide` instruction the modified opcode (`iload`,
    /// `iinc`, ...), never `op::WIDE` itself.
    pub opcode: u8,
    /// The operands.
    pub operand: Operand,
}

/// The operands of an instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operand {
    /// No operand bytes (including the `_0`..`_3` load/store short forms).
    None,
    /// xload/xstore/ret with explicit index (not the _0.._3 short forms); `wide` = encoded with the wide prefix.
    Local {
        /// The local-variable index.
        index: u16,
        /// Whether the instruction has (or, for the assembler, must have) the `wide` prefix.
        wide: bool,
    },
    /// `iinc`; `wide` = encoded with the wide prefix.
    Iinc {
        /// The local-variable index.
        index: u16,
        /// The signed increment.
        delta: i16,
        /// Whether the instruction has (or, for the assembler, must have) the `wide` prefix.
        wide: bool,
    },
    /// bipush/sipush value.
    Int(i32),
    /// newarray atype.
    NewArray(u8),
    /// ldc, ldc_w, ldc2_w, getstatic/putstatic/getfield/putfield, invokevirtual/special/static, new, anewarray, checkcast, instanceof: constant-pool index.
    Constant(u16),
    /// `invokeinterface`: constant-pool index and argument-slot count.
    InvokeInterface {
        /// Constant-pool index of the `InterfaceMethodref`.
        index: u16,
        /// The argument-slot count, receiver included (the JVMS `count` byte).
        count: u8,
    },
    /// `invokedynamic`: constant-pool index.
    InvokeDynamic {
        /// Constant-pool index of the `InvokeDynamic` entry.
        index: u16,
    },
    /// `multianewarray`: constant-pool index and dimension count.
    MultiANewArray {
        /// Constant-pool index of the array class.
        index: u16,
        /// The number of dimensions to create.
        dims: u8,
    },
    /// if*, goto, goto_w, jsr, jsr_w: the target. In decoded code a bytecode index; in assembler input an index into the instruction slice.
    Jump(u32),
    /// `tableswitch`; `targets[i]` is taken for the key `low + i`.
    TableSwitch {
        /// Target of keys outside `low..=high`.
        default: u32,
        /// The lowest key.
        low: i32,
        /// The highest key (`low <= high`).
        high: i32,
        /// One target per key from `low` to `high`.
        targets: Vec<u32>,
    },
    /// `lookupswitch`; the assembler writes the pairs in the given order (the
    /// JVM requires the keys to be sorted).
    LookupSwitch {
        /// Target of keys without a pair.
        default: u32,
        /// `(key, target)` pairs.
        pairs: Vec<(i32, u32)>,
    },
}

/// Errors while decoding or assembling bytecode. Decoder errors name the
/// bytecode index of the offending instruction, assembler errors the index
/// of the offending instruction in the input slice.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BytecodeError {
    /// The code ends inside an instruction.
    #[error("truncated instruction at bytecode index {bci} ({})", opcode_name(*opcode))]
    Truncated {
        /// Bytecode index of the instruction.
        bci: u32,
        /// Its opcode (`wide` for a truncated `wide` instruction).
        opcode: u8,
    },
    /// An opcode outside 0..=201 (or `wide` in assembler input).
    #[error("invalid opcode {opcode:#04x} at bytecode index {bci}")]
    InvalidOpcode {
        /// Bytecode index of the instruction (in assembler errors: its index in the input slice).
        bci: u32,
        /// The offending opcode.
        opcode: u8,
    },
    /// A jump/switch target that is not the start of an instruction.
    #[error("jump target {target} of the instruction at bytecode index {bci} is not the start of an instruction")]
    BadTarget {
        /// Bytecode index of the jump or switch.
        bci: u32,
        /// The target it names (negative or past the end of the code when out of range).
        target: i64,
    },
    /// Assembler: a conditional jump whose offset does not fit in 16 bits.
    #[error("conditional branch of instruction #{index} needs offset {offset}, which does not fit in 16 bits")]
    BranchOutOfRange {
        /// Index of the instruction in the assembler input.
        index: usize,
        /// The branch offset in bytes it would need.
        offset: i64,
    },
    /// Assembler: code longer than 65535 bytes.
    #[error("code is {len} bytes long; the limit is 65535")]
    CodeTooLarge {
        /// The length in bytes the code would have.
        len: usize,
    },
    /// Decoder: `wide` followed by an opcode that cannot be widened.
    #[error("wide prefix at bytecode index {bci} before {} ({opcode:#04x}), which cannot be widened", opcode_name(*opcode))]
    BadWide {
        /// Bytecode index of the `wide` prefix.
        bci: u32,
        /// The opcode after it.
        opcode: u8,
    },
    /// Decoder: a `tableswitch` with `low > high` or a `lookupswitch` with a negative pair count.
    #[error("malformed {} at bytecode index {bci}", opcode_name(*opcode))]
    BadSwitch {
        /// Bytecode index of the instruction.
        bci: u32,
        /// `tableswitch` or `lookupswitch`.
        opcode: u8,
    },
    /// Assembler: the operand does not belong to the opcode (or does not fit
    /// it: `sipush 70000`, a `tableswitch` whose target count is not
    /// `high - low + 1`).
    #[error("instruction #{index} ({}) has an operand that does not fit its opcode", opcode_name(*opcode))]
    BadOperand {
        /// Index of the instruction in the assembler input.
        index: usize,
        /// The opcode.
        opcode: u8,
    },
    /// Assembler: a target that is not an index into the instruction slice.
    #[error("instruction #{index} jumps to instruction #{target}, past the end of the code")]
    BadTargetIndex {
        /// Index of the instruction in the assembler input.
        index: usize,
        /// The target index it names.
        target: u32,
    },
}

impl Insn {
    /// An instruction for assembler input (`bci` 0, which [`assemble`] ignores).
    pub fn new(opcode: u8, operand: Operand) -> Insn {
        Insn { bci: 0, opcode, operand }
    }

    /// Whether this is a conditional jump (ifeq..if_acmpne, ifnull, ifnonnull).
    pub fn is_conditional_jump(&self) -> bool {
        matches!(self.opcode, op::IFEQ..=op::IF_ACMPNE | op::IFNULL | op::IFNONNULL)
    }

    /// Whether this is a `tableswitch` or `lookupswitch`.
    pub fn is_switch(&self) -> bool {
        matches!(self.opcode, op::TABLESWITCH | op::LOOKUPSWITCH)
    }

    /// Whether control can continue to the next instruction: false for
    /// `goto`, `goto_w`, the returns, `athrow`, the switches and `ret`.
    /// True for `jsr`/`jsr_w`: the subroutine comes back to the next
    /// instruction through `ret`, so for control-flow purposes the next
    /// instruction is a successor (as well as the jump target).
    pub fn falls_through(&self) -> bool {
        !self.is_exit() && !self.is_switch() && !matches!(self.opcode, op::GOTO | op::GOTO_W | op::RET)
    }

    /// Explicit jump/switch targets (absolute, in the same space as
    /// [`Operand::Jump`]): the jump target, or a switch's default followed by
    /// its case targets in operand order (duplicates kept).
    pub fn targets(&self) -> Vec<u32> {
        match &self.operand {
            Operand::Jump(t) => vec![*t],
            Operand::TableSwitch { default, targets, .. } => {
                std::iter::once(*default).chain(targets.iter().copied()).collect()
            }
            Operand::LookupSwitch { default, pairs } => {
                std::iter::once(*default).chain(pairs.iter().map(|p| p.1)).collect()
            }
            _ => Vec::new(),
        }
    }

    /// Whether it is a return (ireturn..return) or athrow.
    pub fn is_exit(&self) -> bool {
        matches!(self.opcode, op::IRETURN..=op::RETURN | op::ATHROW)
    }
}

impl Operand {
    /// Rewrites every jump/switch target in place with `f`, stopping at the
    /// first error. Operands without targets are left alone.
    ///
    /// # Errors
    /// The first error `f` returns.
    pub fn try_map_targets<E>(&mut self, mut f: impl FnMut(u32) -> Result<u32, E>) -> Result<(), E> {
        match self {
            Operand::Jump(t) => *t = f(*t)?,
            Operand::TableSwitch { default, targets, .. } => {
                *default = f(*default)?;
                for t in targets {
                    *t = f(*t)?;
                }
            }
            Operand::LookupSwitch { default, pairs } => {
                *default = f(*default)?;
                for (_, t) in pairs {
                    *t = f(*t)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// `bci: mnemonic operands`, e.g. `17: if_icmplt 42`, `3: wide iload 300`,
/// `9: ldc #12`.
impl fmt::Display for Insn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let wide = matches!(self.operand, Operand::Local { wide: true, .. } | Operand::Iinc { wide: true, .. });
        write!(f, "{}: {}{}", self.bci, if wide { "wide " } else { "" }, opcode_name(self.opcode))?;
        match &self.operand {
            Operand::None => Ok(()),
            Operand::Local { index, .. } => write!(f, " {index}"),
            Operand::Iinc { index, delta, .. } => write!(f, " {index} {delta}"),
            Operand::Int(v) => write!(f, " {v}"),
            Operand::NewArray(t) => write!(f, " {t}"),
            Operand::Constant(i) | Operand::InvokeDynamic { index: i } => write!(f, " #{i}"),
            Operand::InvokeInterface { index, count } => write!(f, " #{index} {count}"),
            Operand::MultiANewArray { index, dims } => write!(f, " #{index} {dims}"),
            Operand::Jump(t) => write!(f, " {t}"),
            Operand::TableSwitch { default, low, high, targets } => {
                write!(f, " {low}..={high} {targets:?} default {default}")
            }
            Operand::LookupSwitch { default, pairs } => write!(f, " {pairs:?} default {default}"),
        }
    }
}
