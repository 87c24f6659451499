//! Recording instrumentation (Palus's sample execution, TECHNIQUES.md §4
//! step 1): every method a client can call — not private, not a lambda
//! body or accessor, not a static initialiser — reports its entry and exit
//! to `ferrosuite.runtime.Recorder` ([`crate::probes::record`]); nothing
//! else is added (no coverage probes, no sandbox: the sample run executes
//! the project's own tests in a confined JVM of their own).
//!
//! [`record_to_dir`] instruments a list of classes into a folder with the
//! runtime classes and `classes.txt`, the list the recorder reads to tell
//! outermost calls from a class's calls to itself.
//!
//! [`RecordMode::Values`] instruments for ZoomIn's value tracing instead
//! (TECHNIQUES.md §3 step 1): every method with code, private ones too,
//! reports to `ferrosuite.runtime.ValueTracer`, with a line probe where each
//! source line starts.

use std::path::{Path, PathBuf};

use model::access;
use model::classfile::ClassFile;
use model::classpath::ClassPath;
use model::descriptor::MethodDescriptor;
use model::names::BinaryName;

use crate::batch::BatchError;
use crate::probe::ProbeKind;
use crate::probes::record::{RecordProbes, RecordSite, Sink};

/// What a recording run instruments, and which runtime class it reports to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordMode {
    /// Palus's calls: the methods a client can call, into `Recorder`.
    Calls,
    /// ZoomIn's values: every method with code (private ones too; not
    /// lambda bodies or static initialisers), into `ValueTracer`, with
    /// line probes.
    Values,
}

impl RecordMode {
    fn sink(self) -> Sink {
        match self {
            RecordMode::Calls => Sink::RECORDER,
            RecordMode::Values => Sink::VALUE_TRACER,
        }
    }

    /// Whether a method with these access flags and name is not recorded.
    fn excludes(self, flags: u16, name: &str) -> bool {
        let private = match self {
            RecordMode::Calls => access::PRIVATE,
            RecordMode::Values => 0,
        };
        flags & (private | access::ABSTRACT | access::NATIVE) != 0
            || (flags & access::SYNTHETIC != 0 && flags & access::BRIDGE == 0)
            || (self == RecordMode::Values && flags & access::BRIDGE != 0)
            || name == "<clinit>"
    }
}
use crate::rewrite::rewrite_method;

/// A recorded method: the id its events carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedMethod {
    /// The id in the recorder's events.
    pub id: u32,
    /// The declaring class.
    pub class: BinaryName,
    /// Its name (`<init>` for constructors).
    pub name: String,
    /// Its JVM descriptor.
    pub descriptor: String,
    /// Its access flags (`ACC_*`).
    pub access: u16,
}

impl RecordedMethod {
    /// Whether it is static.
    pub fn is_static(&self) -> bool {
        self.access & access::STATIC != 0
    }

    /// Whether it is a constructor.
    pub fn is_constructor(&self) -> bool {
        self.name == "<init>"
    }

    /// Whether it is a compiler-made bridge (`compareTo(Object)` for `compareTo(Foo)`).
    pub fn is_bridge(&self) -> bool {
        self.access & access::BRIDGE != 0
    }
}

/// The outcome of [`record_to_dir`].
#[derive(Debug, Default)]
pub struct RecordingBatch {
    /// Every recorded method, in id order (ids from 0; a method that could
    /// not be rewritten leaves a gap).
    pub methods: Vec<RecordedMethod>,
    /// Classes that could not be read or instrumented, with the reason
    /// (their original bytes are used, so their calls are not recorded).
    pub failed: Vec<(BinaryName, String)>,
}

/// One class instrumented for recording.
#[derive(Debug, Clone)]
pub struct RecordedClass {
    /// The instrumented class file.
    pub bytes: Vec<u8>,
    /// Its recorded methods.
    pub methods: Vec<RecordedMethod>,
    /// How many ids it used (the next class starts after them; a method
    /// that could not be rewritten used an id that no event carries).
    pub ids: u32,
}

/// Instruments one class file for recording in `mode`; method ids start at
/// `first_id`. A method whose code cannot be rewritten is left as it was
/// and not listed.
///
/// # Errors
/// A message when the class file cannot be parsed.
pub fn instrument_recording(bytes: &[u8], first_id: u32, mode: RecordMode) -> Result<RecordedClass, String> {
    let mut cf = ClassFile::parse(bytes).map_err(|e| e.to_string())?;
    let class = model::names::InternalName::new(cf.name()).to_binary();
    let mut methods = Vec::new();
    let mut sites = Vec::new();
    for (index, m) in cf.methods.iter().enumerate() {
        let name = cf.member_name(m);
        let excluded = mode.excludes(m.access, name);
        let Ok(descriptor) = MethodDescriptor::parse(cf.member_descriptor(m)) else { continue };
        if excluded {
            continue;
        }
        let id = first_id + sites.len() as u32;
        sites.push(RecordSite {
            method_index: index as u16,
            id,
            descriptor,
            is_static: m.access & access::STATIC != 0,
            is_constructor: name == "<init>",
        });
        methods.push(RecordedMethod {
            id,
            class: class.clone(),
            name: name.to_string(),
            descriptor: cf.member_descriptor(m).to_string(),
            access: m.access,
        });
    }
    let indices: Vec<u16> = sites.iter().map(|s| s.method_index).collect();
    let ids = sites.len() as u32;
    let kinds: Vec<Box<dyn ProbeKind>> = vec![Box::new(RecordProbes { sites, sink: mode.sink() })];
    let rewritten: Vec<bool> =
        indices.iter().map(|&index| rewrite_method(&mut cf, usize::from(index), &kinds).is_ok()).collect();
    let methods = methods.into_iter().zip(rewritten).filter_map(|(m, ok)| ok.then_some(m)).collect();
    Ok(RecordedClass { bytes: cf.to_bytes(), methods, ids })
}

/// Instruments `names` from `cp` for recording in `mode` into `out`
/// (package folders), writes the runtime classes and `out/classes.txt` (the
/// recorded classes' binary names, one per line).
///
/// # Errors
/// [`BatchError`] when `out` cannot be written.
pub fn record_to_dir(
    cp: &ClassPath,
    names: &[BinaryName],
    out: &Path,
    mode: RecordMode,
) -> Result<RecordingBatch, BatchError> {
    let mut batch = RecordingBatch::default();
    let mut listed = String::new();
    let mut next_id = 0;
    for name in names {
        let found = match cp.find_bytes(name.as_str()) {
            Ok(found) => found,
            Err(e) => {
                batch.failed.push((name.clone(), e.to_string()));
                continue;
            }
        };
        let bytes = match instrument_recording(&found.bytes, next_id, mode) {
            Ok(recorded) => {
                batch.methods.extend(recorded.methods);
                next_id += recorded.ids;
                recorded.bytes
            }
            Err(e) => {
                batch.failed.push((name.clone(), e));
                found.bytes.to_vec()
            }
        };
        write(&out.join(name.class_file_path()), &bytes)?;
        listed.push_str(name.as_str());
        listed.push('\n');
    }
    crate::tracer::write_runtime(out).map_err(|source| BatchError {
        action: "write",
        path: out.to_path_buf(),
        source,
    })?;
    write(&out.join("classes.txt"), listed.as_bytes())?;
    Ok(batch)
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), BatchError> {
    let err = |action: &'static str, path: PathBuf| move |source| BatchError { action, path, source };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(err("create", parent.to_path_buf()))?;
    }
    std::fs::write(path, bytes).map_err(err("write", path.to_path_buf()))
}
