//! Class names in the emitted source: which classes are imported, and how
//! each class is spelled.
//!
//! A suite is rendered twice. The first pass spells every class fully
//! qualified and records the top-level classes it names; [`ClassNames::decide`]
//! then gives each simple name to at most one of them, and the second pass
//! spells those classes by their simple name. Rendering is deterministic, so
//! both passes name the same classes.
//!
//! A nested class is spelled through its top-level class (`a.B$C` is `B.C`
//! once `a.B` is imported), so only top-level classes are imported.

use std::collections::{BTreeMap, BTreeSet};

use model::names::BinaryName;

/// The spelling of class names in one test class.
#[derive(Debug, Clone)]
pub(crate) struct ClassNames {
    /// The package of the test class, in binary form (`""` for the default package).
    package: String,
    /// Simple names no class may take: the test class's own name.
    reserved: BTreeSet<String>,
    /// Every top-level class spelled so far.
    seen: BTreeSet<BinaryName>,
    /// The top-level classes spelled by their simple name.
    short: BTreeSet<BinaryName>,
}

impl ClassNames {
    /// Names for a test class `own_class` in `package` (binary form); every
    /// class is spelled fully qualified until [`ClassNames::decide`].
    pub(crate) fn new(package: &str, own_class: &str) -> ClassNames {
        ClassNames {
            package: package.to_owned(),
            reserved: BTreeSet::from([own_class.to_owned()]),
            seen: BTreeSet::new(),
            short: BTreeSet::new(),
        }
    }

    /// How the source spells `class`, recording it: `B.C` or `a.B.C` for `a.B$C`.
    pub(crate) fn class(&mut self, class: &BinaryName) -> String {
        let top = top_level(class);
        let full = class.java_name();
        let top_java = top.java_name();
        // `java_name` of a nested class starts with that of its top-level class.
        let nested = full.get(top_java.len()..).unwrap_or_default().to_owned();
        let head = if self.short.contains(&top) { top.simple_name().to_owned() } else { top_java };
        self.seen.insert(top);
        head + &nested
    }

    /// Gives each simple name of the classes seen so far to one class, which
    /// is then spelled by that name: the class under test first, then classes
    /// of the test's own package, then `java.lang`, then the first by name.
    pub(crate) fn decide(&mut self, cut: &BinaryName) {
        let cut_top = top_level(cut);
        let mut by_simple: BTreeMap<&str, Vec<&BinaryName>> = BTreeMap::new();
        for class in &self.seen {
            by_simple.entry(class.simple_name()).or_default().push(class);
        }
        self.short = by_simple
            .into_iter()
            .filter(|(simple, _)| !self.reserved.contains(*simple))
            .filter_map(|(_, classes)| classes.into_iter().min_by_key(|class| self.rank(class, &cut_top)))
            .cloned()
            .collect();
    }

    /// The order in which classes compete for a simple name.
    fn rank<'c>(&self, class: &'c BinaryName, cut_top: &BinaryName) -> (u8, &'c BinaryName) {
        let rank = if class == cut_top {
            0
        } else if class.package() == self.package {
            1
        } else if class.package() == "java.lang" {
            2
        } else {
            3
        };
        (rank, class)
    }

    /// The classes to import, sorted: those spelled by their simple name
    /// that are neither in `java.lang` nor in the test's own package.
    pub(crate) fn imports(&self) -> Vec<String> {
        let mut imports: Vec<String> = self
            .short
            .iter()
            .filter(|class| !matches!(class.package(), "" | "java.lang") && class.package() != self.package)
            .map(BinaryName::java_name)
            .collect();
        imports.sort();
        imports
    }

    /// Whether a class seen so far has the simple name `simple`.
    pub(crate) fn has_simple_name(&self, simple: &str) -> bool {
        self.seen.iter().any(|class| class.simple_name() == simple)
    }
}

/// The top-level class that `class` is nested in, or `class` itself.
pub(crate) fn top_level(class: &BinaryName) -> BinaryName {
    let mut top = class.clone();
    while let Some(outer) = top.outer_class() {
        top = outer;
    }
    top
}

/// How deeply `class` is nested: 0 for a top-level class, 2 for `a.B$C$D`.
pub(crate) fn nesting_depth(class: &BinaryName) -> usize {
    std::iter::successors(class.outer_class(), BinaryName::outer_class).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spells `classes` in both passes for a test class `Foo_FerroTest` in
    /// package `a` testing `a.Foo`: the second-pass spellings, then the imports.
    fn check(classes: &[&str], expected: &str) {
        let mut names = ClassNames::new("a", "Foo_FerroTest");
        let classes: Vec<BinaryName> = classes.iter().map(|c| BinaryName::new(*c)).collect();
        for class in &classes {
            names.class(class);
        }
        names.decide(&BinaryName::new("a.Foo"));
        let spelled: Vec<String> = classes.iter().map(|c| names.class(c)).collect();
        let actual = format!("{} | {}", spelled.join(" "), names.imports().join(" "));
        assert_eq!(actual, expected);
    }

    #[test]
    fn classes_of_java_lang_and_the_own_package_are_not_imported() {
        check(&["java.lang.String", "a.Foo", "a.Bar", "java.util.List"], "String Foo Bar List | java.util.List");
    }

    #[test]
    fn nested_classes_import_their_top_level_class() {
        check(
            &["java.util.Map$Entry", "a.Foo$Inner$Deep", "java.lang.Thread$State"],
            "Map.Entry Foo.Inner.Deep Thread.State | java.util.Map",
        );
    }

    #[test]
    fn a_simple_name_goes_to_one_class_and_the_others_are_qualified() {
        check(
            &["java.util.List", "java.awt.List", "a.String", "java.lang.String", "b.Foo", "a.Foo"],
            "java.util.List List String java.lang.String b.Foo Foo | java.awt.List",
        );
    }

    #[test]
    fn the_test_class_name_is_never_given_to_another_class() {
        check(&["b.Foo_FerroTest"], "b.Foo_FerroTest | ");
    }
}
