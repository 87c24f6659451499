use model::descriptor::FieldType;

use super::*;
use crate::testutil::class_path;

fn build(cut: &str, options: &ClusterOptions) -> Option<Result<TestCluster, ClusterError>> {
    Some(TestCluster::build(class_path()?, cut, options))
}

fn cluster(cut: &str) -> Option<TestCluster> {
    Some(build(cut, &ClusterOptions::default())?.unwrap())
}

/// One line per callable: `kind owner.name(params) -> ret`.
fn describe(callable: &Callable) -> String {
    let params: Vec<String> = callable.params().iter().map(|p| p.to_string()).collect();
    let ret = callable.ret().map_or("void".to_string(), |r| r.to_string());
    let (kind, name) = match callable {
        Callable::Constructor { method, .. } => ("new", format!("{}", method.owner)),
        Callable::StaticMethod { method, .. } => ("static", format!("{}.{}", method.owner, method.name)),
        Callable::Method { method, .. } => ("call", format!("{}.{}", method.owner, method.name)),
        Callable::FieldGet { field, is_static, .. } => {
            (if *is_static { "get static" } else { "get" }, format!("{}.{}", field.owner, field.name))
        }
        Callable::FieldSet { field, is_static, .. } => {
            (if *is_static { "set static" } else { "set" }, format!("{}.{}", field.owner, field.name))
        }
    };
    format!("{kind} {name}({}) -> {ret}", params.join(", "))
}

fn calls(cluster: &TestCluster) -> Vec<String> {
    cluster.calls_under_test().iter().map(describe).collect()
}

fn generators(cluster: &TestCluster, class: &str) -> Vec<String> {
    cluster
        .generators(class)
        .iter()
        .map(|g| match g {
            Generator::Call(c) => describe(c),
            Generator::Subtype(t) => format!("subtype {t}"),
        })
        .collect()
}

fn t(descriptor: &str) -> FieldType {
    FieldType::parse(descriptor).unwrap()
}

#[test]
fn calls_under_test_are_the_accessible_constructors_methods_and_fields() {
    let Some(cluster) = cluster("fix.Counter") else { return };
    assert_eq!(
        calls(&cluster),
        [
            "new fix.Counter() -> fix.Counter",
            "new fix.Counter(int) -> fix.Counter",
            "call fix.Counter.add(int) -> int",
            "call fix.Counter.reset() -> void",
            "static fix.Counter.twice(int) -> int",
            "static fix.Counter.of(java.lang.String) -> fix.Counter",
            "call fix.Counter.describe(java.lang.CharSequence) -> java.lang.String",
            "static fix.Counter.sum(int[]) -> int",
            "static fix.Counter.count(java.lang.Object[]) -> int",
            "static fix.Counter.numbers(java.lang.Number[]) -> int",
            "static fix.Counter.first(java.util.List<java.lang.Object>) -> java.lang.Object",
            "static fix.Counter.box(java.lang.Integer) -> java.lang.Object",
            "call fix.Counter.compareTo(fix.Counter) -> int",
            "get static fix.Counter.count() -> int",
            "set static fix.Counter.count(int) -> void",
            "get static fix.Counter.LIMIT() -> int",
            "get fix.Counter.value() -> int",
            "set fix.Counter.value(int) -> void",
            "get fix.Counter.name() -> java.lang.String",
        ]
    );
    assert!(
        cluster
            .is_call_under_test(&cluster.calls_under_test()[2].statement(Some(VarId(0)), vec![VarId(1)]).unwrap().kind)
    );
}

#[test]
fn package_private_and_protected_members_need_tests_in_the_package() {
    let Some(inside) = cluster("fix.Bag") else { return };
    let Some(Ok(outside)) = build("fix.Bag", &ClusterOptions { package_private: false, ..ClusterOptions::default() })
    else {
        return;
    };
    let only_inside: Vec<String> = calls(&inside).into_iter().filter(|c| !calls(&outside).contains(c)).collect();
    assert_eq!(
        only_inside,
        [
            "new fix.Bag() -> fix.Bag",
            "call fix.Bag.packagePrivate() -> int",
            "call fix.Bag.guarded() -> int",
            "get fix.Bag.hidden() -> int",
            "set fix.Bag.hidden(int) -> void",
        ]
    );
}

#[test]
fn public_methods_of_a_package_private_superclass_are_called_through_the_cut() {
    let options = ClusterOptions { package_private: false, ..ClusterOptions::default() };
    let Some(derived) = build("fix.Derived", &options) else { return };
    // javac adds a synthetic bridge `Derived.shared()`; the real method is the superclass's.
    assert_eq!(calls(&derived.unwrap()), ["new fix.Derived() -> fix.Derived", "call fix.Derived.shared() -> int"]);
}

#[test]
fn abstract_classes_and_interfaces_get_receivers_from_concrete_subclasses() {
    let Some(shape) = cluster("fix.Shape") else { return };
    assert_eq!(
        calls(&shape),
        [
            "call fix.Shape.area() -> double",
            "call fix.Shape.name() -> java.lang.String",
            "call fix.Shape.greet() -> java.lang.String",
            "get static fix.Shape.PREFIX() -> java.lang.String",
        ]
    );
    assert_eq!(generators(&shape, "fix.Shape"), ["subtype fix.Square"]);
    assert_eq!(generators(&shape, "fix.Square"), ["new fix.Square() -> fix.Square"]);
    let Some(named) = cluster("fix.Named") else { return };
    assert_eq!(
        calls(&named),
        [
            "call fix.Named.name() -> java.lang.String",
            "call fix.Named.greet() -> java.lang.String",
            "static fix.Named.of(java.lang.String) -> fix.Named",
            "get static fix.Named.PREFIX() -> java.lang.String",
        ]
    );
    assert_eq!(
        generators(&named, "fix.Named"),
        ["static fix.Named.of(java.lang.String) -> fix.Named", "subtype fix.Square"]
    );
}

#[test]
fn classes_with_nothing_to_call_are_reported_clearly() {
    let cases = [
        (
            "fix.Lonely",
            "nothing to test in fix.Lonely: it is an interface, no class on the class path implements it, and it has no accessible static methods or fields",
        ),
        (
            "fix.Orphan",
            "nothing to test in fix.Orphan: it is abstract, has no concrete subclass on the class path, and has no accessible static methods or fields",
        ),
    ];
    for (cut, expected) in cases {
        let Some(result) = build(cut, &ClusterOptions::default()) else { return };
        assert_eq!(result.unwrap_err().to_string(), expected);
    }
    let Some(result) = build("fix.Nope", &ClusterOptions::default()) else { return };
    let message = result.unwrap_err().to_string();
    assert!(message.starts_with("cannot load the class under test fix.Nope: class fix.Nope not found"), "{message}");
}

#[test]
fn jdk_types_get_concrete_stand_ins_with_their_type_arguments() {
    let Some(bag) = cluster("fix.Bag") else { return };
    assert!(calls(&bag).contains(&"new fix.Bag(java.util.List<java.lang.String>) -> fix.Bag".to_string()));
    assert!(
        calls(&bag)
            .contains(&"call fix.Bag.total(java.util.Map<java.lang.String, java.lang.Integer>) -> int".to_string())
    );
    assert_eq!(generators(&bag, "java.util.List"), ["subtype java.util.ArrayList"]);
    assert_eq!(generators(&bag, "java.util.Map"), ["subtype java.util.HashMap"]);
    assert_eq!(generators(&bag, "java.util.ArrayList"), ["new java.util.ArrayList() -> java.util.ArrayList"]);
    // `Object` also gets the CUT, for `equals(Object)` and the like.
    assert_eq!(
        generators(&bag, "java.lang.Object"),
        ["subtype java.lang.String", "subtype java.lang.Integer", "subtype fix.Bag"]
    );
    assert_eq!(generators(&bag, "java.lang.Number")[..2], ["subtype java.lang.Integer", "subtype java.lang.Long"]);
    assert!(generators(&bag, "java.lang.Number").contains(&"subtype java.math.BigDecimal".to_string()));
    assert_eq!(
        bag.container("java.util.HashMap").unwrap().fill.to_string(),
        "java.util.HashMap.put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"
    );
    assert_eq!(bag.enum_constants("fix.Color"), ["RED", "GREEN"]);
    assert_eq!(generators(&bag, "fix.Shape"), ["subtype fix.Square"]);
    assert_eq!(
        generators(&bag, "fix.Named"),
        ["static fix.Named.of(java.lang.String) -> fix.Named", "subtype fix.Square"]
    );
    assert!(generators(&bag, "fix.Bag").contains(&"static fix.Bag.empty() -> fix.Bag".to_string()));
}

#[test]
fn assignability_follows_the_supertypes_the_cluster_saw() {
    let Some(bag) = cluster("fix.Bag") else { return };
    let cases = [
        ("Lfix/Square;", "Lfix/Shape;", true),
        ("Lfix/Square;", "Lfix/Named;", true),
        ("Lfix/Shape;", "Lfix/Square;", false),
        ("Ljava/util/ArrayList;", "Ljava/util/List;", true),
        ("Ljava/lang/String;", "Ljava/lang/CharSequence;", true),
        ("Ljava/lang/Integer;", "Ljava/lang/Number;", true),
        ("[Lfix/Square;", "[Lfix/Named;", true),
        ("[I", "Ljava/lang/Object;", true),
        ("I", "Ljava/lang/Integer;", false),
        ("Lfix/Unknown;", "Lfix/Shape;", false),
    ];
    for (from, to, expected) in cases {
        assert_eq!(bag.is_assignable(&t(from), &t(to)), expected, "{from} to {to}");
    }
}

#[test]
fn real_classes_build_quickly_with_generators_for_their_parameters() {
    let Some(cp) = crate::testutil::commons_class_path() else { return };
    let started = std::time::Instant::now();
    let fraction =
        TestCluster::build(&cp, "org.apache.commons.lang3.math.Fraction", &ClusterOptions::default()).unwrap();
    assert!(generators(&fraction, "org.apache.commons.lang3.math.Fraction")
        .contains(&"static org.apache.commons.lang3.math.Fraction.getFraction(int, int) -> org.apache.commons.lang3.math.Fraction".to_string()));
    assert!(
        generators(&fraction, "org.apache.commons.lang3.math.Fraction").contains(
            &"get static org.apache.commons.lang3.math.Fraction.ONE_HALF() -> org.apache.commons.lang3.math.Fraction"
                .to_string()
        )
    );
    let options = TestCluster::build(&cp, "org.apache.commons.cli.Options", &ClusterOptions::default()).unwrap();
    assert!(!options.modifiers("org.apache.commons.cli.Option").is_empty());
    let set_unique =
        TestCluster::build(&cp, "org.apache.commons.collections4.list.SetUniqueList", &ClusterOptions::default())
            .unwrap();
    assert!(
        calls(&set_unique)
            .iter()
            .any(|c| c.starts_with("call org.apache.commons.collections4.list.SetUniqueList.add(java.lang.Object)"))
    );
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
}

#[test]
fn values_for_the_class_under_test_never_come_from_the_clock_random_seeds_or_identity_hashes() {
    let Some(cluster) = cluster("fix.Dice") else { return };
    assert_eq!(generators(&cluster, "java.util.Random"), ["new java.util.Random(long) -> java.util.Random"]);
    let uuid = generators(&cluster, "java.util.UUID");
    assert!(uuid.iter().all(|g| !g.contains("randomUUID")), "{uuid:?}");
    assert!(uuid.iter().any(|g| g.contains("new java.util.UUID(long, long)")), "{uuid:?}");
    let date = generators(&cluster, "java.util.Date");
    assert!(!date.contains(&"new java.util.Date() -> java.util.Date".to_string()), "{date:?}");
    assert!(date.contains(&"new java.util.Date(long) -> java.util.Date".to_string()), "{date:?}");
    let local = generators(&cluster, "java.util.concurrent.ThreadLocalRandom");
    assert!(local.iter().all(|g| !g.contains("current")), "{local:?}");
    for ty in cluster.generated_types() {
        for g in generators(&cluster, ty) {
            for banned in ["hashCode", "identityHashCode", "currentTimeMillis", "nanoTime", "Math.random"] {
                assert!(!g.contains(banned), "{ty}: {g}");
            }
        }
    }
}

/// Tests compiled with `--release 8` cannot call a JDK member of Java 9
/// or later: with the release noted on the class path, no generator or
/// modifier of the cluster is a JDK member that release lacks (and without
/// it, some are: `String.isBlank()`-like methods of Java 11).
#[test]
fn jdk_members_newer_than_the_release_are_not_offered() {
    let Some(cp) = crate::testutil::commons_class_path() else { return };
    let java_home = model::jdk::find_java_home().unwrap();
    let cp8 = crate::testutil::commons_class_path().unwrap().with_release(&java_home, 8).unwrap();
    let api8 = cp8.release_api().expect("the JDK lists release 8 in lib/ct.sym");
    let newer_than_8 = |c: &TestCluster| -> Vec<String> {
        let generators = c.generated_types().flat_map(|t| c.generators(t)).filter_map(|g| match g {
            Generator::Call(call) => Some(call),
            Generator::Subtype(_) => None,
        });
        let modifiers = c.modified_types().flat_map(|t| c.modifiers(t));
        generators
            .chain(modifiers)
            .filter_map(Callable::method)
            .filter(|m| !api8.has_member(m.owner.to_internal().as_str(), &m.name, &m.descriptor.to_descriptor()))
            .map(|m| format!("{}.{}{}", m.owner, m.name, m.descriptor))
            .collect()
    };
    let cut = "org.apache.commons.lang3.StringUtils";
    let java17 = TestCluster::build(&cp, cut, &ClusterOptions::default()).unwrap();
    assert!(!newer_than_8(&java17).is_empty(), "the check is not vacuous");
    let java8 = TestCluster::build(&cp8, cut, &ClusterOptions::default()).unwrap();
    assert_eq!(newer_than_8(&java8), Vec::<String>::new());
    let serialization =
        TestCluster::build(&cp8, "org.apache.commons.lang3.SerializationUtils", &ClusterOptions::default());
    let streams = generators(&serialization.unwrap(), "java.io.OutputStream");
    assert_eq!(streams, ["subtype java.io.ByteArrayOutputStream"], "an in-memory stream stands in");
}

#[test]
fn values_are_made_directly_or_by_a_generator() {
    let Some(cluster) = cluster("fix.Counter") else { return };
    for made in
        ["I", "[Ljava/lang/Object;", "Ljava/lang/String;", "Ljava/lang/Integer;", "Ljava/io/File;", "Lfix/Counter;"]
    {
        assert!(cluster.can_make(&t(made)), "{made}");
    }
    assert!(!cluster.can_make(&t("Lfix/Unknown;")));
}

/// Constants a JDK class holds for another (`StandardCharsets.UTF_16BE` for
/// a `Charset`) are generators of that class, beside its own factories.
#[test]
fn charsets_come_from_standard_charsets_too() {
    let Some(class_path) = class_path() else { return };
    let cluster = TestCluster::build(class_path, "fix.Encoder", &ClusterOptions::default()).unwrap();
    let charsets = generators(&cluster, "java.nio.charset.Charset");
    assert!(charsets.iter().any(|g| g.contains("StandardCharsets.UTF_16BE")), "{charsets:?}");
    assert!(charsets.iter().any(|g| g.contains("forName")), "{charsets:?}");
}

/// The classes the CUT tests an `Object` against with `instanceof` stand
/// in for `Object` (EvoSuite's cast classes), beside `String` and
/// `Integer`, when something can make them.
#[test]
fn instanceof_targets_stand_in_for_object() {
    let Some(class_path) = class_path() else { return };
    let cluster = TestCluster::build(class_path, "fix.Sniffer", &ClusterOptions::default()).unwrap();
    let objects = generators(&cluster, "java.lang.Object");
    for expected in ["subtype java.lang.String", "subtype java.net.URI", "subtype java.lang.Iterable"] {
        assert!(objects.contains(&expected.to_string()), "{objects:?}");
    }
    assert!(!generators(&cluster, "java.net.URI").is_empty(), "a URI can be made");
    // Nothing makes a `ParameterizedType`: no attempt is spent on it.
    assert!(!objects.iter().any(|g| g.contains("ParameterizedType")), "{objects:?}");
}

/// A type variable bounded by `Comparable` of itself gets `String`, in the
/// class's own type, its constructor and its generic methods alike (a raw
/// `Comparable` is not within the bound, and values must fit the calls).
#[test]
fn self_comparable_type_variables_are_strings_everywhere() {
    let Some(ranked) = cluster("fix.Ranked") else { return };
    assert_eq!(
        calls(&ranked),
        [
            "new fix.Ranked(java.lang.String, java.lang.Object) -> fix.Ranked<java.lang.String, java.lang.Object>",
            "static fix.Ranked.rank(java.lang.String, fix.Ranked<java.lang.String, java.lang.String>) -> int",
        ]
    );
}

#[test]
fn factories_the_cut_returns_are_called_and_so_is_what_they_create() {
    // `DateCodec` has no accessible constructor: a test reaches its
    // `encode` only through the factory `factory()` returns (made by
    // another class) and the `Codec` that factory creates.
    let Some(cluster) = cluster("fix.DateCodec") else { return };
    let described = |class: &str| cluster.modifiers(class).iter().map(describe).collect::<Vec<_>>();
    let factory = described("fix.CodecFactory");
    assert!(factory.iter().any(|m| m.starts_with("call fix.CodecFactory.create(")), "{factory:?}");
    let codec = described("fix.Codec");
    assert!(codec.iter().any(|m| m.starts_with("call fix.Codec.encode(")), "{codec:?}");
    // Application types the CUT neither returns nor implements get no modifiers.
    assert!(cluster.modifiers("fix.Codecs").is_empty());
}

#[test]
fn a_type_no_constructor_makes_is_made_by_instance_methods_of_other_classes() {
    let Some(cluster) = cluster("fix.Shelf") else { return };
    // `Reading` is abstract and its one subclass anonymous: `Library.open`
    // is what makes one.
    assert!(
        generators(&cluster, "fix.Reading")
            .contains(&"call fix.Library.open(java.lang.String) -> fix.Reading".to_string()),
        "{:?}",
        generators(&cluster, "fix.Reading")
    );
    // A class with a constructor keeps its own generators; a method
    // returning its own class (`Library.copy`) is a modifier, not a factory.
    assert_eq!(generators(&cluster, "fix.Library"), ["new fix.Library() -> fix.Library"]);
}
