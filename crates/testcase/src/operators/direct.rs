//! The values the test cluster's `direct` module prepares, as methods of
//! [`Factory`]: `Class` values (within the bound of a `Class<? extends X>`
//! parameter), members by reflection, and lambdas of functional interfaces
//! (returning a default value, a value of the test, their first argument,
//! or comparing in natural order), mocks of interfaces the cluster cannot
//! make otherwise (each stub returning a value of the test), and how
//! mutation changes each of them.

use model::descriptor::FieldType;
use model::names::InternalName;
use model::signature::JavaType;
use rand::Rng;
use rand::seq::IndexedRandom;

use super::factory::Factory;
use crate::cluster::{Functional, type_argument};
use crate::ir::{LambdaBody, MemberRef, MethodRef, StatementKind, VarId};

/// Probability of a lambda for a functional interface that also has
/// generators (`Comparator.naturalOrder()`, `Function.identity()`); without
/// generators it is always a lambda.
const P_LAMBDA: f64 = 0.5;

/// Probability that a new mock stubs each method it may stub.
const P_STUB: f64 = 0.5;

/// Probability that a stub of a new mock that returns a primitive gets a
/// second answer (`hasNext()` true then false: a loop over a mock ends).
const P_SECOND_ANSWER: f64 = 0.3;

impl<'a, R: Rng + ?Sized> Factory<'a, R> {
    /// A `Class` value that fits `need` ([`crate::TestCluster::class_values_for`]).
    pub(super) fn class_value(&mut self, need: &JavaType) -> Option<StatementKind> {
        let class = (*self.cluster.class_values_for(need).choose(self.rng)?).clone();
        Some(StatementKind::ClassLiteral(class))
    }

    /// A member by reflection whose reflection class is a `name`, for the
    /// types of `java.lang.reflect` (`Method`, `Member`, …); for those a
    /// `Class` is too (`Type`, `AnnotatedElement`), half the time a `Class`
    /// value. For a type with generators (`Type`, from
    /// `Method.getGenericReturnType()`), half the time `None`, so that the
    /// factory calls one of them instead.
    pub(super) fn reflected(&mut self, name: &InternalName) -> Option<StatementKind> {
        if !name.as_str().starts_with("java/lang/reflect/") {
            return None;
        }
        if !self.cluster.generators(name.to_binary().as_str()).is_empty() && self.rng.random_bool(0.5) {
            return None;
        }
        let ty = FieldType::Object(name.clone());
        let fits = self.reflected_members(&ty);
        let class = FieldType::Object(InternalName::new("java/lang/Class"));
        if self.cluster.is_assignable(&class, &ty) && (fits.is_empty() || self.rng.random_bool(0.5)) {
            return self.class_value(&JavaType::from(class));
        }
        let member = (*fits.choose(self.rng)?).clone();
        Some(StatementKind::Reflect(member))
    }

    /// The cluster's reflected members whose value is assignable to `ty`.
    fn reflected_members(&self, ty: &FieldType) -> Vec<&'a MemberRef> {
        let cluster: &'a crate::TestCluster = self.cluster;
        let fits =
            |m: &&MemberRef| cluster.is_assignable(&FieldType::Object(InternalName::new(m.reflection_class())), ty);
        cluster.reflected_members().iter().filter(fits).collect()
    }

    /// A new lambda for `need` when its class `name` (binary) is a
    /// functional interface of the cluster: always when the class has no
    /// generators, else with probability [`P_LAMBDA`]; `None` otherwise.
    pub(super) fn lambda(&mut self, need: &JavaType, name: &str, pos: &mut usize, depth: u32) -> Option<VarId> {
        let cluster: &'a crate::TestCluster = self.cluster;
        let functional = cluster.functional(name)?;
        if !cluster.generators(name).is_empty() && !self.rng.random_bool(P_LAMBDA) {
            return None;
        }
        let body = self.lambda_body(functional, need, pos, depth, None)?;
        let kind = StatementKind::Lambda {
            interface: model::names::BinaryName::new(name),
            method: functional.method.clone(),
            body,
        };
        Some(self.insert_kind(pos, kind))
    }

    /// A new mock of interface `name` when the cluster mocks it
    /// ([`crate::TestCluster::mockable`]): each stubbable method stubbed
    /// with probability [`P_STUB`] (within the depth limit), returning a
    /// value of its return type built or reused at `*pos`.
    pub(super) fn mock(&mut self, name: &str, pos: &mut usize, depth: u32) -> Option<VarId> {
        let cluster: &'a crate::TestCluster = self.cluster;
        let stubbable = cluster.mockable(name)?;
        let (mut methods, mut returns) = (Vec::new(), Vec::new());
        for method in stubbable {
            if depth <= cluster.options().max_depth && self.rng.random_bool(P_STUB) {
                returns.push(self.stub_value(method, pos, depth, &[])?);
                methods.push(method.clone());
                if returns_primitive(method) && self.rng.random_bool(P_SECOND_ANSWER) {
                    let first = *returns.last().expect("just pushed");
                    returns.push(self.stub_value(method, pos, depth, &[first])?);
                    methods.push(method.clone());
                }
            }
        }
        let kind = StatementKind::Mock { mocked: model::names::BinaryName::new(name), methods, returns };
        Some(self.insert_kind(pos, kind))
    }

    /// A value for a stub of `method` built or reused at `*pos`, other than `avoid`.
    fn stub_value(&mut self, method: &MethodRef, pos: &mut usize, depth: u32, avoid: &[VarId]) -> Option<VarId> {
        let ret = JavaType::from(method.descriptor.ret.clone()?);
        Some(self.value(&ret, pos, depth + 1, avoid))
    }

    /// The mock of statement `i` with one stub changed: a stubbable method
    /// without a stub gets one, or a stub is removed, or a stub returns
    /// another value (built before the mock, which then moves to `*pos`).
    fn change_mock(&mut self, i: usize, pos: &mut usize) -> Option<StatementKind> {
        let cluster: &'a crate::TestCluster = self.cluster;
        let StatementKind::Mock { mocked, mut methods, mut returns } = self.test.statements[i].kind.clone() else {
            return None;
        };
        let unstubbed: Vec<&MethodRef> =
            cluster.mockable(mocked.as_str())?.iter().filter(|m| !methods.contains(m)).collect();
        let answers = |m: &MethodRef| methods.iter().filter(|x| *x == m).count();
        let more: Vec<usize> = (0..methods.len())
            .filter(|&k| returns_primitive(&methods[k]) && answers(&methods[k]) < crate::functional::MAX_ANSWERS)
            .collect();
        match self.rng.random_range(0..4) {
            3 if !more.is_empty() => {
                let k = *more.choose(self.rng)?;
                let method = methods[k].clone();
                let last = methods.iter().rposition(|m| *m == method).expect("k answers it");
                returns.insert(last + 1, self.stub_value(&method, pos, 1, &[returns[last]])?);
                methods.insert(last + 1, method);
            }
            0 if !unstubbed.is_empty() => {
                let method = (*unstubbed.choose(self.rng)?).clone();
                returns.push(self.stub_value(&method, pos, 1, &[])?);
                methods.push(method);
            }
            1 if !methods.is_empty() => {
                let k = self.rng.random_range(0..methods.len());
                methods.remove(k);
                returns.remove(k);
            }
            _ if !methods.is_empty() => {
                let k = self.rng.random_range(0..methods.len());
                returns[k] = self.stub_value(&methods[k].clone(), pos, 1, &[returns[k]])?;
            }
            _ => return None,
        }
        Some(StatementKind::Mock { mocked, methods, returns })
    }

    /// A random body for a lambda of `functional` typed `need`, other than
    /// `current`: `Default` (also the only one for `void` methods), a value
    /// of the return type built or reused at `*pos`, `Identity` where the
    /// first parameter fits the return type, `NaturalOrder` for comparisons.
    fn lambda_body(
        &mut self,
        functional: &Functional,
        need: &JavaType,
        pos: &mut usize,
        depth: u32,
        current: Option<LambdaBody>,
    ) -> Option<LambdaBody> {
        let descriptor = &functional.method.descriptor;
        let Some(ret) = &descriptor.ret else { return Some(LambdaBody::Default).filter(|b| Some(*b) != current) };
        let generic = |index: Option<usize>, erased: &FieldType| match index {
            Some(i) if matches!(need, JavaType::Class(c) if !c.args.is_empty()) => type_argument(need, i),
            _ => JavaType::from(erased.clone()),
        };
        let ret_ty = generic(functional.ret_type_param, ret);
        let first = descriptor.params.first();
        let identity = first.is_some_and(|p| {
            let param_ty = generic(functional.param_type_params.first().copied().flatten(), p);
            self.cluster.is_assignable(p, ret) && param_ty.erasure() == ret_ty.erasure()
        });
        let comparison = descriptor.params.len() == 2
            && descriptor.params.iter().all(FieldType::is_reference)
            && *ret == FieldType::Base(model::descriptor::BaseType::Int);
        let mut options = vec![LambdaBody::Default, LambdaBody::Returns(VarId(0))];
        options.extend(identity.then_some(LambdaBody::Identity));
        options.extend(comparison.then_some(LambdaBody::NaturalOrder));
        options.retain(|o| Some(*o) != current || matches!(o, LambdaBody::Returns(_)));
        match *options.choose(self.rng)? {
            LambdaBody::Returns(_) if depth <= self.cluster.options().max_depth => {
                let current_value = current.and_then(LambdaBody::returned);
                let avoid: Vec<VarId> = current_value.into_iter().collect();
                Some(LambdaBody::Returns(self.value(&ret_ty, pos, depth + 1, &avoid)))
            }
            LambdaBody::Returns(_) => Some(LambdaBody::Default).filter(|b| Some(*b) != current),
            body => Some(body),
        }
    }

    /// Changes the `Class` value, member, lambda or mock of statement `i`
    /// to another of its kind; a lambda's or stub's new returned value is
    /// built before it. Returns the index after the statement, `None` when there is no
    /// other choice.
    pub(super) fn change_direct(&mut self, i: usize) -> Option<usize> {
        let cluster: &'a crate::TestCluster = self.cluster;
        let mut pos = i;
        let changed = match self.test.statements[i].kind.clone() {
            StatementKind::ClassLiteral(class) => {
                let others: Vec<&Option<FieldType>> = cluster.class_values().iter().filter(|c| **c != class).collect();
                StatementKind::ClassLiteral((*others.choose(self.rng)?).clone())
            }
            StatementKind::Reflect(member) => {
                let ty = FieldType::Object(InternalName::new(member.reflection_class()));
                let others: Vec<&MemberRef> =
                    self.reflected_members(&ty).into_iter().filter(|m| **m != member).collect();
                StatementKind::Reflect((*others.choose(self.rng)?).clone())
            }
            StatementKind::Lambda { interface, method, body } => {
                let functional = cluster.functional(interface.as_str()).filter(|f| f.method == method)?;
                let need = self.test.statements[i].ty.clone();
                let body = self.lambda_body(functional, &need, &mut pos, 1, Some(body))?;
                StatementKind::Lambda { interface, method, body }
            }
            StatementKind::Mock { .. } => self.change_mock(i, &mut pos)?,
            _ => return None,
        };
        // A new returned value is inserted before the lambda, which moves to `pos`.
        self.test.statements[pos].kind = changed;
        Some(pos + 1)
    }
}

/// Whether `method` returns a primitive (a loop's guard or a stream's
/// byte), the stubs that get more than one answer.
fn returns_primitive(method: &MethodRef) -> bool {
    matches!(method.descriptor.ret, Some(model::descriptor::FieldType::Base(_)))
}
