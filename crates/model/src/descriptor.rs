//! Field and method descriptors (JVMS §4.3): the erased types that class files use to link fields and methods.
//!
//! [`FieldType::parse`] and [`MethodDescriptor::parse`] check a descriptor once, at the class-file boundary.
//! They never panic, and their [`DescriptorError`] names the descriptor and the byte offset of the defect.
//! Generic types live in [`crate::signature`].

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::cursor::{Cursor, impl_cursor_error_kind};
use crate::names::{InternalName, class_name_defect};

/// The most array dimensions a descriptor may have (JVMS §4.3.2).
pub const MAX_ARRAY_DIMENSIONS: usize = 255;

/// The most local-variable slots the parameters of a method descriptor may take (JVMS §4.3.3).
///
/// The limit counts `this` for instance methods, which [`MethodDescriptor::parse`] cannot know about, so it only checks the parameters themselves against it.
pub const MAX_PARAMETER_SLOTS: usize = 255;

/// A primitive type, as a descriptor spells it with one character (JVMS §4.3.2, Table 4.3-A).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum BaseType {
    /// `B`, `byte`.
    Byte,
    /// `C`, `char`.
    Char,
    /// `D`, `double`.
    Double,
    /// `F`, `float`.
    Float,
    /// `I`, `int`.
    Int,
    /// `J`, `long`.
    Long,
    /// `S`, `short`.
    Short,
    /// `Z`, `boolean`.
    Boolean,
}

/// The type of a field, parameter, local variable or value, as a field descriptor spells it (JVMS §4.3.2).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum FieldType {
    /// A primitive type, such as `I`.
    Base(BaseType),
    /// A class or interface type, such as `Ljava/lang/String;`.
    Object(InternalName),
    /// An array type, such as `[I`; the box holds the component type.
    Array(Box<FieldType>),
}

/// The parameter and return types of a method, as a method descriptor spells them (JVMS §4.3.3).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct MethodDescriptor {
    /// The parameter types in declaration order, without `this`.
    pub params: Vec<FieldType>,
    /// The return type, or `None` for `void`.
    pub ret: Option<FieldType>,
}

/// The error of [`FieldType::parse`] and [`MethodDescriptor::parse`]: the string is not a well-formed descriptor.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid descriptor {descriptor:?} at {position}: {kind}")]
#[non_exhaustive]
pub struct DescriptorError {
    /// The rejected descriptor.
    pub descriptor: String,
    /// The byte offset of the defect in `descriptor`.
    pub position: usize,
    /// What is wrong at `position`.
    pub kind: DescriptorErrorKind,
}

/// What is wrong with a descriptor, at the position that [`DescriptorError`] gives.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DescriptorErrorKind {
    /// The descriptor has another character where it needs the named element.
    #[error("expected {0}")]
    Expected(&'static str),
    /// The descriptor ends where it needs the named element.
    #[error("unexpected end, expected {0}")]
    UnexpectedEnd(&'static str),
    /// A class name has an empty segment or a `.`, `;` or `[` (JVMS §4.2.1).
    #[error("invalid class name")]
    InvalidClassName,
    /// The descriptor goes on after a complete type.
    #[error("trailing characters")]
    TrailingCharacters,
    /// An array type has more than [`MAX_ARRAY_DIMENSIONS`] dimensions.
    #[error("more than {MAX_ARRAY_DIMENSIONS} array dimensions")]
    TooManyDimensions,
    /// The parameters take more than [`MAX_PARAMETER_SLOTS`] slots.
    #[error("parameters take more than {MAX_PARAMETER_SLOTS} slots")]
    TooManyParameterSlots,
}

impl BaseType {
    /// All primitive types, in the order of JVMS Table 4.3-A.
    pub const ALL: [BaseType; 8] = [
        BaseType::Byte,
        BaseType::Char,
        BaseType::Double,
        BaseType::Float,
        BaseType::Int,
        BaseType::Long,
        BaseType::Short,
        BaseType::Boolean,
    ];

    /// The primitive type that a descriptor spells `c`, such as `Int` for `I`; `None` for any other character, including `V`.
    pub const fn from_descriptor_char(c: char) -> Option<BaseType> {
        Some(match c {
            'B' => BaseType::Byte,
            'C' => BaseType::Char,
            'D' => BaseType::Double,
            'F' => BaseType::Float,
            'I' => BaseType::Int,
            'J' => BaseType::Long,
            'S' => BaseType::Short,
            'Z' => BaseType::Boolean,
            _ => return None,
        })
    }

    /// The descriptor character, such as `I` for `Int` (JVMS Table 4.3-A).
    pub const fn descriptor_char(self) -> char {
        match self {
            BaseType::Byte => 'B',
            BaseType::Char => 'C',
            BaseType::Double => 'D',
            BaseType::Float => 'F',
            BaseType::Int => 'I',
            BaseType::Long => 'J',
            BaseType::Short => 'S',
            BaseType::Boolean => 'Z',
        }
    }

    /// The Java keyword, such as `int`.
    pub const fn java_name(self) -> &'static str {
        match self {
            BaseType::Byte => "byte",
            BaseType::Char => "char",
            BaseType::Double => "double",
            BaseType::Float => "float",
            BaseType::Int => "int",
            BaseType::Long => "long",
            BaseType::Short => "short",
            BaseType::Boolean => "boolean",
        }
    }

    /// The local-variable slots a value takes: 2 for `long` and `double`, 1 otherwise (JVMS §2.6.1).
    pub const fn slots(self) -> u8 {
        match self {
            BaseType::Long | BaseType::Double => 2,
            _ => 1,
        }
    }
}

impl FieldType {
    /// Parses a field descriptor such as `[Ljava/lang/String;` (JVMS §4.3.2).
    ///
    /// # Errors
    ///
    /// Returns a [`DescriptorError`] if `descriptor` is not exactly one well-formed field type.
    pub fn parse(descriptor: &str) -> Result<FieldType, DescriptorError> {
        let mut parser = Parser::new(descriptor);
        let ty = parser.field_type()?;
        parser.cursor.finish()?;
        Ok(ty)
    }

    /// The type that a `CONSTANT_Class` entry names (JVMS §4.4.1): an array type for an array descriptor, a class type otherwise.
    ///
    /// # Errors
    ///
    /// Returns a [`DescriptorError`] if `name` starts with `[` but is not a well-formed array descriptor.
    pub fn from_internal_name(name: &InternalName) -> Result<FieldType, DescriptorError> {
        if name.is_array() { FieldType::parse(name.as_str()) } else { Ok(FieldType::Object(name.clone())) }
    }

    /// The name a `CONSTANT_Class` entry uses for this type (JVMS §4.4.1), or `None` for a primitive type.
    pub fn to_internal_name(&self) -> Option<InternalName> {
        match self {
            FieldType::Base(_) => None,
            FieldType::Object(name) => Some(name.clone()),
            FieldType::Array(_) => Some(InternalName::new(self.to_descriptor())),
        }
    }

    /// The field descriptor, such as `[Ljava/lang/String;`.
    pub fn to_descriptor(&self) -> String {
        let mut out = String::new();
        self.write_descriptor(&mut out);
        out
    }

    /// The local-variable slots a value takes: 2 for `long` and `double`, 1 otherwise (JVMS §2.6.1).
    pub fn slots(&self) -> u8 {
        match self {
            FieldType::Base(base) => base.slots(),
            FieldType::Object(_) | FieldType::Array(_) => 1,
        }
    }

    /// Whether values of this type are references: class and array types are, primitive types are not.
    pub fn is_reference(&self) -> bool {
        !matches!(self, FieldType::Base(_))
    }

    /// The type as Java source spells it, such as `java.lang.String[]` or `java.util.Map.Entry`.
    ///
    /// Nested classes are spelled with `.`, as [`InternalName::java_name`] does.
    pub fn java_name(&self) -> String {
        match self {
            FieldType::Base(base) => base.java_name().to_owned(),
            FieldType::Object(name) => name.java_name(),
            FieldType::Array(component) => format!("{}[]", component.java_name()),
        }
    }

    fn write_descriptor(&self, out: &mut String) {
        match self {
            FieldType::Base(base) => out.push(base.descriptor_char()),
            FieldType::Object(name) => {
                out.push('L');
                out.push_str(name.as_str());
                out.push(';');
            }
            FieldType::Array(component) => {
                out.push('[');
                component.write_descriptor(out);
            }
        }
    }
}

impl MethodDescriptor {
    /// Parses a method descriptor such as `(ILjava/lang/String;)V` (JVMS §4.3.3).
    ///
    /// # Errors
    ///
    /// Returns a [`DescriptorError`] if `descriptor` is malformed, or if its parameters take more than [`MAX_PARAMETER_SLOTS`] slots.
    pub fn parse(descriptor: &str) -> Result<MethodDescriptor, DescriptorError> {
        let mut parser = Parser::new(descriptor);
        parser.cursor.expect(b'(', "'('")?;
        let mut params = Vec::new();
        while !parser.cursor.eat(b')') {
            params.push(parser.field_type()?);
        }
        let params_end = parser.cursor.pos() - 1;
        let ret = if parser.cursor.eat(b'V') { None } else { Some(parser.field_type()?) };
        parser.cursor.finish()?;
        let method = MethodDescriptor { params, ret };
        if method.param_slots() > MAX_PARAMETER_SLOTS {
            return Err(parser.cursor.error_at(params_end, DescriptorErrorKind::TooManyParameterSlots));
        }
        Ok(method)
    }

    /// The method descriptor, such as `(ILjava/lang/String;)V`.
    pub fn to_descriptor(&self) -> String {
        let mut out = String::from("(");
        for param in &self.params {
            param.write_descriptor(&mut out);
        }
        out.push(')');
        match &self.ret {
            Some(ret) => ret.write_descriptor(&mut out),
            None => out.push('V'),
        }
        out
    }

    /// The local-variable slots the parameters take, not counting `this` (JVMS §4.3.3).
    pub fn param_slots(&self) -> usize {
        self.params.iter().map(|param| usize::from(param.slots())).sum()
    }
}

impl fmt::Display for BaseType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.java_name())
    }
}

/// Java source form, such as `java.lang.String[]`.
impl fmt::Display for FieldType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.java_name())
    }
}

/// Java source form with an arrow, such as `(int, java.lang.String) -> void`.
impl fmt::Display for MethodDescriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (i, param) in self.params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{param}")?;
        }
        match &self.ret {
            Some(ret) => write!(f, ") -> {ret}"),
            None => f.write_str(") -> void"),
        }
    }
}

impl_cursor_error_kind!(DescriptorErrorKind, DescriptorError, descriptor);

/// A parser over a descriptor.
///
/// It only steps over ASCII bytes or to just after a `;`, so the cursor stays on a char boundary.
struct Parser<'a> {
    cursor: Cursor<'a, DescriptorErrorKind>,
}

impl<'a> Parser<'a> {
    fn new(input: &'a str) -> Parser<'a> {
        Parser { cursor: Cursor::new(input) }
    }

    /// Parses the array dimensions iteratively, so that no input can exhaust the stack.
    fn field_type(&mut self) -> Result<FieldType, DescriptorError> {
        let start = self.cursor.pos();
        let mut dimensions = 0;
        while self.cursor.eat(b'[') {
            dimensions += 1;
        }
        if dimensions > MAX_ARRAY_DIMENSIONS {
            return Err(self.cursor.error_at(start, DescriptorErrorKind::TooManyDimensions));
        }
        let mut ty = self.non_array_type()?;
        for _ in 0..dimensions {
            ty = FieldType::Array(Box::new(ty));
        }
        Ok(ty)
    }

    fn non_array_type(&mut self) -> Result<FieldType, DescriptorError> {
        if self.cursor.eat(b'L') {
            return self.class_name().map(FieldType::Object);
        }
        let base = self.cursor.peek().and_then(|byte| BaseType::from_descriptor_char(char::from(byte)));
        match base {
            Some(base) => {
                self.cursor.advance(1);
                Ok(FieldType::Base(base))
            }
            None => Err(self.cursor.missing("field type")),
        }
    }

    /// Parses the class name after an `L` and the `;` that ends it.
    fn class_name(&mut self) -> Result<InternalName, DescriptorError> {
        let cursor = &mut self.cursor;
        let rest = cursor.rest();
        let Some(len) = rest.find(';') else {
            let kind = if rest.is_empty() { "class name" } else { "';'" };
            return Err(cursor.error_at(cursor.input().len(), DescriptorErrorKind::UnexpectedEnd(kind)));
        };
        if len == 0 {
            return Err(cursor.error(DescriptorErrorKind::Expected("class name")));
        }
        if let Some(offset) = class_name_defect(&rest[..len]) {
            return Err(cursor.error_at(cursor.pos() + offset, DescriptorErrorKind::InvalidClassName));
        }
        let name = InternalName::new(&rest[..len]);
        cursor.advance(len + 1);
        Ok(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses a field descriptor and renders the outcome: the Java form and slots, or the error message.
    fn field(descriptor: &str) -> String {
        match FieldType::parse(descriptor) {
            Ok(ty) => {
                assert_eq!(ty.to_descriptor(), descriptor, "round trip");
                format!("{ty} slots={} ref={}", ty.slots(), ty.is_reference())
            }
            Err(err) => format!("error at {}: {}", err.position, err.kind),
        }
    }

    /// Parses a method descriptor and renders the outcome: the Java form and parameter slots, or the error message.
    fn method(descriptor: &str) -> String {
        match MethodDescriptor::parse(descriptor) {
            Ok(method) => {
                assert_eq!(method.to_descriptor(), descriptor, "round trip");
                format!("{method} slots={}", method.param_slots())
            }
            Err(err) => format!("error at {}: {}", err.position, err.kind),
        }
    }

    fn check(render: fn(&str) -> String, cases: &[(&str, &str)]) {
        for (input, expected) in cases {
            assert_eq!(render(input), *expected, "for {input:?}");
        }
    }

    #[test]
    fn base_types_agree_with_table_4_3_a() {
        let rows: Vec<_> =
            BaseType::ALL.iter().map(|base| format!("{}={}/{}", base.descriptor_char(), base, base.slots())).collect();
        assert_eq!(rows.join(" "), "B=byte/1 C=char/1 D=double/2 F=float/1 I=int/1 J=long/2 S=short/1 Z=boolean/1");
        for base in BaseType::ALL {
            assert_eq!(BaseType::from_descriptor_char(base.descriptor_char()), Some(base));
        }
        assert_eq!(BaseType::from_descriptor_char('V'), None);
        assert_eq!(BaseType::from_descriptor_char('L'), None);
    }

    #[test]
    fn field_descriptors_parse_to_java_form() {
        check(
            field,
            &[
                ("I", "int slots=1 ref=false"),
                ("J", "long slots=2 ref=false"),
                ("D", "double slots=2 ref=false"),
                ("Z", "boolean slots=1 ref=false"),
                ("Ljava/lang/String;", "java.lang.String slots=1 ref=true"),
                ("Ljava/util/Map$Entry;", "java.util.Map.Entry slots=1 ref=true"),
                ("LFoo;", "Foo slots=1 ref=true"),
                ("[J", "long[] slots=1 ref=true"),
                ("[[Ljava/lang/Object;", "java.lang.Object[][] slots=1 ref=true"),
                ("Lé/ü;", "é.ü slots=1 ref=true"),
            ],
        );
    }

    #[test]
    fn malformed_field_descriptors_name_the_position() {
        check(
            field,
            &[
                ("", "error at 0: unexpected end, expected field type"),
                ("V", "error at 0: expected field type"),
                ("[V", "error at 1: expected field type"),
                ("[", "error at 1: unexpected end, expected field type"),
                ("L", "error at 1: unexpected end, expected class name"),
                ("L;", "error at 1: expected class name"),
                ("Ljava/lang/String", "error at 17: unexpected end, expected ';'"),
                ("Ljava.lang.String;", "error at 5: invalid class name"),
                ("La//b;", "error at 3: invalid class name"),
                ("La/[I;", "error at 3: invalid class name"),
                ("II", "error at 1: trailing characters"),
                ("Ljava/lang/String;I", "error at 18: trailing characters"),
                ("i", "error at 0: expected field type"),
                ("é", "error at 0: expected field type"),
            ],
        );
    }

    #[test]
    fn error_message_quotes_the_descriptor_and_names_the_position() {
        let err = MethodDescriptor::parse("(IL;)V").unwrap_err();
        assert_eq!(err.to_string(), r#"invalid descriptor "(IL;)V" at 3: expected class name"#);
        let err = FieldType::parse("Ljava/lang/String").unwrap_err();
        assert_eq!(err.to_string(), r#"invalid descriptor "Ljava/lang/String" at 17: unexpected end, expected ';'"#);
    }

    #[test]
    fn array_dimensions_are_limited_to_255() {
        let ok = format!("{}I", "[".repeat(255));
        assert!(FieldType::parse(&ok).is_ok());
        let too_many = format!("{}I", "[".repeat(256));
        let err = FieldType::parse(&too_many).unwrap_err();
        assert_eq!((err.position, err.kind), (0, DescriptorErrorKind::TooManyDimensions));
    }

    #[test]
    fn method_descriptors_parse_to_java_form() {
        check(
            method,
            &[
                ("()V", "() -> void slots=0"),
                ("(ILjava/lang/String;)V", "(int, java.lang.String) -> void slots=2"),
                ("(JD[J)I", "(long, double, long[]) -> int slots=5"),
                ("([Ljava/lang/String;)V", "(java.lang.String[]) -> void slots=1"),
                ("(Ljava/util/Map$Entry;)[[Z", "(java.util.Map.Entry) -> boolean[][] slots=1"),
            ],
        );
    }

    #[test]
    fn malformed_method_descriptors_name_the_position() {
        check(
            method,
            &[
                ("(IL;)V", "error at 3: expected class name"),
                ("", "error at 0: unexpected end, expected '('"),
                ("V", "error at 0: expected '('"),
                ("I)V", "error at 0: expected '('"),
                ("(", "error at 1: unexpected end, expected field type"),
                ("(I", "error at 2: unexpected end, expected field type"),
                ("()", "error at 2: unexpected end, expected field type"),
                ("(V)V", "error at 1: expected field type"),
                ("()VV", "error at 3: trailing characters"),
                ("()[V", "error at 3: expected field type"),
                ("(Ljava/lang/String)V", "error at 20: unexpected end, expected ';'"),
            ],
        );
    }

    #[test]
    fn parameter_slots_are_limited_to_255() {
        let ok = format!("({}I)V", "J".repeat(127));
        assert_eq!(MethodDescriptor::parse(&ok).map(|m| m.param_slots()), Ok(255));
        let too_many = format!("({})V", "J".repeat(128));
        let err = MethodDescriptor::parse(&too_many).unwrap_err();
        assert_eq!((err.position, err.kind), (129, DescriptorErrorKind::TooManyParameterSlots));
    }

    #[test]
    fn class_constant_names_convert_to_field_types_and_back() {
        let cases = [
            ("java/lang/String", "java.lang.String"),
            ("[Ljava/lang/String;", "java.lang.String[]"),
            ("[[I", "int[][]"),
        ];
        for (name, java) in cases {
            let name = InternalName::new(name);
            let ty = FieldType::from_internal_name(&name).unwrap();
            assert_eq!(ty.to_string(), java);
            assert_eq!(ty.to_internal_name(), Some(name));
        }
        assert_eq!(FieldType::Base(BaseType::Int).to_internal_name(), None);
        let err = FieldType::from_internal_name(&InternalName::new("[Q")).unwrap_err();
        assert_eq!((err.position, err.kind), (1, DescriptorErrorKind::Expected("field type")));
    }

    #[test]
    fn truncated_and_mutated_descriptors_never_panic() {
        let valid = ["(ILjava/lang/String;[[JLé/ü;)[Ljava/util/Map$Entry;", "[[Ljava/lang/Object;"];
        for descriptor in valid {
            for (end, _) in descriptor.char_indices() {
                let prefix = &descriptor[..end];
                assert!(MethodDescriptor::parse(prefix).is_err(), "{prefix:?}");
                let _ = FieldType::parse(prefix);
                let _ = FieldType::parse(&descriptor[end..]);
            }
        }
    }
}
