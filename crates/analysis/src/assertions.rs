//! Where a class's `assert` statements are: javac compiles `assert c : m;`
//! to `getstatic $assertionsDisabled; ifne end; <c>; if… end; new
//! AssertionError; <m>; invokespecial; athrow; end:`. The workers run with
//! assertions enabled (`-ea`, as Maven Surefire and Gradle run tests), so a
//! test can trip one; `generate::endings` tells such an `AssertionError`
//! from one the code throws itself by the line it was made at.

use std::collections::BTreeSet;

use model::bytecode::{self, Operand, op};
use model::classfile::{ClassFile, CodeAttribute};

/// The field javac adds for a class's `assert` statements.
const ASSERTIONS_DISABLED: &str = "$assertionsDisabled";

/// The source lines of the `assert` statements of the methods named
/// `method` of `cf`: the lines of every instruction from a `getstatic
/// $assertionsDisabled` through the next `athrow` (an assertion whose
/// message spans lines covers them all). Empty when the methods have no
/// `assert`, no line numbers, or code that cannot be decoded.
pub fn assert_lines(cf: &ClassFile, method: &str) -> BTreeSet<u16> {
    let mut out = BTreeSet::new();
    for m in cf.methods.iter().filter(|m| cf.member_name(m) == method) {
        let Some(attribute) = cf.find_attribute(&m.attributes, "Code") else { continue };
        let Ok(code) = CodeAttribute::parse(&attribute.info) else { continue };
        let Ok(insns) = bytecode::decode(&code.code) else { continue };
        let lines = crate::method_analysis::instruction_lines(cf, &code, &insns);
        let mut inside = false;
        for (insn, line) in insns.iter().zip(lines) {
            inside |= insn.opcode == op::GETSTATIC && is_assertions_disabled(cf, &insn.operand);
            if inside {
                out.extend(line);
            }
            if insn.opcode == op::ATHROW {
                inside = false;
            }
        }
    }
    out
}

fn is_assertions_disabled(cf: &ClassFile, operand: &Operand) -> bool {
    let Operand::Constant(index) = operand else { return false };
    cf.constant_pool.member_ref(*index).is_ok_and(|r| r.name == ASSERTIONS_DISABLED)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::compile;

    #[test]
    fn the_lines_of_an_assert_and_its_message_are_found_and_an_explicit_throw_is_not() {
        let source = "class A {
static int f(int x) {
    assert x >= 0
        : describe(x);
    if (x > 9) throw new AssertionError(\"big\");
    return x;
}
static String describe(int x) { return \"negative \" + x; }
}
";
        let classes = compile(&[("A.java", source)]);
        assert_eq!(assert_lines(&classes["A"], "f"), BTreeSet::from([3, 4]));
        assert!(assert_lines(&classes["A"], "<init>").is_empty());
    }
}
