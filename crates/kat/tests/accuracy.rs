//! Extraction accuracy on the hand-labelled sample (issue 5: trigger type
//! at least 90%, formal condition at least 80%).
//!
//! `tests/data/labelled_sample.jsonl` holds 130 clauses drawn at random
//! (`ferrosuite kat sample --count 130 --seed 2026`) and labelled blind by
//! the guide in `tests/data/LABELLING.md`. Each expected trigger is compared
//! with the extracted trigger at the same position of the same clause in
//! the shipped graph; a clause that is missing or split into a different
//! number of triggers counts its unmatched triggers as wrong.

use kat::graph::{Clause, KnowledgeGraph, TriggerKind};
use kat::{Cond, sample::origin_text};
use serde::Deserialize;

#[derive(Deserialize)]
struct Labelled {
    class: String,
    method: String,
    descriptor: String,
    origin: String,
    sentence: String,
    triggers: Vec<Expected>,
}

#[derive(Deserialize)]
struct Expected {
    kind: String,
    condition: String,
}

/// The development sample (used while writing the extractor).
const DEV: &str = include_str!("data/labelled_sample.jsonl");

/// The held-out sample (drawn with another seed, labelled blind after the
/// extractor was written; 75.9% / 75.9% when first measured, then two
/// general rules were added after looking at its misses, so it is no
/// longer strictly held out).
const HOLDOUT: &str = include_str!("data/holdout_labelled.jsonl");

/// A third sample (seed 11, 80 clauses), labelled blind after the
/// extractor was finished: 79.6% type / 78.7% condition when first
/// measured; six general rules came out of its misses (a boolean query's
/// `@return` is the query, "between X and Y", "outside the range from X to
/// Y", bare constants of the documented class, functional parameters,
/// string literals), after which 84.3% / 87.0%.
const FRESH: &str = include_str!("data/fresh_labelled.jsonl");

/// The blind sample (issue 20): 120 clauses drawn with `ferrosuite kat
/// sample --count 200 --seed 2027` leaving out the clauses of the earlier
/// samples (the first 120 kept), labelled whole (`text`: all sentences of
/// the clause) by someone who never saw the extractor's code or output,
/// committed before the first measurement (fd4c12f) and never edited.
/// First measurement (e9ace9f): type 79.2%, condition 75.6%, formal
/// conditions 55.7% (`bench/runs/2026-11-25e-rust/kat-blind-first-measurement.txt`);
/// then four general rules came out of its misses ("either array",
/// "backed by an array", "contained", quoted string literals).
const BLIND: &str = include_str!("data/blind_labelled.jsonl");

/// The second blind sample (issue 20): 120 clauses drawn with `ferrosuite
/// kat sample --count 400 --seed 2028` leaving out the clauses of all
/// earlier samples (the first 120 kept), labelled whole by another helper
/// who never saw the extractor, committed (a3b44f6) before the first
/// measurement and never edited. First measurement (6bc9c7f): type 81.9%,
/// condition 75.9%, formal conditions 61.0%
/// (`bench/runs/2026-11-25e-rust/kat-blind2-first-measurement.txt`); then
/// general rules from its misses (code point validity, a verb-less
/// comparative, "not bound" is no range, "no entry for", a number
/// parameter of `remaining()`, a return value must start with a value).
/// The general rules of the branch kat-work (conjunction scope, natural
/// ordering, own-type comparisons, index-parameter bounds, known ranges,
/// getters, later sentences, ...) then gave the numbers that
/// [`no_sample_drops_below_its_issue_20_level`] guards.
const BLIND2: &str = include_str!("data/blind2_labelled.jsonl");

/// The third blind sample (issue 20): 120 clauses drawn with `ferrosuite
/// kat sample --count 800 --seed 2030` leaving out the clauses of all
/// earlier samples (the first 120 kept), labelled whole by a helper who
/// never saw the extractor's code or output, committed before its first
/// measurement and never edited. First measurement (after the fixes of
/// the `kat-work` branch): type 93.8%, condition 87.0%, formal conditions
/// 77.4% (65 of 84) (`bench/runs/2026-11-28-rust/kat-blind3-first-measurement.txt`).
/// The helper who made those fixes had looked at the extractor's output on
/// five other random draws, which hold at most 29 of these clauses; on the
/// 91 clauses outside them: type 92.4%, condition 85.7%, formal about 77%.
/// Then general rules from the misses of all samples but the fourth blind
/// one (ranges a parameter's `@param` text states, a one-word state of the
/// receiver, a thing looked up by a key, membership, identity, duplicate
/// numbered parameters, abbreviated parameter names, "these two values")
/// gave 96.3% / 94.4% / 91.7%.
const BLIND3: &str = include_str!("data/blind3_labelled.jsonl");

/// The fourth blind sample (issue 20): the first 120 clauses of
/// `ferrosuite kat sample --count 1500 --seed 2031` in no earlier sample
/// and in none of the five draws the extractor's developer had looked at
/// (`data/LABELLING.md`), labelled whole by a helper who never saw the
/// extractor's code or output, committed (c4f74fb) before its first
/// measurement and never edited.
const BLIND4: &str = include_str!("data/blind4_labelled.jsonl");

/// The fifth blind sample (issue 20): the first 120 clauses of `ferrosuite
/// kat sample --count 2500 --seed 2032` in no earlier sample or draw
/// (`data/LABELLING.md`), labelled whole by a helper who never saw the
/// extractor's code or output, committed (62df9cc) before its first
/// measurement and never edited.
const BLIND5: &str = include_str!("data/blind5_labelled.jsonl");

fn labelled() -> Vec<Labelled> {
    parse(DEV)
}

fn parse(text: &str) -> Vec<Labelled> {
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).expect("a labelled line")).collect()
}

fn find<'g>(g: &'g KnowledgeGraph, l: &Labelled) -> Option<&'g Clause> {
    let class = g.class(&l.class)?;
    let m = class.methods.iter().find(|m| m.name == l.method && m.descriptor == l.descriptor)?;
    // Sentences are compared by their letters and digits only, so that a
    // change of punctuation in the normalisation does not lose a clause.
    let letters = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).collect::<String>();
    let same_origin = || m.clauses.iter().filter(|c| origin_text(&c.origin) == l.origin);
    // A clause's text may go on after its first sentence (a later sentence
    // that adds a case), so the labelled first sentence is a prefix of it.
    same_origin().find(|c| letters(&c.sentence).starts_with(&letters(&l.sentence))).or_else(|| {
        let mut candidates = same_origin();
        let first = candidates.next();
        // A single clause of that origin is the labelled one.
        if candidates.next().is_none() { first } else { None }
    })
}

/// One scored trigger.
struct Scored {
    kind: TriggerKind,
    /// The type extracted at its position (`None`: no trigger there).
    got: Option<TriggerKind>,
    kind_ok: bool,
    cond_ok: bool,
    /// The label has a formal part (is not only `?`).
    formal: bool,
}

/// Per trigger: its score, and a line describing each miss.
fn score(g: &KnowledgeGraph, sample: &[Labelled]) -> (Vec<Scored>, Vec<String>) {
    let mut results = Vec::new();
    let mut misses = Vec::new();
    for (n, l) in sample.iter().enumerate() {
        let clause = find(g, l);
        for (i, e) in l.triggers.iter().enumerate() {
            let kind = TriggerKind::from_code(&e.kind).expect("a kind T1..T4");
            let expected = Cond::parse(&e.condition).unwrap_or_else(|err| panic!("line {}: {err}", n + 1));
            let got = clause.and_then(|c| c.triggers.get(i));
            let kind_ok = got.is_some_and(|t| t.kind == kind);
            let cond_ok = got.is_some_and(|t| t.condition.canonical() == expected.canonical());
            if !kind_ok || !cond_ok {
                let got = got.map_or("(none)".to_string(), |t| format!("{} {}", t.kind.code(), t.condition));
                misses.push(format!(
                    "line {:>3} #{i}: expected {} {} got {got}   [{}]",
                    n + 1,
                    e.kind,
                    e.condition,
                    l.sentence
                ));
            }
            results.push(Scored { kind, got: got.map(|t| t.kind), kind_ok, cond_ok, formal: !expected.is_unknown() });
        }
    }
    (results, misses)
}

/// Prints misses and per-type counts; returns (triggers, type accuracy,
/// condition accuracy).
fn report(name: &str, sample: &[Labelled]) -> (usize, f64, f64) {
    let g = KnowledgeGraph::jdk17();
    let (results, misses) = score(&g, sample);
    let n = results.len();
    println!("== {name}");
    let kinds = results.iter().filter(|r| r.kind_ok).count();
    let conds = results.iter().filter(|r| r.cond_ok).count();
    for m in &misses {
        println!("{m}");
    }
    for k in [TriggerKind::Nullness, TriggerKind::Range, TriggerKind::CallDependency, TriggerKind::Other] {
        let of: Vec<_> = results.iter().filter(|r| r.kind == k).collect();
        let right = of.iter().filter(|r| r.kind_ok).count();
        let cond = of.iter().filter(|r| r.cond_ok).count();
        println!("{}: {} triggers, type right {right}, condition right {cond}", k.code(), of.len());
    }
    print_confusion(&results);
    let type_acc = kinds as f64 / n as f64;
    let cond_acc = conds as f64 / n as f64;
    println!("{n} triggers: type accuracy {:.1}%, condition accuracy {:.1}%", type_acc * 100.0, cond_acc * 100.0);
    let formal: Vec<_> = results.iter().filter(|r| r.formal).collect();
    let formal_ok = formal.iter().filter(|r| r.cond_ok).count();
    println!(
        "  labels with a formal condition (not only `?`): {} of {n}, condition right {formal_ok} ({:.1}%)",
        formal.len(),
        100.0 * formal_ok as f64 / formal.len().max(1) as f64
    );
    (n, type_acc, cond_acc)
}

/// The confusion table of trigger types: labelled type (rows) against
/// extracted type (columns; `none` when the clause has no trigger at that
/// position).
fn print_confusion(results: &[Scored]) {
    let kinds = [TriggerKind::Nullness, TriggerKind::Range, TriggerKind::CallDependency, TriggerKind::Other];
    println!("| labelled \\ extracted | T1 | T2 | T3 | T4 | none |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    for k in kinds {
        let row: Vec<String> = kinds
            .iter()
            .map(|g| Some(*g))
            .chain([None])
            .map(|g| results.iter().filter(|r| r.kind == k && r.got == g).count().to_string())
            .collect();
        println!("| {} | {} |", k.code(), row.join(" | "));
    }
}

#[test]
fn extraction_accuracy_meets_the_targets_on_the_labelled_sample() {
    let (n, type_acc, cond_acc) = report("development sample", &labelled());
    assert!(n >= 150, "the sample must hold at least 150 triggers, has {n}");
    assert!(type_acc >= 0.90, "type accuracy {type_acc:.3} < 0.90");
    assert!(cond_acc >= 0.80, "condition accuracy {cond_acc:.3} < 0.80");
}

/// Both samples together (285 triggers) meet the same targets; the
/// held-out sample alone is printed (75.9% / 75.9% when first measured,
/// before its misses led to the "any key or value" and "there are"
/// rules).
#[test]
fn extraction_accuracy_on_both_samples_together() {
    let (n, type_acc, cond_acc) = report("held-out sample", &parse(HOLDOUT));
    assert!(n >= 100, "{n}");
    println!("held-out: type {:.1}%, condition {:.1}%", type_acc * 100.0, cond_acc * 100.0);
    let all: Vec<Labelled> = labelled().into_iter().chain(parse(HOLDOUT)).collect();
    let (n, type_acc, cond_acc) = report("both samples", &all);
    assert!(n >= 250, "{n}");
    assert!(type_acc >= 0.90, "type accuracy {type_acc:.3} < 0.90");
    assert!(cond_acc >= 0.80, "condition accuracy {cond_acc:.3} < 0.80");
}

#[test]
fn every_labelled_clause_is_in_the_graph() {
    let g = KnowledgeGraph::jdk17();
    let missing: Vec<String> = labelled()
        .into_iter()
        .chain(parse(HOLDOUT))
        .filter(|l| find(&g, l).is_none())
        .map(|l| format!("{} {} {}", l.class, l.method, l.sentence))
        .collect();
    assert!(missing.is_empty(), "clauses not found: {missing:#?}");
}

/// The fresh sample alone and all three samples together (393 triggers):
/// printed, with floors that guard against regressions (the fresh sample
/// is the least tuned on, so it shows what to expect on unseen clauses).
#[test]
fn extraction_accuracy_on_the_fresh_sample_and_all_samples() {
    let (n, type_acc, cond_acc) = report("fresh sample", &parse(FRESH));
    assert!(n >= 100, "{n}");
    println!("fresh: type {:.1}%, condition {:.1}%", type_acc * 100.0, cond_acc * 100.0);
    let all: Vec<Labelled> = labelled().into_iter().chain(parse(HOLDOUT)).chain(parse(FRESH)).collect();
    let (n, type_acc, cond_acc) = report("all three samples", &all);
    assert!(n >= 390, "{n}");
    assert!(type_acc >= 0.88, "type accuracy {type_acc:.3} fell below 0.88 on all samples");
    assert!(cond_acc >= 0.85, "condition accuracy {cond_acc:.3} fell below 0.85 on all samples");
}

/// Every label of the five blind samples is a condition of the language
/// (checked apart from the scoring, so that a label the parser cannot read
/// is seen without measuring the extractor).
#[test]
fn every_blind_label_parses() {
    for sample in [BLIND, BLIND2, BLIND3, BLIND4, BLIND5] {
        let errors: Vec<String> = parse(sample)
            .iter()
            .flat_map(|l| l.triggers.iter())
            .filter_map(|t| Cond::parse(&t.condition).err().map(|e| format!("{}: {e}", t.condition)))
            .collect();
        assert!(errors.is_empty(), "{errors:#?}");
        assert_eq!(parse(sample).len(), 120);
    }
}

/// The blind sample's accuracy, printed with its misses, per-type counts
/// and confusion table, with floors that guard against regressions; and
/// all four samples together.
#[test]
fn extraction_accuracy_on_the_blind_sample() {
    let (n, type_acc, cond_acc) = report("blind sample", &parse(BLIND));
    println!("blind: {n} triggers, type {:.1}%, condition {:.1}%", type_acc * 100.0, cond_acc * 100.0);
    assert!(n >= 160, "{n}");
    assert!(type_acc >= 0.80, "type accuracy {type_acc:.3} fell below 0.80 on the blind sample");
    assert!(cond_acc >= 0.77, "condition accuracy {cond_acc:.3} fell below 0.77 on the blind sample");
    let all: Vec<Labelled> =
        labelled().into_iter().chain(parse(HOLDOUT)).chain(parse(FRESH)).chain(parse(BLIND)).collect();
    let (n, type_acc, cond_acc) = report("all four samples", &all);
    println!("all four: {n} triggers, type {:.1}%, condition {:.1}%", type_acc * 100.0, cond_acc * 100.0);
}

/// The second blind sample's accuracy, printed with its misses, per-type
/// counts and confusion table.
#[test]
fn extraction_accuracy_on_the_second_blind_sample() {
    let (n, type_acc, cond_acc) = report("second blind sample", &parse(BLIND2));
    println!("blind2: {n} triggers, type {:.1}%, condition {:.1}%", type_acc * 100.0, cond_acc * 100.0);
    assert!(n >= 160, "{n}");
    assert!(type_acc >= 0.82, "type accuracy {type_acc:.3} fell below 0.82 on the second blind sample");
    assert!(cond_acc >= 0.77, "condition accuracy {cond_acc:.3} fell below 0.77 on the second blind sample");
}

/// The third blind sample's first measurement (issue 20), printed with its
/// misses, per-type counts and the confusion table.
#[test]
fn extraction_accuracy_on_the_third_blind_sample() {
    let (n, type_acc, cond_acc) = report("third blind sample", &parse(BLIND3));
    println!("blind3: {n} triggers, type {:.1}%, condition {:.1}%", type_acc * 100.0, cond_acc * 100.0);
    assert_eq!(parse(BLIND3).len(), 120);
    assert!(type_acc >= 0.96, "type accuracy {type_acc:.3} fell below 0.96 on the third blind sample");
    assert!(cond_acc >= 0.93, "condition accuracy {cond_acc:.3} fell below 0.93 on the third blind sample");
}

/// Type, condition and formal-condition accuracy of a sample, without
/// printing.
fn accuracies(sample: &[Labelled]) -> (f64, f64, f64) {
    let g = KnowledgeGraph::jdk17();
    let (results, _) = score(&g, sample);
    let share = |of: &[&Scored], ok: fn(&Scored) -> bool| of.iter().filter(|r| ok(r)).count() as f64 / of.len() as f64;
    let all: Vec<&Scored> = results.iter().collect();
    let formal: Vec<&Scored> = results.iter().filter(|r| r.formal).collect();
    (share(&all, |r| r.kind_ok), share(&all, |r| r.cond_ok), share(&formal, |r| r.cond_ok))
}

/// No sample drops below what it scored after the issue 20 rules (type,
/// condition, formal condition; measured on branch kat-work after the
/// rules that followed the fourth blind sample: development 96.5 / 94.8 /
/// 92.0, held-out 100.0 / 99.1 / 100.0, fresh 95.4 / 93.5 / 97.9, blind
/// 94.0 / 94.0 / 89.8, second blind 92.8 / 91.6 / 87.0, third blind 96.9 /
/// 94.4 / 91.7, fourth blind 94.2 / 93.7 / 89.7; before them 96.5 / 95.4 /
/// 92.0, 100.0 / 99.1 / 100.0, 95.4 / 98.1 / 97.9, 94.0 / 94.0 / 89.8,
/// 92.8 / 91.0 / 85.7, 96.3 / 94.4 / 91.7, 90.5 / 84.7 / 74.2; before the
/// rules that followed the third blind sample 96.0 / 94.8 / 89.7, 99.1 /
/// 97.3 / 96.6, 95.4 / 95.4 / 91.7, 94.0 / 93.5 / 88.6, 92.8 / 90.4 /
/// 84.4, 93.8 / 87.0 / 77.4; before the issue 20 rules 93.1 / 91.3 /
/// 83.9, 97.3 / 92.9 / 87.9, 88.0 / 88.0 / 83.3, 85.1 / 79.8 / 63.6, 83.7
/// / 78.9 / 70.1). The floors sit one trigger or so below, so that a
/// change that costs a sample shows.
///
/// The development and fresh samples lost condition accuracy (one and five
/// triggers) where their labellers and those of the later blind samples
/// disagree: "if the value of any field is out of range" is `?` (or `month
/// < ? || month > ?`) there but the ranges the `@param` texts state in the
/// second and fourth blind samples, and "If the named charset is not
/// supported" is `?` in the fresh sample but `!Charset.isSupported(csn)`
/// in the fourth blind one. The extractor follows the later labels (the
/// condition the documentation states), and those floors were lowered.
#[test]
fn no_sample_drops_below_its_issue_20_level() {
    let floors: [(&str, &str, f64, f64, f64); 7] = [
        ("development", DEV, 0.96, 0.94, 0.91),
        ("held-out", HOLDOUT, 0.99, 0.98, 0.98),
        ("fresh", FRESH, 0.94, 0.93, 0.97),
        ("blind", BLIND, 0.93, 0.93, 0.88),
        ("second blind", BLIND2, 0.92, 0.91, 0.86),
        ("third blind", BLIND3, 0.96, 0.93, 0.90),
        ("fourth blind", BLIND4, 0.93, 0.93, 0.88),
    ];
    for (name, text, type_floor, cond_floor, formal_floor) in floors {
        let (t, c, f) = accuracies(&parse(text));
        println!("{name}: type {:.1}%, condition {:.1}%, formal {:.1}%", t * 100.0, c * 100.0, f * 100.0);
        assert!(t >= type_floor, "{name}: type accuracy {t:.3} < {type_floor}");
        assert!(c >= cond_floor, "{name}: condition accuracy {c:.3} < {cond_floor}");
        assert!(f >= formal_floor, "{name}: formal-condition accuracy {f:.3} < {formal_floor}");
    }
}

/// The fourth blind sample's first measurement (issue 20), printed with
/// its misses, per-type counts and the confusion table: type 90.5%,
/// condition 84.7%, formal conditions 74.2% (72 of 97)
/// (`bench/runs/2026-11-28b-rust/kat-blind4-first-measurement.txt`). Then
/// general rules from its misses and the earlier samples' (documented
/// ranges of fields out of range, "any one of the arguments", static
/// queries of the class a noun names, boolean getters' `@return`, states
/// said with "was"/"has", a sign a type answers itself, items of a named
/// container, "insufficient") gave 94.2% / 93.7% / 89.7% (87 of 97). The
/// floors sit about one trigger below.
#[test]
fn extraction_accuracy_on_the_fourth_blind_sample() {
    first_measurement_above("fourth blind sample", "blind4", BLIND4, (0.93, 0.93, 0.88));
}

/// The fifth blind sample's first measurement (issue 20), printed with its
/// misses, per-type counts and the confusion table: type 91.1%, condition
/// 90.5%, formal conditions 84.3% (70 of 83)
/// (`bench/runs/2026-11-28b-rust/kat-blind5-first-measurement.txt`), above
/// issue 20's 90 / 85 / 80. The floors sit about one trigger below.
#[test]
fn extraction_accuracy_on_the_fifth_blind_sample() {
    first_measurement_above("fifth blind sample", "blind5", BLIND5, (0.90, 0.89, 0.83));
}

/// Reports a blind sample of 120 clauses (`name` in the report, `label` in
/// the summary line) and asserts its type, condition and formal-condition
/// accuracy stay at or above `floors`.
fn first_measurement_above(name: &str, label: &str, text: &str, floors: (f64, f64, f64)) {
    let sample = parse(text);
    assert_eq!(sample.len(), 120);
    let (n, type_acc, cond_acc) = report(name, &sample);
    let (_, _, formal_acc) = accuracies(&sample);
    println!(
        "{label}: {n} triggers, type {:.1}%, condition {:.1}%, formal {:.1}%",
        type_acc * 100.0,
        cond_acc * 100.0,
        formal_acc * 100.0
    );
    let (type_floor, cond_floor, formal_floor) = floors;
    assert!(type_acc >= type_floor, "type accuracy {type_acc:.3} fell below {type_floor} on the {name}");
    assert!(cond_acc >= cond_floor, "condition accuracy {cond_acc:.3} fell below {cond_floor} on the {name}");
    assert!(formal_acc >= formal_floor, "formal accuracy {formal_acc:.3} fell below {formal_floor} on the {name}");
}
