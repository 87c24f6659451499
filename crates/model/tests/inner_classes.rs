//! `ClassFile::inner_class_flags`: a nested class's own access flags come
//! from its InnerClasses entry (the class file's flags never say private);
//! `ClassFile::is_inner_class` reads its `static` from there.

use model::classpath::ClassPath;

#[test]
fn nested_classes_report_their_declared_access() {
    let jars = "/usr/share/java/commons-lang3.jar:/usr/share/java/commons-cli.jar";
    let cp = ClassPath::parse(jars).expect("run scripts/setup.sh: the Debian commons jars are missing");
    let private = cp.load("org.apache.commons.lang3.Range$ComparableComparator").unwrap();
    let flags = private.inner_class_flags().expect("an InnerClasses entry");
    assert_ne!(flags & 0x0002, 0, "ComparableComparator is private: {flags:#x}");
    assert_eq!(private.access & 0x0002, 0, "the class file's own flags cannot say private");
    let public = cp.load("org.apache.commons.cli.Option$Builder").unwrap();
    let flags = public.inner_class_flags().unwrap();
    assert_ne!(flags & 0x0001, 0, "Option.Builder is public: {flags:#x}");
    assert_ne!(flags & 0x0008, 0, "Option.Builder is static: {flags:#x}");
    assert_eq!(cp.load("org.apache.commons.cli.Option").unwrap().inner_class_flags(), None, "top level");
    assert!(!public.is_inner_class(), "a static nested class is no inner class");
    assert!(!cp.load("org.apache.commons.cli.Option").unwrap().is_inner_class());
}

#[test]
fn a_non_static_nested_class_is_an_inner_class() {
    let cp = ClassPath::parse("/usr/share/java/commons-collections4.jar").expect("run scripts/setup.sh");
    // `TreeBidiMap.View` is declared `abstract class View` inside TreeBidiMap: an inner class.
    let view = cp.load("org.apache.commons.collections4.bidimap.TreeBidiMap$View").unwrap();
    assert!(view.is_inner_class(), "{:?}", view.inner_class_flags());
}
