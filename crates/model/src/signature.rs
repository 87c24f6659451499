//! Generic signatures, the contents of the `Signature` attribute (JVMS §4.7.9.1).
//!
//! Descriptors ([`crate::descriptor`]) give erased types; signatures add type parameters, type arguments, wildcards and type variables.
//! [`parse_class_signature`], [`parse_method_signature`] and [`parse_field_signature`] check a signature once, at the class-file boundary.
//! They never panic on any input: nesting deeper than [`MAX_NESTING`] is an error rather than a stack overflow.
//! A [`SignatureError`] names the signature and the byte offset of the defect.
//!
//! `Display` prints Java source form (`java.util.Map.Entry<K, V>`), and `to_signature` prints the attribute form back.
//! A class type written with inner-class segments, `Lfoo/Outer<TT;>.Inner<TU;>;`, gets the full name `foo/Outer$Inner`.
//! Its segment arguments are kept in [`ClassTypeSig::outer_args`], so that `Lfoo/Outer.Inner;` and `Lfoo/Outer$Inner;` parse to the same value.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::cursor::{Cursor, impl_cursor_error_kind};
use crate::descriptor::{BaseType, FieldType, MethodDescriptor};
use crate::names::{InternalName, binary_package, nesting_parts, split_package};

/// How deeply arrays and type arguments may nest in a signature.
///
/// javac never comes close; the limit keeps hostile class files from exhausting the stack.
pub const MAX_NESTING: usize = 255;

/// A Java type as a signature spells it (JVMS §4.7.9.1 `JavaTypeSignature`, plus `VoidDescriptor` for method results).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum JavaType {
    /// A primitive type, such as `I`.
    Base(BaseType),
    /// `V`, only valid as a method result.
    Void,
    /// A class or interface type, possibly parameterized, such as `Ljava/util/List<TT;>;`.
    Class(ClassTypeSig),
    /// A type variable, such as `TT;`; the string is its name.
    TypeVar(String),
    /// An array type, such as `[TT;`; the box holds the component type.
    Array(Box<JavaType>),
}

/// A class type signature (JVMS §4.7.9.1 `ClassTypeSignature`), such as `Ljava/util/Map$Entry<TK;TV;>;`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ClassTypeSig {
    /// The full class name, with `$` before each inner-class segment: `foo/Outer$Inner` for `Lfoo/Outer<TT;>.Inner;`.
    pub name: InternalName,
    /// The type arguments of the innermost segment; empty for a raw or non-generic type.
    pub args: Vec<TypeArg>,
    /// The type arguments of the enclosing segments, outermost first.
    ///
    /// The last entry belongs to the class directly enclosing the innermost one, the one before it to the next enclosing class, and so on.
    /// Leading empty entries are dropped, so this is empty unless an enclosing segment has arguments.
    pub outer_args: Vec<Vec<TypeArg>>,
}

/// A type argument (JVMS §4.7.9.1 `TypeArgument`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum TypeArg {
    /// `*`, Java's `?`.
    Wildcard,
    /// `+T`, Java's `? extends T`.
    Extends(JavaType),
    /// `-T`, Java's `? super T`.
    Super(JavaType),
    /// `T`, a type argument without wildcard.
    Exact(JavaType),
}

/// A formal type parameter of a class or method (JVMS §4.7.9.1 `TypeParameter`), such as `T:Ljava/lang/Object;`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TypeParam {
    /// The name of the type variable.
    pub name: String,
    /// The class bound; javac writes `java.lang.Object` when the bounds are all interfaces, but other compilers may leave it out.
    pub class_bound: Option<JavaType>,
    /// The interface bounds, in source order.
    pub interface_bounds: Vec<JavaType>,
}

/// The `Signature` attribute of a class (JVMS §4.7.9.1 `ClassSignature`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ClassSignature {
    /// The type parameters of the class; empty if it has none.
    pub type_params: Vec<TypeParam>,
    /// The direct superclass.
    pub superclass: ClassTypeSig,
    /// The direct superinterfaces, in source order.
    pub interfaces: Vec<ClassTypeSig>,
}

/// The `Signature` attribute of a method (JVMS §4.7.9.1 `MethodSignature`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct MethodSignature {
    /// The type parameters of the method; empty if it has none.
    pub type_params: Vec<TypeParam>,
    /// The parameter types, never [`JavaType::Void`] when parsed.
    pub params: Vec<JavaType>,
    /// The result type, possibly [`JavaType::Void`].
    pub ret: JavaType,
    /// The `^` throws clauses: class types and type variables.
    ///
    /// javac writes them only if one is a type variable; otherwise the `Exceptions` attribute is the only record.
    pub throws: Vec<JavaType>,
}

/// The error of the `parse_*_signature` functions: the string is not a well-formed signature of that kind.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid signature {signature:?} at {position}: {kind}")]
#[non_exhaustive]
pub struct SignatureError {
    /// The rejected signature.
    pub signature: String,
    /// The byte offset of the defect in `signature`.
    pub position: usize,
    /// What is wrong at `position`.
    pub kind: SignatureErrorKind,
}

/// What is wrong with a signature, at the position that [`SignatureError`] gives.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SignatureErrorKind {
    /// The signature has another character where it needs the named element.
    #[error("expected {0}")]
    Expected(&'static str),
    /// The signature ends where it needs the named element.
    #[error("unexpected end, expected {0}")]
    UnexpectedEnd(&'static str),
    /// The signature goes on after a complete signature.
    #[error("trailing characters")]
    TrailingCharacters,
    /// Arrays and type arguments nest deeper than [`MAX_NESTING`].
    #[error("types nested more than {MAX_NESTING} deep")]
    TooDeeplyNested,
}

/// Parses the `Signature` attribute of a class, such as `<E:Ljava/lang/Enum<TE;>;>Ljava/lang/Object;Ljava/lang/Comparable<TE;>;` (JVMS §4.7.9.1).
///
/// # Errors
///
/// Returns a [`SignatureError`] if `signature` is not a well-formed `ClassSignature`.
pub fn parse_class_signature(signature: &str) -> Result<ClassSignature, SignatureError> {
    let mut parser = Parser::new(signature);
    let type_params = parser.type_params()?;
    let superclass = parser.class_type()?;
    let mut interfaces = Vec::new();
    while !parser.cursor.at_end() {
        interfaces.push(parser.class_type()?);
    }
    Ok(ClassSignature { type_params, superclass, interfaces })
}

/// Parses the `Signature` attribute of a method, such as `<T:Ljava/lang/Object;>(Ljava/util/Collection<+TT;>;)TT;^TX;` (JVMS §4.7.9.1).
///
/// # Errors
///
/// Returns a [`SignatureError`] if `signature` is not a well-formed `MethodSignature`.
pub fn parse_method_signature(signature: &str) -> Result<MethodSignature, SignatureError> {
    let mut parser = Parser::new(signature);
    let type_params = parser.type_params()?;
    parser.cursor.expect(b'(', "'('")?;
    let mut params = Vec::new();
    while !parser.cursor.eat(b')') {
        params.push(parser.java_type()?);
    }
    let ret = if parser.cursor.eat(b'V') { JavaType::Void } else { parser.java_type()? };
    let mut throws = Vec::new();
    while parser.cursor.eat(b'^') {
        throws.push(parser.throws_type()?);
    }
    parser.cursor.finish()?;
    Ok(MethodSignature { type_params, params, ret, throws })
}

/// Parses the `Signature` attribute of a field, record component or local variable, such as `Ljava/util/List<TT;>;` (JVMS §4.7.9.1).
///
/// # Errors
///
/// Returns a [`SignatureError`] if `signature` is not exactly one `ReferenceTypeSignature`; primitive types are rejected, as the grammar says.
pub fn parse_field_signature(signature: &str) -> Result<JavaType, SignatureError> {
    let mut parser = Parser::new(signature);
    let ty = parser.reference_type()?;
    parser.cursor.finish()?;
    Ok(ty)
}

/// The erasure (JLS §4.6) of the type variable `name` declared in `type_params`: the erasure of its leftmost bound.
///
/// A name not declared in `type_params` goes to `outer`, which should look in the enclosing declaration (such as the class of a method).
/// Returns `None` if neither knows the variable, if it has no bound, or if its bounds form a cycle; callers then use `java.lang.Object`.
pub fn erase_type_var(
    type_params: &[TypeParam],
    name: &str,
    outer: &dyn Fn(&str) -> Option<FieldType>,
) -> Option<FieldType> {
    erase_type_var_at(type_params, name, outer, 0)
}

/// [`erase_type_var`] after following `depth` bounds that were type variables themselves.
fn erase_type_var_at(
    type_params: &[TypeParam],
    name: &str,
    outer: &dyn Fn(&str) -> Option<FieldType>,
    depth: usize,
) -> Option<FieldType> {
    // A chain longer than the parameter list must have gone round a cycle.
    if depth > type_params.len() {
        return None;
    }
    let Some(param) = type_params.iter().find(|param| param.name == name) else {
        return outer(name);
    };
    match param.leftmost_bound()? {
        JavaType::TypeVar(bound) => erase_type_var_at(type_params, bound, outer, depth + 1),
        bound => bound.erasure_with(outer),
    }
}

impl JavaType {
    /// Whether the type names no type variable and no wildcard anywhere
    /// (`List<String>`, `int[]`, `Map<String, List<Integer>>`): a variable of
    /// it can hold a method's result as javac types it, whatever the call.
    pub fn is_exact(&self) -> bool {
        match self {
            JavaType::TypeVar(_) => false,
            JavaType::Array(component) => component.is_exact(),
            JavaType::Class(class) => class.args.iter().chain(class.outer_args.iter().flatten()).all(|arg| match arg {
                TypeArg::Exact(ty) => ty.is_exact(),
                TypeArg::Wildcard | TypeArg::Extends(_) | TypeArg::Super(_) => false,
            }),
            JavaType::Base(_) | JavaType::Void => true,
        }
    }

    /// The erasure (JLS §4.6) as a field type, with every type variable erased to `java.lang.Object`; `None` for [`JavaType::Void`].
    ///
    /// Proper erasure replaces a type variable by the erasure of its leftmost bound; use [`JavaType::erasure_with`] for that.
    pub fn erasure(&self) -> Option<FieldType> {
        self.erasure_with(&|_| None)
    }

    /// The erasure (JLS §4.6) as a field type, with each type variable erased to what `bound` returns for its name, or to `java.lang.Object` if `bound` returns `None`.
    ///
    /// [`erase_type_var`] makes a suitable `bound` from type parameters.
    /// Returns `None` for [`JavaType::Void`] and for arrays of it.
    pub fn erasure_with(&self, bound: &dyn Fn(&str) -> Option<FieldType>) -> Option<FieldType> {
        match self {
            JavaType::Base(base) => Some(FieldType::Base(*base)),
            JavaType::Void => None,
            JavaType::Class(class) => Some(FieldType::Object(class.name.clone())),
            JavaType::TypeVar(name) => Some(bound(name).unwrap_or(FieldType::Object(InternalName::object()))),
            JavaType::Array(component) => {
                component.erasure_with(bound).map(|component| FieldType::Array(Box::new(component)))
            }
        }
    }

    /// The signature form, such as `Ljava/util/List<+TT;>;`.
    pub fn to_signature(&self) -> String {
        let mut out = String::new();
        self.write_signature(&mut out);
        out
    }

    fn write_signature(&self, out: &mut String) {
        match self {
            JavaType::Base(base) => out.push(base.descriptor_char()),
            JavaType::Void => out.push('V'),
            JavaType::Class(class) => class.write_signature(out),
            JavaType::TypeVar(name) => {
                out.push('T');
                out.push_str(name);
                out.push(';');
            }
            JavaType::Array(component) => {
                out.push('[');
                component.write_signature(out);
            }
        }
    }
}

impl ClassTypeSig {
    /// A class type without type arguments, such as the raw `java.util.List`.
    pub fn new(name: InternalName) -> ClassTypeSig {
        ClassTypeSig { name, args: Vec::new(), outer_args: Vec::new() }
    }

    /// The signature form, such as `Ljava/util/Map$Entry<TK;TV;>;`.
    ///
    /// Segments before the first one with [`ClassTypeSig::outer_args`] are joined with `$`, later ones with `.`, which may differ from the parsed spelling but means the same type.
    pub fn to_signature(&self) -> String {
        let mut out = String::new();
        self.write_signature(&mut out);
        out
    }

    fn write_signature(&self, out: &mut String) {
        let (package, simple) = split_package(self.name.as_str(), '/');
        out.push('L');
        if !package.is_empty() {
            out.push_str(package);
            out.push('/');
        }
        let parts = nesting_parts(simple);
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                out.push(if self.has_outer_args(i - 1, parts.len()) { '.' } else { '$' });
            }
            out.push_str(part);
            write_args_signature(self.args_of_part(i, parts.len()), out);
        }
        out.push(';');
    }

    /// Whether part `i` of `n_parts` nesting parts of the simple name, which is not the last, has an entry in `outer_args`.
    fn has_outer_args(&self, i: usize, n_parts: usize) -> bool {
        n_parts - 1 - i <= self.outer_args.len()
    }

    /// The type arguments of nesting part `i` (counted from 0, outermost first) of a name with `n_parts` nesting parts.
    ///
    /// The last part (`i == n_parts - 1`) is the class itself and gets [`ClassTypeSig::args`]; `outer_args` align with the parts before it, counted from the end, so that the innermost outer entry belongs to part `n_parts - 2`.
    /// A part without an entry gets no arguments (an empty slice).
    /// For `La/Outer<TT;>.Inner<TU;>;` with parts `Outer`, `Inner`: part 0 gives `[T]`, part 1 gives `[U]`.
    /// `i` must be less than `n_parts`.
    pub fn args_of_part(&self, i: usize, n_parts: usize) -> &[TypeArg] {
        let from_last = n_parts - 1 - i;
        if from_last == 0 {
            return &self.args;
        }
        let outer = self.outer_args.len().checked_sub(from_last);
        outer.and_then(|k| self.outer_args.get(k)).map_or(&[], Vec::as_slice)
    }
}

impl TypeParam {
    /// The bound that erasure uses (JLS §4.6): the class bound if there is one, otherwise the first interface bound.
    pub fn leftmost_bound(&self) -> Option<&JavaType> {
        self.class_bound.as_ref().or(self.interface_bounds.first())
    }
}

impl ClassSignature {
    /// The erasure of the type variable `name` declared by this class, or `None` if it declares none of that name; see [`erase_type_var`].
    pub fn type_var_erasure(&self, name: &str) -> Option<FieldType> {
        erase_type_var(&self.type_params, name, &|_| None)
    }

    /// The signature form, as in the `Signature` attribute.
    pub fn to_signature(&self) -> String {
        let mut out = String::new();
        write_type_params_signature(&self.type_params, &mut out);
        self.superclass.write_signature(&mut out);
        for interface in &self.interfaces {
            interface.write_signature(&mut out);
        }
        out
    }
}

impl MethodSignature {
    /// The erased method descriptor, erasing the method's own type variables to their bounds and all others to `java.lang.Object`.
    ///
    /// Returns `None` if a parameter is [`JavaType::Void`], which no parsed signature has.
    pub fn erasure(&self) -> Option<MethodDescriptor> {
        self.erasure_with(&|_| None)
    }

    /// The erased method descriptor (JLS §4.6), erasing the method's own type variables to their bounds and asking `outer` about the others.
    ///
    /// `outer` is typically `|name| class_signature.type_var_erasure(name)`; see [`erase_type_var`].
    /// Returns `None` if a parameter is [`JavaType::Void`], which no parsed signature has.
    pub fn erasure_with(&self, outer: &dyn Fn(&str) -> Option<FieldType>) -> Option<MethodDescriptor> {
        let bound = |name: &str| erase_type_var(&self.type_params, name, outer);
        let params = self.params.iter().map(|param| param.erasure_with(&bound)).collect::<Option<_>>()?;
        let ret = match &self.ret {
            JavaType::Void => None,
            ret => Some(ret.erasure_with(&bound)?),
        };
        Some(MethodDescriptor { params, ret })
    }

    /// The signature form, as in the `Signature` attribute.
    pub fn to_signature(&self) -> String {
        let mut out = String::new();
        write_type_params_signature(&self.type_params, &mut out);
        out.push('(');
        for param in &self.params {
            param.write_signature(&mut out);
        }
        out.push(')');
        self.ret.write_signature(&mut out);
        for thrown in &self.throws {
            out.push('^');
            thrown.write_signature(&mut out);
        }
        out
    }
}

/// A descriptor's type as a signature type, for members without a `Signature` attribute.
impl From<FieldType> for JavaType {
    fn from(ty: FieldType) -> JavaType {
        match ty {
            FieldType::Base(base) => JavaType::Base(base),
            FieldType::Object(name) => JavaType::Class(ClassTypeSig::new(name)),
            FieldType::Array(component) => JavaType::Array(Box::new(JavaType::from(*component))),
        }
    }
}

/// A descriptor as a signature, for methods without a `Signature` attribute; `throws` stays empty because descriptors don't record it.
impl From<MethodDescriptor> for MethodSignature {
    fn from(descriptor: MethodDescriptor) -> MethodSignature {
        MethodSignature {
            type_params: Vec::new(),
            params: descriptor.params.into_iter().map(JavaType::from).collect(),
            ret: descriptor.ret.map_or(JavaType::Void, JavaType::from),
            throws: Vec::new(),
        }
    }
}

fn write_args_signature(args: &[TypeArg], out: &mut String) {
    if args.is_empty() {
        return;
    }
    out.push('<');
    for arg in args {
        match arg {
            TypeArg::Wildcard => out.push('*'),
            TypeArg::Extends(ty) => {
                out.push('+');
                ty.write_signature(out);
            }
            TypeArg::Super(ty) => {
                out.push('-');
                ty.write_signature(out);
            }
            TypeArg::Exact(ty) => ty.write_signature(out),
        }
    }
    out.push('>');
}

fn write_type_params_signature(type_params: &[TypeParam], out: &mut String) {
    if type_params.is_empty() {
        return;
    }
    out.push('<');
    for param in type_params {
        out.push_str(&param.name);
        out.push(':');
        if let Some(bound) = &param.class_bound {
            bound.write_signature(out);
        }
        for bound in &param.interface_bounds {
            out.push(':');
            bound.write_signature(out);
        }
    }
    out.push('>');
}

/// Java source form, such as `java.util.List<? extends T>[]`.
impl fmt::Display for JavaType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JavaType::Base(base) => write!(f, "{base}"),
            JavaType::Void => f.write_str("void"),
            JavaType::Class(class) => write!(f, "{class}"),
            JavaType::TypeVar(name) => f.write_str(name),
            JavaType::Array(component) => write!(f, "{component}[]"),
        }
    }
}

/// Java source form, such as `java.util.Map.Entry<K, V>` or `foo.Outer<T>.Inner<U>`.
impl fmt::Display for ClassTypeSig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (package, simple) = split_package(self.name.as_str(), '/');
        if !package.is_empty() {
            write!(f, "{}.", binary_package(package))?;
        }
        let parts = nesting_parts(simple);
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            f.write_str(part)?;
            write_args(f, self.args_of_part(i, parts.len()))?;
        }
        Ok(())
    }
}

/// Java source form, such as `? super T`.
impl fmt::Display for TypeArg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeArg::Wildcard => f.write_str("?"),
            TypeArg::Extends(ty) => write!(f, "? extends {ty}"),
            TypeArg::Super(ty) => write!(f, "? super {ty}"),
            TypeArg::Exact(ty) => write!(f, "{ty}"),
        }
    }
}

/// Java source form, such as `T extends java.lang.Comparable<? super T>`.
///
/// A class bound of plain `java.lang.Object` is left out, as javac writes it for every parameter whose bounds are all interfaces.
/// So `<T extends Object & Comparable<T>>` prints like `<T extends Comparable<T>>`, although their erasures differ.
impl fmt::Display for TypeParam {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        let class_bound = self.class_bound.as_ref().filter(|bound| !is_plain_object(bound));
        let mut bounds = class_bound.into_iter().chain(&self.interface_bounds);
        if let Some(first) = bounds.next() {
            write!(f, " extends {first}")?;
        }
        bounds.try_for_each(|bound| write!(f, " & {bound}"))
    }
}

/// Java-like form, such as `<E extends java.lang.Enum<E>> extends java.lang.Object implements java.io.Serializable`.
impl fmt::Display for ClassSignature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_type_params(f, &self.type_params)?;
        write!(f, "extends {}", self.superclass)?;
        if !self.interfaces.is_empty() {
            f.write_str(" implements ")?;
            write_joined(f, &self.interfaces)?;
        }
        Ok(())
    }
}

/// Java-like form with an arrow, such as `<T> (java.util.Collection<? extends T>) -> T throws X`.
impl fmt::Display for MethodSignature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_type_params(f, &self.type_params)?;
        f.write_str("(")?;
        write_joined(f, &self.params)?;
        write!(f, ") -> {}", self.ret)?;
        if !self.throws.is_empty() {
            f.write_str(" throws ")?;
            write_joined(f, &self.throws)?;
        }
        Ok(())
    }
}

fn is_plain_object(ty: &JavaType) -> bool {
    matches!(ty, JavaType::Class(class) if *class == ClassTypeSig::new(InternalName::object()))
}

fn write_joined<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

fn write_args(f: &mut fmt::Formatter<'_>, args: &[TypeArg]) -> fmt::Result {
    if args.is_empty() {
        return Ok(());
    }
    f.write_str("<")?;
    write_joined(f, args)?;
    f.write_str(">")
}

/// Writes `<A, B extends C> `, with a trailing space, or nothing if there are no type parameters.
fn write_type_params(f: &mut fmt::Formatter<'_>, type_params: &[TypeParam]) -> fmt::Result {
    if type_params.is_empty() {
        return Ok(());
    }
    f.write_str("<")?;
    write_joined(f, type_params)?;
    f.write_str("> ")
}

impl_cursor_error_kind!(SignatureErrorKind, SignatureError, signature);

/// A recursive-descent parser over a signature.
///
/// It only steps over ASCII bytes or to the ASCII byte that ends an identifier, so the cursor stays on a char boundary.
struct Parser<'a> {
    cursor: Cursor<'a, SignatureErrorKind>,
    depth: usize,
}

impl<'a> Parser<'a> {
    fn new(input: &'a str) -> Parser<'a> {
        Parser { cursor: Cursor::new(input), depth: 0 }
    }

    /// Runs `parse` one nesting level deeper, failing beyond [`MAX_NESTING`].
    fn nested<T>(&mut self, parse: fn(&mut Self) -> Result<T, SignatureError>) -> Result<T, SignatureError> {
        if self.depth == MAX_NESTING {
            return Err(self.cursor.error(SignatureErrorKind::TooDeeplyNested));
        }
        self.depth += 1;
        let result = parse(self);
        self.depth -= 1;
        result
    }

    /// Parses an identifier, which ends at any of `. ; [ / < > :` (JVMS §4.7.9.1).
    fn identifier(&mut self) -> Result<&'a str, SignatureError> {
        let rest = self.cursor.rest();
        let len = rest.find(['.', ';', '[', '/', '<', '>', ':']).unwrap_or(rest.len());
        if len == 0 {
            return Err(self.cursor.missing("identifier"));
        }
        self.cursor.advance(len);
        Ok(&rest[..len])
    }

    /// `JavaTypeSignature`: a reference type or a primitive type.
    fn java_type(&mut self) -> Result<JavaType, SignatureError> {
        if matches!(self.cursor.peek(), Some(b'L' | b'T' | b'[')) {
            return self.reference_type();
        }
        let base = self.cursor.peek().and_then(|byte| BaseType::from_descriptor_char(char::from(byte)));
        match base {
            Some(base) => {
                self.cursor.advance(1);
                Ok(JavaType::Base(base))
            }
            None => Err(self.cursor.missing("type")),
        }
    }

    /// `ReferenceTypeSignature`: a class type, type variable or array type.
    fn reference_type(&mut self) -> Result<JavaType, SignatureError> {
        match self.cursor.peek() {
            Some(b'L') => self.class_type().map(JavaType::Class),
            Some(b'T') => self.type_var(),
            Some(b'[') => {
                self.cursor.advance(1);
                let component = self.nested(Self::java_type)?;
                Ok(JavaType::Array(Box::new(component)))
            }
            _ => Err(self.cursor.missing("reference type")),
        }
    }

    /// `ThrowsSignature` after the `^`: a class type or type variable.
    fn throws_type(&mut self) -> Result<JavaType, SignatureError> {
        match self.cursor.peek() {
            Some(b'L') => self.class_type().map(JavaType::Class),
            Some(b'T') => self.type_var(),
            _ => Err(self.cursor.missing("class type or type variable")),
        }
    }

    /// `TypeVariableSignature`: `T`, identifier, `;`.
    fn type_var(&mut self) -> Result<JavaType, SignatureError> {
        self.cursor.expect(b'T', "type variable")?;
        let name = self.identifier()?;
        self.cursor.expect(b';', "';'")?;
        Ok(JavaType::TypeVar(name.to_owned()))
    }

    /// `ClassTypeSignature`: `L`, package and class name, type arguments, inner-class segments, `;`.
    fn class_type(&mut self) -> Result<ClassTypeSig, SignatureError> {
        self.cursor.expect(b'L', "class type")?;
        let mut name = self.identifier()?.to_owned();
        while self.cursor.eat(b'/') {
            name.push('/');
            name.push_str(self.identifier()?);
        }
        let mut segment_args = vec![self.type_args()?];
        while self.cursor.eat(b'.') {
            name.push('$');
            name.push_str(self.identifier()?);
            segment_args.push(self.type_args()?);
        }
        self.cursor.expect(b';', "';'")?;
        let args = segment_args.pop().unwrap_or_default();
        let first_with_args = segment_args.iter().position(|args| !args.is_empty());
        segment_args.drain(..first_with_args.unwrap_or(segment_args.len()));
        Ok(ClassTypeSig { name: InternalName::new(name), args, outer_args: segment_args })
    }

    /// `TypeArguments`, if present: `<`, one or more type arguments, `>`.
    fn type_args(&mut self) -> Result<Vec<TypeArg>, SignatureError> {
        let mut args = Vec::new();
        if self.cursor.eat(b'<') {
            loop {
                args.push(self.nested(Self::type_arg)?);
                if self.cursor.eat(b'>') {
                    break;
                }
            }
        }
        Ok(args)
    }

    /// `TypeArgument`: `*`, or a reference type with an optional `+` or `-`.
    fn type_arg(&mut self) -> Result<TypeArg, SignatureError> {
        if self.cursor.eat(b'*') {
            Ok(TypeArg::Wildcard)
        } else if self.cursor.eat(b'+') {
            self.reference_type().map(TypeArg::Extends)
        } else if self.cursor.eat(b'-') {
            self.reference_type().map(TypeArg::Super)
        } else {
            self.reference_type().map(TypeArg::Exact)
        }
    }

    /// `TypeParameters`, if present: `<`, one or more type parameters, `>`.
    fn type_params(&mut self) -> Result<Vec<TypeParam>, SignatureError> {
        let mut params = Vec::new();
        if self.cursor.eat(b'<') {
            loop {
                params.push(self.type_param()?);
                if self.cursor.eat(b'>') {
                    break;
                }
            }
        }
        Ok(params)
    }

    /// `TypeParameter`: identifier, `:` and an optional class bound, then `:` before each interface bound.
    ///
    /// As in ASM, a class bound is present if the `:` is followed by `L`, `T` or `[`.
    fn type_param(&mut self) -> Result<TypeParam, SignatureError> {
        let name = self.identifier()?.to_owned();
        self.cursor.expect(b':', "':'")?;
        let class_bound = match self.cursor.peek() {
            Some(b'L' | b'T' | b'[') => Some(self.reference_type()?),
            _ => None,
        };
        let mut interface_bounds = Vec::new();
        while self.cursor.eat(b':') {
            interface_bounds.push(self.reference_type()?);
        }
        Ok(TypeParam { name, class_bound, interface_bounds })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses a class signature and renders its Java form, checking that it prints back to the same signature.
    fn class(signature: &str) -> String {
        match parse_class_signature(signature) {
            Ok(parsed) => {
                assert_eq!(parsed.to_signature(), signature, "round trip");
                parsed.to_string()
            }
            Err(err) => format!("error at {}: {}", err.position, err.kind),
        }
    }

    /// Parses a method signature and renders its Java form, checking that it prints back to the same signature.
    fn method(signature: &str) -> String {
        match parse_method_signature(signature) {
            Ok(parsed) => {
                assert_eq!(parsed.to_signature(), signature, "round trip");
                parsed.to_string()
            }
            Err(err) => format!("error at {}: {}", err.position, err.kind),
        }
    }

    /// Parses a field signature and renders its Java form, checking that it prints back to the same signature.
    fn field(signature: &str) -> String {
        match parse_field_signature(signature) {
            Ok(parsed) => {
                assert_eq!(parsed.to_signature(), signature, "round trip");
                parsed.to_string()
            }
            Err(err) => format!("error at {}: {}", err.position, err.kind),
        }
    }

    fn check(render: fn(&str) -> String, cases: &[(&str, &str)]) {
        for (input, expected) in cases {
            assert_eq!(render(input), *expected, "for {input:?}");
        }
    }

    fn type_var(name: &str) -> JavaType {
        JavaType::TypeVar(name.to_owned())
    }

    fn class_type(name: &str, args: Vec<TypeArg>) -> JavaType {
        JavaType::Class(ClassTypeSig { name: InternalName::new(name), args, outer_args: Vec::new() })
    }

    const HASH_MAP: &str = "<K:Ljava/lang/Object;V:Ljava/lang/Object;>Ljava/util/AbstractMap<TK;TV;>;\
        Ljava/util/Map<TK;TV;>;Ljava/lang/Cloneable;Ljava/io/Serializable;";
    const ENUM: &str = "<E:Ljava/lang/Enum<TE;>;>Ljava/lang/Object;Ljava/lang/Comparable<TE;>;Ljava/io/Serializable;";
    const COLLECTIONS_MAX: &str =
        "<T:Ljava/lang/Object;:Ljava/lang/Comparable<-TT;>;>(Ljava/util/Collection<+TT;>;)TT;";
    const OPTIONAL_OR_ELSE_THROW: &str = "<X:Ljava/lang/Throwable;>(Ljava/util/function/Supplier<+TX;>;)TT;^TX;";
    const COMPARATOR_COMPARING: &str = "<T:Ljava/lang/Object;U::Ljava/lang/Comparable<-TU;>;>\
        (Ljava/util/function/Function<-TT;+TU;>;)Ljava/util/Comparator<TT;>;";

    #[test]
    fn class_signatures_print_in_java_form() {
        check(
            class,
            &[
                (
                    HASH_MAP,
                    "<K, V> extends java.util.AbstractMap<K, V> \
                     implements java.util.Map<K, V>, java.lang.Cloneable, java.io.Serializable",
                ),
                (
                    ENUM,
                    "<E extends java.lang.Enum<E>> extends java.lang.Object \
                     implements java.lang.Comparable<E>, java.io.Serializable",
                ),
                (
                    "<K:Ljava/lang/Object;V:Ljava/lang/Object;>Ljava/lang/Object;Ljava/util/Map$Entry<TK;TV;>;",
                    "<K, V> extends java.lang.Object implements java.util.Map.Entry<K, V>",
                ),
                ("Ljava/util/AbstractList<Ljava/lang/String;>;", "extends java.util.AbstractList<java.lang.String>"),
                ("LFoo;", "extends Foo"),
            ],
        );
    }

    #[test]
    fn method_signatures_print_in_java_form() {
        check(
            method,
            &[
                (
                    COLLECTIONS_MAX,
                    "<T extends java.lang.Comparable<? super T>> (java.util.Collection<? extends T>) -> T",
                ),
                (
                    OPTIONAL_OR_ELSE_THROW,
                    "<X extends java.lang.Throwable> (java.util.function.Supplier<? extends X>) -> T throws X",
                ),
                (
                    COMPARATOR_COMPARING,
                    "<T, U extends java.lang.Comparable<? super U>> \
                     (java.util.function.Function<? super T, ? extends U>) -> java.util.Comparator<T>",
                ),
                ("()Ljava/util/Set<Ljava/util/Map$Entry<TK;TV;>;>;", "() -> java.util.Set<java.util.Map.Entry<K, V>>"),
                ("(Ljava/util/Map<+TK;+TV;>;)V", "(java.util.Map<? extends K, ? extends V>) -> void"),
                (
                    "(TK;Ljava/util/function/Function<-TK;+TV;>;)TV;",
                    "(K, java.util.function.Function<? super K, ? extends V>) -> V",
                ),
                (
                    "<T:Ljava/lang/Enum<TT;>;>(Ljava/lang/Class<TT;>;Ljava/lang/String;)TT;",
                    "<T extends java.lang.Enum<T>> (java.lang.Class<T>, java.lang.String) -> T",
                ),
                (
                    "<A:Ljava/lang/Object;>(Ljava/util/function/IntFunction<[TA;>;)[TA;",
                    "<A> (java.util.function.IntFunction<A[]>) -> A[]",
                ),
                ("(IJ[[D)Z", "(int, long, double[][]) -> boolean"),
                (
                    "<E:Ljava/lang/Exception;>()V^TE;^Ljava/io/IOException;",
                    "<E extends java.lang.Exception> () -> void throws E, java.io.IOException",
                ),
                (
                    "<T::Ljava/lang/Runnable;:Ljava/io/Closeable;>(TT;)V",
                    "<T extends java.lang.Runnable & java.io.Closeable> (T) -> void",
                ),
                ("<T:>()V", "<T> () -> void"),
            ],
        );
    }

    #[test]
    fn field_signatures_print_in_java_form() {
        check(
            field,
            &[
                ("[Ljava/util/HashMap$Node<TK;TV;>;", "java.util.HashMap.Node<K, V>[]"),
                ("Ljava/lang/Class<*>;", "java.lang.Class<?>"),
                ("TT;", "T"),
                ("[[TT;", "T[][]"),
                ("Ljava/util/List<+Ljava/lang/Number;>;", "java.util.List<? extends java.lang.Number>"),
                ("Lfoo/Outer<TT;>.Inner<TU;>;", "foo.Outer<T>.Inner<U>"),
                (
                    "Ljava/util/LinkedHashMap<TK;TV;>.LinkedKeyIterator;",
                    "java.util.LinkedHashMap<K, V>.LinkedKeyIterator",
                ),
                ("La/A<TT;>.B.C<TU;>;", "a.A<T>.B.C<U>"),
                ("LFoo<TT;>;", "Foo<T>"),
                ("Lé/Ü<TΩ;>;", "é.Ü<Ω>"),
            ],
        );
    }

    #[test]
    fn inner_class_segments_join_the_name_with_dollar() {
        let ty = parse_field_signature("Lfoo/Outer<TT;>.Inner<TU;>;").unwrap();
        let expected = ClassTypeSig {
            name: InternalName::new("foo/Outer$Inner"),
            args: vec![TypeArg::Exact(type_var("U"))],
            outer_args: vec![vec![TypeArg::Exact(type_var("T"))]],
        };
        assert_eq!(ty, JavaType::Class(expected));
    }

    #[test]
    fn inner_class_segments_without_arguments_equal_the_dollar_spelling() {
        let dotted = parse_field_signature("La/A.B.C<TT;>;").unwrap();
        let dollar = parse_field_signature("La/A$B$C<TT;>;").unwrap();
        assert_eq!(dotted, dollar);
        assert_eq!(dotted.to_signature(), "La/A$B$C<TT;>;");
        // The leading argument-less segment is dropped from `outer_args`, so `.` turns into `$` before it.
        let mixed = parse_field_signature("La/A.B<TT;>.C;").unwrap();
        assert_eq!(mixed.to_signature(), "La/A$B<TT;>.C;");
        assert_eq!(mixed.to_string(), "a.A.B<T>.C");
    }

    #[test]
    fn enum_type_parameter_is_recursive() {
        let enum_sig = parse_class_signature(ENUM).unwrap();
        let expected = TypeParam {
            name: "E".to_owned(),
            class_bound: Some(class_type("java/lang/Enum", vec![TypeArg::Exact(type_var("E"))])),
            interface_bounds: vec![],
        };
        assert_eq!(enum_sig.type_params, vec![expected]);
        assert_eq!(enum_sig.interfaces.len(), 2);
    }

    #[test]
    fn interface_only_bound_has_no_class_bound() {
        let comparing = parse_method_signature(COMPARATOR_COMPARING).unwrap();
        let u = &comparing.type_params[1];
        assert_eq!(u.class_bound, None);
        let comparable = class_type("java/lang/Comparable", vec![TypeArg::Super(type_var("U"))]);
        assert_eq!(u.interface_bounds, vec![comparable.clone()]);
        assert_eq!(u.leftmost_bound(), Some(&comparable));
    }

    #[test]
    fn error_message_quotes_the_signature_and_names_the_position() {
        let err = parse_method_signature("<T:Ljava/lang/Object;>(TT;)Q").unwrap_err();
        assert_eq!(err.to_string(), r#"invalid signature "<T:Ljava/lang/Object;>(TT;)Q" at 27: expected type"#);
    }

    #[test]
    fn malformed_field_signatures_name_the_position() {
        check(
            field,
            &[
                ("", "error at 0: unexpected end, expected reference type"),
                ("I", "error at 0: expected reference type"),
                ("L;", "error at 1: expected identifier"),
                ("Ljava/util/List<>;", "error at 16: expected reference type"),
                ("Ljava/util/List<TT;", "error at 19: unexpected end, expected reference type"),
                ("Ljava/util/List<TT;>", "error at 20: unexpected end, expected ';'"),
                ("Ljava/util/List<I>;", "error at 16: expected reference type"),
                ("TT", "error at 2: unexpected end, expected ';'"),
                ("T;", "error at 1: expected identifier"),
                ("La/B.;", "error at 5: expected identifier"),
                ("La//B;", "error at 3: expected identifier"),
                ("La:b;", "error at 2: expected ';'"),
                ("La<TT;>/b;", "error at 7: expected ';'"),
                ("TT;TU;", "error at 3: trailing characters"),
                ("[V", "error at 1: expected type"),
                ("[", "error at 1: unexpected end, expected type"),
            ],
        );
    }

    #[test]
    fn malformed_method_signatures_name_the_position() {
        check(
            method,
            &[
                ("", "error at 0: unexpected end, expected '('"),
                ("(I)", "error at 3: unexpected end, expected type"),
                ("(V)V", "error at 1: expected type"),
                ("()V^I", "error at 4: expected class type or type variable"),
                ("()V^", "error at 4: unexpected end, expected class type or type variable"),
                ("()VI", "error at 3: trailing characters"),
                ("<>()V", "error at 1: expected identifier"),
                ("<T>()V", "error at 2: expected ':'"),
                // After `T:`, the `I` can only start the name of the next type parameter.
                ("<T:I>()V", "error at 4: expected ':'"),
                ("<T::>()V", "error at 4: expected reference type"),
            ],
        );
    }

    #[test]
    fn malformed_class_signatures_name_the_position() {
        check(
            class,
            &[
                ("", "error at 0: unexpected end, expected class type"),
                ("<T:Ljava/lang/Object;>", "error at 22: unexpected end, expected class type"),
                ("Ljava/lang/Object;X", "error at 18: expected class type"),
                ("TT;", "error at 0: expected class type"),
            ],
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let deep_args = format!("{}TT;{};", "La<".repeat(10_000), ">;".repeat(10_000));
        let err = parse_field_signature(&deep_args).unwrap_err();
        assert_eq!((err.position, err.kind), (3 * (MAX_NESTING + 1), SignatureErrorKind::TooDeeplyNested));
        let deep_array = format!("{}I", "[".repeat(100_000));
        let err = parse_field_signature(&deep_array).unwrap_err();
        assert_eq!((err.position, err.kind), (MAX_NESTING + 1, SignatureErrorKind::TooDeeplyNested));
        let max_array = format!("{}I", "[".repeat(MAX_NESTING));
        assert!(parse_field_signature(&max_array).is_ok());
    }

    #[test]
    fn erasure_replaces_type_variables_by_object_or_bounds() {
        let ty = parse_field_signature("[Ljava/util/List<TT;>;").unwrap();
        assert_eq!(ty.erasure().map(|t| t.to_descriptor()), Some("[Ljava/util/List;".to_owned()));
        let ty = parse_field_signature("[TT;").unwrap();
        assert_eq!(ty.erasure().map(|t| t.to_descriptor()), Some("[Ljava/lang/Object;".to_owned()));
        let number = |name: &str| (name == "T").then(|| FieldType::Object(InternalName::new("java/lang/Number")));
        assert_eq!(ty.erasure_with(&number).map(|t| t.to_descriptor()), Some("[Ljava/lang/Number;".to_owned()));
        assert_eq!(JavaType::Void.erasure(), None);
        assert_eq!(JavaType::Base(BaseType::Long).erasure(), Some(FieldType::Base(BaseType::Long)));
    }

    /// Erases a method signature, taking class type variables from `class_signature`, and renders the descriptor.
    fn erase(class_signature: &str, method_signature: &str) -> Option<String> {
        let class_sig = parse_class_signature(class_signature).unwrap();
        let method_sig = parse_method_signature(method_signature).unwrap();
        let descriptor = method_sig.erasure_with(&|name| class_sig.type_var_erasure(name))?;
        Some(descriptor.to_descriptor())
    }

    #[test]
    fn method_erasure_uses_the_leftmost_bound() {
        let erased = |signature: &str| erase("Ljava/lang/Object;", signature);
        // The leftmost bound of `Collections.max`'s `T` is `Object`, which is why its descriptor returns `Object`.
        assert_eq!(erased(COLLECTIONS_MAX).as_deref(), Some("(Ljava/util/Collection;)Ljava/lang/Object;"));
        assert_eq!(
            erased("<T::Ljava/lang/Comparable<-TT;>;>([TT;)TT;").as_deref(),
            Some("([Ljava/lang/Comparable;)Ljava/lang/Comparable;")
        );
        assert_eq!(erased("<T:Ljava/lang/Number;U:TT;>(TU;)V").as_deref(), Some("(Ljava/lang/Number;)V"));
        assert_eq!(erased("<T:TU;U:TT;>(TT;)V").as_deref(), Some("(Ljava/lang/Object;)V"));
    }

    #[test]
    fn method_erasure_asks_the_class_about_its_type_variables() {
        let class_sig = "<E:Ljava/lang/Enum<TE;>;>Ljava/lang/Object;";
        assert_eq!(erase(class_sig, "(TE;)TE;").as_deref(), Some("(Ljava/lang/Enum;)Ljava/lang/Enum;"));
        // A method type variable hides the class's type variable of the same name.
        assert_eq!(erase(class_sig, "<E:Ljava/lang/Object;>(TE;)V").as_deref(), Some("(Ljava/lang/Object;)V"));
        assert_eq!(erase(HASH_MAP, "(TK;)TV;").as_deref(), Some("(Ljava/lang/Object;)Ljava/lang/Object;"));
    }

    #[test]
    fn erasure_of_a_void_parameter_is_none() {
        let bogus =
            MethodSignature { type_params: vec![], params: vec![JavaType::Void], ret: JavaType::Void, throws: vec![] };
        assert_eq!(bogus.erasure(), None);
    }

    #[test]
    fn descriptors_convert_to_signatures() {
        let descriptor = MethodDescriptor::parse("(I[Ljava/lang/String;)V").unwrap();
        let signature = MethodSignature::from(descriptor.clone());
        assert_eq!(signature.to_signature(), "(I[Ljava/lang/String;)V");
        assert_eq!(signature.to_string(), "(int, java.lang.String[]) -> void");
        assert_eq!(signature.erasure(), Some(descriptor));
    }

    /// Signatures from the JDK and the tests above, for the robustness tests.
    const VALID: &[&str] = &[
        HASH_MAP,
        ENUM,
        COLLECTIONS_MAX,
        OPTIONAL_OR_ELSE_THROW,
        COMPARATOR_COMPARING,
        "<E:Ljava/lang/Exception;>()V^TE;^Ljava/io/IOException;",
        "[Ljava/util/HashMap$Node<TK;TV;>;",
        "Lfoo/Outer<TT;>.Inner<TU;>;",
        "Lé/Ü<TΩ;>;",
    ];

    fn parse_all(input: &str) {
        let _ = parse_class_signature(input);
        let _ = parse_method_signature(input);
        let _ = parse_field_signature(input);
    }

    #[test]
    fn truncated_prefixes_of_valid_signatures_never_panic() {
        for signature in VALID {
            for (end, _) in signature.char_indices() {
                parse_all(&signature[..end]);
                parse_all(&signature[end..]);
                if signature.starts_with('L') || signature.starts_with('[') {
                    assert!(parse_field_signature(&signature[..end]).is_err());
                }
            }
        }
    }

    #[test]
    fn mutated_and_random_signatures_never_panic() {
        const ALPHABET: &[&str] =
            &["L", "T", "[", ";", "<", ">", ":", "+", "-", "*", "^", ".", "(", ")", "/", "V", "I", "J", "a", "é"];
        for signature in VALID {
            for (i, c) in signature.char_indices() {
                for replacement in ALPHABET {
                    let mutated = format!("{}{replacement}{}", &signature[..i], &signature[i + c.len_utf8()..]);
                    parse_all(&mutated);
                }
            }
        }
        // A fixed linear congruential generator keeps the test deterministic.
        let mut state: u64 = 0x5eed;
        let mut next = move || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize
        };
        for _ in 0..20_000 {
            let len = next() % 32;
            let input: String = (0..len).map(|_| ALPHABET[next() % ALPHABET.len()]).collect();
            parse_all(&input);
        }
    }
}
