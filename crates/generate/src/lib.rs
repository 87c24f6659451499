//! The main job as a library: generate, emit and verify JUnit tests for
//! classes under test. The binary (`ferrosuite generate`) turns its
//! arguments into a [`GenerateConfig`] and a [`ClassSelection`], draws the
//! progress from [`Observer`] events, and prints; everything else is here.
//!
//! The stages for one class ([`generate_class`]), each in its own module:
//!
//! 1. load the class path and 2. parse, 3. analyse (goals of the class under
//!    test and of its nested classes), 4. instrument (with the static reset
//!    of the class's package, [`static_state`], and the classes it uses
//!    for their comparisons, [`neighbours`]), start the workers:
//!    [`prepare`];
//! 5. build the test cluster and seeds ([`variation`] adapts them to the
//!    search's `Variation`);
//! 6. search (`search::run`);
//! 7. cut the tests that end in what an emitted test cannot keep
//!    ([`endings`]), minimise, add regression assertions, keep those that
//!    agree in a second environment, filter them by mutation analysis:
//!    [`postprocess`], [`environments`], [`mutants`];
//! 8. emit JUnit (with the facts that decide its casts, [`casts`]), compile
//!    it and run it in several orders, alone and on a second JDK, removing
//!    what fails: [`verify`], [`rounds`]; the findings (the techniques'
//!    and the `assert`s a test trips, [`tripped_asserts`]), whose witness
//!    tests move into a test class of their own ([`findings_suite`]);
//! 9. measure the final suite's coverage ([`coverage_run`]), give every
//!    uncovered goal a cause ([`triage`]) and write the report:
//!    [`class_run`], [`report`] (the `reports` crate makes the other report
//!    files from it).
//!
//! Techniques plug in through [`Technique`] ([`technique`] lists the hook
//! points); [`Observer`] ([`observer`]) receives progress events;
//! [`GenerateError`] ([`error`]) is what can go wrong outside the class
//! under test; [`config`] holds the configuration and class selection,
//! [`shard`] the part of it one machine of several takes.
//!
//! ```no_run
//! # fn config() -> generate::GenerateConfig { unimplemented!() }
//! let config = config();
//! let classes = generate::ClassSelection { classes: vec![model::names::BinaryName::new("p.Stack")], ..Default::default() }
//!     .resolve(&config.class_path)?;
//! let report = generate::run(&config, &classes, &mut [], &mut ())?;
//! println!("{} classes", report.classes.len());
//! # Ok::<(), generate::GenerateError>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod casts;
pub mod class_run;
pub mod config;
pub mod coverage_run;
pub mod endings;
pub mod environments;
pub mod error;
pub mod findings_suite;
pub mod mutants;
pub mod neighbours;
pub mod observer;
pub mod postprocess;
pub mod prepare;
pub mod report;
pub mod rounds;
pub mod shard;
pub mod static_state;
pub mod technique;
pub mod triage;
pub mod tripped_asserts;
pub mod variation;
pub mod verify;

pub use class_run::{ClassRun, generate_class};
pub use config::{ClassSelection, GenerateConfig};
pub use error::GenerateError;
pub use observer::Observer;
pub use report::{ClassReport, ClassStatus, Report};
pub use technique::{Finding, Technique};

/// Generates tests for each class in turn and writes `OUT/report.json`
/// after each one, so a later failure loses nothing; returns the report.
/// A class whose generation fails is reported (its status) and the others
/// go on.
///
/// # Errors
/// [`GenerateError::Io`] when the output folder or `report.json` cannot be written.
pub fn run(
    config: &GenerateConfig,
    classes: &[model::names::BinaryName],
    techniques: &mut [Box<dyn Technique>],
    observer: &mut dyn Observer,
) -> Result<Report, GenerateError> {
    config.check_folders()?;
    for dir in [config.out.as_path(), config.report_folder()] {
        std::fs::create_dir_all(dir).map_err(GenerateError::io("create", dir))?;
    }
    let mut report = Report {
        version: env!("CARGO_PKG_VERSION").into(),
        seed: config.seed,
        shard: config.shard,
        ..Report::default()
    };
    for (i, class) in classes.iter().enumerate() {
        if observer.should_stop() {
            report.interrupted = true;
            report::write(config, &report)?;
            break;
        }
        // The first class's budget counts from the run's start (`GenerateConfig::started`).
        let start = config.started.filter(|_| i == 0).unwrap_or_else(std::time::Instant::now);
        let class_report = class_run::generate_class_from(config, class, start, techniques, observer);
        observer.class_finished(&class_report);
        report.classes.push(class_report);
        report::write(config, &report)?;
    }
    Ok(report)
}
