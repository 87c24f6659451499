//! `ferrosuite.toml`: a project's configuration of `ferrosuite generate`.
//!
//! The file has a `[generate]` table whose keys are the long options of
//! `ferrosuite generate` (`budget = "60s"`, `junit = "5"`, `no-kat = true`,
//! `class = ["a.B", "a.C"]`; `snake_case` is accepted too) and may set the
//! global `java-home` at its top. Each key becomes the option on the
//! command line, inserted before the options the user typed; an option the
//! user typed wins over the file's (for a repeatable option such as
//! `--class`, the typed occurrences replace the file's). clap then checks
//! every value as if it were typed, so a bad value gets the same message.
//! Relative paths in the file (options that take a path, and the class
//! paths `classpath` and `junit-classpath`) are relative to the file's
//! folder, not to where ferrosuite runs.
//!
//! The file is `--config FILE`, else `ferrosuite.toml` in the project
//! folder of `--project`, else in the current folder; without one, nothing
//! changes. `ferrosuite init` writes a commented default ([`default_file`])
//! made from the options themselves, so it lists every option there is.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::{ArgAction, Args, Command};

use crate::commands::generate::GenerateArgs;

/// The configuration file's name in a project folder.
pub const FILE_NAME: &str = "ferrosuite.toml";

/// Global options that take a value (their value is not the subcommand).
const GLOBAL_WITH_VALUE: [&str; 2] = ["--java-home", "--config"];

/// Class-path options: `:`-separated paths, resolved against the file's folder.
const CLASS_PATHS: [&str; 2] = ["classpath", "junit-classpath"];

/// `ferrosuite generate`'s options as clap knows them.
fn generate_command() -> Command {
    GenerateArgs::augment_args(Command::new("generate"))
}

/// The command line `args` (program name first) with the configuration
/// file's options inserted; unchanged when the subcommand is not
/// `generate` or there is no file.
///
/// # Errors
/// The file named by `--config` does not exist, the file cannot be read
/// or is not TOML, a key is not an option of `ferrosuite generate`, or a
/// value is a table.
pub fn apply(args: Vec<OsString>) -> anyhow::Result<Vec<OsString>> {
    let Some(sub) = subcommand_index(&args) else { return Ok(args) };
    if args[sub] != "generate" {
        return Ok(args);
    }
    let typed = &args[sub + 1..];
    let explicit = option_value(&args[1..], "--config").map(PathBuf::from);
    let path = match &explicit {
        Some(path) if !path.is_file() => {
            bail!("the configuration file {} does not exist: give an existing file to --config", path.display())
        }
        Some(path) => path.clone(),
        None => {
            let folder = option_value(typed, "--project").map_or_else(|| PathBuf::from("."), PathBuf::from);
            let path = folder.join(FILE_NAME);
            if !path.is_file() {
                return Ok(args);
            }
            path
        }
    };
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let (global, options) = options_of(&text, &base, typed).with_context(|| format!("in {}", path.display()))?;
    let mut out: Vec<OsString> = args[..1].to_vec();
    out.extend(global);
    out.extend(args[1..=sub].iter().cloned());
    out.extend(options);
    out.extend(typed.iter().cloned());
    Ok(out)
}

/// The index of the subcommand in `args` (after the program name and the
/// global options), if any.
fn subcommand_index(args: &[OsString]) -> Option<usize> {
    let mut i = 1;
    while i < args.len() {
        let a = args[i].to_string_lossy();
        if GLOBAL_WITH_VALUE.contains(&a.as_ref()) {
            i += 2;
        } else if a.starts_with('-') {
            i += 1;
        } else {
            return Some(i);
        }
    }
    None
}

/// The value of option `long` in `args` (`--long V` or `--long=V`), the last one given.
fn option_value<'a>(args: &'a [OsString], long: &str) -> Option<&'a OsStr> {
    let mut found = None;
    for (i, a) in args.iter().enumerate() {
        if a == long {
            found = args.get(i + 1).map(OsString::as_os_str);
        } else if let Some(v) = a.to_str().and_then(|s| s.strip_prefix(long)).and_then(|s| s.strip_prefix('=')) {
            found = Some(OsStr::new(v));
        }
    }
    found
}

/// The global options (`java-home`) and the `generate` options the file
/// `text` sets, as command-line tokens, leaving out those `typed` gives.
fn options_of(text: &str, base: &Path, typed: &[OsString]) -> anyhow::Result<(Vec<OsString>, Vec<OsString>)> {
    let table: toml::Table = text.parse().context("not a valid TOML file")?;
    let command = generate_command();
    let mut global = Vec::new();
    let mut options = Vec::new();
    for (key, value) in &table {
        match (key.as_str(), value) {
            ("generate", toml::Value::Table(generate)) => {
                for (key, value) in generate {
                    options.extend(option_tokens(&command, key, value, base, typed)?);
                }
            }
            ("java-home" | "java_home", toml::Value::String(home)) => {
                if option_value(typed, "--java-home").is_none() {
                    global.push(OsString::from("--java-home"));
                    global.push(resolve(base, home).into_os_string());
                }
            }
            _ => bail!(
                "`{key}` is not a setting: the file has `java-home` and a [generate] table of `ferrosuite generate`'s options"
            ),
        }
    }
    Ok((global, options))
}

/// The tokens of one `[generate]` key (none when `typed` gives the option).
fn option_tokens(
    command: &Command,
    key: &str,
    value: &toml::Value,
    base: &Path,
    typed: &[OsString],
) -> anyhow::Result<Vec<OsString>> {
    let name = key.replace('_', "-");
    let Some(arg) = command.get_arguments().find(|a| a.get_long() == Some(name.as_str()) && !a.is_hide_set()) else {
        bail!("`{key}` in [generate] is not an option of `ferrosuite generate` (see `ferrosuite generate --help`)");
    };
    let long = format!("--{name}");
    let short = arg.get_short().map(|c| format!("-{c}"));
    let given = typed
        .iter()
        .filter_map(|a| a.to_str())
        .any(|a| a == long || a.starts_with(&format!("{long}=")) || short.as_deref().is_some_and(|s| a.starts_with(s)));
    if given {
        return Ok(Vec::new());
    }
    let is_path = arg.get_value_parser().type_id() == std::any::TypeId::of::<PathBuf>();
    let class_path = CLASS_PATHS.contains(&name.as_str());
    let text = |v: &toml::Value| -> anyhow::Result<OsString> {
        let s = match v {
            toml::Value::String(s) if is_path => return Ok(resolve(base, s).into_os_string()),
            toml::Value::String(s) if class_path => {
                s.split(':').map(|p| resolve(base, p).display().to_string()).collect::<Vec<_>>().join(":")
            }
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(n) => n.to_string(),
            toml::Value::Float(x) => x.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            toml::Value::Datetime(d) => d.to_string(),
            toml::Value::Array(_) | toml::Value::Table(_) => {
                bail!("`{key}` in [generate]: a list may hold only strings, numbers and booleans")
            }
        };
        Ok(s.into())
    };
    let flag = matches!(arg.get_action(), ArgAction::SetTrue);
    let mut out = Vec::new();
    match value {
        toml::Value::Boolean(on) if flag => {
            if *on {
                out.push(long.into());
            }
        }
        toml::Value::Array(items) => {
            for item in items {
                out.push(OsString::from(&long));
                out.push(text(item)?);
            }
        }
        toml::Value::Table(_) => bail!("`{key}` in [generate] is a table: give it a value"),
        other => {
            out.push(OsString::from(&long));
            out.push(text(other)?);
        }
    }
    Ok(out)
}

/// `path` against the configuration file's folder when it is relative.
fn resolve(base: &Path, path: &str) -> PathBuf {
    let p = Path::new(path);
    if p.is_absolute() || path.is_empty() { p.to_path_buf() } else { base.join(p) }
}

/// The commented default `ferrosuite.toml` that `ferrosuite init` writes:
/// every option of `ferrosuite generate` with its help and its default.
pub fn default_file() -> String {
    let mut out = String::from(
        "# ferrosuite's configuration of this project (`ferrosuite generate` reads it from the\n\
         # current folder, the --project folder, or --config FILE). Options typed on the\n\
         # command line win. Relative paths are relative to this file's folder.\n\
         # Uncomment a line to set an option.\n\n\
         # The JDK that runs the tests (default: $JAVA_HOME, else Debian's JDK 17).\n\
         # java-home = \"/usr/lib/jvm/java-17-openjdk-amd64\"\n\n\
         [generate]\n",
    );
    for arg in generate_command().get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        if arg.is_hide_set() || matches!(arg.get_action(), ArgAction::Help | ArgAction::Version) {
            continue;
        }
        out.push('\n');
        if let Some(help) = arg.get_long_help().or(arg.get_help()) {
            for line in help.to_string().lines() {
                out.push_str(&wrap_comment(line));
            }
        }
        let defaults: Vec<String> = arg.get_default_values().iter().map(|v| toml_value(&v.to_string_lossy())).collect();
        let placeholder = || {
            let name = arg.get_value_names().and_then(|n| n.first()).map_or("VALUE".to_string(), |n| n.to_string());
            format!("\"<{name}>\"")
        };
        let example = match arg.get_action() {
            ArgAction::SetTrue => "false".to_string(),
            ArgAction::Append => format!("[{}]", defaults.join(", ")),
            _ if defaults.is_empty() => placeholder(),
            _ => defaults.join(", "),
        };
        out.push_str(&format!("# {long} = {example}\n"));
    }
    out
}

/// `line` as comment lines of at most about 100 columns.
fn wrap_comment(line: &str) -> String {
    let mut out = String::new();
    let mut current = String::from("#");
    for word in line.split_whitespace() {
        if current.len() + word.len() + 1 > 100 && current.len() > 1 {
            out.push_str(&current);
            out.push('\n');
            current = String::from("#");
        }
        current.push(' ');
        current.push_str(word);
    }
    out.push_str(&current);
    out.push('\n');
    out
}

/// A default value as TOML: a number as it is, anything else as a string.
fn toml_value(s: &str) -> String {
    if s.parse::<i64>().is_ok() || (s.parse::<f64>().is_ok() && s.contains('.')) {
        s.to_string()
    } else {
        toml::Value::String(s.to_string()).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    fn with_file(text: &str, args: &[&str]) -> anyhow::Result<Vec<String>> {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("my.toml");
        std::fs::write(&file, text).unwrap();
        let mut all = os(&["ferrosuite", "--config", file.to_str().unwrap()]);
        all.extend(os(args));
        let base = format!("{}/", dir.path().display());
        Ok(apply(all)?.iter().map(|a| a.to_string_lossy().replace(&base, "<dir>/")).collect())
    }

    #[test]
    fn file_options_come_before_the_typed_ones_and_typed_options_win() {
        let file = "java-home = \"jdk\"\n[generate]\nbudget = \"30s\"\nno_kat = true\nno-dse = false\n\
                    class = [\"a.B\", \"a.C\"]\nclasspath = \"lib/x.jar:/abs/y.jar\"\nout = \"tests\"\nseed = 7\n";
        let args = with_file(file, &["generate", "--seed", "9"]).unwrap();
        assert_eq!(
            args[1..].join(" "),
            "--java-home <dir>/jdk --config <dir>/my.toml generate --budget 30s --class a.B --class a.C \
             --classpath <dir>/lib/x.jar:/abs/y.jar --no-kat --out <dir>/tests --seed 9",
            "{args:?}"
        );
        let args = with_file(file, &["generate", "--class=x.Y", "-c", "cp", "--java-home", "j"]).unwrap();
        assert!(!args.iter().any(|a| a == "a.B" || a.contains("lib/x.jar") || a == "<dir>/jdk"), "{args:?}");
    }

    #[test]
    fn a_bad_key_or_value_says_what_is_wrong() {
        let e = with_file("[generate]\nbudgett = \"1s\"\n", &["generate"]).unwrap_err();
        assert!(format!("{e:#}").contains("`budgett` in [generate] is not an option"), "{e:#}");
        let e = with_file("timeout = 3\n", &["generate"]).unwrap_err();
        assert!(format!("{e:#}").contains("`timeout` is not a setting"), "{e:#}");
        let e = with_file("[generate\n", &["generate"]).unwrap_err();
        assert!(format!("{e:#}").contains("not a valid TOML file"), "{e:#}");
        let e = apply(os(&["ferrosuite", "--config", "/nonexistent/f.toml", "generate"])).unwrap_err();
        assert!(e.to_string().contains("does not exist"), "{e}");
        // Other subcommands and command lines without a file are left alone.
        assert_eq!(with_file("[generate]\nseed = 1\n", &["goals", "x"]).unwrap()[3..], ["goals", "x"]);
    }

    #[test]
    fn the_default_file_lists_every_option_and_parses_with_its_lines_uncommented() {
        let text = default_file();
        let command = generate_command();
        let visible: Vec<&str> =
            command.get_arguments().filter(|a| !a.is_hide_set()).filter_map(|a| a.get_long()).collect();
        assert!(visible.len() > 20, "{visible:?}");
        for long in &visible {
            assert!(text.contains(&format!("\n# {long} = ")), "{long} missing");
        }
        assert!(text.parse::<toml::Table>().is_ok(), "the commented file is TOML");
        // Uncommented, every default is a value clap accepts for its option.
        let uncommented: String = text
            .lines()
            .filter_map(|l| match l.strip_prefix("# ") {
                Some(rest) if rest.contains(" = ") && !rest.starts_with("java-home") => {
                    (!rest.ends_with(">\"") && !rest.ends_with(" = []")).then(|| format!("{rest}\n"))
                }
                _ if l.starts_with('#') => None,
                _ => Some(format!("{l}\n")),
            })
            .collect();
        let typed = os(&["--class", "a.B"]);
        let (_, options) =
            options_of(&uncommented, Path::new("/p"), &typed).expect("uncommented defaults are settings");
        assert!(options.len() > 10, "{options:?}");
        let mut argv = os(&["generate"]);
        argv.extend(options);
        argv.extend(typed);
        if let Err(e) = command.try_get_matches_from(argv) {
            panic!("clap rejects a default: {e}");
        }
    }
}
