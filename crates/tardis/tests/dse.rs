//! Direct DSE on the needles of `testdata/tardis` (real class files from
//! javac): from all-zero inputs, concolic replay, k-NN selection and z3
//! reach each needle, and the JVM confirms the inputs found.

use std::path::Path;

use model::classfile::ClassFile;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tardis::classify::Strategy;
use tardis::dse::{Settings, explore};
use tardis::expr::{JType, Value};
use tardis::replay::Input;

mod common;

/// Compiles the fixture into `dir`; its class file.
fn needles(dir: &Path) -> ClassFile {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/tardis/src/needles/Needles.java");
    common::javac(dir, dir, &[&src]);
    ClassFile::parse(&std::fs::read(dir.join("needles/Needles.class")).unwrap()).unwrap()
}

fn java_literal(input: &Input) -> String {
    let one = |v: &Value| common::java_value(*v);
    match input {
        Input::Prim(v) => one(v),
        Input::Array(_, items) => format!("new int[] {{{}}}", items.iter().map(one).collect::<Vec<_>>().join(", ")),
    }
}

/// What the JVM returns for `Needles.<method>(inputs)`.
fn on_the_jvm(dir: &Path, method: &str, inputs: &[Input]) -> String {
    let args: Vec<String> = inputs.iter().map(java_literal).collect();
    let main = format!(
        "public class Check {{ public static void main(String[] a) {{ System.out.print(needles.Needles.{method}({})); }} }}",
        args.join(", ")
    );
    std::fs::write(dir.join("Check.java"), main).unwrap();
    common::javac(dir, dir, &[&dir.join("Check.java")]);
    common::java(dir, "Check")
}

fn start(method: &str) -> (&'static str, Vec<Input>) {
    match method {
        "exact" => ("(III)I", vec![Input::Prim(Value::Int(0)); 3]),
        "flag" => ("([I)I", vec![Input::Array(JType::Int, vec![Value::Int(0); 5])]),
        _ => ("(JD)I", vec![Input::Prim(Value::Long(0)), Input::Prim(Value::Double(0.0))]),
    }
}

#[test]
fn dse_reaches_every_needle_and_the_jvm_agrees() {
    let dir = tempfile::tempdir().unwrap();
    let cf = needles(dir.path());
    for method in ["exact", "flag", "mixed"] {
        let (descriptor, inputs) = start(method);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let settings = Settings { strategy: Strategy::Knn, max_solves: 40, timeout_ms: 2000 };
        let explored = explore(&cf, method, descriptor, inputs, settings, &mut rng);
        let needle = explored.runs.iter().find(|(_, r)| r.result == Some(Value::Int(1)));
        let Some((found, run)) = needle else {
            panic!("{method}: no run reached the needle: {:?}", explored.stats);
        };
        assert!(run.stopped.is_none(), "{method}: {:?}", run.stopped);
        assert_eq!(on_the_jvm(dir.path(), method, found), "1", "{method}({found:?}) on the JVM");
        println!("{method}: needle after {} runs, {:?}", explored.runs.len(), explored.stats);
    }
}
