//! Reading the JDK sources: `src.zip` (module folders, as shipped by
//! Debian's `openjdk-17-source`), the unqualified exports of each module's
//! `module-info.java`, and the compilation units of exported packages.

use std::io::Read;
use std::path::Path;

/// Errors reading `src.zip`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SourceError {
    /// The archive cannot be opened.
    #[error("cannot open {path}: {source}; install the JDK sources (Debian: apt-get install openjdk-17-source)")]
    Open {
        /// The path given.
        path: String,
        /// Why it could not be opened.
        source: std::io::Error,
    },
    /// The archive is not a readable zip file.
    #[error("{path} is not a readable zip archive ({source}); it may be truncated: reinstall openjdk-17-source")]
    Zip {
        /// The path given.
        path: String,
        /// What the zip reader said.
        source: zip::result::ZipError,
    },
    /// The archive has no folder for a module.
    #[error("{path} has no {module}/module-info.java: not a JDK src.zip with module folders (JDK 9 or later)")]
    NoModule {
        /// The path given.
        path: String,
        /// The module looked for.
        module: String,
    },
}

/// One compilation unit of an exported package.
pub struct Unit {
    /// Module name (`java.base`).
    pub module: String,
    /// Path inside the archive (`java.base/java/lang/String.java`).
    pub path: String,
    /// The source text.
    pub text: String,
}

/// The modules read by default: `java.base` holds every package the KAT
/// graph must cover (`java.lang`, `java.util`, `java.io`, `java.nio`,
/// `java.time`, `java.text`, `java.math`, `java.net`, ...).
pub const DEFAULT_MODULES: &[&str] = &["java.base"];

/// Reads the compilation units of the exported packages of `modules`.
///
/// # Errors
/// [`SourceError`] when the archive is missing, corrupt, or lacks a module.
pub fn read_units(src_zip: &Path, modules: &[&str]) -> Result<Vec<Unit>, SourceError> {
    let path = src_zip.display().to_string();
    let file = std::fs::File::open(src_zip).map_err(|source| SourceError::Open { path: path.clone(), source })?;
    let mut zip = zip::ZipArchive::new(file).map_err(|source| SourceError::Zip { path: path.clone(), source })?;
    let mut units = Vec::new();
    for module in modules {
        let info = read_entry(&mut zip, &format!("{module}/module-info.java"))
            .ok_or_else(|| SourceError::NoModule { path: path.clone(), module: module.to_string() })?;
        let exported: Vec<String> =
            exports(&info).into_iter().map(|p| format!("{module}/{}/", model::names::internal_package(&p))).collect();
        let names: Vec<String> = zip
            .file_names()
            .filter(|n| n.ends_with(".java") && !n.ends_with("package-info.java"))
            .filter(|n| exported.iter().any(|e| n.strip_prefix(e.as_str()).is_some_and(|rest| !rest.contains('/'))))
            .map(str::to_string)
            .collect();
        for name in names {
            let text = read_entry(&mut zip, &name).unwrap_or_default();
            units.push(Unit { module: module.to_string(), path: name, text });
        }
    }
    units.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(units)
}

fn read_entry(zip: &mut zip::ZipArchive<std::fs::File>, name: &str) -> Option<String> {
    let mut entry = zip.by_name(name).ok()?;
    let mut text = String::new();
    entry.read_to_string(&mut text).ok()?;
    Some(text)
}

/// The packages a `module-info.java` exports to everyone (`exports p;`;
/// qualified `exports p to m;` are left out).
pub fn exports(module_info: &str) -> Vec<String> {
    let mut out = Vec::new();
    for stmt in module_info.split(';') {
        let words: Vec<&str> = stmt.split_whitespace().filter(|w| !w.starts_with("//")).collect();
        if let Some(pos) = words.iter().rposition(|w| *w == "exports")
            && words.len() == pos + 2
        {
            out.push(words[pos + 1].to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_unqualified_exports_count() {
        let info = "module java.base {\n exports java.lang;\n exports java.util;\n exports jdk.internal.misc to\n java.desktop;\n}";
        assert_eq!(super::exports(info), ["java.lang", "java.util"]);
    }
}
