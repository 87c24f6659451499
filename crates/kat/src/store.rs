//! The stored form of the graph: a versioned, compressed file shipped in
//! the repository (`data/jdk17.kg`), so that users need no JDK sources.
//!
//! Layout: the magic bytes `FSKG`, the format version as a little-endian
//! `u32`, then the [`KnowledgeGraph`] serialised with `postcard` and
//! compressed with DEFLATE (zlib).

use std::io::{Read, Write};

use crate::error::KatError;
use crate::graph::KnowledgeGraph;

/// Magic bytes at the start of a graph file.
pub const MAGIC: &[u8; 4] = b"FSKG";

/// Format version; bump it whenever a stored type changes.
pub const FORMAT_VERSION: u32 = 3;

/// The largest decompressed graph accepted (bytes); the JDK 17 graph is
/// about 7 MB.
pub const MAX_RAW_BYTES: u64 = 256 << 20;

/// Errors reading a graph file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The file does not start with [`MAGIC`].
    #[error("not a ferrosuite knowledge graph (no FSKG header)")]
    NotAGraph,
    /// The file has another format version.
    #[error(
        "knowledge graph format {found} is not supported (this build reads format {FORMAT_VERSION}); rebuild it with `ferrosuite kat build-kg`"
    )]
    Version {
        /// The version the file has.
        found: u32,
    },
    /// The content after the header does not decompress or decode.
    #[error("corrupt knowledge graph: {0}")]
    Corrupt(Corruption),
}

/// What is wrong with the content of a corrupt graph file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Corruption {
    /// It does not decompress (zlib).
    #[error(transparent)]
    Deflate(std::io::Error),
    /// The decompressed bytes do not decode (postcard).
    #[error(transparent)]
    Decode(postcard::Error),
}

/// Serialises a graph to bytes.
///
/// # Errors
/// [`KatError::Encode`] when serialisation fails and [`KatError::Compress`]
/// when compression does (neither is expected for valid graphs).
pub fn to_bytes(graph: &KnowledgeGraph) -> Result<Vec<u8>, KatError> {
    let raw = postcard::to_allocvec(graph)?;
    let mut out = Vec::with_capacity(raw.len() / 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    let mut enc = flate2::write::ZlibEncoder::new(out, flate2::Compression::best());
    enc.write_all(&raw)?;
    Ok(enc.finish()?)
}

/// Reads a graph from bytes written by [`to_bytes`].
///
/// # Errors
/// [`StoreError`] for a wrong header, another format version or corrupt
/// content.
pub fn from_bytes(bytes: &[u8]) -> Result<KnowledgeGraph, StoreError> {
    if bytes.len() < 8 || &bytes[..4] != MAGIC {
        return Err(StoreError::NotAGraph);
    }
    let found = u32::from_le_bytes(bytes[4..8].try_into().unwrap());
    if found != FORMAT_VERSION {
        return Err(StoreError::Version { found });
    }
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&bytes[8..])
        .read_to_end(&mut raw)
        .map_err(|e| StoreError::Corrupt(Corruption::Deflate(e)))?;
    let mut graph: KnowledgeGraph =
        postcard::from_bytes(&raw).map_err(|e| StoreError::Corrupt(Corruption::Decode(e)))?;
    graph.reindex();
    Ok(graph)
}
