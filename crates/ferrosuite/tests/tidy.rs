//! Repository hygiene: every crate has a section in ARCHITECTURE.md, and
//! the README opens with the two commands CI and new users rely on.

mod util;

#[test]
fn every_crate_has_a_section_in_architecture_md() {
    let arch = std::fs::read_to_string(util::repo().join("ARCHITECTURE.md")).unwrap();
    for e in std::fs::read_dir(util::repo().join("crates")).unwrap().flatten() {
        let name = e.file_name().into_string().unwrap();
        assert!(arch.contains(&format!("### `crates/{name}`")), "ARCHITECTURE.md lacks a section for crates/{name}");
    }
}

#[test]
fn readme_opens_with_the_example_and_test_commands_and_ci_runs_the_latter() {
    let readme = std::fs::read_to_string(util::repo().join("README.md")).unwrap();
    let head: Vec<&str> = readme.lines().take(6).collect();
    assert!(head.iter().any(|l| l.starts_with("scripts/example.sh")), "{head:?}");
    assert!(head.iter().any(|l| l.starts_with("scripts/test.sh")), "{head:?}");
    let ci = std::fs::read_to_string(util::repo().join(".ci/run")).unwrap();
    assert_eq!(ci.lines().last(), Some("scripts/test.sh"));
}

/// The text of ARCHITECTURE.md's section on `crates/{name}` (up to the next heading of that level or above).
fn crate_section(arch: &str, name: &str) -> String {
    let heading = format!("### `crates/{name}`");
    let start = arch.find(&heading).unwrap_or_else(|| panic!("ARCHITECTURE.md lacks a section for crates/{name}"));
    let rest = &arch[start + heading.len()..];
    let end = rest.find("\n### ").or_else(|| rest.find("\n## ")).unwrap_or(rest.len());
    rest[..end].to_string()
}

/// Module folders under `src/` (relative, `/`-separated), sorted.
fn module_dirs(src: &std::path::Path, prefix: &str, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(src).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        if e.path().is_dir() {
            let name = format!("{prefix}{}", e.file_name().to_string_lossy());
            out.push(name.clone());
            module_dirs(&e.path(), &format!("{name}/"), out);
        }
    }
}

#[test]
fn every_module_folder_is_named_in_its_crates_section() {
    let arch = std::fs::read_to_string(util::repo().join("ARCHITECTURE.md")).unwrap();
    let mut missing = Vec::new();
    for e in std::fs::read_dir(util::repo().join("crates")).unwrap().flatten() {
        let name = e.file_name().into_string().unwrap();
        let section = crate_section(&arch, &name);
        let mut dirs = Vec::new();
        module_dirs(&e.path().join("src"), "", &mut dirs);
        for dir in dirs {
            let module = dir.replace('/', "::");
            let spellings = [format!("`{module}`"), format!("`{name}::{module}`"), format!("`{dir}/`")];
            if !spellings.iter().any(|s| section.contains(s.as_str())) {
                missing.push(format!("crates/{name}/src/{dir} (write `{module}` in the crates/{name} section)"));
            }
        }
    }
    assert!(missing.is_empty(), "ARCHITECTURE.md does not name these module folders:\n{}", missing.join("\n"));
}

#[test]
fn every_java_tool_is_named_in_architecture_md() {
    let arch = std::fs::read_to_string(util::repo().join("ARCHITECTURE.md")).unwrap();
    let mut missing = Vec::new();
    for dir in ["tools/java", "crates/ferrosuite/java"] {
        for e in std::fs::read_dir(util::repo().join(dir)).unwrap().flatten() {
            let path = e.path();
            if path.extension().is_some_and(|x| x == "java") {
                let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
                if !arch.contains(&format!("`{stem}`")) {
                    missing.push(format!("{dir}/{stem}.java"));
                }
            }
        }
    }
    assert!(missing.is_empty(), "ARCHITECTURE.md does not name these Java tools: {missing:?}");
}

#[test]
fn every_library_crate_warns_on_missing_docs_and_forbids_unsafe_code_outside_ffi_crates() {
    for e in std::fs::read_dir(util::repo().join("crates")).unwrap().flatten() {
        let name = e.file_name().into_string().unwrap();
        let Ok(lib) = std::fs::read_to_string(e.path().join("src/lib.rs")) else { continue };
        assert!(lib.contains("#![warn(missing_docs)]"), "crates/{name}/src/lib.rs lacks #![warn(missing_docs)]");
        // The FFI crates: JNI (`jvm`) and the z3 calls its crate does not wrap (`z3ext`).
        if name != "jvm" && name != "z3ext" {
            assert!(lib.contains("#![forbid(unsafe_code)]"), "crates/{name}/src/lib.rs lacks #![forbid(unsafe_code)]");
        }
    }
}

/// The modules a file declares (`mod x;`, `pub mod x;`, `pub(crate) mod x;`), except test-only ones.
fn declared_modules(source: &str) -> Vec<String> {
    let mut modules = Vec::new();
    let mut test_only = false;
    for line in source.lines().map(str::trim) {
        let decl = line.strip_prefix("pub ").or_else(|| line.strip_prefix("pub(crate) ")).unwrap_or(line);
        if let (Some(name), false) = (decl.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')), test_only) {
            modules.push(name.to_string());
        }
        test_only = line == "#[cfg(test)]";
    }
    modules
}

fn source_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let path = e.path();
        if path.is_dir() {
            source_files(&path, out);
        } else if path.file_name().is_some_and(|n| n == "lib.rs" || n == "main.rs" || n == "mod.rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_crate_and_module_folder_doc_names_each_of_its_modules() {
    let mut files = Vec::new();
    source_files(&util::repo().join("crates"), &mut files);
    files.retain(|f| f.components().any(|c| c.as_os_str() == "src"));
    let mut missing = Vec::new();
    for file in files {
        let source = std::fs::read_to_string(&file).unwrap();
        let doc: String = source.lines().filter(|l| l.starts_with("//!")).collect::<Vec<_>>().join("\n");
        for module in declared_modules(&source) {
            let named = [format!("`{module}`"), format!("`{module}::"), format!("(mod@{module})")];
            if !named.iter().any(|n| doc.contains(n.as_str())) {
                missing.push(format!("{}: {module}", file.strip_prefix(util::repo()).unwrap().display()));
            }
        }
    }
    assert!(missing.is_empty(), "module docs (//!) that do not name a module they declare:\n{}", missing.join("\n"));
}
