//! The byte cursor under the descriptor and signature parsers, with the errors both report the same way.

use std::marker::PhantomData;

/// An error kind that has the three defects a [`Cursor`] reports itself, and the error it goes into.
pub(crate) trait CursorErrorKind: Sized {
    /// The error a parser returns, holding the input, a byte position and a kind.
    type Error;

    /// The input has another character where it needs `what`.
    fn expected(what: &'static str) -> Self;

    /// The input ends where it needs `what`.
    fn unexpected_end(what: &'static str) -> Self;

    /// The input goes on after a complete element.
    fn trailing_characters() -> Self;

    /// The error of this kind at byte `position` of `input`.
    fn at(self, input: &str, position: usize) -> Self::Error;
}

/// Implements [`CursorErrorKind`] for `$kind`, an enum with `Expected`, `UnexpectedEnd` and `TrailingCharacters` variants, whose error `$error` holds the input in its field `$input`.
macro_rules! impl_cursor_error_kind {
    ($kind:ident, $error:ident, $input:ident) => {
        impl $crate::cursor::CursorErrorKind for $kind {
            type Error = $error;

            fn expected(what: &'static str) -> Self {
                $kind::Expected(what)
            }

            fn unexpected_end(what: &'static str) -> Self {
                $kind::UnexpectedEnd(what)
            }

            fn trailing_characters() -> Self {
                $kind::TrailingCharacters
            }

            fn at(self, input: &str, position: usize) -> $error {
                $error { $input: input.to_owned(), position, kind: self }
            }
        }
    };
}

pub(crate) use impl_cursor_error_kind;

/// A position in a string that parsers step through byte by byte; `K` is the kind of their errors.
///
/// Parsers only step over ASCII bytes, or over whole substrings that end before an ASCII byte, so `pos` is always a char boundary.
pub(crate) struct Cursor<'a, K> {
    input: &'a str,
    pos: usize,
    kind: PhantomData<fn() -> K>,
}

impl<'a, K: CursorErrorKind> Cursor<'a, K> {
    pub(crate) fn new(input: &'a str) -> Cursor<'a, K> {
        Cursor { input, pos: 0, kind: PhantomData }
    }

    /// The whole input.
    pub(crate) fn input(&self) -> &'a str {
        self.input
    }

    /// The byte offset of the next byte.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// The input from the current position on.
    pub(crate) fn rest(&self) -> &'a str {
        &self.input[self.pos..]
    }

    /// Whether the whole input has been consumed.
    pub(crate) fn at_end(&self) -> bool {
        self.pos == self.input.len()
    }

    pub(crate) fn peek(&self) -> Option<u8> {
        self.input.as_bytes().get(self.pos).copied()
    }

    /// Steps over `len` bytes, which the caller has checked end on a char boundary.
    pub(crate) fn advance(&mut self, len: usize) {
        self.pos += len;
        debug_assert!(self.input.is_char_boundary(self.pos), "cursor inside a character");
    }

    /// Steps over the next byte if it is `byte`, and tells whether it did.
    pub(crate) fn eat(&mut self, byte: u8) -> bool {
        let found = self.peek() == Some(byte);
        if found {
            self.pos += 1;
        }
        found
    }

    /// Steps over `byte`, or fails as [`Cursor::missing`] does.
    pub(crate) fn expect(&mut self, byte: u8, what: &'static str) -> Result<(), K::Error> {
        if self.eat(byte) { Ok(()) } else { Err(self.missing(what)) }
    }

    /// Succeeds at the end of the input; fails with trailing characters anywhere else.
    pub(crate) fn finish(&self) -> Result<(), K::Error> {
        if self.at_end() { Ok(()) } else { Err(self.error(K::trailing_characters())) }
    }

    /// The error for a missing `what` at the current position, which may be the end.
    pub(crate) fn missing(&self, what: &'static str) -> K::Error {
        let kind = if self.at_end() { K::unexpected_end(what) } else { K::expected(what) };
        self.error(kind)
    }

    /// The error of `kind` at the current position.
    pub(crate) fn error(&self, kind: K) -> K::Error {
        self.error_at(self.pos, kind)
    }

    /// The error of `kind` at byte `position`.
    pub(crate) fn error_at(&self, position: usize, kind: K) -> K::Error {
        kind.at(self.input, position)
    }
}
