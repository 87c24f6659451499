//! The API exception knowledge graph: the declaration graph (modules,
//! packages, classes with supertypes, methods with JVM descriptors and
//! parameters) with the triggers of each method's `@throws` and `@return`
//! clauses aligned to it (KAT, Ren et al., ESEC/FSE 2023, section 3.1).

use std::collections::HashMap;

use model::names::InternalName;
use serde::{Deserialize, Serialize};

use crate::cond::Cond;
use crate::declare::{ClassKind, Visibility};

/// The shipped JDK 17 graph file.
static SHIPPED: &[u8] = include_bytes!("../data/jdk17.kg");

/// The whole graph. Built by [`crate::build`], stored by [`crate::store`].
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct KnowledgeGraph {
    /// Where it was built from: the number of compilation units, modules
    /// and a fingerprint of their text (see [`crate::build::fingerprint`]).
    pub source: String,
    /// Classes sorted by internal name.
    pub classes: Vec<ClassDecl>,
    #[serde(skip)]
    index: HashMap<InternalName, usize>,
}

/// A class, interface, enum or record of the JDK.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ClassDecl {
    /// Module, e.g. `java.base`.
    pub module: String,
    /// JVM internal name, e.g. `java/util/Map$Entry`.
    pub name: InternalName,
    /// What it declares.
    pub kind: ClassKind,
    /// Part of the public API (public, and enclosing classes public).
    pub exported: bool,
    /// Direct supertypes, internal names: the superclass first (when there
    /// is one besides `Object`), then the interfaces in declaration order.
    pub supertypes: Vec<InternalName>,
    /// Public and protected methods and constructors.
    pub methods: Vec<MethodDecl>,
}

/// A method or constructor.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MethodDecl {
    /// Name; `<init>` for constructors.
    pub name: String,
    /// JVM descriptor of the erased signature, e.g. `(I)C`.
    pub descriptor: String,
    /// Declared `static`.
    pub is_static: bool,
    /// Public or protected.
    pub visibility: Visibility,
    /// Parameter names in order (empty when the method has no clauses).
    pub params: Vec<String>,
    /// Parameter types as erased Java names (`int`, `java.lang.String`,
    /// `java.lang.Object[]`), in order (empty when it has no clauses).
    pub param_types: Vec<String>,
    /// Exceptions of the `throws` clause, internal names (the name as
    /// written when it could not be resolved).
    pub declared_exceptions: Vec<InternalName>,
    /// The first sentence of the description (normalised; empty when the
    /// method has no clauses).
    pub summary: String,
    /// Documented exception and return clauses with their triggers.
    pub clauses: Vec<Clause>,
}

/// What a clause documents.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    /// An `@throws`/`@exception` clause; the exception's internal name
    /// (the simple name as written when it could not be resolved).
    Throws(InternalName),
    /// A condition of the `@return` text; the value returned under it as
    /// written (`-1`, `null`, `true`).
    Returns(String),
}

/// How the triggers of one clause combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Joiner {
    /// Any trigger suffices.
    Or,
    /// All triggers must hold.
    And,
}

/// One documented clause: an exception or a return value with the
/// condition under which it happens, split into triggers.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Clause {
    /// The exception or return value documented.
    pub origin: Origin,
    /// The normalised sentence (code spans back-quoted).
    pub sentence: String,
    /// How [`Clause::triggers`] combine into the clause's condition.
    pub joiner: Joiner,
    /// The triggers, in the order of the sentence.
    pub triggers: Vec<Trigger>,
    /// Internal name of the class whose documentation this was inherited
    /// from (`{@inheritDoc}` or an undocumented override).
    pub inherited_from: Option<InternalName>,
}

impl Clause {
    /// The clause's condition: its triggers' conditions joined.
    pub fn condition(&self) -> Cond {
        Cond::join(self.triggers.iter().map(|t| t.condition.clone()).collect(), self.joiner == Joiner::And)
    }
}

/// The KAT trigger types (TECHNIQUES.md section 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum TriggerKind {
    /// T1: nullness prohibition (`... is null`).
    Nullness,
    /// T2: range limitation (`negative`, `less than`, `out of range`).
    Range,
    /// T3: call dependency (the state of another method, e.g. `hasNext()`).
    CallDependency,
    /// T4: any other restriction.
    Other,
}

impl TriggerKind {
    /// `T1` .. `T4`.
    pub fn code(self) -> &'static str {
        match self {
            TriggerKind::Nullness => "T1",
            TriggerKind::Range => "T2",
            TriggerKind::CallDependency => "T3",
            TriggerKind::Other => "T4",
        }
    }

    /// Parses `T1` .. `T4`.
    pub fn from_code(code: &str) -> Option<TriggerKind> {
        Some(match code {
            "T1" => TriggerKind::Nullness,
            "T2" => TriggerKind::Range,
            "T3" => TriggerKind::CallDependency,
            "T4" => TriggerKind::Other,
            _ => return None,
        })
    }
}

/// The sentence shape a triple was extracted from (KAT section 3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Shape {
    /// Subject-verb: "if the character does not occur".
    SV,
    /// Subject-verb-predicative: "beginIndex is negative".
    SVP,
    /// Subject-verb-object: "beginIndex is larger than endIndex".
    SVO,
}

/// A (subject, relation, object) triple.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Triple {
    /// The subject phrase (`the index argument`).
    pub subject: String,
    /// The verb with its negation and comparative (`is not less than`).
    pub relation: String,
    /// Empty for [`Shape::SV`].
    pub object: String,
    /// The sentence shape.
    pub shape: Shape,
}

/// What a mention in a trigger was linked to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Entity {
    /// A parameter of the documented method.
    Param(String),
    /// The receiver (`this string`, `this list`).
    Receiver,
    /// A method of a class (internal name, method name).
    Method {
        /// The class's internal name; `None` for the documented class or the
        /// class of the linked value (stored as an empty string).
        #[serde(with = "context_class")]
        class: Option<InternalName>,
        /// The method name.
        name: String,
    },
}

/// An entity link with its knowledge confidence.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Link {
    /// The words linked, as they appear in the trigger.
    pub mention: String,
    /// What it was linked to.
    pub entity: Entity,
    /// 1.0 for a `{@link}`; otherwise the similarity score (0..=1).
    pub confidence: f32,
}

/// One trigger: a single condition of a clause.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Trigger {
    /// T1 .. T4.
    pub kind: TriggerKind,
    /// The trigger's own words after coreference resolution and splitting.
    pub text: String,
    /// The extracted triple, when the trigger has a verb.
    pub triple: Option<Triple>,
    /// The formal condition ([`Cond::Unknown`] when none was derived).
    pub condition: Cond,
    /// Entity links with their confidence.
    pub links: Vec<Link>,
    /// Knowledge confidence (0..=1): the lowest confidence of its links,
    /// 1.0 when the condition came from a code span, 0.5 when nothing was
    /// linked.
    pub confidence: f32,
}

/// A method's identity: owner class, name and descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MethodRef<'a> {
    /// Internal name of the class the call names (`java/util/ArrayList`).
    pub owner: &'a InternalName,
    /// The method name (`<init>` for constructors).
    pub name: &'a str,
    /// The JVM method descriptor, e.g. `(I)C`.
    pub descriptor: &'a str,
}

/// The stored form of [`Entity::Method`]'s class: a string, empty for
/// `None`, so that the graph's bytes stay those of the plain string.
mod context_class {
    use model::names::InternalName;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(class: &Option<InternalName>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(class.as_ref().map_or("", InternalName::as_str))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<InternalName>, D::Error> {
        let class = String::deserialize(d)?;
        Ok((!class.is_empty()).then(|| InternalName::new(class)))
    }
}

impl KnowledgeGraph {
    /// The shipped graph of the JDK 17 API (`crates/kat/data/jdk17.kg`,
    /// embedded in the binary).
    ///
    /// # Panics
    /// Never for a build whose shipped file passed the tests: the embedded
    /// bytes are checked by `tests/known_methods.rs`.
    pub fn jdk17() -> KnowledgeGraph {
        crate::store::from_bytes(SHIPPED).expect("the embedded JDK 17 knowledge graph is valid")
    }

    /// A graph of the given classes (sorted and indexed here).
    pub fn new(source: String, mut classes: Vec<ClassDecl>) -> KnowledgeGraph {
        classes.sort_by(|a, b| a.name.cmp(&b.name));
        let mut g = KnowledgeGraph { source, classes, index: HashMap::new() };
        g.reindex();
        g
    }

    /// Rebuilds the name index (after deserialising).
    pub(crate) fn reindex(&mut self) {
        self.index = self.classes.iter().enumerate().map(|(i, c)| (c.name.clone(), i)).collect();
    }

    /// A class by internal name.
    pub fn class(&self, internal_name: &str) -> Option<&ClassDecl> {
        self.index.get(internal_name).map(|&i| &self.classes[i])
    }

    /// The declaration a call resolves to, with the class declaring it:
    /// the method declared by `owner` or, as in JVM method resolution (JVMS
    /// 5.4.3.3), by the nearest class of its superclass chain, else by one
    /// of the interfaces of `owner` and its superclasses (breadth first, in
    /// declaration order). `None` when none declares it or the class is not
    /// in the graph.
    pub fn resolve(&self, m: MethodRef<'_>) -> Option<(&ClassDecl, &MethodDecl)> {
        self.lookup_order(m.owner.as_str())
            .into_iter()
            .find_map(|c| c.methods.iter().find(|d| d.name == m.name && d.descriptor == m.descriptor).map(|d| (c, d)))
    }

    /// The classes a method of `owner` is looked up in, in JVM method
    /// resolution order (JVMS 5.4.3.3): `owner` and its superclass chain,
    /// then the interfaces of those classes and their superinterfaces,
    /// breadth first in declaration order. Empty when `owner` is not in the
    /// graph.
    pub fn lookup_order(&self, owner: &str) -> Vec<&ClassDecl> {
        let mut order = Vec::new();
        let mut at = self.class(owner);
        while let Some(c) = at {
            order.push(c);
            at = self.superclass(c);
        }
        let mut queue: std::collections::VecDeque<&str> =
            order.iter().flat_map(|c| c.supertypes.iter().map(InternalName::as_str)).collect();
        let mut seen = std::collections::HashSet::new();
        while let Some(name) = queue.pop_front() {
            let Some(c) = self.class(name).filter(|c| c.kind == ClassKind::Interface && seen.insert(name)) else {
                continue;
            };
            order.push(c);
            queue.extend(c.supertypes.iter().map(InternalName::as_str));
        }
        order
    }

    /// The superclass of a class, when it is in the graph (the first
    /// supertype, if that is not an interface).
    pub fn superclass(&self, c: &ClassDecl) -> Option<&ClassDecl> {
        let first = self.class(c.supertypes.first()?.as_str())?;
        (c.kind != ClassKind::Interface && first.kind != ClassKind::Interface).then_some(first)
    }

    /// The documented clauses (with their triggers) of a call of
    /// `owner.name descriptor`, including those inherited from supertypes;
    /// empty when the method is unknown or documents none.
    pub fn clauses(&self, m: MethodRef<'_>) -> &[Clause] {
        self.resolve(m).map(|(_, d)| d.clauses.as_slice()).unwrap_or(&[])
    }

    /// Methods whose dotted name (`java.lang.String.charAt`) matches, with
    /// the classes declaring them; a class name alone gives its
    /// constructors (`java.util.ArrayList` or `java.util.ArrayList.<init>`).
    /// A method the class inherits is found in the first class of
    /// [`KnowledgeGraph::lookup_order`] that declares it (`java.lang.StringBuilder.charAt` gives
    /// `AbstractStringBuilder.charAt`). `/` and `$` may stand for `.`.
    pub fn find(&self, dotted: &str) -> Vec<(&ClassDecl, &MethodDecl)> {
        // Internal (`java/util/Map$Entry`) spellings are accepted too.
        let dotted = &dotted.replace(['/', '$'], ".");
        let candidates = [
            dotted.rsplit_once('.').map(|(c, m)| (c.to_string(), m.to_string())),
            Some((dotted.to_string(), "<init>".to_string())),
        ];
        for (class, method) in candidates.into_iter().flatten() {
            let Some(internal) = self.internal_name(&class) else { continue };
            // Constructors are not inherited.
            let order = if method == "<init>" {
                self.class(internal.as_str()).into_iter().collect()
            } else {
                self.lookup_order(internal.as_str())
            };
            for c in order {
                let found: Vec<_> = c.methods.iter().filter(|m| m.name == method).map(|m| (c, m)).collect();
                if !found.is_empty() {
                    return found;
                }
            }
        }
        Vec::new()
    }

    /// The internal name of a dotted class name (`java.util.Map.Entry` gives
    /// `java/util/Map$Entry`), if the class is in the graph.
    pub fn internal_name(&self, dotted: &str) -> Option<InternalName> {
        let parts: Vec<&str> = dotted.split('.').collect();
        (1..=parts.len()).rev().find_map(|pkg_len| {
            let name = format!("{}{}", parts[..pkg_len].join("/"), {
                let nested = parts[pkg_len..].join("$");
                if nested.is_empty() { String::new() } else { format!("${nested}") }
            });
            self.index.contains_key(name.as_str()).then(|| InternalName::new(name))
        })
    }
}
