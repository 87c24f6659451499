//! The fingerprint of a sliced path condition (TARDIS paper §4.2, the
//! "multidimensional Bloom filter"): a 64 x 16 bit matrix. Each clause is
//! written twice, *abstract* (symbols renamed in the order they first
//! appear in the path condition, constants replaced by `#`) and *concrete*
//! (symbols renamed the same way, constants kept). Three hash functions
//! map the abstract clause to columns of the first row; the concrete clause
//! is then hashed to one of the 15 rows below in each of those columns. So
//! similar clauses light bits in the same columns, and path conditions that
//! differ only in their symbols' names fingerprint alike.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::expr::{BinOp, CmpOp, Expr, JType, Value};
use crate::path::{Clause, PathCondition};

/// Columns of the matrix (bits of a row).
pub const COLUMNS: u32 = 64;
/// Rows of the matrix: the abstract row and 15 concrete ones.
pub const ROWS: usize = 16;
/// Hash functions per clause.
pub const HASHES: u64 = 3;

/// At most this many sliced prefixes of one run are learned as feasible
/// ([`Fingerprint::of_prefixes`]); a long loop gives thousands of clauses.
pub const MAX_PREFIXES: usize = 128;

/// A 64 x 16 bit matrix; row 0 holds the abstract clauses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Fingerprint(pub [u64; ROWS]);

impl Fingerprint {
    /// The fingerprint of a (sliced) path condition.
    pub fn of(clauses: &[Clause]) -> Fingerprint {
        let mut names = BTreeMap::new();
        let mut rows = [0u64; ROWS];
        for c in clauses {
            let abstract_text = canonical(c, &mut names, true);
            let concrete_text = canonical(c, &mut names, false);
            for h in 0..HASHES {
                let column = fnv(&abstract_text, h) % u64::from(COLUMNS);
                rows[0] |= 1 << column;
                let row = 1 + (fnv(&concrete_text, h) % (ROWS as u64 - 1)) as usize;
                rows[row] |= 1 << column;
            }
        }
        Fingerprint(rows)
    }

    /// The fingerprints of a run's sliced prefixes, one per negatable
    /// clause (at most [`MAX_PREFIXES`], evenly spaced): each is the clause
    /// as it held after the prefix clauses related to it. These are the
    /// feasible examples an executed path gives, in the same form as the
    /// alternatives they are compared with (TARDIS's path tree keeps the
    /// sliced path condition of every node, and learns every prefix of a
    /// solved path as feasible).
    pub fn of_prefixes(path: &PathCondition) -> Vec<Fingerprint> {
        let negatable: Vec<usize> = path.negatable().collect();
        let step = negatable.len().div_ceil(MAX_PREFIXES).max(1);
        let chosen: Vec<usize> = negatable.into_iter().step_by(step).collect();
        path.held_slices(&chosen).iter().map(|clauses| Fingerprint::of(clauses)).collect()
    }

    /// The Jaccard similarity of the two matrices' bits (`M11 / (M01 + M10 + M11)`),
    /// 1 for two empty ones.
    pub fn jaccard(&self, other: &Fingerprint) -> f64 {
        let (mut both, mut either) = (0u32, 0u32);
        for (a, b) in self.0.iter().zip(&other.0) {
            both += (a & b).count_ones();
            either += (a | b).count_ones();
        }
        if either == 0 { 1.0 } else { f64::from(both) / f64::from(either) }
    }
}

/// FNV-1a of `text`, seeded by `seed` (one hash function per seed).
fn fnv(text: &str, seed: u64) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The clause as text, symbols renamed `v0, v1, ...` in the order first met
/// (`names` carries the renaming across the path condition's clauses),
/// constants kept or, when `abstracted`, written `#`.
pub fn canonical(c: &Clause, names: &mut BTreeMap<u32, usize>, abstracted: bool) -> String {
    let mut out = String::new();
    write_expr(&c.lhs, names, abstracted, &mut out);
    let _ = write!(out, " {} ", c.rel.symbol());
    write_expr(&c.rhs, names, abstracted, &mut out);
    out
}

fn write_expr(e: &Expr, names: &mut BTreeMap<u32, usize>, abstracted: bool, out: &mut String) {
    match e {
        Expr::Sym(id, ty) => {
            let next = names.len();
            let n = *names.entry(*id).or_insert(next);
            let _ = write!(out, "v{n}:{}", type_letter(*ty));
        }
        Expr::Const(_) if abstracted => out.push('#'),
        Expr::Const(v) => match v {
            Value::Int(x) => {
                let _ = write!(out, "{x}");
            }
            Value::Long(x) => {
                let _ = write!(out, "{x}L");
            }
            Value::Float(x) => {
                let _ = write!(out, "{x:?}f");
            }
            Value::Double(x) => {
                let _ = write!(out, "{x:?}d");
            }
        },
        Expr::Bin(op, a, b) => {
            out.push('(');
            write_expr(a, names, abstracted, out);
            let _ = write!(out, " {} ", bin_symbol(*op));
            write_expr(b, names, abstracted, out);
            out.push(')');
        }
        Expr::Neg(a) => {
            out.push_str("-(");
            write_expr(a, names, abstracted, out);
            out.push(')');
        }
        Expr::Conv(c, a) => {
            let _ = write!(out, "{c:?}(");
            write_expr(a, names, abstracted, out);
            out.push(')');
        }
        Expr::Cmp(op, a, b) => {
            out.push_str(if *op == CmpOp::NanIsLess { "cmpl(" } else { "cmpg(" });
            write_expr(a, names, abstracted, out);
            out.push_str(", ");
            write_expr(b, names, abstracted, out);
            out.push(')');
        }
    }
}

fn type_letter(t: JType) -> char {
    match t {
        JType::Int => 'I',
        JType::Long => 'J',
        JType::Float => 'F',
        JType::Double => 'D',
    }
}

fn bin_symbol(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        BinOp::Ushr => ">>>",
        BinOp::And => "&",
        BinOp::Or => "|",
        BinOp::Xor => "^",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::Rel;
    use crate::testkit::{int, sym};

    #[test]
    fn renamed_symbols_fingerprint_alike_and_constants_only_change_the_concrete_rows() {
        let a = [
            Clause::new(sym(3), Rel::Lt, int(10)),
            Clause::new(Expr::bin(BinOp::Add, sym(3), sym(8)), Rel::Eq, int(4)),
        ];
        let b = [
            Clause::new(sym(0), Rel::Lt, int(10)),
            Clause::new(Expr::bin(BinOp::Add, sym(0), sym(1)), Rel::Eq, int(4)),
        ];
        let c = [
            Clause::new(sym(0), Rel::Lt, int(11)),
            Clause::new(Expr::bin(BinOp::Add, sym(0), sym(1)), Rel::Eq, int(4)),
        ];
        let d = [Clause::new(sym(0), Rel::Ne, sym(1))];
        let (fa, fb, fc, fd) = (Fingerprint::of(&a), Fingerprint::of(&b), Fingerprint::of(&c), Fingerprint::of(&d));
        assert_eq!(fa, fb);
        assert_eq!(fa.0[0], fc.0[0], "the same abstract clauses");
        assert!(fa.jaccard(&fc) < 1.0 && fa.jaccard(&fc) > fa.jaccard(&fd), "{} {}", fa.jaccard(&fc), fa.jaccard(&fd));
        let bits: u32 = fa.0.iter().map(|r| r.count_ones()).sum();
        assert!((2..=12).contains(&bits), "3 hashes per clause in two places: {bits}");
        let mut names = BTreeMap::new();
        assert_eq!(canonical(&a[1], &mut names, true), "(v0:I + v1:I) == #");
    }

    #[test]
    fn an_executed_path_gives_one_sliced_prefix_per_negatable_clause_up_to_the_cap() {
        // x < 10; y == 4; x + 1 > 3: the third clause's prefix keeps the first, not the second.
        let pc = PathCondition {
            clauses: vec![
                Clause::new(sym(0), Rel::Lt, int(10)),
                Clause::new(sym(1), Rel::Eq, int(4)),
                Clause::new(int(2), Rel::Eq, int(2)),
                Clause::new(Expr::bin(BinOp::Add, sym(0), int(1)), Rel::Gt, int(3)),
            ],
            owner: BTreeMap::new(),
        };
        let prefixes = Fingerprint::of_prefixes(&pc);
        assert_eq!(prefixes.len(), 3, "the constant clause gives none");
        assert_eq!(prefixes[2], Fingerprint::of(&[pc.clauses[0].clone(), pc.clauses[3].clone()]));
        assert_eq!(pc.held(3), vec![pc.clauses[0].clone(), pc.clauses[3].clone()]);
        let long = PathCondition {
            clauses: (0..1000).map(|i| Clause::new(sym(i), Rel::Lt, int(i as i32))).collect(),
            owner: BTreeMap::new(),
        };
        let n = Fingerprint::of_prefixes(&long).len();
        assert!((MAX_PREFIXES / 2..=MAX_PREFIXES).contains(&n), "evenly spaced, at most the cap: {n}");
    }
}
