//! Raw class-file reader and writer (JVMS §4).
//!
//! The representation keeps every attribute as raw bytes except where a
//! caller asks for a decoded view ([`CodeAttribute::parse`]), so that
//! `ClassFile::parse(b)?.to_bytes() == b` for every well-formed input.
//! This is the layer the instrumenter rewrites: it needs byte offsets
//! (bytecode indices) everywhere, which is why ferrosuite does not use
//! `ristretto_classfile`'s instruction-index model here (see ARCHITECTURE.md).

use crate::constant_pool::ConstantPool;
use crate::names::{BinaryName, InternalName};
use crate::reader::Reader;

/// Lowest class-file major version ferrosuite reads (Java 1.1).
pub const MIN_MAJOR: u16 = 45;
/// Highest class-file major version ferrosuite reads (Java 25).
pub const MAX_MAJOR: u16 = 69;
/// Highest class-file major version Debian 12's JaCoCo 0.8.6 reads (Java
/// 17): the reference of coverage goals up to it; newer class files are
/// measured with JaCoCo 0.8.14 (`analysis::filter::modern`).
pub const JACOCO_086_MAX_MAJOR: u16 = 61;

/// Errors while decoding class-file bytes. Offsets are byte positions in the
/// class file (or in the attribute being decoded, where stated).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ClassFileError {
    /// The bytes end before the structure does.
    #[error("truncated class file: {what} at byte {offset} needs more bytes")]
    Truncated {
        /// Byte offset of the read that ran out of bytes.
        offset: usize,
        /// The item being read, named after the JVMS field (`"major_version"`, `"access_flags"`).
        what: &'static str,
    },
    /// The first four bytes are not `0xCAFEBABE`.
    #[error("not a class file: magic number is {0:#010x}, expected 0xcafebabe")]
    BadMagic(u32),
    /// The major version is outside [`MIN_MAJOR`]..=[`MAX_MAJOR`].
    #[error(
        "unsupported class-file version {major}.{minor} ({java}); ferrosuite supports versions 45 (Java 1.1) to 69 (Java 25)"
    , java = java_release(*major))]
    UnsupportedVersion {
        /// The class file's major version.
        major: u16,
        /// The class file's minor version.
        minor: u16,
    },
    /// A constant-pool entry has an unknown tag.
    #[error("bad constant-pool entry #{index}: unknown tag {tag}")]
    BadConstantTag {
        /// Index of the entry in the constant pool.
        index: u16,
        /// The unknown tag byte.
        tag: u8,
    },
    /// A constant-pool index points to a missing entry or one of the wrong kind.
    #[error("bad constant-pool reference #{index}: expected {expected}")]
    BadConstantRef {
        /// The constant-pool index.
        index: u16,
        /// The kind of entry expected there (`"CONSTANT_Utf8"`, `"a member reference"`).
        expected: &'static str,
    },
    /// Any other structural problem.
    #[error("malformed class file: {0}")]
    Malformed(String),
}

/// The Java release that introduced class-file major version `major`
/// (`45` → "Java 1.1", `52` → "Java 8", `65` → "Java 21").
pub fn java_release(major: u16) -> String {
    match major {
        0..=44 => format!("pre-Java 1.1 version {major}"),
        45 => "Java 1.1".to_string(),
        46..=48 => format!("Java 1.{}", major - 44),
        _ => format!("Java {}", major - 44),
    }
}

/// The `javac --release` value that compiles sources for a class of
/// major version `major` (`52` → 8, `61` → 17); 8 at least, the oldest
/// release JDK 17's javac supports without warnings.
pub fn javac_release(major: u16) -> u32 {
    u32::from(major.saturating_sub(44)).max(8)
}

/// One attribute kept as raw bytes (`attribute_info`, JVMS §4.7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attribute {
    /// Constant-pool index of the attribute name (a `CONSTANT_Utf8`).
    pub name_index: u16,
    /// The attribute body, without the 6-byte header.
    pub info: Vec<u8>,
}

/// A field or method (`field_info` / `method_info`, JVMS §4.5, §4.6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Access flags (`ACC_*` bits, see [`crate::access`]).
    pub access: u16,
    /// Constant-pool index of the simple name.
    pub name_index: u16,
    /// Constant-pool index of the descriptor.
    pub descriptor_index: u16,
    /// Attributes in file order.
    pub attributes: Vec<Attribute>,
}

/// A whole class file (JVMS §4.1).
#[derive(Debug, Clone, PartialEq)]
pub struct ClassFile {
    /// The minor version (`minor_version`).
    pub minor_version: u16,
    /// The major version (`major_version`): 45 for Java 1.1 up to 69 for Java 25.
    pub major_version: u16,
    /// The constant pool, indexed from 1.
    pub constant_pool: ConstantPool,
    /// The class's access flags (`ACC_*` bits, see [`crate::access`]).
    pub access: u16,
    /// Constant-pool index of this class's `CONSTANT_Class`.
    pub this_class: u16,
    /// Constant-pool index of the superclass, 0 for `java.lang.Object`.
    pub super_class: u16,
    /// Constant-pool indices of the directly implemented interfaces (`CONSTANT_Class` entries), in declaration order.
    pub interfaces: Vec<u16>,
    /// The fields, in file order.
    pub fields: Vec<Member>,
    /// The methods and constructors, in file order.
    pub methods: Vec<Member>,
    /// The class's attributes, raw, in file order.
    pub attributes: Vec<Attribute>,
}

/// One row of a `Code` attribute's exception table; all positions are
/// bytecode indices (byte offsets into `code`). `catch_type` 0 means any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExceptionEntry {
    /// First bytecode index the handler covers.
    pub start_pc: u32,
    /// Bytecode index just after the last one the handler covers (exclusive).
    pub end_pc: u32,
    /// Bytecode index of the handler.
    pub handler_pc: u32,
    /// Constant-pool index of the caught class (a `CONSTANT_Class`), or 0 for any exception (`finally`).
    pub catch_type: u16,
}

/// A decoded `Code` attribute (JVMS §4.7.3); nested attributes stay raw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeAttribute {
    /// Maximum operand-stack depth, in slots (`long` and `double` take two).
    pub max_stack: u16,
    /// Number of local-variable slots, parameters included.
    pub max_locals: u16,
    /// The bytecode.
    pub code: Vec<u8>,
    /// The exception table, in file order (the JVM tries rows in that order).
    pub exception_table: Vec<ExceptionEntry>,
    /// Nested attributes (LineNumberTable, StackMapTable, ...), raw.
    pub attributes: Vec<Attribute>,
}

impl ClassFile {
    /// Decodes a class file.
    ///
    /// # Errors
    /// [`ClassFileError`] for bad magic, truncation, an unsupported version
    /// or a malformed constant pool. Attribute contents are not checked here.
    pub fn parse(bytes: &[u8]) -> Result<ClassFile, ClassFileError> {
        let mut r = Reader::new(bytes);
        let magic = r.u32("magic")?;
        if magic != 0xCAFE_BABE {
            return Err(ClassFileError::BadMagic(magic));
        }
        let minor_version = r.u16("minor_version")?;
        let major_version = r.u16("major_version")?;
        if !(MIN_MAJOR..=MAX_MAJOR).contains(&major_version) {
            return Err(ClassFileError::UnsupportedVersion { major: major_version, minor: minor_version });
        }
        let constant_pool = ConstantPool::read(&mut r)?;
        let access = r.u16("access_flags")?;
        let this_class = r.u16("this_class")?;
        let super_class = r.u16("super_class")?;
        let n = r.u16("interfaces_count")?;
        let interfaces = (0..n).map(|_| r.u16("interface")).collect::<Result<_, _>>()?;
        let fields = read_members(&mut r)?;
        let methods = read_members(&mut r)?;
        let attributes = read_attributes(&mut r)?;
        if !r.is_empty() {
            return Err(ClassFileError::Malformed(format!("{} extra bytes after the class attributes", r.remaining())));
        }
        let class_file = ClassFile {
            minor_version,
            major_version,
            constant_pool,
            access,
            this_class,
            super_class,
            interfaces,
            fields,
            methods,
            attributes,
        };
        class_file.constant_pool.class_name(this_class)?;
        Ok(class_file)
    }

    /// Encodes the class file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4096);
        put_u32(&mut out, 0xCAFE_BABE);
        put_u16(&mut out, self.minor_version);
        put_u16(&mut out, self.major_version);
        self.constant_pool.write(&mut out);
        put_u16(&mut out, self.access);
        put_u16(&mut out, self.this_class);
        put_u16(&mut out, self.super_class);
        put_u16(&mut out, self.interfaces.len() as u16);
        for i in &self.interfaces {
            put_u16(&mut out, *i);
        }
        write_members(&mut out, &self.fields);
        write_members(&mut out, &self.methods);
        write_attributes(&mut out, &self.attributes);
        out
    }

    /// This class's internal name (`java/lang/String`).
    pub fn name(&self) -> &str {
        self.constant_pool.class_name(self.this_class).unwrap_or("<invalid>")
    }

    /// This class's name in internal form, typed: [`ClassFile::name`] as an [`InternalName`].
    pub fn internal_name(&self) -> InternalName {
        InternalName::new(self.name())
    }

    /// This class's binary name (`java.lang.String`, `java.util.Map$Entry`).
    pub fn binary_name(&self) -> BinaryName {
        self.internal_name().to_binary()
    }

    /// The superclass's internal name; `None` for `java/lang/Object` and `module-info`.
    pub fn super_name(&self) -> Option<&str> {
        if self.super_class == 0 {
            return None;
        }
        self.constant_pool.class_name(self.super_class).ok()
    }

    /// Internal names of the directly implemented interfaces.
    pub fn interface_names(&self) -> impl Iterator<Item = &str> {
        self.interfaces.iter().filter_map(|i| self.constant_pool.class_name(*i).ok())
    }

    /// The member's simple name (`<init>` for constructors).
    pub fn member_name(&self, m: &Member) -> &str {
        self.constant_pool.utf8(m.name_index).unwrap_or("<invalid>")
    }

    /// The member's descriptor string.
    pub fn member_descriptor(&self, m: &Member) -> &str {
        self.constant_pool.utf8(m.descriptor_index).unwrap_or("<invalid>")
    }

    /// The exception classes in a method's `throws` clause (its `Exceptions`
    /// attribute, JVMS §4.7.5), in file order; entries that do not name a
    /// class are skipped, and a method without the attribute declares none.
    pub fn declared_exceptions(&self, m: &Member) -> Vec<InternalName> {
        let Some(a) = self.find_attribute(&m.attributes, "Exceptions") else { return Vec::new() };
        let indices = a.info.get(2..).unwrap_or(&[]).chunks_exact(2).map(|c| u16::from_be_bytes([c[0], c[1]]));
        indices.filter_map(|i| self.constant_pool.class_name(i).ok().map(InternalName::new)).collect()
    }

    /// The first attribute named `name` among `attributes`.
    pub fn find_attribute<'a>(&self, attributes: &'a [Attribute], name: &str) -> Option<&'a Attribute> {
        attributes.iter().find(|a| self.constant_pool.utf8(a.name_index) == Ok(name))
    }

    /// The access flags this class has as a member of its enclosing class,
    /// from its own entry in the `InnerClasses` attribute (JVMS 4.7.6):
    /// `private`, `protected` and `static` show only there. `None` for a
    /// top-level class or a malformed attribute.
    pub fn inner_class_flags(&self) -> Option<u16> {
        let attr = self.find_attribute(&self.attributes, "InnerClasses")?;
        let info = &attr.info;
        let u16_at = |i: usize| info.get(i..i + 2).map(|b| u16::from_be_bytes([b[0], b[1]]));
        let count = usize::from(u16_at(0)?);
        let own = self.name();
        (0..count).find_map(|k| {
            let at = 2 + 8 * k;
            let inner = u16_at(at)?;
            (self.constant_pool.class_name(inner).ok()? == own).then(|| u16_at(at + 6)).flatten()
        })
    }

    /// Whether this class is an inner class (JLS 8.1.3): nested and not
    /// `static` in its `InnerClasses` entry, so its constructors take the
    /// enclosing instance first.
    pub fn is_inner_class(&self) -> bool {
        self.inner_class_flags().is_some_and(|f| f & crate::access::STATIC == 0)
    }

    /// Name of an attribute (`Code`, `LineNumberTable`, ...).
    pub fn attribute_name(&self, a: &Attribute) -> &str {
        self.constant_pool.utf8(a.name_index).unwrap_or("<invalid>")
    }

    /// The decoded `Code` attribute of a method, if it has one.
    ///
    /// # Errors
    /// [`ClassFileError`] when the attribute is malformed.
    pub fn code(&self, m: &Member) -> Result<Option<CodeAttribute>, ClassFileError> {
        self.find_attribute(&m.attributes, "Code").map(|a| CodeAttribute::parse(&a.info)).transpose()
    }

    /// The `SourceFile` attribute's file name, if present.
    pub fn source_file(&self) -> Option<&str> {
        let a = self.find_attribute(&self.attributes, "SourceFile")?;
        let idx = u16::from_be_bytes([*a.info.first()?, *a.info.get(1)?]);
        self.constant_pool.utf8(idx).ok()
    }

    /// The `Signature` attribute of the class or of one of its members.
    pub fn signature(&self, attributes: &[Attribute]) -> Option<&str> {
        let a = self.find_attribute(attributes, "Signature")?;
        let idx = u16::from_be_bytes([*a.info.first()?, *a.info.get(1)?]);
        self.constant_pool.utf8(idx).ok()
    }
}

impl CodeAttribute {
    /// Decodes the body of a `Code` attribute.
    ///
    /// # Errors
    /// [`ClassFileError`] when the body is truncated or has trailing bytes.
    pub fn parse(info: &[u8]) -> Result<CodeAttribute, ClassFileError> {
        let mut r = Reader::new(info);
        let max_stack = r.u16("max_stack")?;
        let max_locals = r.u16("max_locals")?;
        let len = r.u32("code_length")? as usize;
        let code = r.bytes(len, "code")?.to_vec();
        let n = r.u16("exception_table_length")?;
        let mut exception_table = Vec::with_capacity(n as usize);
        for _ in 0..n {
            exception_table.push(ExceptionEntry {
                start_pc: r.u16("start_pc")? as u32,
                end_pc: r.u16("end_pc")? as u32,
                handler_pc: r.u16("handler_pc")? as u32,
                catch_type: r.u16("catch_type")?,
            });
        }
        let attributes = read_attributes(&mut r)?;
        if !r.is_empty() {
            return Err(ClassFileError::Malformed("extra bytes in Code attribute".into()));
        }
        Ok(CodeAttribute { max_stack, max_locals, code, exception_table, attributes })
    }

    /// Encodes the body of the `Code` attribute (without the 6-byte header).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.code.len() + 64);
        put_u16(&mut out, self.max_stack);
        put_u16(&mut out, self.max_locals);
        put_u32(&mut out, self.code.len() as u32);
        out.extend_from_slice(&self.code);
        put_u16(&mut out, self.exception_table.len() as u16);
        for e in &self.exception_table {
            for v in [e.start_pc, e.end_pc, e.handler_pc] {
                put_u16(&mut out, v as u16);
            }
            put_u16(&mut out, e.catch_type);
        }
        write_attributes(&mut out, &self.attributes);
        out
    }
}

fn read_members(r: &mut Reader<'_>) -> Result<Vec<Member>, ClassFileError> {
    let n = r.u16("member count")?;
    let mut out = Vec::with_capacity(n as usize);
    for _ in 0..n {
        out.push(Member {
            access: r.u16("member access")?,
            name_index: r.u16("member name")?,
            descriptor_index: r.u16("member descriptor")?,
            attributes: read_attributes(r)?,
        });
    }
    Ok(out)
}

fn read_attributes(r: &mut Reader<'_>) -> Result<Vec<Attribute>, ClassFileError> {
    let n = r.u16("attributes_count")?;
    let mut out = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let name_index = r.u16("attribute name")?;
        let len = r.u32("attribute length")? as usize;
        let info = r.bytes(len, "attribute body")?.to_vec();
        out.push(Attribute { name_index, info });
    }
    Ok(out)
}

fn write_members(out: &mut Vec<u8>, members: &[Member]) {
    put_u16(out, members.len() as u16);
    for m in members {
        put_u16(out, m.access);
        put_u16(out, m.name_index);
        put_u16(out, m.descriptor_index);
        write_attributes(out, &m.attributes);
    }
}

/// Writes `attributes_count` followed by each attribute with its header.
pub fn write_attributes(out: &mut Vec<u8>, attributes: &[Attribute]) {
    put_u16(out, attributes.len() as u16);
    for a in attributes {
        put_u16(out, a.name_index);
        put_u32(out, a.info.len() as u32);
        out.extend_from_slice(&a.info);
    }
}

/// Appends a big-endian `u16`.
pub fn put_u16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_be_bytes());
}

/// Appends a big-endian `u32`.
pub fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny_class(major: u16) -> Vec<u8> {
        let mut cp = ConstantPool::default();
        let this = cp.add_class("p/A").unwrap();
        let sup = cp.add_class("java/lang/Object").unwrap();
        let cf = ClassFile {
            minor_version: 0,
            major_version: major,
            constant_pool: cp,
            access: 0x21,
            this_class: this,
            super_class: sup,
            interfaces: vec![],
            fields: vec![],
            methods: vec![],
            attributes: vec![],
        };
        cf.to_bytes()
    }

    #[test]
    fn round_trip_keeps_bytes_identical() {
        let bytes = tiny_class(52);
        let cf = ClassFile::parse(&bytes).unwrap();
        assert_eq!(cf.name(), "p/A");
        assert_eq!(cf.super_name(), Some("java/lang/Object"));
        assert_eq!(cf.to_bytes(), bytes);
    }

    #[test]
    fn versions_45_to_69_are_read_and_70_is_rejected_with_the_version_named() {
        for major in [45, 52, 61, 65, 69] {
            assert_eq!(ClassFile::parse(&tiny_class(major)).unwrap().major_version, major);
        }
        let err = ClassFile::parse(&tiny_class(70)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unsupported class-file version 70.0 (Java 26); ferrosuite supports versions 45 (Java 1.1) to 69 (Java 25)"
        );
    }

    #[test]
    fn truncation_is_reported_not_panicked() {
        let bytes = tiny_class(52);
        for cut in 0..bytes.len() {
            assert!(ClassFile::parse(&bytes[..cut]).is_err(), "prefix {cut} parsed");
        }
    }

    #[test]
    fn bad_magic_is_named() {
        let err = ClassFile::parse(b"PK\x03\x04xxxxxxxx").unwrap_err();
        assert_eq!(err.to_string(), "not a class file: magic number is 0x504b0304, expected 0xcafebabe");
    }
}
