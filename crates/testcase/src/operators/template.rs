//! [`TemplateBuilder`]: builds a test statement by statement for a
//! technique that knows which objects a goal needs (EvoObj's templates,
//! TECHNIQUES.md §1 step 3), through the same [`Factory`] the random tests
//! use, so a template is an ordinary test of the cluster.
//!
//! Statements are appended; the caller names receivers and the arguments
//! it cares about, and the builder makes the rest as random tests do
//! (reused, `null` or new; a primitive is a random literal, which the
//! search's mutation then changes: a mutation slot).

use model::descriptor::FieldType;
use model::signature::JavaType;
use rand::Rng;

use super::factory::Factory;
use crate::cluster::{Callable, TestCluster};
use crate::ir::{StatementKind, TestCase, VarId};
use crate::seeds::Seeds;

/// A test under construction, appended to at its end.
pub struct TemplateBuilder<'a, R: Rng + ?Sized> {
    factory: Factory<'a, R>,
    /// Whether [`Self::call`] makes every primitive or string argument it
    /// is not given a new literal ([`Self::with_fresh_literals`]).
    fresh_literals: bool,
}

impl<'a, R: Rng + ?Sized> TemplateBuilder<'a, R> {
    /// An empty test over `cluster`, with `seeds` for literals.
    pub fn new(cluster: &'a TestCluster, seeds: &'a Seeds, rng: &'a mut R) -> TemplateBuilder<'a, R> {
        TemplateBuilder { factory: Factory::new(cluster, seeds, rng, TestCase::default()), fresh_literals: false }
    }

    /// The builder with [`Self::call`] making a new literal for every
    /// primitive or string argument it is not given, where random tests
    /// reuse an earlier one half of the time: EvoObj's templates, whose
    /// literals are independent mutation slots (a setter's value that
    /// shared the variable of an index the template also passes could
    /// never leave the index's range). Palus keeps the reuse: its call
    /// sequences read back what they stored under the same key.
    pub fn with_fresh_literals(mut self) -> Self {
        self.fresh_literals = true;
        self
    }

    /// A builder that appends to `test` (a test the technique made before).
    pub fn from_test(
        cluster: &'a TestCluster,
        seeds: &'a Seeds,
        rng: &'a mut R,
        test: TestCase,
    ) -> TemplateBuilder<'a, R> {
        TemplateBuilder { factory: Factory::new(cluster, seeds, rng, test), fresh_literals: false }
    }

    /// The cluster it builds from.
    pub fn cluster(&self) -> &'a TestCluster {
        self.factory.cluster
    }

    /// The test so far.
    pub fn test(&self) -> &TestCase {
        &self.factory.test
    }

    /// The statements so far.
    pub fn len(&self) -> usize {
        self.factory.test.len()
    }

    /// Whether no statement was appended yet.
    pub fn is_empty(&self) -> bool {
        self.factory.test.statements.is_empty()
    }

    /// The erased type of `var`.
    pub fn type_of(&self, var: VarId) -> FieldType {
        super::edit::value_type(&self.factory.test, var)
    }

    /// A new value of type `ty`: a random literal for primitives and
    /// strings, else a new non-null object from the cluster's generators
    /// (with the arguments they need); `None` when the cluster cannot make one.
    pub fn make(&mut self, ty: &JavaType) -> Option<VarId> {
        let erased = ty.erasure()?;
        let mut pos = self.len();
        self.factory.new_value(ty, &erased, &mut pos, 0)
    }

    /// The `int` literal `value`.
    pub fn int(&mut self, value: i32) -> VarId {
        let mut pos = self.len();
        self.factory.insert_kind(&mut pos, StatementKind::Primitive(crate::ir::Primitive::Int(value)))
    }

    /// A literal statement: a primitive, box, string, `null` or enum
    /// constant (`kind` is one of those; others are refused with `None`).
    pub fn literal(&mut self, kind: StatementKind) -> Option<VarId> {
        let literal = matches!(
            kind,
            StatementKind::Primitive(_)
                | StatementKind::Boxed(_)
                | StatementKind::String(_)
                | StatementKind::Null(_)
                | StatementKind::EnumConstant { .. }
        );
        let mut pos = self.len();
        literal.then(|| self.factory.insert_kind(&mut pos, kind))
    }

    /// A new array or JDK collection of type `ty` with exactly `size`
    /// elements (made as random tests make elements); `None` for other
    /// types or when the cluster cannot make one. Palus's abstract object
    /// profile of a collection argument is its size (`size=2`).
    pub fn sized(&mut self, ty: &JavaType, size: u32) -> Option<VarId> {
        if let Some(FieldType::Array(elem)) = ty.erasure() {
            let array = self.array(&elem, size);
            let elem_ty = match ty {
                JavaType::Array(component) => (**component).clone(),
                _ => JavaType::from((*elem).clone()),
            };
            for index in 0..size {
                let mut pos = self.len();
                let value = self.factory.value(&elem_ty, &mut pos, 1, &[array]);
                self.store(array, index, value);
            }
            return Some(array);
        }
        let var = self.make(ty)?;
        let StatementKind::Constructor { method, .. } = &self.factory.test[var].kind else { return None };
        let fill = self.factory.cluster.container(method.owner.as_str())?.fill.clone();
        let fills = |test: &TestCase| -> Vec<VarId> {
            (var.index() + 1..test.len())
                .map(crate::ir::var_id)
                .filter(|&v| matches!(&test[v].kind, StatementKind::Call { receiver, method, .. } if *receiver == var && *method == fill))
                .collect()
        };
        while let Some(&last) = fills(&self.factory.test).get(size as usize) {
            self.factory.test = super::edit::remove_closure(&self.factory.test, &[last]);
        }
        let callable = Callable::Method {
            params: fill.descriptor.params.iter().cloned().map(JavaType::from).collect(),
            ret: fill.descriptor.ret.clone().map_or(JavaType::Void, JavaType::from),
            method: fill.clone(),
        };
        for _ in fills(&self.factory.test).len()..size as usize {
            self.call(&callable, Some(var), &[])?;
        }
        Some(var)
    }

    /// `new elem[length]`.
    pub fn array(&mut self, elem: &FieldType, length: u32) -> VarId {
        let mut pos = self.len();
        self.factory.insert_kind(&mut pos, StatementKind::NewArray { elem: elem.clone(), length })
    }

    /// `array[index] = value`.
    pub fn store(&mut self, array: VarId, index: u32, value: VarId) {
        let mut pos = self.len();
        self.factory.insert_kind(&mut pos, StatementKind::ArrayStore { array, index, value });
    }

    /// Calls `callable` on `receiver` with `args[i]` where given, else a
    /// value made as a random test would make it (a new literal for a
    /// primitive or string [`Self::with_fresh_literals`]); `None` when the
    /// call does not fit (receiver, argument count).
    pub fn call(&mut self, callable: &Callable, receiver: Option<VarId>, args: &[Option<VarId>]) -> Option<VarId> {
        let mut pos = self.len();
        let params = callable.params().to_vec();
        let mut values = Vec::with_capacity(params.len());
        for (i, param) in params.iter().enumerate() {
            match args.get(i).copied().flatten() {
                Some(v) => values.push(v),
                None => {
                    let given = self.factory.param_value(callable, param, &mut pos);
                    let fresh_literals = self.fresh_literals;
                    let fresh = || param.erasure().filter(|e| fresh_literals && super::factory::is_literal(e));
                    let literal =
                        given.or_else(|| fresh().and_then(|e| self.factory.new_value(param, &e, &mut pos, 1)));
                    values.push(literal.unwrap_or_else(|| self.factory.value(param, &mut pos, 1, &[])));
                }
            }
        }
        let statement = callable.statement(receiver, values)?;
        Some(self.factory.insert(&mut pos, statement))
    }

    /// A uniform random number in `[0, 1)` from the builder's generator.
    pub fn random_unit(&mut self) -> f64 {
        self.factory.rng.random()
    }

    /// The finished test; its call under test is the last call under test.
    pub fn finish(self) -> TestCase {
        let cluster = self.factory.cluster;
        let mut test = self.factory.test;
        test.call_under_test = cluster.last_call_under_test(&test);
        test
    }
}
