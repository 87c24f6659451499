//! Content for the temporary files tests make: an empty file leaves the
//! code that reads files at its first check, so half of the files get a few
//! lines of text, written with ordinary statements the emitted test shows
//! (`new FileWriter(file)`, `write(text)`, `close()`). The file is the
//! test's own temporary file (`StatementKind::TempFile`), the one place a
//! test may write. A few strings are that file's path, for the methods that
//! take a file name as a `String` (`parseFile(String fileName)`) and read
//! nothing from any other string. With the class path's own encoders, half
//! of the files with content get it through one (`encoded`).

use model::descriptor::FieldType;
use model::signature::JavaType;
use rand::Rng;

use super::factory::Factory;
use super::values;
use crate::ir::{FileHandle, MethodRef, Statement, StatementKind, VarId};

/// Probability that a new temporary file gets content.
const P_CONTENT: f64 = 0.5;
/// The most lines of content.
const MAX_LINES: usize = 4;
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
        let m = |owner: &str, name: &str, descriptor: &str| {
            MethodRef::parse(owner, name, descriptor).expect("a JDK method")
        };
        let object =
            |class: &str| JavaType::from(FieldType::Object(model::names::BinaryName::new(class).to_internal()));
        let file = match handle {
            FileHandle::File => file,
            FileHandle::Path => {
                let to_file = m("java.nio.file.Path", "toFile", "()Ljava/io/File;");
                let kind = StatementKind::Call { receiver: file, method: to_file, args: Vec::new() };
                self.insert(pos, Statement { kind, ty: object("java.io.File") })
            }
        };
        if !self.cluster.encoders().is_empty()
            && self.rng.random_bool(super::encoded::P_ENCODED_FILE)
            && self.fill_encoded(file, pos)
        {
            return;
        }
        let text = StatementKind::String(self.text());
        let text = self.insert(pos, Statement { kind: text, ty: object("java.lang.String") });
        let open = m("java.io.FileWriter", "<init>", "(Ljava/io/File;)V");
        let writer = self.insert(
            pos,
            Statement {
                kind: StatementKind::Constructor { method: open, args: vec![file] },
                ty: object("java.io.FileWriter"),
            },
        );
        let write = m("java.io.Writer", "write", "(Ljava/lang/String;)V");
        let close = m("java.io.OutputStreamWriter", "close", "()V");
        for (method, args) in [(write, vec![text]), (close, Vec::new())] {
            let kind = StatementKind::Call { receiver: writer, method, args };
            self.insert(pos, Statement { kind, ty: JavaType::Void });
        }
    }

    /// A new temporary file, perhaps with content, and its path as a
    /// string (`file.getPath()`), inserted at `*pos`; the string's variable.
    pub(super) fn file_name(&mut self, pos: &mut usize) -> VarId {
        let file = self.insert_kind(pos, StatementKind::TempFile(FileHandle::File));
        self.maybe_fill_file(file, FileHandle::File, pos);
        let get_path = MethodRef::parse("java.io.File", "getPath", "()Ljava/lang/String;").expect("a JDK method");
        let kind = StatementKind::Call { receiver: file, method: get_path, args: Vec::new() };
        let string = FieldType::Object(model::names::InternalName::new("java/lang/String"));
        self.insert(pos, Statement { kind, ty: JavaType::from(string) })
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
