//! Which public methods of a class set or get one of its fields, directly
//! or through calls on `this`, and how likely each is to do it (EvoObj's
//! setter/getter selection, Lin et al. ESEC/FSE 2021 §3.2 "Setting object
//! states"; TECHNIQUES.md §1 step 3).
//!
//! The call graph is built on demand by class hierarchy analysis: a call
//! `invokevirtual C.m` may reach `C.m` as resolved on the class path (`C`
//! or its nearest superclass declaring it) and every override in a subtype
//! of `C` that [`ClassSource::subtypes`] lists. JDK code is not entered.
//!
//! A *path* `m_1 .. m_e` starts at a candidate method and follows calls on
//! `this` for at most `call_depth` calls; it is *interesting* when `m_e`
//! writes the field (`putfield`, a store into the array the field holds, or
//! a mutator such as `add`/`put` of the JDK container the field holds) or,
//! for getters, returns it. Its score is
//! `score(p) = n_v / |p| * prod comp(m_i)`, where `n_v` counts the
//! parameters of `m_1` that flow into the value written (or into the
//! arguments of the call to `m_2`), and `comp(m_i)` is the fraction of
//! branch sides of `m_i` from which the next call or the write is still
//! reachable (1 without branches). A method's score is the best over its
//! paths. Deviation, documented: `n_v` counts at least 0.5, so a method
//! that writes a constant (`clear()`, `kill()`) keeps a small chance; for
//! getters `n_v` is 1.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use model::bytecode::{Insn, op};
use model::classfile::ClassFile;

use crate::dataflow::{Def, Defs, MethodFlow, method_flow};
use crate::insn::member;
use crate::ocg::{ClassSource, is_jdk_class};

/// A field, as `getfield`/`putfield` name it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldKey {
    /// The field's name.
    pub name: String,
    /// Its descriptor.
    pub descriptor: String,
}

/// How a method changes a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum WriteKind {
    /// `putfield`: the field gets a new value.
    Put,
    /// An element of the array or JDK container the field holds is stored
    /// or added (`this.items[i] = x`, `this.items.add(x)`).
    Element,
}

/// A public method that sets (or gets) a field, with its score.
#[derive(Debug, Clone, PartialEq)]
pub struct Accessor {
    /// The method's name.
    pub name: String,
    /// Its descriptor.
    pub descriptor: String,
    /// The best score over its interesting paths.
    pub score: f64,
    /// How the best path writes (getters: [`WriteKind::Put`]).
    pub kind: WriteKind,
    /// The parameters (0-based, without `this`) that flow into the value
    /// written, on the best path.
    pub value_params: Vec<u16>,
}

/// Most calls a path follows (`t_dep`).
const DEFAULT_DEPTH: u32 = 5;

/// Finds accessors of fields among candidate methods of one class.
pub struct Accessors<'a> {
    classes: &'a dyn ClassSource,
    depth: u32,
    flows: CodeCache,
}

/// What ends an interesting path in a method: the site's instruction index,
/// how it writes, and the definitions of the value written or returned.
type End = (usize, WriteKind, Vec<Defs>);

impl<'a> Accessors<'a> {
    /// Accessors over `classes`, following calls `t_dep` = 5 deep.
    pub fn new(classes: &'a dyn ClassSource) -> Accessors<'a> {
        Accessors { classes, depth: DEFAULT_DEPTH, flows: CodeCache::default() }
    }

    /// The same, following calls `depth` deep.
    pub fn with_depth(mut self, depth: u32) -> Accessors<'a> {
        self.depth = depth;
        self
    }

    /// The methods among `candidates` (name, descriptor) of class `class`
    /// (internal name) that write `field` of their receiver, best first.
    pub fn writers(&mut self, class: &str, candidates: &[(String, String)], field: &FieldKey) -> Vec<Accessor> {
        self.rank(class, candidates, &|cf: &ClassFile, mf: &MethodFlow| writes(cf, mf, field))
    }

    /// The methods among `candidates` of `class` that return `field` of
    /// their receiver, best first.
    pub fn getters(&mut self, class: &str, candidates: &[(String, String)], field: &FieldKey) -> Vec<Accessor> {
        let mut found = self.rank(class, candidates, &|cf: &ClassFile, mf: &MethodFlow| returns(cf, mf, field));
        found.iter_mut().for_each(|a| a.value_params.clear());
        found
    }

    fn rank(
        &mut self,
        class: &str,
        candidates: &[(String, String)],
        end: &dyn Fn(&ClassFile, &MethodFlow) -> Vec<End>,
    ) -> Vec<Accessor> {
        let mut out = Vec::new();
        for (name, descriptor) in candidates {
            let Some((cf, mf)) = self.flow(class, name, descriptor) else { continue };
            let mut best: Option<Accessor> = None;
            self.walk(&cf, &mf, end, &mut Vec::new(), &mut |score, kind, value_params| {
                if best.as_ref().is_none_or(|b| score > b.score) {
                    best = Some(Accessor {
                        name: name.clone(),
                        descriptor: descriptor.clone(),
                        score,
                        kind,
                        value_params,
                    });
                }
            });
            out.extend(best);
        }
        out.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.name.cmp(&b.name)));
        out
    }

    /// Depth-first over the paths from `mf`; `path` holds, per method
    /// before this one, its `comp` and its `n_v` params (the first's only
    /// matter).
    fn walk(
        &mut self,
        cf: &ClassFile,
        mf: &MethodFlow,
        end: &dyn Fn(&ClassFile, &MethodFlow) -> Vec<End>,
        path: &mut Vec<(f64, Vec<u16>)>,
        found: &mut dyn FnMut(f64, WriteKind, Vec<u16>),
    ) {
        for (site, kind, values) in end(cf, mf) {
            let params = params_in(mf, &values);
            let comp = comp(&mf.insns, site);
            let (first_params, prod, len) = path_score(path, comp, &params);
            found(n_v(&first_params) / len as f64 * prod, kind, first_params);
        }
        if path.len() as u32 >= self.depth {
            return;
        }
        for (site, callee) in calls_on_this(cf, mf) {
            for (ccf, cmf) in self.targets(&callee.0, &callee.1, &callee.2) {
                let args: Vec<Defs> = mf.flow.operands[site].iter().skip(1).cloned().collect();
                path.push((comp(&mf.insns, site), params_in(mf, &args)));
                self.walk(&ccf, &cmf, end, path, found);
                path.pop();
            }
        }
    }

    /// The code `invokevirtual owner.name descriptor` on `this` may run.
    fn targets(&mut self, owner: &str, name: &str, descriptor: &str) -> Vec<Code> {
        let mut out: Vec<_> = self.flow(owner, name, descriptor).into_iter().collect();
        for sub in self.classes.subtypes(owner) {
            if let Some(cf) = self.classes.class(&sub)
                && cf.methods.iter().any(|m| cf.member_name(m) == name && cf.member_descriptor(m) == descriptor)
            {
                out.extend(self.flow(&sub, name, descriptor));
            }
        }
        out
    }

    fn flow(&mut self, class: &str, name: &str, descriptor: &str) -> Option<Code> {
        self.flows.get(self.classes, class, name, descriptor)
    }
}

/// `n_v` with the documented floor of 0.5.
fn n_v(params: &[u16]) -> f64 {
    (params.len() as f64).max(0.5)
}

/// The first method's params, the product of `comp` over the path with
/// `last` appended, and the path's length.
fn path_score(path: &[(f64, Vec<u16>)], last: f64, last_params: &[u16]) -> (Vec<u16>, f64, usize) {
    let prod = path.iter().map(|(c, _)| c).product::<f64>() * last;
    let first = path.first().map_or(last_params.to_vec(), |(_, p)| p.clone());
    (first, prod, path.len() + 1)
}

/// A method's class and data flow.
pub(crate) type Code = (Arc<ClassFile>, Arc<MethodFlow>);

/// Resolved methods by `class.name descriptor`, so each is decoded and
/// simulated once.
#[derive(Default)]
pub(crate) struct CodeCache(HashMap<String, Option<Code>>);

impl CodeCache {
    /// [`resolve`], remembered.
    pub(crate) fn get(&mut self, classes: &dyn ClassSource, class: &str, name: &str, descriptor: &str) -> Option<Code> {
        let key = format!("{class}.{name}{descriptor}");
        if let Some(found) = self.0.get(&key) {
            return found.clone();
        }
        let found = resolve(classes, class, name, descriptor);
        self.0.insert(key, found.clone());
        found
    }
}

/// The method `name descriptor` of `class` as resolved on the class path
/// (the class or its nearest superclass declaring it); `None` for JDK
/// classes and methods without code.
fn resolve(classes: &dyn ClassSource, class: &str, name: &str, descriptor: &str) -> Option<Code> {
    let mut current = class.to_string();
    for _ in 0..32 {
        if is_jdk_class(&current) {
            return None;
        }
        let cf = classes.class(&current)?;
        if let Some(m) = cf.methods.iter().find(|m| cf.member_name(m) == name && cf.member_descriptor(m) == descriptor)
        {
            let flow = method_flow(&cf, m).ok()??;
            return Some((cf.clone(), Arc::new(flow)));
        }
        current = cf.super_name()?.to_string();
    }
    None
}

/// Whether the value with `defs` is `this` (and only `this`).
fn is_this(defs: &Defs) -> bool {
    defs.len() == 1 && defs.contains(&Def::Entry(0))
}

/// Whether `defs` is `getfield field` of `this`.
fn is_field_of_this(cf: &ClassFile, mf: &MethodFlow, defs: &Defs, field: &FieldKey) -> bool {
    defs.iter().any(|d| match *d {
        Def::Insn(k) => {
            mf.insns[k].opcode == op::GETFIELD
                && member(&cf.constant_pool, &mf.insns[k])
                    .is_some_and(|m| m.name == field.name && m.descriptor == field.descriptor)
                && is_this(&mf.flow.operands[k][0])
        }
        _ => false,
    })
}

/// JDK container methods that store an element (`List.add`, `Map.put`, ...).
const MUTATORS: [&str; 11] =
    ["add", "addAll", "put", "putAll", "set", "offer", "push", "addFirst", "addLast", "putIfAbsent", "append"];

/// Where `mf` writes `field` of `this`, and the definitions of what it writes.
fn writes(cf: &ClassFile, mf: &MethodFlow, field: &FieldKey) -> Vec<End> {
    let mut out = Vec::new();
    for (k, insn) in mf.insns.iter().enumerate() {
        let ops = &mf.flow.operands[k];
        if ops.is_empty() {
            continue;
        }
        let put = insn.opcode == op::PUTFIELD
            && member(&cf.constant_pool, insn)
                .is_some_and(|m| m.name == field.name && m.descriptor == field.descriptor)
            && is_this(&ops[0]);
        if put {
            out.push((k, WriteKind::Put, vec![ops[1].clone()]));
        } else if is_element_store(cf, insn) && is_field_of_this(cf, mf, &ops[0], field) {
            out.push((k, WriteKind::Element, ops[1..].to_vec()));
        }
    }
    out
}

/// Whether `insn` stores into an array (`xastore`) or calls a JDK
/// container's mutator ([`MUTATORS`]).
fn is_element_store(cf: &ClassFile, insn: &Insn) -> bool {
    matches!(insn.opcode, op::IASTORE..=op::SASTORE)
        || matches!(insn.opcode, op::INVOKEVIRTUAL | op::INVOKEINTERFACE)
            && member(&cf.constant_pool, insn).is_some_and(|m| is_jdk_class(m.owner) && MUTATORS.contains(&m.name))
}

/// Where `mf` returns `field` of `this`.
fn returns(cf: &ClassFile, mf: &MethodFlow, field: &FieldKey) -> Vec<End> {
    let mut out = Vec::new();
    for (k, insn) in mf.insns.iter().enumerate() {
        if insn.opcode == op::ARETURN
            && let Some(d) = mf.flow.operands[k].first()
            && is_field_of_this(cf, mf, d, field)
        {
            out.push((k, WriteKind::Put, Vec::new()));
        }
    }
    out
}

/// Calls on `this` to class-path code: the call's index and `(owner, name, descriptor)`.
fn calls_on_this(cf: &ClassFile, mf: &MethodFlow) -> Vec<(usize, (String, String, String))> {
    let mut out = Vec::new();
    for (k, insn) in mf.insns.iter().enumerate() {
        if matches!(insn.opcode, op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKEINTERFACE)
            && let Some(m) = member(&cf.constant_pool, insn)
            && m.name != "<init>"
            && !is_jdk_class(m.owner)
            && mf.flow.operands[k].first().is_some_and(is_this)
        {
            out.push((k, (m.owner.to_string(), m.name.to_string(), m.descriptor.to_string())));
        }
    }
    out
}

/// The parameters (0-based, without `this`) whose entry values flow into
/// any of `values`, following definitions through every instruction.
fn params_in(mf: &MethodFlow, values: &[Defs]) -> Vec<u16> {
    let mut slots = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let mut stack: Vec<Def> = values.iter().flatten().copied().collect();
    while let Some(d) = stack.pop() {
        if !seen.insert(d) {
            continue;
        }
        match d {
            Def::Entry(slot) => {
                slots.insert(slot);
            }
            Def::Insn(k) => stack.extend(mf.flow.operands[k].iter().flatten().copied()),
            Def::Caught(_) => {}
        }
    }
    // Entry slots count `this` as 0 in instance methods; callers only pass
    // instance methods here (calls on `this`), so slot s > 0 is a parameter;
    // wide parameters shift later slots, which `param_of_slot` undoes.
    slots.into_iter().filter(|s| *s > 0).filter_map(|s| param_of_slot(mf, s)).collect()
}

/// The parameter position of entry slot `slot` of an instance method.
fn param_of_slot(mf: &MethodFlow, slot: u16) -> Option<u16> {
    mf.param_slots.iter().position(|s| *s == slot).map(|p| p as u16)
}

/// `comp(m)`: the fraction of branch sides of the method from which
/// instruction `site` is still reachable; 1 without branches.
fn comp(insns: &[Insn], site: usize) -> f64 {
    let index_of: HashMap<u32, usize> = insns.iter().enumerate().map(|(k, i)| (i.bci, k)).collect();
    let successors = |k: usize| -> Vec<usize> {
        let mut s: Vec<usize> = insns[k].targets().iter().filter_map(|t| index_of.get(t).copied()).collect();
        if insns[k].falls_through() && k + 1 < insns.len() {
            s.push(k + 1);
        }
        s
    };
    let reaches = |from: usize| -> bool {
        let mut seen = vec![false; insns.len()];
        let mut stack = vec![from];
        while let Some(k) = stack.pop() {
            if k == site {
                return true;
            }
            if !std::mem::replace(&mut seen[k], true) {
                stack.extend(successors(k));
            }
        }
        false
    };
    let sides: Vec<usize> =
        insns.iter().enumerate().filter(|(_, i)| i.is_conditional_jump()).flat_map(|(k, _)| successors(k)).collect();
    if sides.is_empty() {
        return 1.0;
    }
    sides.iter().filter(|s| reaches(**s)).count() as f64 / sides.len() as f64
}

#[cfg(test)]
mod tests;
