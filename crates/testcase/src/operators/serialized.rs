//! Text in a format the class path's own serializers write: a parser of
//! YAML, JSON or CSV stops at its first check on random strings, but reads
//! on through what the same library wrote of a map or a list
//! (`new Yaml().dump(map)`, `gson.toJson(list)`, `format.format(values)`).
//! When the test cluster has serializers
//! ([`crate::TestCluster::serializers`]), some of the strings a test passes
//! to a class that reads text ([`crate::TestCluster::reads_text`]: a
//! `StringReader`, `Yaml.load(String)` beside `Yaml.load(Reader)`) are the
//! result of one, called on a new `HashMap` or `ArrayList` of strings and
//! numbers, with ordinary statements the emitted test shows. Other strings
//! stay as they were: a serializer call costs time on every execution.

use model::descriptor::FieldType;
use model::signature::JavaType;
use rand::Rng;
use rand::seq::IndexedRandom;

use super::factory::Factory;
use super::jdk::object;
use crate::cluster::{Callable, SERIALIZED_TYPES};
use crate::ir::VarId;

/// Probability that a new string passed to a class that reads text is what
/// a serializer wrote, when there is one.
const P_SERIALIZED: f64 = 0.3;

impl<'a, R: Rng + ?Sized> Factory<'a, R> {
    /// For parameter `param` of `callable`: with probability
    /// [`P_SERIALIZED`], when `param` is a `String` and the callable's
    /// class reads text, a [`Factory::serialized_string`] inserted at
    /// `*pos`; else `None`.
    pub(super) fn text_for(
        &mut self,
        callable: &Callable,
        param: &JavaType,
        pos: &mut usize,
        depth: u32,
    ) -> Option<VarId> {
        if self.cluster.serializers().is_empty() {
            return None;
        }
        let is_string = matches!(param.erasure(), Some(FieldType::Object(n)) if n.as_str() == "java/lang/String");
        let reads_text = callable.method().is_some_and(|m| self.cluster.reads_text(m.owner.as_str()));
        if !is_string || !reads_text || !self.rng.random_bool(P_SERIALIZED) {
            return None;
        }
        self.serialized_string(pos, depth)
    }

    /// A new string that a random serializer wrote of a new map, list or
    /// array, inserted at `*pos`; `None` (perhaps after inserting some of
    /// the arguments) when there is no serializer whose receiver the
    /// cluster can make, or the depth limit is reached.
    pub(super) fn serialized_string(&mut self, pos: &mut usize, depth: u32) -> Option<VarId> {
        if depth > self.cluster.options().max_depth {
            return None;
        }
        let callable: Vec<&Callable> = self
            .cluster
            .serializers()
            .iter()
            .filter(|s| s.receiver().is_none_or(|r| self.cluster.can_make(&r)))
            .collect();
        let serializer = (*callable.choose(self.rng)?).clone();
        let receiver = match serializer.receiver() {
            Some(owner) => Some(self.receiver(&owner, pos, depth + 1)?),
            None => None,
        };
        let (first, rest) = serializer.params().split_first()?;
        let written = match first {
            JavaType::Array(_) => first.clone(),
            _ => object(SERIALIZED_TYPES.choose(self.rng).expect("a type")),
        };
        let mut args = vec![self.new_value(&written, &written.erasure()?, pos, depth + 1)?];
        for param in rest {
            args.push(self.value(param, pos, depth + 1, &[]));
        }
        let statement = serializer.statement(receiver, args)?;
        Some(self.insert(pos, statement))
    }
}
