//! Test support: a class path of the JDK plus small fixture classes
//! compiled once per test run with the JDK's `javac`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use model::classpath::ClassPath;

/// The fixture sources, package `fix`: one file per top-level class.
const SOURCES: &[(&str, &str)] = &[
    (
        "Counter.java",
        r#"package fix;
public class Counter implements Comparable<Counter> {
    public static int count;
    public static final int LIMIT = 10;
    public int value;
    public final String name = "c";
    private int secret;
    public Counter() {}
    public Counter(int start) { value = start; }
    private Counter(String s) {}
    public int add(int delta) { value += delta; return value; }
    public void reset() { value = 0; }
    public static int twice(int x) { return 2 * x; }
    public static Counter of(String name) { return new Counter(); }
    public String describe(CharSequence prefix) { return prefix + ":" + value; }
    public static int sum(int[] xs) { int s = 0; for (int x : xs) s += x; return s; }
    public static int count(Object[] xs) { return xs.length; }
    public static int numbers(Number[] xs) { return xs.length; }
    public static <T> T first(java.util.List<T> xs) { return xs.get(0); }
    public static Object box(Integer i) { return i; }
    private int hidden() { return secret; }
    public int compareTo(Counter o) { return Integer.compare(value, o.value); }
}
"#,
    ),
    (
        "Sniffer.java",
        "package fix;\npublic class Sniffer { public static String kind(Object o) { if (o instanceof java.net.URI) return \"uri\"; if (o instanceof Iterable) return \"iterable\"; if (o instanceof java.lang.reflect.ParameterizedType) return \"type\"; return \"other\"; } }\n",
    ),
    (
        "Ranked.java",
        "package fix;\npublic class Ranked<A extends Comparable<A>, B> { public Ranked(A a, B b) { } public static <T extends Comparable<T>> int rank(T x, Ranked<T, String> r) { return 0; } }\n",
    ),
    (
        "Encoder.java",
        "package fix;\npublic class Encoder { public static int size(java.nio.charset.Charset c) { return c.name().length(); } }\n",
    ),
    (
        "Point.java",
        "package fix;\npublic class Point {\n    public static final Point ORIGIN = new Point(0);\n    public int x;\n    public Point(int x) { this.x = x; }\n    public int norm() { return x < 0 ? -x : x; }\n}\n",
    ),
    (
        "Hub.java",
        "package fix;\npublic class Hub {\n    private static final Hub INSTANCE = new Hub();\n    private final java.util.List<String> names = new java.util.ArrayList<>();\n    public static Hub getInstance() { return INSTANCE; }\n    public static Hub create() { return new Hub(); }\n    public int add(String name) { names.add(name); return names.size(); }\n}\n",
    ),
    ("Color.java", "package fix;\npublic enum Color { RED, GREEN; public static Color DEFAULT = RED; }\n"),
    (
        "Shape.java",
        "package fix;\npublic abstract class Shape implements Named {\n    public abstract double area();\n    public String name() { return \"shape\"; }\n    private int size() { return 1; }\n}\n",
    ),
    (
        "Square.java",
        "package fix;\npublic class Square extends Shape {\n    public double side = 1;\n    public double area() { return side * side; }\n}\n",
    ),
    (
        "Named.java",
        "package fix;\npublic interface Named {\n    String PREFIX = \"n:\";\n    String name();\n    default String greet() { return PREFIX + name(); }\n    static Named of(String s) { return () -> s; }\n}\n",
    ),
    (
        "Bag.java",
        r#"package fix;
import java.util.*;
public class Bag {
    int hidden;
    public Bag(List<String> items) {}
    Bag() {}
    public int total(Map<String, Integer> counts) { return counts.size(); }
    int packagePrivate() { return 1; }
    protected int guarded() { return 2; }
    public Color color(Color c) { return c; }
    public static Bag empty() { return new Bag(); }
    public double area(Shape s) { return s.area(); }
    public int size(Named[] names, Object o, Number n, Class<?> c) { return names.length; }
}
"#,
    ),
    (
        "Values.java",
        r#"package fix;
import java.util.*;
import java.util.function.*;
public class Values {
    public interface Visitor { int visit(String s); }
    public enum Kind { A, B }
    public static abstract class Base {}
    private static class Hidden {}
    public int field;
    public static String describe(Class<?> c) { return c.isPrimitive() ? "primitive" : c.getName(); }
    public static int numbers(Class<? extends Number> c) { return 0; }
    public static int arity(java.lang.reflect.Method m) { return m.getParameterCount(); }
    public static int member(java.lang.reflect.Member m) { return m.getModifiers(); }
    public static String type(java.lang.reflect.Type t) { return t.getTypeName(); }
    public static String applyTwice(Function<String, String> f, String s) { return f.apply(f.apply(s)); }
    public static int count(List<String> xs, Predicate<String> p) { int n = 0; for (String x : xs) if (p.test(x)) n++; return n; }
    public static int visit(Visitor v) { return v.visit("x"); }
    public static int order(Comparator<String> c) { return c.compare("a", "b"); }
    public static void run(Runnable r) { r.run(); }
    private String hidden(int x, String y) { return y; }
    private Hidden secret(Hidden h) { return h; }
}
"#,
    ),
    ("Lonely.java", "package fix;\npublic interface Lonely { void run(); }\n"),
    ("Base.java", "package fix;\nabstract class Base { public int shared() { return 1; } }\n"),
    ("Derived.java", "package fix;\npublic class Derived extends Base { }\n"),
    ("Orphan.java", "package fix;\npublic abstract class Orphan { public int get() { return 1; } }\n"),
    ("Codec.java", "package fix;\npublic abstract class Codec<T> {\n    public abstract String encode(T value);\n}\n"),
    ("CodecFactory.java", "package fix;\npublic interface CodecFactory { <T> Codec<T> create(Class<T> type); }\n"),
    (
        "Codecs.java",
        r#"package fix;
public final class Codecs {
    private Codecs() {}
    public static <X> CodecFactory newFactory(final Class<X> type, final Codec<X> codec) {
        return new CodecFactory() {
            @SuppressWarnings("unchecked")
            public <T> Codec<T> create(Class<T> t) { return t == type ? (Codec<T>) codec : null; }
        };
    }
}
"#,
    ),
    (
        "DateCodec.java",
        r#"package fix;
public final class DateCodec extends Codec<java.util.Date> {
    private final String pattern;
    private DateCodec(String pattern) { this.pattern = pattern; }
    public static CodecFactory factory(String pattern) { return Codecs.newFactory(java.util.Date.class, new DateCodec(pattern)); }
    @Override public String encode(java.util.Date d) { return d == null ? "null" : pattern + d.getTime(); }
}
"#,
    ),
    (
        "Reading.java",
        "package fix;\npublic abstract class Reading {\n    Reading() {}\n    public abstract int size();\n}\n",
    ),
    (
        "Library.java",
        r#"package fix;
public class Library {
    public Reading open(final String text) { return new Reading() { public int size() { return text.length(); } }; }
    public Library copy() { return new Library(); }
}
"#,
    ),
    (
        "Shelf.java",
        "package fix;\npublic class Shelf {\n    public static int count(Reading r, Library l) { return r.size(); }\n}\n",
    ),
    (
        "Plugins.java",
        "package fix;\npublic class Plugins {\n    public static boolean isTask(String name) throws Exception {\n        return Runnable.class.isAssignableFrom(Class.forName(name));\n    }\n}\n",
    ),
    (
        "Kinds.java",
        "package fix;\npublic class Kinds {\n    public static int count(Class<?>... cs) { return cs.length; }\n    public static int numbers(Class<? extends Number>[] cs) { return cs.length; }\n}\n",
    ),
    (
        "Dice.java",
        "package fix;\npublic class Dice {\n    public static int roll(java.util.Random r, java.util.UUID id, java.util.Date when,\n            java.util.concurrent.ThreadLocalRandom local) { return 0; }\n}\n",
    ),
];

/// The fixture classes plus the JDK, or `None` (with a message) when no JDK is found.
pub(crate) fn class_path() -> Option<&'static ClassPath> {
    static CLASS_PATH: OnceLock<Option<ClassPath>> = OnceLock::new();
    CLASS_PATH
        .get_or_init(|| {
            let java_home = model::jdk::find_java_home()?;
            let classes = fixture_classes()?;
            Some(ClassPath::new(&[classes]).unwrap().with_jdk(&java_home).unwrap())
        })
        .as_ref()
}

/// commons-lang3, commons-collections4 and commons-cli from
/// `/usr/share/java` plus the JDK, or `None` (with a message) when the JDK
/// or a jar is missing.
pub(crate) fn commons_class_path() -> Option<ClassPath> {
    let java_home = model::jdk::find_java_home()?;
    let jars = [
        "/usr/share/java/commons-lang3.jar",
        "/usr/share/java/commons-collections4.jar",
        "/usr/share/java/commons-cli.jar",
    ];
    if jars.iter().any(|j| !std::path::Path::new(j).exists()) {
        eprintln!(
            "skipped: the Debian commons jars are missing (apt-get install libcommons-lang3-java libcommons-collections4-java libcommons-cli-java)"
        );
        return None;
    }
    Some(ClassPath::parse(&jars.join(":")).unwrap().with_jdk(&java_home).unwrap())
}

/// The directory of the compiled fixture classes, or `None` (with a message) when no JDK is found.
pub(crate) fn fixture_classes() -> Option<PathBuf> {
    static CLASSES: OnceLock<Option<PathBuf>> = OnceLock::new();
    CLASSES
        .get_or_init(|| {
            let Some(java_home) = model::jdk::find_java_home() else {
                eprintln!("skipped: no JDK with jmods (set JAVA_HOME)");
                return None;
            };
            Some(compile_fixtures(&java_home))
        })
        .clone()
}

/// Compiles [`SOURCES`] into a directory named after their hash, reused by
/// later runs; a fresh compile goes to a private directory first and is
/// renamed into place, so concurrent test runs never see half a result.
fn compile_fixtures(java_home: &Path) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    SOURCES.hash(&mut hasher);
    let dir = std::env::temp_dir().join(format!("ferrosuite-testcase-fixtures-{:016x}", hasher.finish()));
    if dir.join("fix/Counter.class").is_file() {
        return dir;
    }
    let work = dir.with_extension(format!("tmp{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    let src = work.join("src");
    let out = work.join("out");
    std::fs::create_dir_all(&src).unwrap();
    let files: Vec<PathBuf> = SOURCES
        .iter()
        .map(|(name, text)| {
            let path = src.join(name);
            std::fs::write(&path, text).unwrap();
            path
        })
        .collect();
    let status =
        Command::new(java_home.join("bin/javac")).arg("-d").arg(&out).args(&files).status().expect("javac runs");
    assert!(status.success(), "javac failed on the fixtures");
    // Another run may have won the race; its result is as good as ours.
    if std::fs::rename(&out, &dir).is_err() {
        assert!(dir.join("fix/Counter.class").is_file());
    }
    let _ = std::fs::remove_dir_all(&work);
    dir
}
