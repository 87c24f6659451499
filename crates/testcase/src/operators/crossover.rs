//! Single-point relative crossover (EvoSuite's default for test cases):
//! both parents are cut at the same relative point, and each child is one
//! parent's head followed by the other's tail.
//!
//! A tail statement that uses a value of the other parent's head gets a
//! value of the child's head with exactly the same type (never a `null`,
//! and never for the array of an array store, whose length matters), or a
//! copy of the statement that defined it, with its own inputs found the
//! same way. Exact types make the copy as valid as the parents, with no
//! need for the cluster.

use std::collections::HashMap;

use crate::ir::{StatementKind, TestCase, VarId, var_id};

/// Where a value of the tail parent lives in the child.
#[derive(Clone, Copy)]
struct Mapped {
    var: VarId,
    /// The statement itself was copied (rather than a value of the same type reused).
    exact: bool,
}

/// The point where a test of `len` statements is cut for a relative split
/// in `[0, 1)`: at least one statement stays in the head of a non-empty test.
pub(crate) fn split_point(len: usize, split: f64) -> usize {
    if len == 0 { 0 } else { ((len - 1) as f64 * split).floor() as usize + 1 }
}

/// `head[..p]` followed by `tail[q..]`, with references repaired. The call
/// under test is the tail's when it is in the copied part, else the head's
/// when it is in the kept part; assertions are dropped.
pub(crate) fn splice(head: &TestCase, p: usize, tail: &TestCase, q: usize) -> TestCase {
    let mut child = TestCase {
        statements: head.statements[..p].to_vec(),
        call_under_test: head.call_under_test.filter(|v| v.index() < p),
        assertions: Vec::new(),
    };
    let mut map: HashMap<VarId, Mapped> = HashMap::new();
    for j in q..tail.len() {
        let var = copy(tail, var_id(j), &mut child, &mut map);
        map.insert(var_id(j), Mapped { var, exact: true });
        if tail.call_under_test == Some(var_id(j)) {
            child.call_under_test = Some(var);
        }
    }
    child
}

/// Appends a copy of statement `j` of `tail` to `child`, its inputs mapped
/// (copying their statements first where needed); returns the copy's id.
fn copy(tail: &TestCase, j: VarId, child: &mut TestCase, map: &mut HashMap<VarId, Mapped>) -> VarId {
    let mut kind = tail[j].kind.clone();
    let uses: Vec<VarId> = kind.uses().collect();
    for (slot, used) in uses.into_iter().enumerate() {
        let needs_exact = slot == 0 && matches!(kind, StatementKind::ArrayStore { .. });
        let mapped = match map.get(&used) {
            Some(m) if m.exact || !needs_exact => m.var,
            _ => {
                let m = same_typed(tail, used, child)
                    .filter(|_| !needs_exact)
                    .map(|var| Mapped { var, exact: false })
                    .unwrap_or_else(|| Mapped { var: copy(tail, used, child, map), exact: true });
                map.insert(used, m);
                m.var
            }
        };
        kind.set_use(slot, mapped);
    }
    let mut statement = tail[j].clone();
    statement.kind = kind;
    child.push(statement)
}

/// The last non-null value of `child` whose type equals that of value
/// `used` of `tail`, unless `used` is itself a `null` (which may stand
/// where no value of its type could).
fn same_typed(tail: &TestCase, used: VarId, child: &TestCase) -> Option<VarId> {
    let wanted = &tail[used];
    if matches!(wanted.kind, StatementKind::Null(_)) {
        return None;
    }
    child
        .iter()
        .filter(|(_, s)| s.produces_value() && s.ty == wanted.ty && !matches!(s.kind, StatementKind::Null(_)))
        .map(|(v, _)| v)
        .last()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::TestCaseBuilder;
    use crate::ir::MethodRef;

    fn m(owner: &str, name: &str, descriptor: &str) -> MethodRef {
        MethodRef::parse(owner, name, descriptor).unwrap()
    }

    #[test]
    fn split_points_keep_at_least_one_statement_in_the_head() {
        assert_eq!([split_point(0, 0.5), split_point(1, 0.9), split_point(5, 0.0), split_point(5, 0.99)], [0, 1, 1, 4]);
    }

    #[test]
    fn tail_inputs_map_to_same_typed_values_or_are_copied() {
        let mut a = TestCaseBuilder::new();
        a.int(5);
        let head = a.build();
        let mut b = TestCaseBuilder::new();
        let v0 = b.int(1);
        let v1 = b.string("s");
        let v2 = b.construct(m("fix.Counter", "<init>", "(I)V"), &[v0]);
        let v3 = b.call(v2, m("fix.Counter", "describe", "(Ljava/lang/CharSequence;)Ljava/lang/String;"), &[v1]);
        b.call_under_test(v3);
        let tail = b.build();
        let child = splice(&head, 1, &tail, 2);
        assert_eq!(
            child.to_string(),
            "v0 = 5\nv1 = new fix.Counter(v0)\nv2 = \"s\"\nv3 = v1.describe(v2)  // call under test\n"
        );
    }
}
