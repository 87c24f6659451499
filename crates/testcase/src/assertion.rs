//! Regression assertions attached to a test case: what a later version of
//! the class under test must still do. They are generated from observed
//! values (`oracle` stage) and printed as JUnit assertions (`junit` stage).

use model::names::BinaryName;
use serde::{Deserialize, Serialize};

use crate::ir::{FieldRef, MethodRef, Primitive, VarId};

/// An expected value, as it will be written in Java source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Literal {
    /// `null`, checked with `assertNull`.
    Null,
    /// A primitive; compared with `assertEquals` (floats and doubles with a
    /// delta of 0.01, booleans with `assertTrue`/`assertFalse`).
    Primitive(Primitive),
    /// A string, compared with `assertEquals`.
    String(String),
    /// An enum constant, compared with `assertEquals` (or `assertSame`).
    Enum {
        /// The enum class.
        class: BinaryName,
        /// The constant's name (`RED`).
        name: String,
    },
}

/// What an assertion checks about the value of statement `var`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum AssertionKind {
    /// The value itself equals `expected` (`assertNull` for `Literal::Null`).
    Value(Literal),
    /// The value is not null (`assertNotNull`).
    NotNull,
    /// Calling the inspector `method` (no arguments) on the value gives `expected`.
    Inspector {
        /// An instance method of the value's class without parameters (`size()`, `isEmpty()`).
        method: MethodRef,
        /// The value it returns.
        expected: Literal,
    },
    /// The public field `field` of the value (or the static field when the
    /// field is static) equals `expected`.
    Field {
        /// The field to read.
        field: FieldRef,
        /// The value it holds.
        expected: Literal,
    },
    /// The two values are equal (`assertEquals(other, var)`) or not
    /// (`assertFalse(var.equals(other))`).
    EqualsOther {
        /// The value compared with, of an earlier statement.
        other: VarId,
        /// Whether `var.equals(other)` holds.
        equal: bool,
    },
    /// The array's elements are `expected`, in order (`assertArrayEquals`);
    /// for arrays of primitives, observed through `Arrays.toString` (or
    /// `String.valueOf` for `char[]`).
    ArrayElements(Vec<Literal>),
    /// The array's length is `expected` (`assertEquals(n, array.length)`);
    /// for arrays of references, observed through `Array.getLength`.
    ArrayLength(i32),
    /// Statement `var` throws an exception of class `exception` (the test
    /// ends there; JUnit: `try { …; fail(…); } catch (X e) { }` or
    /// `assertThrows`).
    Throws {
        /// The class of the exception thrown (not a supertype).
        exception: BinaryName,
        /// Its message, when asserted (`assertEquals(msg, e.getMessage())`):
        /// the same in every observation and written by the code rather
        /// than by the JVM (see `oracle::assertions`).
        /// (Always serialised: workers read test cases in a format without
        /// field names, where a skipped field would shift the rest.)
        #[serde(default)]
        message: Option<String>,
    },
}

/// One assertion on the value (or the exception) of statement `var`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Assertion {
    /// The statement whose value (or exception) is checked.
    pub var: VarId,
    /// What is checked.
    pub kind: AssertionKind,
}

impl Assertion {
    /// The values the assertion refers to: `var`, and `other` for [`AssertionKind::EqualsOther`].
    pub fn vars(&self) -> impl Iterator<Item = VarId> + '_ {
        let other = match self.kind {
            AssertionKind::EqualsOther { other, .. } => Some(other),
            _ => None,
        };
        std::iter::once(self.var).chain(other)
    }

    /// The assertion with every value it refers to rewritten by `f`, or
    /// `None` when `f` drops one of them.
    pub fn map_vars(&self, mut f: impl FnMut(VarId) -> Option<VarId>) -> Option<Assertion> {
        let mut out = self.clone();
        out.var = f(self.var)?;
        if let AssertionKind::EqualsOther { other, .. } = &mut out.kind {
            *other = f(*other)?;
        }
        Some(out)
    }
}
