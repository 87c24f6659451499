//! Concolic replay of a whole test case (TECHNIQUES.md §5 step 1): the
//! test's statements run in the replay ([`crate::replay`]) in order, with
//! the test's primitive and boxed literals, the lengths and elements of the
//! arrays it makes, and the lengths and characters of its strings as
//! symbols, and the objects it builds from the replayed classes (the class
//! under test and its nested classes) in the replay's heap; and a model of
//! the solver written back into a copy of the test ([`write_back`]).
//!
//! Values the replay cannot look into (objects of other classes, lambdas,
//! class literals, files) are opaque: passing them on is fine, calling them
//! stops the replay. The first statement the replay cannot run ends it; the
//! path condition up to there is kept ([`crate::replay::Replay::stopped`]).

use std::collections::BTreeMap;

use model::bytecode::op;
use model::descriptor::{BaseType, FieldType};
use testcase::ir::{Primitive, Statement, StatementKind};
use testcase::{TestCase, VarId};

use crate::expr::{Conv, Expr, Value};
use crate::path::{Clause, Rel};
use crate::replay::{Classes, Concrete, Machine, Object, Replay, SiteTable, Slot, Source, number};
use exec::ValueLog;

/// Arrays and strings longer than this get no symbols (their values stay concrete).
pub const MAX_SYMBOLIC_LENGTH: usize = 64;

/// Replays `test` over `classes`; [`Replay::result`] is the value of the
/// last statement run when it is a number.
pub fn replay_test(classes: &Classes, test: &TestCase) -> Replay {
    replay_test_with(classes, test, None)
}

/// [`replay_test`] with the value log of the test's run on the JVM and the
/// sites it was logged at: calls into classes that are not replayed go on
/// with their logged results ([`crate::replay::SiteTable`]).
pub fn replay_test_with(classes: &Classes, test: &TestCase, log: Option<(&ValueLog, &SiteTable)>) -> Replay {
    let mut m = Machine::new(classes);
    if let Some((values, sites)) = log {
        m = m.with_log(values, sites);
    }
    let mut vars: Vec<Slot> = Vec::with_capacity(test.len());
    let shared = shared_literals(test);
    for i in 0..test.len() {
        match m.statement(i, test, &shared, &vars) {
            Ok(slot) => {
                m.out.result = crate::replay::prim(&slot);
                vars.push(slot);
            }
            Err(why) => {
                m.out.stopped = Some(format!("statement {i}: {why}"));
                break;
            }
        }
    }
    m.out
}

/// Per statement: whether it is a primitive literal used more than once.
fn shared_literals(test: &TestCase) -> Vec<bool> {
    let mut uses = vec![0usize; test.len()];
    for s in &test.statements {
        for v in s.kind.uses() {
            if let Some(n) = uses.get_mut(v.index()) {
                *n += 1;
            }
        }
    }
    test.statements.iter().zip(uses).map(|(s, n)| matches!(s.kind, StatementKind::Primitive(_)) && n > 1).collect()
}

/// The computational type and value of a literal.
fn literal(p: Primitive) -> Value {
    match p {
        Primitive::Boolean(b) => Value::Int(i32::from(b)),
        Primitive::Byte(v) => Value::Int(i32::from(v)),
        Primitive::Short(v) => Value::Int(i32::from(v)),
        Primitive::Char(v) => Value::Int(i32::from(v)),
        Primitive::Int(v) => Value::Int(v),
        Primitive::Long(v) => Value::Long(v),
        Primitive::Float(v) => Value::Float(v),
        Primitive::Double(v) => Value::Double(v),
    }
}

/// The literal of type `base` with value `v` (narrowed as a cast would).
fn primitive(base: BaseType, v: Value) -> Option<Primitive> {
    Some(match (base, v) {
        (BaseType::Boolean, Value::Int(x)) => Primitive::Boolean(x != 0),
        (BaseType::Byte, Value::Int(x)) => Primitive::Byte(x as i8),
        (BaseType::Short, Value::Int(x)) => Primitive::Short(x as i16),
        (BaseType::Char, Value::Int(x)) => Primitive::Char(x as u16),
        (BaseType::Int, Value::Int(x)) => Primitive::Int(x),
        (BaseType::Long, Value::Long(x)) => Primitive::Long(x),
        (BaseType::Float, Value::Float(x)) => Primitive::Float(x),
        (BaseType::Double, Value::Double(x)) => Primitive::Double(x),
        _ => return None,
    })
}

/// The range of a narrow type's values: (least, greatest).
pub(crate) fn range(base: BaseType) -> Option<(i32, i32)> {
    match base {
        BaseType::Boolean => Some((0, 1)),
        BaseType::Byte => Some((i32::from(i8::MIN), i32::from(i8::MAX))),
        BaseType::Short => Some((i32::from(i16::MIN), i32::from(i16::MAX))),
        BaseType::Char => Some((0, i32::from(u16::MAX))),
        _ => None,
    }
}

impl Machine<'_> {
    /// A symbol whose values are limited to `lo..=hi` (domain clauses).
    pub(crate) fn bounded(&mut self, value: Value, source: Source, bounds: Option<(i32, i32)>) -> Expr {
        let sym = self.symbol(value.jtype(), value, source);
        if let Some((lo, hi)) = bounds {
            let c = |v: i32| Expr::Const(Value::Int(v));
            self.out.domains.push(Clause::new(sym.clone(), Rel::Ge, c(lo)));
            self.out.domains.push(Clause::new(sym.clone(), Rel::Le, c(hi)));
        }
        sym
    }

    /// The value of use `j` of statement `i`, `v`: a literal used more than
    /// once gets a symbol of its own for each use, so that the solver may
    /// give the uses different values ([`Source::Use`]).
    fn use_of(
        &mut self,
        (i, j): (usize, usize),
        v: VarId,
        test: &TestCase,
        shared: &[bool],
        vars: &[Slot],
    ) -> Result<Slot, String> {
        if self.unknown.contains(&v.index()) {
            return Err(format!("the number statement {} returned is not known", v.index()));
        }
        let slot = vars.get(v.index()).cloned().ok_or("a later value")?;
        match &test.statements[v.index()].kind {
            StatementKind::Primitive(p) if shared[v.index()] => {
                let value = literal(*p);
                let sym = self.bounded(value, Source::Use(i, j), range(p.base_type()));
                Ok(Slot { value: Concrete::Prim(value), sym: Some(sym) })
            }
            _ => Ok(slot),
        }
    }

    /// Runs statement `i` of `test`; the value it defines (`null` for none).
    fn statement(&mut self, i: usize, test: &TestCase, shared: &[bool], vars: &[Slot]) -> Result<Slot, String> {
        let s = &test.statements[i];
        let uses: Vec<VarId> = s.kind.uses().collect();
        let mut used = Vec::with_capacity(uses.len());
        for (j, v) in uses.iter().enumerate() {
            used.push(self.use_of((i, j), *v, test, shared, vars)?);
        }
        let null = || Slot { value: Concrete::Null, sym: None };
        Ok(match &s.kind {
            StatementKind::Primitive(p) => {
                let v = literal(*p);
                Slot { value: Concrete::Prim(v), sym: Some(self.bounded(v, Source::Param(i), range(p.base_type()))) }
            }
            StatementKind::Boxed(p) => {
                let v = literal(*p);
                let sym = self.bounded(v, Source::Param(i), range(p.base_type()));
                let class = testcase::ir::box_class(p.base_type()).as_str().to_string();
                self.alloc(Object::Boxed { class, value: Slot { value: Concrete::Prim(v), sym: Some(sym) } })
            }
            StatementKind::String(text) => self.symbolic_string(i, text),
            StatementKind::Null(_) => null(),
            StatementKind::NewArray { elem, length } => {
                let n = crate::replay::step::array_length(i32::try_from(*length).unwrap_or(i32::MAX))?;
                self.symbolic_array(i, elem, n)
            }
            StatementKind::ArrayStore { index, .. } => {
                let Concrete::Ref(r) = used[0].value else { return Err("NullPointerException".into()) };
                let Object::Array { items, .. } = &mut self.heap[r] else { return Err("not an array".into()) };
                *items.get_mut(*index as usize).ok_or("ArrayIndexOutOfBoundsException")? = used[1].clone();
                null()
            }
            StatementKind::Constructor { method, .. } => {
                let owner = method.owner.to_internal();
                if self.runnable(owner.as_str()).is_none() {
                    return Ok(self.alloc(Object::Opaque { class: owner.as_str().to_string() }));
                }
                let object = self.new_instance(owner.as_str())?;
                let mut all = vec![object.clone()];
                all.extend(used);
                self.invoke(op::INVOKESPECIAL, owner.as_str(), "<init>", &method.descriptor.to_descriptor(), all)?;
                object
            }
            StatementKind::StaticCall { method, .. } | StatementKind::Call { method, .. } => {
                let o = if matches!(s.kind, StatementKind::Call { .. }) { op::INVOKEVIRTUAL } else { op::INVOKESTATIC };
                let owner = method.owner.to_internal();
                let mark = self.mark();
                match self.invoke(o, owner.as_str(), &method.name, &method.descriptor.to_descriptor(), used) {
                    Ok(result) => result.unwrap_or_else(null),
                    // A replayed method that failed half-way left a partial path: stop.
                    Err(why) if self.ran_since(mark) => return Err(why),
                    Err(_) => self.opaque_result(i, method.descriptor.ret.as_ref()),
                }
            }
            StatementKind::FieldGet { receiver, field } => {
                let descriptor = field.ty.to_descriptor();
                match receiver {
                    None => self.read_static(field.owner.to_internal().as_str(), &field.name, &descriptor)?,
                    Some(_) => match self.get_field(&used[0], &field.name, &descriptor) {
                        Ok(value) => value,
                        Err(_) => self.opaque_result(i, Some(&field.ty)),
                    },
                }
            }
            StatementKind::FieldSet { receiver, field, .. } => {
                let value = used.last().cloned().ok_or("no value")?;
                match receiver {
                    None => self.write_static(field.owner.to_internal().as_str(), &field.name, value)?,
                    Some(_) => self.put_field(&used[0], &field.name, value)?,
                }
                null()
            }
            StatementKind::EnumConstant { class, name } => {
                let owner = class.to_internal().as_str().to_string();
                if self.runnable(&owner).is_none() {
                    return Ok(self.alloc(Object::Opaque { class: owner }));
                }
                self.read_static(&owner, name, &format!("L{owner};"))?
            }
            StatementKind::ClassLiteral(_)
            | StatementKind::Reflect(_)
            | StatementKind::Lambda { .. }
            | StatementKind::Mock { .. }
            | StatementKind::TempFile(_)
            | StatementKind::TempDir(_) => {
                let class = s.kind.value_type().and_then(|t| t.to_internal_name());
                self.alloc(Object::Opaque { class: class.map_or_else(String::new, |c| c.as_str().to_string()) })
            }
        })
    }

    /// The result of statement `i`, a call the replay cannot run: an
    /// opaque object when it is a reference, `null` for `void`; a number is
    /// unknown, and a later statement that uses it stops the replay.
    fn opaque_result(&mut self, i: usize, ret: Option<&FieldType>) -> Slot {
        match ret {
            None => Slot { value: Concrete::Null, sym: None },
            Some(FieldType::Base(_)) => {
                self.unknown.insert(i);
                Slot { value: Concrete::Null, sym: None }
            }
            Some(t) => {
                let class = t.to_internal_name().map_or_else(String::new, |c| c.as_str().to_string());
                self.alloc(Object::Opaque { class })
            }
        }
    }

    fn symbolic_string(&mut self, i: usize, text: &str) -> Slot {
        let units: Vec<u16> = text.encode_utf16().collect();
        if units.len() > MAX_SYMBOLIC_LENGTH {
            return self.string(text);
        }
        let length =
            self.bounded(Value::Int(units.len() as i32), Source::Length(i), Some((0, MAX_SYMBOLIC_LENGTH as i32)));
        let chars = units
            .iter()
            .enumerate()
            .map(|(j, c)| {
                let v = Value::Int(i32::from(*c));
                let sym = self.bounded(v, Source::Char(i, j), range(BaseType::Char));
                Slot { value: Concrete::Prim(v), sym: Some(sym) }
            })
            .collect();
        self.own_symbols(i);
        self.alloc(Object::Str { chars, length: Some(length) })
    }

    fn symbolic_array(&mut self, i: usize, elem: &FieldType, n: usize) -> Slot {
        let FieldType::Base(base) = elem else {
            let items = vec![Slot { value: Concrete::Null, sym: None }; n];
            return self.alloc(Object::Array { narrow: None, items, length: None });
        };
        let zero = literal(Primitive::zero(*base));
        if n > MAX_SYMBOLIC_LENGTH {
            return self.alloc(Object::Array { narrow: None, items: vec![number(zero); n], length: None });
        }
        let length = self.bounded(Value::Int(n as i32), Source::Length(i), Some((0, MAX_SYMBOLIC_LENGTH as i32)));
        let items = (0..n)
            .map(|j| Slot {
                value: Concrete::Prim(zero),
                sym: Some(self.bounded(zero, Source::Element(i, j), range(*base))),
            })
            .collect();
        self.own_symbols(i);
        let narrow = match base {
            BaseType::Boolean | BaseType::Byte => Some(Conv::I2B),
            BaseType::Char => Some(Conv::I2C),
            BaseType::Short => Some(Conv::I2S),
            _ => None,
        };
        self.alloc(Object::Array { narrow, items, length: Some(length) })
    }

    /// Marks the symbols of statement `i` made so far as parts of one object.
    fn own_symbols(&mut self, i: usize) {
        let ids: Vec<u32> = self
            .out
            .symbols
            .iter()
            .filter(
                |(_, (_, _, s))| matches!(s, Source::Length(n) | Source::Char(n, _) | Source::Element(n, _) if *n == i),
            )
            .map(|(id, _)| *id)
            .collect();
        for id in ids {
            self.out.path.owner.insert(id, i as u32);
        }
    }
}

/// `test` with the model's values written in: literals changed, array
/// lengths changed (stores past the end removed), array elements no literal
/// was stored in stored from new literals, strings rebuilt. Values the
/// model does not change are left alone.
pub fn write_back(test: &TestCase, replay: &Replay, model: &BTreeMap<u32, Value>) -> TestCase {
    let mut out = test.clone();
    let mut changes: Vec<(Source, Value)> = model
        .iter()
        .filter_map(|(id, v)| {
            let (_, old, source) = replay.symbols.get(id)?;
            (!old.same(*v) && !source.is_logged()).then_some((*source, *v))
        })
        .collect();
    // Lengths before elements, later statements before earlier ones (inserting shifts what follows).
    changes.sort_by_key(|(s, _)| {
        let (n, rank) = match s {
            Source::Param(n) | Source::Char(n, _) | Source::Use(n, _) => (*n, 0),
            Source::Length(n) => (*n, 1),
            Source::Element(n, _) => (*n, 2),
            Source::Logged { .. } => (usize::MAX, 3),
        };
        (std::cmp::Reverse(n), rank)
    });
    for (source, v) in changes {
        apply(&mut out, source, v);
    }
    out
}

/// One change of [`write_back`].
fn apply(test: &mut TestCase, source: Source, v: Value) {
    if let Source::Use(k, j) = source {
        return untie(test, k, j, v);
    }
    let Some(Statement { kind, .. }) = test.statements.get_mut(source_statement(source)) else { return };
    match (source, kind) {
        (Source::Param(_), StatementKind::Primitive(p) | StatementKind::Boxed(p)) => {
            if let Some(new) = primitive(p.base_type(), v) {
                *p = new;
            }
        }
        (Source::Char(_, j), StatementKind::String(text)) => {
            let mut units: Vec<u16> = text.encode_utf16().collect();
            if let (Some(unit), Value::Int(c)) = (units.get_mut(j), v) {
                *unit = c as u16;
            }
            *text = String::from_utf16_lossy(&units);
        }
        (Source::Length(_), StatementKind::String(text)) => {
            let mut units: Vec<u16> = text.encode_utf16().collect();
            if let Value::Int(n) = v {
                units.resize(n.clamp(0, MAX_SYMBOLIC_LENGTH as i32) as usize, u16::from(b'a'));
            }
            *text = String::from_utf16_lossy(&units);
        }
        (Source::Length(n), StatementKind::NewArray { length, .. }) => {
            let Value::Int(new) = v else { return };
            *length = new.clamp(0, MAX_SYMBOLIC_LENGTH as i32) as u32;
            let keep = *length;
            let past: Vec<usize> = (n + 1..test.len())
                .rev()
                .filter(|&k| {
                    matches!(&test.statements[k].kind,
                        StatementKind::ArrayStore { array, index, .. } if array.index() == n && *index >= keep)
                })
                .collect();
            for k in past {
                *test = testcase::operators::remove_with_forward_dependencies(test, VarId(k as u32));
            }
        }
        (Source::Element(n, j), StatementKind::NewArray { elem: FieldType::Base(base), length }) => {
            let base = *base;
            if j >= *length as usize {
                return;
            }
            let Some(p) = primitive(base, v) else { return };
            let lit = Statement::new(StatementKind::Primitive(p));
            let value = testcase::operators::insert_statement(test, n + 1, lit);
            let store = Statement::new(StatementKind::ArrayStore { array: VarId(n as u32), index: j as u32, value });
            testcase::operators::insert_statement(test, n + 2, store);
        }
        _ => {}
    }
}

/// Use `j` of statement `k` becomes a new literal of value `v`, inserted before it.
fn untie(test: &mut TestCase, k: usize, j: usize, v: Value) {
    let Some(old) = test.statements.get(k).and_then(|s| s.kind.uses().nth(j)) else { return };
    let StatementKind::Primitive(p) = test.statements[old.index()].kind else { return };
    let Some(new) = primitive(p.base_type(), v) else { return };
    let var = testcase::operators::insert_statement(test, k, Statement::new(StatementKind::Primitive(new)));
    test.statements[k + 1].kind.set_use(j, var);
}

/// The statement a symbol's source names (`usize::MAX` for a logged value, which no statement defines).
fn source_statement(s: Source) -> usize {
    match s {
        Source::Param(n) | Source::Length(n) | Source::Element(n, _) | Source::Char(n, _) | Source::Use(n, _) => n,
        Source::Logged { .. } => usize::MAX,
    }
}

#[cfg(test)]
mod tests {
    use model::descriptor::{BaseType, FieldType};
    use testcase::builder::TestCaseBuilder;
    use testcase::ir::MethodRef;

    use super::*;

    /// `int[] a = new int[3]; a[0] = 5; a[2] = 5; String s = "ab"; C.m(a, s, 5 literal used twice)`.
    fn test() -> TestCase {
        let mut b = TestCaseBuilder::new();
        let array = b.new_array(FieldType::Base(BaseType::Int), 3);
        let five = b.int(5);
        b.array_store(array, 0, five);
        b.array_store(array, 2, five);
        let s = b.string("ab");
        b.static_call(MethodRef::parse("p.C", "m", "([ILjava/lang/String;II)V").unwrap(), &[array, s, five, five]);
        b.build()
    }

    /// A replay whose only symbols are `sources`, each with value 0 (the write-back reads sources only).
    fn replay_of(sources: &[Source]) -> Replay {
        let mut r = Replay::default();
        for (id, s) in sources.iter().enumerate() {
            r.symbols.insert(id as u32, (crate::expr::JType::Int, Value::Int(-99), *s));
        }
        r
    }

    fn text(t: &TestCase) -> Vec<String> {
        t.iter().map(|(v, s)| format!("{v} = {:?}", s.kind)).collect()
    }

    #[test]
    fn a_shorter_array_loses_the_stores_past_its_end_and_an_unstored_element_gets_a_literal() {
        let r = replay_of(&[Source::Length(0), Source::Element(0, 1)]);
        let out = write_back(&test(), &r, &BTreeMap::from([(0, Value::Int(2)), (1, Value::Int(7))]));
        let rows = text(&out);
        assert!(matches!(out.statements[0].kind, StatementKind::NewArray { length: 2, .. }), "{rows:#?}");
        assert!(matches!(out.statements[1].kind, StatementKind::Primitive(Primitive::Int(7))), "{rows:#?}");
        assert!(
            matches!(out.statements[2].kind, StatementKind::ArrayStore { index: 1, value: VarId(1), .. }),
            "{rows:#?}"
        );
        let stores = out.statements.iter().filter(|s| matches!(s.kind, StatementKind::ArrayStore { .. })).count();
        assert_eq!(stores, 2, "a[2] = 5 is gone, a[1] = 7 is new: {rows:#?}");
    }

    #[test]
    fn a_string_changes_length_and_characters_and_a_shared_literal_is_untied() {
        let r = replay_of(&[Source::Length(4), Source::Char(4, 0), Source::Use(5, 3)]);
        let model = BTreeMap::from([(0, Value::Int(4)), (1, Value::Int('x' as i32)), (2, Value::Int(11))]);
        let out = write_back(&test(), &r, &model);
        let rows = text(&out);
        assert!(matches!(&out.statements[4].kind, StatementKind::String(s) if s == "xbaa"), "{rows:#?}");
        assert!(matches!(out.statements[5].kind, StatementKind::Primitive(Primitive::Int(11))), "{rows:#?}");
        let StatementKind::StaticCall { args, .. } = &out.statements[6].kind else { panic!("{rows:#?}") };
        assert_eq!(args, &[VarId(0), VarId(4), VarId(1), VarId(5)], "only the last use is untied: {rows:#?}");
    }
}
