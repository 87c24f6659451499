//! Reading back the value log of one execution (`ValueLog.java`, the probes
//! of `instrument::probes::value_log`): the cap is set before each test,
//! the events are decoded after it.

use exec::{LoggedValue, ValueEvent, ValueLog};
use instrument::tracer::value_log as kind;

/// Decodes `ValueLog.exportValues()` (`[count, truncated, (site << 8 |
/// kind, bits)...]`) with `ValueLog.exportValueTexts()` (per event a
/// string's text, read up to a character limit, or an object's class name).
/// A string whose text is shorter than its logged length was cut by the
/// limit (or the log's character budget) and is kept as `Str(None)`; an
/// event of an unknown kind ends the log as truncated.
pub fn parse_values(raw: &[i64], texts: &[Option<String>]) -> ValueLog {
    let count = raw.first().copied().unwrap_or(0).max(0) as usize;
    let mut log = ValueLog { events: Vec::with_capacity(count), truncated: raw.get(1).is_some_and(|t| *t != 0) };
    for (i, pair) in raw.get(2..).unwrap_or_default().chunks_exact(2).take(count).enumerate() {
        let (site, kind, bits) = ((pair[0] >> 8) as u32, (pair[0] & 0xff) as u8, pair[1]);
        let text = texts.get(i).cloned().flatten();
        let Some(value) = decode(kind, bits, text) else {
            log.truncated = true;
            break;
        };
        log.events.push(ValueEvent { site, value });
    }
    log
}

/// One value from its kind, bits and text.
fn decode(k: u8, bits: i64, text: Option<String>) -> Option<LoggedValue> {
    Some(match k {
        kind::INT => LoggedValue::Int(bits as i32),
        kind::LONG => LoggedValue::Long(bits),
        kind::FLOAT => LoggedValue::Float(f32::from_bits(bits as u32)),
        kind::DOUBLE => LoggedValue::Double(f64::from_bits(bits as u64)),
        kind::NULL => LoggedValue::Null,
        kind::STRING => LoggedValue::Str(text.filter(|t| t.encode_utf16().count() as i64 == bits)),
        kind::OBJECT => LoggedValue::Object { class: text?, identity: bits as u32 },
        k if (kind::BOX..kind::BOX + kind::BOXES.len() as u8).contains(&k) => {
            LoggedValue::Boxed { class: kind::BOXES[(k - kind::BOX) as usize].to_string(), bits }
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_decodes_and_cut_strings_are_incomplete() {
        let ev = |site: i64, k: u8, bits: i64| [site << 8 | k as i64, bits];
        let events = [
            ev(3, kind::INT, -7),
            ev(4, kind::LONG, i64::MIN),
            ev(5, kind::FLOAT, 1.5f32.to_bits() as i64),
            ev(6, kind::DOUBLE, (-0.0f64).to_bits() as i64),
            ev(7, kind::NULL, 0),
            ev(8, kind::STRING, 2),
            ev(8, kind::STRING, 5),
            ev(9, kind::OBJECT, 1),
            ev(10, kind::BOX + 5, 1),
        ];
        let mut raw = vec![events.len() as i64, 0];
        raw.extend(events.iter().flatten());
        let mut texts = vec![None; events.len()];
        texts[5] = Some("ab".to_string());
        texts[6] = Some("abc".to_string());
        texts[7] = Some("java.util.ArrayList".to_string());
        let log = parse_values(&raw, &texts);
        assert!(!log.truncated);
        let values: Vec<_> = log.events.iter().map(|e| (e.site, e.value.clone())).collect();
        assert_eq!(values[0], (3, LoggedValue::Int(-7)));
        assert_eq!(values[1], (4, LoggedValue::Long(i64::MIN)));
        assert_eq!(values[2], (5, LoggedValue::Float(1.5)));
        assert!(matches!(values[3], (6, LoggedValue::Double(d)) if d == 0.0 && d.is_sign_negative()));
        assert_eq!(values[4], (7, LoggedValue::Null));
        assert_eq!(values[5], (8, LoggedValue::Str(Some("ab".into()))));
        assert_eq!(values[6], (8, LoggedValue::Str(None)));
        assert_eq!(values[7], (9, LoggedValue::Object { class: "java.util.ArrayList".into(), identity: 1 }));
        assert_eq!(values[8], (10, LoggedValue::Boxed { class: "java/lang/Boolean".into(), bits: 1 }));
    }

    #[test]
    fn an_unknown_kind_or_a_short_array_ends_the_log_as_truncated() {
        let log = parse_values(&[2, 0, 1 << 8, 42, 2 << 8 | 99, 0], &[]);
        assert_eq!(log.events, [ValueEvent { site: 1, value: LoggedValue::Int(42) }]);
        assert!(log.truncated);
        let log = parse_values(&[3, 1, 1 << 8, 42], &[]);
        assert_eq!(log.events.len(), 1);
        assert!(log.truncated);
        assert!(parse_values(&[], &[]).is_empty());
    }
}
