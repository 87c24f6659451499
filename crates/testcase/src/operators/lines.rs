//! Line edits of multi-line strings: the text of a temporary file, or of a
//! `Reader` over a string, is read line by line by the code under test
//! (`readLine()` compared with a section header, an empty line ending a
//! section: antlr's interpreter data, an `.ini` file, YAML directives).
//! Character edits and a seed written over the whole text undo the lines
//! that already passed their checks; a line edit keeps the other lines and
//! inserts, replaces, deletes or repeats one, the new lines drawn from the
//! seed pools (the headers the code compares lines with are dynamic seeds)
//! or empty. A fuzzer's dictionary insertion (AFL's "extras") at the
//! granularity of lines.

use rand::Rng;

use super::values;
use crate::seeds::Seeds;

/// Probability that a string with a line feed is mutated by a line edit
/// ([`mutate_lines`]) rather than as a whole (seed or character edits).
pub(super) const P_LINE_EDIT: f64 = 0.8;
/// Probability that a line a line edit writes is empty (a section's end).
const P_EMPTY_LINE: f64 = 0.25;

/// `text` (which holds a line feed) with one of its `\n`-separated lines
/// changed: a new line inserted before any line or at the end, a line
/// replaced by a new one or by its own mutation ([`values::mutate_string`]),
/// a line deleted, or a line repeated after itself, each with probability
/// 1/4. New lines are empty with probability [`P_EMPTY_LINE`], else a seed (two tries of the pools), else a
/// random string ([`values::random_string`]: a seed with the pools'
/// probability). A `\r` before a `\n` stays with its line. `None` when the
/// edit left the text as it was.
pub(super) fn mutate_lines<R: Rng + ?Sized>(text: &str, seeds: &Seeds, rng: &mut R) -> Option<String> {
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    let at = rng.random_range(0..lines.len());
    match rng.random_range(0..4) {
        0 => {
            let line = new_line(seeds, rng);
            lines.insert(rng.random_range(0..=lines.len()), line);
        }
        1 if rng.random_bool(0.5) => lines[at] = new_line(seeds, rng),
        1 => lines[at] = values::mutate_string(&lines[at], seeds, rng),
        2 if lines.len() > 1 => {
            lines.remove(at);
        }
        _ => lines.insert(at + 1, lines[at].clone()),
    }
    let out = lines.join("\n");
    (out != text).then_some(out)
}

/// A line to write: empty with probability [`P_EMPTY_LINE`], else a random string.
fn new_line<R: Rng + ?Sized>(seeds: &Seeds, rng: &mut R) -> String {
    if rng.random_bool(P_EMPTY_LINE) {
        return String::new();
    }
    seeds.sample_string(rng).or_else(|| seeds.sample_string(rng)).unwrap_or_else(|| values::random_string(seeds, rng))
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::seeds::{Pool, SeedOptions};

    /// Every edit changes one line and keeps the others in order: the
    /// lines before the edit are a prefix of the result's, those after it a
    /// suffix (a mutated line may itself gain a line feed), and a seed
    /// comes in as a whole line.
    #[test]
    fn a_line_edit_keeps_the_other_lines_in_order() {
        let pool = Pool { strings: vec!["rules:".to_string()], ..Pool::default() };
        let seeds = Seeds::with_static(pool, SeedOptions::default());
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let text = "names:\na\n\nvalues:\r\nb";
        let before: Vec<&str> = text.split('\n').collect();
        let (mut inserted_seed, mut emptied, mut shorter) = (0, 0, 0);
        for _ in 0..400 {
            let Some(out) = mutate_lines(text, &seeds, &mut rng) else { continue };
            let after: Vec<&str> = out.split('\n').collect();
            let prefix = before.iter().zip(&after).take_while(|(a, b)| a == b).count();
            let suffix = before.iter().rev().zip(after.iter().rev()).take_while(|(a, b)| a == b).count();
            assert!(prefix + suffix + 1 >= before.len(), "{out:?}");
            inserted_seed += usize::from(after.len() > before.len() && after.contains(&"rules:"));
            emptied += usize::from(after.iter().filter(|l| l.is_empty()).count() > 1);
            shorter += usize::from(after.len() < before.len());
        }
        assert!(inserted_seed > 20 && emptied > 10 && shorter > 40, "{inserted_seed} {emptied} {shorter}");
    }
}
