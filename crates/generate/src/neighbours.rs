//! The classes of the project that the class under test uses (its
//! neighbours: a parser's scanner, a decoder's range decoder), instrumented
//! for the values they compare only
//! ([`instrument::Instrumenter::instrument_comparisons`]). A comparison in
//! a neighbour often decides a branch of the class under test one call
//! later (`ScannerImpl` compares the characters `ParserImpl`'s tokens come
//! from); its operands feed the dynamic seeds and the input-to-state
//! substitutions like the class's own. Their records map to no goal.

use std::collections::{BTreeSet, VecDeque};
use std::path::Path;

use instrument::batch::Batch;
use instrument::plan::ProbeBases;
use model::classfile::ClassFile;
use model::classpath::ClassPath;
use model::constant_pool::Constant;
use model::names::{BinaryName, InternalName};

use crate::GenerateError;

/// The most neighbours instrumented for one class under test.
pub const MAX_NEIGHBOURS: usize = 40;
/// How many references away from the class under test a neighbour is at
/// most (2: the scanner a parser calls, and the reader the scanner calls).
pub const MAX_DEPTH: usize = 2;

/// The neighbours of the classes `cut` (the class under test and its
/// nested classes), nearest first and at most [`MAX_NEIGHBOURS`]: classes
/// their constant pools name, then those the neighbours' name, up to
/// [`MAX_DEPTH`], that are on the user's class path `cp`, in the project
/// of the class under test ([`same_project`]), and not in `cut` or
/// `taken` (classes already written to the instrumented folder). A
/// neighbour may be in a sealed package (all of xz's are): the caller then
/// copies the rest of its package next to it
/// ([`crate::prepare::copy_sealed_packages`]).
pub fn neighbours(cp: &ClassPath, cut: &[BinaryName], taken: &[BinaryName]) -> Vec<BinaryName> {
    let Some(first) = cut.first() else { return Vec::new() };
    let mut seen: BTreeSet<BinaryName> = cut.iter().chain(taken).cloned().collect();
    let mut queue: VecDeque<(BinaryName, usize)> = cut.iter().map(|n| (n.clone(), 0)).collect();
    let mut out = Vec::new();
    while let Some((name, depth)) = queue.pop_front() {
        if depth == MAX_DEPTH {
            continue;
        }
        let Ok(cf) = cp.load(name.as_str()) else { continue };
        for used in named_classes(&cf) {
            if out.len() == MAX_NEIGHBOURS {
                return out;
            }
            let fits = same_project(first, &used) && cp.contains(used.as_str());
            if fits && seen.insert(used.clone()) {
                out.push(used.clone());
                queue.push_back((used, depth + 1));
            }
        }
    }
    out
}

/// Whether `other` belongs to the project of `cut`: the same first two
/// package segments (`org.yaml.snakeyaml.parser` and `org.yaml.snakeyaml.scanner`),
/// or the same package when it has fewer.
pub fn same_project(cut: &BinaryName, other: &BinaryName) -> bool {
    let prefix = |n: &BinaryName| n.package().split('.').take(2).collect::<Vec<_>>().join(".");
    prefix(cut) == prefix(other)
}

/// The classes (not arrays) the `Class` constants of `cf` name, sorted.
fn named_classes(cf: &ClassFile) -> Vec<BinaryName> {
    let names: BTreeSet<BinaryName> = cf
        .constant_pool
        .iter()
        .filter_map(|(_, c)| match c {
            Constant::Class(n) => cf.constant_pool.utf8(*n).ok(),
            _ => None,
        })
        .filter(|n| !n.starts_with('['))
        .map(|n| InternalName::new(n).to_binary())
        .collect();
    names.into_iter().collect()
}

/// Instruments `names` from `cp` for their comparisons into `dir`, with
/// probe ids after those of `batch` (the class under test's); a class that
/// cannot be read or instrumented is left out (it loads from the class
/// path as it is). Returns the classes written and the probe ids after
/// theirs (a technique's own probes must start there:
/// [`crate::class_run::ClassRun::next_branch_probe`]).
///
/// # Errors
/// [`GenerateError::Io`] when a class file cannot be written.
pub fn instrument_neighbours(
    cp: &ClassPath,
    names: &[BinaryName],
    batch: &Batch,
    dir: &Path,
) -> Result<(Vec<BinaryName>, ProbeBases), GenerateError> {
    let mut instrumenter = instrument::Instrumenter::starting_at(batch.next_bases());
    let mut written = Vec::new();
    for name in names {
        let Ok(found) = cp.find_bytes(name.as_str()) else { continue };
        match instrumenter.instrument_comparisons(&found.bytes) {
            Ok(c) if !instrument::is_excluded(&c.class) => {
                crate::prepare::write_class_file(dir, name, &c.bytes)?;
                written.push(name.clone());
            }
            Ok(_) => {}
            Err(e) => tracing::debug!("neighbour {name} left uninstrumented: {e}"),
        }
    }
    Ok((written, instrumenter.next_bases()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_project_is_the_first_two_package_segments() {
        let cut = BinaryName::new("org.yaml.snakeyaml.parser.ParserImpl");
        assert!(same_project(&cut, &BinaryName::new("org.yaml.snakeyaml.scanner.ScannerImpl")));
        assert!(!same_project(&cut, &BinaryName::new("org.apache.commons.io.IOUtils")));
        assert!(same_project(&BinaryName::new("Top"), &BinaryName::new("Other")));
        assert!(!same_project(&BinaryName::new("Top"), &BinaryName::new("p.Other")));
    }

    /// snakeyaml's parser: its scanner is a neighbour, written to the
    /// folder, and the neighbours' probe ids come after the parser's, so a
    /// technique's probes (which start at the returned end) share no id.
    #[test]
    fn a_parsers_scanner_is_instrumented_with_probe_ids_after_the_parsers() {
        let jar = "/usr/share/java/snakeyaml.jar";
        if !Path::new(jar).is_file() {
            eprintln!("skipped: {jar} is missing (apt-get install libyaml-snake-java)");
            return;
        }
        let cp = ClassPath::parse(jar).unwrap();
        let parser = BinaryName::new("org.yaml.snakeyaml.parser.ParserImpl");
        let cut: Vec<BinaryName> = std::iter::once(parser.clone()).chain(cp.nested_class_names(&parser)).collect();
        let dir = tempfile::tempdir().unwrap();
        let batch = instrument::batch::instrument_to_dir(&cp, &cut, dir.path(), false).unwrap();
        let found = neighbours(&cp, &cut, &[]);
        let scanner = BinaryName::new("org.yaml.snakeyaml.scanner.ScannerImpl");
        assert!(found.contains(&scanner), "{found:?}");
        assert!(found.len() <= MAX_NEIGHBOURS && !found.iter().any(|n| cut.contains(n)), "{found:?}");
        assert!(found.iter().all(|n| n.as_str().starts_with("org.yaml.")), "{found:?}");
        let (written, end) = instrument_neighbours(&cp, &found, &batch, dir.path()).unwrap();
        assert!(written.contains(&scanner) && dir.path().join(scanner.class_file_path()).is_file());
        let first = batch.next_bases().branch;
        assert!(end.branch > first, "the neighbours' jumps take ids from {first} on: {end:?}");
    }
}
