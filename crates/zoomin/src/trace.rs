//! Reading the value tracer's `values.txt` (`ValueTracer.java`, written by
//! a run in [`instrument::record::RecordMode::Values`]): one [`Execution`]
//! per normal exit of a traced method, with its variables on entry and on
//! exit and its coverage profile (ZoomIn step 1, TECHNIQUES.md §3).

use std::collections::BTreeSet;

/// A traced value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// A non-null object other than a string or a boxed primitive: its
    /// identity number (equal numbers: the same object).
    Ref(u64),
    /// An integral value (`byte` to `long`, and `char` by its code).
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A `float` or `double` (-0.0 and NaN kept).
    Float(f64),
    /// A string (at most 200 chars).
    Str(String),
}

impl Value {
    /// Reads the tracer's encoding (`n`, `r:3`, `i:5`, `z:1`, `d:-0.0`, `s:text`).
    pub fn parse(text: &str) -> Option<Value> {
        if text == "n" {
            return Some(Value::Null);
        }
        let (tag, rest) = text.split_once(':')?;
        Some(match tag {
            "r" => Value::Ref(rest.parse().ok()?),
            "i" => Value::Int(rest.parse().ok()?),
            "z" => Value::Bool(rest == "1"),
            "d" => Value::Float(parse_double(rest)?),
            "s" => Value::Str(unescape(rest)),
            _ => return None,
        })
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Null => write!(f, "null"),
            Value::Ref(id) => write!(f, "object#{id}"),
            Value::Int(v) => write!(f, "{v}"),
            Value::Bool(v) => write!(f, "{v}"),
            Value::Float(v) if v.is_nan() => write!(f, "NaN"),
            Value::Float(v) if *v == 0.0 && v.is_sign_negative() => write!(f, "-0.0"),
            Value::Float(v) => write!(f, "{v:?}"),
            Value::Str(s) => write!(f, "{s:?}"),
        }
    }
}

/// Java's `Double.toString` output (`NaN`, `Infinity`, `-0.0`, `1.0E10`).
fn parse_double(text: &str) -> Option<f64> {
    match text {
        "NaN" => Some(f64::NAN),
        "Infinity" => Some(f64::INFINITY),
        "-Infinity" => Some(f64::NEG_INFINITY),
        _ => text.parse().ok(),
    }
}

/// Undoes the tracer's string escapes (`\\ \s \e \t \r \n` for `\ ; = TAB CR LF`).
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('s') => out.push(';'),
            Some('e') => out.push('='),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('n') => out.push('\n'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// One normal exit of a traced method.
#[derive(Debug, Clone, PartialEq)]
pub struct Execution {
    /// The test that ran it (`Class#method`, as the runner names it).
    pub test: String,
    /// The traced method's id (`instrument::record::RecordedMethod::id`).
    pub method: u32,
    /// Traced calls in progress below it (0: called from outside the class).
    pub depth: u32,
    /// The line of the test method that made the outermost traced call.
    pub line: Option<u32>,
    /// Variables on entry: `this...` and the parameters (`p0...`).
    pub entry: Vec<(String, Value)>,
    /// Variables on exit: `this...` and `return...`.
    pub exit: Vec<(String, Value)>,
    /// Lines of the class under test run between entry and exit, sorted.
    pub profile: BTreeSet<u32>,
}

/// The executions of `text` (a `values.txt`), in order; malformed lines
/// are skipped.
pub fn parse(text: &str) -> Vec<Execution> {
    let mut test = String::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields.as_slice() {
            ["T", name] => test = javarun::unescape(name),
            ["X", method, depth, at, entry, exit, profile] => {
                let (Ok(method), Ok(depth), Ok(at)) = (method.parse(), depth.parse(), at.parse::<i64>()) else {
                    continue;
                };
                out.push(Execution {
                    test: test.clone(),
                    method,
                    depth,
                    line: u32::try_from(at).ok(),
                    entry: variables(entry),
                    exit: variables(exit),
                    profile: profile.split(',').filter_map(|l| l.parse().ok()).collect(),
                });
            }
            _ => {}
        }
    }
    out
}

/// `name=value;...` pairs; a pair that does not parse is left out.
fn variables(text: &str) -> Vec<(String, Value)> {
    text.split(';')
        .filter_map(|pair| {
            let (name, value) = pair.split_once('=')?;
            Some((name.to_string(), Value::parse(value)?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_executions_and_values() {
        let text = "J\nT\tp.CTest#neg\nX\t3\t0\t17\tthis=r:1;this.re=d:-0.0;p0=s:a\\sb\\e\tthis=r:1;return=i:-4\t10,11,12\nbad\n";
        let execs = parse(text);
        assert_eq!(execs.len(), 1);
        let e = &execs[0];
        assert_eq!((e.test.as_str(), e.method, e.depth, e.line), ("p.CTest#neg", 3, 0, Some(17)));
        assert_eq!(e.entry[1], ("this.re".to_string(), Value::Float(-0.0)));
        assert!(matches!(e.entry[1].1, Value::Float(v) if v.is_sign_negative()));
        assert_eq!(e.entry[2].1, Value::Str("a;b=".into()));
        assert_eq!(e.exit[1].1, Value::Int(-4));
        assert_eq!(e.profile.iter().copied().collect::<Vec<_>>(), vec![10, 11, 12]);
        assert_eq!(Value::Float(-0.0).to_string(), "-0.0");
    }
}
