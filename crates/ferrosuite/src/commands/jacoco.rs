//! `ferrosuite bench branches`: our branch-goal count (two per conditional
//! jump, one per distinct switch target) next to JaCoCo's total branches,
//! for each class of a corpus file. JaCoCo's numbers come from
//! `tools/java/JacocoBranches.java` run on the JaCoCo release that measures
//! the class ([`javarun::JacocoRelease::for_major`]: Debian's 0.8.6 up to
//! Java 17, 0.8.14 after).

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, bail};

use crate::exit_code::ExitCode;
use javarun::{JacocoRelease, Jdk};

/// Prints the comparison table; exit code [`ExitCode::Partial`] when a count differs.
///
/// # Errors
/// Corpus, class-path, JDK or JaCoCo-tool errors.
pub fn compare_branches(corpus: &Path, jar_dir: &Path) -> anyhow::Result<ExitCode> {
    let entries = super::corpus::read_corpus(corpus)?;
    let jdk = Jdk::find()?;
    let tmp = tempfile::tempdir()?;
    let mut tools: HashMap<JacocoRelease, String> = HashMap::new();
    println!("| class | branch goals | JaCoCo branches | line goals | JaCoCo lines | method goals | JaCoCo methods |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut differ = 0;
    for entry in &entries {
        let (jar_path, class) = (entry.main_jar(jar_dir), &entry.class);
        let cp = super::open_classpath(&entry.class_path(jar_dir))?;
        let cf = cp.load(class)?;
        let goals = analysis::goals::class_goals(&cf).with_context(|| format!("analysing {class}"))?;
        let n_methods = goals.goals.iter().filter(|g| g.kind == analysis::GoalKind::Method).count();
        let ours = [goals.branch_goal_count(), goals.line_goals.len(), n_methods];
        let release = JacocoRelease::for_major(cf.major_version);
        let tool_cp = match tools.get(&release) {
            Some(cp) => cp.clone(),
            None => {
                let cp = compile_tool(&jdk, release, &tmp.path().join(format!("{release:?}")))?;
                tools.entry(release).or_insert(cp).clone()
            }
        };
        let theirs = jacoco_counts(&jdk, &tool_cp, &jar_path, class)?;
        differ += usize::from(ours != theirs);
        println!(
            "| {class} | {} | {} | {} | {} | {} | {} |",
            ours[0], theirs[0], ours[1], theirs[1], ours[2], theirs[2]
        );
    }
    println!("classes whose counts differ: {differ} of {}", entries.len());
    Ok(if differ == 0 { ExitCode::Success } else { ExitCode::Partial })
}

/// Compiles `JacocoBranches` against JaCoCo `release` into `dir`; the class
/// path that runs it.
fn compile_tool(jdk: &Jdk, release: JacocoRelease, dir: &Path) -> anyhow::Result<String> {
    std::fs::create_dir_all(dir)?;
    let jars: Vec<String> = release.core_jars()?.iter().map(|p| p.display().to_string()).collect();
    let jacoco_cp = jars.join(":");
    let src = dir.join("JacocoBranches.java");
    std::fs::write(&src, include_str!("../../../../tools/java/JacocoBranches.java"))?;
    javarun::javac(jdk, &src, &jacoco_cp, dir).with_context(|| format!("compiling the JaCoCo tool for {release:?}"))?;
    Ok(format!("{}:{jacoco_cp}", dir.display()))
}

/// JaCoCo's total branches, lines and methods of `class`.
fn jacoco_counts(jdk: &Jdk, tool_cp: &str, jar: &Path, class: &str) -> anyhow::Result<[usize; 3]> {
    let run = javarun::java_with_input(
        jdk,
        &["-cp", tool_cp, "JacocoBranches", jar.to_str().unwrap_or_default(), class],
        "",
    )?;
    let out = &run.stdout;
    let counts: HashMap<&str, Vec<&str>> =
        out.lines().map(|l| l.split('\t').collect::<Vec<_>>()).map(|p| (p[0], p[1..].to_vec())).collect();
    let row = counts.get(class).with_context(|| format!("JaCoCo printed nothing for {class}: {out}"))?;
    let n = |i: usize| -> anyhow::Result<usize> {
        let cell = row.get(i).copied().unwrap_or("missing");
        cell.parse().with_context(|| format!("JaCoCo could not analyse {class}: {cell}"))
    };
    let totals = [n(0)?, n(1)?, n(2)?];
    if !run.status.success() {
        bail!("the JaCoCo tool failed on {class} ({}): {}", run.status, out.trim());
    }
    Ok(totals)
}
