//! `generate` on hostile classes of our own (`testdata/rogue`): they sleep
//! and wait forever, write and delete files in a folder this test watches
//! and under relative paths, listen on and connect to ports, spawn
//! processes, depend on the clock, random numbers and identity hashes,
//! loop in `toString`, throw in `equals`, hoard memory, count in statics,
//! exit in a static initialiser and start busy threads.
//!
//! For the whole run: every class ends within 1.25 x its budget (plus the
//! JVM start-ups this test cannot charge to a class), nothing outside the
//! sandbox is touched, no process outlives the run, no connection reaches
//! the test's server, and the emitted suites pass 10 of 10 runs in random
//! order, run outside any sandbox.

mod util;

use std::io::Read;
use std::net::TcpListener;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rand::SeedableRng;
use rand::seq::SliceRandom;

/// Seconds of budget per class.
const BUDGET_SECS: f64 = 8.0;
/// Random orders each emitted suite runs in.
const ORDERS: usize = 10;

/// The rogue sources with the watched folder, the ports and the process
/// marker filled in, compiled into a jar in `dir`.
fn rogue_jar(dir: &Path, watched: &Path, listen_port: u16, server_port: u16, marker: &str) -> std::path::PathBuf {
    let src_dir = util::repo().join("testdata/rogue/src/rogue");
    let mut sources = Vec::new();
    for entry in std::fs::read_dir(&src_dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("@WATCHED@", watched.to_str().unwrap())
            .replace("@LISTEN_PORT@", &listen_port.to_string())
            .replace("@SERVER_PORT@", &server_port.to_string())
            .replace("@MARKER@", marker);
        sources.push((format!("rogue/{}", path.file_name().unwrap().to_str().unwrap()), text));
    }
    let refs: Vec<(&str, &str)> = sources.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let classes = util::compile(dir, &refs, &[]);
    let jar = dir.join("rogue.jar");
    util::jar_dir(&classes, &jar);
    jar
}

/// A server on loopback counting the connections it accepts.
fn counting_server() -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            seen.fetch_add(1, Ordering::SeqCst);
            let _ = stream.read(&mut [0; 16]);
        }
    });
    (port, count)
}

/// A loopback port nobody listens on (bound and released).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Command lines of live processes that mention `needle`.
fn processes_mentioning(needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else { continue };
        let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if text.contains(needle) && entry.file_name() != std::process::id().to_string().as_str() {
            found.push(text);
        }
    }
    found
}

/// Names in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

/// Checks nothing escaped: the watched folder and the working directory
/// are as they were, no process mentions the run, no connection arrived.
fn assert_nothing_escaped(when: &str, watched: &Path, cwd: &Path, tmp: &Path, marker: &str, calls: &AtomicUsize) {
    assert_eq!(names_in(watched), ["victim.txt"], "{when}: files appeared or vanished in the watched folder");
    assert_eq!(std::fs::read_to_string(watched.join("victim.txt")).unwrap(), "keep me", "{when}");
    assert_eq!(names_in(cwd), Vec::<String>::new(), "{when}: files appeared in the working directory");
    assert_eq!(processes_mentioning(marker), Vec::<String>::new(), "{when}: spawned processes live on");
    assert_eq!(processes_mentioning(tmp.to_str().unwrap()), Vec::<String>::new(), "{when}: workers or JVMs live on");
    assert_eq!(calls.load(Ordering::SeqCst), 0, "{when}: a connection reached the test's server");
}

#[test]
fn hostile_classes_stay_in_their_budget_and_sandbox_and_their_suites_never_flake() {
    let tmp = tempfile::tempdir().unwrap();
    let watched = tmp.path().join("watched");
    let cwd = tmp.path().join("cwd");
    std::fs::create_dir_all(&watched).unwrap();
    std::fs::create_dir_all(&cwd).unwrap();
    std::fs::write(watched.join("victim.txt"), "keep me").unwrap();
    let (server_port, calls) = counting_server();
    let listen_port = free_port();
    let marker = format!("rogue-marker-{}", std::process::id());
    let jar = rogue_jar(tmp.path(), &watched, listen_port, server_port, &marker);
    let out = tmp.path().join("out");
    let budget = format!("{BUDGET_SECS}s");
    let output = util::ferrosuite_in(
        &cwd,
        &[
            "generate",
            "--jar",
            jar.to_str().unwrap(),
            "--budget",
            &budget,
            "--seed",
            "3",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    let log = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let classes = report["classes"].as_array().unwrap();
    assert_eq!(classes.len(), 10, "{log}");
    let over: Vec<String> = classes
        .iter()
        .filter(|c| c["seconds"]["total"].as_f64().unwrap() > 1.25 * BUDGET_SECS)
        .map(|c| format!("{}: {}", c["class"], c["seconds"]))
        .collect();
    assert!(over.is_empty(), "over 1.25 x the {BUDGET_SECS} s budget: {over:#?}");
    std::thread::sleep(Duration::from_millis(500));
    assert_nothing_escaped("after generate", &watched, &cwd, tmp.path(), &marker, &calls);
    let refused = |class: &str, kind: &str| {
        let c = classes.iter().find(|c| c["class"] == class).unwrap();
        c["refusals"][kind].as_u64().unwrap()
    };
    assert!(refused("rogue.Vandal", "file-write") > 0, "{log}");
    assert!(refused("rogue.Networker", "network") > 0, "{log}");
    assert!(refused("rogue.Spawner", "process") > 0, "{log}");

    run_suites_in_random_orders(&out, &jar, classes, &cwd);
    assert_nothing_escaped("after the emitted suites ran", &watched, &cwd, tmp.path(), &marker, &calls);
}

/// Compiles the emitted suites and runs each in [`ORDERS`] random orders,
/// unconfined, in a fresh JVM each time: every test passes every time.
fn run_suites_in_random_orders(out: &Path, jar: &Path, classes: &[serde_json::Value], cwd: &Path) {
    let jdk = javarun::Jdk::find().unwrap();
    let junit = javarun::JunitJars::debian(4).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut ran = 0;
    for class in classes {
        let Some(file) = class["test_file"].as_str() else { continue };
        let source = out.join(file);
        let names = junit_test_names(&source);
        if names.is_empty() {
            continue;
        }
        let compiled = cwd.parent().unwrap().join("test-classes").join(class["class"].as_str().unwrap());
        let cp = format!("{}:{}", jar.display(), junit.compile_class_path());
        javarun::compile_tests(&jdk, std::slice::from_ref(&source), &cp, &compiled, None).unwrap().unwrap();
        let test_class = file.trim_end_matches(".java").replace('/', ".");
        for _ in 0..ORDERS {
            let mut order = names.clone();
            order.shuffle(&mut rng);
            let verdicts = javarun::run_tests(
                &jdk,
                &compiled,
                jar.to_str().unwrap(),
                &test_class,
                &order,
                &junit,
                None,
                Duration::from_secs(20),
                None,
            )
            .unwrap();
            let failed: Vec<_> = verdicts.iter().filter(|v| !v.passed).map(|v| &v.name).collect();
            assert!(failed.is_empty(), "{test_class} in order {order:?}: {failed:?} failed");
            ran += 1;
        }
    }
    assert!(ran >= 5 * ORDERS, "too few suites were emitted to show anything: {ran} runs");
}

/// The names of the `@Test` methods of an emitted JUnit source.
fn junit_test_names(source: &Path) -> Vec<String> {
    junit::test_methods_in(&std::fs::read_to_string(source).unwrap())
}
