//! Static facts that explain why a goal can stay uncovered: whether its
//! code is reached only through an exception edge, and what the condition
//! of its branch or switch reads (environment APIs, fields, results of
//! instance calls). `generate::triage` turns them into one cause per
//! uncovered goal.
//!
//! The condition of a branch or switch goal is the instructions of the
//! basic block that ends in its jump or switch, before that instruction
//! (all of them: a value computed earlier in the block and stored in a
//! local counts too, and so does a statement that precedes the condition
//! in the same block).
//!
//! What counts as reading the environment ([`is_environment_api`]): any
//! call on `java.io.File`, `java.lang.Thread`, `java.lang.Runtime`,
//! `java.util.Random` (and `SecureRandom`, `SplittableRandom`,
//! `ThreadLocalRandom`), `java.time.Clock`, or a class of `java.nio.file`
//! or `java.net`; `System.getProperty`, `getProperties`, `getenv`,
//! `currentTimeMillis`, `nanoTime`; `Math.random`/`StrictMath.random`;
//! `now` of a `java.time` class; `UUID.randomUUID`; `new Date()`; the
//! machine's defaults (`Locale.getDefault`, `TimeZone.getDefault`,
//! `ZoneId.systemDefault`, `Charset.defaultCharset`).
//!
//! What counts as object state: `getfield`/`getstatic` (but not javac's
//! `$assertionsDisabled` or `$SwitchMap$...` fields) and the result of an
//! `invokevirtual`/`invokeinterface` call, except calls on `String` and
//! the boxes and `ordinal()` (values the search makes directly).

use std::collections::{BTreeMap, BTreeSet};

use model::bytecode::{Insn, op};
use model::classfile::ClassFile;
use model::names::InternalName;
use petgraph::visit::EdgeRef;
use serde::{Deserialize, Serialize};

use crate::cfg::{BlockId, CfgNode, ControlFlowGraph};
use crate::error::AnalysisError;
use crate::goals::{ClassGoals, Goal, GoalId, GoalKind};
use crate::insn::member;
use crate::method_analysis::{MethodAnalysis, analyse};

/// What the condition of a branch or switch goal reads, each member as
/// `binary.Owner.name` (`java.lang.System.currentTimeMillis`), in
/// instruction order without repeats.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConditionInputs {
    /// Environment APIs it calls ([`is_environment_api`]).
    pub environment: Vec<String>,
    /// Fields it reads (`getfield`, `getstatic`).
    pub fields: Vec<String>,
    /// Instance methods whose result it may use (`invokevirtual`,
    /// `invokeinterface`), other than those of `String`, the boxes and `ordinal()`.
    pub instance_calls: Vec<String>,
}

impl ConditionInputs {
    /// Whether the condition depends on object state: a field or the
    /// result of an instance call.
    pub fn reads_object_state(&self) -> bool {
        !self.fields.is_empty() || !self.instance_calls.is_empty()
    }
}

/// Static facts about one goal ([`goal_facts`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoalFacts {
    /// The goal's instruction ([`Goal::bci`]) lies in code that no path
    /// of normal edges from the method's entry reaches: a catch or finally
    /// handler, or code reached only from one.
    pub exception_only: bool,
    /// What the goal's condition reads; empty for line, method and root goals.
    pub inputs: ConditionInputs,
    /// The goal is a side of a jump whose condition is a constant
    /// (`iconst_1; ifeq`, as javac 23+ emits for each component of a
    /// record pattern): one of its sides is never taken.
    #[serde(default)]
    pub constant_condition: bool,
}

/// The facts of every goal of `goals` that belongs to class `cf` (a goal
/// whose [`Goal::class`] is `cf`'s name; goals appended from nested
/// classes are skipped, so this works on a class's own goals and on a
/// class under test's goals with its nested classes appended alike).
/// Methods are found by name and descriptor.
///
/// # Errors
/// [`AnalysisError`] when a method's code does not decode or its control
/// flow is malformed (never for a class whose goals were computed).
pub fn goal_facts(cf: &ClassFile, goals: &ClassGoals) -> Result<BTreeMap<GoalId, GoalFacts>, AnalysisError> {
    let mut by_method: BTreeMap<(&str, &str), Vec<&Goal>> = BTreeMap::new();
    for g in goals.goals.iter().filter(|g| g.class.as_str() == cf.name()) {
        by_method.entry((g.method_name.as_str(), g.method_descriptor.as_str())).or_default().push(g);
    }
    let mut out = BTreeMap::new();
    for ((name, descriptor), method_goals) in by_method {
        let found = cf
            .methods
            .iter()
            .enumerate()
            .find(|(_, m)| cf.member_name(m) == name && cf.member_descriptor(m) == descriptor);
        let Some((index, m)) = found else { continue };
        let Ok(method) = analyse(cf, index as u16, m, true)? else { continue };
        let normal = normally_reachable(&method.cfg);
        for g in method_goals {
            out.insert(g.id, facts_of(&method, &normal, g));
        }
    }
    Ok(out)
}

/// The blocks reached from the method's entry through normal edges only.
fn normally_reachable(cfg: &ControlFlowGraph) -> BTreeSet<BlockId> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![cfg.entry()];
    while let Some(n) = stack.pop() {
        for e in cfg.graph.edges(n).filter(|e| e.weight().is_normal()) {
            if let CfgNode::Block(b) = cfg.graph[e.target()]
                && seen.insert(b)
            {
                stack.push(e.target());
            }
        }
    }
    seen
}

fn facts_of(method: &MethodAnalysis<'_>, normal: &BTreeSet<BlockId>, goal: &Goal) -> GoalFacts {
    let exception_only = method.cfg.block_containing(goal.bci).is_some_and(|b| !normal.contains(&b));
    let decision = matches!(goal.kind, GoalKind::Branch { .. } | GoalKind::SwitchCase { .. });
    let (inputs, constant_condition) = match method.insns.iter().position(|i| i.bci == goal.bci) {
        Some(k) if decision => {
            let block = method.block_until(k);
            (condition_inputs(method, &block[..block.len() - 1]), is_constant_test(block))
        }
        _ => (ConditionInputs::default(), false),
    };
    GoalFacts { exception_only, inputs, constant_condition }
}

/// Whether the block ends in a one-operand `int` test (`ifeq`..`ifle`) of
/// a constant pushed right before it in the same block.
fn is_constant_test(block: &[Insn]) -> bool {
    let [.., push, test] = block else { return false };
    let constant = matches!(push.opcode, op::ICONST_M1..=op::ICONST_5 | op::BIPUSH | op::SIPUSH);
    constant && (op::IFEQ..=op::IFLE).contains(&test.opcode)
}

/// What the instructions `condition` read.
fn condition_inputs(method: &MethodAnalysis<'_>, condition: &[Insn]) -> ConditionInputs {
    let mut inputs = ConditionInputs::default();
    let push = |list: &mut Vec<String>, owner: &str, name: &str| {
        let text = format!("{}.{name}", InternalName::new(owner).to_binary());
        if !list.contains(&text) {
            list.push(text);
        }
    };
    for insn in condition {
        let Some(m) = member(method.ctx.cp, insn) else { continue };
        match insn.opcode {
            op::GETFIELD | op::GETSTATIC if !is_compiler_field(m.name) => push(&mut inputs.fields, m.owner, m.name),
            op::INVOKEVIRTUAL..=op::INVOKEINTERFACE if is_environment_api(m.owner, m.name, m.descriptor) => {
                push(&mut inputs.environment, m.owner, m.name);
            }
            op::INVOKEVIRTUAL | op::INVOKEINTERFACE if !is_value_call(m.owner, m.name, m.descriptor) => {
                push(&mut inputs.instance_calls, m.owner, m.name);
            }
            _ => {}
        }
    }
    inputs
}

/// javac's synthetic fields that conditions read: the assertion flag and
/// the switch maps of enum switches.
fn is_compiler_field(name: &str) -> bool {
    name == "$assertionsDisabled" || name.starts_with("$SwitchMap$")
}

/// Instance calls that compute from a value the search makes directly:
/// methods of `String` and the boxes, and an enum's `ordinal()`.
fn is_value_call(owner: &str, name: &str, descriptor: &str) -> bool {
    const VALUE_CLASSES: [&str; 9] = [
        "java/lang/String",
        "java/lang/Boolean",
        "java/lang/Byte",
        "java/lang/Short",
        "java/lang/Character",
        "java/lang/Integer",
        "java/lang/Long",
        "java/lang/Float",
        "java/lang/Double",
    ];
    VALUE_CLASSES.contains(&owner) || (name == "ordinal" && descriptor == "()I")
}

/// Whether a call of `owner.name` (internal name, method name, descriptor)
/// reads the environment: files, system properties and variables, the
/// clock, the network, threads, the runtime, random numbers (the list is
/// in the module documentation).
pub fn is_environment_api(owner: &str, name: &str, descriptor: &str) -> bool {
    match owner {
        "java/io/File"
        | "java/lang/Thread"
        | "java/lang/Runtime"
        | "java/util/Random"
        | "java/security/SecureRandom"
        | "java/util/SplittableRandom"
        | "java/util/concurrent/ThreadLocalRandom"
        | "java/time/Clock" => true,
        "java/lang/System" => {
            matches!(name, "getProperty" | "getProperties" | "getenv" | "currentTimeMillis" | "nanoTime")
        }
        "java/lang/Math" | "java/lang/StrictMath" => name == "random",
        "java/util/UUID" => name == "randomUUID",
        "java/util/Date" => name == "<init>" && descriptor == "()V",
        "java/util/Locale" | "java/util/TimeZone" => name == "getDefault",
        "java/nio/charset/Charset" => name == "defaultCharset",
        _ => {
            owner.starts_with("java/nio/file/")
                || owner.starts_with("java/net/")
                || (owner.starts_with("java/time/") && (name == "now" || name == "systemDefault"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::goals::class_goals;
    use crate::testutil::compile;

    const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/triage/src/triage/");

    /// The facts of the first goal of `method` whose key ends with `suffix`, in class `class`.
    fn fact<'a>(
        facts: &'a BTreeMap<GoalId, GoalFacts>,
        goals: &ClassGoals,
        method: &str,
        suffix: &str,
    ) -> &'a GoalFacts {
        let g = goals
            .goals
            .iter()
            .find(|g| g.method_name == method && g.key.ends_with(suffix))
            .unwrap_or_else(|| panic!("no goal {method} ..{suffix}"));
        &facts[&g.id]
    }

    fn fixture() -> BTreeMap<String, ClassFile> {
        let read = |f: &str| std::fs::read_to_string(format!("{FIXTURE}{f}")).unwrap();
        let (triage, handle) = (read("Triage.java"), read("Handle.java"));
        compile(&[("Triage.java", &triage), ("Handle.java", &handle)])
    }

    #[test]
    fn conditions_name_what_they_read() {
        let classes = fixture();
        let cf = &classes["triage/Triage"];
        let goals = class_goals(cf).unwrap();
        let facts = goal_facts(cf, &goals).unwrap();
        let clock = &fact(&facts, &goals, "clock", ":true").inputs;
        assert_eq!(clock.environment, ["java.lang.System.currentTimeMillis"]);
        let state = &fact(&facts, &goals, "state", ":true").inputs;
        assert_eq!(state.fields, ["triage.Triage.count"]);
        assert!(state.environment.is_empty() && state.instance_calls.is_empty());
        assert_eq!(fact(&facts, &goals, "withHandle", ":false").inputs.instance_calls, ["triage.Handle.ok"]);
        assert_eq!(fact(&facts, &goals, "magic", ":true").inputs, ConditionInputs::default());
        // `s.isEmpty()` computes from a string: not object state.
        assert!(!fact(&facts, &goals, "parse", ":true").inputs.reads_object_state());
        // Line and method goals have no condition.
        assert_eq!(fact(&facts, &goals, "state", "method:state(I)I").inputs, ConditionInputs::default());
    }

    #[test]
    fn only_handler_code_is_exception_only() {
        let classes = fixture();
        let cf = &classes["triage/Triage"];
        let goals = class_goals(cf).unwrap();
        let facts = goal_facts(cf, &goals).unwrap();
        let parse: Vec<(&str, bool)> = goals
            .goals
            .iter()
            .filter(|g| g.method_name == "parse")
            .map(|g| (g.key.as_str(), facts[&g.id].exception_only))
            .collect();
        // The method goal and the try line are normal code; the catch's
        // lines and the branch inside it are reached only through the handler.
        assert_eq!(parse.iter().filter(|(_, e)| !e).count(), 2, "{parse:?}");
        assert!(parse.iter().any(|(k, e)| k.ends_with(":true") && *e), "{parse:?}");
        assert!(facts.values().filter(|f| f.exception_only).count() >= 4);
    }

    #[test]
    fn goals_of_other_classes_are_skipped_and_appended_goals_are_found() {
        let classes = fixture();
        let mut goals = class_goals(&classes["triage/Triage"]).unwrap();
        let own = goals.goals.len();
        let nested = class_goals(&classes["triage/Triage$1"]).unwrap();
        goals.append(nested.clone());
        let facts = goal_facts(&classes["triage/Triage$1"], &goals).unwrap();
        assert_eq!(facts.len(), nested.goals.len());
        assert!(facts.keys().all(|id| id.0 as usize >= own));
        let has_next = goals.goals.iter().find(|g| g.method_name == "hasNext" && g.key.ends_with(":true")).unwrap();
        assert_eq!(
            facts[&has_next.id].inputs.fields,
            ["triage.Triage$1.next", "triage.Triage$1.this$0", "triage.Triage.count"]
        );
    }

    #[test]
    fn environment_apis_are_recognised() {
        assert!(is_environment_api("java/lang/System", "nanoTime", "()J"));
        assert!(is_environment_api(
            "java/nio/file/Files",
            "exists",
            "(Ljava/nio/file/Path;[Ljava/nio/file/LinkOption;)Z"
        ));
        assert!(is_environment_api("java/time/LocalDate", "now", "()Ljava/time/LocalDate;"));
        assert!(is_environment_api("java/util/Date", "<init>", "()V"));
        assert!(!is_environment_api("java/util/Date", "<init>", "(J)V"));
        assert!(!is_environment_api("java/time/LocalDate", "of", "(III)Ljava/time/LocalDate;"));
        assert!(is_environment_api("java/util/Locale", "getDefault", "()Ljava/util/Locale;"));
        assert!(is_environment_api("java/time/ZoneId", "systemDefault", "()Ljava/time/ZoneId;"));
        assert!(!is_environment_api("java/util/Locale", "getLanguage", "()Ljava/lang/String;"));
        assert!(!is_environment_api("java/lang/System", "arraycopy", "(Ljava/lang/Object;ILjava/lang/Object;II)V"));
    }
}
