//! The kernel sandbox of a worker process: what the class under test (and
//! the JDK code it calls) may not do during generation, enforced by the
//! kernel for the whole worker process, so that it holds for every Java
//! code path (a `FileOutputStream` a library opens, `ProcessBuilder`, NIO)
//! and on every JDK (no `SecurityManager`, which JDK 18+ deprecates and 24
//! removes).
//!
//! - Files: Landlock (Linux 5.13+) allows writing, creating, removing and
//!   renaming files only beneath the worker's `java.io.tmpdir` (a subfolder
//!   of its working folder, a fresh temporary folder the pool makes and
//!   removes) and `/dev` (`/dev/null`); reading stays allowed everywhere.
//!   Relative paths resolve in the working folder itself, so writing them is
//!   refused: an emitted test must not write into the working directory of
//!   the build that runs it.
//! - Network: Landlock ABI 4 (Linux 6.7+) refuses every TCP `bind` and
//!   `connect`. Landlock names ports, not addresses, so loopback is refused
//!   too (stricter than needed; no class under test of the corpora needs it).
//! - Processes: a seccomp filter makes `execve` and `execveat` fail with
//!   `EPERM`, so `Runtime.exec`/`ProcessBuilder` throw an `IOException`
//!   and no program is started.
//!
//! Refused operations fail as the kernel reports them (`EACCES`/`EPERM`:
//! Java throws `IOException`, `AccessDeniedException` or `SocketException`);
//! the runner reports them as `Sandbox$Refused` (`exec::sandbox::refusal`).
//! Where the kernel lacks a mechanism the worker goes on without it and
//! reports which ones hold ([`Confinement`]); the pool says so once.

use std::path::Path;

use landlock::{
    ABI, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus,
    path_beneath_rules,
};
use serde::{Deserialize, Serialize};

/// Which of the sandbox's mechanisms hold in a worker.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Confinement {
    /// File writes are confined to the working folder (Landlock).
    pub files: bool,
    /// TCP `bind` and `connect` are refused (Landlock ABI 4).
    pub network: bool,
    /// Starting programs is refused (seccomp).
    pub processes: bool,
}

impl Confinement {
    /// Whether every mechanism holds.
    pub fn is_complete(&self) -> bool {
        self.files && self.network && self.processes
    }
}

/// Confines the calling thread and every thread it starts afterwards (call
/// it before the JVM is created) to write only beneath `work_dir` and
/// `/dev`, to make no TCP connection, and to start no program.
pub fn confine(work_dir: &Path) -> Confinement {
    let status = restrict(&[work_dir], None).unwrap_or_else(|e| {
        tracing::debug!("landlock: {e}");
        RulesetStatus::NotEnforced
    });
    let processes = refuse_exec().map_err(|e| tracing::debug!("seccomp: {e}")).is_ok();
    Confinement { processes, ..files_and_network(status) }
}

/// Confines this process (call it while it is single-threaded, right
/// before it replaces itself with another program) and every process it
/// starts: writes only beneath `writable` and `/dev`, programs started only
/// from beneath `executable` (the JDK, the system's libraries for the
/// dynamic loader), no TCP `bind` or `connect`. All with Landlock, so that
/// the one `execve` of the program to run stays possible; used for the JUnit
/// JVMs of verification.
pub fn confine_process(writable: &[&Path], executable: &[&Path]) -> Confinement {
    match restrict(writable, Some(executable)) {
        Ok(status) => {
            let held = files_and_network(status);
            Confinement { processes: held.files, ..held }
        }
        Err(e) => {
            tracing::debug!("landlock: {e}");
            Confinement::default()
        }
    }
}

/// What a Landlock status says of the file and network rules: the network
/// rules need ABI 4, so an older kernel enforces the file rules only
/// (partially enforced).
fn files_and_network(status: RulesetStatus) -> Confinement {
    Confinement {
        files: status != RulesetStatus::NotEnforced,
        network: status == RulesetStatus::FullyEnforced,
        processes: false,
    }
}

/// Restricts the calling thread with Landlock: writes only beneath
/// `writable` and `/dev`, no TCP `bind`/`connect`, and, with `executable`,
/// programs started only from beneath those folders.
fn restrict(writable: &[&Path], executable: Option<&[&Path]>) -> Result<RulesetStatus, landlock::RulesetError> {
    let write = AccessFs::from_write(ABI::V4);
    let handled = if executable.is_some() { write | AccessFs::Execute } else { write };
    let status = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(handled)?
        .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)?
        .create()?
        .add_rules(path_beneath_rules(writable.iter().copied().chain([Path::new("/dev")]), write))?
        .add_rules(path_beneath_rules(executable.unwrap_or(&[]), AccessFs::Execute))?
        .restrict_self()?;
    Ok(status.ruleset)
}
/// Installs a seccomp filter that makes `execve` and `execveat` fail with `EPERM`.
fn refuse_exec() -> Result<(), seccompiler::Error> {
    let arch: seccompiler::TargetArch = std::env::consts::ARCH.try_into()?;
    let rules = [(libc::SYS_execve, vec![]), (libc::SYS_execveat, vec![])].into_iter().collect();
    let filter = seccompiler::SeccompFilter::new(
        rules,
        seccompiler::SeccompAction::Allow,
        seccompiler::SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )?;
    let program: seccompiler::BpfProgram = filter.try_into()?;
    seccompiler::apply_filter(&program)
}
