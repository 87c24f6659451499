//! Java source literals for primitive values, chars and strings, and the
//! source of lambdas ([`lambda`]) and reflective lookups ([`reflection`]),
//! as the text form of the IR and the JUnit writer print them.
//!
//! The output is valid Java source that evaluates to exactly the value:
//! `3L`, `1.5f`, `(byte) -1`, `Double.NaN`, `'\u0000'`, `"a\n\"b\""`.
//! Characters outside printable ASCII become `\uXXXX` escapes (UTF-16 code
//! units), except the ones Java has a named escape for: Java turns `\u000a`
//! into a real line break before lexing, so `\n` and `\r` must be written
//! with their names.

use std::fmt::Write;

use model::descriptor::FieldType;

use crate::ir::{LambdaBody, MemberRef, MethodRef, Primitive, VarId};

/// The Java literal of a primitive value: `true`, `(byte) 3`, `(short) -3`,
/// `'a'`, `42`, `42L`, `1.5f`, `1.0E10`-style doubles as `1e10`, and
/// `Float.NaN`, `Double.POSITIVE_INFINITY` and so on for the special values.
pub fn primitive_literal(value: Primitive) -> String {
    match value {
        Primitive::Boolean(b) => b.to_string(),
        Primitive::Byte(b) => format!("(byte) {b}"),
        Primitive::Short(s) => format!("(short) {s}"),
        Primitive::Char(c) => char_literal(c),
        Primitive::Int(i) => i.to_string(),
        Primitive::Long(l) => format!("{l}L"),
        Primitive::Float(f) => match special_float(f64::from(f), "Float") {
            Some(name) => name,
            // `{:?}` is the shortest text that reads back as the same value,
            // with `.0` or an exponent, both of which Java accepts.
            None => format!("{f:?}f"),
        },
        Primitive::Double(d) => special_float(d, "Double").unwrap_or_else(|| format!("{d:?}")),
    }
}

fn special_float(value: f64, class: &str) -> Option<String> {
    if value.is_nan() {
        Some(format!("{class}.NaN"))
    } else if value == f64::INFINITY {
        Some(format!("{class}.POSITIVE_INFINITY"))
    } else if value == f64::NEG_INFINITY {
        Some(format!("{class}.NEGATIVE_INFINITY"))
    } else {
        None
    }
}

/// The Java literal of a UTF-16 code unit: `'a'`, `'\''`, `'\n'`, `'\u0000'`, `'\uD800'`.
pub fn char_literal(unit: u16) -> String {
    let mut out = String::from("'");
    escape_unit(unit, '\'', &mut out);
    out.push('\'');
    out
}

/// The Java literal of a string: `"a\n\"b\""`; non-ASCII text is written as
/// `\uXXXX` escapes of its UTF-16 code units.
pub fn string_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for unit in text.encode_utf16() {
        escape_unit(unit, '"', &mut out);
    }
    out.push('"');
    out
}

/// The Java literal of the default value of a type: `null` for references,
/// `false`, `0`, `0L`, `(byte) 0`, `'\u0000'`, `0.0f`, `0.0` for primitives.
pub fn default_literal(ty: &FieldType) -> String {
    match ty {
        FieldType::Base(base) => primitive_literal(Primitive::zero(*base)),
        FieldType::Object(_) | FieldType::Array(_) => "null".to_owned(),
    }
}

/// The parameter names of a lambda with `n` parameters: `a`, `b`, … `z`,
/// then `p26_`, `p27_`, …. The JUnit writer names every local after its
/// type with a counter (`string0`), so no name here ends in a digit and
/// none shadows a local, which Java forbids for lambda parameters.
pub fn lambda_parameters(n: usize) -> Vec<String> {
    (0..n).map(|i| if i < 26 { char::from(b'a' + i as u8).to_string() } else { format!("p{i}_") }).collect()
}

/// The source of a lambda implementing `method`: `(a, b) -> body`, where a
/// returned value is spelled by `value` and `java.lang.Comparable` is
/// spelled `comparable` (how the caller names classes): `(a) -> {}` for a
/// `void` method, `(a) -> null`, `(a) -> string0`, `(a) -> a`,
/// `(a, b) -> ((Comparable) a).compareTo(b)`.
pub fn lambda(method: &MethodRef, body: LambdaBody, value: impl FnOnce(VarId) -> String, comparable: &str) -> String {
    let params = lambda_parameters(method.descriptor.params.len());
    let first = params.first().map_or("null", String::as_str);
    let second = params.get(1).map_or("null", String::as_str);
    let result = match (body, &method.descriptor.ret) {
        (_, None) => "{}".to_owned(),
        (LambdaBody::Default, Some(ret)) => default_literal(ret),
        (LambdaBody::Returns(var), Some(_)) => value(var),
        (LambdaBody::Identity, Some(_)) => first.to_owned(),
        (LambdaBody::NaturalOrder, Some(_)) => format!("(({comparable}) {first}).compareTo({second})"),
    };
    format!("({}) -> {result}", params.join(", "))
}

/// The source of a lookup by reflection, with classes spelled by `class`:
/// `Foo.class.getDeclaredMethod("bar", int.class, String[].class)`,
/// `Foo.class.getDeclaredConstructor()`, `Foo.class.getDeclaredField("count")`.
pub fn reflection(member: &MemberRef, mut class: impl FnMut(&FieldType) -> String) -> String {
    let owner = class(&FieldType::Object(member.owner().to_internal()));
    let (lookup, name, params) = match member {
        MemberRef::Field(field) => return format!("{owner}.class.getDeclaredField({})", string_literal(&field.name)),
        MemberRef::Method(m) if m.is_constructor() => ("getDeclaredConstructor", None, &m.descriptor.params),
        MemberRef::Method(m) => ("getDeclaredMethod", Some(string_literal(&m.name)), &m.descriptor.params),
    };
    let classes = params.iter().map(|p| format!("{}.class", class(p)));
    let args: Vec<String> = name.into_iter().chain(classes).collect();
    format!("{owner}.class.{lookup}({})", args.join(", "))
}

/// Appends one code unit, escaped for a literal delimited by `quote`.
fn escape_unit(unit: u16, quote: char, out: &mut String) {
    let named = match unit {
        0x08 => Some('b'),
        0x09 => Some('t'),
        0x0a => Some('n'),
        0x0c => Some('f'),
        0x0d => Some('r'),
        0x5c => Some('\\'),
        _ if unit == quote as u16 => Some(quote),
        _ => None,
    };
    if let Some(c) = named {
        out.push('\\');
        out.push(c);
    } else if (0x20..0x7f).contains(&unit) {
        out.push(char::from(unit as u8));
    } else {
        let _ = write!(out, "\\u{unit:04x}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(cases: &[(Primitive, &str)]) {
        for (value, expected) in cases {
            assert_eq!(primitive_literal(*value), *expected, "for {value:?}");
        }
    }

    #[test]
    fn integers_carry_their_width() {
        check(&[
            (Primitive::Boolean(true), "true"),
            (Primitive::Byte(-128), "(byte) -128"),
            (Primitive::Short(300), "(short) 300"),
            (Primitive::Int(42), "42"),
            (Primitive::Int(i32::MIN), "-2147483648"),
            (Primitive::Long(7), "7L"),
            (Primitive::Long(i64::MIN), "-9223372036854775808L"),
        ]);
    }

    #[test]
    fn floats_and_doubles_read_back_as_the_same_value() {
        check(&[
            (Primitive::Double(1.0), "1.0"),
            (Primitive::Double(0.1), "0.1"),
            (Primitive::Double(-0.0), "-0.0"),
            (Primitive::Double(1e300), "1e300"),
            (Primitive::Double(f64::MIN_POSITIVE / 4.0), "5.562684646268003e-309"),
            (Primitive::Double(f64::NAN), "Double.NaN"),
            (Primitive::Double(f64::INFINITY), "Double.POSITIVE_INFINITY"),
            (Primitive::Double(f64::NEG_INFINITY), "Double.NEGATIVE_INFINITY"),
            (Primitive::Float(1.5), "1.5f"),
            (Primitive::Float(0.1), "0.1f"),
            (Primitive::Float(f32::MAX), "3.4028235e38f"),
            (Primitive::Float(f32::NAN), "Float.NaN"),
            (Primitive::Float(f32::NEG_INFINITY), "Float.NEGATIVE_INFINITY"),
        ]);
    }

    #[test]
    fn chars_use_named_escapes_and_unicode_escapes() {
        let cases: &[(u16, &str)] = &[
            (u16::from(b'a'), r"'a'"),
            (u16::from(b'\''), r"'\''"),
            (u16::from(b'"'), r#"'"'"#),
            (u16::from(b'\\'), r"'\\'"),
            (0x0a, r"'\n'"),
            (0x0d, r"'\r'"),
            (0x09, r"'\t'"),
            (0x08, r"'\b'"),
            (0x0c, r"'\f'"),
            (0, r"'\u0000'"),
            (0x7f, r"'\u007f'"),
            (0xe9, r"'\u00e9'"),
            (0xd800, r"'\ud800'"),
        ];
        for (unit, expected) in cases {
            assert_eq!(char_literal(*unit), *expected, "for {unit:#x}");
        }
    }

    #[test]
    fn lambdas_return_what_their_body_says_and_name_no_local() {
        let m = |d: &str| MethodRef::parse("java.util.Comparator", "compare", d).unwrap();
        let names = |v: VarId| format!("string{}", v.0);
        let cmp = m("(Ljava/lang/Object;Ljava/lang/Object;)I");
        assert_eq!(
            lambda(&cmp, LambdaBody::NaturalOrder, names, "Comparable"),
            "(a, b) -> ((Comparable) a).compareTo(b)"
        );
        assert_eq!(lambda(&cmp, LambdaBody::Default, names, "Comparable"), "(a, b) -> 0");
        assert_eq!(lambda(&m("(J)J"), LambdaBody::Identity, names, "Comparable"), "(a) -> a");
        assert_eq!(lambda(&m("()Ljava/lang/String;"), LambdaBody::Returns(VarId(3)), names, "C"), "() -> string3");
        assert_eq!(lambda(&m("(Ljava/lang/Object;)V"), LambdaBody::Default, names, "C"), "(a) -> {}");
        assert_eq!(lambda(&m("()[I"), LambdaBody::Default, names, "C"), "() -> null");
        assert_eq!(lambda_parameters(28)[26..], ["p26_", "p27_"]);
        assert_eq!(default_literal(&FieldType::parse("C").unwrap()), r"'\u0000'");
    }

    #[test]
    fn strings_escape_quotes_backslashes_and_non_ascii() {
        assert_eq!(string_literal("a\n\"b\""), r#""a\n\"b\"""#);
        assert_eq!(string_literal(r"it's C:\u0041"), r#""it's C:\\u0041""#);
        assert_eq!(string_literal("é😀\0"), r#""\u00e9\ud83d\ude00\u0000""#);
        assert_eq!(string_literal(""), r#""""#);
    }
}
