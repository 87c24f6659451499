//! Documentation inheritance (the Javadoc tool's rules, simplified): a
//! method without a comment, a missing main description or `@return`, a
//! missing `@throws` for an exception of its `throws` clause, and any
//! `{@inheritDoc}` take the text of the method it overrides, searched in
//! the direct superinterfaces in declaration order, then the superclass,
//! recursively.

use std::collections::HashMap;

use model::names::InternalName;

use crate::declare::Declarations;
use crate::javadoc::DocComment;
use crate::resolve::Resolver;

/// A method's documentation after inheritance.
#[derive(Clone, Debug, Default)]
pub struct EffectiveDoc {
    /// The main description (raw Javadoc).
    pub main: String,
    /// `@return` text and the internal name of the class it came from when
    /// inherited.
    pub returns: Option<(String, Option<InternalName>)>,
    /// `@throws`: exception internal name (the name as written when it
    /// cannot be resolved), text, and where it was inherited from.
    pub throws: Vec<(InternalName, String, Option<InternalName>)>,
    /// `@param name text`, own ones first, then the overridden method's
    /// for parameters the method does not document itself.
    pub params: Vec<(String, String)>,
}

/// Computes [`EffectiveDoc`]s with memoisation.
pub struct Inheritance<'d> {
    decls: &'d Declarations,
    resolver: &'d Resolver<'d>,
    /// Internal name → class index.
    by_internal: HashMap<InternalName, usize>,
    /// Per class: direct supertypes as class indices, interfaces first.
    supers: Vec<Vec<usize>>,
    /// Per class and method: erased parameter descriptors and whether
    /// each was written as a type variable.
    signatures: Vec<Vec<Vec<(String, bool)>>>,
    memo: HashMap<(usize, usize), EffectiveDoc>,
}

const INHERIT: &str = "{@inheritDoc}";

impl<'d> Inheritance<'d> {
    /// Prepares the supertype and signature tables.
    pub fn new(decls: &'d Declarations, resolver: &'d Resolver<'d>) -> Inheritance<'d> {
        let n = decls.classes.len();
        let by_internal: HashMap<InternalName, usize> = (0..n).map(|i| (resolver.internal_name(i), i)).collect();
        // Interfaces first: Javadoc searches them before the superclass.
        let supers = (0..n)
            .map(|i| {
                let c = &decls.classes[i];
                let resolve = |t: &crate::declare::TypeSyntax| {
                    resolver.class_name(&t.name, i).and_then(|name| by_internal.get(&name).copied())
                };
                let mut s: Vec<usize> = c.interfaces.iter().filter_map(resolve).collect();
                s.extend(c.superclass.iter().filter_map(resolve));
                s
            })
            .collect();
        let signatures = (0..n)
            .map(|i| {
                let c = &decls.classes[i];
                c.methods
                    .iter()
                    .map(|m| resolver.method(i, m).1.into_iter().map(|p| (p.descriptor, p.type_var)).collect())
                    .collect()
            })
            .collect();
        Inheritance { decls, resolver, by_internal, supers, signatures, memo: HashMap::new() }
    }

    /// The class index of an internal name.
    pub fn class_index(&self, internal: &str) -> Option<usize> {
        self.by_internal.get(internal).copied()
    }

    /// The effective documentation of method `m` of class `c`.
    pub fn doc(&mut self, c: usize, m: usize) -> EffectiveDoc {
        if let Some(d) = self.memo.get(&(c, m)) {
            return d.clone();
        }
        let method = &self.decls.classes[c].methods[m];
        let own = method.doc.as_deref().map(DocComment::parse);
        let needs_parent = own.as_ref().is_none_or(|d| {
            d.main.is_empty()
                || d.main.contains(INHERIT)
                || d.returns.as_deref().is_none_or(|r| r.contains(INHERIT))
                || d.throws.iter().any(|(_, t)| t.contains(INHERIT))
                || !method.throws.is_empty()
        });
        let parent = if needs_parent && method.name != "<init>" && !method.is_static {
            self.overridden(c, m).map(|(pc, pm)| (self.resolver.internal_name(pc), self.doc(pc, pm)))
        } else {
            None
        };
        let doc = merge(
            own,
            parent,
            |name| self.resolver.class_name(name, c),
            |i| {
                method
                    .throws
                    .get(i)
                    .map(|t| self.resolver.class_name(&t.name, c).unwrap_or_else(|| InternalName::new(t.name.clone())))
            },
        );
        self.memo.insert((c, m), doc.clone());
        doc
    }

    /// The method that method `m` of class `c` overrides: same name and
    /// parameter count, each parameter equal or a type variable in the
    /// overridden method; an exact match anywhere in the supertypes wins
    /// over one through type variables.
    fn overridden(&self, c: usize, m: usize) -> Option<(usize, usize)> {
        let name = &self.decls.classes[c].methods[m].name;
        let sig = &self.signatures[c][m];
        let mut loose = None;
        let mut stack: Vec<usize> = self.supers[c].iter().rev().copied().collect();
        let mut seen = std::collections::HashSet::new();
        while let Some(s) = stack.pop() {
            if !seen.insert(s) {
                continue;
            }
            for (k, cand) in self.decls.classes[s].methods.iter().enumerate() {
                let other = &self.signatures[s][k];
                if cand.name != *name || cand.is_static || other.len() != sig.len() {
                    continue;
                }
                if other.iter().zip(sig).all(|((d, _), (mine, _))| d == mine) {
                    return Some((s, k));
                }
                if loose.is_none() && other.iter().zip(sig).all(|((d, tv), (mine, _))| *tv || d == mine) {
                    loose = Some((s, k));
                }
            }
            stack.extend(self.supers[s].iter().rev().copied());
        }
        loose
    }
}

/// Combines a method's own comment with its parent's effective doc.
/// `resolve` turns a `@throws` name into an internal name; `declared(i)`
/// gives the i-th exception of the method's `throws` clause.
fn merge(
    own: Option<DocComment>,
    parent: Option<(InternalName, EffectiveDoc)>,
    resolve: impl Fn(&str) -> Option<InternalName>,
    declared: impl Fn(usize) -> Option<InternalName>,
) -> EffectiveDoc {
    let from_parent = |p: &(InternalName, EffectiveDoc)| {
        let (class, doc) = p;
        let mut d = doc.clone();
        let mark = |from: &mut Option<InternalName>| {
            from.get_or_insert_with(|| class.clone());
        };
        if let Some((_, f)) = d.returns.as_mut() {
            mark(f);
        }
        d.throws.iter_mut().for_each(|(_, _, f)| mark(f));
        d
    };
    let Some(own) = own else { return parent.as_ref().map(from_parent).unwrap_or_default() };
    let inherited = parent.as_ref().map(from_parent).unwrap_or_default();
    let main = if own.main.is_empty() { inherited.main.clone() } else { own.main.replace(INHERIT, &inherited.main) };
    let returns = match own.returns {
        Some(r) if r.contains(INHERIT) => inherited.returns.clone().map(|(t, f)| (r.replace(INHERIT, &t), f)),
        Some(r) => Some((r, None)),
        None => inherited.returns.clone(),
    };
    let mut throws = Vec::new();
    for (name, text) in &own.throws {
        let exc = resolve(name).unwrap_or_else(|| InternalName::new(name.clone()));
        if text.contains(INHERIT) {
            throws.extend(inherited.throws.iter().filter(|(e, _, _)| *e == exc).cloned());
        } else {
            throws.push((exc, text.clone(), None));
        }
    }
    let mut i = 0;
    while let Some(decl) = declared(i) {
        if !throws.iter().any(|(e, _, _)| *e == decl) {
            throws.extend(inherited.throws.iter().filter(|(e, _, _)| *e == decl).cloned());
        }
        i += 1;
    }
    let mut params = own.params;
    let own_names: Vec<String> = params.iter().map(|(n, _)| n.clone()).collect();
    params.extend(inherited.params.iter().filter(|(n, _)| !own_names.contains(n)).cloned());
    EffectiveDoc { main, returns, throws, params }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inherit_doc_copies_the_overridden_throws_clause() {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&tree_sitter_java::LANGUAGE.into()).unwrap();
        let mut d = Declarations::default();
        for src in [
            "package java.lang; public class IndexOutOfBoundsException {}",
            "package java.util; public interface List<E> { /** Returns it.\n * @param index the index\n \
             * @return the element\n * @throws IndexOutOfBoundsException if the index is out of range */\n \
             E get(int index); /** Size. @return the size */ int size(); }",
            "package java.util; public class ArrayList<E> implements List<E> {\n\
             /** Returns the element.\n * @throws IndexOutOfBoundsException {@inheritDoc} */\n\
             public E get(int index) {}\n public int size() {} }",
        ] {
            d.add_file(&mut parser, "java.base", src).unwrap();
        }
        let r = Resolver::new(&d);
        let mut inh = Inheritance::new(&d, &r);
        let al = inh.class_index("java/util/ArrayList").unwrap();
        let get = inh.doc(al, 0);
        assert_eq!(get.main, "Returns the element.");
        let list = InternalName::new("java/util/List");
        assert_eq!(get.returns, Some(("the element".into(), Some(list.clone()))));
        assert_eq!(
            get.throws,
            vec![(
                InternalName::new("java/lang/IndexOutOfBoundsException"),
                "if the index is out of range".into(),
                Some(list)
            )]
        );
        let size = inh.doc(al, 1);
        assert_eq!(size.main, "Size. @return the size");
    }
}
