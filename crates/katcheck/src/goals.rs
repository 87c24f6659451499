//! KAT phase III, what and how (TECHNIQUES.md section 2 step 3): each
//! potential violation of a class becomes a goal of the class under test
//! ([`GoalKind::ApiMisuse`]), observed two ways:
//!
//! - a call-condition probe at the call (`instrument::probes::call_condition`)
//!   records the distance of the trigger over the call's operands, so the
//!   search's ordinary fitness (approach level + normalised distance) guides
//!   towards it and the goal is covered when the trigger holds there;
//! - the goal is also covered when the call throws the documented exception
//!   (or a subclass): the only way for a trigger without a formal condition
//!   (`?`, "reach the call and have it throw") and for parts whose values the
//!   probe cannot read.
//!
//! The goal's parent is the goal of the call's line (else its method's), so
//! DynaMOSA makes it a target once the call's line is covered.

use std::collections::BTreeSet;

use analysis::goals::{Goal, GoalId, GoalKind};
use exec::coverage::ThrowSite;
use generate::ClassRun;
use instrument::probes::call_condition::{CallCondition, CallConditionProbes, CallSite};
use model::classfile::ClassFile;
use model::classpath::ClassPath;
use model::names::{BinaryName, InternalName};

use crate::Violation;

/// Exceptions of the JDK that the documented exceptions' subclasses are
/// looked for among (a thrown `StringIndexOutOfBoundsException` covers a
/// goal documented as `IndexOutOfBoundsException`).
const KNOWN_EXCEPTIONS: &[&str] = &[
    "java.lang.ArithmeticException",
    "java.lang.ArrayIndexOutOfBoundsException",
    "java.lang.ArrayStoreException",
    "java.lang.ClassCastException",
    "java.lang.IllegalArgumentException",
    "java.lang.IllegalStateException",
    "java.lang.IndexOutOfBoundsException",
    "java.lang.NegativeArraySizeException",
    "java.lang.NullPointerException",
    "java.lang.NumberFormatException",
    "java.lang.StringIndexOutOfBoundsException",
    "java.lang.UnsupportedOperationException",
    "java.nio.BufferOverflowException",
    "java.nio.BufferUnderflowException",
    "java.nio.charset.IllegalCharsetNameException",
    "java.nio.charset.UnsupportedCharsetException",
    "java.nio.file.InvalidPathException",
    "java.time.DateTimeException",
    "java.time.format.DateTimeParseException",
    "java.util.ConcurrentModificationException",
    "java.util.EmptyStackException",
    "java.util.IllegalFormatException",
    "java.util.InputMismatchException",
    "java.util.MissingResourceException",
    "java.util.NoSuchElementException",
    "java.util.UnknownFormatConversionException",
    "java.util.MissingFormatArgumentException",
    "java.util.IllegalFormatConversionException",
    "java.util.regex.PatternSyntaxException",
    "java.io.UncheckedIOException",
];

/// What adding a class's goals made: the probes to instrument it with.
pub struct ClassGoalsAdded {
    /// The call-condition probes of the class's new goals.
    pub probes: CallConditionProbes,
    /// The goals added.
    pub goals: Vec<AddedGoal>,
}

/// One goal added for a potential violation.
#[derive(Debug, Clone)]
pub struct AddedGoal {
    /// The goal.
    pub id: GoalId,
    /// The class holding the call.
    pub class: BinaryName,
    /// `name` and descriptor of the method holding the call.
    pub method: (String, String),
    /// The mean of the violation's knowledge and bug confidence.
    pub confidence: f64,
}

/// Appends to `run` one goal per potential violation of `class` (the class
/// under test or a nested class, file `cf`, source file `source_file`),
/// with its probe ids from `next_probe` on (advanced past them), and
/// returns the probes to instrument `class` with.
pub fn add_goals(
    run: &mut ClassRun,
    class: &BinaryName,
    cf: &ClassFile,
    source_file: Option<&str>,
    violations: &[Violation],
    next_probe: &mut u32,
) -> ClassGoalsAdded {
    let mut probes = CallConditionProbes::default();
    let mut keys = BTreeSet::new();
    let mut added = Vec::new();
    // The same documented exception recurs at many calls: its family once.
    let mut families: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let mut deepened = BTreeSet::new();
    let internal = class.to_internal();
    for v in violations.iter().filter(|v| v.is_potential_bug()) {
        let key = format!("{}{}@{}:api:{}:{}", v.method, v.descriptor, v.bci, v.exception, v.condition);
        let Some(method_index) = shifted_method_index(run, &internal, v) else { continue };
        let Some(file_index) = file_method_index(cf, v) else { continue };
        if !keys.insert(key.clone()) {
            continue;
        }
        let id = GoalId(run.goals.goals.len() as u32);
        let parent = v.line.and_then(|l| run.goals.line_goal(l)).or_else(|| run.goals.method_goal(method_index));
        run.goals.goals.push(Goal {
            id,
            key,
            kind: GoalKind::ApiMisuse,
            class: internal.clone(),
            method_name: v.method.clone(),
            method_descriptor: v.descriptor.clone(),
            method_index,
            bci: v.bci,
            line: v.line,
            label: v.label(source_file),
            parents: parent.into_iter().collect(),
        });
        added.push(AddedGoal {
            id,
            class: class.clone(),
            method: (v.method.clone(), v.descriptor.clone()),
            confidence: f64::from(v.knowledge_confidence + v.bug_confidence) / 2.0,
        });
        // One level more below the line goal: "not entered" must stay worse.
        if deepened.insert(method_index) {
            run.goals.methods[usize::from(method_index)].max_approach_level += 1;
        }
        run.map.add_throw_goal(ThrowSite {
            goal: id,
            class: class.as_str().to_string(),
            method: v.method.clone(),
            line: v.line.map(u32::from),
            callee: v.api_method.clone(),
            exceptions: families
                .entry(v.exception.clone())
                .or_insert_with(|| exception_family(&run.cp, &v.exception))
                .clone(),
        });
        if v.probe != CallCondition::Unknown {
            run.map.add_condition_goal(*next_probe, id);
            probes.sites.push(CallSite {
                method_index: file_index,
                bci: v.bci,
                probe: *next_probe,
                condition: v.probe.clone(),
            });
            *next_probe += 1;
        }
    }
    ClassGoalsAdded { goals: added, probes }
}

/// The index of the violation's method in the goals of the run (shifted for
/// a nested class), from a goal of that method; `None` for a method without
/// goals (filtered).
fn shifted_method_index(run: &ClassRun, class: &InternalName, v: &Violation) -> Option<u16> {
    run.goals
        .goals
        .iter()
        .find(|g| &g.class == class && g.method_name == v.method && g.method_descriptor == v.descriptor)
        .map(|g| g.method_index)
}

/// The index of the violation's method in the class file.
fn file_method_index(cf: &ClassFile, v: &Violation) -> Option<u16> {
    let k = cf.methods.iter().position(|m| cf.member_name(m) == v.method && cf.member_descriptor(m) == v.descriptor)?;
    u16::try_from(k).ok()
}

/// The documented exception (internal name) and those of
/// [`KNOWN_EXCEPTIONS`] that are its subclasses, as binary names.
pub fn exception_family(cp: &ClassPath, exception: &str) -> Vec<String> {
    let documented = InternalName::new(exception);
    let mut out = vec![documented.to_binary().as_str().to_string()];
    for known in KNOWN_EXCEPTIONS {
        let name = BinaryName::new(*known);
        if !out.iter().any(|o| o == known) && crate::witness::is_subclass(cp, &name, &documented) {
            out.push((*known).to_string());
        }
    }
    out
}
