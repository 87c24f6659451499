//! Path conditions (TECHNIQUES.md §5 step 1-2): the clauses a concolic run
//! collects, one per branch taken, each a comparison of two `int`
//! expressions (the JVM's `if<cond>` and `if_icmp<cond>`; `long`, `float` and
//! `double` operands come through `lcmp`/`fcmpl`/... as
//! [`Expr::Cmp`]); the alternatives made by negating one clause after its
//! prefix; and their slices, the clauses that share symbols or objects
//! with the negated clause, transitively (the prefix is known satisfiable,
//! so only the dependent part decides feasibility).

use std::collections::{BTreeMap, BTreeSet};

use z3::ast::{BV, Bool};

use crate::expr::{Expr, Thrown, Value};
use crate::smt::{Symbols, Term, Unsupported, term};

/// A relation between two `int`s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rel {
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `>=`.
    Ge,
    /// `>`.
    Gt,
    /// `<=`.
    Le,
}

impl Rel {
    /// The relation that holds exactly when this one does not.
    pub fn negate(self) -> Rel {
        match self {
            Rel::Eq => Rel::Ne,
            Rel::Ne => Rel::Eq,
            Rel::Lt => Rel::Ge,
            Rel::Ge => Rel::Lt,
            Rel::Gt => Rel::Le,
            Rel::Le => Rel::Gt,
        }
    }

    /// Its symbol in Java source.
    pub fn symbol(self) -> &'static str {
        match self {
            Rel::Eq => "==",
            Rel::Ne => "!=",
            Rel::Lt => "<",
            Rel::Ge => ">=",
            Rel::Gt => ">",
            Rel::Le => "<=",
        }
    }
}

/// One clause: `lhs rel rhs` over `int` expressions.
#[derive(Debug, Clone, PartialEq)]
pub struct Clause {
    /// The relation.
    pub rel: Rel,
    /// The left side.
    pub lhs: Expr,
    /// The right side.
    pub rhs: Expr,
}

impl Clause {
    /// `lhs rel rhs`.
    pub fn new(lhs: Expr, rel: Rel, rhs: Expr) -> Clause {
        Clause { rel, lhs, rhs }
    }

    /// The same comparison with the negated relation.
    pub fn negate(&self) -> Clause {
        Clause { rel: self.rel.negate(), ..self.clone() }
    }

    /// The symbols it reads.
    pub fn symbols(&self) -> BTreeSet<u32> {
        let mut out = BTreeSet::new();
        collect_symbols(&self.lhs, &mut out);
        collect_symbols(&self.rhs, &mut out);
        out
    }

    /// Whether it holds for the symbols' values `env`.
    ///
    /// # Errors
    /// [`Thrown`] when a side cannot be evaluated (or is not an `int`).
    pub fn holds(&self, env: &BTreeMap<u32, Value>) -> Result<bool, Thrown> {
        let (Value::Int(a), Value::Int(b)) = (self.lhs.eval(env)?, self.rhs.eval(env)?) else {
            return Err(Thrown::IllTyped);
        };
        Ok(match self.rel {
            Rel::Eq => a == b,
            Rel::Ne => a != b,
            Rel::Lt => a < b,
            Rel::Ge => a >= b,
            Rel::Gt => a > b,
            Rel::Le => a <= b,
        })
    }

    /// The clause as a z3 formula over `symbols`.
    ///
    /// # Errors
    /// [`Unsupported`] when a side cannot be expressed (or is not an `int`).
    pub fn formula(&self, symbols: &mut Symbols) -> Result<Bool, Unsupported> {
        let (Term::Bv(a), Term::Bv(b)) = (term(&self.lhs, symbols)?, term(&self.rhs, symbols)?) else {
            return Err(Unsupported::IllTyped);
        };
        Ok(compare_bv(self.rel, &a, &b))
    }
}

fn compare_bv(rel: Rel, a: &BV, b: &BV) -> Bool {
    match rel {
        Rel::Eq => a.eq(b),
        Rel::Ne => a.eq(b).not(),
        Rel::Lt => a.bvslt(b),
        Rel::Ge => a.bvsge(b),
        Rel::Gt => a.bvsgt(b),
        Rel::Le => a.bvsle(b),
    }
}

fn collect_symbols(e: &Expr, out: &mut BTreeSet<u32>) {
    match e {
        Expr::Sym(id, _) => {
            out.insert(*id);
        }
        Expr::Const(_) => {}
        Expr::Neg(a) | Expr::Conv(_, a) => collect_symbols(a, out),
        Expr::Bin(_, a, b) | Expr::Cmp(_, a, b) => {
            collect_symbols(a, out);
            collect_symbols(b, out);
        }
    }
}

/// The path condition of one run: its clauses in the order the branches
/// ran, and the object each symbol is a field or element of (symbols of
/// one object are related even when no clause joins them).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PathCondition {
    /// The clauses, in execution order.
    pub clauses: Vec<Clause>,
    /// The object (an identity number) a symbol belongs to, when it does.
    pub owner: BTreeMap<u32, u32>,
}

/// An alternative path: the clauses before `negated`, then that clause
/// negated, sliced to the clauses related to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Alternative {
    /// Index of the negated clause in the path condition.
    pub negated: usize,
    /// The slice: related clauses of the prefix in order, then the negated clause.
    pub clauses: Vec<Clause>,
}

impl PathCondition {
    /// One alternative per clause: its prefix and its negation, sliced.
    /// Clauses that read no symbol (constant outcomes) give none.
    pub fn alternatives(&self) -> Vec<Alternative> {
        self.negatable().map(|i| self.alternative(i)).collect()
    }

    /// The indices of the clauses that have symbols, which alternatives negate.
    pub fn negatable(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.clauses.len()).filter(|&i| !self.clauses[i].symbols().is_empty())
    }

    /// The alternative that negates clause `i` (sliced as in
    /// [`Self::alternatives`]); slicing costs O(i) per round, so a caller
    /// with a long path asks only for the alternatives it wants.
    pub fn alternative(&self, i: usize) -> Alternative {
        let mut clauses = self.held(i);
        if let Some(last) = clauses.last_mut() {
            *last = last.negate();
        }
        Alternative { negated: i, clauses }
    }

    /// Clause `i` as the run took it, after the clauses of its prefix
    /// related to it: the sliced prefix that TARDIS's path tree keeps for
    /// each node, feasible because the run went that way.
    pub fn held(&self, i: usize) -> Vec<Clause> {
        self.held_slices(&[i]).pop().unwrap_or_default()
    }

    /// [`Self::held`] of each index in `indices`, with the clauses' keys
    /// computed once for all of them.
    pub fn held_slices(&self, indices: &[usize]) -> Vec<Vec<Clause>> {
        let keys: Vec<BTreeSet<(bool, u32)>> = self.clauses.iter().map(|c| self.keys(c)).collect();
        indices.iter().map(|&i| slice(&keys, i).into_iter().map(|j| self.clauses[j].clone()).collect()).collect()
    }

    /// What relates a clause to others: its symbols and the objects they belong to.
    fn keys(&self, c: &Clause) -> BTreeSet<(bool, u32)> {
        let symbols = c.symbols();
        let objects = symbols.iter().filter_map(|s| self.owner.get(s)).map(|o| (true, *o));
        symbols.iter().map(|s| (false, *s)).chain(objects).collect()
    }
}

/// The indices of the clauses of the prefix of clause `i` related to it
/// (sharing a key, transitively), then `i`; `keys` holds each clause's keys.
fn slice(keys: &[BTreeSet<(bool, u32)>], i: usize) -> Vec<usize> {
    let mut related = keys[i].clone();
    let mut chosen = vec![false; i];
    loop {
        let mut grew = false;
        for (j, k) in keys[..i].iter().enumerate() {
            if !chosen[j] && !k.is_disjoint(&related) {
                chosen[j] = true;
                related.extend(k.iter().copied());
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    (0..i).filter(|&j| chosen[j]).chain([i]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::BinOp;
    use crate::testkit::{int, sym};

    #[test]
    fn alternatives_negate_each_clause_and_keep_only_related_clauses() {
        // a > 0; b == 3; a + c < 10 (c a field of object 7); d != 0 (d also of object 7)
        let pc = PathCondition {
            clauses: vec![
                Clause::new(sym(0), Rel::Gt, int(0)),
                Clause::new(sym(1), Rel::Eq, int(3)),
                Clause::new(Expr::bin(BinOp::Add, sym(0), sym(2)), Rel::Lt, int(10)),
                Clause::new(sym(3), Rel::Ne, int(0)),
            ],
            owner: BTreeMap::from([(2, 7), (3, 7)]),
        };
        let alts = pc.alternatives();
        assert_eq!(alts.len(), 4);
        assert_eq!(alts[1].clauses, vec![Clause::new(sym(1), Rel::Ne, int(3))], "b is unrelated to a");
        assert_eq!(alts[2].clauses.len(), 2, "a > 0 shares a");
        assert_eq!(alts[2].clauses[1].rel, Rel::Ge);
        // d shares object 7 with c, which shares a with the first clause.
        assert_eq!(alts[3].clauses.len(), 3, "{:?}", alts[3]);
        let env = BTreeMap::from([(0, Value::Int(5)), (2, Value::Int(5))]);
        assert_eq!(alts[2].clauses[1].holds(&env), Ok(true), "a + c >= 10");
    }
}
