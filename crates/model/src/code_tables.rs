//! Decoders and encoders for the tables nested in a `Code` attribute that
//! hold bytecode offsets: `LineNumberTable` (JVMS §4.7.12) and
//! `LocalVariableTable` / `LocalVariableTypeTable` (JVMS §4.7.13, §4.7.14,
//! which share one layout).

use crate::classfile::{ClassFileError, put_u16};
use crate::reader::Reader;

/// One `LineNumberTable` row: the line starting at bytecode index `start_pc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineNumber {
    /// Bytecode index of the first instruction of the line.
    pub start_pc: u32,
    /// The source line number.
    pub line: u16,
}

/// One `LocalVariableTable` (or `LocalVariableTypeTable`) row.
/// `start_pc..start_pc + length` is the byte range where the variable in
/// slot `index` is live; `descriptor_index` is the descriptor (or the
/// signature for the type table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalVariable {
    /// Bytecode index where the variable becomes live.
    pub start_pc: u32,
    /// Length in bytes of the range where it is live.
    pub length: u32,
    /// Constant-pool index of the variable's name (a `CONSTANT_Utf8`).
    pub name_index: u16,
    /// Constant-pool index of its field descriptor, or of its generic signature in a `LocalVariableTypeTable`.
    pub descriptor_index: u16,
    /// The local-variable slot (a `long` or `double` also takes the next one).
    pub index: u16,
}

/// Decodes a `LineNumberTable` body.
///
/// # Errors
/// [`ClassFileError::Truncated`] when the body is shorter than its count says.
pub fn parse_line_numbers(info: &[u8]) -> Result<Vec<LineNumber>, ClassFileError> {
    let mut r = Reader::new(info);
    let n = r.u16("line_number_table_length")?;
    (0..n).map(|_| Ok(LineNumber { start_pc: u32::from(r.u16("start_pc")?), line: r.u16("line_number")? })).collect()
}

/// Encodes a `LineNumberTable` body.
pub fn write_line_numbers(rows: &[LineNumber]) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 + rows.len() * 4);
    put_u16(&mut out, rows.len() as u16);
    for row in rows {
        put_u16(&mut out, row.start_pc as u16);
        put_u16(&mut out, row.line);
    }
    out
}

/// Decodes a `LocalVariableTable` or `LocalVariableTypeTable` body.
///
/// # Errors
/// [`ClassFileError::Truncated`] when the body is shorter than its count says.
pub fn parse_local_variables(info: &[u8]) -> Result<Vec<LocalVariable>, ClassFileError> {
    let mut r = Reader::new(info);
    let n = r.u16("local_variable_table_length")?;
    (0..n)
        .map(|_| {
            Ok(LocalVariable {
                start_pc: u32::from(r.u16("start_pc")?),
                length: u32::from(r.u16("length")?),
                name_index: r.u16("name_index")?,
                descriptor_index: r.u16("descriptor_index")?,
                index: r.u16("index")?,
            })
        })
        .collect()
}

/// Encodes a `LocalVariableTable` or `LocalVariableTypeTable` body.
pub fn write_local_variables(rows: &[LocalVariable]) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 + rows.len() * 10);
    put_u16(&mut out, rows.len() as u16);
    for row in rows {
        for v in [row.start_pc as u16, row.length as u16, row.name_index, row.descriptor_index, row.index] {
            put_u16(&mut out, v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_round_trip() {
        let lines = vec![LineNumber { start_pc: 0, line: 10 }, LineNumber { start_pc: 7, line: 11 }];
        assert_eq!(parse_line_numbers(&write_line_numbers(&lines)).unwrap(), lines);
        let vars = vec![LocalVariable { start_pc: 0, length: 9, name_index: 5, descriptor_index: 6, index: 1 }];
        assert_eq!(parse_local_variables(&write_local_variables(&vars)).unwrap(), vars);
        assert!(parse_line_numbers(&[0, 2, 0, 0]).is_err());
    }
}
