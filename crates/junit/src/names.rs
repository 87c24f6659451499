//! Test method names that say what a test does: `test` + the method under
//! test + the expected exception, `testPopThrowsIllegalStateException`.
//!
//! The method under test is [`TestCase::call_under_test`] when that is a
//! call the written test makes, else the last call the written test makes
//! (statements after the expected exception are not written). A
//! constructor reads `Create<Class>` (`testCreateStack`); a test without
//! any call is just `test`. When several tests get the same name, each of
//! them gets a numeric suffix in order (`testPush0`, `testPush1`), skipping
//! names another test already has.

use std::collections::{HashMap, HashSet};

use model::names::BinaryName;
use testcase::{StatementKind, TestCase};

use crate::body::{expected_exception, written_len};

/// The name of each test method, in the order of `tests`: unique, valid
/// Java identifiers, the same for the same tests.
pub fn test_names(tests: &[TestCase]) -> Vec<String> {
    let bases: Vec<String> = tests.iter().map(base_name).collect();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for base in &bases {
        *counts.entry(base).or_default() += 1;
    }
    let mut taken: HashSet<String> = bases.iter().filter(|base| counts[base.as_str()] == 1).cloned().collect();
    let mut counters: HashMap<&str, usize> = HashMap::new();
    let mut names = Vec::with_capacity(bases.len());
    for base in &bases {
        names.push(match counts[base.as_str()] {
            1 => base.clone(),
            _ => next_free(base, counters.entry(base).or_default(), &mut taken),
        });
    }
    names
}

/// `base` + the first number from `counter` on that makes a name not yet
/// `taken`, which it then is.
fn next_free(base: &str, counter: &mut usize, taken: &mut HashSet<String>) -> String {
    loop {
        let candidate = format!("{base}{counter}");
        *counter += 1;
        if taken.insert(candidate.clone()) {
            return candidate;
        }
    }
}

/// `test` + the method under test + `Throws<Exception>`.
fn base_name(test_case: &TestCase) -> String {
    let mut name = String::from("test");
    if let Some(call) = method_under_test(test_case) {
        name.push_str(&call_words(call));
    }
    if let Some((_, exception)) = expected_exception(test_case) {
        name.push_str("Throws");
        name.push_str(&identifier(innermost_name(exception)));
    }
    name
}

/// The call under test if the written test makes it, else its last call.
fn method_under_test(test_case: &TestCase) -> Option<&StatementKind> {
    let written = &test_case.statements[..written_len(test_case)];
    let marked = test_case.call_under_test.and_then(|var| written.get(var.index())).map(|s| &s.kind);
    marked.filter(|kind| kind.is_call()).or_else(|| written.iter().rev().map(|s| &s.kind).find(|kind| kind.is_call()))
}

/// `Create<Class>` for a constructor, the capitalised method name otherwise.
fn call_words(call: &StatementKind) -> String {
    match call {
        StatementKind::Constructor { method, .. } => format!("Create{}", identifier(innermost_name(&method.owner))),
        StatementKind::StaticCall { method, .. } | StatementKind::Call { method, .. } => {
            let name = identifier(&method.name);
            let mut chars = name.chars();
            chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
        }
        _ => String::new(),
    }
}

/// `Entry` for `java.util.Map$Entry`.
fn innermost_name(class: &BinaryName) -> &str {
    let simple = class.simple_name();
    simple.rsplit('$').find(|part| !part.is_empty()).unwrap_or(simple)
}

/// `text` without the characters a Java identifier cannot have.
fn identifier(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric() || *c == '_' || *c == '$').collect()
}

#[cfg(test)]
mod tests {
    use testcase::assertion::{Assertion, AssertionKind};
    use testcase::{MethodRef, TestCaseBuilder, VarId};

    use super::*;

    fn method(owner: &str, name: &str, descriptor: &str) -> MethodRef {
        MethodRef::parse(owner, name, descriptor).unwrap()
    }

    /// A test that makes a `Stack`, pushes onto it and (maybe) pops from it,
    /// marking `mark` (an index into the calls) as the call under test.
    fn stack_test(pop: bool, mark: Option<usize>) -> TestCase {
        let mut b = TestCaseBuilder::new();
        let stack = b.construct(method("demo.Stack", "<init>", "()V"), &[]);
        let value = b.string("a");
        let push = b.call(stack, method("demo.Stack", "push", "(Ljava/lang/Object;)V"), &[value]);
        let mut calls = vec![stack, push];
        if pop {
            calls.push(b.call(stack, method("demo.Stack", "pop", "()Ljava/lang/Object;"), &[]));
        }
        if let Some(i) = mark {
            b.call_under_test(calls[i]);
        }
        b.build()
    }

    fn throwing(mut test_case: TestCase, exception: &str) -> TestCase {
        let var = VarId(test_case.len() as u32 - 1);
        let kind = AssertionKind::Throws { exception: BinaryName::new(exception) };
        test_case.assertions.push(Assertion { var, kind });
        test_case
    }

    #[test]
    fn names_come_from_the_call_under_test_and_the_expected_exception() {
        let tests = [
            stack_test(false, Some(0)),
            stack_test(true, None),
            throwing(stack_test(true, Some(2)), "java.lang.IllegalStateException"),
            throwing(stack_test(true, None), "demo.Stack$Empty"),
            TestCase::default(),
        ];
        assert_eq!(
            test_names(&tests),
            ["testCreateStack", "testPop", "testPopThrowsIllegalStateException", "testPopThrowsEmpty", "test"]
        );
    }

    #[test]
    fn duplicate_names_get_suffixes_that_no_other_test_has() {
        let mut last = stack_test(false, None);
        last.statements[2].kind = match &last.statements[2].kind {
            StatementKind::Call { receiver, args, .. } => StatementKind::Call {
                receiver: *receiver,
                method: method("demo.Stack", "push1", "(Ljava/lang/Object;)V"),
                args: args.clone(),
            },
            other => other.clone(),
        };
        let tests = [stack_test(false, None), stack_test(false, Some(1)), last, stack_test(false, None)];
        assert_eq!(test_names(&tests), ["testPush0", "testPush2", "testPush1", "testPush3"]);
    }

    #[test]
    fn a_call_under_test_after_the_expected_exception_is_not_the_name() {
        let mut test_case = stack_test(true, Some(2));
        test_case.assertions.push(Assertion {
            var: VarId(2),
            kind: AssertionKind::Throws { exception: BinaryName::new("java.lang.RuntimeException") },
        });
        test_case.call_under_test = Some(VarId(3));
        assert_eq!(test_names(&[test_case]), ["testPushThrowsRuntimeException"]);
    }
}
