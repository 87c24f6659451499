//! Assertions on arrays: a test observes an array through static calls
//! appended after it, and the observed values become an
//! [`AssertionKind::ArrayElements`] (arrays of primitives, with few
//! elements) or else an [`AssertionKind::ArrayLength`].
//!
//! | array | observers | assertion |
//! |---|---|---|
//! | `char[]` | `String.valueOf(char[])`, then `Array.getLength` | its chars, or its length |
//! | other primitives | `Arrays.toString(x[])`, then `Array.getLength` | its elements, or its length |
//! | references | `java.lang.reflect.Array.getLength(Object)` | its length |
//!
//! The length is asserted only when the elements are not (too many, or a
//! text the executor cut short).

use exec::ValueSummary;
use model::descriptor::{BaseType, FieldType};
use testcase::assertion::{AssertionKind, Literal};
use testcase::{MethodRef, Primitive};

/// The most elements an [`AssertionKind::ArrayElements`] lists; a longer
/// array of primitives gets its length asserted instead.
pub const MAX_ELEMENTS: usize = 16;

/// The static methods that observe an array of type `array` (the array's
/// own type, `[I`), each taking the array as its one argument: for
/// primitives the one that shows the elements, then for every array
/// `Array.getLength` (an array too long to show still has its length
/// asserted); empty when `array` is not an array type.
pub fn observers(array: &FieldType) -> Vec<MethodRef> {
    let FieldType::Array(elem) = array else { return Vec::new() };
    let elements = match elem.as_ref() {
        FieldType::Base(BaseType::Char) => Some(("java.lang.String", "valueOf", "([C)Ljava/lang/String;".to_owned())),
        FieldType::Base(_) => {
            Some(("java.util.Arrays", "toString", format!("({})Ljava/lang/String;", array.to_descriptor())))
        }
        _ => None,
    };
    let length = ("java.lang.reflect.Array", "getLength", "(Ljava/lang/Object;)I".to_owned());
    elements.into_iter().chain([length]).filter_map(|(o, n, d)| MethodRef::parse(o, n, &d).ok()).collect()
}

/// Whether `method` is one of the [`observers`].
pub fn is_observer(method: &MethodRef) -> bool {
    let name = (method.owner.as_str(), method.name.as_str());
    let array_param = matches!(method.descriptor.params.first(), Some(FieldType::Array(_)));
    matches!(name, ("java.util.Arrays", "toString") | ("java.lang.String", "valueOf")) && array_param
        || is_length_observer(method)
}

/// Whether `method` is the observer of an array's length, `Array.getLength`.
pub fn is_length_observer(method: &MethodRef) -> bool {
    (method.owner.as_str(), method.name.as_str()) == ("java.lang.reflect.Array", "getLength")
}

/// The assertion that the value `v` an observer ([`observers`]) returned shows, or
/// `None` when it shows none (a string cut short by the executor, an
/// element that does not parse).
pub fn assertion(observer: &MethodRef, v: &ValueSummary) -> Option<AssertionKind> {
    let elem = match observer.descriptor.params.first()? {
        FieldType::Array(elem) => match elem.as_ref() {
            FieldType::Base(base) => *base,
            _ => return None,
        },
        _ => return length(v),
    };
    let ValueSummary::String(text) = v else { return None };
    let elements = if elem == BaseType::Char {
        // A lone surrogate came back as U+FFFD: the chars are not known.
        (!text.contains('\u{FFFD}'))
            .then(|| text.encode_utf16().map(|c| Literal::Primitive(Primitive::Char(c))).collect())?
    } else {
        parse_elements(text, elem)?
    };
    Some(if elements.len() <= MAX_ELEMENTS {
        AssertionKind::ArrayElements(elements)
    } else {
        AssertionKind::ArrayLength(i32::try_from(elements.len()).ok()?)
    })
}

/// An [`AssertionKind::ArrayLength`] from `Array.getLength`'s value.
fn length(v: &ValueSummary) -> Option<AssertionKind> {
    match v {
        ValueSummary::Integer(n) => Some(AssertionKind::ArrayLength(i32::try_from(*n).ok()?)),
        _ => None,
    }
}

/// The elements of `Arrays.toString`'s text (`[1, 2, 3]`) as literals of
/// `elem`; `None` for a text that was cut short or does not parse.
fn parse_elements(text: &str, elem: BaseType) -> Option<Vec<Literal>> {
    let inner = text.strip_prefix('[')?.strip_suffix(']')?;
    if inner.is_empty() {
        return Some(Vec::new());
    }
    inner.split(", ").map(|item| element(item, elem).map(Literal::Primitive)).collect()
}

/// One element as Java's `String.valueOf` writes it (`-3`, `true`,
/// `1.0E10`, `NaN`, `-Infinity`).
fn element(item: &str, elem: BaseType) -> Option<Primitive> {
    Some(match elem {
        BaseType::Boolean => Primitive::Boolean(item.parse().ok()?),
        BaseType::Byte => Primitive::Byte(item.parse().ok()?),
        BaseType::Short => Primitive::Short(item.parse().ok()?),
        BaseType::Int => Primitive::Int(item.parse().ok()?),
        BaseType::Long => Primitive::Long(item.parse().ok()?),
        BaseType::Float => Primitive::Float(item.parse().ok()?),
        BaseType::Double => Primitive::Double(item.parse().ok()?),
        BaseType::Char => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(descriptor: &str) -> FieldType {
        FieldType::parse(descriptor).unwrap()
    }

    fn observed(array: &str, v: ValueSummary) -> Option<AssertionKind> {
        assertion(&observers(&ty(array))[0], &v)
    }

    #[test]
    fn each_array_type_has_its_observers() {
        let names = |d: &str| {
            let all = observers(&ty(d));
            all.iter().map(|m| format!("{}.{}{}", m.owner, m.name, m.descriptor.to_descriptor())).collect::<Vec<_>>()
        };
        let length = "java.lang.reflect.Array.getLength(Ljava/lang/Object;)I";
        assert_eq!(names("[I"), ["java.util.Arrays.toString([I)Ljava/lang/String;", length]);
        assert_eq!(names("[C"), ["java.lang.String.valueOf([C)Ljava/lang/String;", length]);
        assert_eq!(names("[Ljava/lang/String;"), [length]);
        assert_eq!(names("[[I"), [length]);
        assert!(names("I").is_empty());
    }

    #[test]
    fn elements_are_read_back_as_java_writes_them() {
        let int = |v: i32| Literal::Primitive(Primitive::Int(v));
        let text = |s: &str| ValueSummary::String(s.to_owned());
        assert_eq!(observed("[I", text("[1, -2]")), Some(AssertionKind::ArrayElements(vec![int(1), int(-2)])));
        assert_eq!(observed("[I", text("[]")), Some(AssertionKind::ArrayElements(vec![])));
        let doubles = observed("[D", text("[1.0E10, NaN, -Infinity]"));
        let Some(AssertionKind::ArrayElements(d)) = doubles else { panic!("{doubles:?}") };
        assert!(
            matches!(d[..], [Literal::Primitive(Primitive::Double(a)), Literal::Primitive(Primitive::Double(b)), Literal::Primitive(Primitive::Double(c))] if a == 1e10 && b.is_nan() && c == f64::NEG_INFINITY)
        );
        let chars = observed("[C", text("a,"));
        let ch = |c: char| Literal::Primitive(Primitive::Char(c as u16));
        assert_eq!(chars, Some(AssertionKind::ArrayElements(vec![ch('a'), ch(',')])));
        // Cut short by the executor: no assertion.
        assert_eq!(observed("[I", text("[1, 2, 3")), None);
        let many = format!("[{}]", vec!["7"; 20].join(", "));
        assert_eq!(observed("[J", text(&many)), Some(AssertionKind::ArrayLength(20)));
        assert_eq!(observed("[Ljava/lang/Object;", ValueSummary::Integer(3)), Some(AssertionKind::ArrayLength(3)));
    }
}
