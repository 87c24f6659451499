//! Types in the emitted source: spelling [`FieldType`]s and [`JavaType`]s
//! through [`ClassNames`], and the type each variable is declared with.

use model::descriptor::FieldType;
use model::names::{BinaryName, InternalName};
use model::signature::{ClassTypeSig, JavaType, TypeArg};
use testcase::Statement;

use crate::imports::{ClassNames, nesting_depth};

impl ClassNames {
    /// `int`, `String[]`, `Map.Entry`.
    pub(crate) fn field_type(&mut self, ty: &FieldType) -> String {
        match ty {
            FieldType::Base(base) => base.java_name().to_owned(),
            FieldType::Object(class) => self.class(&class.to_binary()),
            FieldType::Array(component) => format!("{}[]", self.field_type(component)),
        }
    }

    /// `List<String>`, `Map.Entry<K, ? extends V>`, `Outer<String>.Inner`.
    /// Type variables are spelled `Object`; [`declared_type`] keeps them out.
    pub(crate) fn java_type(&mut self, ty: &JavaType) -> String {
        match ty {
            JavaType::Base(base) => base.java_name().to_owned(),
            JavaType::Void => "void".to_owned(),
            JavaType::Class(class) => self.class_type(class),
            JavaType::TypeVar(_) => self.class(&BinaryName::new("java.lang.Object")),
            JavaType::Array(component) => format!("{}[]", self.java_type(component)),
        }
    }

    /// A class type with the type arguments of each of its nesting parts.
    fn class_type(&mut self, class: &ClassTypeSig) -> String {
        let spelled = self.class(&class.name.to_binary());
        let n_nested = nesting_depth(&class.name.to_binary());
        let mut parts: Vec<&str> = spelled.rsplitn(n_nested + 1, '.').collect();
        parts.reverse();
        let n_parts = parts.len();
        let mut out = String::new();
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                out.push('.');
            }
            out.push_str(part);
            out.push_str(&self.type_args(class.args_of_part(i, n_parts)));
        }
        out
    }

    /// `<String, ? super T>`, or nothing when `args` is empty.
    pub(crate) fn type_args(&mut self, args: &[TypeArg]) -> String {
        if args.is_empty() {
            return String::new();
        }
        let args: Vec<String> = args.iter().map(|arg| self.type_arg(arg)).collect();
        format!("<{}>", args.join(", "))
    }

    fn type_arg(&mut self, arg: &TypeArg) -> String {
        match arg {
            TypeArg::Wildcard => "?".to_owned(),
            TypeArg::Extends(ty) => format!("? extends {}", self.java_type(ty)),
            TypeArg::Super(ty) => format!("? super {}", self.java_type(ty)),
            TypeArg::Exact(ty) => self.java_type(ty),
        }
    }
}

/// The type a statement's variable is declared with: its `ty` for objects
/// the test constructs itself (`new ArrayList<String>()`) and for results
/// of an exact type (`List<String> readLines(int)`: the test cluster keeps
/// a result's generic type only when its signature has no type variable
/// or wildcard, or whose arguments are all `?`), otherwise the erasure (a raw type). Type arguments that
/// come from type-variable bounds the cluster substituted
/// (`Range<Comparable>` for `Range.between(integer0, integer0)`) javac
/// would infer differently (`Range<Integer>`) and reject; a raw type always compiles.
/// The erasure is also used when `ty` mentions a type variable (none is in
/// scope in a test method).
pub(crate) fn declared_type(statement: &Statement) -> JavaType {
    use testcase::StatementKind::{Call, ClassLiteral, Constructor, FieldGet, NewArray, StaticCall};
    if let ClassLiteral(class) = &statement.kind {
        return class_literal_type(class.as_ref());
    }
    let constructed = matches!(statement.kind, Constructor { .. })
        || matches!(statement.kind, NewArray { .. }) && is_unbound(innermost(&statement.ty));
    let exact_result = matches!(statement.kind, Call { .. } | StaticCall { .. } | FieldGet { .. })
        && (statement.ty.is_exact() || is_unbound(&statement.ty));
    if has_type_var(&statement.ty) || !(constructed || exact_result) {
        statement.ty.erasure().map_or(JavaType::Void, JavaType::from)
    } else {
        statement.ty.clone()
    }
}

/// Whether `ty` is a class type whose arguments are all `?` (`Class<?>`,
/// which `testcase::operators::unbound_classes` gives a raw `Class`
/// result and the elements of a new `Class[]`): any value of its erasure
/// fits it, and `new Class<?>[n]` is no generic array creation javac refuses.
fn is_unbound(ty: &JavaType) -> bool {
    matches!(ty, JavaType::Class(class) if !class.args.is_empty()
        && class.args.iter().all(|a| *a == TypeArg::Wildcard)
        && class.outer_args.iter().flatten().next().is_none())
}

/// The component type of `ty` past all its array dimensions (`ty` itself
/// when it is no array).
pub(crate) fn innermost(ty: &JavaType) -> &JavaType {
    match ty {
        JavaType::Array(component) => innermost(component),
        _ => ty,
    }
}

/// The type of a class literal, so that no raw `Class` is declared:
/// `Class<String>` for `String.class`, `Class<Integer>` for `int.class`,
/// `Class<Void>` for `void.class` (`None`).
fn class_literal_type(class: Option<&FieldType>) -> JavaType {
    let argument = match class {
        None => FieldType::Object(InternalName::new("java/lang/Void")),
        Some(FieldType::Base(base)) => FieldType::Object(testcase::box_class(*base)),
        Some(ty) => ty.clone(),
    };
    JavaType::Class(ClassTypeSig {
        name: InternalName::new("java/lang/Class"),
        args: vec![TypeArg::Exact(JavaType::from(argument))],
        outer_args: Vec::new(),
    })
}

/// The erasure of the declared type (`None` for `void`).
pub(crate) fn declared_erasure(statement: &Statement) -> Option<FieldType> {
    declared_type(statement).erasure()
}

/// Whether `ty` has type arguments anywhere (`List<String>`, `Box<T>[]`).
pub(crate) fn is_parameterized(ty: &JavaType) -> bool {
    match ty {
        JavaType::Class(class) => !class.args.is_empty() || class.outer_args.iter().any(|args| !args.is_empty()),
        JavaType::Array(component) => is_parameterized(component),
        JavaType::Base(_) | JavaType::Void | JavaType::TypeVar(_) => false,
    }
}

fn has_type_var(ty: &JavaType) -> bool {
    match ty {
        JavaType::TypeVar(_) => true,
        JavaType::Array(component) => has_type_var(component),
        JavaType::Class(class) => class.args.iter().chain(class.outer_args.iter().flatten()).any(arg_has_type_var),
        JavaType::Base(_) | JavaType::Void => false,
    }
}

fn arg_has_type_var(arg: &TypeArg) -> bool {
    match arg {
        TypeArg::Wildcard => false,
        TypeArg::Extends(ty) | TypeArg::Super(ty) | TypeArg::Exact(ty) => has_type_var(ty),
    }
}

#[cfg(test)]
mod tests {
    use model::signature::parse_field_signature;

    use super::*;

    /// Spells the field signature `signature` after a first pass, in package `a`.
    fn check(signature: &str, expected: &str) {
        let ty = parse_field_signature(signature).unwrap();
        let mut names = ClassNames::new("a", "T_FerroTest");
        names.java_type(&ty);
        names.decide(&BinaryName::new("a.T"));
        assert_eq!(names.java_type(&ty), expected);
    }

    #[test]
    fn generic_types_spell_their_arguments_with_imported_names() {
        check("Ljava/util/List<Ljava/lang/String;>;", "List<String>");
        check("Ljava/util/Map<Ljava/lang/String;+Ljava/lang/Number;>;", "Map<String, ? extends Number>");
        check("Ljava/util/List<*>;", "List<?>");
        check("[Ljava/util/List<-La/T;>;", "List<? super T>[]");
    }

    #[test]
    fn nested_generic_types_spell_each_part_with_its_arguments() {
        check("Ljava/util/Map$Entry<Ljava/lang/String;[I>;", "Map.Entry<String, int[]>");
        check("La/Outer<Ljava/lang/String;>.Inner<Ljava/lang/Integer;>;", "Outer<String>.Inner<Integer>");
        check("La/Outer$Mid$Inner;", "Outer.Mid.Inner");
    }

    #[test]
    fn variables_with_type_variables_are_declared_with_the_erasure() {
        let generic = Statement {
            kind: testcase::StatementKind::Null(FieldType::parse("Ljava/util/List;").unwrap()),
            ty: parse_field_signature("Ljava/util/List<TT;>;").unwrap(),
        };
        assert_eq!(declared_type(&generic).to_string(), "java.util.List");
        assert!(!is_parameterized(&declared_type(&generic)));
        assert!(is_parameterized(&parse_field_signature("[Ljava/util/List<*>;").unwrap()));
    }

    #[test]
    fn results_are_declared_with_unbound_arguments_but_not_bounded_ones() {
        let result = |signature: &str| Statement {
            kind: testcase::StatementKind::StaticCall {
                method: testcase::MethodRef::parse("a.T", "type", "()Ljava/lang/Class;").unwrap(),
                args: Vec::new(),
            },
            ty: parse_field_signature(signature).unwrap(),
        };
        assert_eq!(declared_type(&result("Ljava/lang/Class<*>;")).to_string(), "java.lang.Class<?>");
        assert_eq!(declared_type(&result("Ljava/lang/Class<+La/T;>;")).to_string(), "java.lang.Class");
        let array = |signature: &str| Statement {
            kind: testcase::StatementKind::NewArray { elem: FieldType::parse("Ljava/lang/Class;").unwrap(), length: 2 },
            ty: parse_field_signature(signature).unwrap(),
        };
        assert_eq!(declared_type(&array("[Ljava/lang/Class<*>;")).to_string(), "java.lang.Class<?>[]");
        assert_eq!(declared_type(&array("[Ljava/lang/Class;")).to_string(), "java.lang.Class[]");
    }
}
