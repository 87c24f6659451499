//! Solving a (sliced) alternative with z3 (TECHNIQUES.md §5 step 3, direct
//! DSE): a model gives the symbols' values, which the caller writes into a
//! copy of the test. Each query has a time limit; a symbol the model leaves
//! open keeps the value it had (`current`).

use std::collections::BTreeMap;

use z3::ast::Bool;
use z3::{Params, SatResult, Solver};

use crate::expr::{JType, Value};
use crate::path::Clause;
use crate::smt::{Symbols, Term, Unsupported, evaluate};

/// What the solver said about an alternative.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Satisfiable: a value for every symbol of the clauses.
    Sat(BTreeMap<u32, Value>),
    /// Proved unsatisfiable (infeasible).
    Unsat,
    /// No answer within the time limit.
    Unknown,
}

/// Solves the conjunction of `clauses` within `timeout_ms`; `types` gives
/// each symbol's type, `current` the values the test has now.
///
/// # Errors
/// [`Unsupported`] when a clause cannot be expressed in z3.
pub fn solve(
    clauses: &[Clause],
    types: &BTreeMap<u32, JType>,
    current: &BTreeMap<u32, Value>,
    timeout_ms: u32,
) -> Result<Outcome, Unsupported> {
    let mut symbols = Symbols::default();
    let formulas = clauses.iter().map(|c| c.formula(&mut symbols)).collect::<Result<Vec<Bool>, _>>()?;
    let solver = Solver::new();
    let mut params = Params::new();
    params.set_u32("timeout", timeout_ms);
    solver.set_params(&params);
    for f in &formulas {
        solver.assert(f);
    }
    Ok(match solver.check() {
        SatResult::Unsat => Outcome::Unsat,
        SatResult::Unknown => Outcome::Unknown,
        SatResult::Sat => {
            let Some(model) = solver.get_model() else { return Ok(Outcome::Unknown) };
            let mut values = current.clone();
            for c in clauses {
                for id in c.symbols() {
                    let ty = types.get(&id).copied().unwrap_or(JType::Int);
                    let value = match symbols.get(id, ty) {
                        Term::Bv(x) => model.eval(&x, true).map(Term::Bv),
                        Term::Fp(x) => model.eval(&x, true).map(Term::Fp),
                    };
                    if let Some(v) = value.and_then(|t| evaluate(&t, ty)) {
                        values.insert(id, v);
                    }
                }
            }
            Outcome::Sat(values)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{BinOp, Conv, Expr};
    use crate::path::Rel;
    use crate::testkit::{int, sym};

    #[test]
    fn models_satisfy_the_clauses_with_java_overflow_and_unsat_is_proved() {
        let types = BTreeMap::from([(0, JType::Int), (1, JType::Int), (2, JType::Double)]);
        let current = BTreeMap::from([(0, Value::Int(0)), (1, Value::Int(0)), (2, Value::Double(0.0))]);
        // a + 1 < a holds only by overflow: a == Integer.MAX_VALUE.
        let overflow = [Clause::new(Expr::bin(BinOp::Add, sym(0), int(1)), Rel::Lt, sym(0))];
        let Ok(Outcome::Sat(model)) = solve(&overflow, &types, &current, 1000) else { panic!("sat") };
        assert_eq!(model[&0], Value::Int(i32::MAX));
        // An exact product of two parameters, with both above 1.
        let product = [
            Clause::new(Expr::bin(BinOp::Mul, sym(0), sym(1)), Rel::Eq, int(391)),
            Clause::new(sym(0), Rel::Gt, int(1)),
            Clause::new(sym(1), Rel::Gt, int(1)),
        ];
        let Ok(Outcome::Sat(model)) = solve(&product, &types, &current, 2000) else { panic!("sat") };
        assert!(product.iter().all(|c| c.holds(&model) == Ok(true)), "{model:?}");
        // (int) d == 7 with d a double in [7, 8).
        let d2i = [Clause::new(Expr::conv(Conv::D2I, Expr::Sym(2, JType::Double)), Rel::Eq, int(7))];
        let Ok(Outcome::Sat(model)) = solve(&d2i, &types, &current, 1000) else { panic!("sat") };
        assert!(d2i[0].holds(&model) == Ok(true), "{model:?}");
        // x > 5 and x < 3 cannot both hold.
        let unsat = [Clause::new(sym(0), Rel::Gt, int(5)), Clause::new(sym(0), Rel::Lt, int(3))];
        assert_eq!(solve(&unsat, &types, &current, 1000), Ok(Outcome::Unsat));
    }
}
