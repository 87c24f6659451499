//! The errors of building and storing the knowledge graph.
//!
//! Reading `src.zip` fails with a [`SourceError`] and reading a stored graph
//! with a [`StoreError`]; [`KatError`] covers building a graph (which reads
//! `src.zip` first) and writing one.

pub use crate::source::SourceError;
pub use crate::store::StoreError;

/// Errors of [`crate::build::build`], [`crate::declare::Declarations::add_file`]
/// and [`crate::store::to_bytes`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum KatError {
    /// `src.zip` is missing, not a zip archive, or lacks a module.
    #[error(transparent)]
    Source(#[from] SourceError),
    /// tree-sitter rejected the Java grammar (a version mismatch between
    /// `tree-sitter` and `tree-sitter-java`).
    #[error(transparent)]
    Language(#[from] tree_sitter::LanguageError),
    /// tree-sitter returned no syntax tree for a compilation unit (it does
    /// so only when parsing is cancelled).
    #[error("tree-sitter gave no tree")]
    NoTree {
        /// The module of the compilation unit (`java.base`).
        module: String,
    },
    /// The graph could not be serialised with `postcard`.
    #[error(transparent)]
    Encode(#[from] postcard::Error),
    /// Compressing the serialised graph failed.
    #[error(transparent)]
    Compress(#[from] std::io::Error),
}
