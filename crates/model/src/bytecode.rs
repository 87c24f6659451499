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

use std::collections::HashMap;
use std::fmt;

use crate::classfile::{put_u16, put_u32};

/// Largest legal `code` array length (JVMS §4.7.3: `code_length` < 65536).
pub const MAX_CODE_LENGTH: usize = 65535;

macro_rules! opcodes {
    ($($name:ident = $value:literal, $mnemonic:literal;)*) => {
        /// Opcode constants (JVMS §6.5), named like the JVMS mnemonics upper-cased:
        /// `op::NOP` .. `op::JSR_W`, including `op::WIDE`.
        pub mod op {
            $(
                #[doc = concat!("`", $mnemonic, "` (", stringify!($value), ").")]
                pub const $name: u8 = $value;
            )*
        }

        /// Mnemonics indexed by opcode.
        const MNEMONICS: [&str; 202] = [$($mnemonic),*];

        // The table above is indexed by opcode: every constant must equal its position.
        const _: () = {
            let values = [$(op::$name),*];
            let mut i = 0;
            while i < values.len() {
                assert!(values[i] as usize == i, "opcode table out of order");
                i += 1;
            }
        };
    };
}

opcodes! {
    NOP = 0x00, "nop";
    ACONST_NULL = 0x01, "aconst_null";
    ICONST_M1 = 0x02, "iconst_m1";
    ICONST_0 = 0x03, "iconst_0";
    ICONST_1 = 0x04, "iconst_1";
    ICONST_2 = 0x05, "iconst_2";
    ICONST_3 = 0x06, "iconst_3";
    ICONST_4 = 0x07, "iconst_4";
    ICONST_5 = 0x08, "iconst_5";
    LCONST_0 = 0x09, "lconst_0";
    LCONST_1 = 0x0a, "lconst_1";
    FCONST_0 = 0x0b, "fconst_0";
    FCONST_1 = 0x0c, "fconst_1";
    FCONST_2 = 0x0d, "fconst_2";
    DCONST_0 = 0x0e, "dconst_0";
    DCONST_1 = 0x0f, "dconst_1";
    BIPUSH = 0x10, "bipush";
    SIPUSH = 0x11, "sipush";
    LDC = 0x12, "ldc";
    LDC_W = 0x13, "ldc_w";
    LDC2_W = 0x14, "ldc2_w";
    ILOAD = 0x15, "iload";
    LLOAD = 0x16, "lload";
    FLOAD = 0x17, "fload";
    DLOAD = 0x18, "dload";
    ALOAD = 0x19, "aload";
    ILOAD_0 = 0x1a, "iload_0";
    ILOAD_1 = 0x1b, "iload_1";
    ILOAD_2 = 0x1c, "iload_2";
    ILOAD_3 = 0x1d, "iload_3";
    LLOAD_0 = 0x1e, "lload_0";
    LLOAD_1 = 0x1f, "lload_1";
    LLOAD_2 = 0x20, "lload_2";
    LLOAD_3 = 0x21, "lload_3";
    FLOAD_0 = 0x22, "fload_0";
    FLOAD_1 = 0x23, "fload_1";
    FLOAD_2 = 0x24, "fload_2";
    FLOAD_3 = 0x25, "fload_3";
    DLOAD_0 = 0x26, "dload_0";
    DLOAD_1 = 0x27, "dload_1";
    DLOAD_2 = 0x28, "dload_2";
    DLOAD_3 = 0x29, "dload_3";
    ALOAD_0 = 0x2a, "aload_0";
    ALOAD_1 = 0x2b, "aload_1";
    ALOAD_2 = 0x2c, "aload_2";
    ALOAD_3 = 0x2d, "aload_3";
    IALOAD = 0x2e, "iaload";
    LALOAD = 0x2f, "laload";
    FALOAD = 0x30, "faload";
    DALOAD = 0x31, "daload";
    AALOAD = 0x32, "aaload";
    BALOAD = 0x33, "baload";
    CALOAD = 0x34, "caload";
    SALOAD = 0x35, "saload";
    ISTORE = 0x36, "istore";
    LSTORE = 0x37, "lstore";
    FSTORE = 0x38, "fstore";
    DSTORE = 0x39, "dstore";
    ASTORE = 0x3a, "astore";
    ISTORE_0 = 0x3b, "istore_0";
    ISTORE_1 = 0x3c, "istore_1";
    ISTORE_2 = 0x3d, "istore_2";
    ISTORE_3 = 0x3e, "istore_3";
    LSTORE_0 = 0x3f, "lstore_0";
    LSTORE_1 = 0x40, "lstore_1";
    LSTORE_2 = 0x41, "lstore_2";
    LSTORE_3 = 0x42, "lstore_3";
    FSTORE_0 = 0x43, "fstore_0";
    FSTORE_1 = 0x44, "fstore_1";
    FSTORE_2 = 0x45, "fstore_2";
    FSTORE_3 = 0x46, "fstore_3";
    DSTORE_0 = 0x47, "dstore_0";
    DSTORE_1 = 0x48, "dstore_1";
    DSTORE_2 = 0x49, "dstore_2";
    DSTORE_3 = 0x4a, "dstore_3";
    ASTORE_0 = 0x4b, "astore_0";
    ASTORE_1 = 0x4c, "astore_1";
    ASTORE_2 = 0x4d, "astore_2";
    ASTORE_3 = 0x4e, "astore_3";
    IASTORE = 0x4f, "iastore";
    LASTORE = 0x50, "lastore";
    FASTORE = 0x51, "fastore";
    DASTORE = 0x52, "dastore";
    AASTORE = 0x53, "aastore";
    BASTORE = 0x54, "bastore";
    CASTORE = 0x55, "castore";
    SASTORE = 0x56, "sastore";
    POP = 0x57, "pop";
    POP2 = 0x58, "pop2";
    DUP = 0x59, "dup";
    DUP_X1 = 0x5a, "dup_x1";
    DUP_X2 = 0x5b, "dup_x2";
    DUP2 = 0x5c, "dup2";
    DUP2_X1 = 0x5d, "dup2_x1";
    DUP2_X2 = 0x5e, "dup2_x2";
    SWAP = 0x5f, "swap";
    IADD = 0x60, "iadd";
    LADD = 0x61, "ladd";
    FADD = 0x62, "fadd";
    DADD = 0x63, "dadd";
    ISUB = 0x64, "isub";
    LSUB = 0x65, "lsub";
    FSUB = 0x66, "fsub";
    DSUB = 0x67, "dsub";
    IMUL = 0x68, "imul";
    LMUL = 0x69, "lmul";
    FMUL = 0x6a, "fmul";
    DMUL = 0x6b, "dmul";
    IDIV = 0x6c, "idiv";
    LDIV = 0x6d, "ldiv";
    FDIV = 0x6e, "fdiv";
    DDIV = 0x6f, "ddiv";
    IREM = 0x70, "irem";
    LREM = 0x71, "lrem";
    FREM = 0x72, "frem";
    DREM = 0x73, "drem";
    INEG = 0x74, "ineg";
    LNEG = 0x75, "lneg";
    FNEG = 0x76, "fneg";
    DNEG = 0x77, "dneg";
    ISHL = 0x78, "ishl";
    LSHL = 0x79, "lshl";
    ISHR = 0x7a, "ishr";
    LSHR = 0x7b, "lshr";
    IUSHR = 0x7c, "iushr";
    LUSHR = 0x7d, "lushr";
    IAND = 0x7e, "iand";
    LAND = 0x7f, "land";
    IOR = 0x80, "ior";
    LOR = 0x81, "lor";
    IXOR = 0x82, "ixor";
    LXOR = 0x83, "lxor";
    IINC = 0x84, "iinc";
    I2L = 0x85, "i2l";
    I2F = 0x86, "i2f";
    I2D = 0x87, "i2d";
    L2I = 0x88, "l2i";
    L2F = 0x89, "l2f";
    L2D = 0x8a, "l2d";
    F2I = 0x8b, "f2i";
    F2L = 0x8c, "f2l";
    F2D = 0x8d, "f2d";
    D2I = 0x8e, "d2i";
    D2L = 0x8f, "d2l";
    D2F = 0x90, "d2f";
    I2B = 0x91, "i2b";
    I2C = 0x92, "i2c";
    I2S = 0x93, "i2s";
    LCMP = 0x94, "lcmp";
    FCMPL = 0x95, "fcmpl";
    FCMPG = 0x96, "fcmpg";
    DCMPL = 0x97, "dcmpl";
    DCMPG = 0x98, "dcmpg";
    IFEQ = 0x99, "ifeq";
    IFNE = 0x9a, "ifne";
    IFLT = 0x9b, "iflt";
    IFGE = 0x9c, "ifge";
    IFGT = 0x9d, "ifgt";
    IFLE = 0x9e, "ifle";
    IF_ICMPEQ = 0x9f, "if_icmpeq";
    IF_ICMPNE = 0xa0, "if_icmpne";
    IF_ICMPLT = 0xa1, "if_icmplt";
    IF_ICMPGE = 0xa2, "if_icmpge";
    IF_ICMPGT = 0xa3, "if_icmpgt";
    IF_ICMPLE = 0xa4, "if_icmple";
    IF_ACMPEQ = 0xa5, "if_acmpeq";
    IF_ACMPNE = 0xa6, "if_acmpne";
    GOTO = 0xa7, "goto";
    JSR = 0xa8, "jsr";
    RET = 0xa9, "ret";
    TABLESWITCH = 0xaa, "tableswitch";
    LOOKUPSWITCH = 0xab, "lookupswitch";
    IRETURN = 0xac, "ireturn";
    LRETURN = 0xad, "lreturn";
    FRETURN = 0xae, "freturn";
    DRETURN = 0xaf, "dreturn";
    ARETURN = 0xb0, "areturn";
    RETURN = 0xb1, "return";
    GETSTATIC = 0xb2, "getstatic";
    PUTSTATIC = 0xb3, "putstatic";
    GETFIELD = 0xb4, "getfield";
    PUTFIELD = 0xb5, "putfield";
    INVOKEVIRTUAL = 0xb6, "invokevirtual";
    INVOKESPECIAL = 0xb7, "invokespecial";
    INVOKESTATIC = 0xb8, "invokestatic";
    INVOKEINTERFACE = 0xb9, "invokeinterface";
    INVOKEDYNAMIC = 0xba, "invokedynamic";
    NEW = 0xbb, "new";
    NEWARRAY = 0xbc, "newarray";
    ANEWARRAY = 0xbd, "anewarray";
    ARRAYLENGTH = 0xbe, "arraylength";
    ATHROW = 0xbf, "athrow";
    CHECKCAST = 0xc0, "checkcast";
    INSTANCEOF = 0xc1, "instanceof";
    MONITORENTER = 0xc2, "monitorenter";
    MONITOREXIT = 0xc3, "monitorexit";
    WIDE = 0xc4, "wide";
    MULTIANEWARRAY = 0xc5, "multianewarray";
    IFNULL = 0xc6, "ifnull";
    IFNONNULL = 0xc7, "ifnonnull";
    GOTO_W = 0xc8, "goto_w";
    JSR_W = 0xc9, "jsr_w";
}

/// Mnemonic of an opcode (`"if_icmplt"`); `"<invalid>"` for unknown opcodes
/// (202..=255, which includes the reserved `breakpoint`, `impdep1`, `impdep2`).
pub fn opcode_name(opcode: u8) -> &'static str {
    MNEMONICS.get(usize::from(opcode)).copied().unwrap_or("<invalid>")
}

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
    Local { index: u16, wide: bool },
    /// `iinc`; `wide` = encoded with the wide prefix.
    Iinc { index: u16, delta: i16, wide: bool },
    /// bipush/sipush value.
    Int(i32),
    /// newarray atype.
    NewArray(u8),
    /// ldc, ldc_w, ldc2_w, getstatic/putstatic/getfield/putfield, invokevirtual/special/static, new, anewarray, checkcast, instanceof: constant-pool index.
    Constant(u16),
    /// `invokeinterface`: constant-pool index and argument-slot count.
    InvokeInterface { index: u16, count: u8 },
    /// `invokedynamic`: constant-pool index.
    InvokeDynamic { index: u16 },
    /// `multianewarray`: constant-pool index and dimension count.
    MultiANewArray { index: u16, dims: u8 },
    /// if*, goto, goto_w, jsr, jsr_w: the target. In decoded code a bytecode index; in assembler input an index into the instruction slice.
    Jump(u32),
    /// `tableswitch`; `targets[i]` is taken for the key `low + i`.
    TableSwitch { default: u32, low: i32, high: i32, targets: Vec<u32> },
    /// `lookupswitch`; the assembler writes the pairs in the given order (the
    /// JVM requires the keys to be sorted).
    LookupSwitch { default: u32, pairs: Vec<(i32, u32)> },
}

/// Errors while decoding or assembling bytecode. Decoder errors name the
/// bytecode index of the offending instruction, assembler errors the index
/// of the offending instruction in the input slice.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BytecodeError {
    /// The code ends inside an instruction.
    #[error("truncated instruction at bytecode index {bci} ({})", opcode_name(*opcode))]
    Truncated { bci: u32, opcode: u8 },
    /// An opcode outside 0..=201 (or `wide` in assembler input).
    #[error("invalid opcode {opcode:#04x} at bytecode index {bci}")]
    InvalidOpcode { bci: u32, opcode: u8 },
    /// A jump/switch target that is not the start of an instruction.
    #[error("jump target {target} of the instruction at bytecode index {bci} is not the start of an instruction")]
    BadTarget { bci: u32, target: i64 },
    /// Assembler: a conditional jump whose offset does not fit in 16 bits.
    #[error("conditional branch of instruction #{index} needs offset {offset}, which does not fit in 16 bits")]
    BranchOutOfRange { index: usize, offset: i64 },
    /// Assembler: code longer than 65535 bytes.
    #[error("code is {len} bytes long; the limit is 65535")]
    CodeTooLarge { len: usize },
    /// Decoder: `wide` followed by an opcode that cannot be widened.
    #[error("wide prefix at bytecode index {bci} before {} ({opcode:#04x}), which cannot be widened", opcode_name(*opcode))]
    BadWide { bci: u32, opcode: u8 },
    /// Decoder: a `tableswitch` with `low > high` or a `lookupswitch` with a negative pair count.
    #[error("malformed {} at bytecode index {bci}", opcode_name(*opcode))]
    BadSwitch { bci: u32, opcode: u8 },
    /// Assembler: the operand does not belong to the opcode (or does not fit
    /// it: `sipush 70000`, a `tableswitch` whose target count is not
    /// `high - low + 1`).
    #[error("instruction #{index} ({}) has an operand that does not fit its opcode", opcode_name(*opcode))]
    BadOperand { index: usize, opcode: u8 },
    /// Assembler: a target that is not an index into the instruction slice.
    #[error("instruction #{index} jumps to instruction #{target}, past the end of the code")]
    BadTargetIndex { index: usize, target: u32 },
}

/// How an opcode's operand bytes look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Plain,
    Local,
    Iinc,
    Byte,
    Short,
    NewArray,
    Ldc,
    Cp,
    Interface,
    Dynamic,
    MultiArray,
    Branch,
    BranchWide,
    Table,
    Lookup,
    Wide,
    Invalid,
}

fn shape(opcode: u8) -> Shape {
    use op::*;
    match opcode {
        BIPUSH => Shape::Byte,
        SIPUSH => Shape::Short,
        LDC => Shape::Ldc,
        LDC_W | LDC2_W | GETSTATIC..=INVOKESTATIC | NEW | ANEWARRAY | CHECKCAST | INSTANCEOF => Shape::Cp,
        ILOAD..=ALOAD | ISTORE..=ASTORE | RET => Shape::Local,
        IINC => Shape::Iinc,
        NEWARRAY => Shape::NewArray,
        INVOKEINTERFACE => Shape::Interface,
        INVOKEDYNAMIC => Shape::Dynamic,
        MULTIANEWARRAY => Shape::MultiArray,
        IFEQ..=JSR | IFNULL | IFNONNULL => Shape::Branch,
        GOTO_W | JSR_W => Shape::BranchWide,
        TABLESWITCH => Shape::Table,
        LOOKUPSWITCH => Shape::Lookup,
        WIDE => Shape::Wide,
        NOP..=JSR_W => Shape::Plain,
        _ => Shape::Invalid,
    }
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

// ---------------------------------------------------------------- decoding

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

// -------------------------------------------------------------- assembling

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
    use crate::classfile::ClassFile;
    use std::io::Read;

    const COMMONS_LANG3: &str = "/usr/share/java/commons-lang3.jar";
    const GUAVA: &str = "/usr/share/java/guava.jar";

    fn insn(opcode: u8, operand: Operand) -> Insn {
        Insn::new(opcode, operand)
    }

    fn plain(opcode: u8) -> Insn {
        insn(opcode, Operand::None)
    }

    /// Calls `f(class, method, code)` for every method with code in `jar`;
    /// `None` (with a note) when the jar is missing.
    fn for_each_code(jar: &str, mut f: impl FnMut(&str, &str, &[u8])) -> Option<()> {
        let Ok(file) = std::fs::File::open(jar) else {
            eprintln!("note: {jar} not found, skipping");
            return None;
        };
        let mut archive = zip::ZipArchive::new(file).expect("readable jar");
        let mut unparsed = 0;
        for i in 0..archive.len() {
            let mut entry = archive.by_index(i).expect("jar entry");
            if !entry.name().ends_with(".class") {
                continue;
            }
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).expect("inflate");
            let Ok(class) = ClassFile::parse(&bytes) else {
                unparsed += 1;
                continue;
            };
            for m in &class.methods {
                if let Ok(Some(code)) = class.code(m) {
                    let method = format!("{}{}", class.member_name(m), class.member_descriptor(m));
                    f(class.name(), &method, &code.code);
                }
            }
        }
        if unparsed > 0 {
            eprintln!("note: {unparsed} classes in {jar} did not parse and were skipped");
        }
        Some(())
    }

    /// decode → targets_to_indices → assemble must give back `code` and the same bcis.
    fn round_trip(code: &[u8]) -> Result<(), String> {
        let decoded = decode(code).map_err(|e| e.to_string())?;
        let input = targets_to_indices(&decoded).map_err(|e| e.to_string())?;
        let out = assemble(&input).map_err(|e| e.to_string())?;
        if out.code != code {
            let at = out.code.iter().zip(code).position(|(a, b)| a != b).unwrap_or(code.len().min(out.code.len()));
            return Err(format!("bytes differ from offset {at} (len {} vs {})", out.code.len(), code.len()));
        }
        let bcis: Vec<u32> = decoded.iter().map(|i| i.bci).collect();
        if out.bcis != bcis {
            return Err("bcis differ".into());
        }
        Ok(())
    }

    /// Prepending a `nop` shifts everything by one byte (changing all switch
    /// padding); decoding the result must give the same instructions.
    fn relayout(code: &[u8]) -> Result<(), String> {
        let decoded = decode(code).map_err(|e| e.to_string())?;
        let mut input = targets_to_indices(&decoded).map_err(|e| e.to_string())?;
        input.iter_mut().for_each(|i| i.operand.try_map_targets(|t| Ok::<_, ()>(t + 1)).unwrap());
        input.insert(0, plain(op::NOP));
        let out = match assemble(&input) {
            Err(BytecodeError::BranchOutOfRange { .. }) => return Ok(()),
            other => other.map_err(|e| e.to_string())?,
        };
        let again = targets_to_indices(&decode(&out.code).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
        let strip = |v: &[Insn]| v.iter().map(|i| (i.opcode, i.operand.clone())).collect::<Vec<_>>();
        if strip(&again) != strip(&input) {
            return Err("relaid code decodes differently".into());
        }
        Ok(())
    }

    fn round_trip_jar(jar: &str) {
        let (mut methods, mut switches, mut failures) = (0, 0, Vec::new());
        let found = for_each_code(jar, |class, method, code| {
            methods += 1;
            switches += decode(code).map_or(0, |d| d.iter().filter(|i| i.is_switch()).count());
            if let Err(e) = round_trip(code).and_then(|()| relayout(code)) {
                failures.push(format!("{class}.{method}: {e}"));
            }
        });
        if found.is_none() {
            return;
        }
        eprintln!("{jar}: {methods} methods ({switches} switches) round-tripped, {} failures", failures.len());
        assert!(methods > 1000, "only {methods} methods found in {jar}");
        assert!(failures.is_empty(), "{} failures, first: {:?}", failures.len(), &failures[..failures.len().min(5)]);
    }

    #[test]
    fn commons_lang3_round_trips_exactly() {
        round_trip_jar(COMMONS_LANG3);
    }

    #[test]
    fn guava_round_trips_exactly() {
        round_trip_jar(GUAVA);
    }

    #[test]
    fn opcode_names_match_the_constants() {
        assert_eq!(opcode_name(op::NOP), "nop");
        assert_eq!(opcode_name(op::IF_ICMPLT), "if_icmplt");
        assert_eq!(opcode_name(op::LCMP), "lcmp");
        assert_eq!(opcode_name(op::INVOKEDYNAMIC), "invokedynamic");
        assert_eq!(opcode_name(op::WIDE), "wide");
        assert_eq!(opcode_name(op::JSR_W), "jsr_w");
        assert_eq!(op::JSR_W, 201);
        assert_eq!(opcode_name(202), "<invalid>");
        assert_eq!(opcode_name(255), "<invalid>");
    }

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
    fn wide_forms() {
        let out = assemble(&[insn(op::ILOAD, Operand::Local { index: 300, wide: false })]).unwrap();
        assert_eq!(out.code, [op::WIDE, op::ILOAD, 0x01, 0x2c]);
        assert_eq!(
            decode(&out.code).unwrap(),
            [Insn { bci: 0, opcode: op::ILOAD, operand: Operand::Local { index: 300, wide: true } }]
        );

        let forced = assemble(&[insn(op::ASTORE, Operand::Local { index: 5, wide: true })]).unwrap();
        assert_eq!(forced.code, [op::WIDE, op::ASTORE, 0, 5]);
        let short = assemble(&[insn(op::ASTORE, Operand::Local { index: 5, wide: false })]).unwrap();
        assert_eq!(short.code, [op::ASTORE, 5]);

        let iinc = assemble(&[insn(op::IINC, Operand::Iinc { index: 1, delta: 1000, wide: false })]).unwrap();
        assert_eq!(iinc.code, [op::WIDE, op::IINC, 0, 1, 0x03, 0xe8]);
        let iinc = assemble(&[insn(op::IINC, Operand::Iinc { index: 1, delta: -1, wide: false })]).unwrap();
        assert_eq!(iinc.code, [op::IINC, 1, 0xff]);
        assert_eq!(decode(&iinc.code).unwrap()[0].operand, Operand::Iinc { index: 1, delta: -1, wide: false });

        let ret = [op::WIDE, op::RET, 0x01, 0x00];
        assert_eq!(decode(&ret).unwrap()[0].operand, Operand::Local { index: 256, wide: true });
        assert_eq!(decode(&[op::WIDE, op::NOP, 0, 0]), Err(BytecodeError::BadWide { bci: 0, opcode: op::NOP }));
        assert_eq!(decode(&[op::WIDE, op::IINC, 0, 1, 0]), Err(BytecodeError::Truncated { bci: 0, opcode: op::WIDE }));
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

    /// Code exercising every operand shape, assembled by hand.
    fn sample_code() -> Vec<u8> {
        let input = vec![
            insn(op::ILOAD, Operand::Local { index: 300, wide: false }),
            insn(op::IINC, Operand::Iinc { index: 2, delta: 3, wide: false }),
            insn(op::BIPUSH, Operand::Int(5)),
            insn(op::SIPUSH, Operand::Int(-500)),
            insn(op::LDC, Operand::Constant(4)),
            insn(op::INVOKEINTERFACE, Operand::InvokeInterface { index: 9, count: 1 }),
            insn(op::INVOKEDYNAMIC, Operand::InvokeDynamic { index: 8 }),
            insn(op::TABLESWITCH, Operand::TableSwitch { default: 9, low: 0, high: 1, targets: vec![8, 10] }),
            insn(op::LOOKUPSWITCH, Operand::LookupSwitch { default: 9, pairs: vec![(1, 10)] }),
            insn(op::JSR_W, Operand::Jump(11)),
            insn(op::IFNONNULL, Operand::Jump(0)),
            insn(op::MULTIANEWARRAY, Operand::MultiANewArray { index: 3, dims: 2 }),
            plain(op::ATHROW),
        ];
        assemble(&input).unwrap().code
    }

    fn first_switch_method() -> Option<Vec<u8>> {
        let mut found = None;
        for_each_code(COMMONS_LANG3, |_, _, code| {
            if found.is_none() && code.len() > 60 && decode(code).is_ok_and(|d| d.iter().any(Insn::is_switch)) {
                found = Some(code.to_vec());
            }
        })?;
        found
    }

    #[test]
    fn every_prefix_fails_cleanly() {
        let mut codes = vec![sample_code()];
        codes.extend(first_switch_method());
        eprintln!("prefix test on {} code arrays", codes.len());
        for code in codes {
            round_trip(&code).unwrap();
            let starts: Vec<usize> = decode(&code).unwrap().iter().map(|i| i.bci as usize).collect();
            for cut in 0..code.len() {
                let result = decode(&code[..cut]);
                if !starts.contains(&cut) && cut > 0 {
                    assert!(result.is_err(), "prefix {cut} decoded");
                }
                if let Ok(insns) = result {
                    round_trip(&code[..cut]).unwrap();
                    assert_eq!(insns.len(), starts.iter().filter(|&&s| s < cut).count());
                }
            }
        }
    }

    #[test]
    fn random_bytes_never_panic_and_reassemble() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut decoded_ok = 0;
        for _ in 0..20_000 {
            let len = (next() % 24) as usize;
            let code: Vec<u8> =
                (0..len).map(|_| if next() % 3 == 0 { (next() % 4) as u8 } else { (next() % 210) as u8 }).collect();
            let Ok(insns) = decode(&code) else { continue };
            decoded_ok += 1;
            let out = assemble(&targets_to_indices(&insns).unwrap()).unwrap();
            // Padding and reserved zero bytes are normalised; everything else is kept.
            assert_eq!(decode(&out.code).unwrap(), insns, "code {code:?}");
        }
        assert!(decoded_ok > 100, "only {decoded_ok} random codes decoded");
    }

    #[test]
    fn control_flow_queries() {
        let decoded = decode(&sample_code()).unwrap();
        let by_op = |o: u8| decoded.iter().find(|i| i.opcode == o).unwrap();
        assert!(by_op(op::IFNONNULL).is_conditional_jump() && by_op(op::IFNONNULL).falls_through());
        assert!(!by_op(op::JSR_W).is_conditional_jump() && by_op(op::JSR_W).falls_through());
        assert!(by_op(op::TABLESWITCH).is_switch() && !by_op(op::TABLESWITCH).falls_through());
        assert_eq!(by_op(op::LOOKUPSWITCH).targets().len(), 2);
        assert!(by_op(op::ATHROW).is_exit() && !by_op(op::ATHROW).falls_through());
        assert!(!plain(op::GOTO).falls_through() && plain(op::RETURN).is_exit() && !plain(op::MONITOREXIT).is_exit());
        assert!(by_op(op::ILOAD).targets().is_empty());
        assert_eq!(by_op(op::ILOAD).to_string(), "0: wide iload 300");
        assert_eq!(decoded[0].to_string(), "0: wide iload 300");
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
