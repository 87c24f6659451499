//! The path-condition goals of the DSE step (SUSHI's style, TECHNIQUES.md
//! §5 step 3): an alternative only a change of a logged value satisfies
//! becomes a goal ([`crate::pcgoal`]) the search works on while it is
//! active ([`crate::objectives`]); the time goals are active stays within
//! the DSE's share; a test that reaches one is replayed at once and a
//! follow-up at the same branch side is solved at once; how goals end
//! trains the classifier.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use search::Executed;

use super::frontier::Pending;
use super::{DseSource, test_key};
use crate::concolic::replay_test_with;
use crate::fingerprint::Fingerprint;
use crate::objectives::Ended;
use crate::path::Clause;
use crate::pcgoal::PcGoal;
use crate::solve::Outcome;

impl DseSource {
    /// Books the time path-condition goals are active; call after
    /// anything that may start or end one.
    pub(super) fn track_pc_time(&mut self) {
        match (self.objectives.is_empty(), self.pc_since) {
            (false, None) => self.pc_since = Some(Instant::now()),
            (true, Some(since)) => {
                self.pc_time += since.elapsed();
                self.pc_since = None;
            }
            _ => {}
        }
    }

    /// Whether a new path-condition goal may start: the time goals were
    /// active is within the DSE's share of the search's time (with goals
    /// active every test runs with the value log, at about half the speed).
    pub(super) fn pc_within(&self) -> bool {
        let active = self.pc_time + self.pc_since.map_or(Duration::ZERO, |t| t.elapsed());
        active.as_secs_f64() <= self.settings.max_share * self.created.elapsed().as_secs_f64()
    }

    /// Solves a follow-up of a reached path-condition goal at once (not at
    /// the next step: a flag over many items needs one after another); a
    /// test it gives goes to the search with the next step's.
    pub(super) fn follow_up(&mut self) {
        if !self.objectives.has_room() || !self.pc_within() {
            return;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(self.stats.get("selected").copied().unwrap_or(0.0) as u64);
        if let Some(selected) = self.selector.next_among(&mut rng, |p| p.follow_up)
            && let Some(test) = self.solve_selected(selected)
        {
            self.origins.push(test);
        }
    }

    /// An alternative no change of the test's literals satisfies: with the
    /// logged values free, satisfiable makes it a path-condition goal (when
    /// there is room), unsatisfiable an infeasible example.
    pub(super) fn indirect(&mut self, pending: &Pending, clauses: &[Clause], fp: Fingerprint) {
        let replay = &pending.replay;
        match self.solve(clauses, replay) {
            Ok(Outcome::Sat(_)) => {
                self.count("indirect", 1.0);
                if !self.objectives.has_room() || !self.pc_within() {
                    return;
                }
                if let Some(goal) = PcGoal::new(replay, pending.alternative.negated) {
                    let negated = pending.alternative.clauses.last();
                    tracing::debug!(
                        goal = pending.goal.0,
                        clauses = goal.len(),
                        ?negated,
                        "tardis: path-condition goal"
                    );
                    self.count("pc_goals", 1.0);
                    self.objectives.add(goal, pending.goal, fp, test_key(&pending.test), replay);
                    self.origins.push((*pending.test).clone());
                }
            }
            Ok(Outcome::Unsat) => {
                self.count("unsat", 1.0);
                self.selector.learn(fp, false);
            }
            Ok(Outcome::Unknown) | Err(_) => self.count("unknown", 1.0),
        }
    }

    /// Learns how path-condition goals ended.
    pub(super) fn ended(&mut self, ended: Vec<Ended>) {
        for e in ended {
            match e {
                Ended::Reached { fingerprint: fp, .. } => {
                    self.count("pc_goals_reached", 1.0);
                    self.selector.learn(fp, true);
                }
                Ended::Failed(fp) => {
                    self.count("pc_goals_failed", 1.0);
                    self.selector.learn(fp, false);
                }
            }
        }
    }

    /// Replays each test with its log and measures it against the active
    /// path-condition goals (the time counts as the DSE's).
    pub(super) fn observe(&mut self, tests: &[Executed<'_>]) {
        let start = Instant::now();
        for t in tests {
            let Some(values) = t.values else { continue };
            if self.objectives.is_empty() {
                break;
            }
            let replay = replay_test_with(&self.classes, t.test, Some((values, &*self.sites)));
            let ended = self.objectives.observe(test_key(t.test), &replay);
            let reached = ended.iter().find_map(|e| match e {
                Ended::Reached { target, .. } => Some(*target),
                Ended::Failed(_) => None,
            });
            if let Some(target) = reached {
                tracing::debug!(test = %t.test, "tardis: a path-condition goal reached");
                // Progress: the test's alternatives at the same branch side are next.
                (self.idle, self.skip) = (0, 0);
                if let Some(frontier) = self.frontier.take() {
                    self.replay(t.test, Some(values), &frontier, Some(target));
                    self.frontier = Some(frontier);
                    self.follow_up();
                }
            }
            self.ended(ended);
        }
        self.track_pc_time();
        self.spent += start.elapsed();
        self.count("pc_seconds", start.elapsed().as_secs_f64());
    }
}
