//! Name resolution: source type names to JVM internal names, erased
//! signatures to JVM descriptors (JLS 6.5 order, simplified: type
//! variables, enclosing classes' members, single-type imports, the same
//! package, `java.lang`, on-demand imports, fully qualified names).

use std::collections::HashMap;

use model::names::{InternalName, internal_package};

use crate::declare::{ClassKind, Declarations, RawClass, RawMethod, TypeSyntax};

/// The dotted canonical name of each declared class → its index.
pub struct Resolver<'d> {
    decls: &'d Declarations,
    by_dotted: HashMap<String, usize>,
}

/// A resolved type: the JVM descriptor and the erased Java name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// Field descriptor, e.g. `I`, `[Ljava/lang/String;`.
    pub descriptor: String,
    /// Java name, e.g. `int`, `java.lang.String[]`.
    pub java: String,
    /// Whether the type as written was a type variable (erased to its
    /// bound).
    pub type_var: bool,
}

impl<'d> Resolver<'d> {
    /// Indexes every class of `decls`.
    pub fn new(decls: &'d Declarations) -> Resolver<'d> {
        let by_dotted = decls.classes.iter().enumerate().map(|(i, c)| (dotted_name(decls, c), i)).collect();
        Resolver { decls, by_dotted }
    }

    /// The JVM internal name of class `i` (`java/util/Map$Entry`).
    pub fn internal_name(&self, i: usize) -> InternalName {
        let c = &self.decls.classes[i];
        let pkg = &self.decls.files[c.file].package;
        let nested = c.chain.join("$");
        InternalName::new(if pkg.is_empty() { nested } else { format!("{}/{nested}", internal_package(pkg)) })
    }

    /// Direct supertypes of class `i` as internal names (superclass first,
    /// `java/lang/Object` left out; enums and records get their implicit
    /// superclass). Unresolvable names are skipped.
    pub fn supertypes(&self, i: usize) -> Vec<InternalName> {
        let c = &self.decls.classes[i];
        let mut out = Vec::new();
        match (&c.superclass, c.kind) {
            (Some(s), _) => out.extend(self.class_type(s, i, &[])),
            (None, ClassKind::Enum) => out.push(InternalName::new("java/lang/Enum")),
            (None, ClassKind::Record) => out.push(InternalName::new("java/lang/Record")),
            _ => {}
        }
        out.extend(c.interfaces.iter().filter_map(|t| self.class_type(t, i, &[])));
        out.retain(|s| *s != InternalName::object());
        out
    }

    /// The JVM descriptor of method `m` of class `i`, with each parameter
    /// resolved. Constructors of inner (non-static) classes get the
    /// enclosing instance as first descriptor parameter.
    pub fn method(&self, i: usize, m: &RawMethod) -> (String, Vec<Resolved>) {
        let params: Vec<Resolved> = m.params.iter().map(|(t, _)| self.resolve(t, i, &m.type_params)).collect();
        let mut desc = String::from("(");
        let c = &self.decls.classes[i];
        if m.name == "<init>"
            && !c.is_static
            && let Some(o) = c.outer
        {
            desc.push_str(&format!("L{};", self.internal_name(o)));
        }
        params.iter().for_each(|p| desc.push_str(&p.descriptor));
        desc.push(')');
        match &m.returns {
            None => desc.push('V'),
            Some(r) => desc.push_str(&self.resolve(r, i, &m.type_params).descriptor),
        }
        (desc, params)
    }

    /// Resolves a type used inside class `i` (with the method's own type
    /// parameters `tparams`). Unknown names resolve to `java/lang/Object`
    /// marked as a type variable, so that override matching stays lenient.
    pub fn resolve(&self, t: &TypeSyntax, i: usize, tparams: &[(String, Option<TypeSyntax>)]) -> Resolved {
        let arrays = "[".repeat(t.dims);
        let brackets = "[]".repeat(t.dims);
        if let Some(p) = primitive(&t.name) {
            return Resolved {
                descriptor: format!("{arrays}{p}"),
                java: format!("{}{brackets}", t.name),
                type_var: false,
            };
        }
        let (internal, type_var) = match self.type_variable_bound(&t.name, i, tparams) {
            Some(bound) => (bound, true),
            None => match self.class_type(t, i, tparams) {
                Some(n) => (n, false),
                None => (InternalName::object(), true),
            },
        };
        Resolved {
            descriptor: format!("{arrays}L{internal};"),
            java: format!("{}{brackets}", internal.as_str().replace(['/', '$'], ".")),
            type_var,
        }
    }

    /// The erasure of a type variable in scope (method's, then enclosing
    /// classes'), as an internal name.
    fn type_variable_bound(
        &self,
        name: &str,
        i: usize,
        tparams: &[(String, Option<TypeSyntax>)],
    ) -> Option<InternalName> {
        let own = tparams.iter().find(|(n, _)| n == name).map(|(_, b)| b.clone());
        let found = own.or_else(|| {
            let mut at = Some(i);
            while let Some(c) = at {
                let class = &self.decls.classes[c];
                if let Some((_, b)) = class.type_params.iter().find(|(n, _)| n == name) {
                    return Some(b.clone());
                }
                at = class.outer;
            }
            None
        })?;
        Some(match found {
            None => InternalName::object(),
            Some(b) if b.name == name => InternalName::object(),
            Some(b) => {
                let rest: Vec<_> = tparams.iter().filter(|(n, _)| n != name).cloned().collect();
                let descriptor = self.resolve(&b, i, &rest).descriptor;
                InternalName::new(descriptor.trim_start_matches('L').trim_end_matches(';'))
            }
        })
    }

    /// Resolves a class name written in class `i` (an exception in a
    /// `@throws` tag, say) to an internal name.
    pub fn class_name(&self, name: &str, i: usize) -> Option<InternalName> {
        self.class_type(&TypeSyntax { name: name.to_string(), dims: 0 }, i, &[])
    }

    /// Resolves a class type name used in class `i` to an internal name.
    fn class_type(&self, t: &TypeSyntax, i: usize, tparams: &[(String, Option<TypeSyntax>)]) -> Option<InternalName> {
        if let Some(bound) = self.type_variable_bound(&t.name, i, tparams) {
            return Some(bound);
        }
        let (first, rest) = match t.name.split_once('.') {
            Some((f, r)) => (f, Some(r)),
            None => (t.name.as_str(), None),
        };
        let base = self.simple_name(first, i).map(|b| match rest {
            Some(r) => format!("{b}.{r}"),
            None => b,
        });
        let dotted = base.filter(|b| self.by_dotted.contains_key(b)).or_else(|| {
            // A fully qualified name, or a class outside the source set.
            self.by_dotted.contains_key(&t.name).then(|| t.name.clone())
        });
        match dotted {
            Some(d) => Some(self.internal_name(self.by_dotted[&d])),
            None if t.name.contains('.') && t.name.starts_with(char::is_lowercase) => Some(guess_internal(&t.name)),
            None => None,
        }
    }

    /// The dotted canonical name a simple name denotes inside class `i`.
    fn simple_name(&self, name: &str, i: usize) -> Option<String> {
        let c = &self.decls.classes[i];
        let file = &self.decls.files[c.file];
        let mut at = Some(i);
        while let Some(k) = at {
            let outer = dotted_name(self.decls, &self.decls.classes[k]);
            if outer.rsplit('.').next() == Some(name) {
                return Some(outer);
            }
            let nested = format!("{outer}.{name}");
            if self.by_dotted.contains_key(&nested) {
                return Some(nested);
            }
            if let Some(inherited) = self.inherited_member_type(k, name) {
                return Some(inherited);
            }
            at = self.decls.classes[k].outer;
        }
        let candidates = file
            .single
            .iter()
            .filter(|s| s.rsplit('.').next() == Some(name))
            .cloned()
            .chain(std::iter::once(if file.package.is_empty() {
                name.to_string()
            } else {
                format!("{}.{name}", file.package)
            }))
            .chain(std::iter::once(format!("java.lang.{name}")))
            .chain(file.on_demand.iter().map(|p| format!("{p}.{name}")));
        for cand in candidates {
            if self.by_dotted.contains_key(&cand) {
                return Some(cand);
            }
        }
        // A single-type import of a class outside the source set.
        file.single.iter().find(|s| s.rsplit('.').next() == Some(name)).cloned()
    }

    /// A member type named `name` declared in a direct supertype of class
    /// `k` (e.g. `Entry` inside `HashMap` is `Map.Entry`).
    fn inherited_member_type(&self, k: usize, name: &str) -> Option<String> {
        let c = &self.decls.classes[k];
        let supers = c.superclass.iter().chain(c.interfaces.iter());
        for s in supers {
            if s.name == name {
                continue;
            }
            let Some(dotted) = self.simple_name_no_inherit(&s.name, k) else { continue };
            let nested = format!("{dotted}.{name}");
            if self.by_dotted.contains_key(&nested) {
                return Some(nested);
            }
        }
        None
    }

    fn simple_name_no_inherit(&self, name: &str, k: usize) -> Option<String> {
        let c = &self.decls.classes[k];
        let file = &self.decls.files[c.file];
        let first = name.split('.').next().unwrap_or(name);
        let base = file
            .single
            .iter()
            .find(|s| s.rsplit('.').next() == Some(first))
            .cloned()
            .or_else(|| Some(format!("{}.{first}", file.package)).filter(|d| self.by_dotted.contains_key(d)))
            .or_else(|| Some(format!("java.lang.{first}")).filter(|d| self.by_dotted.contains_key(d)))?;
        Some(match name.split_once('.') {
            Some((_, rest)) => format!("{base}.{rest}"),
            None => base,
        })
    }
}

/// `package.Outer.Inner` of a class.
fn dotted_name(decls: &Declarations, c: &RawClass) -> String {
    let pkg = &decls.files[c.file].package;
    let chain = c.chain.join(".");
    if pkg.is_empty() { chain } else { format!("{pkg}.{chain}") }
}

/// A dotted name outside the source set: lower-case parts are the package.
fn guess_internal(dotted: &str) -> InternalName {
    let parts: Vec<&str> = dotted.split('.').collect();
    let pkg_len = parts.iter().take_while(|p| p.starts_with(char::is_lowercase)).count();
    let pkg = parts[..pkg_len].join("/");
    let cls = parts[pkg_len..].join("$");
    InternalName::new(if pkg.is_empty() { cls } else { format!("{pkg}/{cls}") })
}

fn primitive(name: &str) -> Option<char> {
    Some(match name {
        "int" => 'I',
        "long" => 'J',
        "short" => 'S',
        "byte" => 'B',
        "char" => 'C',
        "boolean" => 'Z',
        "float" => 'F',
        "double" => 'D',
        "void" => 'V',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decls(files: &[(&str, &str)]) -> Declarations {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&tree_sitter_java::LANGUAGE.into()).unwrap();
        let mut d = Declarations::default();
        for (_, src) in files {
            d.add_file(&mut parser, "java.base", src).unwrap();
        }
        d
    }

    #[test]
    fn descriptors_use_erasure_imports_and_nested_names() {
        let d = decls(&[
            ("Object", "package java.lang; public class Object {}"),
            ("String", "package java.lang; public final class String {}"),
            ("Comparable", "package java.lang; public interface Comparable<T> { int compareTo(T o); }"),
            ("Collection", "package java.util; public interface Collection<E> {}"),
            ("Map", "package java.util; public interface Map<K,V> { interface Entry<K,V> {} }"),
            (
                "Collections",
                "package java.util; public class Collections {\n\
                 public static <T extends Object & Comparable<? super T>> T max(Collection<? extends T> coll) {}\n\
                 public static <K,V> Map.Entry<K,V>[] e(String[] s, int... x) {} }",
            ),
            (
                "HashMap",
                "package java.util; public class HashMap<K,V> implements Map<K,V> {\n\
                 public HashMap(int initialCapacity) {} public Entry<K,V> first(K key) {} class Node {}\n\
                 public class Inner { public Inner(int a) {} } }",
            ),
        ]);
        let r = Resolver::new(&d);
        let find = |n: &str| d.classes.iter().position(|c| c.chain.join(".") == n).unwrap();
        let col = find("Collections");
        assert_eq!(r.internal_name(col).as_str(), "java/util/Collections");
        let m = |c: usize, k: usize| r.method(c, &d.classes[c].methods[k]).0;
        assert_eq!(m(col, 0), "(Ljava/util/Collection;)Ljava/lang/Object;");
        assert_eq!(m(col, 1), "([Ljava/lang/String;[I)[Ljava/util/Map$Entry;");
        let hm = find("HashMap");
        assert_eq!(m(hm, 0), "(I)V");
        assert_eq!(m(hm, 1), "(Ljava/lang/Object;)Ljava/util/Map$Entry;");
        assert_eq!(r.supertypes(hm), vec![InternalName::new("java/util/Map")]);
        assert_eq!(m(find("HashMap.Inner"), 0), "(Ljava/util/HashMap;I)V");
        let cmp = find("Comparable");
        assert!(r.method(cmp, &d.classes[cmp].methods[0]).1[0].type_var);
    }
}
