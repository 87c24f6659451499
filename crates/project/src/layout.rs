//! A project folder's build: Maven (`pom.xml`, modules from `<modules>`,
//! classes in `target/classes`) or Gradle (`settings.gradle(.kts)` and
//! `build.gradle(.kts)`, modules from `include`, classes in
//! `build/classes/java/main`), with each module's test source folder,
//! build folder and JUnit version.
//!
//! The build files are read as text, not evaluated: a `<module>` element
//! or an `include '...'` line names a module; a module whose `pom.xml` says
//! `<packaging>pom</packaging>` only aggregates others.

use std::path::{Path, PathBuf};

use crate::ProjectError;

/// Which build tool a project uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildTool {
    /// Apache Maven.
    Maven,
    /// Gradle.
    Gradle,
}

/// One module of a project (a single-module project has one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    /// Its name: the folder relative to the project (`.` for the root).
    pub name: String,
    /// Its folder.
    pub dir: PathBuf,
    /// Where the build puts its compiled classes.
    pub classes: PathBuf,
    /// Where its test sources live (`src/test/java`).
    pub test_sources: PathBuf,
    /// Its build output folder (`target`, `build`): reports and state go under it.
    pub build_dir: PathBuf,
    /// The JUnit major version its build file's test dependencies name (4
    /// or 5), or its parent's; `None` when neither names one.
    pub junit: Option<u8>,
}

/// A project: its build tool and modules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// The project folder.
    pub root: PathBuf,
    /// The build tool.
    pub tool: BuildTool,
    /// The modules that hold code (aggregators left out), in build-file order.
    pub modules: Vec<Module>,
}

/// Reads the project in `root`.
///
/// # Errors
/// [`ProjectError::NoBuild`] when `root` has neither `pom.xml` nor a Gradle
/// build file; [`ProjectError::Read`] when a build file cannot be read.
pub fn detect(root: &Path) -> Result<Project, ProjectError> {
    if root.join("pom.xml").is_file() {
        let mut modules = Vec::new();
        maven_modules(root, root, None, &mut modules)?;
        return Ok(Project { root: root.to_path_buf(), tool: BuildTool::Maven, modules });
    }
    let gradle_files = ["settings.gradle", "settings.gradle.kts", "build.gradle", "build.gradle.kts"];
    if gradle_files.iter().any(|f| root.join(f).is_file()) {
        return Ok(Project { root: root.to_path_buf(), tool: BuildTool::Gradle, modules: gradle_modules(root)? });
    }
    Err(ProjectError::NoBuild(root.to_path_buf()))
}

fn read(path: &Path) -> Result<String, ProjectError> {
    std::fs::read_to_string(path).map_err(|source| ProjectError::Read { path: path.to_path_buf(), source })
}

/// The text of every `<tag>...</tag>` in `xml`, in order.
fn elements<'a>(xml: &'a str, tag: &str) -> Vec<&'a str> {
    let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(i) = rest.find(&open) {
        let after = &rest[i + open.len()..];
        let Some(j) = after.find(&close) else { break };
        out.push(after[..j].trim());
        rest = &after[j + close.len()..];
    }
    out
}

/// `pom` without its XML comments (a commented-out module is no module).
fn without_comments(pom: &str) -> String {
    let mut out = String::new();
    let mut rest = pom;
    while let Some(i) = rest.find("<!--") {
        out.push_str(&rest[..i]);
        rest = rest[i..].find("-->").map_or("", |j| &rest[i + j + 3..]);
    }
    out.push_str(rest);
    out
}

/// Adds the module in `dir` (unless it only aggregates) and its `<modules>`, depth first.
fn maven_modules(root: &Path, dir: &Path, parent_junit: Option<u8>, out: &mut Vec<Module>) -> Result<(), ProjectError> {
    let pom = without_comments(&read(&dir.join("pom.xml"))?);
    let junit = junit_of(&pom).or(parent_junit);
    if elements(&pom, "packaging").first() != Some(&"pom") {
        out.push(module(root, dir, "target", "target/classes", junit));
    }
    for block in elements(&pom, "modules") {
        for name in elements(block, "module") {
            let child = dir.join(name);
            if child.join("pom.xml").is_file() {
                maven_modules(root, &child, junit, out)?;
            }
        }
    }
    Ok(())
}

/// The root (when it holds code) and the modules `include`d by the settings file.
fn gradle_modules(root: &Path) -> Result<Vec<Module>, ProjectError> {
    let settings = ["settings.gradle", "settings.gradle.kts"].iter().map(|f| root.join(f)).find(|p| p.is_file());
    let settings = match settings {
        Some(path) => read(&path)?,
        None => String::new(),
    };
    let root_junit = gradle_build(root)?.as_deref().and_then(junit_of);
    let mut out = Vec::new();
    if root.join("src/main/java").is_dir() || root.join("build/classes/java/main").is_dir() {
        out.push(module(root, root, "build", "build/classes/java/main", root_junit));
    }
    for name in gradle_includes(&settings) {
        let dir = root.join(name.trim_start_matches(':').replace(':', "/"));
        let junit = gradle_build(&dir)?.as_deref().and_then(junit_of).or(root_junit);
        out.push(module(root, &dir, "build", "build/classes/java/main", junit));
    }
    Ok(out)
}

/// The text of `dir`'s `build.gradle(.kts)`, if it has one.
fn gradle_build(dir: &Path) -> Result<Option<String>, ProjectError> {
    match ["build.gradle", "build.gradle.kts"].iter().map(|f| dir.join(f)).find(|p| p.is_file()) {
        Some(path) => read(&path).map(Some),
        None => Ok(None),
    }
}

/// The project paths of a settings file's `include` statements
/// (`include 'a', ':b:c'`, `include("a", "b")`).
fn gradle_includes(settings: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in settings.lines().map(str::trim).filter(|l| l.starts_with("include")) {
        let args = &line["include".len()..];
        for (i, part) in args.split(['\'', '"']).enumerate() {
            if i % 2 == 1 && !part.is_empty() {
                out.push(part.to_string());
            }
        }
    }
    out
}

/// The JUnit major version a build file's text names: 5 for JUnit
/// Jupiter (`junit-jupiter`, the JUnit 5 BOM, `useJUnitPlatform`), 4 for
/// `junit:junit`.
pub fn junit_of(build: &str) -> Option<u8> {
    if ["junit-jupiter", "junit-bom", "useJUnitPlatform"].iter().any(|k| build.contains(k)) {
        Some(5)
    } else if build.contains("junit:junit") || build.contains("<artifactId>junit</artifactId>") {
        Some(4)
    } else {
        None
    }
}

fn module(root: &Path, dir: &Path, build: &str, classes: &str, junit: Option<u8>) -> Module {
    let name = dir.strip_prefix(root).map_or_else(|_| dir.display().to_string(), |p| p.display().to_string());
    Module {
        name: if name.is_empty() { ".".into() } else { name },
        dir: dir.to_path_buf(),
        classes: dir.join(classes),
        test_sources: dir.join("src/test/java"),
        build_dir: dir.join(build),
        junit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn maven_modules_are_read_from_the_poms_skipping_aggregators_and_comments() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(
            &root.join("pom.xml"),
            "<project><packaging>pom</packaging><dependencies><dependency>\
            <groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId></dependency></dependencies>\
            <modules><module>core</module><!-- <module>old</module> --><module>app</module></modules></project>",
        );
        write(&root.join("core/pom.xml"), "<project><artifactId>core</artifactId></project>");
        write(
            &root.join("app/pom.xml"),
            "<project><dependencies><dependency><groupId>junit</groupId>\
            <artifactId>junit</artifactId></dependency></dependencies></project>",
        );
        let p = detect(root).unwrap();
        assert_eq!(p.tool, BuildTool::Maven);
        let names: Vec<&str> = p.modules.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["core", "app"], "the aggregator and the commented module are no modules");
        assert_eq!(p.modules[0].classes, root.join("core/target/classes"));
        assert_eq!(p.modules[0].test_sources, root.join("core/src/test/java"));
        assert_eq!(p.modules[0].junit, Some(5), "inherited from the parent");
        assert_eq!(p.modules[1].junit, Some(4), "its own");
    }

    #[test]
    fn gradle_modules_come_from_include_lines_and_the_root_when_it_has_code() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(
            &root.join("settings.gradle"),
            "rootProject.name = 'shop'\ninclude 'lib', ':app:web'\ninclude(\"tools\")\n",
        );
        write(&root.join("build.gradle"), "subprojects { test { useJUnitPlatform() } }\n");
        write(&root.join("lib/build.gradle"), "dependencies { testImplementation 'junit:junit:4.13.2' }\n");
        let p = detect(root).unwrap();
        assert_eq!(p.tool, BuildTool::Gradle);
        let names: Vec<&str> = p.modules.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["lib", "app/web", "tools"], "no code in the root");
        assert_eq!(p.modules[1].classes, root.join("app/web/build/classes/java/main"));
        assert_eq!((p.modules[0].junit, p.modules[1].junit), (Some(4), Some(5)));
        assert!(matches!(detect(&root.join("lib/nothing")), Err(ProjectError::NoBuild(_))));
    }
}
