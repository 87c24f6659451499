//! Constants of a class for seeding the search.
//!
//! [`class_constants`] collects the numeric and string constants of the
//! constant pool (`CONSTANT_Integer`, `Long`, `Float`, `Double`, `String`)
//! and the immediate operands of the code (`iconst_*`, `lconst_*`,
//! `fconst_*`, `dconst_*`, `bipush`, `sipush`, switch keys that do not jump to the default), deduplicated
//! and sorted. Methods whose code does not decode are skipped.

use std::collections::BTreeSet;

use model::bytecode::{Insn, Operand, decode, op};
use model::classfile::ClassFile;
use model::constant_pool::{Constant, ConstantPool};
use serde::{Deserialize, Serialize};

/// The constants of one class, each list sorted ascending without
/// duplicates (floats by `total_cmp`, distinct bit patterns kept apart).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Constants {
    /// `int` constants (also `boolean`, `char`, `byte`, `short` values).
    pub ints: Vec<i32>,
    /// `long` constants.
    pub longs: Vec<i64>,
    /// `float` constants.
    pub floats: Vec<f32>,
    /// `double` constants.
    pub doubles: Vec<f64>,
    /// String literals.
    pub strings: Vec<String>,
}

/// Collects the constants of `cf`.
pub fn class_constants(cf: &ClassFile) -> Constants {
    let mut sets = Sets::default();
    sets.pool(&cf.constant_pool);
    for m in &cf.methods {
        let Ok(Some(code)) = cf.code(m) else { continue };
        let Ok(insns) = decode(&code.code) else { continue };
        sets.code(&insns);
    }
    sets.finish()
}

/// The classes `cf`'s code tests values against with `instanceof`, as
/// binary names, sorted without duplicates (array types left out): the
/// concrete types an `Object` parameter needs to take the branches (the
/// classes EvoSuite's `CastClassManager` collects).
pub fn instanceof_classes(cf: &ClassFile) -> Vec<String> {
    referenced_classes(cf, &[op::INSTANCEOF])
}

/// The class literals of `cf`'s code (`BigInteger.class`, loaded by `ldc`),
/// as binary names, sorted without duplicates (array types left out): the
/// `Class` values a `type == BigInteger.class` test compares with, seeds
/// for `Class` parameters as numbers compared in branches are for numbers.
pub fn class_literals(cf: &ClassFile) -> Vec<String> {
    referenced_classes(cf, &[op::LDC, op::LDC_W])
}

/// The classes named by the `Class` constants that instructions with
/// `opcodes` of `cf`'s code refer to, as [`instanceof_classes`] gives them.
fn referenced_classes(cf: &ClassFile, opcodes: &[u8]) -> Vec<String> {
    let mut out = BTreeSet::new();
    for m in &cf.methods {
        let Ok(Some(code)) = cf.code(m) else { continue };
        let Ok(insns) = decode(&code.code) else { continue };
        for insn in insns.iter().filter(|i| opcodes.contains(&i.opcode)) {
            let Some(index) = crate::insn::cp_index(insn) else { continue };
            if let Ok(name) = cf.constant_pool.class_name(index)
                && !name.starts_with('[')
            {
                out.insert(name.replace('/', "."));
            }
        }
    }
    out.into_iter().collect()
}

/// Constants gathered so far; floats and doubles by bit pattern.
#[derive(Default)]
struct Sets {
    ints: BTreeSet<i32>,
    longs: BTreeSet<i64>,
    floats: BTreeSet<u32>,
    doubles: BTreeSet<u64>,
    strings: BTreeSet<String>,
}

impl Sets {
    fn pool(&mut self, cp: &ConstantPool) {
        for (_, c) in cp.iter() {
            match c {
                Constant::Integer(v) => {
                    self.ints.insert(*v);
                }
                Constant::Long(v) => {
                    self.longs.insert(*v);
                }
                Constant::Float(bits) => {
                    self.floats.insert(*bits);
                }
                Constant::Double(bits) => {
                    self.doubles.insert(*bits);
                }
                Constant::String(i) => {
                    self.strings.extend(cp.utf8(*i).ok().map(str::to_string));
                }
                _ => {}
            }
        }
    }

    fn code(&mut self, insns: &[Insn]) {
        for insn in insns {
            match (insn.opcode, &insn.operand) {
                (op::ICONST_M1..=op::ICONST_5, _) => {
                    self.ints.insert(i32::from(insn.opcode) - i32::from(op::ICONST_0));
                }
                (op::LCONST_0 | op::LCONST_1, _) => {
                    self.longs.insert(i64::from(insn.opcode - op::LCONST_0));
                }
                (op::FCONST_0..=op::FCONST_2, _) => {
                    self.floats.insert(f32::from(insn.opcode - op::FCONST_0).to_bits());
                }
                (op::DCONST_0 | op::DCONST_1, _) => {
                    self.doubles.insert(f64::from(insn.opcode - op::DCONST_0).to_bits());
                }
                (_, Operand::Int(v)) => {
                    self.ints.insert(*v);
                }
                (_, Operand::TableSwitch { default, low, targets, .. }) => {
                    let keys = targets.iter().enumerate().filter(|(_, t)| *t != default);
                    self.ints.extend(keys.map(|(i, _)| low.wrapping_add(i as i32)));
                }
                (_, Operand::LookupSwitch { pairs, .. }) => {
                    self.ints.extend(pairs.iter().map(|p| p.0));
                }
                _ => {}
            }
        }
    }

    fn finish(self) -> Constants {
        let mut floats: Vec<f32> = self.floats.into_iter().map(f32::from_bits).collect();
        floats.sort_by(f32::total_cmp);
        let mut doubles: Vec<f64> = self.doubles.into_iter().map(f64::from_bits).collect();
        doubles.sort_by(f64::total_cmp);
        Constants {
            ints: self.ints.into_iter().collect(),
            longs: self.longs.into_iter().collect(),
            floats,
            doubles,
            strings: self.strings.into_iter().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::compile;

    #[test]
    fn constants_come_from_the_pool_and_the_code_sorted_and_deduplicated() {
        let source = "class K {
    static final String S = \"hello\";
    long l = 5_000_000_000L;
    double d = 2.5;
    float f = 1.5f;
    int f(int x) {
        switch (x) {
            case 7: return 100;
            case 9: return -3;
            default: return 40000;
        }
    }
    String g(String s) { return s == null ? \"hello\" : S + \"world\"; }
}
";
        let classes = compile(&[("K.java", source)]);
        let c = class_constants(&classes["K"]);
        assert_eq!(c.ints, [-3, 7, 9, 100, 40000]);
        assert_eq!(c.longs, [5_000_000_000]);
        assert_eq!(c.floats, [1.5]);
        assert_eq!(c.doubles, [2.5]);
        assert_eq!(c.strings, ["hello", "helloworld"]);
    }

    #[test]
    fn class_literals_are_collected_once_without_arrays_or_other_constants() {
        let source = "class L {
    String kind(Class<?> type) {
        if (type == java.math.BigInteger.class || type == int[].class) return \"big\";
        if (java.util.Date.class.isAssignableFrom(type)) return \"date\" + 5000000;
        return type == java.math.BigInteger.class ? \"again\" : \"other\";
    }
}
";
        let classes = compile(&[("L.java", source)]);
        assert_eq!(class_literals(&classes["L"]), ["java.math.BigInteger", "java.util.Date"]);
    }

    #[test]
    fn instanceof_targets_are_collected_once_without_arrays() {
        let source = "class T {
    String kind(Object o) {
        if (o instanceof java.io.File) return \"file\";
        if (o instanceof java.net.URI || o instanceof int[]) return \"uri or ints\";
        return o instanceof java.io.File ? \"again\" : (String) o;
    }
}
";
        let classes = compile(&[("T.java", source)]);
        assert_eq!(instanceof_classes(&classes["T"]), ["java.io.File", "java.net.URI"]);
    }
}
