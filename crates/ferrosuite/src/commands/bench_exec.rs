//! `ferrosuite bench exec`: test executions per second per worker, and the
//! worker start-up time, for (a) a 5-statement test on the bundled
//! `example.BoundedStack`, (b) four calls of `edge.Turnstile` (static state,
//! `testdata/generate-edge`) and (c) a 5-statement test calling
//! `org.apache.commons.lang3.StringUtils` from the Debian jar; each once
//! without the static reset (`..._without_static_reset`) and once with it,
//! as `generate` runs them.

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

/// Runs the benchmark with `executions` measured executions per case, each
/// case once instrumented without and once with the static reset
/// ([`instrument::static_reset`]), so the two rates show its per-test cost.
///
/// # Errors
/// JDK, class-path, instrumentation or worker errors.
pub fn bench_exec(executions: usize) -> anyhow::Result<ExitCode> {
    let jdk = Jdk::find()?;
    let tmp = tempfile::tempdir()?;
    let example = compile_example(&jdk, tmp.path())?;
    let cases = [
        ("small_fixture", example.clone(), "example.BoundedStack", stack_test()),
        ("static_state_fixture", example, "edge.Turnstile", turnstile_test()),
        (
            "commons_lang3_StringUtils",
            COMMONS_LANG3.into(),
            "org.apache.commons.lang3.StringUtils",
            string_utils_test(),
        ),
    ];
    for (name, entry, class, test) in cases {
        let mut runs = Vec::new();
        for reset in [false, true] {
            let label = if reset { name.to_string() } else { format!("{name}_without_static_reset") };
            let class_path = instrumented_cp(tmp.path(), &entry, class, &label, reset)?;
            runs.push(Run::start(&jdk, label, class_path, &test)?);
        }
        measure(&mut runs, executions)?;
    }
    Ok(ExitCode::Success)
}

/// One worker of the benchmark and what was measured on it.
struct Run {
    name: String,
    pool: Pool,
    batch: Vec<TestCase>,
    done: usize,
    wall: std::time::Duration,
    in_worker: std::time::Duration,
}

impl Run {
    /// Starts one worker on `class_path`, prints its start-up time, checks
    /// that `test` completes and warms the worker up.
    fn start(jdk: &Jdk, name: String, class_path: String, test: &TestCase) -> anyhow::Result<Run> {
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
        let batch = vec![test.clone(); BATCH];
        let check = pool.execute(&batch[..1])?;
        anyhow::ensure!(
            check[0].outcome == TestOutcome::Completed,
            "{name}: the benchmark test failed: {:?}",
            check[0]
        );
        for _ in 0..3 {
            pool.execute(&batch)?; // warm-up: JIT compilation of the class under test and the runtime
        }
        let zero = std::time::Duration::ZERO;
        Ok(Run { name, pool, batch, done: 0, wall: zero, in_worker: zero })
    }

    /// Executes one batch and adds up its wall time and time in the worker.
    fn batch(&mut self) -> anyhow::Result<()> {
        let start = Instant::now();
        let results = self.pool.execute(&self.batch)?;
        self.wall += start.elapsed();
        self.done += results.len();
        self.in_worker += results.iter().map(|r| r.duration).sum::<std::time::Duration>();
        Ok(())
    }
}

/// Executes `executions` tests on each of `runs`, one batch on each in
/// turn (so that a change of the machine's load hits them alike), and
/// prints each one's executions per second and microseconds per execution
/// inside the worker.
fn measure(runs: &mut [Run], executions: usize) -> anyhow::Result<()> {
    while runs.iter().any(|r| r.done < executions) {
        for run in runs.iter_mut() {
            run.batch()?;
        }
    }
    for r in runs.iter() {
        println!("executions_per_second {} {:.0}", r.name, r.done as f64 / r.wall.as_secs_f64());
        println!("worker_micros_per_execution {} {:.1}", r.name, r.in_worker.as_secs_f64() * 1e6 / r.done as f64);
    }
    Ok(())
}

/// Compiles the bundled sources of the small fixtures into `dir/example-classes`.
fn compile_example(jdk: &Jdk, dir: &Path) -> anyhow::Result<std::path::PathBuf> {
    let classes = dir.join("example-classes");
    std::fs::create_dir_all(&classes)?;
    let sources = [
        ("example/BoundedStack.java", include_str!("../../../../examples/src/example/BoundedStack.java")),
        ("edge/Turnstile.java", include_str!("../../../../testdata/generate-edge/src/edge/Turnstile.java")),
    ];
    for (path, text) in sources {
        let src = dir.join("src").join(path);
        std::fs::create_dir_all(src.parent().expect("parent"))?;
        std::fs::write(&src, text)?;
        javarun::javac(jdk, &src, "", &classes)?;
    }
    Ok(classes)
}

/// Instruments `class` from `entry` into `dir/name`, with the static reset
/// of its package when `reset`, and returns the worker class path
/// (instrumented classes first).
fn instrumented_cp(dir: &Path, entry: &Path, class: &str, name: &str, reset: bool) -> anyhow::Result<String> {
    let cp = ClassPath::new(&[entry.to_path_buf()])?;
    let out = dir.join(name);
    cp.load(class)?; // not found or unreadable: an error, not a failed class of the batch
    let mut instrumenter = instrument::Instrumenter::default();
    if reset {
        instrumenter = instrumenter.with_static_reset(instrument::static_reset::ResetScope::package_of(class));
    }
    let class = model::names::BinaryName::new(class);
    let names: Vec<_> = std::iter::once(class.clone()).chain(cp.nested_class_names(&class)).collect();
    instrument::batch::instrument_to_dir_with(instrumenter, &cp, &names, &out, false)
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

/// `v0 = "a"; Turnstile.pass(v0); Turnstile.logSize(); Turnstile.holderUses(); Turnstile.state()`:
/// static state the reset restores (two classes, a list).
fn turnstile_test() -> TestCase {
    let t = "edge.Turnstile";
    let mut b = TestCaseBuilder::new();
    let who = b.string("a");
    b.static_call(method(t, "pass", "(Ljava/lang/String;)I"), &[who]);
    b.static_call(method(t, "logSize", "()I"), &[]);
    b.static_call(method(t, "holderUses", "()I"), &[]);
    b.static_call(method(t, "state", "()Ljava/lang/String;"), &[]);
    b.build()
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
