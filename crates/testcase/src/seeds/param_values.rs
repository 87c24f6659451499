//! Values the user gives for the parameters of chosen methods (Palus's
//! `@ParamValue`, TECHNIQUES.md §4 step 4; `generate --param-values FILE`).
//!
//! The file is a JSON object: each key names a method, as
//! `pkg.Class.method` (every overload) or `pkg.Class.method(descriptor)`
//! (`<init>` for constructors), and each value is a list of JSON values
//! (strings, numbers, booleans, `null`). When a test calls such a method,
//! each argument takes one of the listed values that fits its type with
//! probability [`P_PARAM_VALUE`]; other arguments are made as usual.

use std::collections::BTreeMap;

use model::descriptor::{BaseType, FieldType};
use serde::Deserialize;

use crate::ir::{MethodRef, Primitive, StatementKind};

/// Probability that an argument of a listed method takes a listed value.
pub const P_PARAM_VALUE: f64 = 0.5;

/// One value of the file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum ParamValue {
    /// `true` or `false`.
    Bool(bool),
    /// An integral number.
    Int(i64),
    /// A number with a fraction or exponent.
    Float(f64),
    /// A string (also a `char` when it is one character long).
    Str(String),
    /// `null`.
    Null(()),
}

/// The values of the file, by method.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParamValues {
    /// `pkg.Class.method` or `pkg.Class.method(descriptor)` to its values.
    by_method: BTreeMap<String, Vec<ParamValue>>,
}

/// What is wrong with a `--param-values` file.
#[derive(Debug, thiserror::Error)]
#[error("--param-values: {0} (expected a JSON object such as {{\"pkg.Class.method\": [1, \"text\", null]}})")]
pub struct ParamValuesError(String);

impl ParamValues {
    /// Reads the JSON text of a `--param-values` file.
    ///
    /// # Errors
    /// [`ParamValuesError`] when the text is not an object of lists of
    /// strings, numbers, booleans and nulls, or a key names no method.
    pub fn parse(text: &str) -> Result<ParamValues, ParamValuesError> {
        let by_method: BTreeMap<String, Vec<ParamValue>> =
            serde_json::from_str(text).map_err(|e| ParamValuesError(e.to_string()))?;
        if let Some(bad) = by_method.keys().find(|k| !k.split('(').next().is_some_and(|m| m.contains('.'))) {
            return Err(ParamValuesError(format!("key {bad:?} is not pkg.Class.method")));
        }
        Ok(ParamValues { by_method })
    }

    /// Whether the file gave no value.
    pub fn is_empty(&self) -> bool {
        self.by_method.is_empty()
    }

    /// The values listed for `method` (by name and by name with descriptor).
    pub fn values_for(&self, method: &MethodRef) -> Vec<&ParamValue> {
        if self.by_method.is_empty() {
            return Vec::new();
        }
        let name = format!("{}.{}", method.owner, method.name);
        let exact = format!("{name}{}", method.descriptor.to_descriptor());
        [name, exact].iter().filter_map(|k| self.by_method.get(k)).flatten().collect()
    }
}

/// The literal statement of `value` for a parameter of type `param`, when it fits.
pub fn literal(value: &ParamValue, param: &FieldType) -> Option<StatementKind> {
    let is = |t: &FieldType, names: &[&str]| matches!(t, FieldType::Object(n) if names.contains(&n.as_str()));
    match (value, param) {
        (ParamValue::Null(()), t) if t.is_reference() => Some(StatementKind::Null(t.clone())),
        (ParamValue::Str(s), t) if is(t, &["java/lang/String", "java/lang/CharSequence", "java/lang/Object"]) => {
            Some(StatementKind::String(s.clone()))
        }
        (ParamValue::Str(s), FieldType::Base(BaseType::Char)) if s.encode_utf16().count() == 1 => {
            Some(StatementKind::Primitive(Primitive::Char(s.encode_utf16().next()?)))
        }
        (ParamValue::Bool(b), FieldType::Base(BaseType::Boolean)) => {
            Some(StatementKind::Primitive(Primitive::Boolean(*b)))
        }
        (ParamValue::Bool(b), t) if is(t, &["java/lang/Boolean"]) => Some(StatementKind::Boxed(Primitive::Boolean(*b))),
        (ParamValue::Int(n), FieldType::Base(base)) => integral(*base, *n).map(StatementKind::Primitive),
        (ParamValue::Float(x), FieldType::Base(BaseType::Double)) => {
            Some(StatementKind::Primitive(Primitive::Double(*x)))
        }
        (ParamValue::Float(x), FieldType::Base(BaseType::Float)) => {
            Some(StatementKind::Primitive(Primitive::Float(*x as f32)))
        }
        (ParamValue::Int(n), t) if is(t, &["java/lang/Integer"]) => {
            Some(StatementKind::Boxed(Primitive::Int(i32::try_from(*n).ok()?)))
        }
        (ParamValue::Int(n), t) if is(t, &["java/lang/Long"]) => Some(StatementKind::Boxed(Primitive::Long(*n))),
        _ => None,
    }
}

/// `n` as a value of the integral (or floating) type `base`, when it fits.
fn integral(base: BaseType, n: i64) -> Option<Primitive> {
    Some(match base {
        BaseType::Int => Primitive::Int(i32::try_from(n).ok()?),
        BaseType::Long => Primitive::Long(n),
        BaseType::Short => Primitive::Short(i16::try_from(n).ok()?),
        BaseType::Byte => Primitive::Byte(i8::try_from(n).ok()?),
        BaseType::Char => Primitive::Char(u16::try_from(n).ok()?),
        BaseType::Double => Primitive::Double(n as f64),
        BaseType::Float => Primitive::Float(n as f32),
        BaseType::Boolean => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::descriptor::MethodDescriptor;
    use model::names::BinaryName;

    fn method(owner: &str, name: &str, descriptor: &str) -> MethodRef {
        MethodRef {
            owner: BinaryName::new(owner),
            name: name.into(),
            descriptor: MethodDescriptor::parse(descriptor).unwrap(),
        }
    }

    #[test]
    fn values_are_found_by_name_and_by_descriptor_and_fit_their_types() {
        let text =
            r#"{"p.Driver.connect": ["fake://a", null], "p.T.coin(I)V": [50, 3000000000], "p.T.<init>": [true, 2.5]}"#;
        let values = ParamValues::parse(text).unwrap();
        let connect = values.values_for(&method("p.Driver", "connect", "(Ljava/lang/String;)Lp/Conn;"));
        assert_eq!(connect, [&ParamValue::Str("fake://a".into()), &ParamValue::Null(())]);
        let coin = values.values_for(&method("p.T", "coin", "(I)V"));
        let int = FieldType::Base(BaseType::Int);
        assert_eq!(literal(coin[0], &int), Some(StatementKind::Primitive(Primitive::Int(50))));
        assert_eq!(literal(coin[1], &int), None, "3000000000 does not fit an int");
        assert!(values.values_for(&method("p.T", "coin", "(J)V")).is_empty(), "another overload");
        let string = FieldType::parse("Ljava/lang/String;").unwrap();
        assert_eq!(literal(connect[1], &string), Some(StatementKind::Null(string.clone())));
        assert_eq!(literal(connect[0], &int), None);
        let made = values.values_for(&method("p.T", "<init>", "(ZD)V"));
        assert_eq!(
            literal(made[1], &FieldType::Base(BaseType::Double)),
            Some(StatementKind::Primitive(Primitive::Double(2.5)))
        );
    }

    #[test]
    fn bad_files_say_what_is_expected() {
        let e = ParamValues::parse("[1, 2]").unwrap_err().to_string();
        assert!(e.starts_with("--param-values: invalid type: sequence, expected a map"), "{e}");
        let e = ParamValues::parse(r#"{"connect": [1]}"#).unwrap_err().to_string();
        assert!(e.contains("key \"connect\" is not pkg.Class.method"), "{e}");
        let e = ParamValues::parse(r#"{"p.A.m": [[1]]}"#).unwrap_err().to_string();
        assert!(e.contains("expected a JSON object such as"), "{e}");
    }
}
