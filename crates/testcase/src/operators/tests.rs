use model::classpath::ClassPath;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::builder::TestCaseBuilder;
use crate::cluster::ClusterOptions;
use crate::ir::{MethodRef, StatementKind};
use crate::testutil::class_path;
use crate::validate::Validator;

fn cluster(cut: &str) -> Option<(TestCluster, &'static ClassPath)> {
    let class_path = class_path()?;
    Some((TestCluster::build(class_path, cut, &ClusterOptions::default()).unwrap(), class_path))
}

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn m(owner: &str, name: &str, descriptor: &str) -> MethodRef {
    MethodRef::parse(owner, name, descriptor).unwrap()
}

fn assert_valid(validator: &Validator<'_>, test: &TestCase, what: &str) {
    if let Err(e) = validator.validate(test) {
        panic!("{what} is invalid: {e}\n{test}");
    }
}

#[test]
fn random_tests_are_valid_end_in_a_call_under_test_and_repeat_with_the_seed() {
    let Some((cluster, class_path)) = cluster("fix.Counter") else { return };
    let validator = Validator::new(class_path);
    let seeds = Seeds::default();
    for seed in 0..50 {
        let test = random_test(&cluster, &seeds, &mut rng(seed), 12);
        assert_valid(&validator, &test, "random test");
        assert!((1..=12).contains(&test.len()), "{test}");
        let cut = test.call_under_test.expect("a call under test");
        assert_eq!(Some(cut), cluster.last_call_under_test(&test));
        assert_eq!(test, random_test(&cluster, &seeds, &mut rng(seed), 12));
    }
}

#[test]
fn a_random_test_reads_like_a_unit_test() {
    let Some((cluster, _)) = cluster("fix.Counter") else { return };
    let test = random_test(&cluster, &Seeds::default(), &mut rng(4), 8);
    // Snapshot: regenerate when the factory's use of randomness changes.
    assert_eq!(test.to_string(), SNAPSHOT, "\n{test}");
}

const SNAPSHOT: &str = r#"v0 = -1794
v1 = new fix.Counter(v0)
v2 = new fix.Counter(v0)
v3 = -1323
v2.value = v3
v5 = fix.Counter.count
v6 = v1.value
v7 = new fix.Counter()  // call under test
"#;

#[test]
fn instance_calls_on_an_abstract_class_get_a_concrete_receiver() {
    let Some((cluster, class_path)) = cluster("fix.Shape") else { return };
    let validator = Validator::new(class_path);
    let test = (0..20)
        .map(|seed| random_test(&cluster, &Seeds::default(), &mut rng(seed), 6))
        .find(|t| t.iter().any(|(_, s)| matches!(&s.kind, StatementKind::Call { .. })))
        .expect("some test calls a method");
    assert_valid(&validator, &test, "random test");
    assert!(test.to_string().contains("new fix.Square()"), "{test}");
}

#[test]
fn generic_collection_parameters_get_filled_concrete_collections() {
    let Some((cluster, class_path)) = cluster("fix.Bag") else { return };
    let validator = Validator::new(class_path);
    let mut found = false;
    for seed in 0..200 {
        let test = random_test(&cluster, &Seeds::default(), &mut rng(seed), 20);
        assert_valid(&validator, &test, "random test");
        for (var, s) in test.iter() {
            let StatementKind::Call { receiver, method, args } = &s.kind else { continue };
            if method.name == "add" && test[*receiver].ty.to_string() == "java.util.ArrayList<java.lang.String>" {
                assert_eq!(test[args[0]].ty.to_string(), "java.lang.String", "{var} in\n{test}");
                found = true;
            }
        }
    }
    assert!(found, "no List<String> argument was filled with strings");
}

#[test]
fn mutants_differ_from_their_parent_are_valid_and_repeat_with_the_seed() {
    let Some((cluster, class_path)) = cluster("fix.Bag") else { return };
    let validator = Validator::new(class_path);
    let seeds = Seeds::default();
    for seed in 0..100 {
        let mut r = rng(seed);
        let test = random_test(&cluster, &seeds, &mut r, 15);
        let mutant = mutate(&test, &cluster, &seeds, &mut r);
        assert_valid(&validator, &mutant, "mutant");
        assert_ne!(mutant.statements, test.statements, "seed {seed}");
        assert!(mutant.len() <= cluster.options().max_length);
        assert_eq!(mutant.call_under_test, cluster.last_call_under_test(&mutant));
        let mut again = rng(seed);
        let test_again = random_test(&cluster, &seeds, &mut again, 15);
        assert_eq!(mutate(&test_again, &cluster, &seeds, &mut again), mutant);
    }
}

#[test]
fn deleting_a_value_points_its_uses_at_another_value_of_the_type() {
    let Some((cluster, class_path)) = cluster("fix.Counter") else { return };
    let mut b = TestCaseBuilder::new();
    let v0 = b.int(1);
    let v1 = b.int(2);
    let v2 = b.static_call(m("fix.Counter", "twice", "(I)I"), &[v1]);
    b.call_under_test(v2);
    let seeds = Seeds::default();
    let mut r = rng(0);
    let mut factory = factory::Factory::new(&cluster, &seeds, &mut r, b.build());
    factory.delete(v1);
    assert_eq!(factory.test.to_string(), "v0 = 1\nv1 = fix.Counter.twice(v0)  // call under test\n");
    assert_valid(&Validator::new(class_path), &factory.test, "after delete");
    let _ = v0;
}

/// Deleting and redirecting keep to the generic parameter type: a
/// `List<Object>` never takes the place of `Bag(List<String>)`'s list
/// (javac would take that call only raw), an `ArrayList<String>` does.
#[test]
fn deleting_a_value_points_its_uses_only_at_values_whose_type_arguments_fit() {
    let Some((cluster, class_path)) = cluster("fix.Bag") else { return };
    let list = |arg: &str| model::signature::parse_field_signature(&format!("Ljava/util/ArrayList<L{arg};>;")).unwrap();
    let new_list = m("java.util.ArrayList", "<init>", "()V");
    let bag = m("fix.Bag", "<init>", "(Ljava/util/List;)V");
    for (other, kept) in [("java/lang/Object", false), ("java/lang/String", true)] {
        let mut b = TestCaseBuilder::new();
        let v0 = b.construct(new_list.clone(), &[]);
        b.refine(v0, list(other));
        let v1 = b.construct(new_list.clone(), &[]);
        b.refine(v1, list("java/lang/String"));
        let v2 = b.construct(bag.clone(), &[v1]);
        b.call_under_test(v2);
        let seeds = Seeds::default();
        let mut r = rng(0);
        let mut factory = factory::Factory::new(&cluster, &seeds, &mut r, b.build());
        factory.delete(v1);
        let text = factory.test.to_string();
        assert_eq!(text.contains("new fix.Bag(v0)"), kept, "with an ArrayList<{other}> left:\n{text}");
        assert_valid(&Validator::new(class_path), &factory.test, "after delete");
    }
}

/// A container's `add(E)` declares `Object`, but javac takes only an
/// element of the receiver's type argument: for a place whose generic type
/// is `String` and erasure `Object`, a string is a candidate and a list is
/// not (seed 6 of `generate::generic_classes_and_wildcard_containers_need_no_raw_types`
/// once passed an `Index` to an `ArrayList<CharSequence>`'s `add`, which
/// javac takes only raw).
#[test]
fn a_place_of_generic_type_takes_only_values_of_its_erasure() {
    let Some((cluster, _)) = cluster("fix.Bag") else { return };
    let list = model::signature::parse_field_signature("Ljava/util/ArrayList<Ljava/lang/Object;>;").unwrap();
    let mut b = TestCaseBuilder::new();
    let v0 = b.construct(m("java.util.ArrayList", "<init>", "()V"), &[]);
    b.refine(v0, list);
    let v1 = b.string("x");
    let test = b.build();
    let need = model::signature::parse_field_signature("Ljava/lang/String;").unwrap();
    let object = || model::descriptor::FieldType::Object(model::names::InternalName::object());
    let slot = edit::Slot { generic: Some(need), ..edit::Slot::value(object()) };
    assert_eq!(edit::candidates(&test, &cluster, 2, &slot, &[]), [v1]);
    let untyped = edit::Slot::value(object());
    assert_eq!(edit::candidates(&test, &cluster, 2, &untyped, &[]), [v0, v1]);
}

/// A container keeps its type arguments for the elements given to it: a
/// call that replaces an `ArrayList<Object>` does not pass its `add(list)`
/// to an `ArrayList<CharSequence>` (seed 6 of
/// `generate::generic_classes_and_wildcard_containers_need_no_raw_types`:
/// `arrayList0.add(index0)` on an `ArrayList<CharSequence>`).
#[test]
fn a_container_fill_keeps_a_receiver_of_the_same_type_arguments() {
    let Some((cluster, _)) = cluster("fix.Bag") else { return };
    let list = |arg: &str| model::signature::parse_field_signature(&format!("Ljava/util/ArrayList<L{arg};>;")).unwrap();
    let new_list = m("java.util.ArrayList", "<init>", "()V");
    for (other, moved) in [("java/lang/CharSequence", false), ("java/lang/Object", true)] {
        let mut b = TestCaseBuilder::new();
        let v0 = b.construct(new_list.clone(), &[]);
        b.refine(v0, list("java/lang/Object"));
        let v1 = b.construct(new_list.clone(), &[]);
        b.refine(v1, list(other));
        let added = b.call(v0, m("java.util.ArrayList", "add", "(Ljava/lang/Object;)Z"), &[v1]);
        let mut test = b.build();
        edit::redirect(&mut test, &cluster, v0, v1);
        let receiver = test[added].kind.uses().next();
        assert_eq!(receiver == Some(v1), moved, "to an ArrayList<{other}>:\n{test}");
    }
}

#[test]
fn crossover_children_are_valid_and_mix_both_parents() {
    let Some((cluster, class_path)) = cluster("fix.Bag") else { return };
    let validator = Validator::new(class_path);
    let seeds = Seeds::default();
    let mut r = rng(11);
    for _ in 0..100 {
        let a = random_test(&cluster, &seeds, &mut r, 15);
        let b = random_test(&cluster, &seeds, &mut r, 15);
        let (c, d) = crossover(&a, &b, &mut r);
        assert_valid(&validator, &c, "first child");
        assert_valid(&validator, &d, "second child");
        assert_eq!(c.statements[0], a.statements[0]);
        assert_eq!(d.statements[0], b.statements[0]);
    }
}

#[test]
fn truncation_and_removal_keep_earlier_statements_and_renumber() {
    let mut b = TestCaseBuilder::new();
    let v0 = b.int(1);
    let v1 = b.construct(m("fix.Counter", "<init>", "(I)V"), &[v0]);
    let v2 = b.int(5);
    let v3 = b.call(v1, m("fix.Counter", "add", "(I)I"), &[v2]);
    b.call_under_test(v3);
    let test = b.build();
    let truncated = truncate_after(&test, v1);
    assert_eq!(truncated.to_string(), "v0 = 1\nv1 = new fix.Counter(v0)\n");
    assert_eq!(truncated.call_under_test, None);
    assert_eq!(truncate_after(&test, VarId(99)), test);
    let removed = remove_with_forward_dependencies(&test, v1);
    assert_eq!(removed.to_string(), "v0 = 1\nv1 = 5\n");
    let removed = remove_with_forward_dependencies(&test, v2);
    assert_eq!(removed.to_string(), "v0 = 1\nv1 = new fix.Counter(v0)\n");
}

/// For each seed below `seeds`, a random test of at most `length`
/// statements mutated `rounds` times in a chain: every mutant, validated,
/// with its seed.
fn mutant_chains(
    cluster: &TestCluster,
    class_path: &ClassPath,
    seeds: u64,
    length: usize,
    rounds: usize,
) -> Vec<(u64, TestCase)> {
    let validator = Validator::new(class_path);
    let mut mutants = Vec::new();
    for seed in 0..seeds {
        let mut r = rng(seed);
        let mut test = random_test(cluster, &Seeds::default(), &mut r, length);
        for _ in 0..rounds {
            test = mutate(&test, cluster, &Seeds::default(), &mut r);
            assert_valid(&validator, &test, "mutant");
            mutants.push((seed, test.clone()));
        }
    }
    mutants
}

/// `seeds` random tests of `cut` and their mutants, all validated.
fn tests_made(cut: &str, seeds: u64) -> Vec<TestCase> {
    let Some((cluster, class_path)) = cluster(cut) else { return Vec::new() };
    let validator = Validator::new(class_path);
    let mut made = Vec::new();
    for seed in 0..seeds {
        let mut r = rng(seed);
        let test = random_test(&cluster, &Seeds::default(), &mut r, 12);
        assert_valid(&validator, &test, "random test");
        let mutant = mutate(&test, &cluster, &Seeds::default(), &mut r);
        assert_valid(&validator, &mutant, "mutant");
        made.extend([test, mutant]);
    }
    made
}

#[test]
fn the_factory_makes_class_values_members_and_lambdas_of_every_kind() {
    use crate::ir::{LambdaBody, MemberRef};
    use model::descriptor::FieldType;
    let tests = tests_made("fix.Values", 300);
    if tests.is_empty() {
        return;
    }
    let made: Vec<StatementKind> = tests.iter().flat_map(|t| t.statements.iter().map(|s| s.kind.clone())).collect();
    let class = |d: &str| StatementKind::ClassLiteral(Some(FieldType::parse(d).unwrap()));
    for wanted in
        [StatementKind::ClassLiteral(None), class("I"), class("[Ljava/lang/String;"), class("Lfix/Values$Visitor;")]
    {
        assert!(made.contains(&wanted), "no {wanted}");
    }
    let reflected =
        |f: &dyn Fn(&MemberRef) -> bool| made.iter().any(|k| matches!(k, StatementKind::Reflect(m) if f(m)));
    assert!(reflected(&|m| matches!(m, MemberRef::Method(m) if m.name == "hidden")), "no private method");
    assert!(reflected(&|m| matches!(m, MemberRef::Field(_))), "no field for a Member parameter");
    assert!(!reflected(&|m| matches!(m, MemberRef::Method(m) if m.name == "secret")), "a member a test cannot name");
    let class_as_type = tests.iter().any(|t| {
        t.statements.iter().any(|s| match &s.kind {
            StatementKind::StaticCall { method, args } if method.name == "type" => {
                matches!(t[args[0]].kind, StatementKind::ClassLiteral(_))
            }
            _ => false,
        })
    });
    assert!(class_as_type, "a java.lang.reflect.Type parameter never got a Class value");
    let bodies = |interface: &str| -> Vec<LambdaBody> {
        made.iter()
            .filter_map(|k| match k {
                StatementKind::Lambda { interface: i, body, .. } if i.as_str() == interface => Some(*body),
                _ => None,
            })
            .collect()
    };
    let function = bodies("java.util.function.Function");
    assert!(function.contains(&LambdaBody::Identity) && function.contains(&LambdaBody::Default));
    assert!(function.iter().any(|b| matches!(b, LambdaBody::Returns(_))));
    assert!(bodies("java.util.Comparator").contains(&LambdaBody::NaturalOrder));
    assert!(!bodies("java.util.function.Predicate").contains(&LambdaBody::Identity), "a boolean is no String");
    assert_eq!(bodies("java.lang.Runnable").iter().filter(|b| **b != LambdaBody::Default).count(), 0);
    assert!(!bodies("fix.Values$Visitor").is_empty());
}

#[test]
fn a_bounded_class_parameter_gets_only_classes_within_its_bound() {
    let Some((cluster, _)) = cluster("fix.Values") else { return };
    let need = model::signature::parse_field_signature("Ljava/lang/Class<+Ljava/lang/Number;>;").unwrap();
    let fits: Vec<String> = cluster
        .class_values_for(&need)
        .iter()
        .map(|c| c.as_ref().map_or("void".to_string(), |t| t.to_string()))
        .collect();
    assert_eq!(
        fits,
        [
            "byte",
            "short",
            "int",
            "long",
            "float",
            "double",
            "java.lang.Integer",
            "java.lang.Long",
            "java.lang.Double",
            "java.lang.Number",
            // The stand-ins of `Number` parameters (cluster/jdk.rs) are classes of the cluster too.
            "java.lang.Byte",
            "java.lang.Float",
            "java.lang.Short",
            "java.math.BigDecimal",
            "java.math.BigInteger"
        ]
    );
    let all = cluster.class_values_for(&model::signature::parse_field_signature("Ljava/lang/Class<*>;").unwrap());
    assert_eq!(all.len(), cluster.class_values().len());
    let text: Vec<String> = all.iter().map(|c| c.as_ref().map_or("void".to_string(), |t| t.to_string())).collect();
    for name in ["void", "boolean", "int[]", "java.lang.Object[][]", "fix.Values", "fix.Values.Kind", "fix.Values.Base"]
    {
        assert!(text.contains(&name.to_string()), "{name} in {text:?}");
    }
    assert!(!text.iter().any(|t| t.contains("Hidden")), "{text:?}");
    let function = cluster.functional("java.util.function.Function").expect("Function is functional");
    assert_eq!((function.ret_type_param, function.param_type_params.clone()), (Some(1), vec![Some(0)]));
}

/// The property test: random tests, their mutants and crossover children on
/// real classes all pass the validator and respect the length bound.
#[test]
fn random_tests_mutants_and_children_of_real_classes_always_validate() {
    let Some(class_path) = crate::testutil::commons_class_path() else { return };
    let validator = Validator::new(&class_path);
    let classes = [
        "org.apache.commons.lang3.StringUtils",
        "org.apache.commons.lang3.CharUtils",
        "org.apache.commons.lang3.math.Fraction",
        "org.apache.commons.collections4.list.SetUniqueList",
        "org.apache.commons.cli.Options",
    ];
    let options = ClusterOptions::default();
    let mut checked = 0;
    for (i, cut) in classes.iter().enumerate() {
        let cluster = TestCluster::build(&class_path, cut, &options).unwrap();
        let cut_class = class_path.load(cut).unwrap();
        let seeds = Seeds::from_class(&cut_class, crate::SeedOptions::default());
        let mut r = rng(i as u64);
        let mut previous = TestCase::default();
        for _ in 0..400 {
            let test = random_test(&cluster, &seeds, &mut r, options.max_length);
            assert_valid(&validator, &test, "random test");
            assert!(test.len() <= options.max_length);
            let mut mutant = test.clone();
            for _ in 0..3 {
                mutant = mutate(&mutant, &cluster, &seeds, &mut r);
                assert_valid(&validator, &mutant, "mutant");
                assert!(mutant.len() <= options.max_length, "{} statements", mutant.len());
            }
            let (a, b) = crossover(&previous, &mutant, &mut r);
            assert_valid(&validator, &a, "first child");
            assert_valid(&validator, &b, "second child");
            previous = mutant;
            checked += 1;
        }
    }
    assert_eq!(checked, 2000);
}

/// Mutation sometimes repeats a call on an existing object several times
/// with new primitive arguments (issue 11: states that need many calls).
#[test]
fn mutation_repeats_calls_on_an_existing_object() {
    let Some((cluster, class_path)) = cluster("fix.Counter") else { return };
    let validator = Validator::new(class_path);
    let seeds = Seeds::default();
    // The first random test with a method call, so that there is one to repeat.
    let start = (4..)
        .map(|seed| random_test(&cluster, &seeds, &mut rng(seed), 8))
        .find(|t| t.statements.iter().any(|s| matches!(s.kind, StatementKind::Call { .. })))
        .unwrap();
    let longest_run = |t: &TestCase| {
        let mut best = 0;
        let mut run: Option<(VarId, String, usize)> = None;
        for s in &t.statements {
            run = match (&s.kind, run) {
                (StatementKind::Call { receiver, method, .. }, Some((r, name, n)))
                    if *receiver == r && method.name == name =>
                {
                    Some((r, name, n + 1))
                }
                (StatementKind::Call { receiver, method, .. }, _) => Some((*receiver, method.name.clone(), 1)),
                (StatementKind::Primitive(_) | StatementKind::Boxed(_) | StatementKind::String(_), run) => run,
                _ => None,
            };
            best = best.max(run.as_ref().map_or(0, |r| r.2));
        }
        best
    };
    let mut r = rng(9);
    let mut repeated = 0;
    for _ in 0..300 {
        let mutant = mutate(&start, &cluster, &seeds, &mut r);
        assert_valid(&validator, &mutant, "mutant");
        repeated += usize::from(longest_run(&mutant) >= 3);
    }
    // Without the repetition 7 of 300 do (insertions that happen to pick the same call), with it 46.
    assert!(repeated >= 25, "{repeated} of 300 mutants repeat a call 3 times");
}

/// No test writes a field of the object a static field holds
/// (`Point.ORIGIN.x = 3`): later tests would see the changed object. Fields
/// of other objects are still written, and the static field still read.
#[test]
fn fields_of_objects_that_static_fields_hold_are_never_written() {
    let Some((cluster, class_path)) = cluster("fix.Point") else { return };
    let (mut writes, mut shared_reads) = (0, 0);
    for (_, test) in mutant_chains(&cluster, class_path, 40, 10, 30) {
        for s in &test.statements {
            match &s.kind {
                StatementKind::FieldSet { receiver: Some(r), .. } => {
                    assert!(!edit::is_static_field_value(&test, *r), "a shared object is written:\n{test}");
                    writes += 1;
                }
                StatementKind::FieldGet { receiver: None, field } if field.name == "ORIGIN" => shared_reads += 1,
                _ => {}
            }
        }
    }
    assert!(writes > 100 && shared_reads > 100, "{writes} field writes, {shared_reads} reads of Point.ORIGIN");
}

/// Arrays are now and then longer than the elements stored into them (a
/// buffer, or the four elements a loop needs), never with more than
/// `MAX_ELEMENTS` stores each.
#[test]
fn random_arrays_are_sometimes_long_with_few_elements_set() {
    let Some((cluster, class_path)) = cluster("fix.Counter") else { return };
    let validator = Validator::new(class_path);
    let mut lengths = Vec::new();
    for seed in 0..200 {
        let test = random_test(&cluster, &Seeds::default(), &mut rng(seed), 12);
        assert_valid(&validator, &test, "random test");
        for (var, s) in test.iter() {
            let StatementKind::NewArray { length, .. } = s.kind else { continue };
            let stores = test
                .statements
                .iter()
                .filter(|t| matches!(t.kind, StatementKind::ArrayStore { array, .. } if array == var))
                .count();
            assert!(stores <= crate::operators::factory::MAX_ELEMENTS as usize, "{test}");
            assert!(stores <= length as usize, "{test}");
            lengths.push(length);
        }
    }
    assert!(lengths.iter().any(|l| *l <= 3) && lengths.iter().any(|l| *l > 3), "{lengths:?}");
    assert!(lengths.iter().all(|l| *l <= 32), "{lengths:?}");
}

/// A mutation that gives a collection's `add` or a map's `put` a new
/// receiver keeps the receiver's type arguments: no mutant fills a raw
/// `ArrayList` or `HashMap`, which would take any element and need raw
/// types in the emitted test (a CI run wrote `ArrayList arrayList0 = new
/// ArrayList(); arrayList0.add((Object) hashMap0)` for `edge.Index`).
#[test]
fn a_new_receiver_of_a_fill_call_keeps_its_type_arguments() {
    let Some((cluster, class_path)) = cluster("fix.Bag") else { return };
    let mut fills = 0;
    for (seed, test) in mutant_chains(&cluster, class_path, 150, 20, 20) {
        for (var, s) in test.iter() {
            let StatementKind::Call { receiver, method, .. } = &s.kind else { continue };
            if cluster.is_fill(method) {
                fills += 1;
                let ty = test[*receiver].ty.to_string();
                assert!(ty.contains('<'), "{var} fills a raw {ty} in seed {seed}:\n{test}");
            }
        }
    }
    assert!(fills > 1000, "only {fills} fill calls");
}
