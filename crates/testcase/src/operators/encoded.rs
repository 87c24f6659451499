//! Content in a format the class path's own encoders write: a decoder (an
//! `XZInputStream`, a seekable reader of `.xz` files, an archive reader)
//! stops at its first check on random bytes or lines of text, but reads on
//! through what the same library's encoder wrote. When the test cluster
//! has encoders ([`crate::TestCluster::encoders`]), some temporary files
//! get their content through one, with ordinary statements the emitted test
//! shows (`new FileOutputStream(file)`, `new XZOutputStream(out, options)`,
//! `write(text.getBytes())`, `close()`), and some input streams are a
//! `FileInputStream` over such a file.

use rand::Rng;
use rand::seq::IndexedRandom;

use super::factory::Factory;
use super::jdk::{byte_array, call, constructor, object};
use crate::ir::{FileHandle, Statement, StatementKind, VarId};

/// Probability that a temporary file that gets content gets it through an
/// encoder, when there is one.
pub(super) const P_ENCODED_FILE: f64 = 0.5;
/// Probability that a new `InputStream` reads an encoded temporary file,
/// when there is an encoder.
pub(super) const P_ENCODED_STREAM: f64 = 0.3;

impl<'a, R: Rng + ?Sized> Factory<'a, R> {
    /// Statements that write a few lines of text through a random encoder
    /// into `file` (a `java.io.File`), inserted at `*pos`: the file's
    /// stream, the encoder (its other arguments made as usual), the write
    /// and the close. `false` (nothing inserted) without encoders.
    pub(super) fn fill_encoded(&mut self, file: VarId, pos: &mut usize) -> bool {
        let Some(encoder) = self.cluster.encoders().choose(self.rng).cloned() else { return false };
        let stream = self.insert(pos, constructor("java.io.FileOutputStream", "(Ljava/io/File;)V", vec![file]));
        let mut args = vec![stream];
        for param in &encoder.params()[1..] {
            args.push(self.value(param, pos, 1, &[]));
        }
        let Some(statement) = encoder.statement(None, args) else { return true };
        let encoder = self.insert(pos, statement);
        let text = StatementKind::String(self.text());
        let text = self.insert(pos, Statement { kind: text, ty: object("java.lang.String") });
        let bytes = call(text, "java.lang.String", "getBytes", "()[B", vec![]);
        let bytes = self.insert(pos, Statement { ty: byte_array(), ..bytes });
        self.insert(pos, call(encoder, "java.io.OutputStream", "write", "([B)V", vec![bytes]));
        self.insert(pos, call(encoder, "java.io.OutputStream", "close", "()V", vec![]));
        true
    }

    /// A new `FileInputStream` over a new temporary file whose content an
    /// encoder wrote, inserted at `*pos`; `None` (nothing inserted) without
    /// encoders.
    pub(super) fn encoded_input_stream(&mut self, pos: &mut usize) -> Option<VarId> {
        if self.cluster.encoders().is_empty() {
            return None;
        }
        let file = self.insert_kind(pos, StatementKind::TempFile(FileHandle::File));
        self.fill_encoded(file, pos);
        Some(self.insert(pos, constructor("java.io.FileInputStream", "(Ljava/io/File;)V", vec![file])))
    }
}
