//! Content for the temporary files tests make: an empty file leaves the
//! code that reads files at its first check, so half of the files get a few
//! lines of text, written with ordinary statements the emitted test shows
//! (`new FileWriter(file)`, `write(text)`, `close()`). The file is the
//! test's own temporary file (`StatementKind::TempFile`), the one place a
//! test may write. A few strings are that file's path, for the methods that
//! take a file name as a `String` (`parseFile(String fileName)`) and read
//! nothing from any other string. With the class path's own encoders, half
//! of the files with content get it through one (`encoded`). For a class
//! that works with folders (`TestCluster::uses_folders`), a quarter of
//! the `File` and `Path` values are a new folder instead
//! (`StatementKind::TempDir`), half of them holding one or two temporary
//! files (`File.createTempFile(prefix, suffix, folder)`, which refuses a
//! prefix or suffix that would leave the folder), for the code that lists,
//! walks or deletes folders.

use rand::Rng;

use super::factory::Factory;
use super::jdk::{call, constructor, object};
use super::values;
use crate::ir::{FileHandle, Statement, StatementKind, VarId};

/// Probability that a new temporary file gets content.
const P_CONTENT: f64 = 0.5;
/// The most lines of content.
const MAX_LINES: usize = 4;
/// Probability that a new `File` or `Path` value is a folder, for a class
/// that works with folders.
pub(super) const P_DIRECTORY: f64 = 0.25;
/// The most files a new folder gets.
const MAX_FILES_IN_DIR: usize = 2;

/// Probability that a new string is the path of a new temporary file
/// ([`Factory::file_name`]) instead of a literal.
pub(super) const P_FILE_NAME: f64 = 0.05;

impl<'a, R: Rng + ?Sized> Factory<'a, R> {
    /// After the temporary file `file` (handed out as `handle`) at `*pos - 1`:
    /// with probability [`P_CONTENT`], statements that write 1 to
    /// [`MAX_LINES`] lines of text into it, inserted at `*pos`.
    pub(super) fn maybe_fill_file(&mut self, file: VarId, handle: FileHandle, pos: &mut usize) {
        if !self.rng.random_bool(P_CONTENT) {
            return;
        }
        let file = self.as_file(file, handle, pos);
        if !self.cluster.encoders().is_empty()
            && self.rng.random_bool(super::encoded::P_ENCODED_FILE)
            && self.fill_encoded(file, pos)
        {
            return;
        }
        let text = StatementKind::String(self.text());
        let text = self.insert(pos, Statement { kind: text, ..string() });
        let writer = self.insert(pos, constructor("java.io.FileWriter", "(Ljava/io/File;)V", vec![file]));
        self.insert(pos, call(writer, "java.io.Writer", "write", "(Ljava/lang/String;)V", vec![text]));
        self.insert(pos, call(writer, "java.io.OutputStreamWriter", "close", "()V", Vec::new()));
    }

    /// After the temporary folder `dir` (handed out as `handle`) at
    /// `*pos - 1`: with probability [`P_CONTENT`], statements that make 1 to
    /// [`MAX_FILES_IN_DIR`] temporary files in it, each perhaps with content
    /// ([`Self::maybe_fill_file`]), inserted at `*pos`.
    pub(super) fn maybe_fill_dir(&mut self, dir: VarId, handle: FileHandle, pos: &mut usize) {
        if !self.rng.random_bool(P_CONTENT) {
            return;
        }
        let dir = self.as_file(dir, handle, pos);
        for _ in 0..self.rng.random_range(1..=MAX_FILES_IN_DIR) {
            let prefix = self.insert(pos, Statement { kind: StatementKind::String("ferrosuite".into()), ..string() });
            let suffix = self.insert(pos, Statement { kind: StatementKind::String(".tmp".into()), ..string() });
            let create = StatementKind::StaticCall {
                method: super::jdk::method(
                    "java.io.File",
                    "createTempFile",
                    "(Ljava/lang/String;Ljava/lang/String;Ljava/io/File;)Ljava/io/File;",
                ),
                args: vec![prefix, suffix, dir],
            };
            let file = self.insert(pos, Statement { kind: create, ty: object("java.io.File") });
            self.maybe_fill_file(file, FileHandle::File, pos);
        }
    }

    /// `file` as a `java.io.File`: itself, or a `toFile()` call inserted at
    /// `*pos` when `handle` says it is a `Path`.
    fn as_file(&mut self, file: VarId, handle: FileHandle, pos: &mut usize) -> VarId {
        match handle {
            FileHandle::File => file,
            FileHandle::Path => {
                let to_file = call(file, "java.nio.file.Path", "toFile", "()Ljava/io/File;", Vec::new());
                self.insert(pos, Statement { ty: object("java.io.File"), ..to_file })
            }
        }
    }

    /// A new temporary file, perhaps with content, and its path as a
    /// string (`file.getPath()`), inserted at `*pos`; the string's variable.
    pub(super) fn file_name(&mut self, pos: &mut usize) -> VarId {
        let file = self.insert_kind(pos, StatementKind::TempFile(FileHandle::File));
        self.maybe_fill_file(file, FileHandle::File, pos);
        let get_path = call(file, "java.io.File", "getPath", "()Ljava/lang/String;", Vec::new());
        self.insert(pos, Statement { ty: object("java.lang.String"), ..get_path })
    }

    /// 1 to [`MAX_LINES`] lines (strings of the seed pools or random ones),
    /// each ended by `\n`, sometimes `\r\n`, the last one sometimes not.
    pub(super) fn text(&mut self) -> String {
        let mut text = String::new();
        for i in 0..self.rng.random_range(1..=MAX_LINES) {
            if i > 0 {
                text.push_str(if self.rng.random_bool(0.2) { "\r\n" } else { "\n" });
            }
            text.push_str(&values::random_string(self.seeds, self.rng));
        }
        if self.rng.random_bool(0.5) {
            text.push('\n');
        }
        text
    }
}

/// An empty string statement, typed `String`, for `Statement { kind, ..string() }`.
fn string() -> Statement {
    Statement { kind: StatementKind::String(String::new()), ty: object("java.lang.String") }
}
