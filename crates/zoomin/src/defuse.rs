//! The statements of generated JUnit tests, read with tree-sitter-java:
//! per statement the variables it defines and uses and the receivers of its
//! calls, and whether it is an assertion. ZoomIn's def-use chains
//! ([`crate::rank`]) run over them (TECHNIQUES.md §3 step 4).
//!
//! Reading the Java source rather than ferrosuite's test-case IR lets the
//! same code rank suites of other tools; for a ferrosuite suite the
//! statements are the IR's statements, one per line.

use std::ops::RangeInclusive;

use tree_sitter::{Node, Parser};

/// One statement of a test method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// Its source lines (1-based).
    pub lines: RangeInclusive<u32>,
    /// Local variables it declares or assigns.
    pub defs: Vec<String>,
    /// Names it reads (locals, and class names of static calls).
    pub uses: Vec<String>,
    /// Variables whose methods it calls (their state may change).
    pub receivers: Vec<String>,
    /// Whether it is a JUnit assertion (`assert*` or `fail`).
    pub assertion: bool,
    /// Its source text, on one line.
    pub text: String,
}

/// A test method and its statements, in source order (statements inside
/// `try` blocks and other blocks included, flattened).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestMethod {
    /// The binary name of its class.
    pub class: String,
    /// The method's name.
    pub name: String,
    /// Its statements.
    pub statements: Vec<Statement>,
}

impl TestMethod {
    /// The statement that holds `line`.
    pub fn statement_at(&self, line: u32) -> Option<usize> {
        self.statements.iter().position(|s| s.lines.contains(&line))
    }
}

/// The `@Test` methods of the top-level classes of a Java source (every
/// method when none is annotated); empty when the source does not parse.
pub fn test_methods(source: &str) -> Vec<TestMethod> {
    let mut parser = Parser::new();
    if parser.set_language(&tree_sitter_java::LANGUAGE.into()).is_err() {
        return Vec::new();
    }
    let Some(tree) = parser.parse(source, None) else { return Vec::new() };
    let root = tree.root_node();
    let text = |n: Node<'_>| n.utf8_text(source.as_bytes()).unwrap_or("").to_string();
    let mut package = String::new();
    let mut out = Vec::new();
    let mut cursor = root.walk();
    for child in root.children(&mut cursor) {
        match child.kind() {
            "package_declaration" => {
                let mut c = child.walk();
                if let Some(name) =
                    child.children(&mut c).find(|n| matches!(n.kind(), "scoped_identifier" | "identifier"))
                {
                    package = format!("{}.", text(name));
                }
            }
            "class_declaration" => {
                let Some(name) = child.child_by_field_name("name") else { continue };
                let class = format!("{package}{}", text(name));
                out.extend(methods_of(child, &class, source));
            }
            _ => {}
        }
    }
    out
}

fn methods_of(class: Node<'_>, class_name: &str, source: &str) -> Vec<TestMethod> {
    let Some(body) = class.child_by_field_name("body") else { return Vec::new() };
    let mut cursor = body.walk();
    let methods: Vec<Node<'_>> = body.children(&mut cursor).filter(|n| n.kind() == "method_declaration").collect();
    let annotated: Vec<Node<'_>> = methods.iter().copied().filter(|m| is_test(*m, source)).collect();
    let chosen = if annotated.is_empty() { methods } else { annotated };
    chosen
        .into_iter()
        .filter_map(|m| {
            let name = m.child_by_field_name("name")?.utf8_text(source.as_bytes()).ok()?.to_string();
            let mut statements = Vec::new();
            collect_statements(m.child_by_field_name("body")?, source, &mut statements);
            Some(TestMethod { class: class_name.to_string(), name, statements })
        })
        .collect()
}

/// Whether the method carries an annotation named `Test`.
fn is_test(method: Node<'_>, source: &str) -> bool {
    let mut cursor = method.walk();
    let Some(modifiers) = method.children(&mut cursor).find(|n| n.kind() == "modifiers") else { return false };
    let mut c = modifiers.walk();
    modifiers.children(&mut c).any(|a| {
        matches!(a.kind(), "marker_annotation" | "annotation")
            && a.child_by_field_name("name")
                .and_then(|n| n.utf8_text(source.as_bytes()).ok())
                .is_some_and(|n| n == "Test" || n.ends_with(".Test"))
    })
}

fn collect_statements(node: Node<'_>, source: &str, out: &mut Vec<Statement>) {
    match node.kind() {
        "local_variable_declaration" | "expression_statement" | "return_statement" | "throw_statement" => {
            out.push(statement(node, source));
        }
        _ => {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                collect_statements(child, source, out);
            }
        }
    }
}

fn statement(node: Node<'_>, source: &str) -> Statement {
    let text = |n: Node<'_>| n.utf8_text(source.as_bytes()).unwrap_or("").to_string();
    let mut defs = Vec::new();
    let mut uses = Vec::new();
    let mut receivers = Vec::new();
    walk(node, &mut |n| {
        let parent = n.parent();
        let field_of_parent = |field: &str| parent.and_then(|p| p.child_by_field_name(field)) == Some(n);
        match n.kind() {
            "identifier" => {
                let parent_kind = parent.map_or("", |p| p.kind());
                let declared = parent_kind == "variable_declarator" && field_of_parent("name");
                let assigned = parent_kind == "assignment_expression" && field_of_parent("left");
                let member_name = (parent_kind == "method_invocation" && field_of_parent("name"))
                    || (parent_kind == "field_access" && field_of_parent("field"));
                if declared || assigned {
                    defs.push(text(n));
                } else if !member_name {
                    uses.push(text(n));
                }
            }
            "method_invocation" => {
                if let Some(object) = n.child_by_field_name("object").filter(|o| o.kind() == "identifier") {
                    receivers.push(text(object));
                }
            }
            _ => {}
        }
    });
    let assertion = node.kind() == "expression_statement"
        && node.named_child(0).is_some_and(|call| {
            call.kind() == "method_invocation"
                && call.child_by_field_name("name").is_some_and(|name| {
                    let name = text(name);
                    name.starts_with("assert") || name == "fail"
                })
        });
    let lines = node.start_position().row as u32 + 1..=node.end_position().row as u32 + 1;
    let shown = text(node).split_whitespace().collect::<Vec<_>>().join(" ");
    Statement { lines, defs, uses, receivers, assertion, text: shown }
}

fn walk<'t>(node: Node<'t>, f: &mut impl FnMut(Node<'t>)) {
    f(node);
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        walk(child, f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_statements_of_test_methods() {
        let source = "package p;\nimport org.junit.Test;\npublic class CTest {\n  @Test\n  public void t() {\n    C c0 = new C(1.0, -2.0);\n    C c1 = c0.conjugate();\n    try {\n      c1.neg(3);\n      fail(\"x\");\n    } catch (IllegalStateException e) {\n    }\n    assertEquals(2.0, c1.im, 0.01);\n  }\n  void helper() {}\n}\n";
        let methods = test_methods(source);
        assert_eq!(methods.len(), 1);
        let m = &methods[0];
        assert_eq!((m.class.as_str(), m.name.as_str()), ("p.CTest", "t"));
        type Parts = (Vec<String>, Vec<String>, Vec<String>, bool);
        let s: Vec<Parts> =
            m.statements.iter().map(|s| (s.defs.clone(), s.uses.clone(), s.receivers.clone(), s.assertion)).collect();
        let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(s[0], (v(&["c0"]), v(&[]), v(&[]), false));
        assert_eq!(s[1], (v(&["c1"]), v(&["c0"]), v(&["c0"]), false));
        assert_eq!(s[2], (v(&[]), v(&["c1"]), v(&["c1"]), false));
        assert!(s[3].3, "fail is an assertion");
        assert_eq!(s[4], (v(&[]), v(&["c1"]), v(&[]), true));
        assert_eq!(m.statement_at(13), Some(4));
        assert_eq!(m.statements[4].text, "assertEquals(2.0, c1.im, 0.01);");
    }
}
