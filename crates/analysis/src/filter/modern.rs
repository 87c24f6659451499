//! The filters JaCoCo added after 0.8.6 for what javac 14-25 emits, applied
//! to class files newer than Java 17 ([`is_modern`]): JaCoCo 0.8.6 cannot
//! read those, so their reference is JaCoCo 0.8.14 (Debian's newest, the
//! first release that reads Java 25 class files).
//!
//! | JaCoCo filter (version) | here |
//! |---|---|
//! | `RecordsFilter`, accessors (0.8.9) | [`is_record_accessor`] → `MethodFilter::RecordAccessor` |
//! | `ExhaustiveSwitchFilter` (0.8.11; branches as in 0.8.14) | [`exhaustive_switch_default`] → `InsnFilter::ExhaustiveSwitchDefault`, and the switch loses its default branch |
//! | `RecordPatternFilter` (0.8.11) | [`record_pattern_handler`] → `InsnFilter::RecordPatternHandler` |
//!
//! Not filtered, as in JaCoCo 0.8.14: the `typeSwitch`/`enumSwitch`
//! `invokedynamic` and its restart loop (a failed guard stores the next
//! index and jumps back: a `goto`, no branch), the `iconst_1; ifeq` javac 23+
//! emits for each unconditional record-pattern component (two branches, one
//! of which no input reaches), string concatenation by `invokedynamic`,
//! nest-based access. One known difference: JaCoCo 0.8.14 does not filter
//! the hash switch of a `switch` on a string inside a lambda compiled by
//! javac 24+ (extra local-variable labels defeat its matcher, fixed in
//! 0.8.15); ferrosuite filters it, as 0.8.15 does.

use model::bytecode::{Insn, Operand, op};
use model::classfile::ClassFile;
use model::code_tables::LineNumber;
use model::constant_pool::ConstantPool;

use super::Matcher;
use crate::insn::member;

/// Whether the modern filters apply to `cf`: a class file newer than JaCoCo
/// 0.8.6 reads ([`model::classfile::JACOCO_086_MAX_MAJOR`], Java 17).
pub fn is_modern(cf: &ClassFile) -> bool {
    cf.major_version > model::classfile::JACOCO_086_MAX_MAJOR
}

const MATCH_EXCEPTION: &str = "java/lang/MatchException";
const MATCH_EXCEPTION_INIT: &str = "(Ljava/lang/String;Ljava/lang/Throwable;)V";

/// A record's component accessor as javac generates it: no parameters,
/// `aload_0; getfield <a field named like the method>; <x>return`.
pub(super) fn is_record_accessor(cp: &ConstantPool, name: &str, descriptor: &str, insns: &[Insn]) -> bool {
    let [load, get, ret] = insns else { return false };
    descriptor.starts_with("()")
        && load.opcode == op::ALOAD_0
        && get.opcode == op::GETFIELD
        && member(cp, get).is_some_and(|f| f.name == name)
        && matches!(ret.opcode, op::IRETURN | op::LRETURN | op::FRETURN | op::DRETURN | op::ARETURN)
}

/// `ExhaustiveSwitchFilter`: when the default of the switch at instruction
/// `k` is the code javac adds to an exhaustive switch (`new MatchException;
/// dup; aconst_null; aconst_null; invokespecial <init>(String, Throwable);
/// athrow` from javac 21, `new IncompatibleClassChangeError; dup;
/// invokespecial <init>(); athrow` before), the first and last instruction
/// index of that code. A line-number row at the default must name the
/// switch's own line. `rows` is the method's `LineNumberTable`, sorted by
/// `start_pc`; `lines` the line of every instruction.
pub(super) fn exhaustive_switch_default(
    cp: &ConstantPool,
    insns: &[Insn],
    k: usize,
    rows: &[LineNumber],
    lines: &[Option<u16>],
) -> Option<(usize, usize)> {
    let dflt = match &insns[k].operand {
        Operand::TableSwitch { default, .. } | Operand::LookupSwitch { default, .. } => *default,
        _ => return None,
    };
    let start = insns.iter().position(|i| i.bci == dflt)?;
    if let Some(row) = rows.iter().find(|r| r.start_pc == dflt)
        && Some(row.line) != lines[k]
    {
        return None;
    }
    let mut m = Matcher::new(cp, insns, start as isize - 1);
    m.next_is_new(MATCH_EXCEPTION);
    if m.index().is_some() {
        m.next_is(op::DUP);
        m.next_is(op::ACONST_NULL);
        m.next_is(op::ACONST_NULL);
        m.next_is_member(op::INVOKESPECIAL, MATCH_EXCEPTION, "<init>", Some(MATCH_EXCEPTION_INIT));
    } else {
        m = Matcher::new(cp, insns, start as isize - 1);
        m.next_is_new("java/lang/IncompatibleClassChangeError");
        m.next_is(op::DUP);
        m.next_is_member(op::INVOKESPECIAL, "java/lang/IncompatibleClassChangeError", "<init>", Some("()V"));
    }
    m.next_is(op::ATHROW);
    m.index().map(|end| (start, end))
}

/// `RecordPatternFilter`: when the handler at instruction `h` (of a
/// `catch Throwable`) is the one javac wraps around the accessor calls of a
/// record pattern (`astore c; new MatchException; dup; aload c; invokevirtual
/// Throwable.toString(); aload c; invokespecial MatchException.<init>(String,
/// Throwable); athrow`), the index of its `athrow`.
pub(super) fn record_pattern_handler(cp: &ConstantPool, insns: &[Insn], h: usize) -> Option<usize> {
    let mut m = Matcher::new(cp, insns, h as isize - 1);
    m.next_is_var(op::ASTORE, "c");
    m.next_is_new(MATCH_EXCEPTION);
    m.next_is(op::DUP);
    m.next_is_var(op::ALOAD, "c");
    m.next_is_member(op::INVOKEVIRTUAL, "java/lang/Throwable", "toString", Some("()Ljava/lang/String;"));
    m.next_is_var(op::ALOAD, "c");
    m.next_is_member(op::INVOKESPECIAL, MATCH_EXCEPTION, "<init>", Some(MATCH_EXCEPTION_INIT));
    m.next_is(op::ATHROW);
    m.index()
}
