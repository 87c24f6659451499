//! A [`MethodContext`] for unit tests of extraction rules: a method with
//! named, typed parameters and a receiver with the given zero- or
//! one-argument methods.

use super::entity::{MethodContext, StateMethod, TypeMethods};
use super::sentence::{Token, tokens};
use crate::graph::Trigger;

/// `name(params) -> returns` as a [`StateMethod`] (`"comparator() java.util.Comparator"`).
pub fn method(name: &str, params: &[&str], returns: &str) -> StateMethod {
    StateMethod { name: name.into(), params: params.iter().map(|p| p.to_string()).collect(), returns: returns.into() }
}

/// The owned parts of a test context.
pub struct Owned {
    /// Simple class name.
    pub class: String,
    /// Method name.
    pub method: String,
    /// Return type.
    pub returns: String,
    /// Parameter names.
    pub params: Vec<String>,
    /// Parameter types.
    pub types: Vec<String>,
    /// Receiver methods.
    pub receiver: Vec<StateMethod>,
    /// Methods of each parameter's type.
    pub param_methods: Vec<Vec<StateMethod>>,
    /// Methods of other types by erased Java name.
    pub other_types: Vec<(String, Vec<StateMethod>)>,
    /// `@param` texts (normalised), one per parameter.
    pub param_docs: Vec<String>,
    /// Static one-parameter methods of other classes by simple name.
    pub statics: Vec<(String, Vec<StateMethod>)>,
}

impl std::fmt::Debug for Owned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.class, self.method)
    }
}

impl TypeMethods for Owned {
    fn methods_of_type(&self, java: &str) -> &[StateMethod] {
        self.other_types.iter().find(|(n, _)| n == java).map(|(_, m)| m.as_slice()).unwrap_or(&[])
    }

    fn statics_named(&self, noun: &str) -> Option<(&str, &[StateMethod])> {
        let (name, m) = self.statics.iter().find(|(n, _)| n.eq_ignore_ascii_case(noun))?;
        Some((name.as_str(), m.as_slice()))
    }
}

impl Owned {
    /// An instance method `method` of `class` with `(type, name)` parameters.
    pub fn new(class: &str, method: &str, params: &[(&str, &str)], receiver: Vec<StateMethod>) -> Owned {
        Owned {
            class: class.into(),
            method: method.into(),
            returns: "void".into(),
            params: params.iter().map(|(_, n)| n.to_string()).collect(),
            types: params.iter().map(|(t, _)| t.to_string()).collect(),
            receiver,
            param_methods: params.iter().map(|_| Vec::new()).collect(),
            other_types: Vec::new(),
            param_docs: params.iter().map(|_| String::new()).collect(),
            statics: Vec::new(),
        }
    }

    /// The context borrowing these parts.
    pub fn ctx(&self) -> MethodContext<'_> {
        MethodContext {
            class_simple: &self.class,
            method: &self.method,
            returns: &self.returns,
            is_static: false,
            params: &self.params,
            param_types: &self.types,
            receiver_methods: &self.receiver,
            static_methods: &[],
            param_methods: self.param_methods.iter().map(Vec::as_slice).collect(),
            link_members: Vec::new(),
            types: Some(self),
            param_docs: self.param_docs.clone(),
        }
    }
}

/// The triggers of an exception clause text ("if ...") in `owned`'s context.
pub fn throws_triggers(owned: &Owned, text: &str) -> Vec<Trigger> {
    let toks: Vec<Token> = tokens(text);
    let cond = super::sentence::throws_condition(super::sentence::first_sentence(&toks)).to_vec();
    super::triggers(&cond, &owned.ctx()).1
}

/// `(kind code, condition)` of each trigger.
pub fn shown(triggers: &[Trigger]) -> Vec<(String, String)> {
    triggers.iter().map(|t| (t.kind.code().to_string(), t.condition.to_string())).collect()
}
