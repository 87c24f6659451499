//! Class names in the two spellings the JVM uses (JVMS §4.2.1, JLS §13.1).
//!
//! Class files spell class names in *internal form* (`java/lang/String`).
//! Reflection and class loaders use *binary names* (`java.lang.String`).
//! Both keep `$` between an outer class and its nested class, so `java/util/Map$Entry` and `java.util.Map$Entry` name the same class.
//! The two newtypes keep the spellings apart, so that one is never passed where the other is expected.
//!
//! `$` is also a legal character inside an identifier (`$Proxy12`, `Foo$`), so class files alone cannot tell a nested class from a top-level class with `$` in its name.
//! The authority is the `InnerClasses` attribute (JVMS §4.7.6).
//! The helpers here that split at `$` ([`InternalName::outer_class`], [`InternalName::java_name`]) only treat a `$` with a non-`$` character on both sides as a nesting separator.

use std::borrow::Borrow;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::descriptor::FieldType;

/// A class or interface name in internal form (JVMS §4.2.1), such as `java/lang/String` or `java/util/Map$Entry`.
///
/// A `CONSTANT_Class` entry that names an array class holds the array's field descriptor instead (JVMS §4.4.1), such as `[Ljava/lang/String;`.
/// That spelling is an `InternalName` too; see [`InternalName::is_array`].
/// [`InternalName::new`] trusts its input, [`InternalName::parse`] checks it, and deserialization trusts it.
/// The text is shared (`Arc<str>`): the search clones test cases, and so names, thousands of times a second.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct InternalName(Arc<str>);

/// A class or interface name in binary form (JLS §13.1), such as `java.lang.String` or `java.util.Map$Entry`.
///
/// This is the spelling of `Class.getName()`, so array classes are spelled `[Ljava.lang.String;`.
/// [`BinaryName::new`] trusts its input, [`BinaryName::parse`] checks it, and deserialization trusts it.
/// The text is shared (`Arc<str>`), as for [`InternalName`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BinaryName(Arc<str>);

/// The error of [`InternalName::parse`] and [`BinaryName::parse`]: the name is not a well-formed class name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid class name {name:?} at {position}")]
#[non_exhaustive]
pub struct NameError {
    /// The rejected name.
    pub name: String,
    /// The byte offset of the first defect in `name`.
    pub position: usize,
}

impl InternalName {
    /// Wraps `name` without checking it; use this for names that come from an already checked source.
    pub fn new(name: impl Into<String>) -> InternalName {
        InternalName(Arc::from(name.into()))
    }

    /// Checks that `name` is a class name in internal form, or an array descriptor (JVMS §4.2.1, §4.4.1).
    ///
    /// # Errors
    ///
    /// Returns a [`NameError`] if `name` is empty, has an empty `/`-separated segment, contains `.`, `;` or `[` in a class name, or is a malformed array descriptor.
    pub fn parse(name: &str) -> Result<InternalName, NameError> {
        let defect = if name.starts_with('[') {
            FieldType::parse(name).err().map(|err| err.position)
        } else {
            class_name_defect(name)
        };
        match defect {
            None => Ok(InternalName(Arc::from(name))),
            Some(position) => Err(NameError { name: name.to_owned(), position }),
        }
    }

    /// The name of `java.lang.Object`, the erasure of an unbounded type variable.
    pub fn object() -> InternalName {
        InternalName::new("java/lang/Object")
    }

    /// The name as a string slice, in internal form.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether this names an array class, that is, it is an array descriptor such as `[I` (JVMS §4.4.1).
    pub fn is_array(&self) -> bool {
        self.0.starts_with('[')
    }

    /// The same name in binary form: `java/util/Map$Entry` becomes `java.util.Map$Entry`, `[Ljava/lang/String;` becomes `[Ljava.lang.String;`.
    pub fn to_binary(&self) -> BinaryName {
        BinaryName(Arc::from(self.0.replace('/', ".")))
    }

    /// The path of the class file relative to a class-path root or the root of a jar: `java/util/Map$Entry.class`.
    pub fn class_file_path(&self) -> String {
        format!("{}.class", self.0)
    }

    /// The part after the last `/`: `Map$Entry` for `java/util/Map$Entry`; an array name is returned whole.
    pub fn simple_name(&self) -> &str {
        if self.is_array() {
            return &self.0;
        }
        split_package(&self.0, '/').1
    }

    /// The package in internal form (`java/util` for `java/util/Map$Entry`), or `""` for the default package and for arrays.
    pub fn package(&self) -> &str {
        if self.is_array() {
            return "";
        }
        split_package(&self.0, '/').0
    }

    /// The name before the last nesting `$`: `java/util/Map` for `java/util/Map$Entry`, `None` for top-level classes and arrays.
    ///
    /// See the module docs for which `$` count as nesting separators.
    pub fn outer_class(&self) -> Option<InternalName> {
        if self.is_array() {
            return None;
        }
        outer_prefix(&self.0, '/').map(InternalName::new)
    }

    /// The name as Java source spells it: `java.util.Map.Entry`, or `java.lang.String[]` for an array name.
    ///
    /// See the module docs for which `$` become `.`.
    pub fn java_name(&self) -> String {
        if self.is_array()
            && let Ok(ty) = FieldType::parse(&self.0)
        {
            return ty.java_name();
        }
        source_name(&self.0)
    }
}

impl BinaryName {
    /// Wraps `name` without checking it; use this for names that come from an already checked source.
    pub fn new(name: impl Into<String>) -> BinaryName {
        BinaryName(Arc::from(name.into()))
    }

    /// Checks that `name` is a class name in binary form, or an array name as `Class.getName()` spells it.
    ///
    /// # Errors
    ///
    /// Returns a [`NameError`] if `name` contains `/`, or if its internal form is rejected by [`InternalName::parse`].
    pub fn parse(name: &str) -> Result<BinaryName, NameError> {
        if let Some(position) = name.find('/') {
            return Err(NameError { name: name.to_owned(), position });
        }
        match InternalName::parse(&name.replace('.', "/")) {
            Ok(_) => Ok(BinaryName(Arc::from(name))),
            Err(err) => Err(NameError { name: name.to_owned(), position: err.position }),
        }
    }

    /// The name as a string slice, in binary form.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether this names an array class, such as `[I` or `[Ljava.lang.String;`.
    pub fn is_array(&self) -> bool {
        self.0.starts_with('[')
    }

    /// The same name in internal form: `java.util.Map$Entry` becomes `java/util/Map$Entry`.
    pub fn to_internal(&self) -> InternalName {
        InternalName(Arc::from(self.0.replace('.', "/")))
    }

    /// The name of the class file at `path` (relative to a jar's root, `/`-separated): `java.util.Map$Entry` for
    /// `java/util/Map$Entry.class`. Every trailing `.class` is removed; the rest is trusted, as by [`BinaryName::new`].
    pub fn from_class_file_path(path: &str) -> BinaryName {
        InternalName::new(path.trim_end_matches(".class")).to_binary()
    }

    /// The path of the class file relative to a class-path root or the root of a jar: `java/util/Map$Entry.class`
    /// for `java.util.Map$Entry` (see [`InternalName::class_file_path`]).
    pub fn class_file_path(&self) -> String {
        self.to_internal().class_file_path()
    }

    /// The part after the last `.`: `Map$Entry` for `java.util.Map$Entry`; an array name is returned whole.
    pub fn simple_name(&self) -> &str {
        if self.is_array() {
            return &self.0;
        }
        split_package(&self.0, '.').1
    }

    /// The package in binary form (`java.util` for `java.util.Map$Entry`), or `""` for the default package and for arrays.
    pub fn package(&self) -> &str {
        if self.is_array() {
            return "";
        }
        split_package(&self.0, '.').0
    }

    /// The name before the last nesting `$`: `java.util.Map` for `java.util.Map$Entry`, `None` for top-level classes and arrays.
    pub fn outer_class(&self) -> Option<BinaryName> {
        if self.is_array() {
            return None;
        }
        outer_prefix(&self.0, '.').map(BinaryName::new)
    }

    /// The name as Java source spells it: `java.util.Map.Entry`, or `java.lang.String[]` for an array name.
    pub fn java_name(&self) -> String {
        self.to_internal().java_name()
    }
}

impl fmt::Display for InternalName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for BinaryName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for InternalName {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for BinaryName {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

// Both derive `Eq`, `Ord` and `Hash` from `String`, so they agree with `str`'s.
impl Borrow<str> for InternalName {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for BinaryName {
    fn borrow(&self) -> &str {
        &self.0
    }
}

// Comparing with a string slice compares the spelling, so that `name == "java/lang/Object"` reads as it should.
impl PartialEq<str> for InternalName {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for InternalName {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<str> for BinaryName {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for BinaryName {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl From<&InternalName> for BinaryName {
    fn from(name: &InternalName) -> BinaryName {
        name.to_binary()
    }
}

impl From<&BinaryName> for InternalName {
    fn from(name: &BinaryName) -> InternalName {
        name.to_internal()
    }
}

/// The byte offset of the first defect of `name` as a non-array class name in internal form (JVMS §4.2.1), or `None` if it is well formed.
pub(crate) fn class_name_defect(name: &str) -> Option<usize> {
    let mut segment_start = 0;
    for (i, byte) in name.bytes().enumerate() {
        match byte {
            b'/' if i == segment_start => return Some(i),
            b'/' => segment_start = i + 1,
            b'.' | b';' | b'[' => return Some(i),
            _ => {}
        }
    }
    // An empty name or a trailing `/` leaves an empty last segment.
    (segment_start == name.len()).then_some(name.len())
}

/// The Java source spelling of a non-array class name in internal form: `/` and nesting `$` become `.`.
fn source_name(internal: &str) -> String {
    let (package, simple) = split_package(internal, '/');
    let mut out = binary_package(package);
    if !out.is_empty() {
        out.push('.');
    }
    out.push_str(&nesting_parts(simple).join("."));
    out
}

/// A package name in binary form (`java.util`, as Java source and
/// `module-info` spell it) spelled in internal form (`java/util`), which is
/// also its folder in a jar or class directory.
pub fn internal_package(binary_package: &str) -> String {
    binary_package.replace('.', "/")
}

/// A package name in internal form (`java/util`) spelled in binary form (`java.util`).
pub(crate) fn binary_package(internal_package: &str) -> String {
    internal_package.replace('/', ".")
}

/// Splits `name` at its last `separator` into package and simple name; the package is `""` if there is none.
pub(crate) fn split_package(name: &str, separator: char) -> (&str, &str) {
    match name.rfind(separator) {
        Some(i) => (&name[..i], &name[i + 1..]),
        None => ("", name),
    }
}

/// Splits a simple name at its nesting `$`: `Map$Entry` gives `["Map", "Entry"]`; the result is never empty.
pub(crate) fn nesting_parts(simple: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    for i in nesting_separators(simple) {
        parts.push(&simple[start..i]);
        start = i + 1;
    }
    parts.push(&simple[start..]);
    parts
}

/// The byte offsets of the `$` in `simple` that have a non-`$` character on both sides.
fn nesting_separators(simple: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = simple.as_bytes();
    (1..bytes.len().saturating_sub(1))
        .filter(move |&i| bytes[i] == b'$' && bytes[i - 1] != b'$' && bytes[i + 1] != b'$')
}

/// The prefix of `name` before the last nesting `$` of its simple name, if there is one.
fn outer_prefix(name: &str, package_separator: char) -> Option<&str> {
    let (package, simple) = split_package(name, package_separator);
    let last = nesting_separators(simple).last()?;
    let simple_start = if package.is_empty() { 0 } else { package.len() + 1 };
    Some(&name[..simple_start + last])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Renders every query on an internal name on one line, so that each test is one table row.
    fn describe(name: &str) -> String {
        let name = InternalName::new(name);
        format!(
            "binary={} simple={} package={:?} outer={:?} java={}",
            name.to_binary(),
            name.simple_name(),
            name.package(),
            name.outer_class().map(|outer| outer.to_string()),
            name.java_name(),
        )
    }

    fn check(name: &str, expected: &str) {
        assert_eq!(describe(name), expected, "for {name:?}");
    }

    #[test]
    fn top_level_class_in_a_package() {
        check(
            "java/lang/String",
            r#"binary=java.lang.String simple=String package="java/lang" outer=None java=java.lang.String"#,
        );
    }

    #[test]
    fn nested_class_keeps_dollar_except_in_java_name() {
        check(
            "java/util/Map$Entry",
            r#"binary=java.util.Map$Entry simple=Map$Entry package="java/util" outer=Some("java/util/Map") java=java.util.Map.Entry"#,
        );
    }

    #[test]
    fn doubly_nested_class_has_the_middle_class_as_outer() {
        check("a/B$C$D", r#"binary=a.B$C$D simple=B$C$D package="a" outer=Some("a/B$C") java=a.B.C.D"#);
    }

    #[test]
    fn anonymous_class_is_nested_in_its_enclosing_class() {
        check("a/Outer$1", r#"binary=a.Outer$1 simple=Outer$1 package="a" outer=Some("a/Outer") java=a.Outer.1"#);
    }

    #[test]
    fn class_in_default_package_has_empty_package() {
        check("Foo$Bar", r#"binary=Foo$Bar simple=Foo$Bar package="" outer=Some("Foo") java=Foo.Bar"#);
    }

    #[test]
    fn dollar_at_an_edge_or_doubled_is_part_of_the_identifier() {
        check(
            "com/sun/proxy/$Proxy12",
            r#"binary=com.sun.proxy.$Proxy12 simple=$Proxy12 package="com/sun/proxy" outer=None java=com.sun.proxy.$Proxy12"#,
        );
        check("a/Foo$", r#"binary=a.Foo$ simple=Foo$ package="a" outer=None java=a.Foo$"#);
        check("a/A$$B", r#"binary=a.A$$B simple=A$$B package="a" outer=None java=a.A$$B"#);
    }

    #[test]
    fn array_names_have_no_package_or_outer_class() {
        check(
            "[Ljava/util/Map$Entry;",
            r#"binary=[Ljava.util.Map$Entry; simple=[Ljava/util/Map$Entry; package="" outer=None java=java.util.Map.Entry[]"#,
        );
        check("[[I", r#"binary=[[I simple=[[I package="" outer=None java=int[][]"#);
    }

    #[test]
    fn binary_name_queries_use_dots() {
        let name = BinaryName::new("java.util.Map$Entry");
        assert_eq!(name.to_internal().as_str(), "java/util/Map$Entry");
        assert_eq!(name.simple_name(), "Map$Entry");
        assert_eq!(name.package(), "java.util");
        assert_eq!(name.outer_class(), Some(BinaryName::new("java.util.Map")));
        assert_eq!(name.java_name(), "java.util.Map.Entry");
        assert_eq!(BinaryName::new("Foo").package(), "");
        assert_eq!(BinaryName::new("[Ljava.lang.String;").simple_name(), "[Ljava.lang.String;");
        assert_eq!(BinaryName::new("[Ljava.lang.String;").outer_class(), None);
    }

    #[test]
    fn conversions_round_trip() {
        for internal in ["java/lang/String", "java/util/Map$Entry", "Foo", "[[Ljava/lang/Object;", "[J"] {
            let name = InternalName::new(internal);
            assert_eq!(name.to_binary().to_internal(), name);
            assert_eq!(InternalName::from(&BinaryName::from(&name)), name);
        }
    }

    #[test]
    fn class_file_paths_use_the_internal_form() {
        assert_eq!(BinaryName::new("java.util.Map$Entry").class_file_path(), "java/util/Map$Entry.class");
        assert_eq!(InternalName::new("Foo").class_file_path(), "Foo.class");
        assert_eq!(BinaryName::from_class_file_path("java/util/Map$Entry.class"), "java.util.Map$Entry");
        assert_eq!(BinaryName::from_class_file_path("Foo.class"), "Foo");
    }

    #[test]
    fn parse_accepts_class_and_array_names() {
        for name in ["java/lang/String", "Foo", "a/b$c", "[I", "[[Ljava/lang/String;", "é/ü"] {
            assert_eq!(InternalName::parse(name).map(|n| n.to_string()), Ok(name.to_owned()));
        }
    }

    #[test]
    fn parse_reports_the_first_defect() {
        let cases = [
            ("", 0),
            ("/a", 0),
            ("a/", 2),
            ("a//b", 2),
            ("java.lang.String", 4),
            ("a/b;", 3),
            ("a[", 1),
            ("[", 1),
            ("[Ljava/lang/String", 18),
            ("[V", 1),
            ("[II", 2),
        ];
        for (name, position) in cases {
            assert_eq!(InternalName::parse(name), Err(NameError { name: name.to_owned(), position }), "for {name:?}");
        }
    }

    #[test]
    fn binary_parse_rejects_slashes_and_keeps_positions() {
        assert_eq!(
            BinaryName::parse("java.util.Map$Entry").map(|n| n.to_string()),
            Ok("java.util.Map$Entry".to_owned())
        );
        assert_eq!(
            BinaryName::parse("[Ljava.lang.String;").map(|n| n.to_string()),
            Ok("[Ljava.lang.String;".to_owned())
        );
        assert_eq!(BinaryName::parse("java/lang/String").unwrap_err().position, 4);
        assert_eq!(BinaryName::parse("java..String").unwrap_err().position, 5);
        assert_eq!(BinaryName::parse("a.b;").unwrap_err().position, 3);
    }

    #[test]
    fn error_message_names_the_name_and_position() {
        let err = InternalName::parse("java.lang").unwrap_err();
        assert_eq!(err.to_string(), r#"invalid class name "java.lang" at 4"#);
    }

    #[test]
    fn names_order_hash_and_borrow_like_strings() {
        use std::collections::{BTreeSet, HashSet};
        let names: BTreeSet<_> = ["b/B", "a/A", "a/A$1"].into_iter().map(InternalName::new).collect();
        let sorted: Vec<_> = names.iter().map(InternalName::as_str).collect();
        assert_eq!(sorted, ["a/A", "a/A$1", "b/B"]);
        let set: HashSet<_> = names.into_iter().collect();
        assert!(set.contains("a/A$1"));
    }

    #[test]
    fn serde_reads_the_plain_string() {
        use serde::de::IntoDeserializer;
        use serde::de::value::Error;
        fn serializable<T: Serialize>() {}
        serializable::<InternalName>();
        serializable::<BinaryName>();
        let name = InternalName::deserialize("java/lang/String".into_deserializer());
        assert_eq!(name, Ok::<_, Error>(InternalName::new("java/lang/String")));
        let name = BinaryName::deserialize("java.lang.String".into_deserializer());
        assert_eq!(name, Ok::<_, Error>(BinaryName::new("java.lang.String")));
    }
}
