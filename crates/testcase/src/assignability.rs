//! The assignability rule of test cases, shared by the validator
//! ([`crate::Validator::is_assignable`]) and the test cluster
//! ([`crate::TestCluster::is_assignable`]), which differ only in how they
//! know the supertypes of a class.

use model::descriptor::FieldType;
use model::names::InternalName;

/// Whether a value of static type `from` may be passed where `to` is
/// expected, without conversions: the same type; reference to
/// `java.lang.Object`; an array to `Cloneable` or `Serializable`; `A[]` to
/// `B[]` when `A` and `B` are references and `A` is assignable to `B`; and
/// class to class when `is_subclass(from, to)` (asked only for two distinct
/// class types, `to` not `Object`). Primitives are assignable only to
/// themselves: there is no widening, boxing or unboxing.
///
/// # Errors
/// The first error of `is_subclass`.
pub(crate) fn is_assignable<E>(
    from: &FieldType,
    to: &FieldType,
    is_subclass: &mut impl FnMut(&InternalName, &InternalName) -> Result<bool, E>,
) -> Result<bool, E> {
    match (from, to) {
        (a, b) if a == b => Ok(true),
        (FieldType::Base(_), _) | (_, FieldType::Base(_)) => Ok(false),
        (_, FieldType::Object(name)) if name.as_str() == "java/lang/Object" => Ok(true),
        (FieldType::Array(a), FieldType::Array(b)) => {
            if a.is_reference() && b.is_reference() {
                is_assignable(a, b, is_subclass)
            } else {
                Ok(false)
            }
        }
        (FieldType::Array(_), FieldType::Object(name)) => {
            Ok(matches!(name.as_str(), "java/lang/Cloneable" | "java/io/Serializable"))
        }
        (FieldType::Object(_), FieldType::Array(_)) => Ok(false),
        (FieldType::Object(a), FieldType::Object(b)) => is_subclass(a, b),
    }
}
