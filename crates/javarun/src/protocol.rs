//! The runner's line protocol: `FerroRunner` prints one line per event,
//! `#ferro` and tab-separated fields (messages escaped with `\t`, `\n`,
//! `\r`, `\\`); other lines on its standard output are the tests' own.

use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc;
use std::time::Duration;

use crate::TestVerdict;

/// One event from the runner (verdicts without their duration, which the
/// driver measures).
pub(crate) enum Event {
    /// JUnit is loaded and the test class found; tests follow.
    Ready,
    /// A test method starts.
    Start(String),
    /// A test method's verdict.
    Verdict(TestVerdict),
    /// A test method exceeded its time limit; the runner exits.
    Timeout(String),
    /// Every test ran.
    Done,
    /// The runner cannot run the tests (its complaint).
    Error(String),
}

/// Starts a thread that reads the runner's standard output to its end and
/// sends each event it parses; the channel closes when the output does.
pub(crate) fn read_events(stdout: impl Read + Send + 'static) -> mpsc::Receiver<Event> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut line = Vec::new();
        loop {
            line.clear();
            match reader.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if let Some(event) = parse_event(&String::from_utf8_lossy(&line))
                        && tx.send(event).is_err()
                    {
                        break;
                    }
                }
            }
        }
    });
    rx
}

/// Parses one line of the runner's output; other lines are ignored.
fn parse_event(line: &str) -> Option<Event> {
    let line = line.trim_end_matches(['\n', '\r']);
    let rest = line.strip_prefix("#ferro\t")?;
    let fields: Vec<&str> = rest.split('\t').collect();
    Some(match fields[..] {
        ["READY"] => Event::Ready,
        ["DONE"] => Event::Done,
        ["START", name] => Event::Start(name.to_string()),
        ["TIMEOUT", name] => Event::Timeout(name.to_string()),
        ["ERROR", message] => Event::Error(unescape(message)),
        ["PASS", name] => Event::Verdict(TestVerdict {
            name: name.to_string(),
            passed: true,
            message: None,
            line: None,
            ..Default::default()
        }),
        ["SKIP", name, why] => Event::Verdict(TestVerdict {
            name: name.to_string(),
            passed: true,
            message: Some(format!("skipped: {}", unescape(why))),
            line: None,
            duration: Duration::ZERO,
        }),
        ["FAIL", name, line, message] => Event::Verdict(TestVerdict {
            name: name.to_string(),
            passed: false,
            message: Some(unescape(message)),
            line: line.parse().ok(),
            duration: Duration::ZERO,
        }),
        _ => return None,
    })
}

/// Undoes the escapes of the runner's fields (`\\ \t \r \n`), which the
/// recorder of Palus's sample runs (`Recorder.java`) uses too.
pub fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runner_events_round_trip_escapes() {
        let Some(Event::Verdict(v)) = parse_event("#ferro\tFAIL\ttestX\t12\ta\\tb\\nc\\\\d\n") else { panic!() };
        assert_eq!((v.name.as_str(), v.passed, v.line), ("testX", false, Some(12)));
        assert_eq!(v.message.as_deref(), Some("a\tb\nc\\d"));
        assert!(parse_event("hello #ferro\tDONE").is_none());
        assert!(matches!(
            parse_event("#ferro\tSKIP\tt\tignored"),
            Some(Event::Verdict(TestVerdict { passed: true, .. }))
        ));
    }

    #[test]
    fn events_are_read_until_the_output_ends() {
        let out = "#ferro\tREADY\nhello from a test\n#ferro\tSTART\tt\n#ferro\tPASS\tt\n#ferro\tDONE\n";
        let events: Vec<Event> = read_events(std::io::Cursor::new(out.as_bytes().to_vec())).iter().collect();
        assert!(matches!(
            events[..],
            [Event::Ready, Event::Start(_), Event::Verdict(TestVerdict { passed: true, .. }), Event::Done]
        ));
    }
}
