//! Annotations of classes and members (JVMS §4.7.16): which annotation
//! types an annotations attribute names, without decoding their values.

use crate::classfile::{Attribute, ClassFile};

/// The descriptors (`Lorg/junit/Test;`) of the annotations, visible at run
/// time or not, among `attributes` (a class's, a field's or a method's).
/// Malformed attributes give the annotations before the damage.
pub fn annotation_descriptors<'a>(cf: &'a ClassFile, attributes: &[Attribute]) -> Vec<&'a str> {
    attributes
        .iter()
        .filter(|a| matches!(cf.attribute_name(a), "RuntimeVisibleAnnotations" | "RuntimeInvisibleAnnotations"))
        .flat_map(|a| annotation_types(&a.info))
        .filter_map(|t| cf.constant_pool.utf8(t).ok())
        .collect()
}

/// The type indices of the top-level annotations of an annotations
/// attribute body; stops quietly at malformed input.
pub fn annotation_types(info: &[u8]) -> Vec<u16> {
    let mut r = ByteCursor { bytes: info, pos: 0 };
    let mut out = Vec::new();
    let Some(n) = r.u16() else { return out };
    for _ in 0..n {
        let Some(t) = r.u16() else { break };
        out.push(t);
        if r.annotation_body().is_none() {
            break;
        }
    }
    out
}

struct ByteCursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl ByteCursor<'_> {
    fn u8(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.pos)?;
        self.pos += 1;
        Some(b)
    }

    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_be_bytes([self.u8()?, self.u8()?]))
    }

    /// Skips `num_element_value_pairs` and the pairs of an annotation.
    fn annotation_body(&mut self) -> Option<()> {
        let pairs = self.u16()?;
        for _ in 0..pairs {
            self.u16()?;
            self.element_value()?;
        }
        Some(())
    }

    fn element_value(&mut self) -> Option<()> {
        match self.u8()? {
            b'e' => {
                self.u16()?;
                self.u16()?;
            }
            b'@' => {
                self.u16()?;
                self.annotation_body()?;
            }
            b'[' => {
                for _ in 0..self.u16()? {
                    self.element_value()?;
                }
            }
            _ => {
                self.u16()?;
            }
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotation_attributes_with_nested_values_are_skipped_correctly() {
        // One annotation #7 with pairs: #8 = 'e'(#9,#10), #11 = '['(2: 'I'#12, '@'#13{0 pairs})
        // followed by annotation #14 without pairs.
        let info =
            [0, 2, 0, 7, 0, 2, 0, 8, b'e', 0, 9, 0, 10, 0, 11, b'[', 0, 2, b'I', 0, 12, b'@', 0, 13, 0, 0, 0, 14, 0, 0];
        assert_eq!(annotation_types(&info), [7, 14]);
        assert_eq!(annotation_types(&info[..5]), [7]);
    }
}
