//! The mutant schema: a method's mutants in one method body.
//!
//! Each mutated instruction is replaced by a call of a `Mutants` helper
//! (`java/ferrosuite/runtime/Mutants.java`) with the same stack effect plus
//! the id of the site's first mutant; the helper behaves like the original
//! unless `Mutants.active` is one of the site's ids. One instrumented class
//! thus carries all its mutants, switched at run time. The operators are
//! EvoSuite's:
//!
//! | operator | instructions | replacements (in id order) |
//! |---|---|---|
//! | [`MutantOperator::Aor`] | `iadd`..`drem` | the other four of `+ - * / %` |
//! | [`MutantOperator::Ror`], [`MutantOperator::NegateCondition`] | `ifXX`, `if_icmpXX` | the other relations of `== != < >= > <=`, then `true`, `false` (the negation is the negate-condition mutant) |
//! | same | `if_acmpXX`, `ifnull`, `ifnonnull`, and `ifeq`/`ifne` testing a boolean (from `instanceof`, a `boolean` field or call) | the negation, `true`, `false` |
//! | [`MutantOperator::ReplaceConstant`] | int, long, float and double constants (`xconst_*`, `bipush`, `sipush`, `ldc*`) | `0, 1, -1, v+1, v-1` without `v` and repeats; a `0`/`1` that is returned from a `boolean` method, stored in a `boolean` field or passed as a `boolean` last argument only gets the other boolean |
//! | [`MutantOperator::RemoveCall`] | `invokestatic`/`invokevirtual`/`invokeinterface` of a `void` method (class files of Java 7 and later) | the call is skipped |
//!
//! A conditional jump `if_icmplt L` becomes `<push base> invokestatic
//! Mutants.icmplt(III)Z; ifne L`: the only kind of snippet with a jump, which
//! the rewriter accepts because it targets the replaced jump's own target.
//! A removable call becomes an `invokedynamic` of the same stack effect
//! whose bootstrap (`Mutants.removeCall`) gets the original method as a
//! method handle, resolved in the caller's context like the call itself,
//! and links a call site that calls it unless the mutant is active: no
//! branch, so no stack-map frame. The bootstrap entries are appended to the
//! class's `BootstrapMethods` attribute ([`append_bootstrap_methods`]).
//!
//! Not mutated: `<clinit>`, methods the analysis filters as a whole
//! (synthetic except lambda bodies, bridges, generated enum and record
//! members, ...), the instructions it filters (string-switch hash dispatch,
//! try-with-resources and `synchronized` bookkeeping, `$assertionsDisabled`
//! tests), calls the sandbox rewrites (`System.exit`, ...) and calls of the
//! signature-polymorphic `MethodHandle`/`VarHandle` methods.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

use analysis::filter::{InsnFilter, instruction_filters, method_filter};
use model::bytecode::{self, Insn, Operand, op};
use model::classfile::{Attribute, ClassFile, ClassFileError};
use model::constant_pool::{Constant, ConstantPool};
use model::names::InternalName;
use serde::{Deserialize, Serialize};

use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};
use crate::tracer::{TracerMethod, mutants};

/// EvoSuite's mutant operators (its "mutation operators") that ferrosuite applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MutantOperator {
    /// Replace arithmetic operator (`+ - * / %` with one another).
    Aor,
    /// Replace comparison operator (another relation, or `true`/`false`).
    Ror,
    /// Negate a condition (the ROR replacement by the opposite relation).
    NegateCondition,
    /// Replace a numeric constant.
    ReplaceConstant,
    /// Remove a call of a `void` method.
    RemoveCall,
}

impl MutantOperator {
    /// EvoSuite's short name.
    pub fn short_name(self) -> &'static str {
        match self {
            MutantOperator::Aor => "AOR",
            MutantOperator::Ror => "ROR",
            MutantOperator::NegateCondition => "NC",
            MutantOperator::ReplaceConstant => "RC",
            MutantOperator::RemoveCall => "DS",
        }
    }
}

/// One mutant of a class instrumented with its mutant schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mutant {
    /// Global id: `Mutants.active = id` activates it.
    pub id: u32,
    /// Index of the method in the class file's method table.
    pub method_index: u16,
    /// Bytecode index of the mutated instruction in the original method.
    pub bci: u32,
    /// Source line of the instruction, if the method has line numbers.
    pub line: Option<u16>,
    /// The operator that made it.
    pub operator: MutantOperator,
    /// `line 42: replace + with -` (`bci 17: ...` without line numbers).
    pub description: String,
}

/// What the mutant schema needs to know about one method beyond its code.
#[derive(Debug, Clone, Default)]
pub struct MethodFacts {
    /// Bytecode indices the analysis filters: never mutated.
    pub ignored: BTreeSet<u32>,
    /// Whether the method returns `boolean`.
    pub returns_boolean: bool,
    /// Whether `void` calls may be removed (`invokedynamic` needs a class
    /// file of version 51, Java 7, or later).
    pub remove_calls: bool,
}

impl MethodFacts {
    /// The mutant facts of method `method_index`, or `None` when the
    /// method gets no mutants: `<clinit>`, no code, code that does not
    /// decode, or a method the analysis filters as a whole.
    pub fn of(cf: &ClassFile, method_index: usize) -> Option<MethodFacts> {
        let m = &cf.methods[method_index];
        if cf.member_name(m) == "<clinit>" {
            return None;
        }
        let code = cf.code(m).ok()??;
        let insns = bytecode::decode(&code.code).ok()?;
        if method_filter(cf, m, Some(&insns)).is_some() {
            return None;
        }
        let filters = instruction_filters(cf, cf.member_name(m), &insns, &code, true);
        let mut ignored: BTreeSet<u32> = filters.ignored.keys().copied().collect();
        // The filter starts a string switch's dispatch at the hash switch;
        // its prologue `iconst_m1; istore c; aload s; invokevirtual hashCode`
        // belongs to it too.
        for (k, insn) in insns.iter().enumerate().skip(4) {
            let hash_switch = filters.ignored.get(&insn.bci) == Some(&InsnFilter::StringSwitchHash) && insn.is_switch();
            if hash_switch && insns[k - 4].opcode == op::ICONST_M1 {
                ignored.extend(insns[k - 4..k].iter().map(|i| i.bci));
            }
        }
        Some(MethodFacts {
            ignored,
            returns_boolean: cf.member_descriptor(m).ends_with(")Z"),
            remove_calls: cf.major_version >= 51,
        })
    }
}

/// One entry of the `BootstrapMethods` attribute: a `CONSTANT_MethodHandle`
/// index and the static-argument constant indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BootstrapMethod {
    /// Constant-pool index of the `CONSTANT_MethodHandle` of the bootstrap method.
    pub method_ref: u16,
    /// Constant-pool indices of its static arguments, in order.
    pub arguments: Vec<u16>,
}

/// What one run of [`MutantSchema::edits`] produced.
#[derive(Debug, Default)]
pub struct Recorded {
    /// The mutants, in id order.
    pub mutants: Vec<Mutant>,
    /// Bootstrap entries the emitted `invokedynamic`s refer to, in order
    /// from `first_bootstrap`. They must be appended to the class even when
    /// the method's rewrite fails: the constant pool already refers to them.
    pub bootstrap: Vec<BootstrapMethod>,
}

/// The mutants of one method, with ids from `first_id`.
pub struct MutantSchema {
    /// Facts about the method.
    pub method: MethodFacts,
    /// Id of the method's first mutant.
    pub first_id: u32,
    /// Index of the first bootstrap entry this method adds (the class's
    /// current number of entries).
    pub first_bootstrap: usize,
    /// The output of the last [`ProbeKind::edits`] call.
    pub recorded: RefCell<Recorded>,
}

impl MutantSchema {
    /// The mutant schema of one method.
    pub fn new(method: MethodFacts, first_id: u32, first_bootstrap: usize) -> MutantSchema {
        MutantSchema { method, first_id, first_bootstrap, recorded: RefCell::default() }
    }
}

/// A mutant site: the helper that replaces the instruction (or the call
/// to make removable) and its mutants (operator, what changes).
struct Site {
    replacement: Replacement,
    mutants: Vec<(MutantOperator, String)>,
}

enum Replacement {
    /// `<push base> invokestatic helper`.
    Helper(TracerMethod),
    /// `<original> <push base> invokestatic helper`.
    AfterOriginal(TracerMethod),
    /// `<push base> invokestatic helper; ifne <original target>`.
    Condition(TracerMethod),
    /// `invokedynamic` bootstrapped by `Mutants.removeCall`.
    RemovableCall { kind: u8, reference: u16, name: String, descriptor: String },
}

impl ProbeKind for MutantSchema {
    fn name(&self) -> &'static str {
        // The name appears in diagnostics (`RewriteError::BadEdit`), which are
        // kept as they were.
        "mutation"
    }

    fn extra_stack(&self) -> u16 {
        1
    }

    fn edits(&self, ctx: &MethodContext<'_>, emit: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError> {
        self.recorded.borrow_mut().mutants.clear();
        let lines = lines_of(ctx);
        let index_of: HashMap<u32, usize> = ctx.insns.iter().enumerate().map(|(i, x)| (x.bci, i)).collect();
        let mut next = self.first_id;
        let mut out = Vec::new();
        for (index, insn) in ctx.insns.iter().enumerate() {
            if self.method.ignored.contains(&insn.bci) {
                continue;
            }
            let Some(site) = site(ctx, index, &index_of, emit.constant_pool, &self.method) else { continue };
            let base = next;
            let snippet = match site.replacement {
                Replacement::Helper(m) => vec![emit.push_int(base as i32)?, emit.call(m)?],
                Replacement::AfterOriginal(m) => vec![insn.clone(), emit.push_int(base as i32)?, emit.call(m)?],
                Replacement::Condition(m) => {
                    let target = index_of[&insn.targets()[0]] as u32;
                    vec![emit.push_int(base as i32)?, emit.call(m)?, Insn::new(op::IFNE, Operand::Jump(target))]
                }
                Replacement::RemovableCall { kind, reference, name, descriptor } => {
                    let bootstrap = self.first_bootstrap + self.recorded.borrow().bootstrap.len();
                    let Ok(bootstrap) = u16::try_from(bootstrap) else { continue };
                    let cp = &mut *emit.constant_pool;
                    let m = mutants::REMOVE_CALL;
                    let bsm = cp.add_method_ref(m.owner, m.name, m.descriptor, false)?;
                    let method_ref = cp.add(Constant::MethodHandle { kind: REF_INVOKE_STATIC, reference: bsm })?;
                    let target = cp.add(Constant::MethodHandle { kind, reference })?;
                    let id = cp.add_integer(base as i32)?;
                    self.recorded
                        .borrow_mut()
                        .bootstrap
                        .push(BootstrapMethod { method_ref, arguments: vec![target, id] });
                    let name = cp.add_utf8(&name)?;
                    let descriptor = cp.add_utf8(&descriptor)?;
                    let name_and_type = cp.add(Constant::NameAndType { name, descriptor })?;
                    let index = cp.add(Constant::InvokeDynamic { bootstrap, name_and_type })?;
                    vec![Insn::new(op::INVOKEDYNAMIC, Operand::InvokeDynamic { index })]
                }
            };
            out.push((index, Edit::Replace(snippet)));
            let line = lines[index];
            let place = line.map_or_else(|| format!("bci {}", insn.bci), |l| format!("line {l}"));
            let mut recorded = self.recorded.borrow_mut();
            for (operator, change) in site.mutants {
                let description = format!("{place}: {change}");
                recorded.mutants.push(Mutant {
                    id: next,
                    method_index: ctx.method_index,
                    bci: insn.bci,
                    line,
                    operator,
                    description,
                });
                next += 1;
            }
        }
        Ok(out)
    }
}

const REF_INVOKE_VIRTUAL: u8 = 5;
const REF_INVOKE_STATIC: u8 = 6;
const REF_INVOKE_INTERFACE: u8 = 9;

/// The source line of each instruction (the last line-number row at or
/// before it).
fn lines_of(ctx: &MethodContext<'_>) -> Vec<Option<u16>> {
    let mut starts = ctx.line_starts.to_vec();
    starts.sort_by_key(|(i, _)| *i);
    let mut out = vec![None; ctx.insns.len()];
    let mut rows = starts.iter().peekable();
    let mut current = None;
    for (i, slot) in out.iter_mut().enumerate() {
        while let Some((_, line)) = rows.next_if(|(start, _)| *start <= i) {
            current = Some(*line);
        }
        *slot = current;
    }
    out
}

/// The mutant site at instruction `index`, if it is one.
fn site(
    ctx: &MethodContext<'_>,
    index: usize,
    index_of: &HashMap<u32, usize>,
    cp: &ConstantPool,
    method: &MethodFacts,
) -> Option<Site> {
    let insn = &ctx.insns[index];
    match insn.opcode {
        op::IADD..=op::DREM => Some(arithmetic(insn.opcode)),
        op::IFEQ..=op::IF_ICMPLE => {
            let after_assertion_check = index > 0 && is_assertions_disabled(cp, &ctx.insns[index - 1]);
            (!after_assertion_check).then(|| comparison(ctx, index, cp))
        }
        op::IF_ACMPEQ | op::IF_ACMPNE | op::IFNULL | op::IFNONNULL => Some(reference_comparison(insn.opcode)),
        op::INVOKESTATIC | op::INVOKEVIRTUAL | op::INVOKEINTERFACE if method.remove_calls => removable_call(cp, insn),
        _ => constant(ctx, index, index_of, cp, method),
    }
}

/// `getstatic <any class>.$assertionsDisabled`.
fn is_assertions_disabled(cp: &ConstantPool, insn: &Insn) -> bool {
    let Operand::Constant(index) = insn.operand else { return false };
    insn.opcode == op::GETSTATIC && cp.member_ref(index).is_ok_and(|r| r.name == "$assertionsDisabled")
}

const ARITHMETIC: [&str; 5] = ["+", "-", "*", "/", "%"];

/// The k-th (from 0) of the codes 0, 1, 2, ... other than `original`
/// (`Mutants.other`).
fn other(original: usize, k: usize) -> usize {
    if k < original { k } else { k + 1 }
}

fn arithmetic(opcode: u8) -> Site {
    let n = usize::from(opcode - op::IADD);
    let (operator, ty) = (n / 4, n % 4);
    let descriptor = ["(III)I", "(JJI)J", "(FFI)F", "(DDI)D"][ty];
    let name = HELPER_NAMES[ty * 5 + operator];
    let mutants = (0..4)
        .map(|k| {
            let r = other(operator, k);
            (MutantOperator::Aor, format!("replace {} with {}", ARITHMETIC[operator], ARITHMETIC[r]))
        })
        .collect();
    Site { replacement: Replacement::Helper(mutants::method(name, descriptor)), mutants }
}

/// Helper names by type (int, long, float, double) and operator.
const HELPER_NAMES: [&str; 20] = [
    "iadd", "isub", "imul", "idiv", "irem", "ladd", "lsub", "lmul", "ldiv", "lrem", "fadd", "fsub", "fmul", "fdiv",
    "frem", "dadd", "dsub", "dmul", "ddiv", "drem",
];

/// Relations in `Mutants`' order: == != < >= > <= (the `ifXX` opcode
/// order), then true and false.
const RELATIONS: [&str; 8] = ["==", "!=", "<", ">=", ">", "<=", "true", "false"];
const NEGATION: [usize; 6] = [1, 0, 3, 2, 5, 4];
const IF_HELPERS: [&str; 6] = ["ifeq", "ifne", "iflt", "ifge", "ifgt", "ifle"];
const ICMP_HELPERS: [&str; 6] = ["icmpeq", "icmpne", "icmplt", "icmpge", "icmpgt", "icmple"];

fn comparison(ctx: &MethodContext<'_>, index: usize, cp: &ConstantPool) -> Site {
    let opcode = ctx.insns[index].opcode;
    if matches!(opcode, op::IFEQ | op::IFNE) && tests_boolean(ctx, index, cp) {
        // Only the truth of a boolean matters: `b < 0` is `false`, `b > 0` is `b != 0`, ...
        return match opcode {
            op::IFEQ => two_way("zifeq", "(II)Z", "!b", "b"),
            _ => two_way("zifne", "(II)Z", "b", "!b"),
        };
    }
    let two = opcode >= op::IF_ICMPEQ;
    let rel = usize::from(opcode - if two { op::IF_ICMPEQ } else { op::IFEQ });
    // `lcmp; ifge` tests a >= b on the compared values.
    let fused = follows(ctx, index, &[op::LCMP, op::FCMPL, op::FCMPG, op::DCMPL, op::DCMPG]);
    let condition = |r: usize| match r {
        6 | 7 => RELATIONS[r].to_string(),
        _ if two || fused => format!("a {} b", RELATIONS[r]),
        _ => format!("x {} 0", RELATIONS[r]),
    };
    let mutants = (0..7)
        .map(|k| {
            let r = other(rel, k);
            if r == NEGATION[rel] {
                (MutantOperator::NegateCondition, format!("negate {} (to {})", condition(rel), condition(r)))
            } else {
                (MutantOperator::Ror, format!("replace {} with {}", condition(rel), condition(r)))
            }
        })
        .collect();
    let helper =
        if two { mutants::method(ICMP_HELPERS[rel], "(III)Z") } else { mutants::method(IF_HELPERS[rel], "(II)Z") };
    Site { replacement: Replacement::Condition(helper), mutants }
}

/// Whether the instruction before `index` is one of `opcodes` and is the
/// only way to reach `index`.
fn follows(ctx: &MethodContext<'_>, index: usize, opcodes: &[u8]) -> bool {
    index > 0 && !ctx.is_target[index] && opcodes.contains(&ctx.insns[index - 1].opcode)
}

/// Whether the `ifeq`/`ifne` at `index` tests a boolean: the value comes
/// straight from `instanceof`, a `boolean` field or a call returning `boolean`.
fn tests_boolean(ctx: &MethodContext<'_>, index: usize, cp: &ConstantPool) -> bool {
    if index == 0 || ctx.is_target[index] {
        return false;
    }
    let member = |i: u16, ok: &dyn Fn(&str) -> bool| cp.member_ref(i).is_ok_and(|r| ok(r.descriptor));
    let prev = &ctx.insns[index - 1];
    match (prev.opcode, &prev.operand) {
        (op::INSTANCEOF, _) => true,
        (op::GETFIELD | op::GETSTATIC, Operand::Constant(i)) => member(*i, &|d| d == "Z"),
        (op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKESTATIC, Operand::Constant(i))
        | (op::INVOKEINTERFACE, Operand::InvokeInterface { index: i, .. }) => member(*i, &|d| d.ends_with(")Z")),
        (op::INVOKEDYNAMIC, Operand::InvokeDynamic { index: i }) => match cp.get(*i) {
            Ok(Constant::InvokeDynamic { name_and_type, .. }) => {
                cp.name_and_type(*name_and_type).is_ok_and(|(_, d)| d.ends_with(")Z"))
            }
            _ => false,
        },
        _ => false,
    }
}

/// A condition with two outcomes (references, booleans): the negation,
/// "true" and "false".
fn two_way(helper: &'static str, descriptor: &'static str, condition: &str, negation: &str) -> Site {
    let mutants = vec![
        (MutantOperator::NegateCondition, format!("negate {condition} (to {negation})")),
        (MutantOperator::Ror, format!("replace {condition} with true")),
        (MutantOperator::Ror, format!("replace {condition} with false")),
    ];
    Site { replacement: Replacement::Condition(mutants::method(helper, descriptor)), mutants }
}

fn reference_comparison(opcode: u8) -> Site {
    const TWO: &str = "(Ljava/lang/Object;Ljava/lang/Object;I)Z";
    const ONE: &str = "(Ljava/lang/Object;I)Z";
    match opcode {
        op::IF_ACMPEQ => two_way("acmpeq", TWO, "a == b", "a != b"),
        op::IF_ACMPNE => two_way("acmpne", TWO, "a != b", "a == b"),
        op::IFNULL => two_way("ifnull", ONE, "x == null", "x != null"),
        _ => two_way("ifnonnull", ONE, "x != null", "x == null"),
    }
}

/// A call of a `void` method that can be made removable.
fn removable_call(cp: &ConstantPool, insn: &Insn) -> Option<Site> {
    let (reference, kind) = match (insn.opcode, &insn.operand) {
        (op::INVOKESTATIC, Operand::Constant(i)) => (*i, REF_INVOKE_STATIC),
        (op::INVOKEVIRTUAL, Operand::Constant(i)) => (*i, REF_INVOKE_VIRTUAL),
        (op::INVOKEINTERFACE, Operand::InvokeInterface { index, .. }) => (*index, REF_INVOKE_INTERFACE),
        _ => return None,
    };
    let r = cp.member_ref(reference).ok()?;
    let kept = r.owner.starts_with("ferrosuite/runtime/")
        || matches!(r.owner, "java/lang/invoke/MethodHandle" | "java/lang/invoke/VarHandle")
        || matches!((r.owner, r.name), ("java/lang/System", "exit") | ("java/lang/Runtime", "exit" | "halt"));
    if kept || !r.descriptor.ends_with(")V") || r.name.starts_with('<') {
        return None;
    }
    let descriptor = if kind == REF_INVOKE_STATIC {
        r.descriptor.to_string()
    } else if r.owner.starts_with('[') {
        format!("({}{}", r.owner, &r.descriptor[1..])
    } else {
        format!("(L{};{}", r.owner, &r.descriptor[1..])
    };
    let change = format!("remove call to {}.{}{}", InternalName::new(r.owner).to_binary(), r.name, r.descriptor);
    Some(Site {
        replacement: Replacement::RemovableCall { kind, reference, name: r.name.to_string(), descriptor },
        mutants: vec![(MutantOperator::RemoveCall, change)],
    })
}

/// A numeric constant.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Value {
    Int(i32),
    Long(i64),
    Float(f32),
    Double(f64),
}

impl Value {
    fn of(insn: &Insn, cp: &ConstantPool) -> Option<Value> {
        Some(match (insn.opcode, &insn.operand) {
            (op::ICONST_M1..=op::ICONST_5, _) => Value::Int(i32::from(insn.opcode) - i32::from(op::ICONST_0)),
            (op::LCONST_0 | op::LCONST_1, _) => Value::Long(i64::from(insn.opcode - op::LCONST_0)),
            (op::FCONST_0..=op::FCONST_2, _) => Value::Float(f32::from(insn.opcode - op::FCONST_0)),
            (op::DCONST_0 | op::DCONST_1, _) => Value::Double(f64::from(insn.opcode - op::DCONST_0)),
            (op::BIPUSH | op::SIPUSH, Operand::Int(v)) => Value::Int(*v),
            (op::LDC | op::LDC_W | op::LDC2_W, Operand::Constant(i)) => match cp.get(*i).ok()? {
                Constant::Integer(v) => Value::Int(*v),
                Constant::Long(v) => Value::Long(*v),
                Constant::Float(bits) => Value::Float(f32::from_bits(*bits)),
                Constant::Double(bits) => Value::Double(f64::from_bits(*bits)),
                _ => return None,
            },
            _ => return None,
        })
    }

    /// Java's `floatToIntBits`/`doubleToLongBits` (one NaN), widened.
    fn bits(self) -> u64 {
        match self {
            Value::Int(v) => v as u32 as u64,
            Value::Long(v) => v as u64,
            Value::Float(v) if v.is_nan() => 0x7fc0_0000,
            Value::Float(v) => u64::from(v.to_bits()),
            Value::Double(v) if v.is_nan() => 0x7ff8_0000_0000_0000,
            Value::Double(v) => v.to_bits(),
        }
    }

    /// Candidates 0, 1, -1, v + 1, v - 1 in this type's arithmetic.
    fn candidates(self) -> [Value; 5] {
        match self {
            Value::Int(v) => [0, 1, -1, v.wrapping_add(1), v.wrapping_sub(1)].map(Value::Int),
            Value::Long(v) => [0, 1, -1, v.wrapping_add(1), v.wrapping_sub(1)].map(Value::Long),
            Value::Float(v) => [0.0, 1.0, -1.0, v + 1.0, v - 1.0].map(Value::Float),
            Value::Double(v) => [0.0, 1.0, -1.0, v + 1.0, v - 1.0].map(Value::Double),
        }
    }

    /// The replacements, in `Mutants.xconst` order: candidates other than
    /// the value and earlier candidates (compared by bits).
    fn replacements(self) -> Vec<Value> {
        let mut seen = vec![self.bits()];
        let mut out = Vec::new();
        for c in self.candidates() {
            if !seen.contains(&c.bits()) {
                seen.push(c.bits());
                out.push(c);
            }
        }
        out
    }

    fn helper(self) -> TracerMethod {
        match self {
            Value::Int(_) => mutants::method("iconst", "(II)I"),
            Value::Long(_) => mutants::method("lconst", "(JI)J"),
            Value::Float(_) => mutants::method("fconst", "(FI)F"),
            Value::Double(_) => mutants::method("dconst", "(DI)D"),
        }
    }
}

/// Java-like text of a constant: `5`, `5L`, `1.5f`, `1.5`, `NaN`, `Infinity`.
impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let float = |v: f64| {
            if v.is_nan() {
                "NaN".to_string()
            } else if v.is_infinite() {
                if v > 0.0 { "Infinity".into() } else { "-Infinity".into() }
            } else {
                format!("{v:?}")
            }
        };
        match *self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Long(v) => write!(f, "{v}L"),
            Value::Float(v) if v.is_finite() => write!(f, "{v:?}f"),
            Value::Float(v) => write!(f, "{}", float(f64::from(v))),
            Value::Double(v) => write!(f, "{}", float(v)),
        }
    }
}

fn constant(
    ctx: &MethodContext<'_>,
    index: usize,
    index_of: &HashMap<u32, usize>,
    cp: &ConstantPool,
    method: &MethodFacts,
) -> Option<Site> {
    let insn = &ctx.insns[index];
    let value = Value::of(insn, cp)?;
    if matches!(insn.opcode, op::ICONST_0 | op::ICONST_1) && boolean_use(ctx, index, index_of, cp, method) {
        let (from, to) = if insn.opcode == op::ICONST_0 { ("false", "true") } else { ("true", "false") };
        return Some(Site {
            replacement: Replacement::AfterOriginal(mutants::method("zconst", "(II)I")),
            mutants: vec![(MutantOperator::ReplaceConstant, format!("replace constant {from} with {to}"))],
        });
    }
    let mutants = value
        .replacements()
        .into_iter()
        .map(|r| (MutantOperator::ReplaceConstant, format!("replace constant {value} with {r}")))
        .collect();
    Some(Site { replacement: Replacement::AfterOriginal(value.helper()), mutants })
}

/// Whether the `iconst_0`/`iconst_1` at `index` is used as a boolean: the
/// next instruction (after up to three `goto`s) returns it from a `boolean`
/// method, stores it in a `boolean` field or passes it as the last,
/// `boolean`, argument of a call. There only its truth matters (the JVM
/// keeps the lowest bit), so replacing 1 by -1 or 2 would be equivalent or
/// repeat another mutant.
fn boolean_use(
    ctx: &MethodContext<'_>,
    index: usize,
    index_of: &HashMap<u32, usize>,
    cp: &ConstantPool,
    method: &MethodFacts,
) -> bool {
    let mut next = index + 1;
    for _ in 0..4 {
        let Some(insn) = ctx.insns.get(next) else { return false };
        let member = |i: u16| cp.member_ref(i).ok();
        match (insn.opcode, &insn.operand) {
            (op::GOTO | op::GOTO_W, Operand::Jump(t)) => match index_of.get(t) {
                Some(&i) => next = i,
                None => return false,
            },
            (op::IRETURN, _) => return method.returns_boolean,
            (op::PUTFIELD | op::PUTSTATIC, Operand::Constant(i)) => {
                return member(*i).is_some_and(|r| r.descriptor == "Z");
            }
            (op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKESTATIC, Operand::Constant(i))
            | (op::INVOKEINTERFACE, Operand::InvokeInterface { index: i, .. }) => {
                return member(*i).is_some_and(|r| last_parameter_is_boolean(r.descriptor));
            }
            (op::INVOKEDYNAMIC, Operand::InvokeDynamic { index: i }) => {
                let descriptor = match cp.get(*i) {
                    Ok(Constant::InvokeDynamic { name_and_type, .. }) => cp.name_and_type(*name_and_type).ok(),
                    _ => None,
                };
                return descriptor.is_some_and(|(_, d)| last_parameter_is_boolean(d));
            }
            _ => return false,
        }
    }
    false
}

fn last_parameter_is_boolean(descriptor: &str) -> bool {
    let params = descriptor.split(')').next().unwrap_or("");
    params.ends_with('Z') && !params.ends_with("[Z")
}

/// The entries of the class's `BootstrapMethods` attribute.
///
/// # Errors
/// [`ClassFileError::Malformed`] when the attribute is truncated.
pub fn bootstrap_methods(cf: &ClassFile) -> Result<Vec<BootstrapMethod>, ClassFileError> {
    let Some(a) = cf.find_attribute(&cf.attributes, "BootstrapMethods") else { return Ok(Vec::new()) };
    let truncated = || ClassFileError::Malformed("truncated BootstrapMethods attribute".into());
    let mut words = a.info.chunks_exact(2).map(|c| u16::from_be_bytes([c[0], c[1]]));
    let count = words.next().ok_or_else(truncated)?;
    let mut out = Vec::with_capacity(usize::from(count));
    for _ in 0..count {
        let method_ref = words.next().ok_or_else(truncated)?;
        let n = words.next().ok_or_else(truncated)?;
        let arguments = (0..n).map(|_| words.next().ok_or_else(truncated)).collect::<Result<_, _>>()?;
        out.push(BootstrapMethod { method_ref, arguments });
    }
    Ok(out)
}

/// Appends `added` to the class's `BootstrapMethods` attribute (creating it
/// if needed); `existing` are its current entries ([`bootstrap_methods`]).
///
/// # Errors
/// [`ClassFileError::Malformed`] when the constant pool is full or the
/// attribute would hold more than 65,535 entries.
pub fn append_bootstrap_methods(
    cf: &mut ClassFile,
    existing: &[BootstrapMethod],
    added: &[BootstrapMethod],
) -> Result<(), ClassFileError> {
    if added.is_empty() {
        return Ok(());
    }
    let all: Vec<&BootstrapMethod> = existing.iter().chain(added).collect();
    let count =
        u16::try_from(all.len()).map_err(|_| ClassFileError::Malformed("more than 65,535 bootstrap methods".into()))?;
    let mut info = count.to_be_bytes().to_vec();
    for b in all {
        info.extend(b.method_ref.to_be_bytes());
        info.extend((b.arguments.len() as u16).to_be_bytes());
        b.arguments.iter().for_each(|a| info.extend(a.to_be_bytes()));
    }
    match cf.attributes.iter().position(|a| cf.attribute_name(a) == "BootstrapMethods") {
        Some(i) => cf.attributes[i].info = info,
        None => {
            let name_index = cf.constant_pool.add_utf8("BootstrapMethods")?;
            cf.attributes.push(Attribute { name_index, info });
        }
    }
    Ok(())
}
