//! Class names as string seeds, for a class under test that loads classes
//! by name (`Class.forName(String)`, `ClassLoader.loadClass(String)`: a
//! validator configured with the class of its rule, a converter told the
//! type to make). No constant of such a class holds the names it is given
//! at run time, and a failed load tells the search nothing (unlike a
//! failed `getMethod`, whose class is known, `Tracer.classGetMethod`), so
//! the static pool gets the names of the classes the CUT itself refers to,
//! its own first: the classes it works with are the likeliest it loads.

use model::classfile::ClassFile;
use model::constant_pool::Constant;

/// The methods that load a class by its binary name: (owner, name).
const LOADERS: [(&str, &str); 2] = [("java/lang/Class", "forName"), ("java/lang/ClassLoader", "loadClass")];
/// The most class names added.
const MAX_CLASS_NAMES: usize = 16;

/// The binary names (`java.util.ArrayList`, `a.B$C`) of `class` and of the
/// classes its constant pool names, `class` first, then in name order, at
/// most [`MAX_CLASS_NAMES`], array types left out; empty when `class` calls
/// none of [`LOADERS`].
pub(crate) fn class_name_seeds(class: &ClassFile) -> Vec<String> {
    let pool = &class.constant_pool;
    let loads_by_name = pool
        .iter()
        .filter(|(_, c)| matches!(c, Constant::MethodRef { .. } | Constant::InterfaceMethodRef { .. }))
        .filter_map(|(i, _)| pool.member_ref(i).ok())
        .any(|m| LOADERS.contains(&(m.owner, m.name)) && m.descriptor.starts_with("(Ljava/lang/String;"));
    if !loads_by_name {
        return Vec::new();
    }
    let own = class.name().to_string();
    let mut named: Vec<String> = pool
        .iter()
        .filter_map(|(i, c)| matches!(c, Constant::Class(_)).then(|| pool.class_name(i).ok()).flatten())
        .filter(|n| !n.starts_with('[') && **n != own)
        .map(str::to_string)
        .collect();
    named.sort();
    named.dedup();
    std::iter::once(own).chain(named).take(MAX_CLASS_NAMES).map(|n| n.replace('/', ".")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `fix.Plugins` loads classes by name: its own name and those it refers
    /// to become seeds; `fix.Counter` loads none and gets none.
    #[test]
    fn a_class_that_loads_classes_by_name_gets_the_names_of_the_classes_it_refers_to() {
        let Some(cp) = crate::testutil::class_path() else { return };
        let names = class_name_seeds(&cp.load("fix.Plugins").unwrap());
        assert_eq!(names.first().map(String::as_str), Some("fix.Plugins"), "{names:?}");
        assert!(names.iter().any(|n| n == "java.lang.Runnable"), "{names:?}");
        assert!(names.iter().all(|n| !n.contains('/')), "{names:?}");
        assert!(class_name_seeds(&cp.load("fix.Counter").unwrap()).is_empty());
    }
}
