//! Corpus files (one `JAR[:JAR...] CLASS` line per class under test) and
//! `ferrosuite bench draw`, which draws a corpus from jars by a written rule.
//!
//! The rule of `bench draw` (issue 11's wide corpus):
//! 1. eligible: every class of the jar (not of its dependencies) that is
//!    public, top-level (no `$` in its name), not an interface, annotation,
//!    enum, abstract or synthetic class, and whose JaCoCo branch count (our
//!    branch goals of that class file alone, which equal JaCoCo's) is within
//!    `[min, max]`;
//! 2. per jar, the eligible classes sorted by name are shuffled with a
//!    ChaCha8 generator seeded with `seed` and the jar's file name;
//! 3. classes are taken round-robin over the jars, in the order given, until
//!    `count` are drawn or every jar is exhausted;
//! 4. the k-th class drawn from a jar (k = 0, 1, ...) goes to the development
//!    half when k is even and to the held-out half when k is odd.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use rand::SeedableRng;
use rand::seq::SliceRandom;

use crate::exit_code::ExitCode;
use model::access;

/// One line of a corpus file: the class under test and the jars it needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorpusEntry {
    /// Jar file names relative to the jar folder; the first holds the class,
    /// the others are its dependencies.
    pub jars: Vec<String>,
    /// Binary name of the class under test.
    pub class: String,
}

impl CorpusEntry {
    /// The jar that holds the class, in `jar_dir`.
    pub fn main_jar(&self, jar_dir: &Path) -> PathBuf {
        jar_dir.join(&self.jars[0])
    }

    /// The class path (`:`-separated absolute or `jar_dir`-relative paths), main jar first.
    pub fn class_path(&self, jar_dir: &Path) -> String {
        let parts: Vec<String> = self.jars.iter().map(|j| jar_dir.join(j).display().to_string()).collect();
        parts.join(":")
    }
}

/// Reads a corpus file: lines `JAR[:JAR...] CLASS`, `#` comments and blank lines skipped.
///
/// # Errors
/// An unreadable file, or a line that is not two fields (the message gives file and line).
pub fn read_corpus(path: &Path) -> anyhow::Result<Vec<CorpusEntry>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read corpus {}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_whitespace().collect::<Vec<_>>()[..] {
            [jars, class] if !jars.split(':').any(str::is_empty) => {
                out.push(CorpusEntry { jars: jars.split(':').map(str::to_string).collect(), class: class.to_string() })
            }
            _ => bail!("{}:{}: expected `JAR[:JAR...] CLASS`, found {line:?}", path.display(), n + 1),
        }
    }
    Ok(out)
}

/// Options of `bench draw`.
#[derive(Debug, clap::Args)]
pub struct DrawArgs {
    /// Jars to draw from, each `JAR[:DEPENDENCY...]` relative to `--jar-dir`
    /// (classes are drawn from the first jar only).
    #[arg(long, required = true)]
    pub jar: Vec<String>,
    /// Where the jars are.
    #[arg(long, default_value = "/usr/share/java")]
    pub jar_dir: PathBuf,
    /// Fewest branches a class may have.
    #[arg(long, default_value_t = 15)]
    pub min_branches: usize,
    /// Most branches a class may have.
    #[arg(long, default_value_t = 250)]
    pub max_branches: usize,
    /// Classes to draw in all.
    #[arg(long, default_value_t = 64)]
    pub count: usize,
    /// Seed of the shuffles.
    #[arg(long, default_value_t = 11)]
    pub seed: u64,
    /// Write `<prefix>.txt` (all), `<prefix>-dev.txt` and `<prefix>-held-out.txt`
    /// instead of printing the whole corpus.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs `bench draw`.
///
/// # Errors
/// A jar that cannot be opened or written output.
pub fn draw(args: &DrawArgs) -> anyhow::Result<ExitCode> {
    let mut pools = Vec::new();
    for spec in &args.jar {
        let jars: Vec<String> = spec.split(':').map(str::to_string).collect();
        let eligible = eligible_classes(&args.jar_dir, &jars, args)?;
        eprintln!("{spec}: {} eligible classes", eligible.len());
        pools.push((jars, eligible));
    }
    let (dev, held_out) = round_robin(&pools, args.count);
    let header = format!(
        "# Drawn by `ferrosuite bench draw` (rule: crates/ferrosuite/src/commands/corpus.rs): \
         public top-level concrete classes with {} to {} branches, seed {}, {} classes.\n",
        args.min_branches,
        args.max_branches,
        args.seed,
        dev.len() + held_out.len()
    );
    let lines = |entries: &[CorpusEntry]| -> String {
        entries.iter().map(|e| format!("{} {}\n", e.jars.join(":"), e.class)).collect()
    };
    let all = format!(
        "{header}# development half\n{}# held-out half (measured before and after, never tuned on)\n{}",
        lines(&dev),
        lines(&held_out)
    );
    match &args.out {
        None => print!("{all}"),
        Some(prefix) => {
            let file = |suffix: &str| PathBuf::from(format!("{}{suffix}.txt", prefix.display()));
            std::fs::write(file(""), &all)?;
            std::fs::write(file("-dev"), format!("{header}# development half\n{}", lines(&dev)))?;
            std::fs::write(file("-held-out"), format!("{header}# held-out half\n{}", lines(&held_out)))?;
        }
    }
    Ok(ExitCode::Success)
}

/// The eligible classes of `jars[0]`, shuffled by the rule.
fn eligible_classes(jar_dir: &Path, jars: &[String], args: &DrawArgs) -> anyhow::Result<Vec<String>> {
    let paths: Vec<PathBuf> = jars.iter().map(|j| jar_dir.join(j)).collect();
    let cp = model::classpath::ClassPath::new(&paths)?;
    let mut names = cp.classes_in(&paths[0]).with_context(|| format!("{} holds no classes", paths[0].display()))?;
    names.sort();
    let excluded = access::INTERFACE | access::ABSTRACT | access::SYNTHETIC | access::ENUM | ANNOTATION;
    let mut eligible = Vec::new();
    for name in names.into_iter().filter(|n| !n.contains('$') && !n.ends_with("package-info")) {
        let Ok(cf) = cp.load(&name) else { continue };
        if cf.access & access::PUBLIC == 0 || cf.access & excluded != 0 {
            continue;
        }
        let Ok(goals) = analysis::goals::class_goals(&cf) else { continue };
        if (args.min_branches..=args.max_branches).contains(&goals.branch_goal_count()) {
            eligible.push(name);
        }
    }
    let file_name = jars[0].as_bytes().iter().fold(args.seed, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(*b)));
    eligible.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(file_name));
    Ok(eligible)
}

/// `ACC_ANNOTATION` (`0x2000`, JVMS §4.1).
const ANNOTATION: u16 = 0x2000;

/// Takes classes round-robin over the pools until `count`; returns the
/// development and held-out halves (even and odd draws of each jar).
fn round_robin(pools: &[(Vec<String>, Vec<String>)], count: usize) -> (Vec<CorpusEntry>, Vec<CorpusEntry>) {
    let (mut dev, mut held_out) = (Vec::new(), Vec::new());
    let mut k = 0;
    while dev.len() + held_out.len() < count && pools.iter().any(|(_, p)| k < p.len()) {
        for (jars, pool) in pools {
            if dev.len() + held_out.len() == count {
                break;
            }
            if let Some(class) = pool.get(k) {
                let entry = CorpusEntry { jars: jars.clone(), class: class.clone() };
                if k % 2 == 0 { dev.push(entry) } else { held_out.push(entry) }
            }
        }
        k += 1;
    }
    (dev, held_out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corpus_lines_name_dependencies_after_the_main_jar() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("c.txt");
        std::fs::write(&file, "# x\n\na.jar:b.jar org.A\nc.jar org.C\n").unwrap();
        let entries = read_corpus(&file).unwrap();
        assert_eq!(entries[0].jars, ["a.jar", "b.jar"]);
        assert_eq!(entries[0].class_path(Path::new("/j")), "/j/a.jar:/j/b.jar");
        assert_eq!(entries[1].main_jar(Path::new("/j")), Path::new("/j/c.jar"));
        std::fs::write(&file, "a.jar: org.A\n").unwrap();
        assert!(read_corpus(&file).unwrap_err().to_string().contains("c.txt:1"));
    }

    #[test]
    fn round_robin_alternates_halves_per_jar() {
        let pool = |n: usize| (vec![format!("j{n}.jar")], (0..n).map(|i| format!("C{i}")).collect::<Vec<_>>());
        let (dev, held) = round_robin(&[pool(1), pool(3)], 10);
        let names = |v: &[CorpusEntry]| v.iter().map(|e| format!("{}/{}", e.jars[0], e.class)).collect::<Vec<_>>();
        assert_eq!(names(&dev), ["j1.jar/C0", "j3.jar/C0", "j3.jar/C2"]);
        assert_eq!(names(&held), ["j3.jar/C1"]);
        let (dev, held) = round_robin(&[pool(1), pool(3)], 2);
        assert_eq!(dev.len() + held.len(), 2);
    }
}
