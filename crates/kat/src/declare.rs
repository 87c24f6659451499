//! Declarations read from Java sources with `tree-sitter-java`: classes
//! (with type parameters and supertypes), methods and constructors (with
//! parameter types as written, modifiers and the preceding Javadoc).
//!
//! Types stay as written here; [`crate::resolve`] turns them into JVM
//! names and descriptors once every class of the source set is known.

use tree_sitter::Node;

use crate::error::KatError;

/// A type as written, without type arguments: `Map.Entry`, `int`, `T`,
/// with the number of array dimensions (varargs count as one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeSyntax {
    /// Dotted name as written (`java.util.List`, `Map.Entry`, `int`).
    pub name: String,
    /// Array dimensions.
    pub dims: usize,
}

/// What kind of type a class declaration declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ClassKind {
    /// `class` (abstract or not).
    Class,
    /// `interface`.
    Interface,
    /// `enum`.
    Enum,
    /// `record`.
    Record,
    /// `@interface`.
    Annotation,
}

/// The import context of one compilation unit.
#[derive(Clone, Debug, Default)]
pub struct FileScope {
    /// The module, from the first path element of `src.zip` (`java.base`).
    pub module: String,
    /// Dotted package name.
    pub package: String,
    /// Single-type imports, dotted names (`java.util.function.Function`).
    pub single: Vec<String>,
    /// On-demand imports, dotted package or class names (`java.util`).
    pub on_demand: Vec<String>,
}

/// A class, interface, enum or record declaration.
#[derive(Clone, Debug)]
pub struct RawClass {
    /// Index of its file in the list of [`FileScope`]s.
    pub file: usize,
    /// Simple names from the outermost class down (`["Map", "Entry"]`).
    pub chain: Vec<String>,
    /// Index of the enclosing class in the same list, if nested.
    pub outer: Option<usize>,
    /// What it declares.
    pub kind: ClassKind,
    /// Public (or a member of an interface) and every enclosing class too.
    pub exported: bool,
    /// Nested with `static`, or implicitly static (interface, enum, record,
    /// member of an interface), or top level.
    pub is_static: bool,
    /// Type parameters with their first bound.
    pub type_params: Vec<(String, Option<TypeSyntax>)>,
    /// The `extends` type of a class.
    pub superclass: Option<TypeSyntax>,
    /// The `implements` (or, for interfaces, `extends`) types.
    pub interfaces: Vec<TypeSyntax>,
    /// Public and protected methods and constructors.
    pub methods: Vec<RawMethod>,
    /// The raw `/** */` comment of the class.
    pub doc: Option<String>,
}

/// Whether a member is public or protected (others are not kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Visibility {
    /// `public`, or a member of an interface.
    Public,
    /// `protected`.
    Protected,
}

/// A method or constructor declaration.
#[derive(Clone, Debug)]
pub struct RawMethod {
    /// Method name, `<init>` for constructors.
    pub name: String,
    /// Declared `static`.
    pub is_static: bool,
    /// Public or protected.
    pub visibility: Visibility,
    /// The method's own type parameters with their first bound.
    pub type_params: Vec<(String, Option<TypeSyntax>)>,
    /// Parameter types and names in order.
    pub params: Vec<(TypeSyntax, String)>,
    /// Return type; `None` for constructors.
    pub returns: Option<TypeSyntax>,
    /// Types in the `throws` clause.
    pub throws: Vec<TypeSyntax>,
    /// The raw `/** */` comment.
    pub doc: Option<String>,
}

/// Everything read from a set of sources.
#[derive(Debug, Default)]
pub struct Declarations {
    /// One entry per compilation unit, in the order added.
    pub files: Vec<FileScope>,
    /// Every class declaration, nested ones after their enclosing class.
    pub classes: Vec<RawClass>,
}

impl Declarations {
    /// Parses one compilation unit and adds its declarations.
    ///
    /// # Errors
    /// [`KatError::NoTree`] when tree-sitter gives no syntax tree (only
    /// when parsing is cancelled).
    pub fn add_file(&mut self, parser: &mut tree_sitter::Parser, module: &str, source: &str) -> Result<(), KatError> {
        let tree = parser.parse(source, None).ok_or_else(|| KatError::NoTree { module: module.to_string() })?;
        let root = tree.root_node();
        let file = self.files.len();
        let mut scope = FileScope { module: module.to_string(), ..FileScope::default() };
        let mut cursor = root.walk();
        let children: Vec<Node> = root.named_children(&mut cursor).collect();
        for (i, node) in children.iter().enumerate() {
            match node.kind() {
                "package_declaration" => scope.package = first_name(*node, source),
                "import_declaration" => add_import(&mut scope, *node, source),
                k if is_type_decl(k) => {
                    let ctx = Ctx { source, file, outer: None, in_interface: false, outer_exported: true };
                    self.add_class(ctx, *node, doc_before(&children, i, source));
                }
                _ => {}
            }
        }
        self.files.push(scope);
        Ok(())
    }

    fn add_class(&mut self, ctx: Ctx, node: Node, doc: Option<String>) {
        let src = ctx.source;
        let kind = match node.kind() {
            "interface_declaration" => ClassKind::Interface,
            "enum_declaration" => ClassKind::Enum,
            "record_declaration" => ClassKind::Record,
            "annotation_type_declaration" => ClassKind::Annotation,
            _ => ClassKind::Class,
        };
        let mods = modifiers(node, src);
        let name = node.child_by_field_name("name").map(|n| text(n, src)).unwrap_or_default();
        let mut chain = ctx.outer.map(|o| self.classes[o].chain.clone()).unwrap_or_default();
        chain.push(name);
        let public = mods.contains(&"public") || ctx.in_interface;
        let is_static = ctx.outer.is_none() || mods.contains(&"static") || ctx.in_interface || kind != ClassKind::Class;
        let (superclass, interfaces) = supertypes(node, src);
        let index = self.classes.len();
        self.classes.push(RawClass {
            file: ctx.file,
            chain,
            outer: ctx.outer,
            kind,
            exported: public && ctx.outer_exported,
            is_static,
            type_params: type_params(node, src),
            superclass,
            interfaces,
            methods: Vec::new(),
            doc,
        });
        if kind == ClassKind::Enum {
            let name = self.classes[index].chain.last().cloned().unwrap_or_default();
            self.classes[index].methods.extend(implicit_enum_methods(&name));
        }
        let Some(body) = node.child_by_field_name("body") else { return };
        let inner = Ctx {
            outer: Some(index),
            in_interface: matches!(kind, ClassKind::Interface | ClassKind::Annotation),
            outer_exported: public && ctx.outer_exported,
            ..ctx
        };
        self.add_members(inner, body);
    }

    fn add_members(&mut self, ctx: Ctx, body: Node) {
        let mut cursor = body.walk();
        let children: Vec<Node> = body.named_children(&mut cursor).collect();
        for (i, node) in children.iter().enumerate() {
            let doc = || doc_before(&children, i, ctx.source);
            match node.kind() {
                "enum_body_declarations" => self.add_members(ctx, *node),
                "method_declaration" | "constructor_declaration" => {
                    if let Some(m) = method(ctx, *node, doc()) {
                        self.classes[ctx.outer.unwrap()].methods.push(m);
                    }
                }
                k if is_type_decl(k) => self.add_class(ctx, *node, doc()),
                _ => {}
            }
        }
    }
}

/// The implicit `values()` and `valueOf(String)` of an enum (JLS 8.9.3),
/// with the documentation javadoc generates for them.
fn implicit_enum_methods(enum_name: &str) -> [RawMethod; 2] {
    let ty = |name: &str, dims| TypeSyntax { name: name.to_string(), dims };
    let method = |name: &str, params, returns, doc: &str| RawMethod {
        name: name.to_string(),
        is_static: true,
        visibility: Visibility::Public,
        type_params: Vec::new(),
        params,
        returns: Some(returns),
        throws: Vec::new(),
        doc: Some(doc.to_string()),
    };
    [
        method(
            "values",
            Vec::new(),
            ty(enum_name, 1),
            "/** Returns an array containing the constants of this enum class, in the order they are declared.\n\
             * @return an array containing the constants of this enum class, in the order they are declared */",
        ),
        method(
            "valueOf",
            vec![(ty("String", 0), "name".to_string())],
            ty(enum_name, 0),
            "/** Returns the enum constant of this class with the specified name.\n\
             * @param name the name of the enum constant to be returned.\n\
             * @return the enum constant with the specified name\n\
             * @throws IllegalArgumentException if this enum class has no constant with the specified name\n\
             * @throws NullPointerException if the argument is null */",
        ),
    ]
}

#[derive(Clone, Copy)]
struct Ctx<'s> {
    source: &'s str,
    file: usize,
    outer: Option<usize>,
    in_interface: bool,
    outer_exported: bool,
}

fn is_type_decl(kind: &str) -> bool {
    matches!(
        kind,
        "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration"
            | "annotation_type_declaration"
    )
}

fn text(node: Node, source: &str) -> String {
    source[node.byte_range()].to_string()
}

fn first_name(node: Node, source: &str) -> String {
    let mut cursor = node.walk();
    let name = node.named_children(&mut cursor).find(|c| matches!(c.kind(), "scoped_identifier" | "identifier"));
    name.map(|n| text(n, source)).unwrap_or_default()
}

fn add_import(scope: &mut FileScope, node: Node, source: &str) {
    let mut cursor = node.walk();
    let kids: Vec<Node> = node.children(&mut cursor).collect();
    // Static imports may import member types (`import static
    // java.util.concurrent.Flow.*;`); they are looked up like the others.
    let name = first_name(node, source);
    if kids.iter().any(|k| k.kind() == "asterisk") {
        scope.on_demand.push(name);
    } else {
        scope.single.push(name);
    }
}

/// The Javadoc comment right before child `i` (only comments and
/// annotations may lie between).
fn doc_before(children: &[Node], i: usize, source: &str) -> Option<String> {
    let prev = children[..i].last()?;
    let t = &source[prev.byte_range()];
    (prev.kind() == "block_comment" && t.starts_with("/**")).then(|| t.to_string())
}

fn modifiers<'s>(node: Node, source: &'s str) -> Vec<&'s str> {
    let mut cursor = node.walk();
    let Some(mods) = node.children(&mut cursor).find(|c| c.kind() == "modifiers") else { return Vec::new() };
    let mut c2 = mods.walk();
    mods.children(&mut c2).filter(|c| !c.is_named()).map(|c| &source[c.byte_range()]).collect()
}

/// A type node as [`TypeSyntax`] (type arguments and annotations dropped).
fn type_syntax(node: Node, source: &str) -> TypeSyntax {
    match node.kind() {
        "array_type" => {
            let elem = node.child_by_field_name("element").map(|e| type_syntax(e, source));
            let dims = node.child_by_field_name("dimensions").map(|d| count_dims(d, source)).unwrap_or(1);
            let elem = elem.unwrap_or(TypeSyntax { name: "java.lang.Object".into(), dims: 0 });
            TypeSyntax { name: elem.name, dims: elem.dims + dims }
        }
        "generic_type" => {
            let mut cursor = node.walk();
            let base = node.named_children(&mut cursor).find(|c| c.kind() != "type_arguments");
            base.map(|b| type_syntax(b, source)).unwrap_or(TypeSyntax { name: "java.lang.Object".into(), dims: 0 })
        }
        "scoped_type_identifier" => {
            let mut cursor = node.walk();
            let parts: Vec<String> = node
                .named_children(&mut cursor)
                .filter(|c| c.kind() != "annotation" && c.kind() != "marker_annotation")
                .map(|c| type_syntax(c, source).name)
                .collect();
            TypeSyntax { name: parts.join("."), dims: 0 }
        }
        "annotated_type" => {
            let mut cursor = node.walk();
            let inner = node.named_children(&mut cursor).filter(|c| !c.kind().contains("annotation")).last();
            inner.map(|i| type_syntax(i, source)).unwrap_or(TypeSyntax { name: "java.lang.Object".into(), dims: 0 })
        }
        _ => TypeSyntax { name: text(node, source), dims: 0 },
    }
}

fn count_dims(node: Node, source: &str) -> usize {
    source[node.byte_range()].matches('[').count()
}

fn type_params(node: Node, source: &str) -> Vec<(String, Option<TypeSyntax>)> {
    let Some(tp) = node.child_by_field_name("type_parameters") else { return Vec::new() };
    let mut cursor = tp.walk();
    let mut out = Vec::new();
    for p in tp.named_children(&mut cursor).filter(|c| c.kind() == "type_parameter") {
        let mut c2 = p.walk();
        let kids: Vec<Node> = p.named_children(&mut c2).collect();
        let name = kids.iter().find(|k| k.kind() == "type_identifier" || k.kind() == "identifier");
        let bound = kids.iter().find(|k| k.kind() == "type_bound").and_then(|b| b.named_child(0));
        if let Some(name) = name {
            out.push((text(*name, source), bound.map(|b| type_syntax(b, source))));
        }
    }
    out
}

fn type_list(node: Node, source: &str) -> Vec<TypeSyntax> {
    let mut cursor = node.walk();
    let list = node.named_children(&mut cursor).find(|c| c.kind() == "type_list");
    let Some(list) = list else { return Vec::new() };
    let mut c2 = list.walk();
    list.named_children(&mut c2).map(|t| type_syntax(t, source)).collect()
}

fn supertypes(node: Node, source: &str) -> (Option<TypeSyntax>, Vec<TypeSyntax>) {
    let superclass =
        node.child_by_field_name("superclass").and_then(|s| s.named_child(0)).map(|t| type_syntax(t, source));
    let mut interfaces = Vec::new();
    let mut cursor = node.walk();
    for c in node.named_children(&mut cursor) {
        if matches!(c.kind(), "super_interfaces" | "extends_interfaces") {
            interfaces.extend(type_list(c, source));
        }
    }
    (superclass, interfaces)
}

fn method(ctx: Ctx, node: Node, doc: Option<String>) -> Option<RawMethod> {
    let src = ctx.source;
    let mods = modifiers(node, src);
    let visibility = if mods.contains(&"public") || (ctx.in_interface && !mods.contains(&"private")) {
        Visibility::Public
    } else if mods.contains(&"protected") {
        Visibility::Protected
    } else {
        return None;
    };
    let is_ctor = node.kind() == "constructor_declaration";
    let name = if is_ctor { "<init>".to_string() } else { text(node.child_by_field_name("name")?, src) };
    let returns = (!is_ctor).then(|| {
        let mut t = node
            .child_by_field_name("type")
            .map(|t| type_syntax(t, src))
            .unwrap_or(TypeSyntax { name: "void".into(), dims: 0 });
        t.dims += node.child_by_field_name("dimensions").map(|d| count_dims(d, src)).unwrap_or(0);
        t
    });
    let params = node.child_by_field_name("parameters").map(|p| parameters(p, src)).unwrap_or_default();
    let mut cursor = node.walk();
    let throws = node
        .named_children(&mut cursor)
        .find(|c| c.kind() == "throws")
        .map(|t| {
            let mut c2 = t.walk();
            t.named_children(&mut c2).map(|x| type_syntax(x, src)).collect()
        })
        .unwrap_or_default();
    Some(RawMethod {
        name,
        is_static: mods.contains(&"static"),
        visibility,
        type_params: type_params(node, src),
        params,
        returns,
        throws,
        doc,
    })
}

fn parameters(node: Node, source: &str) -> Vec<(TypeSyntax, String)> {
    let mut cursor = node.walk();
    let mut out = Vec::new();
    for p in node.named_children(&mut cursor) {
        match p.kind() {
            "formal_parameter" => {
                let mut ty = p.child_by_field_name("type").map(|t| type_syntax(t, source));
                let name = p.child_by_field_name("name").map(|n| text(n, source)).unwrap_or_default();
                if let (Some(t), Some(d)) = (ty.as_mut(), p.child_by_field_name("dimensions")) {
                    t.dims += count_dims(d, source);
                }
                out.push((ty.unwrap_or(TypeSyntax { name: "java.lang.Object".into(), dims: 0 }), name));
            }
            "spread_parameter" => {
                let mut c2 = p.walk();
                let kids: Vec<Node> = p.named_children(&mut c2).collect();
                let ty = kids.iter().find(|k| !matches!(k.kind(), "modifiers" | "variable_declarator"));
                let decl = kids.iter().find(|k| k.kind() == "variable_declarator");
                let name = decl.and_then(|d| d.child_by_field_name("name")).map(|n| text(n, source));
                let mut t = ty
                    .map(|t| type_syntax(*t, source))
                    .unwrap_or(TypeSyntax { name: "java.lang.Object".into(), dims: 0 });
                t.dims += 1;
                out.push((t, name.unwrap_or_default()));
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_methods_parameters_and_docs_are_read() {
        let src = "package a.b;\nimport java.util.*;\nimport java.util.function.Function;\n\
            /** C doc */ public abstract class C<T extends Object & Comparable<? super T>> extends D<T> implements I {\n\
            /** m doc */ @Deprecated public static <U extends Number> U[] m(final int x, Map.Entry<K,V> e, \
            char buf[], Object... rest) throws java.io.IOException { return null; }\n\
            /** ctor */ protected C(int a) {}\n void hidden() {}\n\
            public interface I2 extends I { int f(int[] a); }\n class Inner {} }";
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&tree_sitter_java::LANGUAGE.into()).unwrap();
        let mut d = Declarations::default();
        d.add_file(&mut parser, "m", src).unwrap();
        assert_eq!(d.files[0].package, "a.b");
        assert_eq!(d.files[0].single, vec!["java.util.function.Function"]);
        assert_eq!(d.files[0].on_demand, vec!["java.util"]);
        let c = &d.classes[0];
        assert_eq!(c.chain, vec!["C"]);
        assert_eq!(c.type_params[0].1.as_ref().unwrap().name, "Object");
        assert_eq!(c.superclass.as_ref().unwrap().name, "D");
        assert_eq!(c.methods.len(), 2, "package-private methods are left out");
        let m = &c.methods[0];
        assert_eq!(m.doc.as_deref(), Some("/** m doc */"));
        let types: Vec<(String, usize)> = m.params.iter().map(|(t, _)| (t.name.clone(), t.dims)).collect();
        assert_eq!(types, [("int".into(), 0), ("Map.Entry".into(), 0), ("char".into(), 1), ("Object".into(), 1)]);
        assert_eq!(m.returns.as_ref().unwrap().dims, 1);
        assert_eq!(m.throws[0].name, "java.io.IOException");
        assert_eq!(c.methods[1].name, "<init>");
        let i2 = &d.classes[1];
        assert_eq!((i2.chain.join("."), i2.kind, i2.exported), ("C.I2".into(), ClassKind::Interface, true));
        assert_eq!(i2.methods[0].visibility, Visibility::Public);
        assert!(!d.classes[2].exported && !d.classes[2].is_static);
    }
}
