//! The assertions of a test, placed and written as the crate docs say:
//! values after their statement, the state at the end of the test.

use model::descriptor::{BaseType, FieldType};
use model::names::BinaryName;
use testcase::assertion::{Assertion, AssertionKind, Literal};
use testcase::literal::{primitive_literal, string_literal};
use testcase::{Primitive, VarId, box_class};

use crate::body::{TestWriter, values_len};

impl TestWriter<'_> {
    /// The value assertions on `var`, after its statement.
    pub(crate) fn write_value_assertions(&mut self, var: VarId) {
        if !self.has_value(var, usize::MAX) {
            return;
        }
        let test_case = self.test_case;
        for assertion in test_case.assertions.iter().filter(|assertion| assertion.var == var) {
            let text = match &assertion.kind {
                AssertionKind::Value(expected) => self.assert_literal(expected, var),
                AssertionKind::NotNull => format!("assertNotNull({});", self.subject(var)),
                _ => continue,
            };
            self.line(&text);
        }
    }

    /// The assertions on the state at the end of the test.
    pub(crate) fn write_final_assertions(&mut self) {
        let test_case = self.test_case;
        for assertion in &test_case.assertions {
            if let Some(text) = self.final_assertion(assertion) {
                self.line(&text);
            }
        }
    }

    fn final_assertion(&mut self, assertion: &Assertion) -> Option<String> {
        let end = values_len(self.test_case);
        let var = assertion.var;
        if !self.has_value(var, end) {
            return None;
        }
        match &assertion.kind {
            AssertionKind::Inspector { method, expected } => {
                let actual = format!("{}.{}()", self.receiver_as(var, &method.owner), method.name);
                Some(self.assert_equals(expected, actual, method.descriptor.ret.as_ref()?))
            }
            AssertionKind::Field { field, expected } => {
                let actual = format!("{}.{}", self.receiver_as(var, &field.owner), field.name);
                Some(self.assert_equals(expected, actual, &field.ty))
            }
            AssertionKind::ArrayElements(expected) => self.assert_array_elements(var, expected),
            AssertionKind::ArrayLength(length) => {
                Some(format!("assertEquals({length}, {}.length);", self.receiver(var)))
            }
            AssertionKind::EqualsOther { other, equal } if self.has_value(*other, end) => {
                Some(self.assert_equals_other(var, *other, *equal))
            }
            _ => None,
        }
    }

    /// `assertArrayEquals(new int[] {1, 2}, ints0)` (with a delta for
    /// floats); `None` when `var` is not an array of primitives.
    fn assert_array_elements(&mut self, var: VarId, expected: &[Literal]) -> Option<String> {
        let Some(FieldType::Array(elem)) = self.erasure(var) else { return None };
        let FieldType::Base(base) = *elem else { return None };
        let items: Vec<String> = expected
            .iter()
            .map(|literal| match literal {
                Literal::Primitive(value) => Some(primitive_literal(*value)),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let delta = delta(base).map(|delta| format!(", {delta}")).unwrap_or_default();
        let array = format!("new {base}[] {{{}}}", items.join(", "));
        Some(format!("assertArrayEquals({array}, {}{delta});", self.subject(var)))
    }

    /// Whether statement `var` is one of the first `end` statements and produces a value.
    fn has_value(&self, var: VarId, end: usize) -> bool {
        var.index() < end && self.erasure(var).is_some() && self.statement(var).is_some_and(|s| s.produces_value())
    }

    /// `var` as a receiver of a member of `owner`, cast to `owner` when it
    /// is declared with another type (`((Stack) object0)`).
    fn receiver_as(&mut self, var: VarId, owner: &BinaryName) -> String {
        if self.erasure(var) == Some(FieldType::Object(owner.to_internal())) {
            self.receiver(var)
        } else {
            format!("(({}) {})", self.names.class(owner), self.subject(var))
        }
    }

    /// The assertion that the value of `var` is `expected`.
    fn assert_literal(&mut self, expected: &Literal, var: VarId) -> String {
        let actual = self.subject(var);
        let ty = self.erasure(var).unwrap_or_else(|| FieldType::Object(model::names::InternalName::object()));
        self.assert_equals(expected, actual, &ty)
    }

    /// The assertion that `actual`, an expression of type `ty`, is `expected`.
    fn assert_equals(&mut self, expected: &Literal, actual: String, ty: &FieldType) -> String {
        match expected {
            Literal::Null => format!("assertNull({actual});"),
            Literal::Primitive(Primitive::Boolean(value)) => {
                let method = if *value { "assertTrue" } else { "assertFalse" };
                format!("{method}({});", self.unboxed(actual, BaseType::Boolean, ty))
            }
            Literal::Primitive(value) => {
                let actual = self.unboxed(actual, value.base_type(), ty);
                let delta = delta(value.base_type()).map(|delta| format!(", {delta}")).unwrap_or_default();
                format!("assertEquals({}, {actual}{delta});", primitive_literal(*value))
            }
            Literal::String(text) => format!("assertEquals({}, {actual});", string_literal(text)),
            Literal::Enum { class, name } => format!("assertEquals({}.{name}, {actual});", self.names.class(class)),
        }
    }

    /// `actual` as a value of primitive type `base`: as it is when its type
    /// `ty` is primitive, else unboxed with a cast (through the box class
    /// when `ty` is neither the box nor `Object`, as Java only unboxes those).
    fn unboxed(&mut self, actual: String, base: BaseType, ty: &FieldType) -> String {
        let boxed = box_class(base);
        match ty {
            FieldType::Base(_) => actual,
            FieldType::Object(class) if *class == boxed || *class == model::names::InternalName::object() => {
                format!("({base}) {actual}")
            }
            _ => format!("({base}) ({}) {actual}", self.names.class(&boxed.to_binary())),
        }
    }

    /// `assertEquals(other, var)` or the assertion that they differ.
    fn assert_equals_other(&mut self, var: VarId, other: VarId, equal: bool) -> String {
        let primitive = |ty: Option<FieldType>| match ty {
            Some(FieldType::Base(base)) => Some(base),
            _ => None,
        };
        match (primitive(self.erasure(var)), primitive(self.erasure(other))) {
            (Some(base), Some(_)) => self.compare_primitives(var, other, equal, base),
            (Some(_), None) if !equal => {
                format!("assertFalse({}.equals({}));", self.receiver(other), self.subject(var))
            }
            _ if !equal => format!("assertFalse({}.equals({}));", self.receiver(var), self.subject(other)),
            _ => format!("assertEquals({}, {});", self.as_object(other), self.as_object(var)),
        }
    }

    /// `assertEquals(int1, int0)`, or `assertNotEquals` (exactly, for floats).
    fn compare_primitives(&mut self, var: VarId, other: VarId, equal: bool, base: BaseType) -> String {
        let (expected, actual) = (self.subject(other), self.subject(var));
        let (method, delta) = match (equal, delta(base)) {
            (true, Some(delta)) => ("assertEquals", format!(", {delta}")),
            (false, Some(_)) => ("assertNotEquals", ", 0.0".to_owned()),
            (equal, None) => (if equal { "assertEquals" } else { "assertNotEquals" }, String::new()),
        };
        format!("{method}({expected}, {actual}{delta});")
    }

    /// `var`, boxed with `(Object)` when it is primitive, so that a mix of
    /// primitive and reference picks `assertEquals(Object, Object)`.
    fn as_object(&mut self, var: VarId) -> String {
        let subject = self.subject(var);
        match self.erasure(var) {
            Some(FieldType::Base(_)) => {
                format!("({}) {subject}", self.names.class(&BinaryName::new("java.lang.Object")))
            }
            _ => subject,
        }
    }
}

/// The delta floats and doubles are compared with; `None` for other types.
fn delta(base: BaseType) -> Option<&'static str> {
    match base {
        BaseType::Float => Some("0.01f"),
        BaseType::Double => Some("0.01"),
        _ => None,
    }
}
