//! The serialization round trip: a value of a `Serializable` class under
//! test (or of one of its nested classes) is written with an
//! `ObjectOutputStream` to memory and read back with an `ObjectInputStream`,
//! as users and EvoSuite do, so that the class's private `writeObject`,
//! `readObject`, `readResolve` and `writeReplace` run. Made of ordinary
//! statements (constructors and calls of `java.io`), so the emitted test
//! shows it step by step.

use model::descriptor::FieldType;
use model::signature::JavaType;
use rand::Rng;
use rand::seq::IndexedRandom;

use super::edit;
use super::factory::Factory;
use crate::ir::{MethodRef, Statement, StatementKind, VarId, var_id};

/// The statements of one round trip.
const ROUND_TRIP_LEN: usize = 8;

impl<'a, R: Rng + ?Sized> Factory<'a, R> {
    /// Appends a round trip of a random non-null value of the test whose
    /// class is the CUT or nested in it and implements `java.io.Serializable`;
    /// `false` when there is none or the test would exceed `max_length`.
    pub(super) fn insert_round_trip(&mut self, max_length: usize) -> bool {
        if self.test.len() + ROUND_TRIP_LEN > max_length {
            return false;
        }
        let cut = self.cluster.cut().as_str().to_string();
        let serializable = FieldType::Object(model::names::InternalName::new("java/io/Serializable"));
        let candidates: Vec<VarId> = (0..self.test.len())
            .map(var_id)
            .filter(|v| self.test[*v].produces_value() && !edit::is_null(&self.test, *v))
            .filter(|v| {
                let ty = edit::value_type(&self.test, *v);
                let own = ty.to_internal_name().is_some_and(|n| {
                    let name = n.to_binary();
                    name.as_str() == cut || name.as_str().starts_with(&format!("{cut}$"))
                });
                own && self.cluster.is_assignable(&ty, &serializable)
            })
            .collect();
        let Some(&value) = candidates.choose(self.rng) else { return false };
        for statement in round_trip(value, self.test.len()) {
            let at = self.test.len();
            edit::insert_at(&mut self.test, at, statement);
        }
        true
    }
}

/// The statements of a round trip of `value`, to be appended at index `at`.
fn round_trip(value: VarId, at: usize) -> Vec<Statement> {
    let v = |offset: usize| var_id(at + offset);
    let m =
        |owner: &str, name: &str, descriptor: &str| MethodRef::parse(owner, name, descriptor).expect("a JDK method");
    let new = |owner: &str, descriptor: &str, args: Vec<VarId>| {
        typed(StatementKind::Constructor { method: m(owner, "<init>", descriptor), args }, owner)
    };
    let call = |receiver: VarId, owner: &str, name: &str, descriptor: &str, ret: Option<&str>| {
        let kind = StatementKind::Call { receiver, method: m(owner, name, descriptor), args: Vec::new() };
        match ret {
            Some(ty) => typed(kind, ty),
            None => Statement { kind, ty: JavaType::Void },
        }
    };
    let mut write = call(v(1), "java.io.ObjectOutputStream", "writeObject", "(Ljava/lang/Object;)V", None);
    if let StatementKind::Call { args, .. } = &mut write.kind {
        args.push(value);
    }
    let bytes = StatementKind::Call {
        receiver: v(0),
        method: m("java.io.ByteArrayOutputStream", "toByteArray", "()[B"),
        args: Vec::new(),
    };
    vec![
        new("java.io.ByteArrayOutputStream", "()V", Vec::new()),
        new("java.io.ObjectOutputStream", "(Ljava/io/OutputStream;)V", vec![v(0)]),
        write,
        call(v(1), "java.io.ObjectOutputStream", "flush", "()V", None),
        Statement { kind: bytes, ty: JavaType::from(FieldType::parse("[B").expect("byte[]")) },
        new("java.io.ByteArrayInputStream", "([B)V", vec![v(4)]),
        new("java.io.ObjectInputStream", "(Ljava/io/InputStream;)V", vec![v(5)]),
        call(v(6), "java.io.ObjectInputStream", "readObject", "()Ljava/lang/Object;", Some("java.lang.Object")),
    ]
}

/// A statement whose value has class type `class` (a binary name).
fn typed(kind: StatementKind, class: &str) -> Statement {
    let ty = FieldType::Object(model::names::BinaryName::new(class).to_internal());
    Statement { kind, ty: JavaType::from(ty) }
}
