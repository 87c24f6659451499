//! A cheap purity analysis of the methods of one class, in the spirit of
//! EvoSuite's `CheapPurityAnalyzer` (its inspectors are pure no-argument
//! methods): which methods change no state, so that the oracle may call
//! them at the end of a test to observe an object (`width()`, `fits()`,
//! which no getter prefix announces).
//!
//! A method is *pure* when its code writes no field (`putfield`,
//! `putstatic`), stores into no array, takes no lock, and every call it
//! makes is pure: a method of the same class that is itself pure, or a
//! method of a JDK class known to leave its receiver and arguments alone
//! ([`PURE_JDK_OWNERS`], and the read-only methods of collections,
//! [`READ_ONLY_NAMES`]). `invokedynamic` counts as pure (javac's string
//! concatenation and lambdas). Abstract and native methods, and methods
//! whose code cannot be decoded, are not pure. Calls of the class's own
//! methods are resolved by name and descriptor in the class itself; a
//! cycle of calls among its methods counts as pure when nothing else in it
//! is impure.

use std::collections::BTreeSet;

use model::bytecode::{decode, op};
use model::classfile::ClassFile;

use crate::insn::member;

/// JDK classes whose methods leave their receiver and arguments unchanged
/// (or build only new values: a `StringBuilder` is local to the method
/// that makes it in the code that reaches here).
pub const PURE_JDK_OWNERS: &[&str] = &[
    "java/lang/String",
    "java/lang/StringBuilder",
    "java/lang/StringBuffer",
    "java/lang/Math",
    "java/lang/StrictMath",
    "java/lang/Integer",
    "java/lang/Long",
    "java/lang/Short",
    "java/lang/Byte",
    "java/lang/Character",
    "java/lang/Boolean",
    "java/lang/Float",
    "java/lang/Double",
    "java/lang/Number",
    "java/lang/Object",
    "java/lang/Enum",
    "java/math/BigInteger",
    "java/math/BigDecimal",
    "java/util/Objects",
];

/// Methods of other JDK classes (collections, maps, their entries and
/// `Optional`) that only read.
pub const READ_ONLY_NAMES: &[&str] = &[
    "size",
    "isEmpty",
    "get",
    "getOrDefault",
    "contains",
    "containsKey",
    "containsValue",
    "indexOf",
    "lastIndexOf",
    "getKey",
    "getValue",
    "isPresent",
    "length",
    "charAt",
    "ordinal",
    "name",
    "equals",
    "hashCode",
    "toString",
];

/// The methods of `cf` that are pure (see the module docs), as (name,
/// descriptor).
pub fn pure_methods(cf: &ClassFile) -> BTreeSet<(String, String)> {
    let methods: Vec<Facts> = (0..cf.methods.len()).map(|k| facts(cf, k)).collect();
    // Assume every method with a chance pure, then drop those that call a
    // dropped one, until nothing changes (the greatest fixpoint).
    let mut pure: Vec<bool> = methods.iter().map(|m| m.own_effects_free).collect();
    loop {
        let mut changed = false;
        for k in 0..methods.len() {
            if pure[k] && methods[k].calls.iter().any(|&c| !pure[c]) {
                pure[k] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let names =
        |k: usize| (cf.member_name(&cf.methods[k]).to_string(), cf.member_descriptor(&cf.methods[k]).to_string());
    (0..methods.len()).filter(|&k| pure[k]).map(names).collect()
}

/// What method `k` does on its own, and which methods of the class it calls.
struct Facts {
    /// No write, lock or impure outside call of its own.
    own_effects_free: bool,
    /// The indices of the methods of the class it calls.
    calls: BTreeSet<usize>,
}

fn facts(cf: &ClassFile, k: usize) -> Facts {
    let impure = Facts { own_effects_free: false, calls: BTreeSet::new() };
    let Ok(Some(code)) = cf.code(&cf.methods[k]) else { return impure };
    let Ok(insns) = decode(&code.code) else { return impure };
    let mut calls = BTreeSet::new();
    for insn in &insns {
        match insn.opcode {
            op::PUTFIELD | op::PUTSTATIC | op::MONITORENTER => return impure,
            op::IASTORE..=op::SASTORE => return impure,
            op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKESTATIC | op::INVOKEINTERFACE => {
                let Some(r) = member(&cf.constant_pool, insn) else { return impure };
                if r.owner == cf.name() {
                    let own = cf
                        .methods
                        .iter()
                        .position(|m| cf.member_name(m) == r.name && cf.member_descriptor(m) == r.descriptor);
                    match own {
                        Some(c) => {
                            calls.insert(c);
                        }
                        None => return impure,
                    }
                } else if !(PURE_JDK_OWNERS.contains(&r.owner)
                    || r.owner.starts_with("java/util/") && READ_ONLY_NAMES.contains(&r.name)
                    || r.name == "<init>" && r.owner == "java/lang/Object")
                {
                    return impure;
                }
            }
            _ => {}
        }
    }
    Facts { own_effects_free: true, calls }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compiled(source: &str) -> Option<ClassFile> {
        let dir = tempfile::tempdir().ok()?;
        let file = dir.path().join("Label.java");
        std::fs::write(&file, source).ok()?;
        let javac = model::jdk::find_java_home()?.join("bin/javac");
        let status = std::process::Command::new(javac).arg("-d").arg(dir.path()).arg(&file).status().ok()?;
        assert!(status.success());
        ClassFile::parse(&std::fs::read(dir.path().join("Label.class")).ok()?).ok()
    }

    #[test]
    fn readers_are_pure_and_writers_and_their_callers_are_not() {
        let source = r#"
            public class Label {
                private String text = "a"; private int width; private int[] cells = new int[2];
                public int width() { return width; }
                public boolean fits() { return text.length() <= width(); }
                public String describe() { return text + ":" + width; }
                public int widen() { return ++width; }
                public int wider() { return widen() + 1; }
                public int fill() { cells[0] = 1; return cells[0]; }
                public int print() { System.out.println(text); return 0; }
                public int even(int n) { return n == 0 ? 1 : odd(n - 1); }
                public int odd(int n) { return n == 0 ? 0 : even(n - 1); }
            }"#;
        let Some(cf) = compiled(source) else { return };
        let pure: BTreeSet<String> = pure_methods(&cf).into_iter().map(|(name, _)| name).collect();
        for name in ["width", "fits", "describe", "even", "odd"] {
            assert!(pure.contains(name), "{name}: {pure:?}");
        }
        for name in ["widen", "wider", "fill", "print", "<init>"] {
            assert!(!pure.contains(name), "{name}: {pure:?}");
        }
    }
}
