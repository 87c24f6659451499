//! A bounds-checked big-endian byte reader used by the class-file decoders.

use crate::classfile::ClassFileError;

/// Reads big-endian values from a byte slice; every read names what it was
/// reading so that truncation errors say where the input ended.
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader positioned at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    /// Current position in bytes.
    /// Bytes left to read.
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// Whether everything has been read.
    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// The next `n` bytes.
    ///
    /// # Errors
    /// [`ClassFileError::Truncated`] when fewer than `n` bytes remain.
    pub fn bytes(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], ClassFileError> {
        if self.remaining() < n {
            return Err(ClassFileError::Truncated { offset: self.pos, what });
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// One unsigned byte.
    pub fn u8(&mut self, what: &'static str) -> Result<u8, ClassFileError> {
        Ok(self.bytes(1, what)?[0])
    }

    /// A big-endian `u16`.
    pub fn u16(&mut self, what: &'static str) -> Result<u16, ClassFileError> {
        let b = self.bytes(2, what)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    /// A big-endian `u32`.
    pub fn u32(&mut self, what: &'static str) -> Result<u32, ClassFileError> {
        let b = self.bytes(4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A big-endian `u64`.
    pub fn u64(&mut self, what: &'static str) -> Result<u64, ClassFileError> {
        Ok((u64::from(self.u32(what)?) << 32) | u64::from(self.u32(what)?))
    }
}
