//! Helpers of the integration tests: the JDK's tools and Java literals.

#![allow(dead_code)]

use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

use tardis::expr::Value;

/// `tool` of `$JAVA_HOME/bin` (Debian's JDK 17 by default), else from the `PATH`.
pub fn java_tool(tool: &str) -> OsString {
    let home = std::env::var("JAVA_HOME").unwrap_or_else(|_| "/usr/lib/jvm/java-17-openjdk-amd64".into());
    let p = Path::new(&home).join("bin").join(tool);
    if p.exists() { p.into_os_string() } else { tool.into() }
}

/// Compiles `sources` into `out` with `cp` on the class path; panics with javac's output on an error.
pub fn javac(out: &Path, cp: &Path, sources: &[&Path]) {
    let run = Command::new(java_tool("javac")).arg("-cp").arg(cp).arg("-d").arg(out).args(sources).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
}

/// The standard output of `java -cp cp main`; panics when it fails.
pub fn java(cp: &Path, main: &str) -> String {
    let run = Command::new(java_tool("java")).arg("-cp").arg(cp).arg(main).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    String::from_utf8(run.stdout).unwrap()
}

/// A Java expression of exactly `v` (bits for floating point).
pub fn java_value(v: Value) -> String {
    match v {
        Value::Int(x) => format!("({x})"),
        Value::Long(x) if x == i64::MIN => "(-9223372036854775807L - 1L)".into(),
        Value::Long(x) => format!("({x}L)"),
        Value::Float(x) => format!("Float.intBitsToFloat({:#x})", x.to_bits()),
        Value::Double(x) => format!("Double.longBitsToDouble({:#x}L)", x.to_bits()),
    }
}

/// `v` as the generated programs print it: an integer, `NaN`, or the bits
/// of a float or double (`f:` or `d:` hex).
pub fn shown(v: Value) -> String {
    match v {
        Value::Int(x) => x.to_string(),
        Value::Long(x) => x.to_string(),
        Value::Float(x) if x.is_nan() => "NaN".into(),
        Value::Double(x) if x.is_nan() => "NaN".into(),
        Value::Float(x) => format!("f:{:x}", x.to_bits()),
        Value::Double(x) => format!("d:{:x}", x.to_bits()),
    }
}

/// The Java code printing `r` (of Java type `ty`) as [`shown`] does.
pub fn java_show(ty: &str) -> &'static str {
    match ty {
        "float" => "Float.isNaN(r) ? \"NaN\" : \"f:\" + Integer.toHexString(Float.floatToRawIntBits(r))",
        "double" => "Double.isNaN(r) ? \"NaN\" : \"d:\" + Long.toHexString(Double.doubleToRawLongBits(r))",
        _ => "String.valueOf(r)",
    }
}

/// A Java string literal of exactly `text` (UTF-16 units escaped; the
/// quote, backslash and line ends by their character escapes, since
/// javac reads `\u` escapes before it reads literals).
pub fn java_string(text: &str) -> String {
    let units: String = text
        .encode_utf16()
        .map(|u| match u {
            0x22 => "\\\"".to_string(),
            0x5c => "\\\\".to_string(),
            0x0a => "\\n".to_string(),
            0x0d => "\\r".to_string(),
            _ => format!("\\u{u:04x}"),
        })
        .collect();
    format!("\"{units}\"")
}
