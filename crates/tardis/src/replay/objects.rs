//! Objects and calls in the replay: `new` of a replayed class, instance and
//! static fields (a class's `<clinit>` runs on first use, as in a fresh
//! worker after the static reset), `checkcast` and `instanceof`, and the
//! four kinds of invocation with virtual dispatch over the replayed
//! classes. Calls into the JDK go to `jdk`'s models; any other call, and
//! `invokedynamic` and `athrow`, stop the replay.

use std::collections::BTreeMap;

use model::bytecode::{Insn, Operand, op};

use super::logged::FailedCall;
use super::{Concrete, Flow, Frame, Machine, Object, Slot, number};
use crate::expr::Value;

/// A field reference of an instruction: (owner, name, descriptor).
type Member = (String, String, String);

/// The default value of a field of type `descriptor`.
pub(crate) fn default_value(descriptor: &str) -> Slot {
    match descriptor.as_bytes().first() {
        Some(b'J') => number(Value::Long(0)),
        Some(b'F') => number(Value::Float(0.0)),
        Some(b'D') => number(Value::Double(0.0)),
        Some(b'L' | b'[') => Slot { value: Concrete::Null, sym: None },
        _ => number(Value::Int(0)),
    }
}

impl Machine<'_> {
    pub(super) fn object_insn(&mut self, f: &mut Frame<'_>, insn: &Insn) -> Result<Flow, String> {
        let o = insn.opcode;
        match o {
            op::NEW if class_operand(f, insn)? == "java/lang/Object" => {
                // A lock or a sentinel: only its identity matters.
                let object = self.alloc(Object::Opaque { class: "java/lang/Object".into() });
                f.stack.push(object);
            }
            op::NEW if class_operand(f, insn)? == "java/lang/StringBuilder" => {
                let builder = self.alloc(Object::Builder { chars: Vec::new() });
                f.stack.push(builder);
            }
            op::NEW => {
                let class = class_operand(f, insn)?;
                let object = match self.new_instance(&class) {
                    // Its constructor pins its arguments; calls on it take logged results.
                    Err(_) if self.has_log() && self.runnable(&class).is_none() => self.alloc(Object::Opaque { class }),
                    made => made?,
                };
                f.stack.push(object);
            }
            op::GETFIELD => {
                let (_, name, descriptor) = member(f, insn)?;
                let receiver = f.pop()?;
                let value = match self.get_field(&receiver, &name, &descriptor) {
                    Err(why) if self.has_log() && receiver.value != Concrete::Null => {
                        self.logged_value(f, insn, &field_type(&descriptor)?, why)?
                    }
                    read => read?,
                };
                f.stack.push(value);
            }
            op::PUTFIELD => {
                let (_, name, _) = member(f, insn)?;
                let (value, receiver) = (f.pop()?, f.pop()?);
                self.put_field(&receiver, &name, value)?;
            }
            op::GETSTATIC => {
                let (owner, name, descriptor) = member(f, insn)?;
                let logged = match self.has_log() && self.runnable(&owner).is_none() {
                    // No logged value (in `<clinit>`, say): a reference is still opaque.
                    true => self.logged_value(f, insn, &field_type(&descriptor)?, String::new()).ok(),
                    false => None,
                };
                let value = match logged {
                    Some(value) => value,
                    None => self.read_static(&owner, &name, &descriptor)?,
                };
                f.stack.push(value);
            }
            op::PUTSTATIC => {
                let (owner, name, _) = member(f, insn)?;
                let value = f.pop()?;
                self.write_static(&owner, &name, value)?;
            }
            op::CHECKCAST => {
                let target = class_operand(f, insn)?;
                let top = f.stack.last().cloned().ok_or("stack underflow")?;
                if top.value != Concrete::Null && self.instance_of(&top, &target)? == Some(false) {
                    return Err(format!("ClassCastException to {target}"));
                }
            }
            op::INSTANCEOF => {
                let target = class_operand(f, insn)?;
                let top = f.pop()?;
                let is =
                    self.instance_of(&top, &target)?.ok_or_else(|| format!("instanceof {target} is not decided"))?;
                f.push_value(Value::Int(i32::from(is)));
            }
            op::INVOKESTATIC | op::INVOKESPECIAL | op::INVOKEVIRTUAL | op::INVOKEINTERFACE => {
                let (owner, name, descriptor) = member(f, insn)?;
                let mut args = f.pop_args(&descriptor)?;
                if o != op::INVOKESTATIC {
                    args.insert(0, f.pop()?);
                }
                let kept = self.has_log().then(|| args.clone());
                let mark = self.mark();
                let result = match (self.invoke(o, &owner, &name, &descriptor, args), kept) {
                    (Ok(result), _) => result,
                    (Err(why), None) => return Err(why),
                    (Err(why), Some(args)) => {
                        let call =
                            FailedCall { owner: &owner, name: &name, descriptor: &descriptor, args: &args, mark, why };
                        self.logged_result(f, insn, call)?
                    }
                };
                f.stack.extend(result);
            }
            op::INVOKEDYNAMIC => {
                let descriptor = dynamic_descriptor(f, insn)?;
                let args = f.pop_args(&descriptor)?;
                let why = format!("invokedynamic at {} is not replayed", insn.bci);
                let call =
                    FailedCall { owner: "", name: "", descriptor: &descriptor, args: &args, mark: self.mark(), why };
                let result = self.logged_result(f, insn, call)?;
                f.stack.extend(result);
            }
            op::ATHROW => return Err("the method throws".into()),
            _ => {
                return Err(format!("{} at {} is not replayed", model::bytecode::opcode_name(o), insn.bci));
            }
        }
        Ok(Flow::Next)
    }

    /// Field `name` of the instance `receiver` refers to.
    pub(crate) fn get_field(&self, receiver: &Slot, name: &str, descriptor: &str) -> Result<Slot, String> {
        match self.object(receiver)? {
            Object::Instance { class, fields, partial } => match fields.get(name) {
                Some(value) => Ok(value.clone()),
                None if *partial && !self.declares_field(class, name) => {
                    Err(format!("field {name} may be set by a constructor that is not replayed"))
                }
                None => Ok(default_value(descriptor)),
            },
            _ => Err(format!("field {name} of an object that is not replayed")),
        }
    }

    /// Whether `class` or one of its superclasses whose code the replay
    /// runs declares field `name` (then no skipped constructor sets it).
    fn declares_field(&self, class: &str, name: &str) -> bool {
        let mut at = class.to_string();
        while let Some(cf) = self.runnable(&at) {
            if cf.fields.iter().any(|f| cf.member_name(f) == name) {
                return true;
            }
            let Some(parent) = cf.super_name() else { return false };
            at = parent.to_string();
        }
        false
    }

    /// Sets field `name` of the instance `receiver` refers to.
    pub(crate) fn put_field(&mut self, receiver: &Slot, name: &str, value: Slot) -> Result<(), String> {
        let Concrete::Ref(r) = receiver.value else { return Err("NullPointerException".into()) };
        let Object::Instance { fields, .. } = &mut self.heap[r] else {
            return Err(format!("field {name} of an object that is not replayed"));
        };
        fields.insert(name.to_string(), value);
        Ok(())
    }

    /// The heap object `slot` refers to.
    pub(crate) fn object(&self, slot: &Slot) -> Result<&Object, String> {
        match slot.value {
            Concrete::Ref(r) => Ok(&self.heap[r]),
            Concrete::Null => Err("NullPointerException".into()),
            Concrete::Prim(_) => Err("a number used as an object".into()),
        }
    }

    /// Calls `owner.name descriptor` as instruction `o` does; the result, if any.
    pub(crate) fn invoke(
        &mut self,
        o: u8,
        owner: &str,
        name: &str,
        descriptor: &str,
        args: Vec<Slot>,
    ) -> Result<Option<Slot>, String> {
        if o == op::INVOKESTATIC {
            if self.runnable(owner).is_some() {
                self.initialise(owner)?;
                let class = self.resolve(owner, name, descriptor).map_err(|_| format!("no {owner}.{name}"))?;
                return self.call(&class, name, descriptor, args);
            }
            return self.jdk_static(owner, name, descriptor, &args);
        }
        if o == op::INVOKESPECIAL {
            if name == "<init>" && self.runnable(owner).is_none() {
                // A superclass's constructor that is not replayed: skipped, its fields unknown.
                let Concrete::Ref(r) = args[0].value else { return Err("NullPointerException".into()) };
                match &mut self.heap[r] {
                    Object::Instance { partial, .. } => *partial |= owner != "java/lang/Object",
                    Object::Opaque { class } if class == "java/lang/Object" => {}
                    Object::Builder { .. } => return self.jdk_virtual(name, descriptor, &args),
                    _ => return Err(format!("a call of {owner}.<init> is not replayed")),
                }
                return Ok(None);
            }
            if let Ok(class) = self.resolve(owner, name, descriptor) {
                return self.call(&class, name, descriptor, args);
            }
            return Err(format!("a call of {owner}.{name} is not replayed"));
        }
        let dynamic = match self.object(&args[0])? {
            Object::Instance { class, .. } => class.clone(),
            Object::Str { .. } | Object::Boxed { .. } | Object::Builder { .. } => {
                return self.jdk_virtual(name, descriptor, &args);
            }
            Object::Opaque { class } if class == "java/lang/Class" && name == "desiredAssertionStatus" => {
                // The workers run without -ea.
                return Ok(Some(number(Value::Int(0))));
            }
            array @ Object::Array { .. } if name == "clone" => {
                let copy = array.clone();
                return Ok(Some(self.alloc(copy)));
            }
            Object::Array { .. } | Object::Opaque { .. } => {
                return Err(format!("a call of {owner}.{name} is not replayed"));
            }
        };
        match self.resolve(&dynamic, name, descriptor) {
            Ok(class) => self.call(&class, name, descriptor, args),
            Err(top) if top == "java/lang/Object" && name == "equals" && descriptor == "(Ljava/lang/Object;)Z" => {
                Ok(Some(number(Value::Int(i32::from(args[0].value == args[1].value)))))
            }
            Err(top) => Err(format!("{dynamic}.{name} is inherited from {top}, which is not replayed")),
        }
    }

    /// The replayed class that declares `name descriptor` with code for an
    /// object of `class`: `class` or its nearest replayed superclass; else
    /// the first superclass that is not replayed.
    fn resolve(&self, class: &str, name: &str, descriptor: &str) -> Result<String, String> {
        let mut at = class.to_string();
        loop {
            let Some(cf) = self.runnable(&at) else { return Err(at) };
            let declared = cf.methods.iter().any(|m| {
                cf.member_name(m) == name
                    && cf.member_descriptor(m) == descriptor
                    && cf.code(m).ok().flatten().is_some()
            });
            if declared {
                return Ok(at);
            }
            at = cf.super_name().ok_or_else(|| at.clone())?.to_string();
        }
    }

    /// Runs `<clinit>` of `class` (and of its replayed superclasses) once.
    fn initialise(&mut self, class: &str) -> Result<(), String> {
        if self.initialised.iter().any(|c| c == class) {
            return Ok(());
        }
        self.initialised.push(class.to_string());
        let Some(cf) = self.runnable(class) else { return Ok(()) };
        if let Some(parent) = cf.super_name().map(str::to_string) {
            self.initialise(&parent)?;
        }
        let has_clinit = cf.methods.iter().any(|m| cf.member_name(m) == "<clinit>");
        if has_clinit {
            self.call(class, "<clinit>", "()V", Vec::new())?;
        }
        Ok(())
    }

    /// A new instance of replayed class `class` (initialised first).
    pub(crate) fn new_instance(&mut self, class: &str) -> Result<Slot, String> {
        if self.runnable(class).is_none() {
            return Err(format!("new {class} is not replayed"));
        }
        self.initialise(class)?;
        Ok(self.alloc(Object::Instance { class: class.to_string(), fields: BTreeMap::new(), partial: false }))
    }

    /// Static field `owner.name` of a replayed class (initialised first); a
    /// reference of a class that is not replayed is opaque.
    pub(crate) fn read_static(&mut self, owner: &str, name: &str, descriptor: &str) -> Result<Slot, String> {
        if self.runnable(owner).is_none() && matches!(descriptor.as_bytes().first(), Some(b'L' | b'[')) {
            let class = descriptor.trim_start_matches('L').trim_end_matches(';').to_string();
            return Ok(self.alloc(Object::Opaque { class }));
        }
        self.static_owner(owner, name)?;
        let value = self.statics.get(&(owner.to_string(), name.to_string())).cloned();
        Ok(value.unwrap_or_else(|| default_value(descriptor)))
    }

    /// Sets static field `owner.name` of a replayed class (initialised first).
    pub(crate) fn write_static(&mut self, owner: &str, name: &str, value: Slot) -> Result<(), String> {
        self.static_owner(owner, name)?;
        self.statics.insert((owner.to_string(), name.to_string()), value);
        Ok(())
    }

    /// Initialises `owner` when it is replayed; an error when it is not.
    fn static_owner(&mut self, owner: &str, name: &str) -> Result<(), String> {
        if self.runnable(owner).is_none() {
            return Err(format!("static field {owner}.{name} is not replayed"));
        }
        self.initialise(owner)
    }

    /// Whether `slot` is an instance of `target`; `None` when the replay
    /// cannot tell (a class that is not replayed in between).
    fn instance_of(&self, slot: &Slot, target: &str) -> Result<Option<bool>, String> {
        let class = match slot.value {
            Concrete::Null => return Ok(Some(false)),
            Concrete::Prim(_) => return Err("a number used as an object".into()),
            Concrete::Ref(r) => match &self.heap[r] {
                Object::Instance { class, .. } | Object::Boxed { class, .. } | Object::Opaque { class } => {
                    class.clone()
                }
                Object::Str { .. } => "java/lang/String".to_string(),
                Object::Builder { .. } => "java/lang/StringBuilder".to_string(),
                Object::Array { .. } => return Ok(target.starts_with('[').then_some(true)),
            },
        };
        if target == "java/lang/Object" || self.supertypes(&class).iter().any(|c| c == target) {
            return Ok(Some(true));
        }
        // A replayed target that is not among the known supertypes: no.
        let known = self.classes.get(target).is_some() || class == "java/lang/String";
        Ok(known.then_some(false))
    }

    /// `class` and its supertypes as far as the replayed classes tell.
    fn supertypes(&self, class: &str) -> Vec<String> {
        let mut out = vec![class.to_string()];
        let mut i = 0;
        while i < out.len() {
            if let Some(cf) = self.classes.get(&out[i]) {
                let more: Vec<String> =
                    cf.super_name().into_iter().chain(cf.interface_names()).map(str::to_string).collect();
                out.extend(more.into_iter().filter(|c| !out.contains(c)).collect::<Vec<_>>());
            }
            i += 1;
        }
        if class == "java/lang/String" {
            out.extend(["java/lang/CharSequence", "java/lang/Comparable", "java/io/Serializable"].map(String::from));
        }
        out
    }
}

/// The class named by a `new`, `checkcast` or `instanceof`.
fn class_operand(f: &Frame<'_>, insn: &Insn) -> Result<String, String> {
    let Operand::Constant(index) = insn.operand else { return Err("bad class operand".into()) };
    f.cf.constant_pool.class_name(index).map(str::to_string).map_err(|e| e.to_string())
}

/// The type a field descriptor names.
fn field_type(descriptor: &str) -> Result<model::descriptor::FieldType, String> {
    model::descriptor::FieldType::parse(descriptor).map_err(|e| e.to_string())
}

/// The method descriptor of an `invokedynamic`'s call site.
fn dynamic_descriptor(f: &Frame<'_>, insn: &Insn) -> Result<String, String> {
    let Operand::InvokeDynamic { index } = insn.operand else { return Err("bad invokedynamic operand".into()) };
    let pool = &f.cf.constant_pool;
    match pool.get(index).map_err(|e| e.to_string())? {
        model::constant_pool::Constant::InvokeDynamic { name_and_type, .. } => {
            Ok(pool.name_and_type(*name_and_type).map_err(|e| e.to_string())?.1.to_string())
        }
        _ => Err("bad invokedynamic operand".into()),
    }
}

/// The member named by a field or method instruction.
fn member(f: &Frame<'_>, insn: &Insn) -> Result<Member, String> {
    let index = match insn.operand {
        Operand::Constant(index) | Operand::InvokeInterface { index, .. } => index,
        _ => return Err("bad member operand".into()),
    };
    let m = f.cf.constant_pool.member_ref(index).map_err(|e| e.to_string())?;
    Ok((m.owner.to_string(), m.name.to_string(), m.descriptor.to_string()))
}
