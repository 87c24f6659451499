//! Static state reset (issue 10, item 2): instrumented classes of the
//! package under test get a method that puts their static fields back to
//! the state their class initialiser left them in, and the runtime
//! (`ferrosuite.runtime.StaticReset`) calls these methods before each test
//! of a worker, so every test starts from the same static state.
//!
//! For a class in [`ResetScope`] that is neither an interface nor an enum
//! and has a static field to reset:
//! - the static fields the reset assigns lose `ACC_FINAL` in the
//!   instrumented copy (only there), so a method other than `<clinit>` may
//!   assign them; a `final` field with a `ConstantValue` attribute that the
//!   initialiser does not assign keeps its flag and its constant;
//! - [`RESET_METHOD`] (private, static, synthetic) is added: it first sets
//!   every such field to its default value (0, `false`, `null`), then runs
//!   a copy of the original `<clinit>` (without coverage probes, with the
//!   sandbox probes, so a reset that loops ends at the worker's time limit);
//! - `<clinit>` (added when the class has none) calls
//!   `StaticReset.initialised(name)` before each `return`, so the runtime
//!   knows which classes finished initialising, in order (a class whose
//!   initialiser throws stays erroneous in the JVM and is never reset).
//!
//! Not reset: interfaces (their fields must stay `final`), enums (new
//! constants would break identity: `==`, `EnumSet`, switch maps), classes
//! outside the scope, and the state of other classes or of the JDK that an
//! initialiser changes; [`clinit_side_effects`] lists such initialisers.

use model::access;
use model::bytecode::{self, Insn, Operand, op};
use model::classfile::{Attribute, ClassFile, ClassFileError, CodeAttribute, Member};
use model::constant_pool::Constant;
use model::names::InternalName;
use serde::{Deserialize, Serialize};

use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};
use crate::rewrite::{RewriteError, rewrite_method};
use crate::tracer::TracerMethod;

/// The reserved name of the reset method added to instrumented classes.
pub const RESET_METHOD: &str = "ferrosuite$reset";

/// Internal name of the runtime class that records initialised classes and
/// calls their resets (`StaticReset.java`).
pub const STATIC_RESET_CLASS: &str = "ferrosuite/runtime/StaticReset";

/// `StaticReset.initialised(String binaryName)`, called at the end of `<clinit>`.
pub const INITIALISED: TracerMethod =
    TracerMethod { owner: STATIC_RESET_CLASS, name: "initialised", descriptor: "(Ljava/lang/String;)V" };

/// `StaticReset.resetAll()`: resets every initialised class, in order, and
/// returns how many resets threw.
pub const RESET_ALL: TracerMethod = TracerMethod { owner: STATIC_RESET_CLASS, name: "resetAll", descriptor: "()I" };

/// `StaticReset.saveFields(String spec)`: saves the values of the static
/// fields `spec` names (lines of class binary name, tab, field name).
pub const SAVE_FIELDS: TracerMethod =
    TracerMethod { owner: STATIC_RESET_CLASS, name: "saveFields", descriptor: "(Ljava/lang/String;)V" };

/// `StaticReset.restoreSaved()`: sets the fields [`SAVE_FIELDS`] saved back
/// to their saved values, as an emitted suite's restore before each test.
pub const RESTORE_SAVED: TracerMethod =
    TracerMethod { owner: STATIC_RESET_CLASS, name: "restoreSaved", descriptor: "()V" };

/// Which classes get a static reset: the classes of one package (the
/// package of the class under test, whose nested classes share it), or
/// every class (`bench verify --static-reset`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResetScope {
    /// Internal package name (`org/apache/commons/lang3`, empty for the
    /// default package); `None` for every class.
    package: Option<String>,
}

impl ResetScope {
    /// The scope of the package of `class` (internal or binary name).
    pub fn package_of(class: &str) -> ResetScope {
        ResetScope { package: Some(package(&class.replace('.', "/")).to_string()) }
    }

    /// Every class.
    pub fn every_class() -> ResetScope {
        ResetScope { package: None }
    }

    /// Whether `class` (internal name) is in the scope.
    pub fn covers(&self, class: &str) -> bool {
        self.package.as_deref().is_none_or(|p| package(class) == p)
    }
}

/// The package part of an internal name (before the last `/`).
fn package(internal: &str) -> &str {
    internal.rfind('/').map_or("", |i| &internal[..i])
}

/// What the static reset did with one class.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ResetStatus {
    /// No reset was asked for, or the class is outside the scope.
    #[default]
    NotAsked,
    /// The class has no static field to reset.
    NothingToReset,
    /// The class is of a kind that is never reset (the reason: `interface`,
    /// `enum`, `has a reset method already`).
    Excluded(String),
    /// The reset method was added; it resets this many static fields.
    Added(usize),
    /// The reset could not be added (the rewriter's error); the class is
    /// instrumented without it.
    Failed(String),
}

/// The original `Code` attribute of `<clinit>`, taken before probes are
/// inserted (the reset runs a copy of it), or `None` when there is none.
pub(crate) fn original_clinit(cf: &ClassFile) -> Option<Attribute> {
    let m = cf.methods.iter().find(|m| cf.member_name(m) == "<clinit>")?;
    cf.find_attribute(&m.attributes, "Code").cloned()
}

/// Adds the static reset to the instrumented class `cf`, given the
/// original `<clinit>` code ([`original_clinit`]). On failure `cf` is left
/// as it was.
pub(crate) fn add_reset(cf: &mut ClassFile, original: Option<Attribute>) -> ResetStatus {
    if let Some(reason) = excluded(cf) {
        return ResetStatus::Excluded(reason.into());
    }
    let written = match original.as_ref().map(|a| own_static_writes(cf, &a.info)).transpose() {
        Ok(w) => w.unwrap_or_default(),
        Err(e) => return ResetStatus::Failed(e.to_string()),
    };
    let fields = resettable_fields(cf, &written);
    if fields.is_empty() {
        return ResetStatus::NothingToReset;
    }
    let mut work = cf.clone();
    match build(&mut work, &fields, original) {
        Ok(()) => {
            *cf = work;
            ResetStatus::Added(fields.len())
        }
        Err(e) => ResetStatus::Failed(e.to_string()),
    }
}

/// A class with only the static reset added: no coverage probes and no
/// sandbox probes in its own methods (the reset method has the sandbox
/// probes, as always). This is how the package's other classes that hold
/// static state are reset with the class under test
/// (`generate::static_state::reset_package_state`).
///
/// Returns the class file's bytes (unchanged unless the status is
/// [`ResetStatus::Added`]) and what was done.
///
/// # Errors
/// [`ClassFileError`] when `bytes` is not a class file.
pub fn reset_only(bytes: &[u8]) -> Result<(Vec<u8>, ResetStatus), ClassFileError> {
    let mut cf = ClassFile::parse(bytes)?;
    let clinit = original_clinit(&cf);
    let status = add_reset(&mut cf, clinit);
    let bytes = if matches!(status, ResetStatus::Added(_)) { cf.to_bytes() } else { bytes.to_vec() };
    Ok((bytes, status))
}

/// Internal names of the classes whose static fields the code of `cf`
/// assigns (`putstatic`) outside their own initialiser, each once: the
/// classes whose static state calls can change after initialisation (a
/// `setDefault(...)`, a registry's `register(...)`). `<clinit>` of `cf`
/// writing `cf`'s own fields does not count.
///
/// # Errors
/// [`RewriteError`] when a method's code cannot be decoded.
pub fn static_writes_outside_initialisers(cf: &ClassFile) -> Result<Vec<String>, RewriteError> {
    let mut out: Vec<String> = Vec::new();
    for m in &cf.methods {
        let Some(code) = cf.find_attribute(&m.attributes, "Code") else { continue };
        let own_initialiser = cf.member_name(m) == "<clinit>";
        let code = CodeAttribute::parse(&code.info)?;
        for insn in bytecode::decode(&code.code)? {
            let (op::PUTSTATIC, Operand::Constant(index)) = (insn.opcode, insn.operand) else { continue };
            let owner = cf.constant_pool.member_ref(index)?.owner;
            let initialising_itself = own_initialiser && owner == cf.name();
            if !initialising_itself && !out.iter().any(|o| o == owner) {
                out.push(owner.to_string());
            }
        }
    }
    Ok(out)
}

/// Names of the static, non-`final` fields of `cf` that its own code
/// assigns (`putstatic`) outside `<clinit>`, each once, in field order:
/// the state a call leaves for the next test (`getInstance()` setting
/// `inUse`). The emitted tests save them once and restore them before each
/// test (`junit::SuiteOptions::static_fields`), as the workers' reset does.
///
/// # Errors
/// [`RewriteError`] when a method's code cannot be decoded.
pub fn own_statics_assigned_after_initialiser(cf: &ClassFile) -> Result<Vec<String>, RewriteError> {
    let mut written: Vec<String> = Vec::new();
    for m in &cf.methods {
        if cf.member_name(m) == "<clinit>" {
            continue;
        }
        let Some(code) = cf.find_attribute(&m.attributes, "Code") else { continue };
        written.extend(own_static_writes(cf, &code.info)?);
    }
    let assignable = |f: &&Member| f.access & access::STATIC != 0 && f.access & access::FINAL == 0;
    let names = cf.fields.iter().filter(assignable).map(|f| cf.member_name(f));
    Ok(names.filter(|n| written.iter().any(|w| w == n)).map(str::to_string).collect())
}

/// Why a class is never reset, if it is not.
fn excluded(cf: &ClassFile) -> Option<&'static str> {
    if cf.access & access::INTERFACE != 0 {
        Some("interface")
    } else if cf.access & access::ENUM != 0 || cf.super_name() == Some("java/lang/Enum") {
        Some("enum")
    } else if cf.methods.iter().any(|m| cf.member_name(m) == RESET_METHOD) {
        Some("has a reset method already")
    } else {
        None
    }
}

/// Names of the class's own static fields that `<clinit>` code assigns.
fn own_static_writes(cf: &ClassFile, code: &[u8]) -> Result<Vec<String>, RewriteError> {
    let code = CodeAttribute::parse(code)?;
    let mut out = Vec::new();
    for insn in bytecode::decode(&code.code)? {
        let Operand::Constant(index) = insn.operand else { continue };
        if insn.opcode != op::PUTSTATIC {
            continue;
        }
        let r = cf.constant_pool.member_ref(index)?;
        if r.owner == cf.name() {
            out.push(r.name.to_string());
        }
    }
    Ok(out)
}

/// Indices of the static fields the reset assigns: all but the `final`
/// ones with a `ConstantValue` that `<clinit>` does not assign.
fn resettable_fields(cf: &ClassFile, written_by_clinit: &[String]) -> Vec<usize> {
    let constant = |f: &Member| cf.find_attribute(&f.attributes, "ConstantValue").is_some();
    (0..cf.fields.len())
        .filter(|&i| {
            let f = &cf.fields[i];
            let name = cf.member_name(f);
            let kept_constant =
                f.access & access::FINAL != 0 && constant(f) && !written_by_clinit.iter().any(|w| w == name);
            f.access & access::STATIC != 0 && !kept_constant
        })
        .collect()
}

/// Makes the fields assignable, adds the reset method and the
/// notification in `<clinit>`.
fn build(cf: &mut ClassFile, fields: &[usize], original: Option<Attribute>) -> Result<(), RewriteError> {
    let mut defaults = Vec::with_capacity(fields.len());
    for &i in fields {
        cf.fields[i].access &= !access::FINAL;
        let (name, descriptor) =
            (cf.member_name(&cf.fields[i]).to_string(), cf.member_descriptor(&cf.fields[i]).to_string());
        let field_ref = field_ref(cf, &name, &descriptor)?;
        defaults.push((default_push(&descriptor), field_ref));
    }
    let clinit = match cf.methods.iter().position(|m| cf.member_name(m) == "<clinit>") {
        Some(i) => i,
        None => {
            let code = return_only(cf)?;
            add_method(cf, "<clinit>", access::STATIC, code)?
        }
    };
    let code = match original {
        Some(code) => code,
        None => return_only(cf)?,
    };
    let reset = add_method(cf, RESET_METHOD, access::PRIVATE | access::STATIC | access::SYNTHETIC, code)?;
    let mut kinds: Vec<Box<dyn ProbeKind>> = vec![Box::new(DefaultValues { defaults })];
    kinds.extend(crate::probes::sandbox_probes(&cf.constant_pool));
    rewrite_method(cf, reset, &kinds)?;
    let notify = NotifyInitialised { class: cf.binary_name().as_str().to_string() };
    rewrite_method(cf, clinit, &[Box::new(notify)])?;
    Ok(())
}

/// A `CONSTANT_Fieldref` of the class's own field.
fn field_ref(cf: &mut ClassFile, name: &str, descriptor: &str) -> Result<u16, ClassFileError> {
    let owner = cf.name().to_string();
    let pool = &mut cf.constant_pool;
    let class = pool.add_class(&owner)?;
    let name = pool.add_utf8(name)?;
    let descriptor = pool.add_utf8(descriptor)?;
    let name_and_type = pool.add(Constant::NameAndType { name, descriptor })?;
    pool.add(Constant::FieldRef { class, name_and_type })
}

/// The instruction that pushes the default value of a field type.
fn default_push(descriptor: &str) -> u8 {
    match descriptor.as_bytes().first() {
        Some(b'J') => op::LCONST_0,
        Some(b'F') => op::FCONST_0,
        Some(b'D') => op::DCONST_0,
        Some(b'L' | b'[') => op::ACONST_NULL,
        _ => op::ICONST_0,
    }
}

/// A `Code` attribute holding only `return`.
fn return_only(cf: &mut ClassFile) -> Result<Attribute, ClassFileError> {
    let code = CodeAttribute {
        max_stack: 0,
        max_locals: 0,
        code: vec![op::RETURN],
        exception_table: vec![],
        attributes: vec![],
    };
    Ok(Attribute { name_index: cf.constant_pool.add_utf8("Code")?, info: code.to_bytes() })
}

/// Appends a `()V` method with the given flags and `Code`; returns its index.
fn add_method(cf: &mut ClassFile, name: &str, flags: u16, code: Attribute) -> Result<usize, ClassFileError> {
    let name_index = cf.constant_pool.add_utf8(name)?;
    let descriptor_index = cf.constant_pool.add_utf8("()V")?;
    cf.methods.push(Member { access: flags, name_index, descriptor_index, attributes: vec![code] });
    Ok(cf.methods.len() - 1)
}

/// The reset method's prologue: every resettable field set to its default.
struct DefaultValues {
    /// (push opcode, field-reference index) per field.
    defaults: Vec<(u8, u16)>,
}

impl ProbeKind for DefaultValues {
    fn name(&self) -> &'static str {
        "static-reset-defaults"
    }

    fn extra_stack(&self) -> u16 {
        2
    }

    fn edits(&self, _: &MethodContext<'_>, _: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError> {
        let mut snippet = Vec::with_capacity(2 * self.defaults.len());
        for &(push, field) in &self.defaults {
            snippet.push(Emitter::simple(push));
            snippet.push(Insn { bci: 0, opcode: op::PUTSTATIC, operand: Operand::Constant(field) });
        }
        Ok(vec![(0, Edit::Prologue(snippet))])
    }
}

/// `StaticReset.initialised("<binary name>")` before each `return` of `<clinit>`.
struct NotifyInitialised {
    /// The class's binary name.
    class: String,
}

impl ProbeKind for NotifyInitialised {
    fn name(&self) -> &'static str {
        "static-reset-notify"
    }

    fn extra_stack(&self) -> u16 {
        1
    }

    fn edits(&self, ctx: &MethodContext<'_>, emit: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError> {
        let utf8 = emit.constant_pool.add_utf8(&self.class)?;
        let string = emit.constant_pool.add(Constant::String(utf8))?;
        let ldc = match u8::try_from(string) {
            Ok(_) => Insn { bci: 0, opcode: op::LDC, operand: Operand::Constant(string) },
            Err(_) => Insn { bci: 0, opcode: op::LDC_W, operand: Operand::Constant(string) },
        };
        let call = emit.call(INITIALISED)?;
        let returns = ctx.insns.iter().enumerate().filter(|(_, i)| i.opcode == op::RETURN);
        Ok(returns.map(|(index, _)| (index, Edit::Before(vec![ldc.clone(), call.clone()]))).collect())
    }
}

/// JDK classes whose methods an initialiser may call without the call
/// counting as a side effect: they build values and collections and change
/// no state outside the objects they are given. The value classes are
/// those of [`analysis::purity::PURE_JDK_OWNERS`]; the collections, which
/// change the objects they are given, are added here.
const PURE_JDK_COLLECTIONS: &[&str] = &[
    "java/util/Arrays",
    "java/util/Collections",
    "java/util/Collection",
    "java/util/List",
    "java/util/Set",
    "java/util/Map",
    "java/util/Map$Entry",
    "java/util/ArrayList",
    "java/util/LinkedList",
    "java/util/ArrayDeque",
    "java/util/HashMap",
    "java/util/LinkedHashMap",
    "java/util/TreeMap",
    "java/util/HashSet",
    "java/util/LinkedHashSet",
    "java/util/TreeSet",
    "java/util/EnumMap",
    "java/util/EnumSet",
    "java/util/concurrent/ConcurrentHashMap",
    "java/util/regex/Pattern",
];

/// Side effects of the class's `<clinit>` beyond its own static fields,
/// one description each (`writes p.Other.field`, `calls p.Other.m`), in
/// code order, each once.
///
/// The rule: a `putstatic` to a field of another class, or a call
/// (`invokestatic`, `invokevirtual`, `invokespecial`, `invokeinterface`)
/// of a method of another class, counts, except calls of the classes in
/// [`analysis::purity::PURE_JDK_OWNERS`] and [`PURE_JDK_COLLECTIONS`] and
/// `Class.desiredAssertionStatus` (javac's `assert`
/// support). "Another class" is any class outside the class's nest (its
/// top-level class and the classes nested in it, which are reset with it).
/// `invokedynamic` does not count (javac emits it for lambdas and string
/// concatenation). What a pure call does to an object another class holds
/// (`Other.LIST.add(x)`) is not seen.
///
/// # Errors
/// [`RewriteError`] when the code cannot be decoded.
pub fn clinit_side_effects(cf: &ClassFile) -> Result<Vec<String>, RewriteError> {
    let Some(code) = original_clinit(cf) else { return Ok(Vec::new()) };
    let code = CodeAttribute::parse(&code.info)?;
    let own_nest = nest(cf.name());
    let mut out: Vec<String> = Vec::new();
    for insn in bytecode::decode(&code.code)? {
        let index = match insn.operand {
            Operand::Constant(i) => i,
            Operand::InvokeInterface { index, .. } => index,
            _ => continue,
        };
        let verb = match insn.opcode {
            op::PUTSTATIC => "writes",
            op::INVOKESTATIC | op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKEINTERFACE => "calls",
            _ => continue,
        };
        let r = cf.constant_pool.member_ref(index)?;
        let pure = verb == "calls"
            && (analysis::purity::PURE_JDK_OWNERS.contains(&r.owner)
                || PURE_JDK_COLLECTIONS.contains(&r.owner)
                || (r.owner == "java/lang/Class" && r.name == "desiredAssertionStatus"));
        if nest(r.owner) == own_nest || pure {
            continue;
        }
        let what = format!("{verb} {}.{}", InternalName::new(r.owner).to_binary(), r.name);
        if !out.contains(&what) {
            out.push(what);
        }
    }
    Ok(out)
}

/// The top-level class of an internal name (before the first `$` of the
/// simple name).
fn nest(internal: &str) -> &str {
    let simple = internal.rfind('/').map_or(0, |i| i + 1);
    internal[simple..].find('$').map_or(internal, |d| &internal[..simple + d])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scope_is_one_package_and_a_nest_is_a_top_level_class_with_its_nested_classes() {
        let scope = ResetScope::package_of("edge.Tally");
        assert!(scope.covers("edge/Tally$Holder"));
        assert!(scope.covers("edge/Other"));
        assert!(!scope.covers("edge/sub/Other"));
        assert!(!scope.covers("Tally"));
        assert!(ResetScope::package_of("Tally").covers("Other"));
        assert!(ResetScope::every_class().covers("a/b/C"));
        assert_eq!(nest("edge/Tally$Holder$1"), "edge/Tally");
        assert_eq!(nest("edge/Tally"), "edge/Tally");
        assert_eq!(nest("Tally$Holder"), "Tally");
    }
}
