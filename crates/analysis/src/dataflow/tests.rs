use model::bytecode::{Insn, decode, op};
use model::classfile::ClassFile;

use super::*;
use crate::testutil::compile;

const SOURCE: &str = r#"
class D {
    int f;
    D next;
    static boolean m(D d, int x) { D e = d.next; int y = x + 1; return e.f == y; }
    long w(long a, int b) { long c = a * 2; return b > 0 ? c : a; }
    int loop(int[] xs) { int s = 0; for (int i = 0; i < xs.length; i++) { s += xs[i]; } return s; }
    static int caught(String s) { try { return Integer.parseInt(s); } catch (RuntimeException e) { return e.hashCode(); } }
}
"#;

fn flow_of(cf: &ClassFile, name: &str) -> (Vec<Insn>, DataFlow) {
    let m = cf.methods.iter().find(|m| cf.member_name(m) == name).unwrap();
    let code = cf.code(m).unwrap().unwrap();
    let insns = decode(&code.code).unwrap();
    let shape = MethodShape {
        descriptor: cf.member_descriptor(m),
        is_static: m.access & model::access::STATIC != 0,
        max_locals: code.max_locals,
    };
    let flow = DataFlow::compute(&insns, &code.exception_table, &cf.constant_pool, shape).unwrap();
    (insns, flow)
}

fn index_of(insns: &[Insn], opcode: u8, nth: usize) -> usize {
    insns.iter().enumerate().filter(|(_, i)| i.opcode == opcode).nth(nth).map(|(k, _)| k).unwrap()
}

fn one(d: Def) -> Defs {
    Defs::from([d])
}

#[test]
fn loads_and_stores_are_transparent_and_fields_chain() {
    let classes = compile(&[("D.java", SOURCE)]);
    let (insns, flow) = flow_of(&classes["D"], "m");
    let next = index_of(&insns, op::GETFIELD, 0);
    let f = index_of(&insns, op::GETFIELD, 1);
    let add = index_of(&insns, op::IADD, 0);
    let jump = index_of(&insns, op::IF_ICMPNE, 0);
    assert_eq!(flow.operands[next], [one(Def::Entry(0))]);
    assert_eq!(flow.operands[f], [one(Def::Insn(next))]);
    assert_eq!(flow.operands[add][0], one(Def::Entry(1)));
    assert_eq!(flow.operands[jump], [one(Def::Insn(f)), one(Def::Insn(add))]);
}

#[test]
fn wide_values_take_two_slots_and_joins_merge() {
    let classes = compile(&[("D.java", SOURCE)]);
    let (insns, flow) = flow_of(&classes["D"], "w");
    let mul = index_of(&insns, op::LMUL, 0);
    // `a` is the long in slots 1-2, `b` the int in slot 3.
    assert_eq!(flow.operands[mul][0], one(Def::Entry(1)));
    let ifle = index_of(&insns, op::IFLE, 0);
    assert_eq!(flow.operands[ifle], [one(Def::Entry(3))]);
    let ret = index_of(&insns, op::LRETURN, 0);
    assert_eq!(flow.operands[ret], [Defs::from([Def::Entry(1), Def::Insn(mul)])]);
}

#[test]
fn loops_reach_a_fixpoint_and_handlers_see_the_caught_exception() {
    let classes = compile(&[("D.java", SOURCE)]);
    let (insns, flow) = flow_of(&classes["D"], "loop");
    let load = index_of(&insns, op::IALOAD, 0);
    let iinc = index_of(&insns, op::IINC, 0);
    let [array, index] = &flow.operands[load][..] else { panic!("two operands") };
    assert_eq!(*array, one(Def::Entry(1)));
    assert!(index.contains(&Def::Insn(iinc)), "the index is defined by iinc on the back edge: {index:?}");
    assert!(flow.reachable.iter().all(|r| *r));
    let (insns, flow) = flow_of(&classes["D"], "caught");
    let hash = index_of(&insns, op::INVOKEVIRTUAL, 0);
    assert!(matches!(flow.operands[hash][..], [ref d] if d.iter().all(|d| matches!(d, Def::Caught(_)))));
}

#[test]
fn an_inconsistent_stack_is_an_error_not_a_panic() {
    // iconst_0; ifeq 5; iconst_1; (5:) ireturn — heights 0 and 1 meet at ireturn.
    let insns = decode(&[op::ICONST_0, op::IFEQ, 0, 4, op::ICONST_1, op::IRETURN]).unwrap();
    let cp = model::constant_pool::ConstantPool::default();
    let shape = MethodShape { descriptor: "()I", is_static: true, max_locals: 0 };
    assert_eq!(DataFlow::compute(&insns, &[], &cp, shape).unwrap_err(), DataFlowError::Stack(5));
}
