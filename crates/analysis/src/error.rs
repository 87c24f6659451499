//! The analysis error type.
//!
//! Analysis is pure: the only failures are malformed inputs (a `Code`
//! attribute that does not parse, bytecode that does not decode, a jump or
//! exception range that points outside the code). Every error names the class,
//! and where known the method (name and descriptor) and bytecode index.

use std::fmt;

use model::bytecode::BytecodeError;
use model::classfile::ClassFileError;
use model::names::InternalName;

/// A failure to analyse one class.
///
/// Its `Display` is the whole message (location, kind and the decoder's
/// error, if any), so it has no [`source`](std::error::Error::source): an
/// error chain printed with `{:#}` shows each part once.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {kind}")]
pub struct AnalysisError {
    /// Where the problem is.
    pub location: Location,
    /// What the problem is.
    pub kind: ErrorKind,
}

/// Class, method and bytecode index of an [`AnalysisError`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// Internal name of the class (`org/apache/commons/lang3/CharUtils`).
    pub class: InternalName,
    /// Method name and descriptor (`toChar(Ljava/lang/Character;)C`), if the
    /// problem is inside a method.
    pub method: Option<String>,
    /// Bytecode index of the offending instruction or table entry, if known.
    pub bci: Option<u32>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.class.as_str())?;
        if let Some(method) = &self.method {
            write!(f, ".{method}")?;
        }
        if let Some(bci) = self.bci {
            write!(f, " at bytecode index {bci}")?;
        }
        Ok(())
    }
}

/// The kinds of [`AnalysisError`]. Like [`AnalysisError`], each prints
/// the error it wraps and has no `source`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A `Code` attribute (or a table nested in it) is malformed.
    #[error("{0}")]
    ClassFile(ClassFileError),
    /// The bytecode does not decode.
    #[error("undecodable bytecode: {0}")]
    Bytecode(BytecodeError),
    /// A jump or switch target is not the start of an instruction.
    #[error("jump target {target} is not the start of an instruction")]
    BadJumpTarget {
        /// The target bytecode index.
        target: u32,
    },
    /// An exception-table row whose range or handler is not on instruction
    /// boundaries, or whose range is empty or reversed.
    #[error("exception-table row [{start_pc}, {end_pc}) -> {handler_pc} does not fit the code")]
    BadExceptionRange {
        /// First bytecode index covered.
        start_pc: u32,
        /// Bytecode index after the last one covered.
        end_pc: u32,
        /// Bytecode index of the handler.
        handler_pc: u32,
    },
    /// A method has a `Code` attribute with no instructions.
    #[error("empty code")]
    EmptyCode,
}

impl From<ClassFileError> for ErrorKind {
    fn from(e: ClassFileError) -> ErrorKind {
        ErrorKind::ClassFile(e)
    }
}

impl From<BytecodeError> for ErrorKind {
    fn from(e: BytecodeError) -> ErrorKind {
        ErrorKind::Bytecode(e)
    }
}

impl AnalysisError {
    /// An error at `location` of kind `kind`.
    pub fn new(location: Location, kind: impl Into<ErrorKind>) -> AnalysisError {
        AnalysisError { location, kind: kind.into() }
    }
}

impl Location {
    /// The location of a whole class.
    pub fn class(class: &str) -> Location {
        Location { class: InternalName::new(class), method: None, bci: None }
    }

    /// The location of a method (`name` and `descriptor` concatenated).
    pub fn method(class: &str, name: &str, descriptor: &str) -> Location {
        Location { class: InternalName::new(class), method: Some(format!("{name}{descriptor}")), bci: None }
    }

    /// This location narrowed to a bytecode index.
    pub fn at(&self, bci: u32) -> Location {
        Location { bci: Some(bci), ..self.clone() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_names_class_method_and_bci() {
        let location = Location::method("p/A", "f", "(I)V").at(7);
        let err = AnalysisError::new(location, ErrorKind::BadJumpTarget { target: 99 });
        assert_eq!(err.to_string(), "p/A.f(I)V at bytecode index 7: jump target 99 is not the start of an instruction");
    }

    /// The error and its sources joined the way `anyhow` prints `{:#}`.
    fn chain(err: &dyn std::error::Error) -> String {
        let mut text = err.to_string();
        let mut source = err.source();
        while let Some(e) = source {
            text = format!("{text}: {e}");
            source = e.source();
        }
        text
    }

    /// Printed as a chain (the binary prints `{:#}`), each part of the
    /// message appears once.
    #[test]
    fn an_error_chain_shows_the_inner_error_once() {
        use std::error::Error;
        let location = Location::method("p/A", "f", "(I)V");
        let range = ErrorKind::BadExceptionRange { start_pc: 1, end_pc: 1, handler_pc: 0 };
        let decode = BytecodeError::BadTarget { bci: 1, target: 2 };
        let class_file = ClassFileError::Truncated { offset: 3, what: "LineNumberTable" };
        for (err, inner) in [
            (AnalysisError::new(location.clone(), range), "does not fit the code"),
            (AnalysisError::new(location.clone(), decode), "is not the start of an instruction"),
            (AnalysisError::new(location.clone(), class_file), "needs more bytes"),
        ] {
            let text = chain(&err);
            assert_eq!(text.matches(inner).count(), 1, "{text}");
            assert!(text.starts_with("p/A.f(I)V: "), "{text}");
            assert!(err.kind.source().is_none(), "{text}");
        }
    }
}
