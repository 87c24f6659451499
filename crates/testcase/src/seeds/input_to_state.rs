//! Input-to-state substitutions (Aschermann et al., "REDQUEEN: Fuzzing
//! with Input-to-State Correspondence", NDSS 2019, section 3.1): when the
//! class under test compares a piece of its input with a constant and the
//! comparison fails (`line.equals("atn:")` on a line read from the test's
//! file), the piece usually appears verbatim in one of the test's strings.
//! Writing the constant in its place passes that comparison in one step and
//! keeps the rest of the input, which a seed written over the whole string
//! or a character edit would not. The runtime records the pairs
//! (`Tracer.rememberPair`); the search keeps those whose seen side occurs
//! in the test's strings; string mutation applies them
//! (`operators::values::mutate_string`).

use rand::Rng;
use rand::seq::IndexedRandom;

use super::{Seeds, add_bounded};

impl Seeds {
    /// Adds the substitution "write `wanted` where `seen` occurs", bounded
    /// like the dynamic pool ([`super::SeedOptions::max_dynamic`], oldest
    /// dropped first). An empty `seen`, or one equal to `wanted`, is ignored.
    pub fn add_substitution(&mut self, seen: impl Into<String>, wanted: impl Into<String>) {
        let (seen, wanted) = (seen.into(), wanted.into());
        if !seen.is_empty() && seen != wanted {
            add_bounded(&mut self.substitutions, (seen, wanted), self.options.max_dynamic);
        }
    }

    /// The substitutions kept, oldest first.
    pub fn substitutions(&self) -> &[(String, String)] {
        &self.substitutions
    }

    /// Adds the substitution "`wanted` for the integral literal `seen`",
    /// bounded as [`Seeds::add_substitution`]'s; `seen == wanted` is ignored.
    pub fn add_number_substitution(&mut self, seen: i64, wanted: i64) {
        if seen != wanted {
            add_bounded(&mut self.number_substitutions, (seen, wanted), self.options.max_dynamic);
        }
    }

    /// The wanted side of a substitution (chosen at random) whose seen side
    /// is `value`, or `None`.
    pub fn substitute_number<R: Rng + ?Sized>(&self, value: i64, rng: &mut R) -> Option<i64> {
        let wanted: Vec<i64> = self.number_substitutions.iter().filter(|(s, _)| *s == value).map(|(_, w)| *w).collect();
        wanted.choose(rng).copied()
    }

    /// `value` with one occurrence (chosen at random) of the seen side of a
    /// substitution (chosen at random among those whose seen side occurs
    /// in `value`) replaced by its wanted side; `None` when no seen side
    /// occurs in `value`.
    pub fn substitute<R: Rng + ?Sized>(&self, value: &str, rng: &mut R) -> Option<String> {
        let candidates: Vec<&(String, String)> =
            self.substitutions.iter().filter(|(seen, _)| value.contains(seen.as_str())).collect();
        let (seen, wanted) = candidates.choose(rng)?;
        let at: Vec<usize> = value.match_indices(seen.as_str()).map(|(i, _)| i).collect();
        let start = *at.choose(rng)?;
        Some(format!("{}{}{}", &value[..start], wanted, &value[start + seen.len()..]))
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use crate::seeds::{SeedOptions, Seeds};

    #[test]
    fn a_substitution_writes_the_wanted_string_over_one_occurrence_of_the_seen_one() {
        let mut seeds = Seeds::new(SeedOptions::default());
        seeds.add_substitution("names", "token symbolic names:");
        seeds.add_substitution("absent", "never");
        let text = "token literal names:\n'a'\n\nnames\nx\n";
        let mut rng = StdRng::seed_from_u64(3);
        let out = seeds.substitute(text, &mut rng).expect("`names` occurs in the text");
        assert!(
            out == "token literal token symbolic names::\n'a'\n\nnames\nx\n"
                || out == "token literal names:\n'a'\n\ntoken symbolic names:\nx\n",
            "{out:?}"
        );
        assert_eq!(seeds.substitute("nothing here", &mut rng), None);
    }

    #[test]
    fn a_number_substitution_applies_to_its_seen_value_only() {
        let mut seeds = Seeds::new(SeedOptions::default());
        seeds.add_number_substitution(7, 7);
        seeds.add_number_substitution(7, 12);
        let mut rng = StdRng::seed_from_u64(1);
        assert_eq!(seeds.substitute_number(7, &mut rng), Some(12));
        assert_eq!(seeds.substitute_number(12, &mut rng), None);
    }

    #[test]
    fn empty_and_identity_substitutions_are_ignored_and_the_pool_is_bounded() {
        let mut seeds = Seeds::new(SeedOptions { max_dynamic: 2, ..SeedOptions::default() });
        seeds.add_substitution("", "x");
        seeds.add_substitution("a", "a");
        seeds.add_substitution("a", "b");
        seeds.add_substitution("c", "d");
        seeds.add_substitution("e", "f");
        assert_eq!(seeds.substitutions(), [("c".to_string(), "d".to_string()), ("e".to_string(), "f".to_string())]);
    }
}
