//! The recorder's event lines (`Recorder.java` documents the format) read
//! back into calls: each outermost call with its receiver, arguments,
//! result, and whether it ended by an exception.
//!
//! Entries and exits are paired per JVM and thread by stack depth: an
//! entry at depth `d` closes the open calls at depth `d` or deeper (they
//! ended by an exception, which writes no exit line), an exit at depth `d`
//! closes the deeper ones likewise and completes the call open at `d`.

use std::collections::BTreeMap;

use javarun::unescape;
use serde::Serialize;

/// A value the recorder saw: an argument, a receiver or a result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Value {
    /// `null`.
    Null,
    /// A primitive (or its box): the descriptor letter (`I`, `J`, `Z`, `C`
    /// with the char's code, `D`, `F`, `S`, `B`) and the value as Java
    /// prints it.
    Primitive(char, String),
    /// A string (at most 200 characters).
    Str(String),
    /// An enum constant: class (binary name) and constant name.
    Enum(String, String),
    /// Any other object.
    Object(ObjectRef),
}

/// An object by identity, its class, and its abstract profile when seen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ObjectRef {
    /// The object: the JVM it lived in (runs of the sample tests number
    /// from 0) and its number there.
    pub id: ObjectId,
    /// Its class (binary name).
    pub class: String,
    /// Its abstract profile (`field=+;other=null`, or `size=2` for JDK
    /// collections and arrays), Palus's abstract object profile.
    pub profile: String,
}

/// An object's identity across the whole recording: (JVM, number).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct ObjectId(pub u32, pub u32);

/// One outermost call of a recorded method.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Call {
    /// The test it ran in (`test.Class#method`).
    pub test: String,
    /// The recorded method's id (`instrument::record::RecordedMethod::id`).
    pub method: u32,
    /// The receiver: for a constructor, the object it made.
    pub receiver: Option<ObjectId>,
    /// The arguments, in order.
    pub args: Vec<Value>,
    /// The result: `None` for `void`, a constructor, or a call that threw.
    pub result: Option<Value>,
    /// Whether it ended by an exception (or was still running when the
    /// recording ended).
    pub threw: bool,
}

/// A call entered and not yet paired with its exit.
struct Open {
    depth: u32,
    call: usize,
}

/// Reads the recorder's lines into calls, in the order they were entered.
/// Malformed lines are skipped (a JVM killed while writing leaves half a
/// line).
pub fn parse(text: &str) -> Vec<Call> {
    let mut calls: Vec<Call> = Vec::new();
    let mut open: BTreeMap<String, Vec<Open>> = BTreeMap::new();
    let mut jvm: u32 = 0;
    let mut test = String::new();
    let mut seen_jvm = false;
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields[0] {
            "J" => {
                close_all(&mut open, &mut calls);
                jvm += u32::from(seen_jvm);
                seen_jvm = true;
            }
            "T" if fields.len() == 2 => {
                close_all(&mut open, &mut calls);
                test = unescape(fields[1]);
            }
            "E" if fields.len() >= 5 => {
                let Some((thread, depth, method, receiver)) = header(&fields, jvm) else { continue };
                let stack = open.entry(thread).or_default();
                close_from(stack, depth, &mut calls);
                let args = fields[5..].iter().map(|f| value(f, jvm)).collect::<Option<Vec<_>>>();
                let Some(args) = args else { continue };
                stack.push(Open { depth, call: calls.len() });
                calls.push(Call { test: test.clone(), method, receiver, args, result: None, threw: true });
            }
            "X" if fields.len() == 6 => {
                let Some((thread, depth, method, receiver)) = header(&fields, jvm) else { continue };
                let result = match fields[5] {
                    "v" => None,
                    f => match value(f, jvm) {
                        Some(v) => Some(v),
                        None => continue,
                    },
                };
                let stack = open.entry(thread).or_default();
                close_from(stack, depth + 1, &mut calls);
                if stack.last().is_some_and(|o| o.depth == depth && calls[o.call].method == method) {
                    let o = stack.pop().expect("checked");
                    let call = &mut calls[o.call];
                    call.threw = false;
                    call.receiver = call.receiver.or(receiver);
                    call.result = result;
                }
            }
            _ => {}
        }
    }
    calls
}

/// Thread key, depth, method id and receiver of an `E` or `X` line.
fn header(fields: &[&str], jvm: u32) -> Option<(String, u32, u32, Option<ObjectId>)> {
    let depth = fields[2].parse().ok()?;
    let method = fields[3].parse().ok()?;
    let receiver = match fields[4] {
        "-" => None,
        id => Some(ObjectId(jvm, id.parse().ok()?)),
    };
    Some((format!("{jvm}:{}", fields[1]), depth, method, receiver))
}

/// Leaves the calls open at `depth` or deeper as ended by an exception.
fn close_from(stack: &mut Vec<Open>, depth: u32, calls: &mut [Call]) {
    while stack.last().is_some_and(|o| o.depth >= depth) {
        let o = stack.pop().expect("checked");
        calls[o.call].threw = true;
    }
}

fn close_all(open: &mut BTreeMap<String, Vec<Open>>, calls: &mut [Call]) {
    for stack in open.values_mut() {
        close_from(stack, 0, calls);
    }
}

/// A value field (`n`, `I:5`, `s:text`, `e:Class.NAME`, `o:id:Class:profile`).
fn value(field: &str, jvm: u32) -> Option<Value> {
    if field == "n" {
        return Some(Value::Null);
    }
    let (kind, rest) = field.split_once(':')?;
    Some(match kind {
        "s" => Value::Str(unescape(rest)),
        "e" => {
            let (class, name) = rest.rsplit_once('.')?;
            Value::Enum(class.to_string(), name.to_string())
        }
        "o" => {
            let mut parts = rest.splitn(3, ':');
            let id = parts.next()?.parse().ok()?;
            let class = parts.next()?.to_string();
            let profile = unescape(parts.next()?);
            Value::Object(ObjectRef { id: ObjectId(jvm, id), class, profile })
        }
        k if k.len() == 1 && "IJZCDFSB".contains(k) && !rest.is_empty() => {
            Value::Primitive(k.chars().next()?, rest.to_string())
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_and_exits_pair_by_depth_and_exceptions_close_calls() {
        let text = "J\nT\tp.T#a\n\
            E\t1\t5\t0\t-\tI:2\ts:a\\tb\n\
            X\t1\t5\t0\t1\tv\n\
            E\t1\t5\t1\t1\tn\n\
            E\t1\t5\t2\t1\to:2:p.Conn:open=true;n=+\n\
            X\t1\t5\t2\t1\te:p.State.OPEN\n\
            J\nT\tp.T#b\n\
            E\t1\t7\t3\t1\n";
        let calls = parse(text);
        assert_eq!(calls.len(), 4);
        assert_eq!(calls[0].receiver, Some(ObjectId(0, 1)), "a constructor's receiver comes from its exit");
        assert_eq!(calls[0].args, [Value::Primitive('I', "2".into()), Value::Str("a\tb".into())]);
        assert!(!calls[0].threw);
        assert!(calls[1].threw, "a call followed by an entry at its depth ended by an exception");
        assert_eq!(calls[2].result, Some(Value::Enum("p.State".into(), "OPEN".into())));
        let Value::Object(conn) = &calls[2].args[0] else { panic!("{:?}", calls[2]) };
        assert_eq!((conn.id, conn.class.as_str(), conn.profile.as_str()), (ObjectId(0, 2), "p.Conn", "open=true;n=+"));
        assert_eq!((calls[3].test.as_str(), calls[3].receiver), ("p.T#b", Some(ObjectId(1, 1))));
        assert!(calls[3].threw, "still open at the end of the recording");
    }

    #[test]
    fn malformed_and_half_written_lines_are_skipped() {
        let calls = parse("J\nE\t1\tx\t0\t-\nE\t1\t3\t0\t-\tq:1\nE\t1\t3\t0\t-\tI:1\nX\t1\t3\t0\t-\tI:");
        assert_eq!(calls.len(), 1);
        assert!(calls[0].threw && calls[0].result.is_none(), "{calls:?}");
    }
}
