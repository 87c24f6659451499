//! The test-case IR: the test cases that the search mutates, the executor
//! runs and the JUnit writer prints.
//!
//! # Test cases
//!
//! A [`TestCase`] is a straight-line Java method body without control flow:
//! a list of [`Statement`]s run in order, plus metadata for later stages
//! ([`TestCase::call_under_test`]). A test case is a small value type:
//! stages that change one (mutation, minimisation) build a new one.
//!
//! # Statements and values
//!
//! A [`Statement`] is one Java statement with at most one side effect and at
//! most one result: a [`StatementKind`] (what it does) and a type `ty`.
//! There are no named local variables: the value of statement `i` is named
//! [`VarId`]`(i)`, printed `vi`, and a later statement uses it by that id.
//! The same id names the statement itself, whether or not it produces a
//! value (the call under test, errors).
//!
//! **The rule: a statement uses only values of earlier statements that
//! produce values.** If statement `i` uses `VarId(j)` (as receiver,
//! argument, array or stored value, see [`StatementKind::uses`]), then
//! `j < i` and statement `j` produces a value. This is the
//! EvoSuite/Pynguin invariant: there are no forward references and no
//! cycles, each value is defined once, and deleting a statement means
//! deleting the statements that use it. [`validate()`] checks the rule once;
//! after that, code indexes a test case with `test_case[var]` and never
//! needs an `Option`.
//!
//! | kind | Java | value (erased type) |
//! |---|---|---|
//! | [`Primitive`](StatementKind::Primitive) | `v0 = 42` | the primitive type |
//! | [`Boxed`](StatementKind::Boxed) | `v0 = java.lang.Integer.valueOf(42)` | the box class |
//! | [`String`](StatementKind::String) | `v1 = "a\n\"b\""` | `java.lang.String` |
//! | [`Null`](StatementKind::Null) | `v2 = (java.lang.String) null` | the given reference type |
//! | [`EnumConstant`](StatementKind::EnumConstant) | `v5 = org.Foo.RED` | the enum class |
//! | [`ClassLiteral`](StatementKind::ClassLiteral) | `v5 = org.Foo.class`, `int[].class`, `void.class` | `java.lang.Class` |
//! | [`Reflect`](StatementKind::Reflect) | `v5 = org.Foo.class.getDeclaredMethod("bar", int.class)` | `java.lang.reflect.Method`, `Constructor` or `Field` |
//! | [`Lambda`](StatementKind::Lambda) | `v5 = (java.util.function.Function) (a) -> v1` | the functional interface |
//! | [`TempFile`](StatementKind::TempFile) | `v5 = <temporary file>` | `java.io.File` or `java.nio.file.Path` |
//! | [`TempDir`](StatementKind::TempDir) | `v5 = <temporary folder>` | `java.io.File` or `java.nio.file.Path` |
//! | [`NewArray`](StatementKind::NewArray) | `v6 = new int[3]` | the array type |
//! | [`ArrayStore`](StatementKind::ArrayStore) | `v6[0] = v0` | none |
//! | [`Constructor`](StatementKind::Constructor) | `v3 = new java.util.ArrayList()` | the owner class |
//! | [`StaticCall`](StatementKind::StaticCall) | `v7 = org.Foo.bar(v0, v1)` | the return type; none for `void` |
//! | [`Call`](StatementKind::Call) | `v4 = v3.add(v1)` | the return type; none for `void` |
//! | [`FieldGet`](StatementKind::FieldGet) | `v8 = v3.field`, `v8 = org.Foo.count` | the field type |
//! | [`FieldSet`](StatementKind::FieldSet) | `org.Foo.count = v0` | none |
//!
//! [`StatementKind::produces_value`] and [`StatementKind::value_type`] give
//! the last column. Values are never converted: an `int` argument needs an
//! `int` value (no widening), an `Integer` is a reference (no unboxing).
//!
//! # Types
//!
//! Methods and fields are referenced the way the JVM links them: owner
//! class, name and erased descriptor ([`MethodRef`], [`FieldRef`]), so that
//! overloads are unambiguous and the executor can resolve them directly.
//! A statement's `ty` is the static type of its value as a
//! [`JavaType`](model::signature::JavaType), possibly generic
//! (`java.util.List<java.lang.String>`), or `void` when it produces none.
//! Its erasure must equal [`StatementKind::value_type`], except that calls
//! and field reads may narrow it to a subtype (a generic method returning
//! `T` erases to `java.lang.Object`, but the test case may know it is a
//! `String`). Validation treats a value as being of the erasure of its `ty`;
//! where that is narrower than the descriptor's, the executor must check the
//! runtime class before passing the value on, as javac's `checkcast` would
//! (a mismatch is a `ClassCastException` of the statement, not a crash).
//!
//! # Validity
//!
//! [`validate()`] checks a test case against a
//! [`ClassPath`](model::classpath::ClassPath) (with the JDK on it, see
//! [`ClassPath::with_jdk`](model::classpath::ClassPath::with_jdk)): the rule
//! above, that every class, method, field and enum constant exists with the
//! right static-ness, and that argument, receiver and stored values are
//! assignable ([`Validator::is_assignable`]). A test case that fails is
//! never executed; its [`ValidationError`] names the statement. Validation
//! does not decide whether a call will throw (a `null` receiver, an index
//! past the end of an array the test did not create): exceptions are
//! outcomes of execution, not errors.
//!
//! # Text form
//!
//! `Display` for [`TestCase`] prints one Java-like line per statement, as
//! in the table above, with literals in Java syntax ([`literal`]); logs,
//! errors and snapshots share it. `Display` for [`Statement`] leaves out
//! the `vN = ` that [`Statement::numbered`] adds.
//!
//! ```
//! use testcase::{MethodRef, TestCaseBuilder};
//!
//! let mut b = TestCaseBuilder::new();
//! let list = b.construct(MethodRef::parse("java.util.ArrayList", "<init>", "()V").unwrap(), &[]);
//! let text = b.string("a\n\"b\"");
//! let add = b.call(list, MethodRef::parse("java.util.ArrayList", "add", "(Ljava/lang/Object;)Z").unwrap(), &[text]);
//! b.call_under_test(add);
//! let test_case = b.build();
//! assert_eq!(
//!     test_case.to_string(),
//!     "v0 = new java.util.ArrayList()\nv1 = \"a\\n\\\"b\\\"\"\nv2 = v0.add(v1)  // call under test\n",
//! );
//! ```
//!
//! # Modules
//!
//! - [`ir`]: the types and their queries (uses, produced value, ids).
//! - [`builder`]: [`TestCaseBuilder`], typing each statement from its descriptor.
//! - [`validate`](mod@validate): [`validate()`], [`Validator`] and the errors.
//! - [`literal`]: Java literals for primitives, chars and strings, and the source of lambdas.
//! - `functional` (private): which interfaces are functional, and their
//!   abstract method, for the test cluster and [`Validator`].
//! - [`assertion`]: regression assertions attached to a test case.
//! - `display` (private): the `Display` impls of the text form.
//! - `assignability` (private): the assignability rule that [`Validator`] and
//!   [`TestCluster`] share.
//! - [`cluster`]: [`TestCluster`], what tests of a class under test call and
//!   how to obtain a value of every type they need.
//! - [`seeds`]: [`Seeds`], constant pools (static and dynamic) for values.
//! - [`operators`]: random tests, mutation, crossover and the edits the
//!   search needs; all randomness from a caller's RNG.
//!
//! # Variation
//!
//! The search makes and changes test cases only through [`operators`],
//! which take a [`TestCluster`] (built once per class under test by
//! [`TestCluster::build`]) and [`Seeds`]. Every operator returns a new,
//! renumbered test case that keeps the rule above and passes
//! [`Validator`]; the property test in `operators` checks this on real
//! classes.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod assertion;
mod assignability;
pub mod builder;
pub mod cluster;
mod display;
mod functional;
pub mod ir;
pub mod literal;
pub mod operators;
pub mod seeds;
pub mod validate;

#[cfg(test)]
mod testutil;

pub use builder::TestCaseBuilder;
pub use cluster::{Callable, ClusterError, ClusterOptions, Generator, TestCluster};
pub use display::Numbered;
pub use ir::*;
pub use seeds::{SeedOptions, Seeds};
pub use validate::{StatementError, ValidationError, Validator, validate};
