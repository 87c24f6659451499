//! Concolic replay of a class's bytecode in Rust (TECHNIQUES.md §5 step 1):
//! methods run on concrete values with every input number, array length,
//! array element, string length and string character also a symbol;
//! arithmetic builds [`Expr`]s with the JVM's semantics ([`crate::expr`],
//! checked against a JVM), and each conditional branch whose operands depend
//! on a symbol adds the clause of the side taken to the path condition,
//! with the branch it came from ([`Origin`]).
//!
//! The module is split by job: this file holds the types and the method
//! interpreter's frame loop; `step` runs one instruction (arithmetic,
//! branches, arrays); `objects` handles objects of the replayed classes
//! (`new`, fields, statics, calls and their dispatch); `jdk` models the JDK
//! methods TARDIS names (`String.length/charAt/equals/startsWith/indexOf/
//! isEmpty`, boxing and unboxing, `Math.abs/min/max`); `logged` takes the
//! results of other calls into the JDK from the test's value log.
//!
//! A symbolic array index, array length given to `newarray` or string index
//! is concretised with a clause (`i == 3`, [`Origin::Pin`]), so the path
//! stays sound. A call into a class that is not replayed goes on with the
//! value the JVM logged for it, when the replay has the test's value log
//! ([`SiteTable`]). Anything else (such calls without a logged value,
//! exceptions) stops the replay: the path condition up to there is kept
//! and [`Replay::stopped`] says why.

use std::collections::BTreeMap;

use model::bytecode::{Insn, decode};
use std::sync::{Arc, Mutex};

use model::classfile::ClassFile;
use model::classpath::ClassPath;
use model::descriptor::MethodDescriptor;

use crate::expr::{Conv, Expr, JType, Value};
use crate::path::{Clause, PathCondition};

pub use logged::SiteTable;

mod jdk;
mod logged;
pub(crate) mod objects;
pub(crate) mod step;

/// An input of a replayed static method ([`replay`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// A primitive (`boolean`, `byte`, `char`, `short` as `Int`).
    Prim(Value),
    /// A primitive array: its element type and elements.
    Array(JType, Vec<Value>),
}

/// Where a symbol comes from, so a model can be written back. `n` is the
/// input's position for [`replay`], the statement's index for a test case
/// ([`crate::concolic`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    /// Input `n`, a primitive (or the value of a boxed literal).
    Param(usize),
    /// The length of array or string `n`.
    Length(usize),
    /// Element `i` of array `n` (one no literal of the test was stored in).
    Element(usize, usize),
    /// Character `i` of string `n`.
    Char(usize, usize),
    /// Use `j` of statement `n` (counted as `StatementKind::uses` lists
    /// them), a primitive literal the test uses more than once: a new
    /// literal when written back.
    Use(usize, usize),
    /// A number the JVM logged (a result of a call into code the replay
    /// does not run, or the value of a box it returned): event `event` of
    /// the test's value log, at value-log site `site`. A model cannot be
    /// written back into it: an alternative that needs it changed is
    /// indirect (a path-condition goal, [`crate::pcgoal`]).
    Logged {
        /// The value-log site.
        site: u32,
        /// The event's index in the log.
        event: usize,
    },
}

impl Source {
    /// Whether a model's value for the symbol can be written into the test.
    pub fn is_logged(self) -> bool {
        matches!(self, Source::Logged { .. })
    }
}

/// A conditional branch as it ran: where and which way.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Site {
    /// Internal name of the class.
    pub class: String,
    /// The method's name.
    pub method: String,
    /// Its descriptor.
    pub descriptor: String,
    /// Bytecode index of the jump or switch.
    pub bci: u32,
    /// The jump taken (`true`) or not; for a switch, whether it went to `key`'s case.
    pub taken: bool,
    /// For a switch, the key whose case the clause is about.
    pub key: Option<i32>,
}

/// Why a clause is in the path condition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The condition of a conditional branch or switch, as taken.
    Branch(Site),
    /// A symbolic index or size fixed to its value: never negated.
    Pin,
    /// A step of a modelled JDK method (a character compared by
    /// `String.equals`): negating it changes the method's result, which the
    /// branch that ran next (its index in [`Replay::branches`]) then reads.
    Within(usize),
}

/// What a replay found.
#[derive(Debug, Clone, Default)]
pub struct Replay {
    /// The path condition over the symbols.
    pub path: PathCondition,
    /// Why each clause of the path condition is there (same length).
    pub origins: Vec<Origin>,
    /// For each clause, the index in [`Replay::branches`] of the branch it
    /// is about: its own for a branch's clause, the next one run for a step
    /// of a modelled method or a pin (same length as the clauses).
    pub anchors: Vec<usize>,
    /// Clauses every value of a symbol meets (a `char` is 0 to 65535, a
    /// `boolean` 0 or 1, a length at least 0), given to the solver with
    /// every alternative.
    pub domains: Vec<Clause>,
    /// Each symbol's type, value in this run and source.
    pub symbols: BTreeMap<u32, (JType, Value, Source)>,
    /// The conditional branches run, in order.
    pub branches: Vec<Site>,
    /// The result of the method ([`replay`]) or of the test's last statement
    /// ([`crate::concolic::replay_test`]), when it is a number.
    pub result: Option<Value>,
    /// Why the replay stopped before the end.
    pub stopped: Option<String>,
    /// Results of calls taken from the test's value log ([`SiteTable`]).
    pub logged: usize,
}

impl Replay {
    /// The symbols of `clauses` that are logged values ([`Source::Logged`]),
    /// with their values in this run.
    pub fn logged_in(&self, clauses: &[Clause]) -> BTreeMap<u32, Value> {
        clauses
            .iter()
            .flat_map(Clause::symbols)
            .filter_map(|id| {
                let (_, v, source) = self.symbols.get(&id)?;
                source.is_logged().then_some((id, *v))
            })
            .collect()
    }

    /// `clauses` with each logged value among their symbols fixed to its
    /// value in this run: what a model written into the test can satisfy
    /// (direct DSE).
    pub fn fixed(&self, clauses: &[Clause]) -> Vec<Clause> {
        let mut out = clauses.to_vec();
        let pin = |(id, v): (u32, Value)| Clause::new(Expr::Sym(id, v.jtype()), crate::path::Rel::Eq, Expr::Const(v));
        out.extend(self.logged_in(clauses).into_iter().map(pin));
        out
    }

    /// The symbols' types.
    pub fn types(&self) -> BTreeMap<u32, JType> {
        self.symbols.iter().map(|(id, (t, _, _))| (*id, *t)).collect()
    }

    /// What the solver is asked for `alternative`: its clauses and the
    /// domain clauses of the symbols they use.
    pub fn query(&self, alternative: &crate::path::Alternative) -> Vec<Clause> {
        let mut clauses = alternative.clauses.clone();
        let used: std::collections::BTreeSet<u32> = clauses.iter().flat_map(Clause::symbols).collect();
        clauses.extend(self.domains.iter().filter(|d| d.symbols().is_subset(&used)).cloned());
        clauses
    }

    /// The symbols' values in this run.
    pub fn values(&self) -> BTreeMap<u32, Value> {
        self.symbols.iter().map(|(id, (_, v, _))| (*id, *v)).collect()
    }

    /// The branch side that negating clause `i` aims at: the other side of
    /// its branch, or of the branch that read the modelled method's result;
    /// `None` for a pinned value.
    pub fn target(&self, i: usize) -> Option<Site> {
        let site = match self.origins.get(i)? {
            Origin::Branch(site) => site.clone(),
            Origin::Pin => return None,
            Origin::Within(next) => self.branches.get(*next)?.clone(),
        };
        Some(Site { taken: !site.taken, ..site })
    }
}

/// The class files a replay may run, by internal name: the class under
/// test and its nested classes, and (with a class path) any other class of
/// the user's class path, loaded when first run. JDK classes are never
/// replayed: the modelled ones are `jdk`'s, the others stop the replay.
#[derive(Debug, Default)]
pub struct Classes {
    map: BTreeMap<String, Arc<ClassFile>>,
    class_path: Option<Arc<ClassPath>>,
    loaded: Mutex<BTreeMap<String, Option<Arc<ClassFile>>>>,
}

impl Classes {
    /// The set of `files`.
    pub fn new(files: impl IntoIterator<Item = ClassFile>) -> Classes {
        let map = files.into_iter().map(|cf| (cf.name().to_string(), Arc::new(cf))).collect();
        Classes { map, class_path: None, loaded: Mutex::default() }
    }

    /// `files`, and the classes of `class_path` that are not the JDK's.
    pub fn with_class_path(files: impl IntoIterator<Item = ClassFile>, class_path: Arc<ClassPath>) -> Classes {
        Classes { class_path: Some(class_path), ..Classes::new(files) }
    }

    /// Whether `internal` is one of the classes given (the class under
    /// test and its nested classes), not one loaded from the class path.
    pub fn is_own(&self, internal: &str) -> bool {
        self.map.contains_key(internal)
    }

    /// The class `internal`, when it is replayed.
    pub fn get(&self, internal: &str) -> Option<Arc<ClassFile>> {
        if let Some(cf) = self.map.get(internal) {
            return Some(Arc::clone(cf));
        }
        let cp = self.class_path.as_ref()?;
        if ["java/", "javax/", "jdk/", "sun/", "com/sun/"].iter().any(|p| internal.starts_with(p)) {
            return None;
        }
        let mut loaded = self.loaded.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        loaded.entry(internal.to_string()).or_insert_with(|| cp.load(&internal.replace('/', ".")).ok()).clone()
    }
}

/// Replays static method `name descriptor` of `cf` on `inputs`.
pub fn replay(cf: &ClassFile, name: &str, descriptor: &str, inputs: &[Input]) -> Replay {
    let classes = Classes::new([cf.clone()]);
    let mut m = Machine::new(&classes);
    let args: Vec<Slot> = inputs.iter().enumerate().map(|(n, input)| m.input(n, input)).collect();
    match m.call(cf.name(), name, descriptor, args) {
        Ok(Some(slot)) => m.out.result = prim(&slot),
        Ok(None) => {}
        Err(why) => m.out.stopped = Some(why),
    }
    m.out
}

/// A value on the stack or in a local: concrete, with its symbolic
/// expression when it has one.
#[derive(Debug, Clone)]
pub(crate) struct Slot {
    pub(crate) value: Concrete,
    pub(crate) sym: Option<Expr>,
}

/// A concrete value: a number, a reference into the heap, or `null`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Concrete {
    Prim(Value),
    Ref(usize),
    Null,
}

/// An object of the replay's heap.
#[derive(Debug, Clone)]
pub(crate) enum Object {
    /// An array: the narrowing of its stores (`byte[]` ...), its items and
    /// its symbolic length.
    Array { narrow: Option<Conv>, items: Vec<Slot>, length: Option<Expr> },
    /// An instance of a replayed class (fields by name; absent = default).
    /// `partial` when the constructor of a superclass that is not replayed
    /// was skipped: a field it may have set is then unknown, not default.
    Instance { class: String, fields: BTreeMap<String, Slot>, partial: bool },
    /// A `java.lang.String`: its characters (`int` values) and symbolic length.
    Str { chars: Vec<Slot>, length: Option<Expr> },
    /// A `java.lang.StringBuilder`: the characters appended so far.
    Builder { chars: Vec<Slot> },
    /// A box (`java.lang.Integer` ...) of a number.
    Boxed { class: String, value: Slot },
    /// An object the replay cannot look into (made by the test from a class
    /// that is not replayed); calling it stops the replay.
    Opaque { class: String },
}

/// Instructions run at most (a loop that does not end stops the replay).
const MAX_STEPS: usize = 200_000;
/// Nested calls at most.
const MAX_DEPTH: usize = 64;
/// Clauses of a path condition at most: a longer path stops the replay
/// (slicing its alternatives costs the square of its length).
pub const MAX_CLAUSES: usize = 2_000;

/// The interpreter: the classes, the heap, the static fields and what the
/// replay found so far.
pub(crate) struct Machine<'a> {
    pub(crate) classes: &'a Classes,
    pub(crate) heap: Vec<Object>,
    pub(crate) statics: BTreeMap<(String, String), Slot>,
    pub(crate) initialised: Vec<String>,
    pub(crate) out: Replay,
    steps: usize,
    depth: usize,
    /// The test's value log, when the replay has one.
    log: Option<logged::LogCursor<'a>>,
    /// Heap objects of the logged objects, by identity ordinal.
    logged_objects: BTreeMap<u32, usize>,
    /// Statements of a test whose number result the replay does not know
    /// (`crate::concolic`).
    pub(crate) unknown: std::collections::BTreeSet<usize>,
}

pub(crate) fn prim(s: &Slot) -> Option<Value> {
    match s.value {
        Concrete::Prim(v) => Some(v),
        _ => None,
    }
}

pub(crate) fn expr_of(s: &Slot) -> Option<Expr> {
    s.sym.clone().or_else(|| prim(s).map(Expr::Const))
}

/// A number without a symbolic form.
pub(crate) fn number(v: Value) -> Slot {
    Slot { value: Concrete::Prim(v), sym: None }
}

/// The slot of `expr`, whose top operation applies to `operands`: its value
/// from the operands' values (not the whole expression again), and `expr`
/// as its symbolic form when an operand was symbolic.
pub(crate) fn computed(expr: Expr, operands: &[&Slot]) -> Result<Slot, String> {
    let c = |k: usize| operands.get(k).and_then(|s| prim(s)).map(Expr::Const).ok_or("not a number");
    let top = match &expr {
        Expr::Bin(op, _, _) => Expr::bin(*op, c(0)?, c(1)?),
        Expr::Cmp(kind, _, _) => Expr::cmp(*kind, c(0)?, c(1)?),
        Expr::Neg(_) => Expr::Neg(Box::new(c(0)?)),
        Expr::Conv(conv, _) => Expr::conv(*conv, c(0)?),
        other => other.clone(),
    };
    let value = top.eval(&BTreeMap::new()).map_err(|e| e.to_string())?;
    let symbolic = operands.iter().any(|s| s.sym.is_some());
    Ok(Slot { value: Concrete::Prim(value), sym: symbolic.then_some(expr) })
}

impl<'a> Machine<'a> {
    /// An empty machine over `classes`.
    pub(crate) fn new(classes: &'a Classes) -> Machine<'a> {
        Machine {
            classes,
            heap: Vec::new(),
            statics: BTreeMap::new(),
            initialised: Vec::new(),
            out: Replay::default(),
            steps: 0,
            depth: 0,
            log: None,
            logged_objects: BTreeMap::new(),
            unknown: Default::default(),
        }
    }

    /// The class file of `class` when the replay runs its code: any
    /// replayed class; with a value log only the classes given, which are
    /// the instrumented ones (calls into the others were logged).
    pub(crate) fn runnable(&self, class: &str) -> Option<Arc<ClassFile>> {
        if self.log.is_some() && !self.classes.is_own(class) {
            return None;
        }
        self.classes.get(class)
    }

    /// Reads results of calls it cannot run from `log`, whose sites are
    /// `sites` ([`logged`]).
    pub(crate) fn with_log(mut self, log: &'a exec::ValueLog, sites: &'a SiteTable) -> Machine<'a> {
        self.log = Some(logged::LogCursor::new(log, sites));
        self
    }

    /// A new symbol of type `ty`, value `value`, from `source`.
    pub(crate) fn symbol(&mut self, ty: JType, value: Value, source: Source) -> Expr {
        let id = self.out.symbols.len() as u32;
        self.out.symbols.insert(id, (ty, value, source));
        Expr::Sym(id, ty)
    }

    /// Adds `clause` to the path condition, with its origin.
    pub(crate) fn push_clause(&mut self, clause: Clause, origin: Origin) {
        self.out.path.clauses.push(clause);
        self.out.origins.push(origin);
        self.out.anchors.push(self.out.branches.len());
    }

    /// Allocates `object`; its reference.
    pub(crate) fn alloc(&mut self, object: Object) -> Slot {
        self.heap.push(object);
        Slot { value: Concrete::Ref(self.heap.len() - 1), sym: None }
    }

    fn input(&mut self, n: usize, input: &Input) -> Slot {
        match input {
            Input::Prim(v) => {
                let sym = self.symbol(v.jtype(), *v, Source::Param(n));
                Slot { value: Concrete::Prim(*v), sym: Some(sym) }
            }
            Input::Array(elem, values) => {
                let length = self.symbol(JType::Int, Value::Int(values.len() as i32), Source::Length(n));
                let items = values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| Slot {
                        value: Concrete::Prim(*v),
                        sym: Some(self.symbol(*elem, *v, Source::Element(n, i))),
                    })
                    .collect();
                self.alloc(Object::Array { narrow: None, items, length: Some(length) })
            }
        }
    }

    /// Runs method `name descriptor` of class `class` (a replayed class)
    /// with `args` (the receiver first for an instance method); its result.
    pub(crate) fn call(
        &mut self,
        class: &str,
        name: &str,
        descriptor: &str,
        args: Vec<Slot>,
    ) -> Result<Option<Slot>, String> {
        if self.depth >= MAX_DEPTH {
            return Err("too deep".into());
        }
        let cf = self.runnable(class).ok_or_else(|| format!("{class} is not replayed"))?;
        let cf = &*cf;
        let method = cf
            .methods
            .iter()
            .find(|m| cf.member_name(m) == name && cf.member_descriptor(m) == descriptor)
            .ok_or_else(|| format!("no method {class}.{name}{descriptor}"))?;
        let code = cf.code(method).ok().flatten().ok_or_else(|| format!("{name} has no code"))?;
        let insns = decode(&code.code).map_err(|e| e.to_string())?;
        let mut locals: Vec<Option<Slot>> = vec![None; usize::from(code.max_locals)];
        let mut at = 0;
        for arg in args {
            let wide = matches!(arg.value, Concrete::Prim(Value::Long(_) | Value::Double(_)));
            *locals.get_mut(at).ok_or("more arguments than locals")? = Some(arg);
            at += if wide { 2 } else { 1 };
        }
        let mut frame = Frame {
            cf,
            method: (name.to_string(), descriptor.to_string()),
            insns: &insns,
            locals,
            stack: Vec::new(),
            pc: 0,
        };
        self.depth += 1;
        let result = self.run(&mut frame);
        self.depth -= 1;
        result
    }

    fn run(&mut self, frame: &mut Frame<'_>) -> Result<Option<Slot>, String> {
        loop {
            self.steps += 1;
            if self.steps > MAX_STEPS {
                return Err("step limit".into());
            }
            if self.out.path.clauses.len() > MAX_CLAUSES {
                return Err(format!("a path condition of over {MAX_CLAUSES} clauses"));
            }
            match self.step(frame)? {
                Flow::Next => frame.pc += 1,
                Flow::Jump(bci) => frame.pc = frame.index_of(bci)?,
                Flow::Return(v) => return Ok(v),
            }
        }
    }

    /// The site of the instruction `bci` of `frame`'s method.
    pub(crate) fn site(frame: &Frame<'_>, bci: u32, taken: bool, key: Option<i32>) -> Site {
        Site {
            class: frame.cf.name().to_string(),
            method: frame.method.0.clone(),
            descriptor: frame.method.1.clone(),
            bci,
            taken,
            key,
        }
    }
}

/// A method running: its instructions, locals, operand stack and position.
pub(crate) struct Frame<'i> {
    pub(crate) cf: &'i ClassFile,
    pub(crate) method: (String, String),
    pub(crate) insns: &'i [Insn],
    pub(crate) locals: Vec<Option<Slot>>,
    pub(crate) stack: Vec<Slot>,
    pub(crate) pc: usize,
}

impl Frame<'_> {
    fn index_of(&self, bci: u32) -> Result<usize, String> {
        self.insns.binary_search_by_key(&bci, |i| i.bci).map_err(|_| format!("no instruction at {bci}"))
    }

    pub(crate) fn pop(&mut self) -> Result<Slot, String> {
        self.stack.pop().ok_or_else(|| "stack underflow".to_string())
    }

    pub(crate) fn push_value(&mut self, v: Value) {
        self.stack.push(number(v));
    }

    /// Pops the arguments of a call of `descriptor`, in order.
    pub(crate) fn pop_args(&mut self, descriptor: &str) -> Result<Vec<Slot>, String> {
        let d = MethodDescriptor::parse(descriptor).map_err(|e| e.to_string())?;
        let mut args: Vec<Slot> = (0..d.params.len()).map(|_| self.pop()).collect::<Result<_, _>>()?;
        args.reverse();
        Ok(args)
    }
}

/// What an instruction does to the control flow.
pub(crate) enum Flow {
    Next,
    Jump(u32),
    Return(Option<Slot>),
}
