//! Environment control: calls that read the clock, draw random numbers or
//! UUIDs, or ask for identity hash codes become calls of the runtime's
//! `ferrosuite.runtime.Environment`, which answers deterministically in a
//! worker (values reset before each test) and as the original call
//! elsewhere. Each replacement has the stack effect of the call it
//! replaces:
//!
//! - static calls (`System.currentTimeMillis`, `nanoTime`,
//!   `identityHashCode`, `Math.random`, `UUID.randomUUID`,
//!   `ThreadLocalRandom.current`, `String.valueOf(Object)`) become the
//!   `Environment` method of the same descriptor;
//! - `x.hashCode()` and `x.toString()` (virtual or interface calls, except
//!   on `String` and the boxes, whose methods are their own) become static
//!   calls taking the receiver, which keep the class's own method when it
//!   overrides `Object`'s; `super.hashCode()`/`super.toString()` naming
//!   `Object` become `Environment.identityHashCode`/`objectToString`;
//! - the no-argument constructors `Random()` and `Date()` become
//!   `push seed; invokespecial <init>(J)V`, the seed from the environment
//!   (`newRandomSeed`, `currentTimeMillis`), so the uninitialised object on
//!   the stack is initialised as before.
//!
//! Calls made by JDK code are not rewritten (only instrumented classes are).

use model::bytecode::{Insn, Operand, op};
use model::classfile::ClassFileError;
use model::constant_pool::ConstantPool;

use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};
use crate::tracer::TracerMethod;

/// Internal name of the environment class (`Environment.java`).
pub const ENVIRONMENT_CLASS: &str = "ferrosuite/runtime/Environment";

/// `Environment.<name><descriptor>`.
const fn env(name: &'static str, descriptor: &'static str) -> TracerMethod {
    TracerMethod { owner: ENVIRONMENT_CLASS, name, descriptor }
}

/// What a rewritten call becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Replacement {
    /// One static call of the environment with the same stack effect.
    Call(TracerMethod),
    /// `owner.<init>()V` becomes `call seed()J; invokespecial owner.<init>(J)V`.
    Construct { seed: TracerMethod, owner: &'static str },
}

/// Static calls rewritten: (owner, name, descriptor, replacement).
const STATIC_CALLS: &[(&str, &str, &str, TracerMethod)] = &[
    ("java/lang/System", "currentTimeMillis", "()J", env("currentTimeMillis", "()J")),
    ("java/lang/System", "nanoTime", "()J", env("nanoTime", "()J")),
    ("java/lang/System", "identityHashCode", "(Ljava/lang/Object;)I", env("identityHashCode", "(Ljava/lang/Object;)I")),
    ("java/lang/Math", "random", "()D", env("mathRandom", "()D")),
    ("java/util/UUID", "randomUUID", "()Ljava/util/UUID;", env("randomUUID", "()Ljava/util/UUID;")),
    (
        "java/util/concurrent/ThreadLocalRandom",
        "current",
        "()Ljava/util/concurrent/ThreadLocalRandom;",
        env("threadLocalRandom", "()Ljava/util/concurrent/ThreadLocalRandom;"),
    ),
    (
        "java/lang/String",
        "valueOf",
        "(Ljava/lang/Object;)Ljava/lang/String;",
        env("valueOf", "(Ljava/lang/Object;)Ljava/lang/String;"),
    ),
];

/// `Environment.hashCode(Object)`, replacing `x.hashCode()`.
const HASH_CODE: TracerMethod = env("hashCode", "(Ljava/lang/Object;)I");
/// `Environment.toString(Object)`, replacing `x.toString()`.
const TO_STRING: TracerMethod = env("toString", "(Ljava/lang/Object;)Ljava/lang/String;");
/// `Environment.identityHashCode(Object)`, replacing `super.hashCode()` on `Object`.
const IDENTITY_HASH_CODE: TracerMethod = env("identityHashCode", "(Ljava/lang/Object;)I");
/// `Environment.objectToString(Object)`, replacing `super.toString()` on `Object`.
const OBJECT_TO_STRING: TracerMethod = env("objectToString", "(Ljava/lang/Object;)Ljava/lang/String;");
/// No-argument constructors rewritten, and the environment method that
/// gives the argument of their `(J)V` sibling: the seed of a `new Random()`,
/// the time of a `new Date()`.
const CONSTRUCTORS: &[(&str, TracerMethod)] =
    &[("java/util/Random", env("newRandomSeed", "()J")), ("java/util/Date", env("currentTimeMillis", "()J"))];

/// Classes whose `hashCode`/`toString` are their own and deterministic:
/// calls on them are left alone.
const OWN_METHODS: &[&str] = &[
    "java/lang/String",
    "java/lang/Integer",
    "java/lang/Long",
    "java/lang/Short",
    "java/lang/Byte",
    "java/lang/Character",
    "java/lang/Boolean",
    "java/lang/Float",
    "java/lang/Double",
    "java/lang/StringBuilder",
    "java/lang/StringBuffer",
];

/// Rewrites the environment-dependent calls of a class.
pub struct EnvironmentRewrite {
    /// Constant-pool index of each rewritten method reference, with the
    /// call opcode it must appear with and its replacement.
    targets: Vec<(u16, u8, Replacement)>,
}

impl EnvironmentRewrite {
    /// Finds the rewritten method references of a class's constant pool.
    pub fn new(constant_pool: &ConstantPool) -> EnvironmentRewrite {
        let mut targets = Vec::new();
        for (index, _) in constant_pool.iter() {
            let Ok(r) = constant_pool.member_ref(index) else { continue };
            for (opcode, replacement) in replacements(r.owner, r.name, r.descriptor) {
                targets.push((index, opcode, replacement));
            }
        }
        EnvironmentRewrite { targets }
    }

    /// The replacement of a call instruction, if it is rewritten.
    fn replacement(&self, insn: &Insn) -> Option<Replacement> {
        let index = match insn.operand {
            Operand::Constant(i) | Operand::InvokeInterface { index: i, .. } => i,
            _ => return None,
        };
        self.targets.iter().find(|(i, o, _)| *i == index && *o == insn.opcode).map(|(_, _, r)| *r)
    }
}

/// The call opcodes with which a method reference is rewritten, and how.
fn replacements(owner: &str, name: &str, descriptor: &str) -> Vec<(u8, Replacement)> {
    if let Some((.., m)) = STATIC_CALLS.iter().find(|(o, n, d, _)| (*o, *n, *d) == (owner, name, descriptor)) {
        return vec![(op::INVOKESTATIC, Replacement::Call(*m))];
    }
    let (on_any, on_object) = match (name, descriptor) {
        ("hashCode", "()I") => (HASH_CODE, IDENTITY_HASH_CODE),
        ("toString", "()Ljava/lang/String;") => (TO_STRING, OBJECT_TO_STRING),
        ("<init>", "()V") => {
            let Some((owner, seed)) = CONSTRUCTORS.iter().find(|(o, _)| *o == owner) else { return Vec::new() };
            return vec![(op::INVOKESPECIAL, Replacement::Construct { seed: *seed, owner })];
        }
        _ => return Vec::new(),
    };
    if OWN_METHODS.contains(&owner) {
        return Vec::new();
    }
    let mut out =
        vec![(op::INVOKEVIRTUAL, Replacement::Call(on_any)), (op::INVOKEINTERFACE, Replacement::Call(on_any))];
    if owner == "java/lang/Object" {
        out.push((op::INVOKESPECIAL, Replacement::Call(on_object)));
    }
    out
}

impl ProbeKind for EnvironmentRewrite {
    fn name(&self) -> &'static str {
        "environment"
    }

    /// A `long` seed pushed before a constructor call.
    fn extra_stack(&self) -> u16 {
        2
    }

    fn edits(&self, ctx: &MethodContext<'_>, emit: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError> {
        let mut out = Vec::new();
        if self.targets.is_empty() {
            return Ok(out);
        }
        for (index, insn) in ctx.insns.iter().enumerate() {
            let snippet = match self.replacement(insn) {
                None => continue,
                Some(Replacement::Call(m)) => vec![emit.call(m)?],
                Some(Replacement::Construct { seed, owner }) => {
                    let init = emit.constant_pool.add_method_ref(owner, "<init>", "(J)V", false)?;
                    vec![emit.call(seed)?, Insn::new(op::INVOKESPECIAL, Operand::Constant(init))]
                }
            };
            out.push((index, Edit::Replace(snippet)));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn calls(owner: &str, name: &str, descriptor: &str) -> Vec<(u8, &'static str)> {
        let name_of = |r: Replacement| match r {
            Replacement::Call(m) | Replacement::Construct { seed: m, .. } => m.name,
        };
        replacements(owner, name, descriptor).into_iter().map(|(o, r)| (o, name_of(r))).collect()
    }

    #[test]
    fn each_call_keeps_its_opcode_and_descriptor_and_own_methods_are_left_alone() {
        assert_eq!(calls("java/lang/System", "nanoTime", "()J"), [(op::INVOKESTATIC, "nanoTime")]);
        assert_eq!(calls("java/util/Random", "<init>", "()V"), [(op::INVOKESPECIAL, "newRandomSeed")]);
        assert_eq!(calls("java/util/Random", "<init>", "(J)V"), []);
        assert_eq!(calls("java/util/Date", "<init>", "()V"), [(op::INVOKESPECIAL, "currentTimeMillis")]);
        assert_eq!(
            calls("java/lang/Object", "hashCode", "()I"),
            [
                (op::INVOKEVIRTUAL, "hashCode"),
                (op::INVOKEINTERFACE, "hashCode"),
                (op::INVOKESPECIAL, "identityHashCode")
            ]
        );
        assert_eq!(calls("p/Thing", "toString", "()Ljava/lang/String;").len(), 2, "no invokespecial of p.Thing's");
        assert_eq!(calls("java/lang/String", "hashCode", "()I"), []);
        assert_eq!(calls("java/lang/Integer", "toString", "()Ljava/lang/String;"), []);
        for (_, _, descriptor, m) in STATIC_CALLS {
            let params = |d: &str| d.split(')').next().map(str::to_string);
            assert_eq!(params(descriptor), params(m.descriptor), "{}", m.name);
            assert_eq!(descriptor.rsplit(')').next(), m.descriptor.rsplit(')').next(), "{}", m.name);
        }
    }

    /// Every replacement names a public static method of the compiled
    /// `Environment` class with that descriptor.
    #[test]
    fn every_replacement_is_a_public_static_method_of_the_runtime() {
        use model::access;
        use model::classfile::ClassFile;
        let file = format!("{ENVIRONMENT_CLASS}.class");
        let (_, bytes) = crate::tracer::RUNTIME_CLASSES.iter().find(|(p, _)| *p == file).expect("compiled");
        let cf = ClassFile::parse(bytes).unwrap();
        let has = |m: &TracerMethod| {
            cf.methods.iter().any(|x| {
                cf.member_name(x) == m.name
                    && cf.member_descriptor(x) == m.descriptor
                    && x.access & (access::PUBLIC | access::STATIC) == access::PUBLIC | access::STATIC
            })
        };
        let constructors = CONSTRUCTORS.iter().map(|(_, m)| *m);
        let all = STATIC_CALLS.iter().map(|(.., m)| *m).chain(constructors);
        for m in all.chain([HASH_CODE, TO_STRING, IDENTITY_HASH_CODE, OBJECT_TO_STRING]) {
            assert!(has(&m), "Environment has no public static {}{}", m.name, m.descriptor);
        }
    }
}
