//! The build cache for the helper programs from `tools/java/`: each is
//! built once into `ROOT/NAME-KEY`, keyed by a hash of its sources, the JDK
//! and the stamps of the jars it uses, and the build steps it runs (javac,
//! jar).
//!
//! The root is `$FERROSUITE_CACHE_DIR`, else `ferrosuite-cache` in the
//! system temporary directory.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::Jdk;
use crate::command::{JAVAC_JVM_OPTIONS, cannot_run};
use crate::error::{Error, Result};

/// The cache root: `$FERROSUITE_CACHE_DIR`, else `ferrosuite-cache` in the temporary directory.
fn cache_root() -> PathBuf {
    std::env::var_os("FERROSUITE_CACHE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("ferrosuite-cache"))
}

/// A directory `ROOT/NAME-KEY` that `build` filled once. Builds happen in a
/// private directory that is renamed into place, so concurrent processes
/// never see a half-built one (the loser of a race drops its copy).
pub(crate) fn cached_build(name: &str, key: u64, build: impl FnOnce(&Path) -> Result<()>) -> Result<PathBuf> {
    let root = cache_root();
    let dir = root.join(format!("{name}-{key:016x}"));
    if dir.join(".complete").is_file() {
        return Ok(dir);
    }
    std::fs::create_dir_all(&root).map_err(|source| Error::CreateCache { root: root.clone(), source })?;
    let tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}-"))
        .tempdir_in(&root)
        .map_err(|source| Error::CreateBuildDir { root: root.clone(), source })?;
    build(tmp.path()).map_err(|e| Error::CacheBuild { name: name.to_string(), root, source: Box::new(e) })?;
    let complete = tmp.path().join(".complete");
    std::fs::write(&complete, "").map_err(Error::write(&complete))?;
    let built = tmp.keep();
    if std::fs::rename(&built, &dir).is_err() {
        let _ = std::fs::remove_dir_all(&built);
        if !dir.join(".complete").is_file() {
            return Err(Error::CacheRename { from: built, to: dir });
        }
    }
    Ok(dir)
}

/// FNV-1a over the parts (with their lengths, so parts cannot run together).
pub(crate) fn hash_parts(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for p in parts {
        eat(&(p.len() as u64).to_le_bytes());
        eat(p);
    }
    h
}

/// A file's path, size and modification time, to key caches built from it.
pub(crate) fn file_stamp(path: &Path) -> Result<Vec<u8>> {
    let meta = std::fs::metadata(path).map_err(|source| Error::Metadata { path: path.to_path_buf(), source })?;
    let modified = meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).unwrap_or_default();
    Ok(format!("{}\0{}\0{}", path.display(), meta.len(), modified.as_nanos()).into_bytes())
}

/// Writes a helper's source (or another build input) into a build directory.
pub(crate) fn write_file(path: &Path, contents: &str) -> Result<()> {
    std::fs::write(path, contents).map_err(Error::write(path))
}

/// Compiles helper sources for Java 8 into `out`.
pub(crate) fn compile_helper(jdk: &Jdk, sources: &[PathBuf], class_path: &str, out: &Path) -> Result<()> {
    let output = Command::new(jdk.tool("javac"))
        .args(JAVAC_JVM_OPTIONS)
        .args(["-J-Duser.language=en", "--release", "8", "-nowarn", "-Xlint:none", "-encoding", "UTF-8", "-d"])
        .arg(out)
        .args(["-cp", class_path])
        .args(sources)
        .stdin(Stdio::null())
        .output()
        .map_err(cannot_run("javac"))?;
    if !output.status.success() {
        return Err(Error::HelperJavacFailed { output: String::from_utf8_lossy(&output.stderr).trim().to_string() });
    }
    Ok(())
}

/// Runs the JDK's `jar` tool in `cwd`; `step` names what it does for the error.
pub(crate) fn run_jar(jdk: &Jdk, cwd: &Path, args: &[&str], step: &str) -> Result<()> {
    let output = Command::new(jdk.tool("jar"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .map_err(cannot_run("jar"))?;
    if !output.status.success() {
        return Err(Error::JarToolFailed {
            step: step.to_string(),
            output: String::from_utf8_lossy(&output.stderr).trim().to_string(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_parts_keeps_parts_apart() {
        assert_ne!(hash_parts(&[b"ab", b"c"]), hash_parts(&[b"a", b"bc"]));
        assert_ne!(hash_parts(&[b"abc"]), hash_parts(&[b"abc", b""]));
        assert_eq!(hash_parts(&[b"x", b"y"]), hash_parts(&[b"x", b"y"]));
    }

    #[test]
    fn a_file_stamp_names_a_missing_file() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope.jar");
        let err = file_stamp(&missing).unwrap_err();
        assert!(matches!(&err, Error::Metadata { path, .. } if *path == missing), "{err:?}");
        assert_eq!(err.to_string(), format!("cannot read {}", missing.display()));
    }
}
