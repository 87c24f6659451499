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
    /// Adds the substitution "write `wanted` where `seen` occurs" of a
    /// failed string comparison, bounded like the dynamic pool
    /// ([`super::SeedOptions::max_dynamic`], oldest dropped first). An
    /// empty `seen`, or one equal to `wanted`, is ignored.
    pub fn add_substitution(&mut self, seen: impl Into<String>, wanted: impl Into<String>) {
        add_pair(&mut self.substitutions, seen.into(), wanted.into(), self.options.max_dynamic);
    }

    /// Adds a substitution of a number's text or character in strings (a
    /// failed int comparison whose operand occurs in a test's string), to
    /// a pool of its own bounded as [`Seeds::add_substitution`]'s.
    pub fn add_number_text_substitution(&mut self, seen: impl Into<String>, wanted: impl Into<String>) {
        add_pair(&mut self.number_text_substitutions, seen.into(), wanted.into(), self.options.max_dynamic);
    }

    /// The substitutions of string comparisons kept, oldest first.
    pub fn substitutions(&self) -> &[(String, String)] {
        &self.substitutions
    }

    /// The substitutions of numbers' texts kept, oldest first.
    pub fn number_text_substitutions(&self) -> &[(String, String)] {
        &self.number_text_substitutions
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
    /// substitution replaced by its wanted side; `None` when no seen side
    /// occurs in `value`. The pool is chosen first (string comparisons or
    /// numbers' texts, at even odds when both have a candidate), then a
    /// substitution among its candidates.
    pub fn substitute<R: Rng + ?Sized>(&self, value: &str, rng: &mut R) -> Option<String> {
        let fits = |pool: &'_ [(String, String)]| -> Vec<usize> {
            pool.iter().enumerate().filter(|(_, (seen, _))| value.contains(seen.as_str())).map(|(i, _)| i).collect()
        };
        let (strings, texts) = (fits(&self.substitutions), fits(&self.number_text_substitutions));
        let from_texts = strings.is_empty() || (!texts.is_empty() && rng.random_bool(0.5));
        let (pool, candidates) =
            if from_texts { (&self.number_text_substitutions, texts) } else { (&self.substitutions, strings) };
        let (seen, wanted) = &pool[*candidates.choose(rng)?];
        let at: Vec<usize> = value.match_indices(seen.as_str()).map(|(i, _)| i).collect();
        let start = *at.choose(rng)?;
        Some(format!("{}{}{}", &value[..start], wanted, &value[start + seen.len()..]))
    }
}

/// Adds (seen, wanted) to `pool` bounded at `max`, unless `seen` is empty
/// or equal to `wanted`.
fn add_pair(pool: &mut Vec<(String, String)>, seen: String, wanted: String, max: usize) {
    if !seen.is_empty() && seen != wanted {
        add_bounded(pool, (seen, wanted), max);
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

    #[test]
    fn numbers_texts_keep_a_pool_of_their_own_and_both_pools_are_used() {
        let mut seeds = Seeds::new(SeedOptions { max_dynamic: 2, ..SeedOptions::default() });
        seeds.add_substitution("abc", "atn:");
        for c in ["a", "b", "c", "x"] {
            seeds.add_number_text_substitution(c, "[");
        }
        assert_eq!(seeds.substitutions(), [("abc".to_string(), "atn:".to_string())], "characters do not evict it");
        assert_eq!(seeds.number_text_substitutions().len(), 2);
        let mut rng = StdRng::seed_from_u64(5);
        let outs: std::collections::BTreeSet<String> =
            (0..40).filter_map(|_| seeds.substitute("abc", &mut rng)).collect();
        assert!(outs.contains("atn:"), "{outs:?}");
        assert!(outs.contains("ab["), "{outs:?}");
        assert_eq!(outs.len(), 2, "{outs:?}");
    }
}
