//! Mutant schemas (`Instrumenter::instrument_mutants`) run on a real JVM:
//! the fixture `tests/java/MutationSubject.java` behaves as the original
//! with no mutant active and every mutant changes a result of
//! `tests/java/MutantDriver.java`; every class of commons-lang3 loads with
//! its mutants under `-Xverify:all`.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use instrument::{Instrumenter, Mutant, MutantOperator};
use model::classfile::ClassFile;

fn jdk_tool(tool: &str) -> PathBuf {
    let home = std::env::var_os("JAVA_HOME")
        .map(PathBuf::from)
        .filter(|h| h.join("bin/javac").exists())
        .unwrap_or_else(|| "/usr/lib/jvm/java-17-openjdk-amd64".into());
    home.join("bin").join(tool)
}

fn run(tool: &str, args: &[&str], stdin: Option<&str>) -> String {
    let mut child = Command::new(jdk_tool(tool))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = stdin.unwrap_or("").to_string();
    let mut pipe = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || pipe.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "{tool} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn java_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/java")
}

/// Compiles the fixture and the driver into `dir`.
fn compile_fixture(dir: &Path) {
    let sources = ["MutationSubject.java", "MutantDriver.java"].map(|f| java_dir().join(f));
    let mut args = vec!["-g", "-nowarn", "-d", dir.to_str().unwrap()];
    args.extend(sources.iter().map(|p| p.to_str().unwrap()));
    run("javac", &args, None);
}

/// Line of the fixture source that contains `marker`.
fn line_of(marker: &str) -> u16 {
    let source = std::fs::read_to_string(java_dir().join("MutationSubject.java")).unwrap();
    let i = source.lines().position(|l| l.contains(marker)).unwrap_or_else(|| panic!("no {marker}"));
    (i + 1) as u16
}

/// `name descriptor` of each method of a class file.
fn method_names(bytes: &[u8]) -> Vec<String> {
    let cf = ClassFile::parse(bytes).unwrap();
    cf.methods.iter().map(|m| format!("{}{}", cf.member_name(m), cf.member_descriptor(m))).collect()
}

struct Fixture {
    _tmp: tempfile::TempDir,
    original: PathBuf,
    mutated: PathBuf,
    /// Mutants with `(class, method)` names.
    mutants: Vec<(String, String, Mutant)>,
}

fn instrument_fixture() -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let original = tmp.path().join("original");
    let mutated = tmp.path().join("mutated");
    compile_fixture(&original);
    std::fs::create_dir_all(&mutated).unwrap();
    instrument::tracer::write_runtime(&mutated).unwrap();
    std::fs::copy(original.join("MutantDriver.class"), mutated.join("MutantDriver.class")).unwrap();
    let mut instrumenter = Instrumenter::default();
    let mut mutants = Vec::new();
    for class in ["MutationSubject", "MutationSubject$Inner"] {
        let file = format!("{class}.class");
        let bytes = std::fs::read(original.join(&file)).unwrap();
        let out = instrumenter.instrument_mutants(&bytes).unwrap();
        assert!(out.skipped.is_empty(), "{:?}", out.skipped);
        assert_eq!(out.class.as_str(), class);
        let names = method_names(&bytes);
        mutants.extend(out.mutants.into_iter().map(|m| (class.to_string(), names[m.method_index as usize].clone(), m)));
        std::fs::write(mutated.join(&file), &out.bytes).unwrap();
    }
    Fixture { _tmp: tmp, original, mutated, mutants }
}

/// Runs the driver under `-Xverify:all` (with assertions on) for `ids`:
/// result line of each id.
fn drive(class_path: &Path, ids: &[u32]) -> BTreeMap<u32, String> {
    let mut args: Vec<String> =
        ["-ea", "-Xverify:all", "-cp", class_path.to_str().unwrap(), "MutantDriver"].map(String::from).to_vec();
    args.extend(ids.iter().map(u32::to_string));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run("java", &args, None)
        .lines()
        .map(|l| {
            let (id, results) = l.split_once('\t').unwrap();
            (id.parse().unwrap(), results.to_string())
        })
        .collect()
}

#[test]
fn every_mutant_of_the_fixture_changes_a_result_and_none_runs_by_default() {
    let f = instrument_fixture();
    let n = f.mutants.len() as u32;
    let ids: Vec<u32> = f.mutants.iter().map(|(_, _, m)| m.id).collect();
    assert_eq!(ids, (1..=n).collect::<Vec<_>>(), "ids are 1, 2, ... in order");

    let original = drive(&f.original, &[0])[&0].clone();
    let mut all = vec![0];
    all.extend(&ids);
    let results = drive(&f.mutated, &all);
    assert_eq!(results[&0], original, "no mutant active");
    let survivors: Vec<String> = f
        .mutants
        .iter()
        .filter(|(_, _, m)| results[&m.id] == original)
        .map(|(c, method, m)| format!("{c}.{method} #{} {}", m.id, m.description))
        .collect();
    assert!(survivors.is_empty(), "mutants that change no result:\n{}", survivors.join("\n"));
    // A mutant is switched off again when another one is active.
    assert_eq!(drive(&f.mutated, &[1, 0])[&0], original);

    let mut by_operator: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, _, m) in &f.mutants {
        *by_operator.entry(m.operator.short_name()).or_default() += 1;
    }
    println!("{n} mutants of the fixture: {by_operator:?}");
}

#[test]
fn fixture_mutants_are_described_and_filtered_code_is_not_mutated() {
    let f = instrument_fixture();
    let in_method = |method: &str| -> Vec<&Mutant> {
        f.mutants.iter().filter(|(_, m, _)| m.starts_with(&format!("{method}("))).map(|(_, _, m)| m).collect()
    };
    let descriptions =
        |method: &str| -> Vec<String> { in_method(method).iter().map(|m| m.description.clone()).collect() };
    let at = |marker: &str, text: &[&str]| -> Vec<String> {
        let line = line_of(marker);
        text.iter().map(|t| format!("line {line}: {t}")).collect()
    };

    assert_eq!(
        descriptions("add"),
        at("// ADD", &["replace + with -", "replace + with *", "replace + with /", "replace + with %"])
    );
    assert!(in_method("add").iter().all(|m| m.operator == MutantOperator::Aor && m.line == Some(line_of("// ADD"))));
    // `a < b` compiles to `if_icmpge` (jump to the false branch).
    assert_eq!(
        descriptions("lt"),
        at(
            "// LT",
            &[
                "replace a >= b with a == b",
                "replace a >= b with a != b",
                "negate a >= b (to a < b)",
                "replace a >= b with a > b",
                "replace a >= b with a <= b",
                "replace a >= b with true",
                "replace a >= b with false",
                "replace constant true with false",
                "replace constant false with true",
            ]
        )
    );
    let operators: Vec<MutantOperator> = in_method("lt").iter().map(|m| m.operator).collect();
    use MutantOperator::*;
    assert_eq!(operators, [Ror, Ror, NegateCondition, Ror, Ror, Ror, Ror, ReplaceConstant, ReplaceConstant]);
    assert_eq!(
        descriptions("five"),
        at(
            "// FIVE",
            &[
                "replace constant 5 with 0",
                "replace constant 5 with 1",
                "replace constant 5 with -1",
                "replace constant 5 with 6",
                "replace constant 5 with 4"
            ]
        )
    );
    assert_eq!(
        descriptions("mul"),
        at("// MUL", &["replace * with +", "replace * with -", "replace * with /", "replace * with %"])
    );
    assert_eq!(
        descriptions("half"),
        at(
            "// HALF",
            &[
                "replace constant 2.0 with 0.0",
                "replace constant 2.0 with 1.0",
                "replace constant 2.0 with -1.0",
                "replace constant 2.0 with 3.0",
                "replace / with +",
                "replace / with -",
                "replace / with *",
                "replace / with %",
            ]
        )
    );
    assert_eq!(
        descriptions("isNull")[..3],
        at(
            "// NULL",
            &["negate x != null (to x == null)", "replace x != null with true", "replace x != null with false"]
        )
    );
    // `s.isEmpty() ? 1 : 2` tests a boolean: `ifeq` jumps when it is false.
    assert_eq!(
        descriptions("pick"),
        at(
            "// PICK",
            &[
                "negate !b (to b)",
                "replace !b with true",
                "replace !b with false",
                "replace constant 1 with 0",
                "replace constant 1 with -1",
                "replace constant 1 with 2",
                "replace constant 2 with 0",
                "replace constant 2 with 1",
                "replace constant 2 with -1",
                "replace constant 2 with 3",
            ]
        )
    );
    let big = descriptions("big");
    assert!(big.contains(&format!("line {}: replace constant 100L with 101L", line_of("// BIG"))), "{big:?}");
    assert!(big.contains(&format!("line {}: negate a <= b (to a > b)", line_of("// BIG"))), "{big:?}");
    assert_eq!(descriptions("large").len(), 5);
    assert!(
        descriptions("large").contains(&format!("line {}: replace constant 100000 with 99999", line_of("// LARGE")))
    );

    let removed = |marker: &str, call: &str| format!("line {}: remove call to {call}", line_of(marker));
    assert!(descriptions("bumpTwice").contains(&removed("// FIRST BUMP", "MutationSubject.bump(I)V")));
    assert_eq!(in_method("bumpTwice").iter().filter(|m| m.operator == RemoveCall).count(), 2);
    assert!(descriptions("counted").contains(&removed("// COUNTED", "MutationSubject.count()V")));
    assert_eq!(descriptions("cleared"), [removed("// CLEAR", "java.util.List.clear()V")]);
    assert_eq!(descriptions("call"), [removed("// NESTMATE", "MutationSubject.secret()V")]);

    // The string switch's hash dispatch is filtered: only the returned constants 1, 2 and 0.
    let code = in_method("code");
    assert_eq!(code.len(), 3 + 4 + 2, "{:?}", descriptions("code"));
    assert!(code.iter().all(|m| m.operator == ReplaceConstant));
    // The `$assertionsDisabled` test is not mutated, the asserted condition is.
    let checked = descriptions("checked");
    assert_eq!(checked.len(), 7, "{checked:?}");
    assert!(checked.iter().all(|d| d.contains("x > 0") || d.contains("x <= 0")), "{checked:?}");
    // The lambda body is mutated; `<clinit>` (which sets `$assertionsDisabled`) is not.
    assert_eq!(in_method("lambda$twice$0").len(), 8);
    assert!(in_method("<clinit>").is_empty());
}

#[test]
fn mutant_ids_are_global_across_classes() {
    let tmp = tempfile::tempdir().unwrap();
    compile_fixture(tmp.path());
    let bytes = std::fs::read(tmp.path().join("MutationSubject.class")).unwrap();
    let mut instrumenter = Instrumenter::default();
    let first = instrumenter.instrument_mutants(&bytes).unwrap();
    let second = instrumenter.instrument_mutants(&bytes).unwrap();
    let n = first.mutants.len() as u32;
    assert!(n > 50, "{n}");
    assert_eq!(first.mutants[0].id, 1);
    for (a, b) in first.mutants.iter().zip(&second.mutants) {
        assert_eq!(b.id, a.id + n);
        assert_eq!((b.bci, &b.description), (a.bci, &a.description));
    }
}

#[test]
fn every_class_of_commons_lang3_loads_with_its_mutants_under_verify_all() {
    let jar = Path::new("/usr/share/java/commons-lang3.jar");
    let cp = model::classpath::ClassPath::new(&[jar.to_path_buf()]).unwrap();
    let names = cp.classes_in(jar).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("classes");
    instrument::tracer::write_runtime(&out_dir).unwrap();
    let mut instrumenter = Instrumenter::default();
    let (mut total, mut skipped) = (0, 0);
    let mut per_class = BTreeMap::new();
    for name in &names {
        let bytes = cp.find_bytes(name).unwrap().bytes;
        let c = instrumenter.instrument_mutants(&bytes).unwrap();
        total += c.mutants.len();
        skipped += c.skipped.len();
        per_class.insert(name.clone(), c.mutants.len());
        let file = out_dir.join(format!("{}.class", c.class));
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, &c.bytes).unwrap();
    }
    let load_all = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ferrosuite/java/LoadAll.java");
    let tools = tmp.path().join("tools");
    run("javac", &["-nowarn", "-d", tools.to_str().unwrap(), load_all.to_str().unwrap()], None);
    let class_path = format!("{}:{}:{}", out_dir.display(), jar.display(), tools.display());
    let input = names.join("\n");
    let report = run("java", &["-Xverify:all", "-cp", &class_path, "LoadAll"], Some(&input));
    assert_eq!(report.lines().last(), Some(format!("TOTAL {} FAILED 0", names.len()).as_str()), "{report}");
    let char_utils = per_class["org.apache.commons.lang3.CharUtils"];
    println!(
        "commons-lang3: {} classes, {total} mutants ({char_utils} in CharUtils), {skipped} methods without mutants",
        names.len()
    );
    assert!(char_utils > 50, "{char_utils}");
    assert!(total > 10_000, "{total}");
    assert_eq!(skipped, 0);
}

/// Class files under `dir`, recursively.
fn class_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            class_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "class") {
            out.push(p);
        }
    }
}

/// Compiles `testdata/fixtures` with `flags` into `dir/original` and
/// writes their mutant schemas (the driver itself left as it is) and the
/// runtime into `dir/mutated`; checks that only the two methods of
/// `BigCode` that are built to be near the limits (a jump of 32,730 bytes,
/// 63 KiB of code) are skipped: with their mutants the jump offset no
/// longer fits in 16 bits and the code exceeds 64 KiB.
fn mutated_fixtures(dir: &Path, flags: &[&str]) -> Vec<Mutant> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fixtures/src");
    let original = dir.join("original");
    let mutated = dir.join("mutated");
    let mut sources = Vec::new();
    let mut stack = vec![src];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "java") {
                sources.push(p.to_str().unwrap().to_string());
            }
        }
    }
    sources.sort();
    let mut args = vec!["-g", "-nowarn", "-d", original.to_str().unwrap()];
    args.extend_from_slice(flags);
    args.extend(sources.iter().map(String::as_str));
    run("javac", &args, None);
    let mut classes = Vec::new();
    class_files(&original, &mut classes);
    classes.sort();
    instrument::tracer::write_runtime(&mutated).unwrap();
    let mut instrumenter = Instrumenter::default();
    let (mut mutants, mut skipped) = (Vec::new(), Vec::new());
    for file in classes {
        let bytes = std::fs::read(&file).unwrap();
        let rel = file.strip_prefix(&original).unwrap();
        let out = if rel == Path::new("fixtures/Driver.class") {
            bytes
        } else {
            let c = instrumenter.instrument_mutants(&bytes).unwrap();
            skipped.extend(c.skipped.iter().map(|s| format!("{}.{} {:?}", c.class, s.method, s.kept)));
            c.skipped.iter().for_each(|s| println!("skipped {}.{}: {}", c.class, s.method, s.reason));
            mutants.extend(c.mutants);
            c.bytes
        };
        std::fs::create_dir_all(mutated.join(rel).parent().unwrap()).unwrap();
        std::fs::write(mutated.join(rel), out).unwrap();
    }
    let big = ["fixtures/BigCode.nearLimit (I)I SandboxOnly", "fixtures/BigCode.overLimit (I)I SandboxOnly"];
    assert_eq!(skipped, big);
    mutants
}

/// The fixtures of the instrumentation differential test behave as the
/// originals with their mutant schemas and no mutant active, for Java 17
/// and Java 8 class files (the latter without `invokedynamic` string
/// concatenation and nestmates).
#[test]
fn the_fixtures_behave_as_the_originals_with_no_mutant_active() {
    for flags in [&[][..], &["--release", "8"][..]] {
        let tmp = tempfile::tempdir().unwrap();
        let mutants = mutated_fixtures(tmp.path(), flags);
        assert!(mutants.len() > 1000, "{}", mutants.len());
        let driver = |dir: &str| {
            let cp = tmp.path().join(dir);
            run("java", &["-Xverify:all", "-cp", cp.to_str().unwrap(), "fixtures.Driver"], None)
        };
        let (original, mutated) = (driver("original"), driver("mutated"));
        assert!(original.lines().count() > 200, "{original}");
        let diff: Vec<_> = original.lines().zip(mutated.lines()).filter(|(a, b)| a != b).take(5).collect();
        assert!(diff.is_empty(), "{flags:?}: first differences: {diff:#?}");
        assert_eq!(original.lines().count(), mutated.lines().count());
        println!("{flags:?}: {} mutants of the fixtures", mutants.len());
    }
}

/// Every remove-call mutant of the fixtures and every 97th other mutant,
/// active in turn while the fixtures' driver runs (in one JVM, the classes
/// loaded afresh for each run, loops cut after a million back-edges): none causes a linkage or verification
/// error, so the schema's helpers and call sites link for every shape
/// (static, virtual, interface and nestmate-private calls, lambdas'
/// bootstrap methods kept), and most change the driver's output.
#[test]
fn active_mutants_of_the_fixtures_link_and_change_behaviour() {
    let tmp = tempfile::tempdir().unwrap();
    let mutants = mutated_fixtures(tmp.path(), &[]);
    let sample: Vec<&Mutant> =
        mutants.iter().filter(|m| m.operator == MutantOperator::RemoveCall || m.id % 97 == 0).collect();
    // A run without mutant first: the baseline.
    let ids: Vec<String> = std::iter::once(0).chain(sample.iter().map(|m| m.id)).map(|id| id.to_string()).collect();
    let tools = tmp.path().join("tools");
    run(
        "javac",
        &["-nowarn", "-d", tools.to_str().unwrap(), java_dir().join("RunMutants.java").to_str().unwrap()],
        None,
    );
    let mutated = tmp.path().join("mutated");
    let args = [
        "-Xverify:all",
        "-XX:TieredStopAtLevel=1",
        "-cp",
        tools.to_str().unwrap(),
        "RunMutants",
        mutated.to_str().unwrap(),
        "fixtures.Driver",
    ];
    let report = run("java", &args, Some(&ids.join("\n")));
    let rows: Vec<Vec<&str>> = report.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), ids.len(), "{report}");
    let baseline = rows[0][1];
    let suspects: Vec<String> = rows[1..]
        .iter()
        .filter(|r| !r[2].is_empty())
        .map(|r| {
            let m = &mutants[r[0].parse::<usize>().unwrap() - 1];
            format!("#{} {}: {}", m.id, m.description, r[2])
        })
        .collect();
    assert!(suspects.is_empty(), "{}", suspects.join("\n"));
    let changed = rows[1..].iter().filter(|r| r[1] != baseline).count();
    println!("{} of {} mutants run, {changed} change the driver's output", sample.len(), mutants.len());
    assert!(changed * 2 > sample.len(), "{changed} of {}", sample.len());
}
