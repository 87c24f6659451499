//! The static check on `testdata/kat/src/misuse/Calls.java`, compiled with
//! the JDK's `javac`: every unguarded call is a potential violation, every
//! guarded one is safe (unsat, or caught where it is called).

use std::path::Path;
use std::process::Command;

use katcheck::{CheckOptions, ClassCheck, Verdict, Violation, check_class};
use model::classfile::ClassFile;

/// Compiles the fixture and checks class `misuse.Calls`.
fn checked() -> ClassCheck {
    let out = compiled("misuse/Calls.java");
    let bytes = std::fs::read(out.path().join("misuse/Calls.class")).unwrap();
    let cf = ClassFile::parse(&bytes).unwrap();
    check_class(&cf, &kat::KnowledgeGraph::jdk17(), &CheckOptions::default())
}

fn of<'a>(check: &'a ClassCheck, method: &str, api: &str) -> Vec<&'a Violation> {
    check.violations.iter().filter(|v| v.method == method && v.api.starts_with(api)).collect()
}

fn render(vs: &[&Violation]) -> String {
    vs.iter()
        .map(|v| {
            format!(
                "{} [{}] {} bug {} caught {:?}",
                v.condition,
                v.kinds.join(","),
                v.verdict.name(),
                v.bug_confidence,
                v.caught_by
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn unguarded_calls_are_potential_violations_and_guarded_ones_are_safe() {
    let check = checked();
    assert!(check.warnings.is_empty(), "{:?}", check.warnings);
    let cases = [
        ("charAt", "charAtGuarded", "java.lang.String.charAt"),
        ("first", "firstGuarded", "java.util.Iterator.next"),
        ("number", "numberGuarded", "java.lang.Integer.parseInt"),
        ("need", "needGuarded", "java.util.Objects.requireNonNull"),
        ("tail", "tailGuarded", "java.lang.String.substring"),
    ];
    for (unguarded, guarded, api) in cases {
        let bad = of(&check, unguarded, api);
        assert!(!bad.is_empty(), "{unguarded}: no site of {api}");
        assert!(bad.iter().all(|v| v.is_potential_bug()), "{unguarded}:\n{}", render(&bad));
        let good = of(&check, guarded, api);
        assert!(!good.is_empty(), "{guarded}: no site of {api}");
        assert!(good.iter().all(|v| !v.is_potential_bug()), "{guarded}:\n{}", render(&good));
    }
}

#[test]
fn the_guards_make_the_triggers_unsat_and_a_handler_is_named() {
    let check = checked();
    let guarded = of(&check, "charAtGuarded", "java.lang.String.charAt");
    let conditions: Vec<(&str, Verdict)> = guarded.iter().map(|v| (v.condition.as_str(), v.verdict)).collect();
    assert_eq!(conditions, [("index < 0", Verdict::Unsat), ("index >= this.length()", Verdict::Unsat)]);
    let next = of(&check, "firstGuarded", "java.util.Iterator.next");
    assert_eq!(next.iter().map(|v| v.verdict).collect::<Vec<_>>(), [Verdict::Unsat], "{}", render(&next));
    let parse = of(&check, "numberGuarded", "java.lang.Integer.parseInt");
    assert!(
        parse.iter().all(|v| v.caught_by.as_deref() == Some("java/lang/NumberFormatException")),
        "{}",
        render(&parse)
    );
    let switched = of(&check, "yes", "java.lang.String.charAt");
    assert_eq!(switched.len(), 6, "{}", render(&switched));
    assert!(switched.iter().all(|v| v.verdict == Verdict::Unsat), "{}", render(&switched));
    let default_side = of(&check, "other", "java.lang.String.charAt");
    let verdicts: Vec<(&str, Verdict)> = default_side.iter().map(|v| (v.condition.as_str(), v.verdict)).collect();
    assert_eq!(verdicts, [("index < 0", Verdict::Unsat), ("index >= this.length()", Verdict::Sat)]);
    let loop_sites = of(&check, "loop", "java.lang.String.charAt");
    assert!(loop_sites.iter().all(|v| v.verdict == Verdict::Unsat), "{}", render(&loop_sites));
}

#[test]
fn bug_confidence_is_one_when_the_violating_value_is_determined() {
    let check = checked();
    let always = of(&check, "alwaysOut", "java.lang.String.charAt");
    let by_condition: Vec<(&str, Verdict, f32)> =
        always.iter().map(|v| (v.condition.as_str(), v.verdict, v.bug_confidence)).collect();
    assert_eq!(by_condition, [("index < 0", Verdict::Unsat, 0.0), ("index >= this.length()", Verdict::Sat, 1.0)]);
    let input = of(&check, "charAt", "java.lang.String.charAt");
    assert!(input.iter().all(|v| v.bug_confidence == 0.5), "{}", render(&input));
}

#[test]
fn violations_carry_lines_and_readable_labels() {
    let check = checked();
    assert_eq!(check.source_file.as_deref(), Some("Calls.java"));
    let v = of(&check, "charAt", "java.lang.String.charAt")[1];
    assert_eq!(
        v.label(check.source_file.as_deref()),
        "Calls.java:15 java.lang.String.charAt(int) with index >= this.length()"
    );
    assert_eq!(v.exception, "java/lang/IndexOutOfBoundsException");
}

#[test]
fn methods_typed_by_type_variables_are_told_from_raw_ones() {
    let out = compiled("misuse/Ordered.java");
    let cf = ClassFile::parse(&std::fs::read(out.path().join("misuse/Ordered.class")).unwrap()).unwrap();
    let generic = |name: &str| {
        let m = cf.methods.iter().find(|m| cf.member_name(m) == name).unwrap();
        katcheck::witness::has_generic_parameters(&cf, m)
    };
    assert!(generic("above"));
    assert!(generic("aboveAll"));
    assert!(generic("count"));
    assert!(!generic("compareRaw"));
}

#[test]
fn exceptions_of_an_implemented_jdk_contract_are_told_apart() {
    let out = compiled("misuse/Wrapper.java");
    let jdk = model::jdk::Jdk::find().unwrap();
    let cp = model::classpath::ClassPath::parse(out.path().to_str().unwrap()).unwrap().with_jdk(&jdk.home).unwrap();
    let graph = kat::KnowledgeGraph::jdk17();
    let ioobe = model::names::BinaryName::new("java.lang.IndexOutOfBoundsException");
    let documented = |name: &str, descriptor: &str| {
        katcheck::witness::documented_by_supertype(&cp, &graph, "misuse.Wrapper", name, descriptor, &ioobe)
    };
    assert!(documented("get", "(I)Ljava/lang/String;"));
    assert!(!documented("at", "(I)Ljava/lang/String;"));
}

/// `testdata/kat/src/<source>` compiled with `javac -g` into a new folder.
fn compiled(source: &str) -> tempfile::TempDir {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/kat/src");
    let out = tempfile::tempdir().unwrap();
    let status =
        Command::new("javac").args(["-g", "-nowarn", "-d"]).arg(out.path()).arg(root.join(source)).status().unwrap();
    assert!(status.success(), "javac failed on {source}");
    out
}
