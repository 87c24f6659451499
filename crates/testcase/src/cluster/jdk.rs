//! What the test cluster knows about the JDK without scanning it: which
//! names are JDK classes, the concrete stand-ins for common JDK interfaces
//! and abstract classes, and the collections it fills element by element.

/// Packages whose classes come with the JDK. Their supertypes are not
/// walked for methods under test, and their subtypes are not searched
/// (the JDK has no subclass index; see [`SUBSTITUTES`] instead).
const JDK_PACKAGES: &[&str] =
    &["java.", "javax.", "jdk.", "sun.", "com.sun.", "org.w3c.dom.", "org.xml.sax.", "org.ietf."];

/// Whether `binary_name` names a JDK class (by package).
pub fn is_jdk_class(binary_name: &str) -> bool {
    JDK_PACKAGES.iter().any(|p| binary_name.starts_with(p))
}

/// Concrete classes that stand in for a JDK interface or abstract class, as
/// EvoSuite's generic-type handling picks them: a `List` parameter gets an
/// `ArrayList`, an `Object` a `String` or an `Integer`.
pub(crate) const SUBSTITUTES: &[(&str, &[&str])] = &[
    ("java.lang.Object", &["java.lang.String", "java.lang.Integer"]),
    ("java.lang.Comparable", &["java.lang.String", "java.lang.Integer"]),
    ("java.io.Serializable", &["java.lang.String", "java.lang.Integer"]),
    ("java.lang.CharSequence", &["java.lang.String"]),
    (
        "java.lang.Number",
        &[
            "java.lang.Integer",
            "java.lang.Long",
            "java.lang.Double",
            "java.lang.Float",
            "java.lang.Short",
            "java.lang.Byte",
            "java.math.BigInteger",
            "java.math.BigDecimal",
            "java.util.concurrent.atomic.AtomicInteger",
            "java.util.concurrent.atomic.AtomicLong",
        ],
    ),
    ("java.lang.Iterable", &["java.util.ArrayList"]),
    ("java.util.Collection", &["java.util.ArrayList"]),
    ("java.util.AbstractCollection", &["java.util.ArrayList"]),
    ("java.util.List", &["java.util.ArrayList"]),
    ("java.util.AbstractList", &["java.util.ArrayList"]),
    ("java.util.Set", &["java.util.HashSet"]),
    ("java.util.AbstractSet", &["java.util.HashSet"]),
    ("java.util.SortedSet", &["java.util.TreeSet"]),
    ("java.util.NavigableSet", &["java.util.TreeSet"]),
    ("java.util.Map", &["java.util.HashMap"]),
    ("java.util.AbstractMap", &["java.util.HashMap"]),
    ("java.util.SortedMap", &["java.util.TreeMap"]),
    ("java.util.NavigableMap", &["java.util.TreeMap"]),
    ("java.util.Queue", &["java.util.ArrayDeque"]),
    ("java.util.Deque", &["java.util.ArrayDeque"]),
    ("java.lang.Appendable", &["java.lang.StringBuilder"]),
    ("java.io.OutputStream", &["java.io.ByteArrayOutputStream"]),
    ("java.io.InputStream", &["java.io.ByteArrayInputStream"]),
    ("java.io.Writer", &["java.io.StringWriter"]),
    ("java.io.Reader", &["java.io.StringReader"]),
];

/// JDK collections built with their no-argument constructor and filled by
/// calling `name` with descriptor `descriptor` (`add` or `put`).
pub(crate) const CONTAINERS: &[(&str, &str, &str)] = &[
    ("java.util.ArrayList", "add", "(Ljava/lang/Object;)Z"),
    ("java.util.LinkedList", "add", "(Ljava/lang/Object;)Z"),
    ("java.util.HashSet", "add", "(Ljava/lang/Object;)Z"),
    ("java.util.LinkedHashSet", "add", "(Ljava/lang/Object;)Z"),
    ("java.util.TreeSet", "add", "(Ljava/lang/Object;)Z"),
    ("java.util.ArrayDeque", "add", "(Ljava/lang/Object;)Z"),
    ("java.util.HashMap", "put", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
    ("java.util.LinkedHashMap", "put", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
    ("java.util.TreeMap", "put", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
];

/// `Collection.add(E)`, which adds an element to any collection.
const COLLECTION_ADD: JdkMethod = ("java.util.Collection", "add", "(Ljava/lang/Object;)Z");
/// `Map.put(K, V)`, which adds an entry to any map.
const MAP_PUT: JdkMethod = ("java.util.Map", "put", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;");

/// JDK collection interfaces a value may be typed with (a public field
/// `Map<K, V>`, a method returning `List<E>`), each with the interface
/// method that adds an element to any instance: a value of such a type
/// that a test reads is filled as the collections it builds are.
const COLLECTION_INTERFACES: &[(&str, JdkMethod)] = &[
    ("java.util.Collection", COLLECTION_ADD),
    ("java.util.List", COLLECTION_ADD),
    ("java.util.Set", COLLECTION_ADD),
    ("java.util.SortedSet", COLLECTION_ADD),
    ("java.util.NavigableSet", COLLECTION_ADD),
    ("java.util.Queue", COLLECTION_ADD),
    ("java.util.Deque", COLLECTION_ADD),
    ("java.util.Map", MAP_PUT),
    ("java.util.SortedMap", MAP_PUT),
    ("java.util.NavigableMap", MAP_PUT),
];

/// The method that adds an element to a value of collection interface
/// `binary_name` ([`COLLECTION_INTERFACES`]): (owner, name, descriptor).
pub(crate) fn interface_fill(binary_name: &str) -> Option<JdkMethod> {
    COLLECTION_INTERFACES.iter().find(|(name, _)| *name == binary_name).map(|(_, fill)| *fill)
}

/// Whether `binary_name` is a JDK collection a test fills: one it builds
/// ([`CONTAINERS`]) or a collection interface ([`COLLECTION_INTERFACES`]).
pub(crate) fn is_collection(binary_name: &str) -> bool {
    CONTAINERS.iter().any(|(c, _, _)| *c == binary_name) || interface_fill(binary_name).is_some()
}

/// Types the test factory makes directly (literals), with no generator:
/// `String`, the boxes, `Class`, and `File` and `Path` (a new file in the
/// test's temporary folder, `StatementKind::TempFile`).
pub(crate) const LITERAL_TYPES: &[&str] = &[
    "java.io.File",
    "java.nio.file.Path",
    "java.lang.String",
    "java.lang.Boolean",
    "java.lang.Byte",
    "java.lang.Short",
    "java.lang.Character",
    "java.lang.Integer",
    "java.lang.Long",
    "java.lang.Float",
    "java.lang.Double",
    "java.lang.Class",
];

/// JDK classes that hold constants of another class: the standard
/// charsets live in `StandardCharsets`, not in `Charset`.
const CONSTANT_HOLDERS: &[(&str, &[&str])] = &[("java.nio.charset.Charset", &["java.nio.charset.StandardCharsets"])];

/// The classes holding constants of `binary_name` ([`CONSTANT_HOLDERS`]).
pub(crate) fn constant_holders(binary_name: &str) -> &'static [&'static str] {
    CONSTANT_HOLDERS.iter().find(|(name, _)| *name == binary_name).map_or(&[], |(_, holders)| *holders)
}

/// A JDK method: (owner, name, descriptor), binary owner name.
pub(crate) type JdkMethod = (&'static str, &'static str, &'static str);

/// JDK instance methods that make values of a JDK interface the factory
/// otherwise makes one way only: a `Class` is the only `Type` literal,
/// while `ParameterizedType`, `GenericArrayType` and `TypeVariable` values
/// come from reflection (`List.class.getMethod("get", int.class)
/// .getGenericReturnType()` is the type variable `E`). Entries are
/// (produced class, [(owner, method, descriptor)]).
const JDK_PRODUCERS: &[(&str, &[JdkMethod])] = &[(
    "java.lang.reflect.Type",
    &[
        ("java.lang.reflect.Method", "getGenericReturnType", "()Ljava/lang/reflect/Type;"),
        ("java.lang.reflect.Field", "getGenericType", "()Ljava/lang/reflect/Type;"),
        ("java.lang.Class", "getGenericSuperclass", "()Ljava/lang/reflect/Type;"),
    ],
)];

/// JDK classes whose state the code under test reads, each with the
/// instance methods that set it: a value a test makes of one gets these
/// calls as an application class's value gets its modifiers
/// (`properties0.setProperty(string0, string1)`, which a command-line
/// parser's `parse(options, args, properties)` or a configured factory
/// reads back with `getProperty`). Other JDK classes have no modifiers.
const JDK_MODIFIERS: &[(&str, &[JdkMethod])] = &[
    (
        "java.util.Properties",
        &[("java.util.Properties", "setProperty", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/Object;")],
    ),
    ("java.util.BitSet", &[("java.util.BitSet", "set", "(I)V")]),
];

/// The methods that set the state of JDK class `binary_name` a class
/// under test reads ([`JDK_MODIFIERS`]): (owner, method, descriptor).
pub(crate) fn jdk_modifiers(binary_name: &str) -> &'static [JdkMethod] {
    JDK_MODIFIERS.iter().find(|(name, _)| *name == binary_name).map_or(&[], |(_, modifiers)| *modifiers)
}

/// The JDK instance methods producing a `binary_name` ([`JDK_PRODUCERS`]):
/// (owner, method, descriptor).
pub(crate) fn jdk_producers(binary_name: &str) -> &'static [JdkMethod] {
    JDK_PRODUCERS.iter().find(|(name, _)| *name == binary_name).map_or(&[], |(_, producers)| *producers)
}

/// The stand-ins for `binary_name`, if it has any.
pub(crate) fn substitutes(binary_name: &str) -> Option<&'static [&'static str]> {
    SUBSTITUTES.iter().find(|(name, _)| *name == binary_name).map(|(_, subs)| *subs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stand-ins built by their public constructors (in every release from 8):
    /// in-memory streams, readers and writers, so that I/O code runs without
    /// files.
    const BUILT_STAND_INS: &[&str] = &[
        "java.lang.StringBuilder",
        "java.io.ByteArrayOutputStream",
        "java.io.ByteArrayInputStream",
        "java.io.StringWriter",
        "java.io.StringReader",
        "java.math.BigInteger",
        "java.math.BigDecimal",
        "java.util.concurrent.atomic.AtomicInteger",
        "java.util.concurrent.atomic.AtomicLong",
    ];

    #[test]
    fn jdk_classes_are_told_apart_by_package() {
        assert!(is_jdk_class("java.util.List"));
        assert!(is_jdk_class("javax.swing.JFrame"));
        assert!(!is_jdk_class("org.apache.commons.lang3.StringUtils"));
        assert!(!is_jdk_class("javafoo.Bar"));
    }

    #[test]
    fn every_substitute_is_a_literal_type_a_container_or_built() {
        for (_, subs) in SUBSTITUTES {
            for sub in *subs {
                let known = LITERAL_TYPES.contains(sub)
                    || CONTAINERS.iter().any(|(c, _, _)| c == sub)
                    || BUILT_STAND_INS.contains(sub);
                assert!(known, "{sub}");
            }
        }
    }
}
