//! `--shard K/N`: one of N deterministic parts of the selected classes, so
//! N machines (a Kubernetes Indexed Job, a CI matrix) share a code base
//! without talking to each other.
//!
//! Every shard resolves the same class selection and computes the same
//! partition: the classes in decreasing size (the bytes of the class file
//! and of its nested classes, which are tested with it), ties broken by a
//! hash of the class name (FNV-1a, 64 bits: stable on every machine and
//! build), each given to the shard with
//! the fewest bytes so far (the lowest-numbered among equals): the longest
//! processing time first rule, which keeps the shards within the largest
//! class of each other. Shard K keeps its classes in their selection order.

use std::str::FromStr;

/// Shard `index` of `count` (1-based, as `--shard 2/4` is written).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// The shard, 1 to `count`.
    pub index: usize,
    /// How many shards there are, at least 1.
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;

    /// Parses `K/N` with 1 <= K <= N.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("bad shard {s:?}: write K/N with 1 <= K <= N, such as 2/4");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) =
            (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// The indices into `sizes` (one size in bytes per selected class, in
    /// selection order, with `names` their class names) that belong to this
    /// shard, in selection order.
    pub fn select(&self, names: &[&str], sizes: &[u64]) -> Vec<usize> {
        assert_eq!(names.len(), sizes.len(), "one size per class");
        let mut order: Vec<usize> = (0..names.len()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(sizes[i]), crate::class_run::fnv(names[i]), i));
        let mut load = vec![0u64; self.count];
        let mut owner = vec![0usize; names.len()];
        for i in order {
            let lightest = (0..self.count).min_by_key(|&s| (load[s], s)).expect("at least one shard");
            load[lightest] += sizes[i];
            owner[i] = lightest;
        }
        (0..names.len()).filter(|&i| owner[i] == self.index - 1).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_of_n_is_parsed_and_bad_forms_say_how_to_write_it() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(Shard { index: 2, count: 4 }.to_string(), "2/4");
        for bad in ["0/4", "5/4", "2", "a/b", "1/0", ""] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(e.contains("K/N"), "{bad}: {e}");
        }
    }

    #[test]
    fn the_shards_partition_the_classes_deterministically_and_balance_their_bytes() {
        let names: Vec<String> = (0..40).map(|i| format!("p.C{i}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let sizes: Vec<u64> = (0..40u64).map(|i| 500 + (i * 7919) % 4000).collect();
        let parts: Vec<Vec<usize>> = (1..=3).map(|k| Shard { index: k, count: 3 }.select(&names, &sizes)).collect();
        let mut all: Vec<usize> = parts.concat();
        all.sort();
        assert_eq!(all, (0..40).collect::<Vec<_>>(), "every class in exactly one shard");
        for part in &parts {
            assert!(part.windows(2).all(|w| w[0] < w[1]), "selection order kept");
        }
        let loads: Vec<u64> = parts.iter().map(|p| p.iter().map(|&i| sizes[i]).sum()).collect();
        let (max, min) = (loads.iter().max().unwrap(), loads.iter().min().unwrap());
        assert!(max - min <= *sizes.iter().max().unwrap(), "{loads:?}");
        assert_eq!(parts[1], Shard { index: 2, count: 3 }.select(&names, &sizes), "the same on every call");
        assert_eq!(Shard { index: 1, count: 1 }.select(&names, &sizes).len(), 40);
    }
}
