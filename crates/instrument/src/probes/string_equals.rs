//! Dynamic seeding: calls of `String.equals(Object)`,
//! `equalsIgnoreCase(String)`, `startsWith(String)`, `endsWith(String)` and
//! `contains(CharSequence)` become static `Tracer` methods (`stringEquals`,
//! ...) that return the same result and remember the strings compared, so
//! the search can reuse strings the class under test compares its inputs
//! with (EvoSuite's dynamic constant pool). Lookups by key in the JDK's maps
//! (`Map.get`, `Map.containsKey`, on the `Map` interface or on `HashMap`,
//! `LinkedHashMap`, `TreeMap`, `Hashtable` and `ConcurrentHashMap`) and
//! `Properties.getProperty(String)` become `Tracer.mapGet`, ... as well: a
//! lookup by a string key that misses remembers a few of the map's string
//! keys, as a failed `equals` remembers the string it was compared with (a
//! parser's table of tag handles, a registry of names filled at run time).
//! `contains(Object)` on the JDK's sets and lists and
//! `Arrays.binarySearch(Object[], Object)` too: a missed string remembers a
//! few elements (the two either side of its insertion point for a search).
//! Reflection by name as well: `Class.getMethod`, `getDeclaredMethod`,
//! `getField` and `getDeclaredField` that find no member remember a few
//! of the class's member names. Regular expressions too: `Pattern.matcher` (which remembers the input),
//! `Matcher.matches`/`lookingAt`/`find`, `String.matches` and the static
//! `Pattern.matches` become `Tracer.patternMatcher`, ...: an input that
//! misses gives the pair (input, `Tracer.REGEX_PAIR` + pattern), and the
//! search puts samples of the pattern's language in its place (a
//! validator's `^\[(.*)\]$` on the domain of an e-mail address).

use model::bytecode::{Operand, op};
use model::classfile::ClassFileError;
use model::constant_pool::ConstantPool;

use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};
use crate::tracer::{self, TracerMethod};

/// The `String` methods rewritten (name, descriptor) and the tracer method
/// replacing each: same stack effect (receiver, argument → boolean).
const STRING_METHODS: &[(&str, &str, TracerMethod)] = &[
    ("equals", "(Ljava/lang/Object;)Z", tracer::STRING_EQUALS),
    ("equalsIgnoreCase", "(Ljava/lang/String;)Z", tracer::STRING_EQUALS_IGNORE_CASE),
    ("startsWith", "(Ljava/lang/String;)Z", tracer::STRING_STARTS_WITH),
    ("endsWith", "(Ljava/lang/String;)Z", tracer::STRING_ENDS_WITH),
    ("contains", "(Ljava/lang/CharSequence;)Z", tracer::STRING_CONTAINS),
];

/// The map types whose `get(Object)` and `containsKey(Object)` calls are
/// rewritten (the interface, and the JDK classes code declares its fields
/// with); a map class of the project is left alone.
const MAP_OWNERS: &[&str] = &[
    "java/util/Map",
    "java/util/HashMap",
    "java/util/LinkedHashMap",
    "java/util/TreeMap",
    "java/util/Hashtable",
    "java/util/concurrent/ConcurrentHashMap",
];

/// The map methods rewritten (name, descriptor) and their tracer methods,
/// which take the map as their first argument: same stack effect.
const MAP_METHODS: &[(&str, &str, TracerMethod)] = &[
    ("get", "(Ljava/lang/Object;)Ljava/lang/Object;", tracer::MAP_GET),
    ("containsKey", "(Ljava/lang/Object;)Z", tracer::MAP_CONTAINS_KEY),
];

/// The `java.util.regex` methods rewritten (owner, name, descriptor) and
/// their tracer methods, which take the receiver first (`Pattern.matches`
/// is static): same stack effect.
const REGEX_METHODS: &[(&str, &str, &str, TracerMethod)] = &[
    (
        "java/util/regex/Pattern",
        "matcher",
        "(Ljava/lang/CharSequence;)Ljava/util/regex/Matcher;",
        tracer::PATTERN_MATCHER,
    ),
    ("java/util/regex/Pattern", "matches", "(Ljava/lang/String;Ljava/lang/CharSequence;)Z", tracer::PATTERN_MATCHES),
    ("java/util/regex/Matcher", "matches", "()Z", tracer::MATCHER_MATCHES),
    ("java/util/regex/Matcher", "lookingAt", "()Z", tracer::MATCHER_LOOKING_AT),
    ("java/util/regex/Matcher", "find", "()Z", tracer::MATCHER_FIND),
    ("java/lang/String", "matches", "(Ljava/lang/String;)Z", tracer::STRING_MATCHES),
];

/// The collection types whose `contains(Object)` calls are rewritten (the
/// interfaces, and the JDK classes code declares its fields with).
const COLLECTION_OWNERS: &[&str] = &[
    "java/util/Collection",
    "java/util/Set",
    "java/util/HashSet",
    "java/util/LinkedHashSet",
    "java/util/TreeSet",
    "java/util/SortedSet",
    "java/util/List",
    "java/util/ArrayList",
    "java/util/LinkedList",
];

/// The `java.lang.Class` lookups of members by name rewritten (name,
/// descriptor) and their tracer methods, which take the class first.
const MEMBER_LOOKUPS: &[(&str, &str, TracerMethod)] = &[
    ("getMethod", "(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;", tracer::CLASS_GET_METHOD),
    (
        "getDeclaredMethod",
        "(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;",
        tracer::CLASS_GET_DECLARED_METHOD,
    ),
    ("getField", "(Ljava/lang/String;)Ljava/lang/reflect/Field;", tracer::CLASS_GET_FIELD),
    ("getDeclaredField", "(Ljava/lang/String;)Ljava/lang/reflect/Field;", tracer::CLASS_GET_DECLARED_FIELD),
];

/// The tracer method that replaces a call of `owner.name descriptor`, if any.
fn replacement(owner: &str, name: &str, descriptor: &str) -> Option<TracerMethod> {
    let find = |table: &[(&str, &str, TracerMethod)]| {
        table.iter().find(|(n, d, _)| *n == name && *d == descriptor).map(|(_, _, t)| *t)
    };
    if let Some((.., tracer)) = REGEX_METHODS.iter().find(|(o, n, d, _)| *o == owner && *n == name && *d == descriptor)
    {
        return Some(*tracer);
    }
    match owner {
        "java/lang/String" => find(STRING_METHODS),
        "java/lang/Class" => find(MEMBER_LOOKUPS),
        "java/util/Properties" if name == "getProperty" && descriptor == "(Ljava/lang/String;)Ljava/lang/String;" => {
            Some(tracer::PROPERTIES_GET_PROPERTY)
        }
        _ if MAP_OWNERS.contains(&owner) => find(MAP_METHODS),
        _ if COLLECTION_OWNERS.contains(&owner) && name == "contains" && descriptor == "(Ljava/lang/Object;)Z" => {
            Some(tracer::COLLECTION_CONTAINS)
        }
        "java/util/Arrays" if name == "binarySearch" && descriptor == "([Ljava/lang/Object;Ljava/lang/Object;)I" => {
            Some(tracer::ARRAYS_BINARY_SEARCH)
        }
        _ => None,
    }
}

/// Rewrites the `String` comparisons (`equals`, `equalsIgnoreCase`,
/// `startsWith`, `endsWith`, `contains`) and the map lookups (see the
/// module docs) into calls of the tracer that remember the strings.
pub struct StringEquals {
    /// Constant-pool indices of the rewritten method references, with
    /// their tracer methods.
    refs: Vec<(u16, TracerMethod)>,
}

impl StringEquals {
    /// Finds the rewritten method references of a class's constant pool.
    pub fn new(constant_pool: &ConstantPool) -> StringEquals {
        let refs = constant_pool
            .iter()
            .filter_map(|(i, _)| {
                let r = constant_pool.member_ref(i).ok()?;
                Some((i, replacement(r.owner, r.name, r.descriptor)?))
            })
            .collect();
        StringEquals { refs }
    }
}

impl ProbeKind for StringEquals {
    fn name(&self) -> &'static str {
        "string-equals"
    }

    fn extra_stack(&self) -> u16 {
        0
    }

    fn edits(&self, ctx: &MethodContext<'_>, emit: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError> {
        let mut out = Vec::new();
        if self.refs.is_empty() {
            return Ok(out);
        }
        for (index, insn) in ctx.insns.iter().enumerate() {
            let i = match (insn.opcode, &insn.operand) {
                (op::INVOKEVIRTUAL | op::INVOKESTATIC, Operand::Constant(i))
                | (op::INVOKEINTERFACE, Operand::InvokeInterface { index: i, .. }) => *i,
                _ => continue,
            };
            if let Some((_, tracer)) = self.refs.iter().find(|(r, _)| *r == i) {
                out.push((index, Edit::Replace(vec![emit.call(*tracer)?])));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_comparisons_and_lookups_in_the_jdks_maps_are_rewritten() {
        let get = "(Ljava/lang/Object;)Ljava/lang/Object;";
        assert_eq!(replacement("java/lang/String", "equals", "(Ljava/lang/Object;)Z"), Some(tracer::STRING_EQUALS));
        assert_eq!(replacement("java/util/Map", "get", get), Some(tracer::MAP_GET));
        assert_eq!(
            replacement("java/util/HashMap", "containsKey", "(Ljava/lang/Object;)Z"),
            Some(tracer::MAP_CONTAINS_KEY)
        );
        let property = "(Ljava/lang/String;)Ljava/lang/String;";
        assert_eq!(replacement("java/util/Properties", "getProperty", property), Some(tracer::PROPERTIES_GET_PROPERTY));
        assert_eq!(
            replacement(
                "java/util/Properties",
                "getProperty",
                "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;"
            ),
            None
        );
        assert_eq!(replacement("org/example/Registry", "get", get), None, "a map class of the project is left alone");
        assert_eq!(
            replacement("java/util/Map", "put", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
            None
        );
        assert_eq!(replacement("java/util/List", "get", "(I)Ljava/lang/Object;"), None);
        let contains = "(Ljava/lang/Object;)Z";
        assert_eq!(replacement("java/util/Set", "contains", contains), Some(tracer::COLLECTION_CONTAINS));
        assert_eq!(replacement("java/util/ArrayList", "contains", contains), Some(tracer::COLLECTION_CONTAINS));
        assert_eq!(replacement("java/util/ArrayList", "remove", contains), None);
        let search = "([Ljava/lang/Object;Ljava/lang/Object;)I";
        assert_eq!(replacement("java/util/Arrays", "binarySearch", search), Some(tracer::ARRAYS_BINARY_SEARCH));
        assert_eq!(replacement("java/util/Arrays", "binarySearch", "([II)I"), None);
        let get_method = "(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;";
        assert_eq!(replacement("java/lang/Class", "getMethod", get_method), Some(tracer::CLASS_GET_METHOD));
        let get_field = "(Ljava/lang/String;)Ljava/lang/reflect/Field;";
        assert_eq!(
            replacement("java/lang/Class", "getDeclaredField", get_field),
            Some(tracer::CLASS_GET_DECLARED_FIELD)
        );
        assert_eq!(replacement("java/lang/Class", "getMethods", "()[Ljava/lang/reflect/Method;"), None);
        for (name, descriptor, tracer) in MEMBER_LOOKUPS {
            assert_eq!(tracer.descriptor, descriptor.replacen('(', "(Ljava/lang/Class;", 1), "{name}");
        }
    }

    #[test]
    fn matches_of_regular_expressions_are_rewritten_with_the_receiver_first() {
        let matcher = "(Ljava/lang/CharSequence;)Ljava/util/regex/Matcher;";
        assert_eq!(replacement("java/util/regex/Pattern", "matcher", matcher), Some(tracer::PATTERN_MATCHER));
        assert_eq!(replacement("java/util/regex/Matcher", "find", "()Z"), Some(tracer::MATCHER_FIND));
        assert_eq!(replacement("java/util/regex/Matcher", "find", "(I)Z"), None, "a find from an index is left alone");
        assert_eq!(replacement("java/lang/String", "matches", "(Ljava/lang/String;)Z"), Some(tracer::STRING_MATCHES));
        let statics = "(Ljava/lang/String;Ljava/lang/CharSequence;)Z";
        assert_eq!(replacement("java/util/regex/Pattern", "matches", statics), Some(tracer::PATTERN_MATCHES));
        for (owner, name, descriptor, tracer) in REGEX_METHODS {
            let receiver = format!("L{owner};");
            let is_static = *name == "matches" && *owner == "java/util/regex/Pattern";
            let expected =
                if is_static { descriptor.to_string() } else { descriptor.replacen('(', &format!("({receiver}"), 1) };
            assert_eq!(tracer.descriptor, expected, "{owner}.{name}: same stack effect");
        }
    }
}
