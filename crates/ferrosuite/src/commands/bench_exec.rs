//! `ferrosuite bench exec`: test executions per second per worker, and the
//! worker start-up time, for (a) a 5-statement test on the bundled
//! `example.BoundedStack` and (b) a 5-statement test calling
//! `org.apache.commons.lang3.StringUtils` from the Debian jar.

use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use exec::{ExecConfig, Executor, TestOutcome};
use jvm::pool::{Pool, WorkerConfig};
use model::classpath::ClassPath;
use testcase::{MethodRef, TestCase, TestCaseBuilder};

use crate::exit_code::ExitCode;
use javarun::Jdk;

const COMMONS_LANG3: &str = "/usr/share/java/commons-lang3.jar";
/// Tests per `execute` call.
const BATCH: usize = 1000;

/// Runs the benchmark with `executions` measured executions per case.
///
/// # Errors
/// JDK, class-path, instrumentation or worker errors.
pub fn bench_exec(executions: usize) -> anyhow::Result<ExitCode> {
    let jdk = Jdk::find()?;
    let tmp = tempfile::tempdir()?;
    let example = compile_example(&jdk, tmp.path())?;
    let cases = [
        ("small_fixture", instrumented_cp(tmp.path(), &example, "example.BoundedStack", "a")?, stack_test()),
        (
            "commons_lang3_StringUtils",
            instrumented_cp(tmp.path(), COMMONS_LANG3, "org.apache.commons.lang3.StringUtils", "b")?,
            string_utils_test(),
        ),
    ];
    for (name, class_path, test) in cases {
        let cfg = WorkerConfig {
            exe: std::env::current_exe()?,
            java_home: jdk.home.clone(),
            class_path,
            heap_mb: 1024,
            environment: Default::default(),
        };
        let started = Instant::now();
        let mut pool = Pool::new(cfg, ExecConfig::default(), 1)?;
        println!("worker_startup_ms {name} {:.0}", started.elapsed().as_secs_f64() * 1000.0);
        let batch = vec![test; BATCH];
        let check = pool.execute(&batch[..1])?;
        anyhow::ensure!(
            check[0].outcome == TestOutcome::Completed,
            "{name}: the benchmark test failed: {:?}",
            check[0]
        );
        for _ in 0..3 {
            pool.execute(&batch)?; // warm-up: JIT compilation of the class under test and the runtime
        }
        let start = Instant::now();
        let (mut done, mut in_worker) = (0, std::time::Duration::ZERO);
        while done < executions {
            let results = pool.execute(&batch)?;
            done += results.len();
            in_worker += results.iter().map(|r| r.duration).sum::<std::time::Duration>();
        }
        println!("executions_per_second {name} {:.0}", done as f64 / start.elapsed().as_secs_f64());
        println!("worker_micros_per_execution {name} {:.1}", in_worker.as_secs_f64() * 1e6 / done as f64);
    }
    Ok(ExitCode::Success)
}

fn compile_example(jdk: &Jdk, dir: &Path) -> anyhow::Result<std::path::PathBuf> {
    let src = dir.join("src/example/BoundedStack.java");
    std::fs::create_dir_all(src.parent().expect("parent"))?;
    std::fs::write(&src, include_str!("../../../../examples/src/example/BoundedStack.java"))?;
    let classes = dir.join("example-classes");
    std::fs::create_dir_all(&classes)?;
    javarun::javac(jdk, &src, "", &classes)?;
    Ok(classes)
}

/// Instruments `class` from `entry` into `dir/name` and returns the worker
/// class path (instrumented classes first).
fn instrumented_cp(dir: &Path, entry: impl AsRef<Path>, class: &str, name: &str) -> anyhow::Result<String> {
    let entry = entry.as_ref();
    let cp = ClassPath::new(&[entry.to_path_buf()])?;
    let out = dir.join(name);
    cp.load(class)?; // not found or unreadable: an error, not a failed class of the batch
    instrument::batch::instrument_to_dir(&cp, &[model::names::BinaryName::new(class)], &out, false)
        .with_context(|| format!("instrumenting {class}"))?;
    Ok(format!("{}:{}", out.display(), entry.display()))
}

fn method(owner: &str, name: &str, desc: &str) -> MethodRef {
    MethodRef::parse(owner, name, desc).expect("valid descriptor")
}

/// `v0 = 10; v1 = new BoundedStack(v0); v2 = 3; v1.push(v2); v4 = v1.pop()`.
fn stack_test() -> TestCase {
    let mut t = TestCaseBuilder::new();
    let cap = t.int(10);
    let stack = t.construct(method("example.BoundedStack", "<init>", "(I)V"), &[cap]);
    let three = t.int(3);
    t.call(stack, method("example.BoundedStack", "push", "(I)V"), &[three]);
    t.call(stack, method("example.BoundedStack", "pop", "()I"), &[]);
    t.build()
}

/// Four `StringUtils` calls on one string.
fn string_utils_test() -> TestCase {
    let su = "org.apache.commons.lang3.StringUtils";
    let mut t = TestCaseBuilder::new();
    let s = t.string("  hello, world  ");
    let trimmed = t.static_call(method(su, "trim", "(Ljava/lang/String;)Ljava/lang/String;"), &[s]);
    t.static_call(method(su, "isBlank", "(Ljava/lang/CharSequence;)Z"), &[trimmed]);
    let cap = t.static_call(method(su, "capitalize", "(Ljava/lang/String;)Ljava/lang/String;"), &[trimmed]);
    t.static_call(method(su, "reverse", "(Ljava/lang/String;)Ljava/lang/String;"), &[cap]);
    t.build()
}
