//! The `StackMapTable` attribute (JVMS §4.7.4), decoded with absolute
//! bytecode offsets so that a rewriter can move frames and re-encode them.
//!
//! Encoding chooses the compact or extended form of each frame from its new
//! offset delta, which is what `ristretto_classfile` 0.31 gets wrong (see
//! ARCHITECTURE.md), so ferrosuite writes this attribute itself.

use crate::classfile::{ClassFileError, put_u16};
use crate::reader::Reader;

/// A verification type (JVMS §4.7.4 `verification_type_info`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VType {
    /// `top`: a slot without a usable value.
    Top,
    /// `int` (and `boolean`, `byte`, `char`, `short`).
    Integer,
    /// `float`.
    Float,
    /// `double` (one entry for its two slots).
    Double,
    /// `long` (one entry for its two slots).
    Long,
    /// The `null` reference.
    Null,
    /// `this` in a constructor before the superclass constructor has been called.
    UninitializedThis,
    /// Constant-pool index of a `CONSTANT_Class`.
    Object(u16),
    /// Bytecode index of the `new` instruction that created the object.
    Uninitialized(u32),
}

/// The shape of a frame relative to the previous one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrameKind {
    /// Same locals as the previous frame, empty stack.
    Same,
    /// Same locals, one stack item.
    SameLocals1(VType),
    /// The last `k` locals (1..=3) removed, empty stack.
    Chop(u8),
    /// 1..=3 locals added, empty stack.
    Append(Vec<VType>),
    /// Explicit locals and stack.
    Full {
        /// The local-variable slots, in order.
        locals: Vec<VType>,
        /// The operand-stack entries, bottom first.
        stack: Vec<VType>,
    },
}

/// One stack-map frame at an absolute bytecode index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// Bytecode index of the instruction the frame describes.
    pub offset: u32,
    /// The frame's contents, relative to the previous frame.
    pub kind: FrameKind,
}

/// Decodes a `StackMapTable` body into frames with absolute offsets.
///
/// # Errors
/// [`ClassFileError`] on truncation or an unknown frame or type tag.
pub fn parse_stack_map(info: &[u8]) -> Result<Vec<Frame>, ClassFileError> {
    let mut r = Reader::new(info);
    let n = r.u16("number_of_entries")?;
    let mut frames = Vec::with_capacity(n as usize);
    let mut prev: Option<u32> = None;
    for _ in 0..n {
        let tag = r.u8("frame_type")?;
        let (delta, kind) = match tag {
            0..=63 => (u32::from(tag), FrameKind::Same),
            64..=127 => (u32::from(tag - 64), FrameKind::SameLocals1(read_vtype(&mut r)?)),
            247 => (u32::from(r.u16("offset_delta")?), FrameKind::SameLocals1(read_vtype(&mut r)?)),
            248..=250 => (u32::from(r.u16("offset_delta")?), FrameKind::Chop(251 - tag)),
            251 => (u32::from(r.u16("offset_delta")?), FrameKind::Same),
            252..=254 => {
                let delta = u32::from(r.u16("offset_delta")?);
                let locals = (0..tag - 251).map(|_| read_vtype(&mut r)).collect::<Result<_, _>>()?;
                (delta, FrameKind::Append(locals))
            }
            255 => {
                let delta = u32::from(r.u16("offset_delta")?);
                let locals = read_vtypes(&mut r)?;
                let stack = read_vtypes(&mut r)?;
                (delta, FrameKind::Full { locals, stack })
            }
            _ => return Err(ClassFileError::Malformed(format!("unknown stack-map frame type {tag}"))),
        };
        let offset = match prev {
            None => delta,
            Some(p) => p + delta + 1,
        };
        prev = Some(offset);
        frames.push(Frame { offset, kind });
    }
    Ok(frames)
}

/// Encodes frames as a `StackMapTable` body, choosing each frame's compact
/// or extended form from its offset delta.
///
/// # Errors
/// [`ClassFileError::Malformed`] when the offsets are not strictly
/// increasing or a delta does not fit in 16 bits.
pub fn write_stack_map(frames: &[Frame]) -> Result<Vec<u8>, ClassFileError> {
    let mut out = Vec::with_capacity(2 + frames.len() * 4);
    put_u16(&mut out, frames.len() as u16);
    let mut prev: Option<u32> = None;
    for f in frames {
        let delta = match prev {
            None => Some(f.offset),
            Some(p) => f.offset.checked_sub(p + 1),
        };
        let delta = delta.and_then(|d| u16::try_from(d).ok()).ok_or_else(|| {
            ClassFileError::Malformed(format!(
                "stack-map frame at offset {} does not follow the previous one",
                f.offset
            ))
        })?;
        prev = Some(f.offset);
        write_frame(&mut out, delta, &f.kind);
    }
    Ok(out)
}

fn write_frame(out: &mut Vec<u8>, delta: u16, kind: &FrameKind) {
    match kind {
        FrameKind::Same if delta <= 63 => out.push(delta as u8),
        FrameKind::Same => {
            out.push(251);
            put_u16(out, delta);
        }
        FrameKind::SameLocals1(t) if delta <= 63 => {
            out.push(64 + delta as u8);
            write_vtype(out, *t);
        }
        FrameKind::SameLocals1(t) => {
            out.push(247);
            put_u16(out, delta);
            write_vtype(out, *t);
        }
        FrameKind::Chop(k) => {
            out.push(251 - k);
            put_u16(out, delta);
        }
        FrameKind::Append(locals) => {
            out.push(251 + locals.len() as u8);
            put_u16(out, delta);
            locals.iter().for_each(|t| write_vtype(out, *t));
        }
        FrameKind::Full { locals, stack } => {
            out.push(255);
            put_u16(out, delta);
            for list in [locals, stack] {
                put_u16(out, list.len() as u16);
                list.iter().for_each(|t| write_vtype(out, *t));
            }
        }
    }
}

fn read_vtypes(r: &mut Reader<'_>) -> Result<Vec<VType>, ClassFileError> {
    let n = r.u16("verification type count")?;
    (0..n).map(|_| read_vtype(r)).collect()
}

fn read_vtype(r: &mut Reader<'_>) -> Result<VType, ClassFileError> {
    Ok(match r.u8("verification type tag")? {
        0 => VType::Top,
        1 => VType::Integer,
        2 => VType::Float,
        3 => VType::Double,
        4 => VType::Long,
        5 => VType::Null,
        6 => VType::UninitializedThis,
        7 => VType::Object(r.u16("class index")?),
        8 => VType::Uninitialized(u32::from(r.u16("new offset")?)),
        t => return Err(ClassFileError::Malformed(format!("unknown verification type tag {t}"))),
    })
}

fn write_vtype(out: &mut Vec<u8>, t: VType) {
    match t {
        VType::Top => out.push(0),
        VType::Integer => out.push(1),
        VType::Float => out.push(2),
        VType::Double => out.push(3),
        VType::Long => out.push(4),
        VType::Null => out.push(5),
        VType::UninitializedThis => out.push(6),
        VType::Object(i) => {
            out.push(7);
            put_u16(out, i);
        }
        VType::Uninitialized(off) => {
            out.push(8);
            put_u16(out, off as u16);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_take_compact_or_extended_form_from_their_delta() {
        let frames = vec![
            Frame { offset: 0, kind: FrameKind::Same },
            Frame { offset: 5, kind: FrameKind::SameLocals1(VType::Integer) },
            Frame { offset: 200, kind: FrameKind::Same },
            Frame { offset: 300, kind: FrameKind::SameLocals1(VType::Uninitialized(17)) },
            Frame { offset: 301, kind: FrameKind::Append(vec![VType::Object(3), VType::Long]) },
            Frame { offset: 310, kind: FrameKind::Chop(2) },
            Frame { offset: 320, kind: FrameKind::Full { locals: vec![VType::Top], stack: vec![VType::Null] } },
        ];
        let bytes = write_stack_map(&frames).unwrap();
        // The second frame sits at offset 5: delta 4 after a frame at 0.
        assert_eq!(&bytes[2..4], &[0, 64 + 4]);
        // The third frame's delta 194 needs same_frame_extended (251).
        assert_eq!(bytes[5], 251);
        assert_eq!(parse_stack_map(&bytes).unwrap(), frames);
    }

    #[test]
    fn frames_at_one_offset_are_an_error_not_an_underflow() {
        let frames = vec![Frame { offset: 4, kind: FrameKind::Same }, Frame { offset: 4, kind: FrameKind::Same }];
        assert!(write_stack_map(&frames).is_err());
    }
}
