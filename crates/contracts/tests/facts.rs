//! Class facts on `testdata/contracts`, compiled with the JDK's `javac`:
//! which contract methods each fixture has from the user's code, the
//! `compareTo` to call, and that JDK classes have none.

use std::sync::Arc;

use contracts::contract::Method;
use contracts::facts::ClassFacts;
use model::classpath::ClassPath;
use model::names::BinaryName;

/// The fixtures compiled into a temporary folder, and facts over them.
fn facts() -> (tempfile::TempDir, ClassFacts) {
    let jdk = model::jdk::Jdk::find().unwrap();
    let out = tempfile::tempdir().unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/contracts/src/contracts");
    let mut files: Vec<_> = std::fs::read_dir(&src).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let status = std::process::Command::new(jdk.tool("javac"))
        .arg("-g")
        .arg("-d")
        .arg(out.path())
        .args(&files)
        .status()
        .unwrap();
    assert!(status.success());
    let user = out.path().display().to_string();
    let cp = ClassPath::parse(&user).unwrap().with_jdk(&jdk.home).unwrap();
    (out, ClassFacts::new(Arc::new(cp), &user))
}

fn methods(facts: &mut ClassFacts, class: &str) -> Option<Vec<Method>> {
    facts.declared(&BinaryName::new(class)).map(|d| d.by.keys().copied().collect())
}

#[test]
fn each_class_has_the_contract_methods_it_declares() {
    let (_dir, mut facts) = facts();
    let all = vec![Method::Equals, Method::HashCode, Method::ToString, Method::CompareTo];
    assert_eq!(methods(&mut facts, "contracts.Money"), Some(all));
    assert_eq!(methods(&mut facts, "contracts.Counter"), Some(vec![]), "it keeps Object's");
    assert_eq!(methods(&mut facts, "contracts.Version"), Some(vec![Method::ToString, Method::CompareTo]));
    assert_eq!(methods(&mut facts, "contracts.Label"), Some(vec![Method::ToString]));
    assert_eq!(methods(&mut facts, "java.lang.String"), None, "the JDK keeps its own contracts");
    assert!(facts.is_public(&BinaryName::new("contracts.Money")));
    assert!(!facts.is_public_field(&BinaryName::new("contracts.Money"), "cents"));
}

#[test]
fn compare_to_is_the_declared_method_not_the_bridge() {
    let (_dir, mut facts) = facts();
    let m = facts.compare_to(&BinaryName::new("contracts.Version")).unwrap();
    assert_eq!(m.to_string(), "contracts.Version.compareTo(Lcontracts/Version;)I");
    assert_eq!(facts.compare_to(&BinaryName::new("contracts.Ticket")), None);
    let location = facts.method_location(&BinaryName::new("contracts.Version"), Method::CompareTo).unwrap();
    assert!(location.starts_with("Version.java:"), "{location}");
}

#[test]
fn only_user_classes_and_jdk_interfaces_may_hold_user_objects() {
    let (_dir, facts) = facts();
    assert!(facts.may_hold_user_object("contracts.Ticket"));
    assert!(facts.may_hold_user_object("java.lang.Object"));
    assert!(facts.may_hold_user_object("java.util.Map$Entry"));
    assert!(facts.may_hold_user_object("java.util.AbstractList"));
    assert!(!facts.may_hold_user_object("java.lang.String"));
    assert!(!facts.may_hold_user_object("java.util.ArrayList"));
}
