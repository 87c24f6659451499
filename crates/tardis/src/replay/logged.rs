//! The value log in the replay: when the replay reaches a call it cannot
//! run (a JDK method it does not model, a method of a class that is not
//! instrumented, `invokedynamic`, a constructor of such a class) or a read
//! of a field of such a class, it takes the value the JVM logged at that
//! site (`instrument::probes::value_log`) and goes on with it instead of
//! stopping. A logged number (or the value of a logged box) is a symbol of
//! its own ([`super::Source::Logged`]) with its logged value: branches on it
//! give clauses, but a model cannot write it back into the test, so an
//! alternative that needs it changed is indirect (a path-condition goal).
//!
//! Soundness: the arguments of such a call are pinned (a symbolic number,
//! the characters and length of a symbolic string, the value of a box
//! become `Origin::Pin` clauses), so a solution cannot change an input the
//! logged result depended on. A builder passed to the call becomes opaque
//! (the call may have changed it), and so does an array (its elements and
//! length pinned) unless the method only reads it. What the result depends on through the
//! fields of replayed objects passed to the JDK (through callbacks) is not
//! tracked.
//!
//! Which event belongs to which call: the replay runs the instrumented
//! methods in the JVM's order, so the event it needs comes after the last
//! one it took. At a call of site `s` it takes the first event of `s` from
//! there on and skips the ones before, which belong to calls it modelled
//! itself, to callbacks run inside a JDK call (logged before the outer
//! call returns), or to other threads.

use std::collections::BTreeMap;

use exec::{LoggedValue, ValueLog};
use instrument::probes::value_log::ValueLogProbes;
use model::bytecode::{Insn, op};
use model::classfile::ClassFile;
use model::descriptor::{BaseType, FieldType, MethodDescriptor};

use super::objects::default_value;
use super::{Concrete, Frame, Machine, Object, Slot, Source};
use crate::concolic::range;
use crate::expr::Value;

/// The logged call sites of the replayed classes: (class internal name,
/// method name, method descriptor, bytecode index in the original code)
/// to site id.
#[derive(Debug, Clone, Default)]
pub struct SiteTable {
    map: BTreeMap<(String, String, String, u32), u32>,
}

impl SiteTable {
    /// Adds the sites of `cf` as `probes` numbered them
    /// ([`ValueLogProbes::plan`] of the same class file).
    pub fn add(&mut self, cf: &ClassFile, probes: &ValueLogProbes) {
        for site in &probes.sites {
            let m = &cf.methods[usize::from(site.method_index)];
            let key = (cf.name().to_string(), cf.member_name(m).to_string(), cf.member_descriptor(m).to_string());
            self.map.insert((key.0, key.1, key.2, site.bci), site.id);
        }
    }

    /// The site id of the call at `bci` of `class.method descriptor`.
    pub fn get(&self, class: &str, method: &str, descriptor: &str, bci: u32) -> Option<u32> {
        self.map.get(&(class.to_string(), method.to_string(), descriptor.to_string(), bci)).copied()
    }

    /// The number of sites.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether there is no site.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// A test's value log as the replay reads it: the next event to look at.
pub(crate) struct LogCursor<'a> {
    log: &'a ValueLog,
    sites: &'a SiteTable,
    next: usize,
}

impl<'a> LogCursor<'a> {
    pub(crate) fn new(log: &'a ValueLog, sites: &'a SiteTable) -> LogCursor<'a> {
        LogCursor { log, sites, next: 0 }
    }

    /// The first event of `site` from the cursor on, with its index in the
    /// log; the cursor moves past it.
    fn take(&mut self, site: u32) -> Result<(usize, &'a LoggedValue), String> {
        let log = self.log;
        match log.events[self.next.min(log.events.len())..].iter().position(|e| e.site == site) {
            Some(k) => {
                self.next += k + 1;
                Ok((self.next - 1, &log.events[self.next - 1].value))
            }
            None if log.truncated => Err(format!("the value log was truncated before site {site}")),
            None => Err(format!("no logged value at site {site}")),
        }
    }
}

/// JDK methods that only read the arrays they are given (owner, name; any
/// name when `*`).
const READS_ARRAYS: &[(&str, &str)] = &[
    ("java/lang/String", "*"),
    ("java/util/Arrays", "equals"),
    ("java/util/Arrays", "deepEquals"),
    ("java/util/Arrays", "hashCode"),
    ("java/util/Arrays", "deepHashCode"),
    ("java/util/Arrays", "toString"),
    ("java/util/Arrays", "deepToString"),
    ("java/util/Arrays", "binarySearch"),
    ("java/util/Arrays", "copyOf"),
    ("java/util/Arrays", "copyOfRange"),
];

/// Where the machine was before a call: steps run and clauses.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    steps: usize,
    clauses: usize,
}

/// A call the replay could not run, as `logged_result` needs it.
pub(crate) struct FailedCall<'c> {
    /// The call's owner, name and descriptor.
    pub(crate) owner: &'c str,
    pub(crate) name: &'c str,
    pub(crate) descriptor: &'c str,
    /// Its arguments, the receiver first.
    pub(crate) args: &'c [Slot],
    /// The machine before the call.
    pub(crate) mark: Mark,
    /// Why the replay could not run it.
    pub(crate) why: String,
}

impl Machine<'_> {
    /// The machine's position, taken before a call.
    pub(crate) fn mark(&self) -> Mark {
        Mark { steps: self.steps, clauses: self.out.path.clauses.len() }
    }

    /// Whether replayed bytecode ran since `mark`.
    pub(crate) fn ran_since(&self, mark: Mark) -> bool {
        self.steps != mark.steps
    }

    /// Whether a value log is attached (arguments are kept for it).
    pub(crate) fn has_log(&self) -> bool {
        self.log.is_some()
    }

    /// The result of `call` at `insn` of `f` from the value log; the
    /// call's own error when there is no log, no logged site, or replayed
    /// code ran inside the call (its failure is not the call's).
    pub(crate) fn logged_result(
        &mut self,
        f: &Frame<'_>,
        insn: &Insn,
        call: FailedCall<'_>,
    ) -> Result<Option<Slot>, String> {
        if self.log.is_none() || self.ran_since(call.mark) {
            return Err(call.why);
        }
        // A model that gave up half-way leaves no clause behind.
        self.out.path.clauses.truncate(call.mark.clauses);
        self.out.origins.truncate(call.mark.clauses);
        self.out.anchors.truncate(call.mark.clauses);
        self.pin_arguments(call.owner, call.name, call.args).map_err(|e| format!("{}: {e}", call.why))?;
        let descriptor = MethodDescriptor::parse(call.descriptor).map_err(|e| e.to_string())?;
        let Some(ret) = descriptor.ret else { return Ok(None) };
        let next = f.insns.get(f.pc + 1);
        if next.is_some_and(|n| matches!(n.opcode, op::POP | op::POP2)) {
            return Ok(Some(default_value(&ret.to_descriptor())));
        }
        match self.logged_value(f, insn, &ret, call.why) {
            // `<clinit>` logs nothing (the workers re-run an uninstrumented copy): a reference it gets is opaque.
            Err(_) if f.method.0 == "<clinit>" && ret.is_reference() => {
                let class = ret.to_internal_name().map_or_else(String::new, |c| c.as_str().to_string());
                Ok(Some(self.alloc(Object::Opaque { class })))
            }
            logged => logged.map(Some),
        }
    }

    /// The value of type `ty` the JVM logged at `insn` of `f` (a call's
    /// result or a field read); `why` when there is no log or no logged site.
    pub(crate) fn logged_value(
        &mut self,
        f: &Frame<'_>,
        insn: &Insn,
        ty: &FieldType,
        why: String,
    ) -> Result<Slot, String> {
        let Some(cursor) = self.log.as_mut() else { return Err(why) };
        let site = cursor.sites.get(f.cf.name(), &f.method.0, &f.method.1, insn.bci).ok_or(why)?;
        let (event, value) =
            cursor.take(site).map_err(|e| format!("{e} ({}.{} at {})", f.cf.name(), f.method.0, insn.bci))?;
        let slot = self.logged_slot(value, ty, Source::Logged { site, event })?;
        self.out.logged += 1;
        Ok(slot)
    }

    /// Pins what a call into code the replay does not run may depend on.
    fn pin_arguments(&mut self, owner: &str, name: &str, args: &[Slot]) -> Result<(), String> {
        for arg in args {
            match arg.value {
                Concrete::Prim(_) if arg.sym.is_some() => self.concretise_any(arg)?,
                Concrete::Ref(r) => match self.heap[r].clone() {
                    Object::Str { chars, length } => {
                        for c in chars.iter().filter(|c| c.sym.is_some()) {
                            self.concretise(c)?;
                        }
                        if let Some(length) = length {
                            let n = Value::Int(chars.len() as i32);
                            self.concretise(&Slot { value: Concrete::Prim(n), sym: Some(length) })?;
                        }
                    }
                    Object::Boxed { value, .. } if value.sym.is_some() => self.concretise_any(&value)?,
                    Object::Builder { .. } => self.heap[r] = Object::Opaque { class: "java/lang/StringBuilder".into() },
                    Object::Array { items, length, .. } => {
                        for item in items.iter().filter(|i| i.sym.is_some()) {
                            self.concretise_any(item)?;
                        }
                        if let Some(length) = length {
                            let n = Value::Int(items.len() as i32);
                            self.concretise(&Slot { value: Concrete::Prim(n), sym: Some(length) })?;
                        }
                        if !reads_arrays(owner, name) {
                            // The JDK may have written it: reading it again stops the replay.
                            self.heap[r] = Object::Opaque { class: "[".into() };
                        }
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        Ok(())
    }

    /// The slot of a logged value for a result of type `ret`: a number (or
    /// a box's value) is a symbol of `source`, the others are concrete.
    fn logged_slot(&mut self, value: &LoggedValue, ret: &FieldType, source: Source) -> Result<Slot, String> {
        let mismatch = || format!("the logged value {value:?} is no {}", ret.to_descriptor());
        let wanted = ret.to_descriptor();
        let base = match ret {
            FieldType::Base(b) => Some(*b),
            _ => None,
        };
        Ok(match (value, wanted.as_str()) {
            (LoggedValue::Int(v), "Z" | "B" | "C" | "S" | "I") => self.logged_number(Value::Int(*v), source, base),
            (LoggedValue::Long(v), "J") => self.logged_number(Value::Long(*v), source, None),
            (LoggedValue::Float(v), "F") => self.logged_number(Value::Float(*v), source, None),
            (LoggedValue::Double(v), "D") => self.logged_number(Value::Double(*v), source, None),
            (_, "Z" | "B" | "C" | "S" | "I" | "J" | "F" | "D") => return Err(mismatch()),
            (LoggedValue::Null, _) => Slot { value: Concrete::Null, sym: None },
            (LoggedValue::Str(Some(text)), _) => self.string(text),
            (LoggedValue::Str(None), _) => self.alloc(Object::Opaque { class: "java/lang/String".into() }),
            (LoggedValue::Boxed { class, bits }, _) => {
                let v = box_value(class, *bits).ok_or_else(mismatch)?;
                let value = self.logged_number(v, source, box_base(class));
                self.alloc(Object::Boxed { class: class.clone(), value })
            }
            (LoggedValue::Object { class, identity }, _) => match self.logged_objects.get(identity) {
                Some(r) => Slot { value: Concrete::Ref(*r), sym: None },
                None => {
                    let slot = self.alloc(Object::Opaque { class: internal_name(class) });
                    let Concrete::Ref(r) = slot.value else { unreachable!("alloc gives a reference") };
                    self.logged_objects.insert(*identity, r);
                    slot
                }
            },
            _ => return Err(mismatch()),
        })
    }

    /// A logged number as a symbol of `source`, with the domain clauses of
    /// its type `base` when narrow (a `char` is 0 to 65535).
    fn logged_number(&mut self, v: Value, source: Source, base: Option<BaseType>) -> Slot {
        let sym = self.bounded(v, source, base.and_then(range));
        Slot { value: Concrete::Prim(v), sym: Some(sym) }
    }
}

/// Whether the JDK method `owner.name` only reads the arrays it is given.
fn reads_arrays(owner: &str, name: &str) -> bool {
    READS_ARRAYS.iter().any(|(o, n)| *o == owner && (*n == "*" || *n == name))
}

/// The primitive value of a logged box of `class` (internal name).
fn box_value(class: &str, bits: i64) -> Option<Value> {
    Some(match class.trim_start_matches("java/lang/") {
        "Integer" | "Short" | "Byte" | "Character" | "Boolean" => Value::Int(bits as i32),
        "Long" => Value::Long(bits),
        "Float" => Value::Float(f32::from_bits(bits as u32)),
        "Double" => Value::Double(f64::from_bits(bits as u64)),
        _ => return None,
    })
}

/// The primitive type a box of `class` (internal name) holds, when narrow.
fn box_base(class: &str) -> Option<BaseType> {
    Some(match class.trim_start_matches("java/lang/") {
        "Short" => BaseType::Short,
        "Byte" => BaseType::Byte,
        "Character" => BaseType::Char,
        "Boolean" => BaseType::Boolean,
        _ => return None,
    })
}

/// The internal name of a class named as `Class.getName()` names it
/// (`java.util.ArrayList`, `[I`).
fn internal_name(binary: &str) -> String {
    binary.replace('.', "/")
}
