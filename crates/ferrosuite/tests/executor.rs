//! The JVM executor on fixture classes: values, exceptions (direct or
//! deeper), traces with hand-computed branch distances, covered goals.

mod util;

use exec::{ExecConfig, Executor, Relation, StatementOutcome, TestOutcome, ValueSummary};
use jvm::pool::{Pool, WorkerConfig};
use model::descriptor::MethodDescriptor;
use model::names::BinaryName;
use testcase::{MethodRef, TestCase, TestCaseBuilder};

/// Instruments the fixtures jar and starts a pool on it.
pub fn fixture_pool(tmp: &std::path::Path, workers: usize) -> (Pool, Vec<instrument::InstrumentedClass>) {
    let jar = util::fixtures_jar(tmp, &[]);
    pool_on(tmp, &jar, workers)
}

/// Instruments `jar` into `tmp` and starts a pool on it.
fn pool_on(tmp: &std::path::Path, jar: &std::path::Path, workers: usize) -> (Pool, Vec<instrument::InstrumentedClass>) {
    let out = tmp.join("instrumented");
    util::ferrosuite_ok(&["instrument", "--jar", jar.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let probes = serde_json::from_slice(&std::fs::read(out.join("probes.json")).unwrap()).unwrap();
    let cfg = WorkerConfig {
        exe: env!("CARGO_BIN_EXE_ferrosuite").into(),
        java_home: util::jdk(),
        class_path: format!("{}:{}", out.display(), jar.display()),
        heap_mb: 256,
        environment: Default::default(),
    };
    (Pool::new(cfg, ExecConfig::default(), workers).unwrap(), probes)
}

fn method(owner: &str, name: &str, desc: &str) -> MethodRef {
    MethodRef { owner: BinaryName::new(owner), name: name.into(), descriptor: MethodDescriptor::parse(desc).unwrap() }
}

fn lt_int(a: i32, b: i32) -> TestCase {
    let mut t = TestCaseBuilder::new();
    let (x, y) = (t.int(a), t.int(b));
    t.static_call(method("fixtures.Compare", "ltInt", "(II)Z"), &[x, y]);
    t.build()
}

#[test]
fn a_static_call_returns_its_value_and_the_branch_distances() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut pool, probes) = fixture_pool(tmp.path(), 1);
    let results = pool.execute(&[lt_int(3, 7), lt_int(7, 3)]).unwrap();
    assert_eq!(results[0].outcome, TestOutcome::Completed);
    assert_eq!(results[0].statements[2], StatementOutcome::Normal(ValueSummary::Boolean(true)));
    assert_eq!(results[1].statements[2], StatementOutcome::Normal(ValueSummary::Boolean(false)));
    let compare = probes.iter().find(|c| c.class.as_str() == "fixtures/Compare").unwrap();
    let cf =
        model::classpath::ClassPath::new(&[tmp.path().join("fixtures.jar")]).unwrap().load("fixtures.Compare").unwrap();
    let lt_int_index = cf.methods.iter().position(|m| cf.member_name(m) == "ltInt").unwrap() as u16;
    let site = compare.plan.branches.iter().position(|s| s.method_index == lt_int_index).unwrap();
    let id = compare.bases.branch + site as u32;
    let record = |i: usize| results[i].trace.branches.iter().find(|(b, _)| *b == id).unwrap().1;
    // if (a < b) is if_icmpge: a = 3, b = 7 leaves the jump 4 away.
    assert_eq!(record(0).distance(Relation::Ge, true), 4.0);
    assert_eq!(record(1).distance(Relation::Ge, false), 5.0);
    assert_eq!(results[0].trace.methods.len(), 1, "only ltInt was entered");
    // The operands of a comparison that failed to be equal: input-to-state pairs.
    assert_eq!(results[0].trace.number_pairs, [(3, 7)]);
    assert_eq!(results[1].trace.number_pairs, [(7, 3)]);
}

#[test]
fn failed_string_comparisons_report_what_they_saw_and_wanted() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut pool, _) = fixture_pool(tmp.path(), 1);
    let call = |kind: &str| {
        let mut t = TestCaseBuilder::new();
        let (kind, v) = (t.string(kind), t.int(3));
        t.static_call(method("fixtures.RefCompare", "castTo", "(Ljava/lang/String;I)Ljava/lang/String;"), &[kind, v]);
        t.build()
    };
    let results = pool.execute(&[call("a kind"), call("long")]).unwrap();
    let pairs = |i: usize| -> Vec<(&str, &str)> {
        results[i].trace.string_pairs.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect()
    };
    // `"int".equals(kind)`: the receiver comes first; only failed comparisons count.
    assert_eq!(pairs(0), [("int", "a kind"), ("long", "a kind"), ("str", "a kind")]);
    assert_eq!(pairs(1), [("int", "long")]);
}

#[test]
fn exceptions_are_reported_with_their_class_message_and_origin() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut pool, _) = fixture_pool(tmp.path(), 1);
    let mut t = TestCaseBuilder::new();
    let s = t.null(model::descriptor::FieldType::Object(model::names::InternalName::new("java/lang/String")));
    t.call(s, method("java.lang.String", "length", "()I"), &[]);
    let mut u = TestCaseBuilder::new();
    let x = u.string("x");
    let i = u.int(5);
    u.call(x, method("java.lang.String", "charAt", "(I)C"), &[i]);
    let results = pool.execute(&[t.build(), u.build()]).unwrap();
    let StatementOutcome::Threw(npe) = &results[0].statements[1] else { panic!("{:?}", results[0]) };
    assert_eq!(npe.class.as_str(), "java.lang.NullPointerException");
    let StatementOutcome::Threw(oob) = &results[1].statements[2] else { panic!("{:?}", results[1]) };
    assert_eq!(oob.class.as_str(), "java.lang.StringIndexOutOfBoundsException");
    assert!(oob.message.as_deref().unwrap_or("").contains('5'), "{oob:?}");
    assert!(!oob.direct, "charAt throws from a helper deeper down: {oob:?}");
    // The stack trace is kept, innermost first: the helper, then String.charAt itself.
    let at = oob.frames.iter().position(|f| f.class == "java.lang.String" && f.method == "charAt");
    assert!(at.is_some_and(|i| i > 0), "{:?}", oob.frames);
    assert!(oob.frames.len() <= exec::MAX_FRAMES && oob.frames.iter().any(|f| f.line.is_some()), "{:?}", oob.frames);
    let StatementOutcome::Threw(npe_info) = &results[0].statements[1] else { unreachable!() };
    assert!(npe_info.frames.is_empty(), "a null receiver is reported by the executor: {npe_info:?}");
}

/// `outer.new Inner()` throws `NullPointerException` for a null `outer`
/// before the constructor runs (JLS 15.9.4), as the emitted Java does; JNI
/// would construct it. A top-level class's constructor takes a null first
/// argument.
#[test]
fn an_inner_class_on_a_null_enclosing_instance_throws_as_in_java() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut pool, _) = fixture_pool(tmp.path(), 1);
    let nested = || model::descriptor::FieldType::Object(model::names::InternalName::new("fixtures/Nested"));
    let adder = method("fixtures.Nested$Adder", "<init>", "(Lfixtures/Nested;I)V");
    let mut on_null = TestCaseBuilder::new();
    let outer = on_null.null(nested());
    let step = on_null.int(2);
    on_null.construct(adder.clone(), &[outer, step]);
    let mut on_real = TestCaseBuilder::new();
    let name = on_real.string("n");
    let outer = on_real.construct(method("fixtures.Nested", "<init>", "(Ljava/lang/String;)V"), &[name]);
    let step = on_real.int(2);
    let inner = on_real.construct(adder, &[outer, step]);
    let times = on_real.int(3);
    on_real.call(inner, method("fixtures.Nested$Adder", "add", "(I)I"), &[times]);
    let mut top_level = TestCaseBuilder::new();
    let none =
        top_level.null(model::descriptor::FieldType::Object(model::names::InternalName::new("java/lang/String")));
    top_level.construct(method("fixtures.Nested", "<init>", "(Ljava/lang/String;)V"), &[none]);
    let results = pool.execute(&[on_null.build(), on_real.build(), top_level.build()]).unwrap();
    let StatementOutcome::Threw(npe) = &results[0].statements[2] else { panic!("{:?}", results[0]) };
    assert_eq!(npe.class.as_str(), "java.lang.NullPointerException");
    assert_eq!(results[1].statements[5], StatementOutcome::Normal(ValueSummary::Integer(6)), "{:?}", results[1]);
    assert!(matches!(results[2].statements[1], StatementOutcome::Normal(_)), "{:?}", results[2]);
}

#[test]
fn invalid_test_cases_are_rejected_before_reaching_the_jvm() {
    let tmp = tempfile::tempdir().unwrap();
    let (pool, _) = fixture_pool(tmp.path(), 1);
    let jar = tmp.path().join("fixtures.jar");
    let cp = model::classpath::ClassPath::new(&[jar]).unwrap().with_jdk(&util::jdk()).unwrap();
    let mut pool = pool.with_validation(std::sync::Arc::new(cp));
    let mut missing_class = TestCaseBuilder::new();
    missing_class.static_call(method("fixtures.NoSuchClass", "f", "()V"), &[]);
    let mut missing_method = TestCaseBuilder::new();
    missing_method.static_call(method("fixtures.Compare", "noSuchMethod", "()V"), &[]);
    let mut wrong_type = TestCaseBuilder::new();
    let s = wrong_type.string("3");
    let i = wrong_type.int(4);
    wrong_type.static_call(method("fixtures.Compare", "ltInt", "(II)Z"), &[s, i]);
    let tests = [missing_class.build(), missing_method.build(), wrong_type.build(), lt_int(1, 2)];
    let results = pool.execute(&tests).unwrap();
    let reasons: Vec<String> = results[..3]
        .iter()
        .map(|r| match &r.outcome {
            TestOutcome::Rejected { reason } => reason.clone(),
            other => panic!("not rejected: {other:?}"),
        })
        .collect();
    assert!(reasons[0].contains("fixtures.NoSuchClass"), "{}", reasons[0]);
    assert!(reasons[1].contains("noSuchMethod"), "{}", reasons[1]);
    assert!(reasons[2].contains("argument 1 is java.lang.String, expected int"), "{}", reasons[2]);
    assert_eq!(results[3].outcome, TestOutcome::Completed);
    assert_eq!(pool.sent, 1, "only the valid test reached a worker");
}

#[test]
fn a_missing_jdk_gives_a_clear_error() {
    let cfg = WorkerConfig {
        exe: env!("CARGO_BIN_EXE_ferrosuite").into(),
        java_home: "/nonexistent/jdk".into(),
        class_path: ".".into(),
        heap_mb: 64,
        environment: Default::default(),
    };
    let err = Pool::new(cfg, ExecConfig::default(), 1).err().expect("no JDK there").to_string();
    assert_eq!(
        err,
        "cannot start a test-execution worker: no JVM library at /nonexistent/jdk/lib/server/libjvm.so: set JAVA_HOME to a JDK 17 or install openjdk-17-jdk-headless"
    );
}

/// A class taking lambdas of a package-private interface with a default
/// method (which the worker's proxy runs through a private lookup) and of
/// JDK interfaces (whose default methods it runs through `invokeDefault`).
const CALLBACKS: &str = r#"package demo;
public class Callbacks {
    interface Greeter {
        String name();
        default String greet() { return "hi " + name(); }
    }
    public static String greet(Greeter g) { return g.greet(); }
    public static int reversed(java.util.Comparator<String> c) { return c.reversed().compare("a", "b"); }
    public static String shown(Runnable r) { return r.toString(); }
    public static boolean same(Runnable r, Runnable other) { return r.equals(r) && !r.equals(other) && r.hashCode() == r.hashCode(); }
    public static long twice(java.util.function.LongUnaryOperator op) { return op.applyAsLong(op.applyAsLong(3)); }
    public static String name(java.lang.reflect.Method m) { return m.getName(); }
    private int secret(int x, String[] y) { return x; }
}
"#;

#[test]
fn lambdas_members_by_reflection_and_void_class_run_in_a_worker_as_in_java() {
    use testcase::{LambdaBody, MemberRef};
    let tmp = tempfile::tempdir().unwrap();
    let classes = util::compile(tmp.path(), &[("demo/Callbacks.java", CALLBACKS)], &[]);
    let jar = tmp.path().join("callbacks.jar");
    util::jar_dir(&classes, &jar);
    let (mut pool, _) = pool_on(tmp.path(), &jar, 1);
    let lambda = |t: &mut TestCaseBuilder, interface: &str, name: &str, desc: &str, body| {
        t.lambda(BinaryName::new(interface), method(interface, name, desc), body)
    };
    let mut t = TestCaseBuilder::new();
    let bob = t.string("bob");
    let greeter = lambda(&mut t, "demo.Callbacks$Greeter", "name", "()Ljava/lang/String;", LambdaBody::Returns(bob));
    t.static_call(method("demo.Callbacks", "greet", "(Ldemo/Callbacks$Greeter;)Ljava/lang/String;"), &[greeter]);
    let compare = "(Ljava/lang/Object;Ljava/lang/Object;)I";
    let natural = lambda(&mut t, "java.util.Comparator", "compare", compare, LambdaBody::NaturalOrder);
    t.static_call(method("demo.Callbacks", "reversed", "(Ljava/util/Comparator;)I"), &[natural]);
    let run = lambda(&mut t, "java.lang.Runnable", "run", "()V", LambdaBody::Default);
    let other = lambda(&mut t, "java.lang.Runnable", "run", "()V", LambdaBody::Default);
    t.static_call(method("demo.Callbacks", "shown", "(Ljava/lang/Runnable;)Ljava/lang/String;"), &[run]);
    t.static_call(method("demo.Callbacks", "same", "(Ljava/lang/Runnable;Ljava/lang/Runnable;)Z"), &[run, other]);
    let identity = lambda(&mut t, "java.util.function.LongUnaryOperator", "applyAsLong", "(J)J", LambdaBody::Identity);
    t.static_call(method("demo.Callbacks", "twice", "(Ljava/util/function/LongUnaryOperator;)J"), &[identity]);
    let secret = t.reflect(MemberRef::Method(method("demo.Callbacks", "secret", "(I[Ljava/lang/String;)I")));
    t.static_call(method("demo.Callbacks", "name", "(Ljava/lang/reflect/Method;)Ljava/lang/String;"), &[secret]);
    t.void_class();
    t.reflect(MemberRef::Method(method("demo.Callbacks", "missing", "()V")));
    let result = &pool.execute(&[t.build()]).unwrap()[0];
    let value = |i: usize| match &result.statements[i] {
        StatementOutcome::Normal(v) => v.clone(),
        other => panic!("statement {i}: {other:?}"),
    };
    assert_eq!(value(2), ValueSummary::String("hi bob".into()), "the default method ran");
    assert_eq!(value(4), ValueSummary::Integer(1), "Comparator.reversed of the natural order");
    let ValueSummary::String(shown) = value(7) else { panic!("{:?}", value(7)) };
    assert!(shown.starts_with("java.lang.Runnable$$Lambda@"), "{shown}");
    assert_eq!(value(8), ValueSummary::Boolean(true));
    assert_eq!(value(10), ValueSummary::Integer(3));
    assert_eq!(value(12), ValueSummary::String("secret".into()));
    assert_eq!(value(13), ValueSummary::Object { class: BinaryName::new("java.lang.Class") });
    let StatementOutcome::Threw(missing) = &result.statements[14] else { panic!("{:?}", result.statements[14]) };
    assert_eq!(missing.class.as_str(), "java.lang.NoSuchMethodException");
}

/// The stable keys of the goals of `fixtures.Compare` a test covered.
fn covered_keys(tmp: &std::path::Path, probes: &[instrument::InstrumentedClass], trace: &exec::Trace) -> Vec<String> {
    let cf = model::classpath::ClassPath::new(&[tmp.join("fixtures.jar")]).unwrap().load("fixtures.Compare").unwrap();
    let goals = analysis::goals::class_goals(&cf).unwrap();
    let class = probes.iter().find(|c| c.class.as_str() == "fixtures/Compare").unwrap();
    let map = exec::coverage::GoalMap::new(&goals, class);
    map.covered(trace).into_iter().map(|g| goals.goal(g).key.clone()).collect()
}

#[test]
fn covered_goals_equal_hand_computed_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut pool, probes) = fixture_pool(tmp.path(), 1);
    let mut sw = TestCaseBuilder::new();
    let five = sw.int(5);
    sw.static_call(method("fixtures.Compare", "sw", "(I)I"), &[five]);
    let results = pool.execute(&[lt_int(3, 7), sw.build()]).unwrap();
    // ltInt: `if (a < b) return true;` is line 25, `if_icmpge` at bci 2;
    // with 3 < 7 the jump is not taken (side false) and line 26 is not run.
    assert_eq!(
        covered_keys(tmp.path(), &probes, &results[0].trace),
        ["method:ltInt(II)Z", "line:25", "ltInt(II)Z@2:false"]
    );
    // sw(5): `case 5: return 50;` only; the tableswitch is at bci 1.
    let keys = covered_keys(tmp.path(), &probes, &results[1].trace);
    assert!(keys.iter().any(|k| k.starts_with("sw(I)I@1:case:5")), "{keys:?}");
    assert!(!keys.iter().any(|k| k.contains(":default")), "{keys:?}");
}

fn parse_call(o: Option<f64>, s: &str) -> TestCase {
    let mut t = TestCaseBuilder::new();
    let object = model::descriptor::FieldType::Object(model::names::InternalName::new("java/lang/Object"));
    let o = match o {
        Some(v) => {
            let v = t.double(v);
            t.static_call(method("java.lang.Double", "valueOf", "(D)Ljava/lang/Double;"), &[v])
        }
        None => t.null(object),
    };
    let s = t.string(s);
    t.static_call(method("commit.Parse", "parse", "(Ljava/lang/Object;Ljava/lang/String;)D"), &[o, s]);
    t.build()
}

/// A branch side whose code throws before JaCoCo's next probe is not
/// covered, though its jump was taken (`analysis::commit`): JaCoCo would
/// not count it, so the search must keep after it. The same side is
/// covered when its code completes; a branch-free method's root goal
/// likewise needs its call to return.
#[test]
fn a_branch_side_counts_only_when_its_code_reaches_jacocos_next_probe() {
    let tmp = tempfile::tempdir().unwrap();
    let jar = util::testdata_jar(tmp.path(), "commit");
    let (mut pool, probes) = pool_on(tmp.path(), &jar, 1);
    let mut length_null = TestCaseBuilder::new();
    let string = model::descriptor::FieldType::Object(model::names::InternalName::new("java/lang/String"));
    let s = length_null.null(string);
    length_null.static_call(method("commit.Parse", "length", "(Ljava/lang/String;)I"), &[s]);
    let mut length_ok = TestCaseBuilder::new();
    let s = length_ok.string("ab");
    length_ok.static_call(method("commit.Parse", "length", "(Ljava/lang/String;)I"), &[s]);
    let tests = [
        parse_call(None, "x"),
        parse_call(None, "1.5"),
        parse_call(Some(2.0), "x"),
        length_null.build(),
        length_ok.build(),
    ];
    let results = pool.execute(&tests).unwrap();
    let cf = model::classpath::ClassPath::new(&[jar]).unwrap().load("commit.Parse").unwrap();
    let goals = analysis::goals::class_goals(&cf).unwrap();
    let class = probes.iter().find(|c| c.class.as_str() == "commit/Parse").unwrap();
    let map = exec::coverage::GoalMap::new(&goals, class);
    let keys = |i: usize| -> Vec<String> {
        map.covered_by(&results[i]).into_iter().map(|g| goals.goal(g).key.clone()).collect()
    };
    // `instanceof` is `ifeq`: its taken side (true) is the `parseDouble` branch.
    let parse_side = "parse(Ljava/lang/Object;Ljava/lang/String;)D@4:true";
    let cast_side = "parse(Ljava/lang/Object;Ljava/lang/String;)D@4:false";
    assert!(matches!(results[0].statements.last(), Some(StatementOutcome::Threw(_))), "{:?}", results[0]);
    assert!(!keys(0).iter().any(|k| k == parse_side), "parseDouble threw before the join: {:?}", keys(0));
    let site = class.bases.branch;
    let taken = results[0].trace.branches.iter().find(|(id, _)| *id == site).unwrap().1;
    assert!(taken.taken(Relation::Eq, true), "the jump itself was taken");
    assert!(map.branch_distances(&results[0].trace).values().any(|d| *d == exec::coverage::UNCOMMITTED_DISTANCE));
    for r in &results {
        assert_eq!(map.observe(r), (map.covered_by(r), map.branch_distances(&r.trace)), "one look-up, same answers");
    }
    assert!(keys(1).iter().any(|k| k == parse_side), "{:?}", keys(1));
    assert!(keys(2).iter().any(|k| k == cast_side), "{:?}", keys(2));
    let root = "root:length(Ljava/lang/String;)I";
    assert!(!keys(3).iter().any(|k| k == root), "s.length() threw: {:?}", keys(3));
    assert!(keys(4).iter().any(|k| k == root), "{:?}", keys(4));
}

/// An archived test that ends in an error of the JVM itself is never
/// emitted; cut before that statement it keeps the goals it covered
/// first (`generate::endings`), and a test with nothing before it is left
/// out, counted as `vm-error`.
#[test]
fn a_test_ending_out_of_memory_is_cut_before_it_and_keeps_its_goals() {
    let tmp = tempfile::tempdir().unwrap();
    let jar = util::testdata_jar(tmp.path(), "endings");
    let (mut pool, probes) = pool_on(tmp.path(), &jar, 1);
    let take = method("endings.Cache", "take", "(I)[B");
    let mut fills_then_fails = TestCaseBuilder::new();
    let cache = fills_then_fails.construct(method("endings.Cache", "<init>", "()V"), &[]);
    let small = fills_then_fails.int(5);
    fills_then_fails.call(cache, take.clone(), &[small]);
    let huge = fills_then_fails.int(i32::MAX);
    fills_then_fails.call(cache, take.clone(), &[huge]);
    let mut only_fails = TestCaseBuilder::new();
    let cache = only_fails.construct(method("endings.Cache", "<init>", "()V"), &[]);
    let huge = only_fails.int(i32::MAX);
    only_fails.call(cache, take, &[huge]);
    let cp = model::classpath::ClassPath::new(&[jar]).unwrap().with_jdk(&util::jdk()).unwrap();
    let cf = cp.load("endings.Cache").unwrap();
    let goals = analysis::goals::class_goals(&cf).unwrap();
    let class = probes.iter().find(|c| c.class.as_str() == "endings/Cache").unwrap();
    let map = exec::coverage::GoalMap::new(&goals, class);
    let small_side = goals.goal_by_key("take(I)[B@8:false").expect("the n < 1024 side");
    let oom =
        search::ExceptionGoal { method: "take(I)[B".into(), exception: BinaryName::new("java.lang.OutOfMemoryError") };
    let archived = vec![
        (fills_then_fails.build(), std::collections::BTreeSet::from([small_side]), vec![]),
        (only_fails.build(), std::collections::BTreeSet::new(), vec![oom]),
    ];
    let (kept, removed) = generate::endings::cut_unkeepable(archived, &map, &mut pool, &cp).unwrap();
    assert_eq!(removed, ["vm-error"], "the test with nothing before its error is left out");
    assert_eq!(kept.len(), 1);
    let (prefix, keep) = &kept[0];
    assert_eq!(prefix.statements.len(), 4, "cut before the huge take: {prefix}");
    assert_eq!(keep.goals, std::collections::BTreeSet::from([small_side]));
    let rerun = pool.execute(std::slice::from_ref(prefix)).unwrap().remove(0);
    assert!(rerun.statements.iter().all(|s| !matches!(s, StatementOutcome::Threw(_))), "{rerun:?}");
}

/// A test that leaves its thread interrupted does not reach the next one
/// in the same worker: blocking I/O of that test would otherwise throw
/// (`ClosedByInterruptException` from a `FileChannel`), in one worker and
/// not another.
#[test]
fn an_interrupt_flag_does_not_outlive_its_test() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut pool, _) = fixture_pool(tmp.path(), 1);
    let mut interrupts = TestCaseBuilder::new();
    let current = interrupts.static_call(method("java.lang.Thread", "currentThread", "()Ljava/lang/Thread;"), &[]);
    interrupts.call(current, method("java.lang.Thread", "interrupt", "()V"), &[]);
    let mut asks = TestCaseBuilder::new();
    asks.static_call(method("java.lang.Thread", "interrupted", "()Z"), &[]);
    let (interrupts, asks) = (interrupts.build(), asks.build());
    let results = pool.execute(&[interrupts, asks.clone(), asks]).unwrap();
    assert_eq!(results[0].outcome, TestOutcome::Completed, "{:?}", results[0]);
    for later in &results[1..] {
        assert_eq!(later.statements[0], StatementOutcome::Normal(ValueSummary::Boolean(false)), "{later:?}");
    }
}

/// What a test allocates comes back as a share of the worker's heap: an
/// `ArrayList` of capacity 20,000,000 (an 80 MB array of references at the
/// least) is over [`exec::HUNGRY_HEAP_SHARE`] of the 256 MB heap, one of
/// capacity 10 is nowhere near it.
#[test]
fn a_test_that_allocates_much_of_the_heap_says_so_in_its_trace() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut pool, _) = fixture_pool(tmp.path(), 1);
    let list = |capacity: i32| {
        let mut t = TestCaseBuilder::new();
        let n = t.int(capacity);
        t.construct(method("java.util.ArrayList", "<init>", "(I)V"), &[n]);
        t.build()
    };
    let results = pool.execute(&[list(20_000_000), list(10)]).unwrap();
    let shares: Vec<f64> = results.iter().map(|r| r.trace.heap_share_allocated).collect();
    assert!(shares[0] > exec::HUNGRY_HEAP_SHARE && shares[0] < 1.0, "{shares:?}");
    assert!(shares[1] < 0.01, "{shares:?}");
}
