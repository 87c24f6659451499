//! Building the knowledge graph from JDK sources: declarations, name
//! resolution, documentation inheritance, then trigger extraction per
//! method.

use std::collections::HashMap;
use std::path::Path;

use model::names::InternalName;

use crate::declare::Declarations;
use crate::error::KatError;
use crate::extract::entity::{MethodContext, StateMethod};
use crate::graph::{ClassDecl, KnowledgeGraph, MethodDecl};
use crate::inherit::Inheritance;
use crate::javadoc::normalise;
use crate::resolve::Resolver;
use crate::source::{DEFAULT_MODULES, Unit, read_units};

/// Builds the graph of the exported packages of [`DEFAULT_MODULES`] in a
/// JDK `src.zip`.
///
/// # Errors
/// [`KatError::Source`] when the archive cannot be read, and the errors of
/// [`build_from_units`].
pub fn build(src_zip: &Path) -> Result<KnowledgeGraph, KatError> {
    let units = read_units(src_zip, DEFAULT_MODULES)?;
    let label = format!(
        "JDK src.zip: {} compilation units of {}, text fingerprint {:016x}",
        units.len(),
        DEFAULT_MODULES.join(", "),
        fingerprint(&units)
    );
    build_from_units(&units, label)
}

/// FNV-1a (64 bit) over the paths and texts of the units: equal for the
/// same sources, so a graph can tell whether it was built from them.
pub fn fingerprint(units: &[Unit]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for u in units {
        for b in u.path.bytes().chain([0]).chain(u.text.bytes()) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Builds the graph of the given compilation units.
///
/// # Errors
/// [`KatError::Language`] when tree-sitter cannot be set up,
/// [`KatError::NoTree`] when it gives no syntax tree for a unit.
pub fn build_from_units(units: &[Unit], source: String) -> Result<KnowledgeGraph, KatError> {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&tree_sitter_java::LANGUAGE.into())?;
    let mut decls = Declarations::default();
    for u in units {
        decls.add_file(&mut parser, &u.module, &u.text)?;
    }
    let resolver = Resolver::new(&decls);
    let mut inheritance = Inheritance::new(&decls, &resolver);
    let states = StateTable::new(&decls, &resolver);
    let mut classes = Vec::with_capacity(decls.classes.len());
    for (i, c) in decls.classes.iter().enumerate() {
        let internal = resolver.internal_name(i);
        let mut methods = Vec::with_capacity(c.methods.len());
        for (k, m) in c.methods.iter().enumerate() {
            let (descriptor, params) = resolver.method(i, m);
            let doc = inheritance.doc(i, k);
            let param_types: Vec<String> = params.iter().map(|p| p.java.clone()).collect();
            let param_names: Vec<String> = m.params.iter().map(|(_, n)| n.clone()).collect();
            let param_methods = params.iter().map(|p| states.of_descriptor(&p.descriptor)).collect();
            let returns = m.returns.as_ref().map(|r| resolver.resolve(r, i, &m.type_params).java).unwrap_or_default();
            let mut ctx = MethodContext {
                class_simple: c.chain.last().map(String::as_str).unwrap_or(""),
                method: &m.name,
                returns: &returns,
                is_static: m.is_static || m.name == "<init>",
                params: &param_names,
                param_types: &param_types,
                receiver_methods: states.of(internal.as_str()),
                static_methods: states.statics_of(internal.as_str()),
                param_methods,
                link_members: Vec::new(),
                types: Some(&states),
                param_docs: param_docs(&doc, &param_names),
            };
            let clauses = crate::extract::clauses(&doc, &mut ctx);
            // Methods without clauses keep only what queries need (name,
            // descriptor): that halves the stored graph and its load time.
            let (param_names, param_types, main) = if clauses.is_empty() {
                (Vec::new(), Vec::new(), String::new())
            } else {
                (param_names, param_types, doc.main)
            };
            let declared_exceptions = m
                .throws
                .iter()
                .map(|t| resolver.class_name(&t.name, i).unwrap_or_else(|| InternalName::new(t.name.clone())))
                .collect();
            methods.push(MethodDecl {
                name: m.name.clone(),
                descriptor,
                is_static: m.is_static,
                visibility: m.visibility,
                params: param_names,
                param_types,
                declared_exceptions,
                summary: summary(&main),
                clauses,
            });
        }
        classes.push(ClassDecl {
            module: decls.files[c.file].module.clone(),
            name: internal,
            kind: c.kind,
            exported: c.exported,
            supertypes: resolver.supertypes(i),
            methods,
        });
    }
    Ok(KnowledgeGraph::new(source, classes))
}

/// The normalised `@param` text of each parameter (empty when it has none).
fn param_docs(doc: &crate::inherit::EffectiveDoc, names: &[String]) -> Vec<String> {
    let text = |n: &String| doc.params.iter().find(|(p, _)| p == n).map(|(_, t)| normalise(t).text);
    names.iter().map(|n| text(n).unwrap_or_default()).collect()
}

/// The first sentence of a main description, normalised.
fn summary(main: &str) -> String {
    let toks = crate::extract::sentence::tokens(&normalise(main).text);
    crate::extract::sentence::join(crate::extract::sentence::first_sentence(&toks))
}

impl crate::extract::entity::TypeMethods for StateTable {
    fn methods_of_type(&self, java: &str) -> &[StateMethod] {
        self.of_java(java)
    }

    fn statics_named(&self, noun: &str) -> Option<(&str, &[StateMethod])> {
        let internal = self.by_simple.get(&noun.to_ascii_lowercase())?.as_ref()?;
        let simple = internal.as_str().rsplit(['/', '$']).next().unwrap_or_default();
        Some((simple, self.statics_of(internal.as_str())))
    }
}

/// Per class (internal name): its public instance methods with at most
/// one parameter, inherited ones included (overloads kept apart by their
/// parameter types: `isSupported(TemporalField)` and
/// `isSupported(TemporalUnit)`), and its own static one-parameter methods
/// (`Files.isDirectory(Path)`), for linking states and sizes.
#[derive(Debug)]
struct StateTable {
    table: HashMap<InternalName, Vec<StateMethod>>,
    statics: HashMap<InternalName, Vec<StateMethod>>,
    /// Exported top-level classes of `java.*` packages by their simple
    /// name in lower case (`None` when two share it).
    by_simple: HashMap<String, Option<InternalName>>,
}

impl StateTable {
    fn new(decls: &Declarations, resolver: &Resolver) -> StateTable {
        let n = decls.classes.len();
        let names: Vec<InternalName> = (0..n).map(|i| resolver.internal_name(i)).collect();
        let index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, s)| (s.as_str(), i)).collect();
        let methods = |i: usize, statics: bool| -> Vec<StateMethod> {
            let c = &decls.classes[i];
            // A static query takes the value first, and may take options
            // after it (`Files.exists(Path, LinkOption...)`).
            let arity = |m: &crate::declare::RawMethod| match m.params.len() {
                0 => !statics,
                1 => true,
                2 => statics && m.params[1].0.dims > 0,
                _ => false,
            };
            c.methods
                .iter()
                .filter(|m| arity(m) && m.name != "<init>" && m.is_static == statics)
                .map(|m| {
                    let (_, params) = resolver.method(i, m);
                    let returns = m.returns.as_ref().map(|r| resolver.resolve(r, i, &m.type_params).java);
                    StateMethod {
                        name: m.name.clone(),
                        params: params.into_iter().map(|p| p.java).collect(),
                        returns: returns.unwrap_or_default(),
                    }
                })
                .collect()
        };
        let own: Vec<Vec<StateMethod>> = (0..n).map(|i| methods(i, false)).collect();
        let statics = names.iter().enumerate().map(|(i, name)| (name.clone(), methods(i, true))).collect();
        let mut table = HashMap::new();
        let object = index.get("java/lang/Object").copied();
        for (i, name) in names.iter().enumerate() {
            let mut all: Vec<StateMethod> = Vec::new();
            let mut queue: std::collections::VecDeque<usize> = [i].into();
            queue.extend(object);
            let mut seen = std::collections::HashSet::new();
            while let Some(k) = queue.pop_front() {
                if !seen.insert(k) {
                    continue;
                }
                for m in &own[k] {
                    if !all.iter().any(|a| a.name == m.name && a.params == m.params) {
                        all.push(m.clone());
                    }
                }
                queue.extend(resolver.supertypes(k).iter().filter_map(|s| index.get(s.as_str()).copied()));
            }
            table.insert(name.clone(), all);
        }
        let mut by_simple: HashMap<String, Option<InternalName>> = HashMap::new();
        for (i, name) in names.iter().enumerate() {
            let c = &decls.classes[i];
            if !c.exported || c.chain.len() != 1 || !name.as_str().starts_with("java/") {
                continue;
            }
            let entry = by_simple.entry(c.chain[0].to_ascii_lowercase());
            entry.and_modify(|e| *e = None).or_insert_with(|| Some(name.clone()));
        }
        StateTable { table, statics, by_simple }
    }

    fn of(&self, internal: &str) -> &[StateMethod] {
        self.table.get(internal).map(Vec::as_slice).unwrap_or(&[])
    }

    fn statics_of(&self, internal: &str) -> &[StateMethod] {
        self.statics.get(internal).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The methods of a type by its erased Java name; a nested class is
    /// tried with `$` for the dots after its outer class.
    fn of_java(&self, java: &str) -> &[StateMethod] {
        let mut internal = java.replace('.', "/");
        loop {
            if let Some(m) = self.table.get(internal.as_str()) {
                return m;
            }
            match internal.rfind('/') {
                Some(k) => internal.replace_range(k..=k, "$"),
                None => return &[],
            }
        }
    }

    fn of_descriptor(&self, descriptor: &str) -> &[StateMethod] {
        match descriptor.strip_prefix('L').and_then(|d| d.strip_suffix(';')) {
            Some(internal) => self.of(internal),
            None => &[],
        }
    }
}
