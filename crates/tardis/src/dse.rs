//! Direct dynamic symbolic execution of one static method (TECHNIQUES.md §5
//! steps 1-3, without the search yet): replay the inputs concolically,
//! make the alternatives of the path, pick one with the [`Selector`] (k-NN,
//! or FIFO and random for the ablation), solve it with z3 within a time
//! limit, write the model into a copy of the inputs, and replay those.
//! A solved alternative and every replayed path are feasible examples; an
//! unsatisfiable one is an infeasible example (an unanswered one is none).

use std::collections::BTreeSet;
use std::time::Instant;

use model::classfile::ClassFile;
use rand::Rng;

use crate::classify::{Selector, Strategy};
use crate::expr::Value;
use crate::fingerprint::{Fingerprint, canonical};
use crate::path::{Alternative, Clause};
use crate::replay::{Input, Replay, Source, replay};
use crate::solve::{Outcome, solve};

/// The numbers of an exploration (`report.json`'s DSE counts, later).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    /// Alternatives made (distinct).
    pub alternatives: usize,
    /// Alternatives selected and sent to the solver.
    pub selected: usize,
    /// Of those, satisfiable.
    pub solved: usize,
    /// Of those, proved unsatisfiable.
    pub unsat: usize,
    /// Of those, without an answer in time (or not expressible).
    pub unknown: usize,
    /// Seconds in z3.
    pub solver_seconds: f64,
}

/// The inputs tried and what their replays found.
#[derive(Debug, Clone, Default)]
pub struct Explored {
    /// Each run: its inputs and its replay, in order (the first is the start).
    pub runs: Vec<(Vec<Input>, Replay)>,
    /// The counts.
    pub stats: Stats,
}

/// An alternative waiting for the solver, with the run it came from.
struct Pending {
    alternative: Alternative,
    run: usize,
}

/// How an exploration chooses and solves alternatives.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// How the next alternative is chosen.
    pub strategy: Strategy,
    /// Alternatives sent to z3 at most.
    pub max_solves: usize,
    /// z3's time limit per alternative, in milliseconds.
    pub timeout_ms: u32,
}

/// Explores static method `name descriptor` of `cf` from `start`.
pub fn explore(
    cf: &ClassFile,
    name: &str,
    descriptor: &str,
    start: Vec<Input>,
    settings: Settings,
    rng: &mut impl Rng,
) -> Explored {
    let mut out = Explored::default();
    let mut selector: Selector<Pending> = Selector::new(settings.strategy);
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let first = replay(cf, name, descriptor, &start);
    add_run(&mut out, &mut selector, &mut seen, start, first);
    while out.stats.selected < settings.max_solves {
        let Some((pending, fp, _)) = selector.next(rng) else { break };
        out.stats.selected += 1;
        let (inputs, run) = &out.runs[pending.run];
        let t = Instant::now();
        let outcome = solve(&pending.alternative.clauses, &run.types(), &run.values(), settings.timeout_ms);
        out.stats.solver_seconds += t.elapsed().as_secs_f64();
        match outcome {
            Ok(Outcome::Sat(model)) => {
                out.stats.solved += 1;
                selector.learn(fp, true);
                let next_inputs = write_back(inputs, run, &model);
                let next = replay(cf, name, descriptor, &next_inputs);
                add_run(&mut out, &mut selector, &mut seen, next_inputs, next);
            }
            Ok(Outcome::Unsat) => {
                out.stats.unsat += 1;
                selector.learn(fp, false);
            }
            Ok(Outcome::Unknown) | Err(_) => {
                // A time-out proves nothing: no training example.
                out.stats.unknown += 1;
            }
        }
    }
    out
}

/// Records a run, learns its sliced prefixes as feasible and queues its new alternatives.
fn add_run(
    out: &mut Explored,
    selector: &mut Selector<Pending>,
    seen: &mut BTreeSet<String>,
    inputs: Vec<Input>,
    run: Replay,
) {
    let index = out.runs.len();
    for fp in Fingerprint::of_prefixes(&run.path) {
        selector.learn(fp, true);
    }
    for alternative in run.path.alternatives() {
        // The same prefix and negation from another run is the same alternative.
        let mut whole: Vec<Clause> = run.path.clauses[..alternative.negated].to_vec();
        whole.push(run.path.clauses[alternative.negated].negate());
        let mut names = std::collections::BTreeMap::new();
        let key: Vec<String> = whole.iter().map(|c| canonical(c, &mut names, false)).collect();
        if seen.insert(key.join(" && ")) {
            out.stats.alternatives += 1;
            let fp = Fingerprint::of(&alternative.clauses);
            selector.add(Pending { alternative, run: index }, fp);
        }
    }
    out.runs.push((inputs, run));
}

/// `inputs` with the model's values written in (array lengths first, then elements).
fn write_back(inputs: &[Input], run: &Replay, model: &std::collections::BTreeMap<u32, Value>) -> Vec<Input> {
    let mut out = inputs.to_vec();
    let mut entries: Vec<(Source, Value)> =
        model.iter().filter_map(|(id, v)| run.symbols.get(id).map(|(_, _, source)| (*source, *v))).collect();
    entries.sort_by_key(|(s, _)| !matches!(s, Source::Length(_)));
    for (source, v) in entries {
        match (source, v) {
            (Source::Param(n), v) => out[n] = Input::Prim(v),
            (Source::Length(n), Value::Int(len)) => {
                if let Input::Array(elem, items) = &mut out[n] {
                    let zero = match elem {
                        crate::expr::JType::Int => Value::Int(0),
                        crate::expr::JType::Long => Value::Long(0),
                        crate::expr::JType::Float => Value::Float(0.0),
                        crate::expr::JType::Double => Value::Double(0.0),
                    };
                    items.resize(len.clamp(0, 64) as usize, zero);
                }
            }
            (Source::Element(n, i), v) => {
                if let Input::Array(_, items) = &mut out[n]
                    && let Some(slot) = items.get_mut(i)
                {
                    *slot = v;
                }
            }
            _ => {}
        }
    }
    out
}
