//! Effect checks: before a call of the class under test that writes a file,
//! opens a TCP socket or starts a process, a call of the sandbox that
//! throws `Sandbox.Refused` in a worker when the effect is not allowed
//! (a file outside the worker's folder; any socket or process).
//!
//! The kernel refuses the same effects for all code of the worker (see
//! `jvm::sandbox`); these checks only cover the class under test's own
//! call sites, and exist so that the refusal is a dedicated exception
//! (an `Error`, which a `catch (IOException e)` does not swallow) instead
//! of an `IOException` that looks like any failed write.
//!
//! A check is straight-line and stack-neutral: it copies the checked
//! argument to the top of the stack (`dup`, `dup2 pop`, or
//! `dup2_x1 pop2 dup_x2` for the three topmost one-slot values) and calls
//! `Sandbox.checkWrite(Object)`, which consumes the copy. Arguments deeper
//! than the third value, or above a `long`/`double`, are not checked (the
//! kernel still refuses the write).

use model::bytecode::{Insn, Operand, op};
use model::classfile::ClassFileError;
use model::constant_pool::ConstantPool;
use model::descriptor::{FieldType, MethodDescriptor};
use model::names::InternalName;

use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};
use crate::tracer::sandbox;

/// What is checked before one call.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Check {
    /// The files named by these arguments (0 = receiver of an instance
    /// method, or the first parameter of a static method or constructor)
    /// are written, created, deleted or renamed.
    Write(Vec<usize>),
    /// The call opens a TCP connection or a listening socket.
    Network,
    /// The call starts a process.
    Process,
}

/// The call sites of one class that get a check.
pub struct EffectChecks {
    /// Constant-pool index of a method reference, the call opcode it must
    /// appear with, its argument types (receiver first) and the check.
    targets: Vec<(u16, u8, Vec<FieldType>, Check)>,
}

const FILE: &str = "java/io/File";
const PATH: &str = "java/nio/file/Path";
const STRING: &str = "java/lang/String";

/// Whether `t` is a `String`, `File` or `Path`: a value naming a file.
fn names_file(t: &FieldType) -> bool {
    matches!(t, FieldType::Object(n) if [FILE, PATH, STRING].contains(&n.as_str()))
}

/// The check of a call of `owner.name descriptor`, if it has an effect,
/// with the opcode it is called with.
fn check_of(owner: &str, name: &str, d: &MethodDescriptor) -> Option<(u8, Check)> {
    let first_names_file = d.params.first().is_some_and(names_file);
    let check = match (owner, name) {
        (
            "java/io/FileOutputStream" | "java/io/FileWriter" | "java/io/PrintWriter" | "java/io/PrintStream",
            "<init>",
        ) if first_names_file => Check::Write(vec![0]),
        ("java/net/Socket", "<init>") if matches!(d.params.first(), Some(FieldType::Object(n)) if n.as_str() == STRING || n.as_str() == "java/net/InetAddress") => {
            Check::Network
        }
        ("java/net/ServerSocket", "<init>") if !d.params.is_empty() => Check::Network,
        ("java/net/Socket", "connect") | ("java/net/ServerSocket", "bind") => Check::Network,
        ("java/nio/channels/SocketChannel", "connect") | ("java/nio/channels/ServerSocketChannel", "bind") => {
            Check::Network
        }
        ("java/nio/channels/SocketChannel", "open") if !d.params.is_empty() => Check::Network,
        ("java/lang/ProcessBuilder", "start") | ("java/lang/Runtime", "exec") => Check::Process,
        ("java/lang/ProcessBuilder", "startPipeline") => Check::Process,
        (
            FILE,
            "delete" | "mkdir" | "mkdirs" | "createNewFile" | "setReadOnly" | "setWritable" | "setReadable"
            | "setExecutable",
        ) => Check::Write(vec![0]),
        (FILE, "renameTo") => Check::Write(vec![0, 1]),
        ("java/nio/file/Files", "move") => Check::Write(vec![0, 1]),
        ("java/nio/file/Files", "copy") if d.params.get(1).is_some_and(names_file) => Check::Write(vec![1]),
        (
            "java/nio/file/Files",
            "write"
            | "writeString"
            | "newOutputStream"
            | "newBufferedWriter"
            | "createFile"
            | "createDirectory"
            | "createDirectories"
            | "createTempFile"
            | "createTempDirectory"
            | "delete"
            | "deleteIfExists"
            | "createLink"
            | "createSymbolicLink"
            | "setAttribute"
            | "setPosixFilePermissions"
            | "setLastModifiedTime"
            | "setOwner",
        ) if first_names_file => Check::Write(vec![0]),
        _ => return None,
    };
    let opcode = match (owner, name) {
        (_, "<init>") => op::INVOKESPECIAL,
        ("java/nio/file/Files" | "java/nio/channels/SocketChannel", _)
        | ("java/lang/ProcessBuilder", "startPipeline") => op::INVOKESTATIC,
        _ => op::INVOKEVIRTUAL,
    };
    Some((opcode, check))
}

impl EffectChecks {
    /// Finds the method references of a class's constant pool that have an effect.
    pub fn new(constant_pool: &ConstantPool) -> EffectChecks {
        let targets = constant_pool
            .iter()
            .filter_map(|(index, _)| {
                let r = constant_pool.member_ref(index).ok()?;
                let d = MethodDescriptor::parse(r.descriptor).ok()?;
                let (opcode, check) = check_of(r.owner, r.name, &d)?;
                let receiver = (opcode == op::INVOKEVIRTUAL).then(|| FieldType::Object(InternalName::new(r.owner)));
                let args = receiver.into_iter().chain(d.params).collect();
                Some((index, opcode, args, check))
            })
            .collect();
        EffectChecks { targets }
    }

    /// The snippet run before a call instruction, if the call has an effect.
    fn snippet(&self, insn: &Insn, emit: &mut Emitter<'_>) -> Result<Option<Vec<Insn>>, ClassFileError> {
        let Operand::Constant(index) = insn.operand else { return Ok(None) };
        let Some((_, _, args, check)) = self.targets.iter().find(|(i, o, _, _)| *i == index && *o == insn.opcode)
        else {
            return Ok(None);
        };
        let mut out = Vec::new();
        match check {
            Check::Network => out.push(emit.call(sandbox::REFUSE_NETWORK)?),
            Check::Process => out.push(emit.call(sandbox::REFUSE_PROCESS)?),
            Check::Write(checked) => {
                for &arg in checked {
                    let Some(copy) = copy_to_top(args, arg) else { continue };
                    out.extend(copy);
                    out.push(emit.call(sandbox::CHECK_WRITE)?);
                }
            }
        }
        Ok((!out.is_empty()).then_some(out))
    }
}

/// Instructions that push a copy of argument `arg` of a call whose
/// arguments (`args`, first pushed first) are on top of the stack, leaving
/// them in place; `None` when the argument is not one of the three
/// topmost values or a value above it takes two slots.
fn copy_to_top(args: &[FieldType], arg: usize) -> Option<Vec<Insn>> {
    let above = args.get(arg..)?;
    if above.iter().any(|t| t.slots() != 1) {
        return None;
    }
    let ops: &[u8] = match above.len() {
        1 => &[op::DUP],
        2 => &[op::DUP2, op::POP],
        3 => &[op::DUP2_X1, op::POP2, op::DUP_X2],
        _ => return None,
    };
    Some(ops.iter().map(|&o| Emitter::simple(o)).collect())
}

impl ProbeKind for EffectChecks {
    fn name(&self) -> &'static str {
        "effects"
    }

    fn extra_stack(&self) -> u16 {
        2
    }

    fn edits(&self, ctx: &MethodContext<'_>, emit: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError> {
        let mut out = Vec::new();
        if self.targets.is_empty() {
            return Ok(out);
        }
        for (index, insn) in ctx.insns.iter().enumerate() {
            if let Some(snippet) = self.snippet(insn, emit)? {
                out.push((index, Edit::Before(snippet)));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types(d: &str) -> Vec<FieldType> {
        MethodDescriptor::parse(d).unwrap().params
    }

    #[test]
    fn an_argument_is_copied_from_up_to_three_values_deep() {
        let ops =
            |args: &[FieldType], arg| copy_to_top(args, arg).map(|v| v.iter().map(|i| i.opcode).collect::<Vec<_>>());
        let three = types("(Ljava/nio/file/Path;[BI)V");
        assert_eq!(ops(&three, 2), Some(vec![op::DUP]));
        assert_eq!(ops(&three, 1), Some(vec![op::DUP2, op::POP]));
        assert_eq!(ops(&three, 0), Some(vec![op::DUP2_X1, op::POP2, op::DUP_X2]));
        assert_eq!(ops(&types("(Ljava/lang/String;JI)V"), 0), None, "a long above the path");
        assert_eq!(ops(&types("(IIILjava/lang/String;)V"), 0), None, "four deep");
    }

    #[test]
    fn reads_and_unrelated_calls_are_not_checked() {
        let d = |s| MethodDescriptor::parse(s).unwrap();
        assert!(check_of("java/io/FileInputStream", "<init>", &d("(Ljava/lang/String;)V")).is_none());
        assert!(check_of("java/nio/file/Files", "readAllBytes", &d("(Ljava/nio/file/Path;)[B")).is_none());
        assert!(check_of("java/io/PrintWriter", "<init>", &d("(Ljava/io/Writer;)V")).is_none());
        assert!(check_of("java/net/Socket", "<init>", &d("()V")).is_none(), "an unconnected socket");
        let files_write = check_of(
            "java/nio/file/Files",
            "write",
            &d("(Ljava/nio/file/Path;[B[Ljava/nio/file/OpenOption;)Ljava/nio/file/Path;"),
        );
        assert_eq!(files_write, Some((op::INVOKESTATIC, Check::Write(vec![0]))));
        assert_eq!(
            check_of(FILE, "renameTo", &d("(Ljava/io/File;)Z")),
            Some((op::INVOKEVIRTUAL, Check::Write(vec![0, 1])))
        );
    }
}
