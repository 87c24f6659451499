//! Trigger counts of a graph: per type (T1-T4) and per package, and the
//! number of methods with at least one trigger.

use std::collections::BTreeMap;

use crate::graph::{KnowledgeGraph, TriggerKind};

/// Counts over a graph.
#[derive(Debug, Default, PartialEq)]
pub struct Stats {
    /// Classes in the graph.
    pub classes: usize,
    /// Public and protected methods and constructors.
    pub methods: usize,
    /// Methods with at least one trigger.
    pub methods_with_triggers: usize,
    /// Clauses (`@throws` and `@return` conditions).
    pub clauses: usize,
    /// Triggers per type.
    pub by_kind: BTreeMap<TriggerKind, usize>,
    /// Triggers with a formal condition (not only `?`).
    pub formal: usize,
    /// Per package (dotted): triggers per type, in T1..T4 order.
    pub by_package: BTreeMap<String, [usize; 4]>,
}

impl Stats {
    /// Counts the triggers of `graph`.
    pub fn of(graph: &KnowledgeGraph) -> Stats {
        let mut s = Stats { classes: graph.classes.len(), ..Stats::default() };
        for c in &graph.classes {
            let package = c.name.to_binary().package().to_string();
            for m in &c.methods {
                s.methods += 1;
                let triggers: Vec<_> = m.clauses.iter().flat_map(|cl| &cl.triggers).collect();
                s.clauses += m.clauses.len();
                if !triggers.is_empty() {
                    s.methods_with_triggers += 1;
                }
                for t in triggers {
                    *s.by_kind.entry(t.kind).or_default() += 1;
                    s.by_package.entry(package.clone()).or_default()[t.kind as usize] += 1;
                    s.formal += usize::from(!t.condition.is_unknown());
                }
            }
        }
        s
    }

    /// All triggers.
    pub fn triggers(&self) -> usize {
        self.by_kind.values().sum()
    }
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "classes {}, methods {}, methods with triggers {}",
            self.classes, self.methods, self.methods_with_triggers
        )?;
        writeln!(f, "clauses {}, triggers {}, with a formal condition {}", self.clauses, self.triggers(), self.formal)?;
        for k in [TriggerKind::Nullness, TriggerKind::Range, TriggerKind::CallDependency, TriggerKind::Other] {
            writeln!(f, "  {} {:<16} {}", k.code(), format!("{k:?}"), self.by_kind.get(&k).copied().unwrap_or(0))?;
        }
        writeln!(f, "{:<28} {:>6} {:>6} {:>6} {:>6} {:>7}", "package", "T1", "T2", "T3", "T4", "total")?;
        for (p, c) in &self.by_package {
            let total: usize = c.iter().sum();
            writeln!(f, "{p:<28} {:>6} {:>6} {:>6} {:>6} {total:>7}", c[0], c[1], c[2], c[3])?;
        }
        Ok(())
    }
}
