//! Model-guided test generation (Palus §3.3, TECHNIQUES.md §4 step 3).
//!
//! A [`Guide`] makes tests from the call-sequence models: it either starts
//! a new sequence at a model root (the call that makes an object, then a
//! walk along the model's edges) or extends a test it made before that ran
//! without an exception (feedback-directed: [`Guide::feedback`]) from the
//! model state one of its objects reached. Each argument of a model call is
//! chosen as Palus orders it:
//! 1. a recorded value (primitives, strings, enum constants, `null`),
//! 2. else an object in the state the dependence edge names (one of the
//!    test, or made by walking that class's model to the state),
//! 3. else from the abstract profile (a collection or array of the
//!    recorded size),
//! 4. else any value of the type, as random tests make them.
//!
//! After a model call of a method of the class under test, a method that
//! depends on it is called on the same object with probability
//! [`P_DEPENDENT`], drawn by the tf-idf relevance of
//! [`analysis::method_dependence`] (Palus §3.2).

use std::collections::HashMap;
use std::sync::Arc;

use analysis::method_dependence::MethodDependence;
use model::descriptor::{BaseType, FieldType};
use model::names::BinaryName;
use model::signature::JavaType;
use rand::Rng;
use rand::seq::IndexedRandom;
use testcase::cluster::{Callable, Generator, TestCluster};
use testcase::ir::{Primitive, StatementKind, TestCase, VarId};
use testcase::operators::TemplateBuilder;
use testcase::seeds::Seeds;

use crate::events::Value;
use crate::infer::{ArgumentRecord, ClassModel, Dependence, MethodKey, ModelEdge, Models};

/// Probability of extending a pooled test rather than starting a new one.
const P_EXTEND: f64 = 0.5;
/// Probability of using a recorded value when the edge has some.
const P_RECORDED: f64 = 0.9;
/// Probability of calling a dependent method after a model call of the CUT.
pub const P_DEPENDENT: f64 = 0.3;
/// The most model calls a new sequence walks after the object is made.
const MAX_WALK: usize = 6;
/// How deep objects needed for arguments are made through their own models.
const MAX_NESTING: u32 = 2;
/// Tests kept for extension at most.
const POOL: usize = 200;
/// Tests handed out and awaiting feedback at most.
const PENDING: usize = 256;

/// A test the guide made, with the model state of its objects.
#[derive(Debug, Clone)]
struct Tracked {
    test: TestCase,
    objects: Vec<(VarId, String, usize)>,
}

/// Makes model-guided tests (see the module docs).
pub struct Guide {
    models: Arc<Models>,
    cut: String,
    dependence: Option<MethodDependence>,
    callables: HashMap<MethodKey, Option<Callable>>,
    pool: Vec<Tracked>,
    pending: Vec<Tracked>,
    made: u64,
}

impl Guide {
    /// A guide over `models` for the class under test `cut`, with the
    /// static method dependence of its methods when known.
    pub fn new(models: Arc<Models>, cut: &BinaryName, dependence: Option<MethodDependence>) -> Guide {
        Guide {
            models,
            cut: cut.to_string(),
            dependence,
            callables: HashMap::new(),
            pool: Vec::new(),
            pending: Vec::new(),
            made: 0,
        }
    }

    /// Whether a model could guide anything: some model has an edge.
    pub fn has_models(&self) -> bool {
        self.models.classes.values().any(|m| !m.edges.is_empty())
    }

    /// Tests made so far.
    pub fn made(&self) -> u64 {
        self.made
    }

    /// A model-guided test, or `None` when no model call fits the cluster.
    pub fn next<R: Rng>(&mut self, cluster: &TestCluster, seeds: &Seeds, rng: &mut R) -> Option<TestCase> {
        let tracked = if !self.pool.is_empty() && rng.random_bool(P_EXTEND) {
            let base = self.pool.choose(rng).expect("not empty").clone();
            self.extend(base, cluster, seeds, rng).or_else(|| self.start(cluster, seeds, rng))
        } else {
            self.start(cluster, seeds, rng)
        }?;
        self.made += 1;
        if self.pending.len() >= PENDING {
            self.pending.remove(0);
        }
        let test = tracked.test.clone();
        self.pending.push(tracked);
        Some(test)
    }

    /// What executing a test of [`Guide::next`] showed: a test that ran
    /// without an exception joins the pool of tests to extend.
    pub fn feedback(&mut self, test: &TestCase, clean: bool) {
        let Some(i) = self.pending.iter().position(|t| t.test.statements == test.statements) else { return };
        let tracked = self.pending.swap_remove(i);
        if clean {
            if self.pool.len() >= POOL {
                self.pool.swap_remove(0);
            }
            self.pool.push(tracked);
        }
    }

    /// A new sequence: the CUT's model half the time (when it has one), else
    /// any model the cluster can start (a root edge it can call); the
    /// object is made at a root edge and walked.
    fn start<R: Rng>(&mut self, cluster: &TestCluster, seeds: &Seeds, rng: &mut R) -> Option<Tracked> {
        let models = Arc::clone(&self.models);
        let usable: Vec<&ClassModel> = models
            .classes
            .values()
            .filter(|m| m.edges_from(0).any(|e| self.callable_in(cluster, &e.method).is_some()))
            .collect();
        let model = match usable.iter().find(|m| m.class == self.cut) {
            Some(m) if rng.random_bool(0.5) => m,
            _ => *usable.choose(rng)?,
        };
        let mut b = TemplateBuilder::new(cluster, seeds, rng);
        let mut objects = Vec::new();
        let (var, node) = self.make_object(&mut b, &mut objects, model, None, 0)?;
        let steps = b.random_unit() * MAX_WALK as f64;
        self.walk(&mut b, &mut objects, model, var, node, steps as usize + 1);
        Some(Tracked { test: b.finish(), objects })
    }

    /// Extends a pooled test from the state of one of its objects.
    fn extend<R: Rng>(&mut self, base: Tracked, cluster: &TestCluster, seeds: &Seeds, rng: &mut R) -> Option<Tracked> {
        let models = Arc::clone(&self.models);
        let movable: Vec<&(VarId, String, usize)> = base
            .objects
            .iter()
            .filter(|(_, class, node)| models.classes.get(class).is_some_and(|m| m.edges_from(*node).next().is_some()))
            .collect();
        let &(var, ref class, node) = *movable.choose(rng)?;
        let model = &models.classes[class];
        let mut objects = base.objects.clone();
        let mut b = TemplateBuilder::from_test(cluster, seeds, rng, base.test);
        let before = b.len();
        let steps = 1 + (b.random_unit() * 2.0) as usize;
        self.walk(&mut b, &mut objects, model, var, node, steps);
        (b.len() > before).then(|| Tracked { test: b.finish(), objects })
    }

    /// Up to `steps` model calls on `var` from state `node`.
    fn walk<R: Rng>(
        &mut self,
        b: &mut TemplateBuilder<'_, R>,
        objects: &mut Vec<(VarId, String, usize)>,
        model: &ClassModel,
        var: VarId,
        mut node: usize,
        steps: usize,
    ) {
        for _ in 0..steps {
            let edges: Vec<&ModelEdge> = model.edges_from(node).collect();
            let Some(&edge) = edges.get((b.random_unit() * edges.len() as f64) as usize) else { return };
            if self.apply(b, objects, edge, Some(var), 0).is_none() {
                return;
            }
            node = edge.to;
            set_state(objects, var, &model.class, node);
            self.dependent_call(b, &edge.method, var);
        }
    }

    /// Makes an object of `model`'s class at a root edge (the receiver of
    /// a making instance method in one of the states `maker` lists);
    /// returns it and its state.
    fn make_object<R: Rng>(
        &mut self,
        b: &mut TemplateBuilder<'_, R>,
        objects: &mut Vec<(VarId, String, usize)>,
        model: &ClassModel,
        target: Option<usize>,
        nesting: u32,
    ) -> Option<(VarId, usize)> {
        let cluster = b.cluster();
        let roots: Vec<&ModelEdge> =
            model.edges_from(0).filter(|e| self.callable_in(cluster, &e.method).is_some()).collect();
        let path = match target {
            Some(node) => path_to(model, node)?,
            None => vec![*roots.get((b.random_unit() * roots.len() as f64) as usize)?],
        };
        let var = self.apply(b, objects, path[0], None, nesting)?;
        set_state(objects, var, &model.class, path[0].to);
        for edge in &path[1..] {
            self.apply(b, objects, edge, Some(var), nesting)?;
            set_state(objects, var, &model.class, edge.to);
        }
        Some((var, path.last().expect("not empty").to))
    }

    /// Appends the call of `edge` on `on` (`None`: the edge makes the
    /// object); returns the object the call is about (`on`, or the new one).
    fn apply<R: Rng>(
        &mut self,
        b: &mut TemplateBuilder<'_, R>,
        objects: &mut Vec<(VarId, String, usize)>,
        edge: &ModelEdge,
        on: Option<VarId>,
        nesting: u32,
    ) -> Option<VarId> {
        let callable = self.callable(b, &edge.method)?;
        let receiver = match (on, callable.receiver()) {
            (Some(v), Some(_)) => Some(v),
            (None, Some(_)) => self.state_object(b, objects, &edge.receiver, nesting),
            (_, None) => None,
        };
        let params = callable.params().to_vec();
        let mut args = Vec::with_capacity(params.len());
        for (j, param) in params.iter().enumerate() {
            let record = edge.args.get(j).cloned().unwrap_or_default();
            args.push(self.argument(b, objects, &record, param, nesting));
        }
        let result = b.call(&callable, receiver, &args)?;
        Some(on.unwrap_or(result))
    }

    /// An argument as Palus chooses it (see the module docs); `None`
    /// leaves it to the builder (any value of the type).
    fn argument<R: Rng>(
        &mut self,
        b: &mut TemplateBuilder<'_, R>,
        objects: &mut Vec<(VarId, String, usize)>,
        record: &ArgumentRecord,
        param: &JavaType,
        nesting: u32,
    ) -> Option<VarId> {
        let erased = param.erasure()?;
        if !record.values.is_empty() && b.random_unit() < P_RECORDED {
            let v = &record.values[(b.random_unit() * record.values.len() as f64) as usize];
            if let Some(kind) = literal_kind(v, &erased) {
                return b.literal(kind);
            }
        }
        if !record.dependences.is_empty() {
            return self.state_object(b, objects, &record.dependences, nesting);
        }
        let size = record.profiles.iter().find_map(|p| p.strip_prefix("size=")?.parse::<u32>().ok());
        size.and_then(|n| b.sized(param, n))
    }

    /// An object in one of the `states`: one of the test's, else made
    /// through its class's model (at most [`MAX_NESTING`] deep); `None`
    /// without states (the builder then makes any object of the type).
    fn state_object<R: Rng>(
        &mut self,
        b: &mut TemplateBuilder<'_, R>,
        objects: &mut Vec<(VarId, String, usize)>,
        states: &[Dependence],
        nesting: u32,
    ) -> Option<VarId> {
        let have: Vec<VarId> = objects
            .iter()
            .filter(|(_, c, n)| states.iter().any(|d| d.class == *c && d.node == *n))
            .map(|(v, _, _)| *v)
            .collect();
        if let Some(&v) = have.get((b.random_unit() * have.len() as f64) as usize) {
            return Some(v);
        }
        if nesting >= MAX_NESTING || states.is_empty() {
            return None;
        }
        let d = &states[(b.random_unit() * states.len() as f64) as usize];
        let models = Arc::clone(&self.models);
        let model = models.classes.get(&d.class)?;
        self.make_object(b, objects, model, Some(d.node), nesting + 1).map(|(v, _)| v)
    }

    /// With probability [`P_DEPENDENT`], after a call of CUT method
    /// `called` on `var`, a call of a method that depends on it, drawn by
    /// relevance.
    fn dependent_call<R: Rng>(&mut self, b: &mut TemplateBuilder<'_, R>, called: &MethodKey, var: VarId) {
        if called.class != self.cut || b.random_unit() >= P_DEPENDENT {
            return;
        }
        let Some(dep) = &self.dependence else { return };
        let Some(j) = dep.methods.iter().position(|m| m.name == called.name && m.descriptor == called.descriptor)
        else {
            return;
        };
        let candidates = dep.dependents_of(j);
        let total: f64 = candidates.iter().map(|(_, w)| w).sum();
        let mut draw = b.random_unit() * total;
        let Some(&(k, _)) = candidates.iter().find(|(_, w)| {
            draw -= w;
            draw < 0.0
        }) else {
            return;
        };
        let m = &dep.methods[k];
        let key = MethodKey {
            class: self.cut.clone(),
            name: m.name.clone(),
            descriptor: m.descriptor.clone(),
            is_static: false,
        };
        if let Some(callable) = self.callable(b, &key).filter(|c| c.receiver().is_some()) {
            b.call(&callable, Some(var), &[]);
        }
    }

    /// The cluster's callable for a recorded method (cached).
    fn callable<R: Rng>(&mut self, b: &TemplateBuilder<'_, R>, key: &MethodKey) -> Option<Callable> {
        self.callable_in(b.cluster(), key)
    }

    fn callable_in(&mut self, cluster: &TestCluster, key: &MethodKey) -> Option<Callable> {
        self.callables.entry(key.clone()).or_insert_with(|| find_callable(cluster, key)).clone()
    }
}

/// The callable of `cluster` that calls `key`: a call under test, a
/// modifier of its class, or a generator of some type.
pub fn find_callable(cluster: &TestCluster, key: &MethodKey) -> Option<Callable> {
    let same = |c: &&Callable| {
        c.method().is_some_and(|m| m.name == key.name && m.descriptor.to_descriptor() == key.descriptor)
            && c.method().is_some_and(|m| m.owner.as_str() == key.class || key.class == cluster.cut().as_str())
    };
    let generated = cluster.generated_types().flat_map(|t| cluster.generators(t)).filter_map(|g| match g {
        Generator::Call(c) => Some(c),
        Generator::Subtype(_) => None,
    });
    cluster.calls_under_test().iter().chain(cluster.modifiers(&key.class)).chain(generated).find(same).cloned()
}

/// The shortest path of edges from the root to `node` (breadth first).
fn path_to(model: &ClassModel, node: usize) -> Option<Vec<&ModelEdge>> {
    let mut via: Vec<Option<&ModelEdge>> = vec![None; model.nodes];
    let mut seen = vec![false; model.nodes];
    let mut queue = std::collections::VecDeque::from([0]);
    seen[0] = true;
    while let Some(n) = queue.pop_front() {
        if n == node && n != 0 {
            break;
        }
        for e in model.edges_from(n) {
            if !seen[e.to] {
                seen[e.to] = true;
                via[e.to] = Some(e);
                queue.push_back(e.to);
            }
        }
    }
    let mut path = Vec::new();
    let mut n = node;
    while n != 0 {
        let e = via[n]?;
        path.push(e);
        n = e.from;
    }
    path.reverse();
    (!path.is_empty()).then_some(path)
}

fn set_state(objects: &mut Vec<(VarId, String, usize)>, var: VarId, class: &str, node: usize) {
    match objects.iter_mut().find(|(v, _, _)| *v == var) {
        Some(entry) => entry.2 = node,
        None => objects.push((var, class.to_string(), node)),
    }
}

/// The literal statement of a recorded value for a parameter of type
/// `param`, when it fits.
pub fn literal_kind(v: &Value, param: &FieldType) -> Option<StatementKind> {
    let string_like = |t: &FieldType| matches!(t, FieldType::Object(n) if matches!(n.as_str(), "java/lang/String" | "java/lang/Object" | "java/lang/CharSequence"));
    match (v, param) {
        (Value::Null, t) if t.is_reference() => Some(StatementKind::Null(t.clone())),
        (Value::Str(s), t) if string_like(t) => Some(StatementKind::String(s.clone())),
        (Value::Enum(class, name), FieldType::Object(_)) => {
            Some(StatementKind::EnumConstant { class: BinaryName::new(class.clone()), name: name.clone() })
        }
        (Value::Primitive(_, text), FieldType::Base(base)) => primitive(*base, text).map(StatementKind::Primitive),
        (Value::Primitive(_, text), FieldType::Object(n)) => {
            let base = match n.as_str() {
                "java/lang/Integer" => BaseType::Int,
                "java/lang/Long" => BaseType::Long,
                "java/lang/Boolean" => BaseType::Boolean,
                "java/lang/Character" => BaseType::Char,
                "java/lang/Double" => BaseType::Double,
                "java/lang/Float" => BaseType::Float,
                "java/lang/Short" => BaseType::Short,
                "java/lang/Byte" => BaseType::Byte,
                _ => return None,
            };
            primitive(base, text).map(StatementKind::Boxed)
        }
        _ => None,
    }
}

/// A recorded primitive (as Java printed it) as a value of type `base`.
fn primitive(base: BaseType, text: &str) -> Option<Primitive> {
    Some(match base {
        BaseType::Boolean => Primitive::Boolean(text.parse().ok()?),
        BaseType::Byte => Primitive::Byte(text.parse().ok()?),
        BaseType::Short => Primitive::Short(text.parse().ok()?),
        BaseType::Char => Primitive::Char(text.parse().ok()?),
        BaseType::Int => Primitive::Int(text.parse().ok()?),
        BaseType::Long => Primitive::Long(text.parse().ok()?),
        BaseType::Float => Primitive::Float(java_float(text)? as f32),
        BaseType::Double => Primitive::Double(java_float(text)?),
    })
}

/// Java's `Double.toString` spelling (`NaN`, `Infinity`, `1.0E10`) as a number.
fn java_float(text: &str) -> Option<f64> {
    match text {
        "NaN" => Some(f64::NAN),
        "Infinity" => Some(f64::INFINITY),
        "-Infinity" => Some(f64::NEG_INFINITY),
        t => t.parse().ok(),
    }
}
