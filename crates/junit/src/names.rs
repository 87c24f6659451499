//! Test method names that say the method and the outcome:
//! `popThrowsIllegalStateException`, `parseThrowsNullPointerExceptionOnNull`,
//! `isEmptyReturnsTrue`, `splitToListReturnsTwoElements`, `createStack`.
//!
//! The method under test is [`TestCase::call_under_test`] when that is a
//! call the written test makes, else the last call the written test makes
//! (statements after the expected exception are not written). A
//! constructor reads `create<Class>`; a test without any call is `test`.
//! The outcome is the expected exception (with `OnNull`, `OnEmptyString`
//! or `OnNegative` when an argument of the call is such a value), else
//! what the call's value is asserted to be: `ReturnsTrue`/`ReturnsFalse`,
//! `ReturnsNull`, `ReturnsZero`/`ReturnsNegative`/`ReturnsPositive`,
//! `ReturnsEmptyString`, `ReturnsEmpty` or `Returns<N>Elements` (its
//! `size()`). When several tests get the same name, each of them gets a
//! numeric suffix in order (`push0`, `push1`), skipping names another test
//! already has.

use std::collections::{HashMap, HashSet};

use model::names::BinaryName;
use testcase::assertion::{AssertionKind, Literal};
use testcase::{Primitive, StatementKind, TestCase, VarId};

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

/// The method under test + its outcome, in lower camel case.
fn base_name(test_case: &TestCase) -> String {
    let Some((var, call)) = method_under_test(test_case) else { return String::from("test") };
    let mut name = call_words(call);
    if let Some((_, exception)) = expected_exception(test_case) {
        name.push_str("Throws");
        name.push_str(&identifier(innermost_name(exception)));
        name.push_str(input_words(test_case, call));
    } else {
        name.push_str(&returned_words(test_case, var));
    }
    let mut chars = name.chars();
    let name: String = chars.next().map(|first| first.to_lowercase().chain(chars).collect()).unwrap_or_default();
    // A method of `Object` (`hashCode()`, `toString()`) or a member of the
    // test class would clash with the test method: those keep `test`.
    const RESERVED: &[&str] = &[
        "hashCode",
        "toString",
        "getClass",
        "clone",
        "finalize",
        "wait",
        "notify",
        "notifyAll",
        "equals",
        crate::body::TEMP_FOLDER,
    ];
    if name.is_empty() || RESERVED.contains(&name.as_str()) {
        let mut chars = name.chars();
        let rest: String = chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default();
        format!("test{rest}")
    } else {
        name
    }
}

/// `OnNull`, `OnEmptyString`, `OnNegative`: an argument of `call` that
/// likely caused its exception; empty when none stands out.
fn input_words(test_case: &TestCase, call: &StatementKind) -> &'static str {
    let args: &[VarId] = match call {
        StatementKind::Constructor { args, .. } | StatementKind::StaticCall { args, .. } => args,
        StatementKind::Call { args, .. } => args,
        _ => &[],
    };
    let kinds: Vec<&StatementKind> = args.iter().filter_map(|a| test_case.get(*a)).map(|s| &s.kind).collect();
    if kinds.iter().any(|k| matches!(k, StatementKind::Null(_))) {
        "OnNull"
    } else if kinds.iter().any(|k| matches!(k, StatementKind::String(s) if s.is_empty())) {
        "OnEmptyString"
    } else if kinds.iter().any(|k| matches!(k, StatementKind::Primitive(p) if is_negative(p))) {
        "OnNegative"
    } else {
        ""
    }
}

fn is_negative(p: &Primitive) -> bool {
    match *p {
        Primitive::Byte(v) => v < 0,
        Primitive::Short(v) => v < 0,
        Primitive::Int(v) => v < 0,
        Primitive::Long(v) => v < 0,
        _ => false,
    }
}

/// What the value of `var` is asserted to be, as words (`ReturnsTrue`,
/// `ReturnsTwoElements`); empty when nothing telling is asserted.
fn returned_words(test_case: &TestCase, var: VarId) -> String {
    for assertion in test_case.assertions.iter().filter(|a| a.var == var) {
        let words = match &assertion.kind {
            AssertionKind::Value(literal) => literal_words(literal),
            AssertionKind::Inspector { method, expected: Literal::Primitive(Primitive::Int(n)) }
                if method.name == "size" =>
            {
                Some(elements_words(*n))
            }
            AssertionKind::ArrayLength(n) => Some(elements_words(*n)),
            AssertionKind::ArrayElements(elements) => i32::try_from(elements.len()).ok().map(elements_words),
            _ => None,
        };
        if let Some(words) = words {
            return format!("Returns{words}");
        }
    }
    String::new()
}

/// `Empty`, `OneElement`, `TwoElements`: the size of a collection or array as words.
fn elements_words(n: i32) -> String {
    match n {
        0 => String::from("Empty"),
        n => format!("{}Element{}", count_word(n), if n == 1 { "" } else { "s" }),
    }
}

/// `True`, `Null`, `Zero`, `Negative`, `EmptyString`: a literal as words.
fn literal_words(literal: &Literal) -> Option<String> {
    let sign = |v: i64| {
        String::from(if v == 0 {
            "Zero"
        } else if v < 0 {
            "Negative"
        } else {
            "Positive"
        })
    };
    Some(match literal {
        Literal::Null => String::from("Null"),
        Literal::Primitive(Primitive::Boolean(b)) => String::from(if *b { "True" } else { "False" }),
        Literal::Primitive(Primitive::Int(v)) => sign(i64::from(*v)),
        Literal::Primitive(Primitive::Long(v)) => sign(*v),
        Literal::Primitive(Primitive::Short(v)) => sign(i64::from(*v)),
        Literal::Primitive(Primitive::Byte(v)) => sign(i64::from(*v)),
        Literal::String(s) if s.is_empty() => String::from("EmptyString"),
        Literal::Enum { name, .. } => identifier(&upper_camel(name)),
        _ => return None,
    })
}

/// `One` … `Ten`, else the digits.
fn count_word(n: i32) -> String {
    const WORDS: [&str; 10] = ["One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"];
    usize::try_from(n - 1).ok().and_then(|i| WORDS.get(i)).map_or_else(|| n.to_string(), |w| w.to_string())
}

/// `RED_LIGHT` as `RedLight`.
fn upper_camel(constant: &str) -> String {
    constant
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let lower = w.to_lowercase();
            let mut chars = lower.chars();
            chars.next().map(|c| c.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default()
        })
        .collect()
}

/// The call under test if the written test makes it, else its last call;
/// with its variable.
fn method_under_test(test_case: &TestCase) -> Option<(VarId, &StatementKind)> {
    let written = &test_case.statements[..written_len(test_case)];
    let at = |i: usize| (VarId(i as u32), &written[i].kind);
    let marked =
        test_case.call_under_test.map(|var| var.index()).filter(|i| written.get(*i).is_some_and(|s| s.kind.is_call()));
    marked.or_else(|| (0..written.len()).rev().find(|i| written[*i].kind.is_call())).map(at)
}

/// `Create<Class>` for a constructor, the capitalised method name otherwise
/// ([`base_name`] lowers the first letter).
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
        let kind = AssertionKind::Throws { exception: BinaryName::new(exception), message: None };
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
            ["createStack", "pop", "popThrowsIllegalStateException", "popThrowsEmpty", "test"]
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
        assert_eq!(test_names(&tests), ["push0", "push2", "push1", "push3"]);
    }

    #[test]
    fn a_call_under_test_after_the_expected_exception_is_not_the_name() {
        let mut test_case = stack_test(true, Some(2));
        test_case.assertions.push(Assertion {
            var: VarId(2),
            kind: AssertionKind::Throws { exception: BinaryName::new("java.lang.RuntimeException"), message: None },
        });
        test_case.call_under_test = Some(VarId(3));
        assert_eq!(test_names(&[test_case]), ["pushThrowsRuntimeException"]);
    }

    #[test]
    fn names_say_what_the_call_returns_and_which_input_made_it_throw() {
        let mut empty = stack_test(false, None);
        empty.statements[2].kind =
            StatementKind::Call { receiver: VarId(0), method: method("demo.Stack", "isEmpty", "()Z"), args: vec![] };
        empty.assertions.push(Assertion {
            var: VarId(2),
            kind: AssertionKind::Value(Literal::Primitive(Primitive::Boolean(true))),
        });
        let mut split = stack_test(true, None);
        let size = method("java.util.List", "size", "()I");
        split.assertions.push(Assertion {
            var: VarId(3),
            kind: AssertionKind::Inspector { method: size, expected: Literal::Primitive(Primitive::Int(2)) },
        });
        let mut on_null = TestCaseBuilder::new();
        let stack = on_null.construct(method("demo.Stack", "<init>", "()V"), &[]);
        let none = on_null.null(model::descriptor::FieldType::parse("Ljava/lang/Object;").unwrap());
        on_null.call(stack, method("demo.Stack", "push", "(Ljava/lang/Object;)V"), &[none]);
        let on_null = throwing(on_null.build(), "java.lang.NullPointerException");
        let mut hash = TestCaseBuilder::new();
        let stack = hash.construct(method("demo.Stack", "<init>", "()V"), &[]);
        hash.call(stack, method("java.lang.Object", "hashCode", "()I"), &[]);
        assert_eq!(
            test_names(&[empty, split, on_null, hash.build()]),
            ["isEmptyReturnsTrue", "popReturnsTwoElements", "pushThrowsNullPointerExceptionOnNull", "testHashCode"]
        );
    }
}
