//! The constant pool (JVMS §4.4): decoding, lookup and appending entries.
//!
//! Entries are indexed as in the class file: index 0 and the slot after each
//! `Long`/`Double` hold [`Constant::Unusable`]. Appending never renumbers
//! existing entries, so instrumented code can keep all original indices.

use std::collections::HashMap;

use crate::classfile::{ClassFileError, put_u16, put_u32};
use crate::reader::Reader;

/// One constant-pool entry. Float and double keep their raw bits so that NaN
/// payloads survive a round trip; `Utf8` keeps its modified-UTF-8 bytes.
#[derive(Debug, Clone, PartialEq)]
pub enum Constant {
    /// Index 0 and the second slot of a long or double.
    Unusable,
    /// `CONSTANT_Utf8`: decoded text and the original modified-UTF-8 bytes.
    Utf8 {
        /// The text, decoded from `raw` by [`decode_modified_utf8`] (invalid sequences and unpaired surrogates become U+FFFD).
        text: String,
        /// The modified-UTF-8 bytes as stored, written back unchanged.
        raw: Vec<u8>,
    },
    /// `CONSTANT_Integer`: the value.
    Integer(i32),
    /// Raw IEEE-754 bits of a `CONSTANT_Float`.
    Float(u32),
    /// `CONSTANT_Long`: the value (takes two slots).
    Long(i64),
    /// Raw IEEE-754 bits of a `CONSTANT_Double`.
    Double(u64),
    /// `CONSTANT_Class`: index of the internal name.
    Class(u16),
    /// `CONSTANT_String`: index of the text.
    String(u16),
    /// `CONSTANT_Fieldref`: a field of a class.
    FieldRef {
        /// Index of the owner class (a `CONSTANT_Class`).
        class: u16,
        /// Index of the member's name and descriptor (a `CONSTANT_NameAndType`).
        name_and_type: u16,
    },
    /// `CONSTANT_Methodref`: a method of a class.
    MethodRef {
        /// Index of the owner class (a `CONSTANT_Class`).
        class: u16,
        /// Index of the member's name and descriptor (a `CONSTANT_NameAndType`).
        name_and_type: u16,
    },
    /// `CONSTANT_InterfaceMethodref`: a method of an interface.
    InterfaceMethodRef {
        /// Index of the owner class (a `CONSTANT_Class`).
        class: u16,
        /// Index of the member's name and descriptor (a `CONSTANT_NameAndType`).
        name_and_type: u16,
    },
    /// `CONSTANT_NameAndType`: a member's name and descriptor.
    NameAndType {
        /// Index of the simple name (a `CONSTANT_Utf8`).
        name: u16,
        /// Index of the field or method descriptor (a `CONSTANT_Utf8`).
        descriptor: u16,
    },
    /// `CONSTANT_MethodHandle`: a method handle.
    MethodHandle {
        /// The reference kind, 1 (`REF_getField`) to 9 (`REF_invokeInterface`) (JVMS §5.4.3.5).
        kind: u8,
        /// Index of the field or method reference the handle points to.
        reference: u16,
    },
    /// `CONSTANT_MethodType`: index of the method descriptor (a `CONSTANT_Utf8`).
    MethodType(u16),
    /// `CONSTANT_Dynamic`: a dynamically computed constant.
    Dynamic {
        /// Index into the class's `BootstrapMethods` attribute (not into the constant pool).
        bootstrap: u16,
        /// Index of the constant's name and field descriptor (a `CONSTANT_NameAndType`).
        name_and_type: u16,
    },
    /// `CONSTANT_InvokeDynamic`: the call site of an `invokedynamic`.
    InvokeDynamic {
        /// Index into the class's `BootstrapMethods` attribute (not into the constant pool).
        bootstrap: u16,
        /// Index of the call site's name and method descriptor (a `CONSTANT_NameAndType`).
        name_and_type: u16,
    },
    /// `CONSTANT_Module`: index of the module name (a `CONSTANT_Utf8`).
    Module(u16),
    /// `CONSTANT_Package`: index of the package name in internal form (a `CONSTANT_Utf8`).
    Package(u16),
}

/// A resolved member reference: owner internal name, member name, descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemberRef<'a> {
    /// Internal name of the class or interface named by the reference (`java/lang/String`).
    pub owner: &'a str,
    /// The member's simple name (`<init>` for constructors).
    pub name: &'a str,
    /// The field or method descriptor (`(I)Ljava/lang/String;`).
    pub descriptor: &'a str,
}

/// The constant pool of one class file.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstantPool {
    entries: Vec<Constant>,
    /// Entries added after reading, for de-duplication of [`Self::add`].
    added: HashMap<Key, u16>,
}

/// De-duplication key for appended constants (floats by bits).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Utf8(String),
    Int(i32),
    Long(i64),
    Float(u32),
    Double(u64),
    Other(u8, u16, u16),
}

impl Default for ConstantPool {
    fn default() -> Self {
        ConstantPool { entries: vec![Constant::Unusable], added: HashMap::new() }
    }
}

impl ConstantPool {
    /// Reads `constant_pool_count` and the entries.
    ///
    /// # Errors
    /// [`ClassFileError`] on truncation or an unknown tag.
    pub(crate) fn read(r: &mut Reader<'_>) -> Result<ConstantPool, ClassFileError> {
        let count = r.u16("constant_pool_count")?;
        let mut entries = Vec::with_capacity(count as usize);
        entries.push(Constant::Unusable);
        while entries.len() < count as usize {
            let index = entries.len() as u16;
            let c = read_constant(r, index)?;
            let wide = matches!(c, Constant::Long(_) | Constant::Double(_));
            entries.push(c);
            if wide {
                entries.push(Constant::Unusable);
            }
        }
        if entries.len() != count as usize {
            return Err(ClassFileError::Malformed("long or double overflows the constant pool".into()));
        }
        Ok(ConstantPool { entries, added: HashMap::new() })
    }

    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        put_u16(out, self.entries.len() as u16);
        for c in &self.entries {
            write_constant(out, c);
        }
    }

    /// Number of slots, including slot 0 (the class file's `constant_pool_count`).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the pool has no entries besides slot 0.
    pub fn is_empty(&self) -> bool {
        self.entries.len() <= 1
    }

    /// All slots with their indices.
    pub fn iter(&self) -> impl Iterator<Item = (u16, &Constant)> {
        self.entries.iter().enumerate().map(|(i, c)| (i as u16, c))
    }

    /// The entry at `index`.
    ///
    /// # Errors
    /// [`ClassFileError::BadConstantRef`] when `index` is out of range.
    pub fn get(&self, index: u16) -> Result<&Constant, ClassFileError> {
        self.entries.get(index as usize).ok_or(ClassFileError::BadConstantRef { index, expected: "an entry in range" })
    }

    /// The text of the `CONSTANT_Utf8` at `index`.
    ///
    /// # Errors
    /// [`ClassFileError::BadConstantRef`] when it is not a `Utf8` entry.
    pub fn utf8(&self, index: u16) -> Result<&str, ClassFileError> {
        match self.get(index)? {
            Constant::Utf8 { text, .. } => Ok(text),
            _ => Err(ClassFileError::BadConstantRef { index, expected: "CONSTANT_Utf8" }),
        }
    }

    /// The internal name of the `CONSTANT_Class` at `index`.
    ///
    /// # Errors
    /// [`ClassFileError::BadConstantRef`] when it is not a `Class` entry.
    pub fn class_name(&self, index: u16) -> Result<&str, ClassFileError> {
        match self.get(index)? {
            Constant::Class(n) => self.utf8(*n),
            _ => Err(ClassFileError::BadConstantRef { index, expected: "CONSTANT_Class" }),
        }
    }

    /// The (name, descriptor) of the `CONSTANT_NameAndType` at `index`.
    ///
    /// # Errors
    /// [`ClassFileError::BadConstantRef`] when it is not a `NameAndType`.
    pub fn name_and_type(&self, index: u16) -> Result<(&str, &str), ClassFileError> {
        match self.get(index)? {
            Constant::NameAndType { name, descriptor } => Ok((self.utf8(*name)?, self.utf8(*descriptor)?)),
            _ => Err(ClassFileError::BadConstantRef { index, expected: "CONSTANT_NameAndType" }),
        }
    }

    /// A field, method or interface-method reference.
    ///
    /// # Errors
    /// [`ClassFileError::BadConstantRef`] when `index` is not such a reference.
    pub fn member_ref(&self, index: u16) -> Result<MemberRef<'_>, ClassFileError> {
        match self.get(index)? {
            Constant::FieldRef { class, name_and_type }
            | Constant::MethodRef { class, name_and_type }
            | Constant::InterfaceMethodRef { class, name_and_type } => {
                let (name, descriptor) = self.name_and_type(*name_and_type)?;
                Ok(MemberRef { owner: self.class_name(*class)?, name, descriptor })
            }
            _ => Err(ClassFileError::BadConstantRef { index, expected: "a member reference" }),
        }
    }

    /// Appends `c` (or returns the index of an equal entry appended before).
    ///
    /// # Errors
    /// [`ClassFileError::Malformed`] when the pool would exceed 65,535 slots.
    pub fn add(&mut self, c: Constant) -> Result<u16, ClassFileError> {
        let key = key_of(&c);
        if let Some(i) = self.added.get(&key) {
            return Ok(*i);
        }
        let wide = matches!(c, Constant::Long(_) | Constant::Double(_));
        let index = self.entries.len();
        if index + usize::from(wide) >= 0xFFFF {
            return Err(ClassFileError::Malformed("constant pool is full (65,535 entries)".into()));
        }
        self.entries.push(c);
        if wide {
            self.entries.push(Constant::Unusable);
        }
        self.added.insert(key, index as u16);
        Ok(index as u16)
    }

    /// Appends a `CONSTANT_Utf8`.
    ///
    /// # Errors
    /// As [`Self::add`].
    pub fn add_utf8(&mut self, text: &str) -> Result<u16, ClassFileError> {
        self.add(Constant::Utf8 { text: text.to_string(), raw: encode_modified_utf8(text) })
    }

    /// Appends a `CONSTANT_Class` for an internal name.
    ///
    /// # Errors
    /// As [`Self::add`].
    pub fn add_class(&mut self, internal_name: &str) -> Result<u16, ClassFileError> {
        let n = self.add_utf8(internal_name)?;
        self.add(Constant::Class(n))
    }

    /// Appends a `CONSTANT_Integer`.
    ///
    /// # Errors
    /// As [`Self::add`].
    pub fn add_integer(&mut self, v: i32) -> Result<u16, ClassFileError> {
        self.add(Constant::Integer(v))
    }

    /// Appends a `CONSTANT_Methodref` (or `InterfaceMethodref` when `interface`).
    ///
    /// # Errors
    /// As [`Self::add`].
    pub fn add_method_ref(
        &mut self,
        owner: &str,
        name: &str,
        descriptor: &str,
        interface: bool,
    ) -> Result<u16, ClassFileError> {
        let class = self.add_class(owner)?;
        let name = self.add_utf8(name)?;
        let descriptor = self.add_utf8(descriptor)?;
        let name_and_type = self.add(Constant::NameAndType { name, descriptor })?;
        if interface {
            self.add(Constant::InterfaceMethodRef { class, name_and_type })
        } else {
            self.add(Constant::MethodRef { class, name_and_type })
        }
    }
}

fn key_of(c: &Constant) -> Key {
    match c {
        Constant::Utf8 { text, .. } => Key::Utf8(text.clone()),
        Constant::Integer(v) => Key::Int(*v),
        Constant::Long(v) => Key::Long(*v),
        Constant::Float(v) => Key::Float(*v),
        Constant::Double(v) => Key::Double(*v),
        other => {
            let mut b = Vec::new();
            write_constant(&mut b, other);
            let a = u16::from_be_bytes([b[1], *b.get(2).unwrap_or(&0)]);
            let c = u16::from_be_bytes([*b.get(3).unwrap_or(&0), *b.get(4).unwrap_or(&0)]);
            Key::Other(b[0], a, c)
        }
    }
}

fn read_constant(r: &mut Reader<'_>, index: u16) -> Result<Constant, ClassFileError> {
    let tag = r.u8("constant tag")?;
    Ok(match tag {
        1 => {
            let len = r.u16("utf8 length")? as usize;
            let raw = r.bytes(len, "utf8 bytes")?.to_vec();
            Constant::Utf8 { text: decode_modified_utf8(&raw), raw }
        }
        3 => Constant::Integer(r.u32("integer")? as i32),
        4 => Constant::Float(r.u32("float")?),
        5 => Constant::Long(r.u64("long")? as i64),
        6 => Constant::Double(r.u64("double")?),
        7 => Constant::Class(r.u16("class name")?),
        8 => Constant::String(r.u16("string")?),
        9..=11 => {
            let class = r.u16("ref class")?;
            let name_and_type = r.u16("ref name_and_type")?;
            match tag {
                9 => Constant::FieldRef { class, name_and_type },
                10 => Constant::MethodRef { class, name_and_type },
                _ => Constant::InterfaceMethodRef { class, name_and_type },
            }
        }
        12 => Constant::NameAndType { name: r.u16("name")?, descriptor: r.u16("descriptor")? },
        15 => Constant::MethodHandle { kind: r.u8("handle kind")?, reference: r.u16("handle ref")? },
        16 => Constant::MethodType(r.u16("method type")?),
        17 | 18 => {
            let bootstrap = r.u16("bootstrap index")?;
            let name_and_type = r.u16("name_and_type")?;
            if tag == 17 {
                Constant::Dynamic { bootstrap, name_and_type }
            } else {
                Constant::InvokeDynamic { bootstrap, name_and_type }
            }
        }
        19 => Constant::Module(r.u16("module")?),
        20 => Constant::Package(r.u16("package")?),
        _ => return Err(ClassFileError::BadConstantTag { index, tag }),
    })
}

fn write_constant(out: &mut Vec<u8>, c: &Constant) {
    let pair = |out: &mut Vec<u8>, tag: u8, a: u16, b: u16| {
        out.push(tag);
        put_u16(out, a);
        put_u16(out, b);
    };
    let single = |out: &mut Vec<u8>, tag: u8, a: u16| {
        out.push(tag);
        put_u16(out, a);
    };
    match c {
        Constant::Unusable => {}
        Constant::Utf8 { raw, .. } => {
            out.push(1);
            put_u16(out, raw.len() as u16);
            out.extend_from_slice(raw);
        }
        Constant::Integer(v) => {
            out.push(3);
            put_u32(out, *v as u32);
        }
        Constant::Float(bits) => {
            out.push(4);
            put_u32(out, *bits);
        }
        Constant::Long(v) => {
            out.push(5);
            out.extend_from_slice(&v.to_be_bytes());
        }
        Constant::Double(bits) => {
            out.push(6);
            out.extend_from_slice(&bits.to_be_bytes());
        }
        Constant::Class(i) => single(out, 7, *i),
        Constant::String(i) => single(out, 8, *i),
        Constant::FieldRef { class, name_and_type } => pair(out, 9, *class, *name_and_type),
        Constant::MethodRef { class, name_and_type } => pair(out, 10, *class, *name_and_type),
        Constant::InterfaceMethodRef { class, name_and_type } => pair(out, 11, *class, *name_and_type),
        Constant::NameAndType { name, descriptor } => pair(out, 12, *name, *descriptor),
        Constant::MethodHandle { kind, reference } => {
            out.push(15);
            out.push(*kind);
            put_u16(out, *reference);
        }
        Constant::MethodType(i) => single(out, 16, *i),
        Constant::Dynamic { bootstrap, name_and_type } => pair(out, 17, *bootstrap, *name_and_type),
        Constant::InvokeDynamic { bootstrap, name_and_type } => pair(out, 18, *bootstrap, *name_and_type),
        Constant::Module(i) => single(out, 19, *i),
        Constant::Package(i) => single(out, 20, *i),
    }
}

/// Decodes modified UTF-8 (JVMS §4.4.7); invalid sequences become U+FFFD.
pub fn decode_modified_utf8(raw: &[u8]) -> String {
    if raw.iter().all(|b| *b != 0 && *b < 0x80) {
        return String::from_utf8_lossy(raw).into_owned();
    }
    let mut units: Vec<u16> = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let b = raw[i];
        let (unit, len) = if b < 0x80 {
            (u16::from(b), 1)
        } else if b & 0xE0 == 0xC0 && i + 1 < raw.len() {
            ((u16::from(b & 0x1F) << 6) | u16::from(raw[i + 1] & 0x3F), 2)
        } else if b & 0xF0 == 0xE0 && i + 2 < raw.len() {
            let u = (u16::from(b & 0x0F) << 12) | (u16::from(raw[i + 1] & 0x3F) << 6) | u16::from(raw[i + 2] & 0x3F);
            (u, 3)
        } else {
            (0xFFFD, 1)
        };
        units.push(unit);
        i += len;
    }
    String::from_utf16_lossy(&units)
}

/// Encodes text as modified UTF-8 (NUL as two bytes, supplementary
/// characters as surrogate pairs of three bytes each).
pub fn encode_modified_utf8(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for unit in text.encode_utf16() {
        match unit {
            1..=0x7F => out.push(unit as u8),
            0 | 0x80..=0x7FF => {
                out.push(0xC0 | (unit >> 6) as u8);
                out.push(0x80 | (unit & 0x3F) as u8);
            }
            _ => {
                out.push(0xE0 | (unit >> 12) as u8);
                out.push(0x80 | ((unit >> 6) & 0x3F) as u8);
                out.push(0x80 | (unit & 0x3F) as u8);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modified_utf8_round_trips_nul_and_supplementary_characters() {
        for s in ["plain", "nul\0inside", "é ü", "emoji \u{1F600}"] {
            let raw = encode_modified_utf8(s);
            assert!(!raw.contains(&0));
            assert_eq!(decode_modified_utf8(&raw), s);
        }
        assert_eq!(encode_modified_utf8("\0"), vec![0xC0, 0x80]);
        assert_eq!(encode_modified_utf8("\u{1F600}").len(), 6);
    }

    #[test]
    fn add_deduplicates_and_wide_entries_take_two_slots() {
        let mut cp = ConstantPool::default();
        let a = cp.add_class("a/B").unwrap();
        assert_eq!(cp.add_class("a/B").unwrap(), a);
        let l = cp.add(Constant::Long(7)).unwrap();
        let next = cp.add_integer(1).unwrap();
        assert_eq!(next, l + 2);
        let m = cp.add_method_ref("a/B", "m", "(I)V", false).unwrap();
        let r = cp.member_ref(m).unwrap();
        assert_eq!((r.owner, r.name, r.descriptor), ("a/B", "m", "(I)V"));
    }
}
