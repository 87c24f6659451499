//! Tests across the decoder and the assembler: round trips of real jars,
//! truncated and random inputs, and the instruction queries.

use super::*;
use crate::classfile::ClassFile;
use std::io::Read;

const COMMONS_LANG3: &str = "/usr/share/java/commons-lang3.jar";
const GUAVA: &str = "/usr/share/java/guava.jar";

pub(super) fn insn(opcode: u8, operand: Operand) -> Insn {
    Insn::new(opcode, operand)
}

pub(super) fn plain(opcode: u8) -> Insn {
    insn(opcode, Operand::None)
}

/// Calls `f(class, method, code)` for every method with code in `jar`;
/// `None` (with a note) when the jar is missing.
fn for_each_code(jar: &str, mut f: impl FnMut(&str, &str, &[u8])) -> Option<()> {
    let Ok(file) = std::fs::File::open(jar) else {
        eprintln!("note: {jar} not found, skipping");
        return None;
    };
    let mut archive = zip::ZipArchive::new(file).expect("readable jar");
    let mut unparsed = 0;
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).expect("jar entry");
        if !entry.name().ends_with(".class") {
            continue;
        }
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).expect("inflate");
        let Ok(class) = ClassFile::parse(&bytes) else {
            unparsed += 1;
            continue;
        };
        for m in &class.methods {
            if let Ok(Some(code)) = class.code(m) {
                let method = format!("{}{}", class.member_name(m), class.member_descriptor(m));
                f(class.name(), &method, &code.code);
            }
        }
    }
    if unparsed > 0 {
        eprintln!("note: {unparsed} classes in {jar} did not parse and were skipped");
    }
    Some(())
}

/// decode → targets_to_indices → assemble must give back `code` and the same bcis.
pub(super) fn round_trip(code: &[u8]) -> Result<(), String> {
    let decoded = decode(code).map_err(|e| e.to_string())?;
    let input = targets_to_indices(&decoded).map_err(|e| e.to_string())?;
    let out = assemble(&input).map_err(|e| e.to_string())?;
    if out.code != code {
        let at = out.code.iter().zip(code).position(|(a, b)| a != b).unwrap_or(code.len().min(out.code.len()));
        return Err(format!("bytes differ from offset {at} (len {} vs {})", out.code.len(), code.len()));
    }
    let bcis: Vec<u32> = decoded.iter().map(|i| i.bci).collect();
    if out.bcis != bcis {
        return Err("bcis differ".into());
    }
    Ok(())
}

/// Prepending a `nop` shifts everything by one byte (changing all switch
/// padding); decoding the result must give the same instructions.
fn relayout(code: &[u8]) -> Result<(), String> {
    let decoded = decode(code).map_err(|e| e.to_string())?;
    let mut input = targets_to_indices(&decoded).map_err(|e| e.to_string())?;
    input.iter_mut().for_each(|i| i.operand.try_map_targets(|t| Ok::<_, ()>(t + 1)).unwrap());
    input.insert(0, plain(op::NOP));
    let out = match assemble(&input) {
        Err(BytecodeError::BranchOutOfRange { .. }) => return Ok(()),
        other => other.map_err(|e| e.to_string())?,
    };
    let again = targets_to_indices(&decode(&out.code).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    let strip = |v: &[Insn]| v.iter().map(|i| (i.opcode, i.operand.clone())).collect::<Vec<_>>();
    if strip(&again) != strip(&input) {
        return Err("relaid code decodes differently".into());
    }
    Ok(())
}

fn round_trip_jar(jar: &str) {
    let (mut methods, mut switches, mut failures) = (0, 0, Vec::new());
    let found = for_each_code(jar, |class, method, code| {
        methods += 1;
        switches += decode(code).map_or(0, |d| d.iter().filter(|i| i.is_switch()).count());
        if let Err(e) = round_trip(code).and_then(|()| relayout(code)) {
            failures.push(format!("{class}.{method}: {e}"));
        }
    });
    if found.is_none() {
        return;
    }
    eprintln!("{jar}: {methods} methods ({switches} switches) round-tripped, {} failures", failures.len());
    assert!(methods > 1000, "only {methods} methods found in {jar}");
    assert!(failures.is_empty(), "{} failures, first: {:?}", failures.len(), &failures[..failures.len().min(5)]);
}

#[test]
fn commons_lang3_round_trips_exactly() {
    round_trip_jar(COMMONS_LANG3);
}

#[test]
fn guava_round_trips_exactly() {
    round_trip_jar(GUAVA);
}

#[test]
fn wide_forms() {
    let out = assemble(&[insn(op::ILOAD, Operand::Local { index: 300, wide: false })]).unwrap();
    assert_eq!(out.code, [op::WIDE, op::ILOAD, 0x01, 0x2c]);
    assert_eq!(
        decode(&out.code).unwrap(),
        [Insn { bci: 0, opcode: op::ILOAD, operand: Operand::Local { index: 300, wide: true } }]
    );

    let forced = assemble(&[insn(op::ASTORE, Operand::Local { index: 5, wide: true })]).unwrap();
    assert_eq!(forced.code, [op::WIDE, op::ASTORE, 0, 5]);
    let short = assemble(&[insn(op::ASTORE, Operand::Local { index: 5, wide: false })]).unwrap();
    assert_eq!(short.code, [op::ASTORE, 5]);

    let iinc = assemble(&[insn(op::IINC, Operand::Iinc { index: 1, delta: 1000, wide: false })]).unwrap();
    assert_eq!(iinc.code, [op::WIDE, op::IINC, 0, 1, 0x03, 0xe8]);
    let iinc = assemble(&[insn(op::IINC, Operand::Iinc { index: 1, delta: -1, wide: false })]).unwrap();
    assert_eq!(iinc.code, [op::IINC, 1, 0xff]);
    assert_eq!(decode(&iinc.code).unwrap()[0].operand, Operand::Iinc { index: 1, delta: -1, wide: false });

    let ret = [op::WIDE, op::RET, 0x01, 0x00];
    assert_eq!(decode(&ret).unwrap()[0].operand, Operand::Local { index: 256, wide: true });
    assert_eq!(decode(&[op::WIDE, op::NOP, 0, 0]), Err(BytecodeError::BadWide { bci: 0, opcode: op::NOP }));
    assert_eq!(decode(&[op::WIDE, op::IINC, 0, 1, 0]), Err(BytecodeError::Truncated { bci: 0, opcode: op::WIDE }));
}

/// Code exercising every operand shape, assembled by hand.
fn sample_code() -> Vec<u8> {
    let input = vec![
        insn(op::ILOAD, Operand::Local { index: 300, wide: false }),
        insn(op::IINC, Operand::Iinc { index: 2, delta: 3, wide: false }),
        insn(op::BIPUSH, Operand::Int(5)),
        insn(op::SIPUSH, Operand::Int(-500)),
        insn(op::LDC, Operand::Constant(4)),
        insn(op::INVOKEINTERFACE, Operand::InvokeInterface { index: 9, count: 1 }),
        insn(op::INVOKEDYNAMIC, Operand::InvokeDynamic { index: 8 }),
        insn(op::TABLESWITCH, Operand::TableSwitch { default: 9, low: 0, high: 1, targets: vec![8, 10] }),
        insn(op::LOOKUPSWITCH, Operand::LookupSwitch { default: 9, pairs: vec![(1, 10)] }),
        insn(op::JSR_W, Operand::Jump(11)),
        insn(op::IFNONNULL, Operand::Jump(0)),
        insn(op::MULTIANEWARRAY, Operand::MultiANewArray { index: 3, dims: 2 }),
        plain(op::ATHROW),
    ];
    assemble(&input).unwrap().code
}

fn first_switch_method() -> Option<Vec<u8>> {
    let mut found = None;
    for_each_code(COMMONS_LANG3, |_, _, code| {
        if found.is_none() && code.len() > 60 && decode(code).is_ok_and(|d| d.iter().any(Insn::is_switch)) {
            found = Some(code.to_vec());
        }
    })?;
    found
}

#[test]
fn every_prefix_fails_cleanly() {
    let mut codes = vec![sample_code()];
    codes.extend(first_switch_method());
    eprintln!("prefix test on {} code arrays", codes.len());
    for code in codes {
        round_trip(&code).unwrap();
        let starts: Vec<usize> = decode(&code).unwrap().iter().map(|i| i.bci as usize).collect();
        for cut in 0..code.len() {
            let result = decode(&code[..cut]);
            if !starts.contains(&cut) && cut > 0 {
                assert!(result.is_err(), "prefix {cut} decoded");
            }
            if let Ok(insns) = result {
                round_trip(&code[..cut]).unwrap();
                assert_eq!(insns.len(), starts.iter().filter(|&&s| s < cut).count());
            }
        }
    }
}

#[test]
fn random_bytes_never_panic_and_reassemble() {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut decoded_ok = 0;
    for _ in 0..20_000 {
        let len = (next() % 24) as usize;
        let code: Vec<u8> =
            (0..len).map(|_| if next() % 3 == 0 { (next() % 4) as u8 } else { (next() % 210) as u8 }).collect();
        let Ok(insns) = decode(&code) else { continue };
        decoded_ok += 1;
        let out = assemble(&targets_to_indices(&insns).unwrap()).unwrap();
        // Padding and reserved zero bytes are normalised; everything else is kept.
        assert_eq!(decode(&out.code).unwrap(), insns, "code {code:?}");
    }
    assert!(decoded_ok > 100, "only {decoded_ok} random codes decoded");
}

#[test]
fn control_flow_queries() {
    let decoded = decode(&sample_code()).unwrap();
    let by_op = |o: u8| decoded.iter().find(|i| i.opcode == o).unwrap();
    assert!(by_op(op::IFNONNULL).is_conditional_jump() && by_op(op::IFNONNULL).falls_through());
    assert!(!by_op(op::JSR_W).is_conditional_jump() && by_op(op::JSR_W).falls_through());
    assert!(by_op(op::TABLESWITCH).is_switch() && !by_op(op::TABLESWITCH).falls_through());
    assert_eq!(by_op(op::LOOKUPSWITCH).targets().len(), 2);
    assert!(by_op(op::ATHROW).is_exit() && !by_op(op::ATHROW).falls_through());
    assert!(!plain(op::GOTO).falls_through() && plain(op::RETURN).is_exit() && !plain(op::MONITOREXIT).is_exit());
    assert!(by_op(op::ILOAD).targets().is_empty());
    assert_eq!(by_op(op::ILOAD).to_string(), "0: wide iload 300");
    assert_eq!(decoded[0].to_string(), "0: wide iload 300");
}
