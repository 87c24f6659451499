//! Call-condition probes: before a chosen call, the distance of a condition
//! over the call's operands (KAT's trigger conditions, TECHNIQUES.md §2 step
//! 3: "computing the trigger's distance in a probe at the call site gives
//! the same guidance without changing the program's behaviour").
//!
//! The snippet stores the call's operands (receiver and arguments; for a
//! constructor only the arguments) into locals past the method's own, computes
//! the distance on the operand stack as a `double` and records it with
//! `Tracer.callCondition(distance, id)` as a branch record of id `id`, then
//! loads the operands back: straight-line and stack-neutral, so no frame is
//! added. The distance is 0 exactly when the condition holds; see
//! [`CallCondition`] for how each part is measured.

use model::bytecode::{Insn, Operand, op};
use model::classfile::ClassFileError;
use model::constant_pool::Constant;
use model::descriptor::{BaseType, FieldType, MethodDescriptor};
use serde::{Deserialize, Serialize};

use super::local;
use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};
use crate::trace::Relation;
use crate::tracer;

/// The code of a relation for `Tracer.conditionDistance` (0 `<`, 1 `<=`,
/// 2 `>`, 3 `>=`, 4 `==`, 5 `!=`).
fn relation_code(rel: Relation) -> i32 {
    match rel {
        Relation::Lt => 0,
        Relation::Le => 1,
        Relation::Gt => 2,
        Relation::Ge => 3,
        Relation::Eq => 4,
        Relation::Ne => 5,
    }
}

/// A query method of a JDK receiver whose result a condition may read
/// (KAT's T3 call dependencies): the tracer calls it only on classes of the
/// JDK that answer it without changing their state, and otherwise treats the
/// value as unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StateQuery {
    /// `Iterator.hasNext()` (also `ListIterator`, `Scanner` excluded).
    HasNext,
    /// `Enumeration.hasMoreElements()`.
    HasMoreElements,
    /// `StringTokenizer.hasMoreTokens()`.
    HasMoreTokens,
    /// `isEmpty()` of a `String`, `Collection`, `Map` or `Optional`.
    IsEmpty,
    /// `Optional.isPresent()`.
    IsPresent,
    /// `Buffer.hasRemaining()`.
    HasRemaining,
    /// `ListIterator.hasPrevious()`.
    HasPrevious,
}

impl StateQuery {
    /// The query named `name`, if it is one.
    pub fn named(name: &str) -> Option<StateQuery> {
        Some(match name {
            "hasNext" => StateQuery::HasNext,
            "hasMoreElements" => StateQuery::HasMoreElements,
            "hasMoreTokens" => StateQuery::HasMoreTokens,
            "isEmpty" => StateQuery::IsEmpty,
            "isPresent" => StateQuery::IsPresent,
            "hasRemaining" => StateQuery::HasRemaining,
            "hasPrevious" => StateQuery::HasPrevious,
            _ => return None,
        })
    }
}

/// A value computed at the call site, as a Java `long`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SiteValue {
    /// Operand `k` of the call: 0 is the receiver of an instance method,
    /// then the arguments. A `boolean`, `char` or integer is its value, a
    /// reference is 0 for `null` and 1 otherwise (so `x == null` is
    /// `Operand(x) == Const(0)`); a `float` or `double` is unknown.
    Operand(u8),
    /// The length of a `String`, `StringBuilder`, `StringBuffer` or array,
    /// the size of a JDK `Collection` or `Map` (-1 for `null`, unknown for
    /// other classes).
    Length(u8),
    /// The result of a query method of operand `k` (`true` is 1).
    State(u8, StateQuery),
    /// A constant.
    Const(i64),
    /// `left + right` (`op == '+'`) or `left - right`.
    Arith(char, Box<SiteValue>, Box<SiteValue>),
}

/// A condition over a call's operands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum CallCondition {
    /// `left rel right`; distance as a branch distance (Korel; TECHNIQUES.md
    /// §0): `a < b` is 0 or `a - b + 1`, `a == b` is `|a - b|`, `a != b` is 0
    /// or 1; 1 when either value is unknown.
    Cmp(SiteValue, Relation, SiteValue),
    /// All parts: the sum of their distances.
    And(Vec<CallCondition>),
    /// Any part: the least of their distances.
    Or(Vec<CallCondition>),
    /// Not known formally: distance 1 (the goal is covered another way).
    Unknown,
}

/// One probed call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallSite {
    /// Index of the method in the class file's method table.
    pub method_index: u16,
    /// Bytecode index of the `invoke*` instruction.
    pub bci: u32,
    /// The branch-record id the distance is recorded under.
    pub probe: u32,
    /// The condition measured.
    pub condition: CallCondition,
}

/// The probe kind: one snippet per [`CallSite`] of the method (several
/// sites at one call are measured one after another).
#[derive(Debug, Clone, Default)]
pub struct CallConditionProbes {
    /// The sites of the class.
    pub sites: Vec<CallSite>,
}

/// Locals the snippets may use past the method's own: the operands of a
/// call take at most 255 slots (JVMS §4.3.3).
const MAX_OPERAND_SLOTS: u16 = 256;

impl ProbeKind for CallConditionProbes {
    fn name(&self) -> &'static str {
        "call-condition"
    }

    fn extra_stack(&self) -> u16 {
        self.sites.iter().map(|s| depth(&s.condition)).max().unwrap_or(0) + 1
    }

    fn extra_locals(&self) -> u16 {
        if self.sites.is_empty() { 0 } else { MAX_OPERAND_SLOTS }
    }

    fn edits(&self, ctx: &MethodContext<'_>, emit: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError> {
        let mut out = Vec::new();
        for (index, insn) in ctx.insns.iter().enumerate() {
            let sites: Vec<&CallSite> =
                self.sites.iter().filter(|s| s.method_index == ctx.method_index && s.bci == insn.bci).collect();
            if sites.is_empty() {
                continue;
            }
            let Some(operands) = call_operands(insn, emit)? else { continue };
            let mut code = Vec::new();
            let slots = Slots::new(&operands, ctx.max_locals);
            slots.store(&mut code);
            for site in sites {
                Compiler { emit, slots: &slots, code: &mut code }.condition(&site.condition)?;
                code.push(emit.push_int(site.probe as i32)?);
                code.push(emit.call(tracer::CALL_CONDITION)?);
            }
            slots.load(&mut code);
            out.push((index, Edit::Before(code)));
        }
        Ok(out)
    }
}

/// The operand types of an `invoke*` (receiver first, as `None` for an
/// uninitialised constructor receiver, which is left on the stack), or
/// `None` for an instruction that is not a call.
fn call_operands(insn: &Insn, emit: &Emitter<'_>) -> Result<Option<Vec<Option<FieldType>>>, ClassFileError> {
    let index = match insn.operand {
        Operand::Constant(i) if matches!(insn.opcode, op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKESTATIC) => i,
        Operand::InvokeInterface { index, .. } => index,
        _ => return Ok(None),
    };
    let member = emit.constant_pool.member_ref(index)?;
    let Ok(descriptor) = MethodDescriptor::parse(member.descriptor) else { return Ok(None) };
    let mut out = Vec::new();
    if insn.opcode != op::INVOKESTATIC {
        let receiver = FieldType::Object(model::names::InternalName::new(member.owner));
        out.push((member.name != "<init>").then_some(receiver));
    }
    out.extend(descriptor.params.into_iter().map(Some));
    Ok(Some(out))
}

/// Where each operand of the call is kept while the condition is measured.
struct Slots {
    /// Per operand: its type and local index (`None`: not stored).
    operands: Vec<Option<(FieldType, u16)>>,
}

impl Slots {
    fn new(types: &[Option<FieldType>], first: u16) -> Slots {
        let mut next = first;
        let operands = types
            .iter()
            .map(|t| {
                t.clone().map(|t| {
                    let slot = next;
                    next += u16::from(t.slots());
                    (t, slot)
                })
            })
            .collect();
        Slots { operands }
    }

    /// Stores the stored operands, last first (they are on top of the stack).
    fn store(&self, code: &mut Vec<Insn>) {
        for (t, slot) in self.operands.iter().rev().flatten() {
            code.push(local(super::store_opcode(t), *slot));
        }
    }

    /// Loads them back, first first.
    fn load(&self, code: &mut Vec<Insn>) {
        for (t, slot) in self.operands.iter().flatten() {
            code.push(local(super::load_opcode(t), *slot));
        }
    }

    fn get(&self, k: u8) -> Option<&(FieldType, u16)> {
        self.operands.get(usize::from(k))?.as_ref()
    }
}

/// Operand-stack slots the distance of `c` needs at most.
fn depth(c: &CallCondition) -> u16 {
    match c {
        CallCondition::Cmp(l, _, r) => (value_depth(l)).max(2 + value_depth(r)).max(5),
        CallCondition::And(parts) | CallCondition::Or(parts) => parts.iter().map(|p| 2 + depth(p)).max().unwrap_or(2),
        CallCondition::Unknown => 2,
    }
}

fn value_depth(v: &SiteValue) -> u16 {
    match v {
        SiteValue::Arith(_, l, r) => value_depth(l).max(2 + value_depth(r)),
        _ => 2,
    }
}

/// Emits the code of one condition's distance.
struct Compiler<'a, 'e, 'p> {
    emit: &'a mut Emitter<'p>,
    slots: &'a Slots,
    code: &'e mut Vec<Insn>,
}

impl Compiler<'_, '_, '_> {
    /// Pushes the distance of `c` (a `double`).
    fn condition(&mut self, c: &CallCondition) -> Result<(), ClassFileError> {
        match c {
            CallCondition::Cmp(l, rel, r) => {
                let (left_known, right_known) = (self.value(l)?, self.value(r)?);
                if !(left_known && right_known) {
                    // Both values are pushed by now: drop them, the comparison is unknown.
                    self.code.push(Emitter::simple(op::POP2));
                    self.code.push(Emitter::simple(op::POP2));
                    return self.unknown();
                }
                self.code.push(self.emit.push_int(relation_code(*rel))?);
                self.code.push(self.emit.call(tracer::CONDITION_DISTANCE)?);
            }
            CallCondition::And(parts) | CallCondition::Or(parts) => {
                let Some((first, rest)) = parts.split_first() else { return self.unknown() };
                self.condition(first)?;
                for p in rest {
                    self.condition(p)?;
                    if matches!(c, CallCondition::And(_)) {
                        self.code.push(Emitter::simple(op::DADD));
                    } else {
                        self.code.push(self.emit.call(tracer::MIN_DISTANCE)?);
                    }
                }
            }
            CallCondition::Unknown => self.unknown()?,
        }
        Ok(())
    }

    fn unknown(&mut self) -> Result<(), ClassFileError> {
        self.code.push(Emitter::simple(op::DCONST_1));
        Ok(())
    }

    /// Pushes `v` as a `long`; `false` when it is unknown here (then
    /// [`UNKNOWN`] was pushed).
    fn value(&mut self, v: &SiteValue) -> Result<bool, ClassFileError> {
        match v {
            SiteValue::Operand(k) => match self.slots.get(*k) {
                Some((FieldType::Base(BaseType::Float | BaseType::Double), _)) | None => self.push_unknown(),
                Some((FieldType::Base(BaseType::Long), slot)) => {
                    self.code.push(local(op::LLOAD, *slot));
                    Ok(true)
                }
                Some((FieldType::Base(_), slot)) => {
                    self.code.push(local(op::ILOAD, *slot));
                    self.code.push(Emitter::simple(op::I2L));
                    Ok(true)
                }
                Some((_, slot)) => {
                    self.code.push(local(op::ALOAD, *slot));
                    self.code.push(self.emit.call(tracer::REFERENCE_VALUE)?);
                    Ok(true)
                }
            },
            SiteValue::Length(k) | SiteValue::State(k, _) => match self.slots.get(*k) {
                Some((FieldType::Object(_) | FieldType::Array(_), slot)) => {
                    self.code.push(local(op::ALOAD, *slot));
                    if let SiteValue::State(_, query) = v {
                        self.code.push(self.emit.push_int(*query as i32)?);
                        self.code.push(self.emit.call(tracer::STATE_VALUE)?);
                    } else {
                        self.code.push(self.emit.call(tracer::LENGTH_VALUE)?);
                    }
                    Ok(true)
                }
                _ => self.push_unknown(),
            },
            SiteValue::Const(c) => {
                self.push_long(*c)?;
                Ok(true)
            }
            SiteValue::Arith(o, l, r) => {
                let known = self.value(l)? & self.value(r)?;
                let m = if *o == '+' { tracer::ADD_VALUES } else { tracer::SUBTRACT_VALUES };
                self.code.push(self.emit.call(m)?);
                Ok(known)
            }
        }
    }

    fn push_unknown(&mut self) -> Result<bool, ClassFileError> {
        self.push_long(UNKNOWN)?;
        Ok(false)
    }

    fn push_long(&mut self, v: i64) -> Result<(), ClassFileError> {
        match v {
            0 => self.code.push(Emitter::simple(op::LCONST_0)),
            1 => self.code.push(Emitter::simple(op::LCONST_1)),
            _ => {
                let index = self.emit.constant_pool.add(Constant::Long(v))?;
                self.code.push(Insn { bci: 0, opcode: op::LDC2_W, operand: Operand::Constant(index) });
            }
        }
        Ok(())
    }
}

/// The value the tracer uses for "unknown" (`Tracer.UNKNOWN`).
pub const UNKNOWN: i64 = i64::MIN;
