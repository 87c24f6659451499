//! Small helpers over decoded instructions shared by the filters, the
//! condition renderer and the constant collector (crate-private).

use model::bytecode::{Insn, Operand, op};
use model::constant_pool::{ConstantPool, MemberRef};

/// The opcode as ASM reports it (and JaCoCo's matchers compare it): the
/// `_0`..`_3` load/store short forms become the indexed form, `goto_w` and
/// `jsr_w` become `goto` and `jsr`, `ldc_w` and `ldc2_w` become `ldc`.
pub(crate) fn normalize(opcode: u8) -> u8 {
    match opcode {
        op::ILOAD_0..=op::ALOAD_3 => op::ILOAD + (opcode - op::ILOAD_0) / 4,
        op::ISTORE_0..=op::ASTORE_3 => op::ISTORE + (opcode - op::ISTORE_0) / 4,
        op::GOTO_W => op::GOTO,
        op::JSR_W => op::JSR,
        op::LDC_W | op::LDC2_W => op::LDC,
        _ => opcode,
    }
}

/// The local-variable slot of a load, store, `iinc` or `ret`.
pub(crate) fn local_index(insn: &Insn) -> Option<u16> {
    match (insn.opcode, &insn.operand) {
        (_, Operand::Local { index, .. } | Operand::Iinc { index, .. }) => Some(*index),
        (op::ILOAD_0..=op::ALOAD_3, _) => Some(u16::from((insn.opcode - op::ILOAD_0) % 4)),
        (op::ISTORE_0..=op::ASTORE_3, _) => Some(u16::from((insn.opcode - op::ISTORE_0) % 4)),
        _ => None,
    }
}

/// The constant-pool index operand of an instruction, if it has one.
pub(crate) fn cp_index(insn: &Insn) -> Option<u16> {
    match insn.operand {
        Operand::Constant(i)
        | Operand::InvokeInterface { index: i, .. }
        | Operand::InvokeDynamic { index: i }
        | Operand::MultiANewArray { index: i, .. } => Some(i),
        _ => None,
    }
}

/// The field or method an instruction refers to.
pub(crate) fn member<'a>(cp: &'a ConstantPool, insn: &Insn) -> Option<MemberRef<'a>> {
    match insn.opcode {
        op::GETSTATIC..=op::INVOKEINTERFACE => cp.member_ref(cp_index(insn)?).ok(),
        _ => None,
    }
}

/// Whether `insn` is `opcode` (after [`normalize`]) referring to
/// `owner.name` with descriptor `descriptor` (`None` matches any).
pub(crate) fn is_member(
    cp: &ConstantPool,
    insn: &Insn,
    opcode: u8,
    owner: &str,
    name: &str,
    descriptor: Option<&str>,
) -> bool {
    insn.opcode == opcode
        && member(cp, insn)
            .is_some_and(|m| m.owner == owner && m.name == name && descriptor.is_none_or(|d| d == m.descriptor))
}

/// Argument types of a method descriptor, one descriptor string per
/// parameter, and its return type (`V` for void). Malformed descriptors
/// yield what could be read.
pub(crate) fn split_descriptor(descriptor: &str) -> (Vec<&str>, &str) {
    let Some(body) = descriptor.strip_prefix('(') else {
        return (Vec::new(), "V");
    };
    let Some(close) = body.find(')') else {
        return (Vec::new(), "V");
    };
    let (params, ret) = (&body[..close], &body[close + 1..]);
    let mut out = Vec::new();
    let mut rest = params;
    while !rest.is_empty() {
        let len = field_descriptor_len(rest);
        out.push(&rest[..len]);
        rest = &rest[len..];
    }
    (out, ret)
}

/// Length in bytes of the field descriptor at the start of the non-empty
/// `s`: at least one character, and always on a character boundary, even
/// when a malformed descriptor has a non-ASCII character where a type
/// letter belongs (`(Ü)V`).
fn field_descriptor_len(s: &str) -> usize {
    let dims = s.bytes().take_while(|b| *b == b'[').count();
    // `[` is ASCII, so `dims` is a character boundary.
    match s[dims..].chars().next() {
        Some('L') => s[dims..].find(';').map_or(s.len(), |i| dims + i + 1),
        Some(c) => dims + c.len_utf8(),
        None => s.len(),
    }
}

/// The simple name of an internal class name (`java/util/Map$Entry` →
/// `Entry`, anonymous classes keep the number: `Foo$1`).
pub(crate) fn simple_name(internal: &str) -> &str {
    let base = internal.rsplit('/').next().unwrap_or(internal);
    match base.rsplit_once('$') {
        Some((_, inner)) if !inner.is_empty() && !inner.bytes().all(|b| b.is_ascii_digit()) => inner,
        _ => base,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_forms_normalize_like_asm() {
        assert_eq!(normalize(op::ALOAD_3), op::ALOAD);
        assert_eq!(normalize(op::ISTORE_1), op::ISTORE);
        assert_eq!(normalize(op::DSTORE_2), op::DSTORE);
        assert_eq!(normalize(op::GOTO_W), op::GOTO);
        assert_eq!(normalize(op::LDC2_W), op::LDC);
        assert_eq!(normalize(op::IFEQ), op::IFEQ);
        let insn = Insn { bci: 0, opcode: op::ASTORE_2, operand: Operand::None };
        assert_eq!(local_index(&insn), Some(2));
    }

    #[test]
    fn descriptors_split_into_parameters_and_return_type() {
        assert_eq!(
            split_descriptor("(I[JLjava/lang/String;[[Lp/A;D)Z"),
            (vec!["I", "[J", "Ljava/lang/String;", "[[Lp/A;", "D"], "Z")
        );
        assert_eq!(split_descriptor("()V"), (vec![], "V"));
        assert_eq!(split_descriptor("(Lp/Ünïcode;[Lp/Ü;)Lp/Ü;"), (vec!["Lp/Ünïcode;", "[Lp/Ü;"], "Lp/Ü;"));
        assert_eq!(simple_name("java/util/Map$Entry"), "Entry");
        assert_eq!(simple_name("p/Foo$1"), "Foo$1");
        assert_eq!(simple_name("Foo"), "Foo");
        assert_eq!(simple_name("p/Ü$Ö"), "Ö");
    }

    #[test]
    fn malformed_descriptors_with_non_ascii_characters_split_on_character_boundaries() {
        // A non-ASCII character where a type letter belongs used to be cut
        // in the middle (a panic on a byte offset inside `Ü`).
        assert_eq!(split_descriptor("(Ü)V"), (vec!["Ü"], "V"));
        assert_eq!(split_descriptor("(Xp/Ü;I)V"), (vec!["X", "p", "/", "Ü", ";", "I"], "V"));
        assert_eq!(split_descriptor("([[é[Lp/ä)Ö"), (vec!["[[é", "[Lp/ä"], "Ö"));
        assert_eq!(split_descriptor("([[)V"), (vec!["[["], "V"));
    }
}
