//! The serialization round trip: a value of a `Serializable` class under
//! test (or of one of its nested classes) is written with an
//! `ObjectOutputStream` to memory and read back with an `ObjectInputStream`,
//! as users and EvoSuite do, so that the class's private `writeObject`,
//! `readObject`, `readResolve` and `writeReplace` run. Made of ordinary
//! statements (constructors and calls of `java.io`), so the emitted test
//! shows it step by step.

use model::descriptor::FieldType;
use rand::Rng;
use rand::seq::IndexedRandom;

use super::edit;
use super::factory::Factory;
use super::jdk::{byte_array, call, constructor, object};
use crate::ir::{Statement, VarId, var_id};

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
    let (output, input) = ("java.io.ObjectOutputStream", "java.io.ObjectInputStream");
    let bytes = call(v(0), "java.io.ByteArrayOutputStream", "toByteArray", "()[B", Vec::new());
    let read = call(v(6), input, "readObject", "()Ljava/lang/Object;", Vec::new());
    vec![
        constructor("java.io.ByteArrayOutputStream", "()V", Vec::new()),
        constructor(output, "(Ljava/io/OutputStream;)V", vec![v(0)]),
        call(v(1), output, "writeObject", "(Ljava/lang/Object;)V", vec![value]),
        call(v(1), output, "flush", "()V", Vec::new()),
        Statement { ty: byte_array(), ..bytes },
        constructor("java.io.ByteArrayInputStream", "([B)V", vec![v(4)]),
        constructor(input, "(Ljava/io/InputStream;)V", vec![v(5)]),
        Statement { ty: object("java.lang.Object"), ..read },
    ]
}
