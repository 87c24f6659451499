//! Readable conditions for goal labels, rebuilt from bytecode.
//!
//! A small symbolic simulation of the operand stack over the instructions of
//! the basic block that ends in a conditional jump or switch turns
//! `aload_1; invokevirtual String.length()I; ifle` into `s.length() <= 0`.
//! Local variables are named from the `LocalVariableTable` when present,
//! otherwise `this`, `arg1`.. (parameters) and `local3` (slot 3); fields
//! read as `this.count` or `Type.CONST`. Values the simulation cannot see
//! (stack entries from before the block, unmodelled instructions) print as
//! `?`. The rendered operator is the JVM condition of the jump, i.e. the
//! condition under which the jump is taken (`if_icmpge a b` gives `a >= b`);
//! after `lcmp`, `fcmpl/g` or `dcmpl/g` the compared operands are shown
//! (`a < b`), and `ifeq`/`ifne` on a boolean render as `!b` / `b`.

use model::bytecode::{Insn, Operand, op};
use model::constant_pool::{Constant, ConstantPool};

use crate::insn::{cp_index, local_index, member, simple_name, split_descriptor};

/// A named local variable live over `start..end` (from the
/// `LocalVariableTable`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LocalName {
    pub start: u32,
    pub end: u32,
    pub slot: u16,
    pub name: String,
    pub descriptor: String,
}

/// What the renderer needs to know about the method.
#[derive(Debug, Clone)]
pub(crate) struct MethodContext<'a> {
    pub cp: &'a ConstantPool,
    pub is_static: bool,
    /// Parameter descriptors, without the receiver.
    pub params: Vec<String>,
    pub locals: Vec<LocalName>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ty {
    Int,
    Bool,
    Char,
    Long,
    Float,
    Double,
    Ref,
    Unknown,
}

impl Ty {
    fn of_descriptor(d: &str) -> Ty {
        match d.as_bytes().first() {
            Some(b'Z') => Ty::Bool,
            Some(b'C') => Ty::Char,
            Some(b'B' | b'S' | b'I') => Ty::Int,
            Some(b'J') => Ty::Long,
            Some(b'F') => Ty::Float,
            Some(b'D') => Ty::Double,
            Some(b'L' | b'[') => Ty::Ref,
            _ => Ty::Unknown,
        }
    }

    /// The type an opcode family works on, from its offset in the
    /// `i, l, f, d, a` order of the JVMS.
    fn of_family(k: u8) -> Ty {
        [Ty::Int, Ty::Long, Ty::Float, Ty::Double, Ty::Ref].get(usize::from(k)).copied().unwrap_or(Ty::Unknown)
    }

    fn is_wide(self) -> bool {
        matches!(self, Ty::Long | Ty::Double)
    }
}

/// A symbolic stack value.
#[derive(Debug, Clone)]
struct Expr {
    text: String,
    /// Whether the text needs no parentheses as an operand.
    atomic: bool,
    ty: Ty,
    int: Option<i64>,
    /// Operands of an `lcmp`/`fcmpx`/`dcmpx` result.
    cmp: Option<Box<(Expr, Expr)>>,
}

impl Expr {
    fn atom(text: impl Into<String>, ty: Ty) -> Expr {
        Expr { text: text.into(), atomic: true, ty, int: None, cmp: None }
    }

    fn int(v: i64) -> Expr {
        Expr { int: Some(v), ..Expr::atom(v.to_string(), Ty::Int) }
    }

    fn unknown() -> Expr {
        Expr::atom("?", Ty::Unknown)
    }

    fn compound(text: String, ty: Ty) -> Expr {
        Expr { atomic: false, ..Expr::atom(text, ty) }
    }

    /// The text as an operand of a binary operator or member access.
    fn operand(&self) -> String {
        if self.atomic { self.text.clone() } else { format!("({})", self.text) }
    }

    /// The text compared with `other`: an int constant compared with a char
    /// prints as a char literal.
    fn against(&self, other: &Expr) -> String {
        match (self.int, other.ty) {
            (Some(v), Ty::Char) => char_literal(v).unwrap_or_else(|| self.operand()),
            _ => self.operand(),
        }
    }
}

/// The condition under which the conditional jump ending `block` is taken;
/// `block` holds the block's instructions, the jump last.
pub(crate) fn condition_text(ctx: &MethodContext<'_>, block: &[Insn]) -> String {
    let Some((jump, body)) = block.split_last() else { return "?".to_string() };
    let mut stack = simulate(ctx, body);
    let mut pop = || stack.pop().unwrap_or_else(Expr::unknown);
    let relation = |o: u8| ["==", "!=", "<", ">=", ">", "<="][usize::from(o % 6)];
    match jump.opcode {
        op::IFEQ..=op::IFLE => {
            let v = pop();
            let rel = relation(jump.opcode - op::IFEQ);
            match (&v.cmp, v.ty, jump.opcode) {
                (Some(ab), _, _) => binary(&ab.0, rel, &ab.1),
                (None, Ty::Bool, op::IFEQ) => format!("!{}", v.operand()),
                (None, Ty::Bool, op::IFNE) => v.text.clone(),
                (None, _, _) => binary(&v, rel, &Expr::int(0)),
            }
        }
        op::IF_ICMPEQ..=op::IF_ACMPNE => {
            let b = pop();
            let a = pop();
            binary(&a, relation(jump.opcode - op::IF_ICMPEQ), &b)
        }
        op::IFNULL => format!("{} == null", pop().operand()),
        op::IFNONNULL => format!("{} != null", pop().operand()),
        _ => "?".to_string(),
    }
}

/// The switched-on value of the switch ending `block`.
pub(crate) fn switch_operand_text(ctx: &MethodContext<'_>, block: &[Insn]) -> String {
    let Some((_, body)) = block.split_last() else { return "?".to_string() };
    simulate(ctx, body).pop().map_or_else(|| "?".to_string(), |e| e.text)
}

fn binary(a: &Expr, rel: &str, b: &Expr) -> String {
    format!("{} {rel} {}", a.against(b), b.against(a))
}

fn char_literal(v: i64) -> Option<String> {
    let c = char::from_u32(u32::try_from(v).ok()?)?;
    match c {
        '\'' => Some("'\\''".to_string()),
        '\\' => Some("'\\\\'".to_string()),
        '\n' => Some("'\\n'".to_string()),
        '\r' => Some("'\\r'".to_string()),
        '\t' => Some("'\\t'".to_string()),
        ' '..='~' => Some(format!("'{c}'")),
        _ => None,
    }
}

/// Runs the instructions symbolically; unknown effects clear the stack.
fn simulate(ctx: &MethodContext<'_>, insns: &[Insn]) -> Vec<Expr> {
    let mut stack: Vec<Expr> = Vec::new();
    for insn in insns {
        if !step(ctx, insn, &mut stack) {
            stack.clear();
        }
    }
    stack
}

/// One instruction; `false` when its effect is not modelled.
fn step(ctx: &MethodContext<'_>, insn: &Insn, stack: &mut Vec<Expr>) -> bool {
    let o = insn.opcode;
    match o {
        op::NOP | op::IINC => {}
        op::ACONST_NULL => stack.push(Expr::atom("null", Ty::Ref)),
        op::ICONST_M1..=op::ICONST_5 => stack.push(Expr::int(i64::from(o) - i64::from(op::ICONST_0))),
        op::LCONST_0 | op::LCONST_1 => stack.push(Expr::atom(format!("{}L", o - op::LCONST_0), Ty::Long)),
        op::FCONST_0..=op::FCONST_2 => stack.push(Expr::atom(format!("{}.0f", o - op::FCONST_0), Ty::Float)),
        op::DCONST_0 | op::DCONST_1 => stack.push(Expr::atom(format!("{}.0", o - op::DCONST_0), Ty::Double)),
        op::BIPUSH | op::SIPUSH => stack.push(match insn.operand {
            Operand::Int(v) => Expr::int(i64::from(v)),
            _ => Expr::unknown(),
        }),
        op::LDC..=op::LDC2_W => stack.push(ldc(ctx.cp, insn)),
        op::ILOAD..=op::ALOAD_3 => stack.push(load(ctx, insn)),
        op::IALOAD..=op::SALOAD => {
            let index = stack.pop().unwrap_or_else(Expr::unknown);
            let array = stack.pop().unwrap_or_else(Expr::unknown);
            let ty = [Ty::Int, Ty::Long, Ty::Float, Ty::Double, Ty::Ref, Ty::Int, Ty::Char, Ty::Int]
                [usize::from(o - op::IALOAD)];
            stack.push(Expr::atom(format!("{}[{}]", array.operand(), index.text), ty));
        }
        op::ISTORE..=op::ASTORE_3 | op::POP | op::MONITORENTER | op::MONITOREXIT | op::PUTSTATIC => {
            stack.pop();
        }
        op::IASTORE..=op::SASTORE => {
            stack.truncate(stack.len().saturating_sub(3));
        }
        op::PUTFIELD => {
            stack.truncate(stack.len().saturating_sub(2));
        }
        op::POP2 => {
            if stack.pop().is_some_and(|e| !e.ty.is_wide()) {
                stack.pop();
            }
        }
        op::DUP..=op::SWAP => return shuffle(o, stack),
        op::IADD..=op::LXOR => arithmetic(o, stack),
        op::I2L..=op::I2S => {
            let ty = match o {
                op::I2L | op::F2L | op::D2L => Ty::Long,
                op::I2F | op::L2F | op::D2F => Ty::Float,
                op::I2D | op::L2D | op::F2D => Ty::Double,
                op::I2C => Ty::Char,
                _ => Ty::Int,
            };
            let mut v = stack.pop().unwrap_or_else(Expr::unknown);
            v.ty = ty;
            stack.push(v);
        }
        op::LCMP..=op::DCMPG => {
            let b = stack.pop().unwrap_or_else(Expr::unknown);
            let a = stack.pop().unwrap_or_else(Expr::unknown);
            let mut e = Expr::compound(format!("{} <=> {}", a.operand(), b.operand()), Ty::Int);
            e.cmp = Some(Box::new((a, b)));
            stack.push(e);
        }
        op::GETSTATIC | op::GETFIELD => field(ctx, insn, stack),
        op::INVOKEVIRTUAL..=op::INVOKEDYNAMIC => invoke(ctx, insn, stack),
        op::NEW..=op::ARRAYLENGTH | op::CHECKCAST | op::INSTANCEOF => object_op(ctx, insn, stack),
        _ => return false,
    }
    true
}

/// `new`, `newarray`, `anewarray`, `arraylength`, `checkcast`, `instanceof`.
fn object_op(ctx: &MethodContext<'_>, insn: &Insn, stack: &mut Vec<Expr>) {
    match insn.opcode {
        op::NEW => stack.push(Expr::atom(format!("new {}", class_simple_name(ctx, insn)), Ty::Ref)),
        op::NEWARRAY | op::ANEWARRAY => {
            let n = stack.pop().unwrap_or_else(Expr::unknown);
            let element = match insn.operand {
                Operand::NewArray(t) => newarray_type(t).to_string(),
                _ => class_simple_name(ctx, insn),
            };
            stack.push(Expr::atom(format!("new {element}[{}]", n.text), Ty::Ref));
        }
        op::ARRAYLENGTH => {
            let a = stack.pop().unwrap_or_else(Expr::unknown);
            stack.push(Expr::atom(format!("{}.length", a.operand()), Ty::Int));
        }
        op::CHECKCAST => {}
        op::INSTANCEOF => {
            let v = stack.pop().unwrap_or_else(Expr::unknown);
            let text = format!("{} instanceof {}", v.operand(), class_simple_name(ctx, insn));
            stack.push(Expr::compound(text, Ty::Bool));
        }
        _ => {}
    }
}

fn shuffle(o: u8, stack: &mut Vec<Expr>) -> bool {
    let n = stack.len();
    let wide_top = stack.last().is_some_and(|e| e.ty.is_wide());
    match o {
        op::DUP if n >= 1 => stack.push(stack[n - 1].clone()),
        op::DUP_X1 if n >= 2 => stack.insert(n - 2, stack[n - 1].clone()),
        op::DUP2 if wide_top => stack.push(stack[n - 1].clone()),
        op::DUP2 if n >= 2 => stack.extend_from_within(n - 2..),
        op::SWAP if n >= 2 => stack.swap(n - 1, n - 2),
        _ => return false,
    }
    true
}

fn arithmetic(o: u8, stack: &mut Vec<Expr>) {
    let ty = Ty::of_family((o - op::IADD) % 4);
    match o {
        op::INEG..=op::DNEG => {
            let v = stack.pop().unwrap_or_else(Expr::unknown);
            stack.push(Expr::compound(format!("-{}", v.operand()), ty));
        }
        _ => {
            let symbol = match o {
                op::IADD..=op::DADD => "+",
                op::ISUB..=op::DSUB => "-",
                op::IMUL..=op::DMUL => "*",
                op::IDIV..=op::DDIV => "/",
                op::IREM..=op::DREM => "%",
                op::ISHL | op::LSHL => "<<",
                op::ISHR | op::LSHR => ">>",
                op::IUSHR | op::LUSHR => ">>>",
                op::IAND | op::LAND => "&",
                op::IOR | op::LOR => "|",
                _ => "^",
            };
            let ty = if o >= op::ISHL { if (o - op::ISHL).is_multiple_of(2) { Ty::Int } else { Ty::Long } } else { ty };
            let b = stack.pop().unwrap_or_else(Expr::unknown);
            let a = stack.pop().unwrap_or_else(Expr::unknown);
            stack.push(Expr::compound(format!("{} {symbol} {}", a.operand(), b.operand()), ty));
        }
    }
}

fn ldc(cp: &ConstantPool, insn: &Insn) -> Expr {
    let Some(c) = cp_index(insn).and_then(|i| cp.get(i).ok()) else { return Expr::unknown() };
    match c {
        Constant::Integer(v) => Expr::int(i64::from(*v)),
        Constant::Long(v) => Expr::atom(format!("{v}L"), Ty::Long),
        Constant::Float(bits) => Expr::atom(float_text(f64::from(f32::from_bits(*bits)), "Float", "f"), Ty::Float),
        Constant::Double(bits) => Expr::atom(float_text(f64::from_bits(*bits), "Double", ""), Ty::Double),
        Constant::String(i) => Expr::atom(string_literal(cp.utf8(*i).unwrap_or("?")), Ty::Ref),
        Constant::Class(_) => {
            let name = cp_index(insn).and_then(|i| cp.class_name(i).ok()).unwrap_or("?");
            Expr::atom(format!("{}.class", simple_name(name)), Ty::Ref)
        }
        _ => Expr::unknown(),
    }
}

fn float_text(v: f64, class: &str, suffix: &str) -> String {
    if v.is_nan() {
        format!("{class}.NaN")
    } else if v.is_infinite() {
        format!("{class}.{}_INFINITY", if v > 0.0 { "POSITIVE" } else { "NEGATIVE" })
    } else {
        format!("{v:?}{suffix}")
    }
}

/// A Java string literal, shortened to 40 characters.
fn string_literal(s: &str) -> String {
    let mut out = String::from("\"");
    for (i, c) in s.chars().enumerate() {
        if i == 40 {
            out.push_str("...");
            break;
        }
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn load(ctx: &MethodContext<'_>, insn: &Insn) -> Expr {
    let slot = local_index(insn).unwrap_or(0);
    let family = match insn.opcode {
        op::ILOAD..=op::ALOAD => insn.opcode - op::ILOAD,
        o => (o - op::ILOAD_0) / 4,
    };
    if let Some(l) = ctx.locals.iter().find(|l| l.slot == slot && l.start <= insn.bci && insn.bci < l.end) {
        return Expr::atom(l.name.clone(), Ty::of_descriptor(&l.descriptor));
    }
    let receiver_slots = u16::from(!ctx.is_static);
    if slot == 0 && !ctx.is_static {
        return Expr::atom("this", Ty::Ref);
    }
    let mut next = receiver_slots;
    for (i, p) in ctx.params.iter().enumerate() {
        if next == slot {
            return Expr::atom(format!("arg{}", i + 1), Ty::of_descriptor(p));
        }
        next += if Ty::of_descriptor(p).is_wide() { 2 } else { 1 };
    }
    Expr::atom(format!("local{slot}"), Ty::of_family(family))
}

fn field(ctx: &MethodContext<'_>, insn: &Insn, stack: &mut Vec<Expr>) {
    let Some(m) = member(ctx.cp, insn) else {
        stack.push(Expr::unknown());
        return;
    };
    let owner = if insn.opcode == op::GETSTATIC {
        simple_name(m.owner).to_string()
    } else {
        stack.pop().unwrap_or_else(Expr::unknown).operand()
    };
    stack.push(Expr::atom(format!("{owner}.{}", m.name), Ty::of_descriptor(m.descriptor)));
}

fn invoke(ctx: &MethodContext<'_>, insn: &Insn, stack: &mut Vec<Expr>) {
    let (name, descriptor, owner) = match insn.operand {
        Operand::InvokeDynamic { index } => match ctx.cp.get(index) {
            Ok(Constant::InvokeDynamic { name_and_type, .. }) => match ctx.cp.name_and_type(*name_and_type) {
                Ok((n, d)) => (n, d, None),
                Err(_) => ("?", "()V", None),
            },
            _ => ("?", "()V", None),
        },
        _ => match member(ctx.cp, insn) {
            Some(m) => (m.name, m.descriptor, Some(m.owner)),
            None => ("?", "()V", None),
        },
    };
    let (params, ret) = split_descriptor(descriptor);
    let split = stack.len().saturating_sub(params.len());
    let mut args: Vec<String> = stack.split_off(split).iter().map(|e| e.text.clone()).collect();
    args.resize(params.len(), "?".to_string());
    let args = args.join(", ");
    let text = match (insn.opcode, owner) {
        (op::INVOKESTATIC, Some(owner)) => format!("{}.{name}({args})", simple_name(owner)),
        (op::INVOKEDYNAMIC, _) | (_, None) => format!("{name}({args})"),
        (_, Some(_)) => {
            let receiver = stack.pop().unwrap_or_else(Expr::unknown);
            if name == "<init>" {
                // `new T; dup; args; invokespecial <init>` leaves the copy of `new T`.
                if let Some(top) = stack.last_mut().filter(|t| t.text == receiver.text && t.text.starts_with("new ")) {
                    top.text = format!("{}({args})", receiver.text);
                }
                return;
            }
            format!("{}.{name}({args})", receiver.operand())
        }
    };
    if ret != "V" {
        stack.push(Expr::atom(text, Ty::of_descriptor(ret)));
    }
}

fn class_simple_name(ctx: &MethodContext<'_>, insn: &Insn) -> String {
    let name = cp_index(insn).and_then(|i| ctx.cp.class_name(i).ok()).unwrap_or("?");
    match name.strip_prefix('[') {
        Some(_) => name.to_string(),
        None => simple_name(name).to_string(),
    }
}

fn newarray_type(atype: u8) -> &'static str {
    match atype {
        4 => "boolean",
        5 => "char",
        6 => "float",
        7 => "double",
        8 => "byte",
        9 => "short",
        10 => "int",
        11 => "long",
        _ => "?",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::bytecode::decode;

    fn render(code: &[u8], is_static: bool, params: &[&str], cp: &ConstantPool) -> String {
        let ctx =
            MethodContext { cp, is_static, params: params.iter().map(|s| s.to_string()).collect(), locals: vec![] };
        // A `return` after the jump gives its target (bci = code length) an instruction.
        let mut code = code.to_vec();
        code.push(0xb1);
        let insns = decode(&code).unwrap();
        condition_text(&ctx, &insns[..insns.len() - 1])
    }

    #[test]
    fn int_comparisons_render_the_jvm_condition() {
        let cp = ConstantPool::default();
        // iload_0; iload_1; if_icmpge
        assert_eq!(render(&[0x1a, 0x1b, 0xa2, 0, 3], true, &["I", "I"], &cp), "arg1 >= arg2");
        // iload_0; ifle
        assert_eq!(render(&[0x1a, 0x9e, 0, 3], true, &["I"], &cp), "arg1 <= 0");
        // iload_0 (boolean); ifeq
        assert_eq!(render(&[0x1a, 0x99, 0, 3], true, &["Z"], &cp), "!arg1");
        // aload_0; ifnonnull
        assert_eq!(render(&[0x2a, 0xc7, 0, 3], false, &[], &cp), "this != null");
    }

    #[test]
    fn comparisons_after_lcmp_show_the_operands() {
        let cp = ConstantPool::default();
        // lload_0; lload_2; lcmp; ifge
        assert_eq!(render(&[0x1e, 0x20, 0x94, 0x9c, 0, 3], true, &["J", "J"], &cp), "arg1 >= arg2");
        // dload_0; dconst_1; dcmpg; ifne
        assert_eq!(render(&[0x26, 0x0f, 0x98, 0x9a, 0, 3], true, &["D"], &cp), "arg1 != 1.0");
    }

    #[test]
    fn char_constants_print_as_char_literals() {
        let cp = ConstantPool::default();
        // iload_0 (char); bipush 97; if_icmplt
        assert_eq!(render(&[0x1a, 0x10, 97, 0xa1, 0, 3], true, &["C"], &cp), "arg1 < 'a'");
        // arithmetic is parenthesised: iload_0; iconst_1; iadd; iload_1; if_icmpne
        assert_eq!(render(&[0x1a, 0x04, 0x60, 0x1b, 0xa0, 0, 3], true, &["I", "I"], &cp), "(arg1 + 1) != arg2");
    }

    #[test]
    fn values_from_before_the_block_are_question_marks() {
        let cp = ConstantPool::default();
        // ifeq with an empty stack
        assert_eq!(render(&[0x99, 0, 3], true, &[], &cp), "? == 0");
    }
}
