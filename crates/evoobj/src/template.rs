//! Test templates from object construction graphs (Lin et al. ESEC/FSE
//! 2021, §3.2, Algorithm 1; TECHNIQUES.md §1 step 3).
//!
//! A breadth-first traversal of the OCG from its inputs: a node gets its
//! statement once all its parents have theirs (otherwise it is queued
//! again), and a node that has one is reused. The template first makes the
//! inputs (the receiver and the parameters of the method under test: new
//! objects from the cluster, arrays long enough for the elements read,
//! random literals for primitives), then per node:
//!
//! - a *leaf field* (nothing read from it) gets a setter call: a public
//!   method of its owner that writes it, sampled by score
//!   ([`analysis::callgraph`]), with random arguments (mutation slots);
//! - an *inner field* whose elements are read (an array, or a JDK
//!   container read with `get` and friends) gets an element writer
//!   (`join(seat, p)`, `enlist(m)`) called with a new object that stands
//!   for the elements read;
//! - another *inner field* gets a new object passed to a setter that
//!   stores its argument (so the objects read from it exist), else a
//!   getter call;
//! - an *array element* of an array the template made is stored at its
//!   constant index (else a random one);
//! - a *call* is made on its receiver's value when the test may call it.
//!
//! The template ends with the call of the method under test on those
//! inputs. Nodes whose statement cannot be made are skipped with what
//! depends on them; the search mutates the rest.

use std::collections::{BTreeMap, HashMap, VecDeque};

use analysis::callgraph::{Accessor, Accessors, FieldKey, WriteKind};
use analysis::ocg::{Ocg, OcgEdge, OcgNode, is_jdk_class};
use model::classpath::ClassPath;
use model::descriptor::FieldType;
use model::signature::JavaType;
use petgraph::graph::NodeIndex;
use rand::Rng;
use testcase::cluster::{Callable, TestCluster};
use testcase::ir::{TestCase, VarId};
use testcase::operators::TemplateBuilder;
use testcase::seeds::Seeds;

/// Arrays a template makes for an input hold at least this many elements.
const MIN_ARRAY_LENGTH: u32 = 4;
/// Times a node waits in the queue for its parents before it is skipped.
const REQUEUES: usize = 8;

/// What syntheses of one class under test share: setters and getters
/// found so far, by (class, field, getter?), and the instance methods of
/// classes the cluster has no modifiers for, by binary name.
#[derive(Default)]
pub struct Caches {
    accessors: HashMap<(String, FieldKey, bool), Vec<Accessor>>,
    methods: HashMap<String, Vec<Callable>>,
    constructors: HashMap<String, Vec<Callable>>,
}

/// The class path, test cluster and seeds a synthesis builds from.
#[derive(Clone, Copy)]
pub struct Inputs<'s> {
    /// The class path (for methods of classes outside the cluster).
    pub cp: &'s ClassPath,
    /// The calls and generators of the class under test.
    pub cluster: &'s TestCluster,
    /// Constants for literals.
    pub seeds: &'s Seeds,
}

/// Everything a synthesis reads and the template it builds.
struct Synthesis<'s, 'c, R: Rng + ?Sized> {
    cp: &'s ClassPath,
    cluster: &'s TestCluster,
    accessors: &'s mut Accessors<'c>,
    cache: &'s mut Caches,
    builder: TemplateBuilder<'s, R>,
}

/// Builds the template of `ocg` for `target` (a call under test of the
/// cluster); `None` when the template cannot call it.
pub fn synthesise<'s, 'c, R: Rng + ?Sized>(
    ocg: &Ocg,
    target: &Callable,
    inputs: Inputs<'s>,
    accessors: &'s mut Accessors<'c>,
    cache: &'s mut Caches,
    rng: &'s mut R,
) -> Option<TestCase> {
    let builder = TemplateBuilder::new(inputs.cluster, inputs.seeds, rng).with_fresh_literals();
    let mut s = Synthesis { cp: inputs.cp, cluster: inputs.cluster, accessors, cache, builder };
    let mut vars: HashMap<NodeIndex, Option<VarId>> = HashMap::new();
    let mut elements: HashMap<NodeIndex, VarId> = HashMap::new();
    let inputs = s.inputs(ocg, target, &mut vars);
    let mut queue: VecDeque<(NodeIndex, usize)> = ocg.roots().into_iter().map(|n| (n, 0)).collect();
    while let Some((n, waited)) = queue.pop_front() {
        if vars.contains_key(&n) && !ocg.roots().contains(&n) {
            continue;
        }
        let parents = ocg.parents(n);
        if !matches!(ocg.graph[n], OcgNode::Input { .. }) {
            if parents.iter().any(|(p, _)| !vars.contains_key(p)) {
                if waited < REQUEUES {
                    queue.push_back((n, waited + 1));
                }
                continue;
            }
            let var = match elements.get(&n) {
                Some(v) => Some(*v),
                None => s.node(ocg, n, &parents, &vars, &mut elements),
            };
            if var.is_none() {
                tracing::debug!("evoobj: no statement for {:?}", ocg.graph[n]);
            }
            vars.insert(n, var);
        }
        queue.extend(ocg.children(n).into_iter().map(|c| (c, 0)));
    }
    let receiver = inputs.get(&None).copied().flatten();
    let args: Vec<Option<VarId>> =
        (0..target.params().len()).map(|i| inputs.get(&Some(i as u16)).copied().flatten()).collect();
    s.builder.call(target, receiver.filter(|_| target.receiver().is_some()), &args)?;
    Some(s.builder.finish())
}

impl<R: Rng + ?Sized> Synthesis<'_, '_, R> {
    /// Makes the receiver and the parameters the OCG reads from; by
    /// parameter position (`None` for the receiver).
    fn inputs(
        &mut self,
        ocg: &Ocg,
        target: &Callable,
        vars: &mut HashMap<NodeIndex, Option<VarId>>,
    ) -> BTreeMap<Option<u16>, Option<VarId>> {
        let mut out = BTreeMap::new();
        if let Some(receiver) = target.receiver() {
            out.insert(None, self.make(&JavaType::from(receiver)));
        }
        for n in ocg.graph.node_indices() {
            let OcgNode::Input { param, .. } = &ocg.graph[n] else { continue };
            if let Some(p) = param {
                let ty = target.params().get(usize::from(*p)).cloned();
                let var = ty.and_then(|ty| self.input(ocg, n, &ty));
                out.insert(Some(*p), var);
            }
            vars.insert(n, out.get(param).copied().flatten());
        }
        out
    }

    /// A parameter value: an array long enough for the elements read; 0
    /// for an `int` that indexes a JDK list (`list.get(i)`: the template
    /// adds one element, at 0); a random index below [`MIN_ARRAY_LENGTH`]
    /// for an `int` that indexes an array (a random literal would rarely
    /// be inside the array, and the element writer the template calls
    /// with it would store nothing); else a new value.
    fn input(&mut self, ocg: &Ocg, n: NodeIndex, ty: &JavaType) -> Option<VarId> {
        let erased = ty.erasure()?;
        let is_int = erased == FieldType::Base(model::descriptor::BaseType::Int);
        let indexes_a_list = ocg.children(n).iter().any(|c| {
            matches!(&ocg.graph[*c], OcgNode::Call { owner, descriptor, .. } if is_jdk_class(owner) && descriptor.starts_with("(I)"))
        });
        if is_int && indexes_a_list {
            return Some(self.builder.int(0));
        }
        let indexes_an_array =
            ocg.graph.edges_directed(n, petgraph::Direction::Outgoing).any(|e| *e.weight() == OcgEdge::Index);
        if is_int && indexes_an_array {
            let index = self.builder_rng_index(MIN_ARRAY_LENGTH as usize) as i32;
            return Some(self.builder.int(index));
        }
        if let FieldType::Array(elem) = &erased {
            let longest = ocg
                .children(n)
                .iter()
                .filter_map(|c| match ocg.graph[*c] {
                    OcgNode::ArrayElement { index: Some(i) } => u32::try_from(i).ok().map(|i| i + 1),
                    _ => None,
                })
                .max()
                .unwrap_or(0);
            return Some(self.builder.array(elem, longest.max(MIN_ARRAY_LENGTH)));
        }
        self.make(ty)
    }

    /// The statement of one non-input node; its value (the owner's, for a
    /// leaf field set in place).
    fn node(
        &mut self,
        ocg: &Ocg,
        n: NodeIndex,
        parents: &[(NodeIndex, OcgEdge)],
        vars: &HashMap<NodeIndex, Option<VarId>>,
        elements: &mut HashMap<NodeIndex, VarId>,
    ) -> Option<VarId> {
        let owner = parents.iter().find(|(_, e)| *e == OcgEdge::Owner).and_then(|(p, _)| vars[p]);
        match &ocg.graph[n] {
            OcgNode::Input { .. } => None,
            OcgNode::Field { name, descriptor, .. } => {
                let field = FieldKey { name: name.clone(), descriptor: descriptor.clone() };
                let owner = owner?;
                let children = ocg.children(n);
                if children.is_empty() {
                    self.set_leaf(owner, &field).then_some(owner)
                } else if children.iter().any(|c| is_element_read(&ocg.graph[*c])) {
                    let reads: Vec<NodeIndex> =
                        children.iter().copied().filter(|c| is_element_read(&ocg.graph[*c])).collect();
                    let keys = key_vars(ocg, &reads, vars);
                    let wanted = element_class(ocg, &reads);
                    let element = self.add_element(owner, &field, wanted.as_deref(), &keys)?;
                    children.iter().filter(|c| is_element_read(&ocg.graph[**c])).for_each(|c| {
                        elements.insert(*c, element);
                    });
                    Some(owner)
                } else {
                    self.inner_object(owner, &field)
                }
            }
            OcgNode::ArrayElement { index } => self.array_element(owner?, *index),
            OcgNode::Call { name, descriptor, .. } => {
                let args: BTreeMap<u8, VarId> = parents
                    .iter()
                    .filter_map(|(p, e)| match e {
                        OcgEdge::Arg(i) => vars[p].map(|v| (*i, v)),
                        _ => None,
                    })
                    .collect();
                self.call_node(owner, name, descriptor, &args)
            }
        }
    }

    /// The calls a test can make on a value of class `binary`: the
    /// cluster's modifiers, else the class's accessible instance methods.
    fn callables(&mut self, binary: &str) -> Vec<Callable> {
        let modifiers = self.cluster.modifiers(binary);
        if !modifiers.is_empty() {
            return modifiers.to_vec();
        }
        let (cp, cluster) = (self.cp, self.cluster);
        self.cache
            .methods
            .entry(binary.to_string())
            .or_insert_with(|| {
                testcase::cluster::instance_methods(cp, cluster.cut().as_str(), cluster.options(), binary)
            })
            .clone()
    }

    /// A new value of type `ty` as random tests make it, else (for an
    /// application class the cluster cannot make) from one of its constructors.
    fn make(&mut self, ty: &JavaType) -> Option<VarId> {
        if let Some(v) = self.builder.make(ty) {
            return Some(v);
        }
        let Some(FieldType::Object(class)) = ty.erasure() else { return None };
        let binary = class.to_binary().to_string();
        let (cp, cluster) = (self.cp, self.cluster);
        let constructors = self
            .cache
            .constructors
            .entry(binary.clone())
            .or_insert_with(|| testcase::cluster::constructors(cp, cluster.cut().as_str(), cluster.options(), &binary))
            .clone();
        if constructors.is_empty() {
            return None;
        }
        let k = self.builder_rng_index(constructors.len());
        self.builder.call(&constructors[k], None, &[])
    }

    /// The public methods a value of class `var`'s type can be called with: (name, descriptor).
    fn methods_of(&mut self, var: VarId) -> (String, Vec<(String, String)>) {
        let class = match self.builder.type_of(var) {
            FieldType::Object(name) => name,
            _ => return (String::new(), Vec::new()),
        };
        let methods = self
            .callables(class.to_binary().as_str())
            .iter()
            .filter_map(Callable::method)
            .map(|m| (m.name.clone(), m.descriptor.to_descriptor()))
            .collect();
        (class.as_str().to_string(), methods)
    }

    /// The call `name descriptor` on a value of `var`'s type.
    fn modifier(&mut self, var: VarId, name: &str, descriptor: &str) -> Option<Callable> {
        let FieldType::Object(class) = self.builder.type_of(var) else { return None };
        self.callables(class.to_binary().as_str())
            .into_iter()
            .find(|c| c.method().is_some_and(|m| m.name == name && m.descriptor.to_descriptor() == descriptor))
    }

    fn accessors_of(&mut self, var: VarId, field: &FieldKey, getters: bool) -> Vec<Accessor> {
        let (class, methods) = self.methods_of(var);
        let key = (class.clone(), field.clone(), getters);
        if let Some(found) = self.cache.accessors.get(&key) {
            return found.clone();
        }
        let found = if getters {
            self.accessors.getters(&class, &methods, field)
        } else {
            self.accessors.writers(&class, &methods, field)
        };
        self.cache.accessors.insert(key, found.clone());
        found
    }

    /// Samples an accessor proportionally to its score (uniformly when all score 0).
    fn sample<'x>(&mut self, found: &'x [Accessor]) -> Option<&'x Accessor> {
        let total: f64 = found.iter().map(|a| a.score).sum();
        if found.is_empty() {
            return None;
        }
        if total <= 0.0 {
            return found.get(self.builder_rng_index(found.len()));
        }
        let mut pick = self.builder_rng_unit() * total;
        for a in found {
            pick -= a.score;
            if pick <= 0.0 {
                return Some(a);
            }
        }
        found.last()
    }

    fn builder_rng_index(&mut self, n: usize) -> usize {
        (self.builder_rng_unit() * n as f64) as usize % n.max(1)
    }

    fn builder_rng_unit(&mut self) -> f64 {
        self.builder.random_unit()
    }

    /// A setter call for a leaf field (an element writer gets a new
    /// element, so that the container is not empty); whether one was made.
    fn set_leaf(&mut self, owner: VarId, field: &FieldKey) -> bool {
        let found = self.accessors_of(owner, field, false);
        let Some(chosen) = self.sample(&found).cloned() else { return false };
        if chosen.kind == WriteKind::Element {
            return self.call_with_new(owner, std::slice::from_ref(&chosen), None, &[]).is_some();
        }
        let Some(callable) = self.modifier(owner, &chosen.name, &chosen.descriptor) else { return false };
        self.builder.call(&callable, Some(owner), &[]).is_some()
    }

    /// An element writer called with a new object of class `wanted` (when
    /// known) and, in its other parameters, the keys or indices the reads
    /// use where their types fit; that object.
    fn add_element(&mut self, owner: VarId, field: &FieldKey, wanted: Option<&str>, keys: &[VarId]) -> Option<VarId> {
        let found: Vec<Accessor> =
            self.accessors_of(owner, field, false).into_iter().filter(|a| a.kind == WriteKind::Element).collect();
        self.call_with_new(owner, &found, wanted, keys)
    }

    /// Calls a sampled accessor of `found` with a new object in the
    /// parameter that flows into the write and has class `wanted` (else
    /// the first such reference parameter other than a `java.lang` type),
    /// and `keys` in the other parameters their types fit; that object.
    fn call_with_new(
        &mut self,
        owner: VarId,
        found: &[Accessor],
        wanted: Option<&str>,
        keys: &[VarId],
    ) -> Option<VarId> {
        let chosen = self.sample(found)?.clone();
        let callable = self.modifier(owner, &chosen.name, &chosen.descriptor)?;
        let params = callable.params().to_vec();
        let class_of = |t: &JavaType| match t.erasure() {
            Some(FieldType::Object(n)) => Some(n.as_str().to_string()),
            _ => None,
        };
        let flows: Vec<usize> = chosen
            .value_params
            .iter()
            .map(|p| usize::from(*p))
            .filter(|p| params.get(*p).is_some_and(is_object))
            .collect();
        let p =
            flows.iter().copied().find(|p| wanted.is_some() && class_of(&params[*p]).as_deref() == wanted).or_else(
                || flows.iter().copied().find(|p| class_of(&params[*p]).is_none_or(|c| !c.starts_with("java/lang/"))),
            )?;
        let object = self.make(&params[p])?;
        let mut args = vec![None; params.len()];
        args[p] = Some(object);
        for (i, param) in params.iter().enumerate().filter(|(i, _)| *i != p) {
            let erased = param.erasure();
            args[i] = keys.iter().copied().find(|k| erased.as_ref() == Some(&self.builder.type_of(*k)));
        }
        self.builder.call(&callable, Some(owner), &args)?;
        Some(object)
    }

    /// A new object stored by a setter, else the value a getter returns.
    fn inner_object(&mut self, owner: VarId, field: &FieldKey) -> Option<VarId> {
        let setters: Vec<Accessor> = self
            .accessors_of(owner, field, false)
            .into_iter()
            .filter(|a| a.kind == WriteKind::Put && !a.value_params.is_empty())
            .collect();
        if let Some(object) = self.call_with_new(owner, &setters, None, &[]) {
            return Some(object);
        }
        let getters = self.accessors_of(owner, field, true);
        let chosen = self.sample(&getters)?.clone();
        let callable = self.modifier(owner, &chosen.name, &chosen.descriptor)?;
        self.builder.call(&callable, Some(owner), &[])
    }

    /// A new element stored into an array the template made.
    fn array_element(&mut self, array: VarId, index: Option<i32>) -> Option<VarId> {
        let FieldType::Array(elem) = self.builder.type_of(array) else { return None };
        let index = match index {
            Some(i) => u32::try_from(i).ok()?,
            None => self.builder_rng_index(MIN_ARRAY_LENGTH as usize) as u32,
        };
        let value = match &*elem {
            FieldType::Array(inner) => self.builder.array(inner, MIN_ARRAY_LENGTH),
            other => self.make(&JavaType::from(other.clone()))?,
        };
        self.builder.store(array, index, value);
        Some(value)
    }

    /// A call the OCG did not follow, when the test may make it.
    fn call_node(
        &mut self,
        receiver: Option<VarId>,
        name: &str,
        descriptor: &str,
        args: &BTreeMap<u8, VarId>,
    ) -> Option<VarId> {
        let receiver = receiver?;
        let callable = self.modifier(receiver, name, descriptor)?;
        let args: Vec<Option<VarId>> = (0..callable.params().len()).map(|i| args.get(&(i as u8)).copied()).collect();
        self.builder.call(&callable, Some(receiver), &args)
    }
}

/// The values of the keys and indices the element reads use (their
/// [`OcgEdge::Arg`] and [`OcgEdge::Index`] parents that have values).
fn key_vars(ocg: &Ocg, reads: &[NodeIndex], vars: &HashMap<NodeIndex, Option<VarId>>) -> Vec<VarId> {
    reads
        .iter()
        .flat_map(|r| ocg.parents(*r))
        .filter(|(_, e)| matches!(e, OcgEdge::Arg(_) | OcgEdge::Index))
        .filter_map(|(p, _)| vars.get(&p).copied().flatten())
        .collect()
}

/// The class that owns the fields read from the elements (internal name),
/// when the elements' children name one.
fn element_class(ocg: &Ocg, reads: &[NodeIndex]) -> Option<String> {
    reads.iter().flat_map(|r| ocg.children(*r)).find_map(|c| match &ocg.graph[c] {
        OcgNode::Field { owner, .. } => Some(owner.clone()),
        _ => None,
    })
}

/// Whether a node reads an element of what its owner holds: an array
/// element, or a JDK call on a container (`list.get(i)`, `map.get(k)`).
fn is_element_read(node: &OcgNode) -> bool {
    match node {
        OcgNode::ArrayElement { .. } => true,
        OcgNode::Call { owner, .. } => is_jdk_class(owner),
        _ => false,
    }
}

fn is_object(ty: &JavaType) -> bool {
    ty.erasure().is_some_and(|e| matches!(e, FieldType::Object(_) | FieldType::Array(_)))
}
