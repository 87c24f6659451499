//! JaCoCo-compatible filtering of compiler-generated code.
//!
//! The goal is that ferrosuite's branch goals (two per conditional jump, one
//! per distinct switch target) add up to JaCoCo 0.8.6's branch counter, the
//! reference the results are measured with, for class files up to Java 17;
//! newer class files are measured with JaCoCo 0.8.14 and get its later
//! filters too ([`modern`]). This module ports the filters of
//! `org.jacoco.core.internal.analysis.filter` (0.8.6, as shipped by Debian in
//! `/usr/share/java/org.jacoco.core.jar`) that matter for javac output:
//!
//! | JaCoCo filter | here |
//! |---|---|
//! | `SyntheticFilter`, `BridgeFilter` | [`MethodFilter::Synthetic`], [`MethodFilter::Bridge`] (`lambda$` methods are kept) |
//! | class flagged `ACC_SYNTHETIC` (skipped by the analyzer) | [`MethodFilter::SyntheticClass`] |
//! | `EnumFilter`, `EnumEmptyConstructorFilter` | [`MethodFilter::EnumGenerated`], [`MethodFilter::EnumEmptyConstructor`] |
//! | `PrivateEmptyNoArgConstructorFilter` | [`MethodFilter::PrivateEmptyConstructor`] |
//! | `AnnotationGeneratedFilter` | [`MethodFilter::Generated`] |
//! | `RecordsFilter` | [`MethodFilter::RecordGenerated`] |
//! | `StringSwitchJavacFilter` | [`InsnFilter::StringSwitchHash`]: the `hashCode` switch and the `equals` tests; the second switch stays |
//! | `TryWithResourcesJavac11Filter` | [`InsnFilter::TryWithResources`]: the generated `if (r != null) r.close()` tests |
//! | `SynchronizedFilter` | [`InsnFilter::Synchronized`] (no branches; only affects lines) |
//! | `FinallyFilter` | [`MethodFilters::merged`]: the copies javac makes of a `finally` block are merged into one |
//!
//! Not ported, because javac does not produce the shapes: the ECJ filters,
//! `TryWithResourcesJavacFilter` (javac 7–10 shapes), the Kotlin filters.
//! Switches on enums (`$SwitchMap$...[e.ordinal()]`) are not filtered by
//! JaCoCo 0.8.6 and are not filtered here either; the `$SwitchMap$` holder
//! class is synthetic and therefore skipped whole.
//!
//! One deliberate difference, on by default: [`InsnFilter::Assertion`]
//! filters `$assertionsDisabled` tests (JaCoCo's later `AssertFilter`).
//! Those branches cannot have both sides covered in one JVM run, so they make
//! no sense as search goals. 0.8.6 counts them; turn
//! `AnalysisOptions::filter_assertions` off for an exact 0.8.6 count.
//!
//! Finally blocks: JaCoCo merges the duplicated copies of a `finally` block
//! and counts each of their branches once, covered when any copy took the
//! side. ferrosuite does the same: all copies of a branch share one pair of
//! goals, every copy keeps its probe (see [`crate::goals::BranchSite`]).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use model::access;
use model::bytecode::{Insn, Operand, op};
use model::classfile::{Attribute, ClassFile, CodeAttribute, ExceptionEntry, Member};
use model::constant_pool::ConstantPool;
use serde::{Deserialize, Serialize};

use crate::insn::{is_member, local_index, normalize};

pub mod modern;

/// Why a whole method has no goals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum MethodFilter {
    /// Abstract or native: no `Code` attribute.
    NoCode,
    /// The class is flagged `ACC_SYNTHETIC` (JaCoCo skips such classes).
    SyntheticClass,
    /// A synthetic method other than a lambda body (`lambda$...`).
    Synthetic,
    /// A bridge method.
    Bridge,
    /// `values()` or `valueOf(String)` of an enum.
    EnumGenerated,
    /// An enum constructor `(String, int)` that only calls `Enum.<init>`.
    EnumEmptyConstructor,
    /// A private no-argument constructor that only calls `super()`.
    PrivateEmptyConstructor,
    /// The method or its class has an annotation whose simple name contains
    /// `Generated` (class or runtime retention).
    Generated,
    /// `toString`, `hashCode` or `equals` of a record, generated through
    /// `invokedynamic`.
    RecordGenerated,
    /// A record component's accessor as javac generates it (class files
    /// after Java 17 only, [`modern`]).
    RecordAccessor,
}

/// Why an instruction is filtered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[non_exhaustive]
pub enum InsnFilter {
    /// The `hashCode` dispatch and `equals` tests javac generates for a
    /// `switch` on a `String`.
    StringSwitchHash,
    /// The resource null checks and close calls javac 11+ generates for
    /// try-with-resources.
    TryWithResources,
    /// The `monitorexit` handler javac generates for `synchronized`.
    Synchronized,
    /// A `$assertionsDisabled` test or its initialisation in `<clinit>`.
    Assertion,
    /// The bookkeeping around a duplicated `finally` block (the handler's
    /// `astore`/`aload`/`athrow` and a copy's trailing `goto`).
    Finally,
    /// A switch whose cases and default all jump to one target (JaCoCo
    /// counts no branch for it).
    SingleTargetSwitch,
    /// The `throw new MatchException(null, null)` javac makes the default
    /// of an exhaustive switch ([`modern`]); the switch has no default branch.
    ExhaustiveSwitchDefault,
    /// The handler javac wraps around a record pattern's accessor calls ([`modern`]).
    RecordPatternHandler,
}

/// The instruction-level filter results of one method.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MethodFilters {
    /// Bytecode indices of filtered instructions and why.
    pub ignored: BTreeMap<u32, InsnFilter>,
    /// Duplicated `finally` instructions: copy bci → representative bci (the
    /// copy in the catch-any handler, as in JaCoCo). Representatives are not
    /// keys.
    pub merged: BTreeMap<u32, u32>,
    /// Bytecode indices of the switches whose default is filtered
    /// ([`InsnFilter::ExhaustiveSwitchDefault`]): their branches are their
    /// distinct case targets only.
    #[serde(default)]
    pub without_default: BTreeSet<u32>,
}

/// The filter that removes a whole method, if any. `insns` is the decoded
/// code (`None` when the method has none).
pub fn method_filter(cf: &ClassFile, m: &Member, insns: Option<&[Insn]>) -> Option<MethodFilter> {
    let Some(insns) = insns else {
        return Some(MethodFilter::NoCode);
    };
    let name = cf.member_name(m);
    let descriptor = cf.member_descriptor(m);
    let class = cf.name();
    let super_name = cf.super_name().unwrap_or("");
    let cp = &cf.constant_pool;
    if cf.access & access::SYNTHETIC != 0 {
        Some(MethodFilter::SyntheticClass)
    } else if m.access & access::SYNTHETIC != 0 && !name.starts_with("lambda$") {
        Some(MethodFilter::Synthetic)
    } else if m.access & access::BRIDGE != 0 {
        Some(MethodFilter::Bridge)
    } else if super_name == "java/lang/Enum"
        && ((name == "values" && descriptor == format!("()[L{class};"))
            || (name == "valueOf" && descriptor == format!("(Ljava/lang/String;)L{class};")))
    {
        Some(MethodFilter::EnumGenerated)
    } else if super_name == "java/lang/Enum"
        && name == "<init>"
        && descriptor == "(Ljava/lang/String;I)V"
        && is_empty_enum_constructor(cp, insns)
    {
        Some(MethodFilter::EnumEmptyConstructor)
    } else if m.access & access::PRIVATE != 0
        && name == "<init>"
        && descriptor == "()V"
        && is_empty_constructor(cp, insns, super_name)
    {
        Some(MethodFilter::PrivateEmptyConstructor)
    } else if has_generated_annotation(cf, &cf.attributes) || has_generated_annotation(cf, &m.attributes) {
        Some(MethodFilter::Generated)
    } else if super_name == "java/lang/Record" && is_record_generated(cp, name, descriptor, insns) {
        Some(MethodFilter::RecordGenerated)
    } else if super_name == "java/lang/Record"
        && modern::is_modern(cf)
        && modern::is_record_accessor(cp, name, descriptor, insns)
    {
        Some(MethodFilter::RecordAccessor)
    } else {
        None
    }
}

/// Runs the instruction-level filters over one method's decoded code
/// `insns` (of `code`, its `Code` attribute).
/// `filter_assertions` turns on [`InsnFilter::Assertion`].
pub fn instruction_filters(
    cf: &ClassFile,
    method_name: &str,
    insns: &[Insn],
    code: &CodeAttribute,
    filter_assertions: bool,
) -> MethodFilters {
    let exception_table = &code.exception_table[..];
    let cp = &cf.constant_pool;
    let mut out =
        Filtered { insns, ignored: BTreeMap::new(), merged: HashMap::new(), without_default: BTreeSet::new() };
    if modern::is_modern(cf) {
        modern_filters(cf, code, &mut out);
    }
    let index_of: HashMap<u32, usize> = insns.iter().enumerate().map(|(i, x)| (x.bci, i)).collect();
    let handler = |e: &ExceptionEntry| index_of.get(&e.handler_pc).copied();
    for k in 0..insns.len() {
        if let Some(dflt) = string_switch(cp, insns, k) {
            let end = index_of.get(&dflt).copied().unwrap_or(insns.len());
            out.ignore(k, end.saturating_sub(1), InsnFilter::StringSwitchHash);
        }
        if filter_assertions {
            assertion(cp, cf.name(), method_name, insns, k, &mut out);
        }
    }
    for e in exception_table {
        let Some(h) = handler(e) else { continue };
        if e.catch_type != 0 && cp.class_name(e.catch_type) == Ok("java/lang/Throwable") {
            for null_check in [true, false] {
                if let Some(ranges) = try_with_resources(cp, insns, h, null_check) {
                    ranges.iter().for_each(|&(a, b)| out.ignore(a, b, InsnFilter::TryWithResources));
                }
            }
        }
        let synchronized = e.catch_type == 0 && e.start_pc != e.handler_pc;
        if let Some(end) = synchronized.then(|| synchronized_handler(insns, h)).flatten() {
            out.ignore(h, end, InsnFilter::Synchronized);
        }
    }
    finally_blocks(insns, exception_table, &index_of, &mut out);
    single_target_switches(insns, &mut out);
    out.finish()
}

/// The filters of [`modern`] over one method.
fn modern_filters(cf: &ClassFile, code: &CodeAttribute, out: &mut Filtered<'_>) {
    let (cp, insns) = (&cf.constant_pool, out.insns);
    let rows = crate::method_analysis::line_numbers(cf, code).unwrap_or_default();
    let lines: Vec<Option<u16>> = insns.iter().map(|i| crate::method_analysis::line_at(&rows, i.bci)).collect();
    for k in (0..insns.len()).filter(|&k| insns[k].is_switch()) {
        if let Some((first, last)) = modern::exhaustive_switch_default(cp, insns, k, &rows, &lines) {
            out.ignore(first, last, InsnFilter::ExhaustiveSwitchDefault);
            out.without_default.insert(k);
        }
    }
    for e in &code.exception_table {
        let throwable = e.catch_type != 0 && cp.class_name(e.catch_type) == Ok("java/lang/Throwable");
        let Some(h) = insns.iter().position(|i| i.bci == e.handler_pc).filter(|_| throwable) else { continue };
        if let Some(end) = modern::record_pattern_handler(cp, insns, h) {
            out.ignore(h, end, InsnFilter::RecordPatternHandler);
        }
    }
}

/// Accumulates filter output by instruction index.
struct Filtered<'a> {
    insns: &'a [Insn],
    ignored: BTreeMap<usize, InsnFilter>,
    merged: HashMap<usize, usize>,
    without_default: BTreeSet<usize>,
}

impl Filtered<'_> {
    /// Ignores instructions `first..=last` (the first reason recorded wins).
    fn ignore(&mut self, first: usize, last: usize, why: InsnFilter) {
        for k in first..=last.min(self.insns.len().saturating_sub(1)) {
            self.ignored.entry(k).or_insert(why);
        }
    }

    fn representative(&self, mut k: usize) -> usize {
        while let Some(&r) = self.merged.get(&k) {
            k = r;
        }
        k
    }

    /// JaCoCo's `merge(i1, i2)`: `i2`'s representative joins `i1`'s.
    fn merge(&mut self, i1: usize, i2: usize) {
        let (r1, r2) = (self.representative(i1), self.representative(i2));
        if r1 != r2 {
            self.merged.insert(r2, r1);
        }
    }

    fn finish(self) -> MethodFilters {
        let bci = |k: usize| self.insns[k].bci;
        let ignored = self.ignored.iter().map(|(&k, &why)| (bci(k), why)).collect();
        let merged = self.merged.keys().map(|&k| (bci(k), bci(self.representative(k)))).collect();
        let without_default = self.without_default.iter().map(|&k| bci(k)).collect();
        MethodFilters { ignored, merged, without_default }
    }
}

/// A port of JaCoCo's `AbstractMatcher`: a cursor over the instructions
/// with named local-variable bindings.
struct Matcher<'a> {
    insns: &'a [Insn],
    cp: &'a ConstantPool,
    /// Index of the current instruction; -1 is "before the first".
    cursor: Option<isize>,
    vars: HashMap<&'static str, u16>,
    owner: Option<&'a str>,
}

impl<'a> Matcher<'a> {
    fn new(cp: &'a ConstantPool, insns: &'a [Insn], cursor: isize) -> Matcher<'a> {
        Matcher { insns, cp, cursor: Some(cursor), vars: HashMap::new(), owner: None }
    }

    fn current(&self) -> Option<&'a Insn> {
        self.cursor.and_then(|c| usize::try_from(c).ok()).and_then(|c| self.insns.get(c))
    }

    fn index(&self) -> Option<usize> {
        self.cursor.and_then(|c| usize::try_from(c).ok())
    }

    fn next(&mut self) {
        self.cursor = self.cursor.map(|c| c + 1).filter(|&c| (c as usize) < self.insns.len());
    }

    fn fail_unless(&mut self, ok: impl FnOnce(&Insn) -> bool) {
        if !self.current().is_some_and(ok) {
            self.cursor = None;
        }
    }

    fn next_is(&mut self, opcode: u8) {
        self.next();
        self.fail_unless(|i| normalize(i.opcode) == opcode);
    }

    fn next_is_var(&mut self, opcode: u8, name: &'static str) {
        self.next_is(opcode);
        let Some(var) = self.current().and_then(local_index) else {
            self.cursor = None;
            return;
        };
        if *self.vars.entry(name).or_insert(var) != var {
            self.cursor = None;
        }
    }

    /// `new <class>`.
    fn next_is_new(&mut self, class: &str) {
        self.next();
        let cp = self.cp;
        self.fail_unless(|i| {
            i.opcode == op::NEW
                && matches!(i.operand, Operand::Constant(c) if cp.class_name(c).is_ok_and(|n| n == class))
        });
    }

    fn next_is_member(&mut self, opcode: u8, owner: &str, name: &str, descriptor: Option<&str>) {
        self.next();
        let cp = self.cp;
        self.fail_unless(|i| is_member(cp, i, opcode, owner, name, descriptor));
    }

    /// `aload r; invokevirtual|invokeinterface <owner>.close()V` with one
    /// owner across calls.
    fn next_is_close(&mut self) {
        self.next_is_var(op::ALOAD, "r");
        self.next();
        let Some(m) = self.current().and_then(|i| match i.opcode {
            op::INVOKEVIRTUAL | op::INVOKEINTERFACE => crate::insn::member(self.cp, i),
            _ => None,
        }) else {
            self.cursor = None;
            return;
        };
        if m.name != "close" || m.descriptor != "()V" || *self.owner.get_or_insert(m.owner) != m.owner {
            self.cursor = None;
        }
    }

    fn next_is_javac_close(&mut self, null_check: bool) -> bool {
        if null_check {
            self.next_is_var(op::ALOAD, "r");
            self.next_is(op::IFNULL);
        }
        self.next_is_close();
        self.cursor.is_some()
    }
}

/// `StringSwitchJavacFilter`: returns the default target of the hash switch
/// at instruction `k` (the label of the second switch) when it matches.
fn string_switch(cp: &ConstantPool, insns: &[Insn], k: usize) -> Option<u32> {
    let dflt = match &insns[k].operand {
        Operand::TableSwitch { default, .. } | Operand::LookupSwitch { default, .. } => *default,
        _ => return None,
    };
    let start = k.checked_sub(4)?;
    if normalize(insns[start].opcode) != op::ICONST_M1 {
        return None;
    }
    let mut m = Matcher::new(cp, insns, start as isize);
    m.next_is_var(op::ISTORE, "c");
    m.next_is_var(op::ALOAD, "s");
    m.next_is_member(op::INVOKEVIRTUAL, "java/lang/String", "hashCode", Some("()I"));
    m.next();
    loop {
        m.next_is_var(op::ALOAD, "s");
        m.next_is(op::LDC);
        m.next_is_member(op::INVOKEVIRTUAL, "java/lang/String", "equals", Some("(Ljava/lang/Object;)Z"));
        m.next_is(op::IFEQ);
        m.next();
        m.next_is_var(op::ISTORE, "c");
        let at = m.index()?;
        if insns.get(at + 1).map(|i| i.bci) == Some(dflt) {
            break;
        }
        m.next_is(op::GOTO);
        if m.current()?.operand != Operand::Jump(dflt) {
            return None;
        }
    }
    m.next_is_var(op::ILOAD, "c");
    // 0.8.6 accepts either switch here (later versions only `tableswitch`).
    m.next();
    m.fail_unless(Insn::is_switch);
    m.cursor.map(|_| dflt)
}

/// `TryWithResourcesJavac11Filter` for the handler at instruction `h`:
/// the two instruction ranges to ignore.
fn try_with_resources(cp: &ConstantPool, insns: &[Insn], h: usize, null_check: bool) -> Option<[(usize, usize); 2]> {
    let mut m = Matcher::new(cp, insns, h as isize - 1);
    m.next_is_var(op::ASTORE, "primaryExc");
    m.next_is_javac_close(null_check);
    m.next_is(op::GOTO);
    m.next_is_var(op::ASTORE, "t");
    m.next_is_var(op::ALOAD, "primaryExc");
    m.next_is_var(op::ALOAD, "t");
    m.next_is_member(op::INVOKEVIRTUAL, "java/lang/Throwable", "addSuppressed", Some("(Ljava/lang/Throwable;)V"));
    m.next_is_var(op::ALOAD, "primaryExc");
    m.next_is(op::ATHROW);
    let end = m.index()?;
    // Search backwards from the handler for the close on the normal path.
    let mut s = h as isize - 1;
    m.cursor = Some(s);
    while !m.next_is_javac_close(null_check) {
        s -= 1;
        if s < 0 {
            return None;
        }
        m.cursor = Some(s);
    }
    let close = m.index()?;
    m.next();
    let last = match m.current() {
        Some(i) if normalize(i.opcode) == op::GOTO => m.index()?,
        _ => close,
    };
    Some([((s + 1) as usize, last), (h, end)])
}

/// `SynchronizedFilter`: the last instruction of the `monitorexit` handler
/// at `h` (javac: `astore t; aload; monitorexit; aload t; athrow`, ECJ:
/// `aload; monitorexit; athrow`).
fn synchronized_handler(insns: &[Insn], h: usize) -> Option<usize> {
    let matches =
        |ops: &[u8]| ops.iter().enumerate().all(|(i, &o)| insns.get(h + i).is_some_and(|x| normalize(x.opcode) == o));
    if matches(&[op::ALOAD, op::MONITOREXIT, op::ATHROW]) {
        return Some(h + 2);
    }
    let javac = [op::ASTORE, op::ALOAD, op::MONITOREXIT, op::ALOAD, op::ATHROW];
    let same_var = insns.get(h).and_then(local_index) == insns.get(h + 3).and_then(local_index);
    (matches(&javac) && same_var).then_some(h + 4)
}

/// The `$assertionsDisabled` patterns (JaCoCo's later `AssertFilter`)
/// starting at instruction `k`: `getstatic $assertionsDisabled; ifne` (the
/// `ifne` is ignored) and, in `<clinit>`, the initialisation from
/// `desiredAssertionStatus()` (ignored from the instruction before it, the
/// `ldc` of the class, through the `putstatic`).
fn assertion(cp: &ConstantPool, class: &str, method: &str, insns: &[Insn], k: usize, out: &mut Filtered<'_>) {
    let mut m = Matcher::new(cp, insns, k as isize - 1);
    m.next_is_member(op::GETSTATIC, class, "$assertionsDisabled", Some("Z"));
    m.next_is(op::IFNE);
    if let Some(i) = m.index() {
        out.ignore(i, i, InsnFilter::Assertion);
    }
    if method != "<clinit>" {
        return;
    }
    let mut m = Matcher::new(cp, insns, k as isize - 1);
    m.next_is_member(op::INVOKEVIRTUAL, "java/lang/Class", "desiredAssertionStatus", Some("()Z"));
    for o in [op::IFNE, op::ICONST_1, op::GOTO, op::ICONST_0] {
        m.next_is(o);
    }
    m.next_is_member(op::PUTSTATIC, class, "$assertionsDisabled", Some("Z"));
    if let Some(end) = m.index() {
        out.ignore(k.saturating_sub(1), end, InsnFilter::Assertion);
    }
}

/// Switches with a single distinct target have no branches in JaCoCo.
fn single_target_switches(insns: &[Insn], out: &mut Filtered<'_>) {
    for (k, insn) in insns.iter().enumerate() {
        if insn.is_switch() && insn.targets().iter().collect::<BTreeSet<_>>().len() < 2 {
            out.ignore(k, k, InsnFilter::SingleTargetSwitch);
        }
    }
}

/// `FinallyFilter`: merges the copies of each `finally` block with the copy
/// in its catch-any handler.
fn finally_blocks(insns: &[Insn], table: &[ExceptionEntry], index_of: &HashMap<u32, usize>, out: &mut Filtered<'_>) {
    let idx = |bci: u32| index_of.get(&bci).copied().unwrap_or(insns.len());
    for catch_any in table.iter().filter(|e| e.catch_type == 0) {
        let e = idx(catch_any.handler_pc);
        let size = finally_size(insns, e);
        if size == 0 {
            continue;
        }
        let regions: Vec<&ExceptionEntry> = table.iter().filter(|t| t.handler_pc == catch_any.handler_pc).collect();
        let inside: BTreeSet<usize> = regions.iter().flat_map(|t| idx(t.start_pc)..idx(t.end_pc)).collect();
        for t in &regions {
            let mut continues = false;
            for i in idx(t.start_pc)..idx(t.end_pc) {
                let insn = &insns[i];
                if let (Operand::Jump(target), false) = (&insn.operand, insn.is_switch()) {
                    let target = idx(*target);
                    if !inside.contains(&target) {
                        merge_finally(insns, size, e, target, out);
                    }
                    continues = normalize(insn.opcode) != op::GOTO;
                } else {
                    continues = !insn.is_exit();
                }
            }
            let after = idx(t.end_pc);
            if continues && !inside.contains(&after) {
                merge_finally(insns, size, e, after, out);
            }
        }
        for t in table {
            let same_range = t.start_pc == catch_any.start_pc && t.end_pc == catch_any.end_pc;
            if !std::ptr::eq(t, catch_any) && same_range {
                // javac's empty catch: the duplicate starts after the handler's astore.
                let after_store = idx(t.handler_pc) + 1;
                if !inside.contains(&after_store) {
                    merge_finally(insns, size, e, after_store, out);
                }
            }
        }
    }
}

/// Number of instructions of the `finally` copy in the catch-any handler at
/// `e` (`astore x; ...; aload x; athrow`), 0 when it is not that shape.
fn finally_size(insns: &[Insn], e: usize) -> usize {
    let Some(store) = insns.get(e).filter(|i| normalize(i.opcode) == op::ASTORE) else {
        return 0;
    };
    let var = local_index(store);
    let mut i = e + 1;
    loop {
        let Some(insn) = insns.get(i) else { return 0 };
        if normalize(insn.opcode) == op::ALOAD && local_index(insn) == var {
            break;
        }
        i += 1;
    }
    let throws = insns.get(i + 1).is_some_and(|x| x.opcode == op::ATHROW);
    if throws { i - e - 1 } else { 0 }
}

/// Merges the copy starting at `n` with the handler copy after `e` when
/// their opcodes agree.
fn merge_finally(insns: &[Insn], size: usize, e: usize, n: usize, out: &mut Filtered<'_>) {
    let same = (0..size).all(|k| match (insns.get(e + 1 + k), insns.get(n + k)) {
        (Some(a), Some(b)) => normalize(a.opcode) == normalize(b.opcode),
        _ => false,
    });
    if !same {
        return;
    }
    out.ignore(e, e, InsnFilter::Finally);
    for k in 0..size {
        out.merge(e + 1 + k, n + k);
    }
    out.ignore(e + 1 + size, e + 2 + size, InsnFilter::Finally);
    if insns.get(n + size).is_some_and(|i| normalize(i.opcode) == op::GOTO) {
        out.ignore(n + size, n + size, InsnFilter::Finally);
    }
}

fn is_empty_constructor(cp: &ConstantPool, insns: &[Insn], super_name: &str) -> bool {
    matches!(insns, [a, b, c, ..]
        if normalize(a.opcode) == op::ALOAD && local_index(a) == Some(0)
            && is_member(cp, b, op::INVOKESPECIAL, super_name, "<init>", Some("()V"))
            && c.opcode == op::RETURN)
}

fn is_empty_enum_constructor(cp: &ConstantPool, insns: &[Insn]) -> bool {
    matches!(insns, [a, b, c, d, e, ..]
        if normalize(a.opcode) == op::ALOAD && local_index(a) == Some(0)
            && normalize(b.opcode) == op::ALOAD
            && normalize(c.opcode) == op::ILOAD
            && is_member(cp, d, op::INVOKESPECIAL, "java/lang/Enum", "<init>", Some("(Ljava/lang/String;I)V"))
            && e.opcode == op::RETURN)
}

fn is_record_generated(cp: &ConstantPool, name: &str, descriptor: &str, insns: &[Insn]) -> bool {
    let (loads, ret) = match (name, descriptor) {
        ("toString", "()Ljava/lang/String;") => (1, op::ARETURN),
        ("hashCode", "()I") => (1, op::IRETURN),
        ("equals", "(Ljava/lang/Object;)Z") => (2, op::IRETURN),
        _ => return false,
    };
    let indy_named = |i: &Insn| match i.operand {
        Operand::InvokeDynamic { index } => indy_name(cp, index) == Some(name),
        _ => false,
    };
    insns.len() > loads + 1
        && normalize(insns[0].opcode) == op::ALOAD
        && local_index(&insns[0]) == Some(0)
        && insns[1..loads].iter().all(|i| normalize(i.opcode) == op::ALOAD)
        && indy_named(&insns[loads])
        && insns[loads + 1].opcode == ret
}

fn indy_name(cp: &ConstantPool, index: u16) -> Option<&str> {
    match cp.get(index).ok()? {
        model::constant_pool::Constant::InvokeDynamic { name_and_type, .. } => {
            cp.name_and_type(*name_and_type).ok().map(|nt| nt.0)
        }
        _ => None,
    }
}

/// Whether `RuntimeVisibleAnnotations` or `RuntimeInvisibleAnnotations`
/// among `attributes` holds an annotation whose simple name contains
/// `Generated` (JaCoCo's `AnnotationGeneratedFilter`).
fn has_generated_annotation(cf: &ClassFile, attributes: &[Attribute]) -> bool {
    model::annotations::annotation_descriptors(cf, attributes).into_iter().any(|desc| {
        let simple = &desc[desc.rfind(['/', '$']).map_or(0, |i| i + 1)..];
        simple.contains("Generated")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::compile;
    use model::bytecode::decode;

    fn method<'a>(cf: &'a ClassFile, name: &str) -> &'a Member {
        cf.methods.iter().find(|m| cf.member_name(m) == name).expect("method")
    }

    fn filters_of(cf: &ClassFile, name: &str) -> MethodFilters {
        let code = cf.code(method(cf, name)).unwrap().unwrap();
        instruction_filters(cf, name, &decode(&code.code).unwrap(), &code, true)
    }

    #[test]
    fn methods_annotated_as_generated_are_filtered() {
        let source = "class G {
    @interface MyGenerated {}
    @MyGenerated int made(int x) { return x > 0 ? 1 : 0; }
    int written(int x) { return x; }
}
";
        let classes = compile(&[("G.java", source)]);
        let cf = &classes["G"];
        let decoded = |name| decode(&cf.code(method(cf, name)).unwrap().unwrap().code).unwrap();
        assert_eq!(method_filter(cf, method(cf, "made"), Some(&decoded("made"))), Some(MethodFilter::Generated));
        assert_eq!(method_filter(cf, method(cf, "written"), Some(&decoded("written"))), None);
        assert_eq!(method_filter(cf, method(cf, "written"), None), Some(MethodFilter::NoCode));
    }

    #[test]
    fn the_monitor_exit_handler_of_synchronized_is_ignored() {
        let source = "class Y {
    int n;
    void f(Object lock) {
        synchronized (lock) {
            if (n > 0) n--;
        }
    }
}
";
        let classes = compile(&[("Y.java", source)]);
        let filters = filters_of(&classes["Y"], "f");
        let reasons: BTreeSet<InsnFilter> = filters.ignored.values().copied().collect();
        // Only the handler; javac's try range includes the normal-path monitorexit, so
        // the finally filter finds no copy to merge.
        assert_eq!(reasons, BTreeSet::from([InsnFilter::Synchronized]));
        assert_eq!(filters.ignored.len(), 5);
        assert!(filters.merged.is_empty());
        let code = classes["Y"].code(method(&classes["Y"], "f")).unwrap().unwrap();
        let jump = decode(&code.code).unwrap().into_iter().find(Insn::is_conditional_jump).unwrap();
        assert!(!filters.ignored.contains_key(&jump.bci));
    }
}
