//! Executes one test case through JNI, statement by statement, and reads
//! back the trace, the captured output and the outcome.
//!
//! Type safety: JNI does not check argument types, and a wrong one can
//! crash the JVM. Test cases are validated before they are sent, and the
//! runner still checks every reference argument and receiver with
//! `IsInstanceOf` and null receivers itself, turning violations into the
//! exceptions Java would throw (`ClassCastException`, `NullPointerException`).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use exec::{
    BranchRecord, CapturedOutput, ExceptionInfo, ExecConfig, ExecutionResult, StackFrame, StatementOutcome,
    TestOutcome, Trace, ValueSummary,
};
use model::descriptor::FieldType;
use model::names::BinaryName;
use testcase::{Primitive, Statement, StatementKind, TestCase, VarId};

use crate::handles::{Handles, class_name_for, kind_of};
use crate::jni_raw::{Jni, Kind, Thrown, Typed, Value, jobject, jvalue};
use crate::watchdog::Watch;

/// Why a test stopped before its last statement.
enum Stop {
    Threw(ExceptionInfo),
    Timeout,
    Rejected(String),
}

/// The call a statement makes, to tell direct exceptions from deeper ones.
struct CallSite<'a> {
    owner: &'a str,
    name: &'a str,
}

/// Throwables of a cause chain [`Runner::stopped_by_time_limit`] looks at, the
/// thrown one included (`Throwable.getCause` is `null` at the chain's end).
const CAUSE_DEPTH: usize = 8;

/// Runs test cases on the current (attached) thread.
pub struct Runner {
    jni: Jni,
    h: Handles,
    watch: Arc<Watch>,
    /// Whether a class (internal name) is an inner class, asked once.
    inner: HashMap<String, bool>,
    /// Why this JVM can no longer run tests faithfully: a class whose
    /// static initialiser the watchdog stopped stays erroneous
    /// ([`Runner::take_poisoned`]).
    poisoned: std::cell::Cell<Option<String>>,
    /// Whether the watchdog acted on an earlier test of this JVM: its
    /// interrupt or stop may have broken a class or a call site for good.
    stopped_before: std::cell::Cell<bool>,
    /// The `ExecConfig::restored_statics` whose values this JVM saved, as
    /// the spec passed to `StaticReset.saveFields`.
    saved_statics: Option<String>,
}

impl Runner {
    /// A runner for the calling thread's JNI environment.
    pub fn new(jni: Jni, h: Handles, watch: Arc<Watch>) -> Runner {
        Runner {
            jni,
            h,
            watch,
            inner: HashMap::new(),
            poisoned: Default::default(),
            stopped_before: Default::default(),
            saved_statics: None,
        }
    }

    /// Why the last test's result cannot be trusted and this JVM must be
    /// replaced, if so: a statement threw `NoClassDefFoundError: Could not
    /// initialize class X` because an earlier test's time limit stopped
    /// `X`'s static initialiser (JVMS 5.5: a class whose initialisation
    /// failed is erroneous for the JVM's lifetime). In a fresh JVM the
    /// test would have initialised `X` itself.
    pub fn take_poisoned(&self) -> Option<String> {
        self.poisoned.take()
    }

    /// Executes `test`; never fails: problems are outcomes.
    pub fn run(&mut self, seq: u64, test: &TestCase, config: &ExecConfig) -> ExecutionResult {
        let start = Instant::now();
        let n = test.statements.len();
        self.jni.push_frame(32 + 4 * n as i32);
        self.call_static_void(self.h.known.tracer, self.h.known.tracer_reset);
        let k = &self.h.known;
        let _ = self.jni.set_field(k.sandbox, k.sandbox_back_edges, true, Typed::Int(0).into());
        if let Some((class, field)) = k.mutants {
            let _ = self.jni.set_field(class, field, true, Typed::Int(config.mutant as i32).into());
        }
        if let Some(v) = k.value_log {
            let _ = self.jni.set_field(v.class, v.cap, true, Typed::Int(config.value_log as i32).into());
        }
        self.clear_interrupt();
        self.watch.start(seq, start, config.timeout);
        self.prepare_statics(config);
        let (statements, mut outcome) = self.run_statements(test, config);
        let fired = self.watch.finish();
        if fired && outcome == TestOutcome::Completed {
            outcome = TestOutcome::Timeout;
        }
        if fired {
            self.stopped_before.set(true);
        }
        self.clean_up_after_test();
        let trace = self.read_trace(config);
        let output = self.take_output();
        self.jni.pop_frame();
        ExecutionResult { outcome, statements, trace, output, duration: start.elapsed() }
    }

    fn run_statements(&mut self, test: &TestCase, config: &ExecConfig) -> (Vec<StatementOutcome>, TestOutcome) {
        let n = test.statements.len();
        let mut outcomes = vec![StatementOutcome::NotExecuted; n];
        let mut values: Vec<Option<Value>> = vec![None; n];
        for (i, st) in test.statements.iter().enumerate() {
            match self.statement(st, &values, test) {
                Ok(v) => {
                    outcomes[i] = StatementOutcome::Normal(self.summary(v, config));
                    values[i] = v;
                }
                Err(Stop::Threw(e)) => {
                    let timeout = self.watch.fired();
                    outcomes[i] = StatementOutcome::Threw(e);
                    return (outcomes, if timeout { TestOutcome::Timeout } else { TestOutcome::Completed });
                }
                Err(Stop::Timeout) => return (outcomes, TestOutcome::Timeout),
                Err(Stop::Rejected(reason)) => return (outcomes, TestOutcome::Rejected { reason }),
            }
        }
        (outcomes, TestOutcome::Completed)
    }

    fn statement(&mut self, st: &Statement, values: &[Option<Value>], test: &TestCase) -> Result<Option<Value>, Stop> {
        let jni = self.jni;
        let obj = |l: jobject| Some(Value::object(l));
        match &st.kind {
            StatementKind::Primitive(p) => Ok(Some(primitive(*p))),
            StatementKind::Boxed(p) => self.boxed(*p).map(Some),
            StatementKind::String(s) => {
                let units: Vec<u16> = s.encode_utf16().collect();
                Ok(obj(jni.new_string(&units).map_err(|t| self.threw(t, None))?))
            }
            StatementKind::Null(_) => Ok(obj(std::ptr::null_mut())),
            StatementKind::EnumConstant { class, name } => {
                let owner = class.to_internal();
                let desc = format!("L{};", owner.as_str());
                self.get_static(owner.as_str(), name, &desc, Kind::Object).map(Some)
            }
            StatementKind::ClassLiteral(ty) => self.class_literal(ty.as_ref()).map(obj),
            StatementKind::Reflect(member) => self.reflect(member).map(obj),
            StatementKind::Lambda { interface, body, .. } => self.lambda(values, interface, *body).map(obj),
            StatementKind::Mock { mocked, methods, returns } => self.mock(values, mocked, methods, returns).map(obj),
            StatementKind::TempFile(handle) => self.temp_file(*handle).map(obj),
            StatementKind::TempDir(handle) => self.temp_dir(*handle).map(obj),
            StatementKind::NewArray { elem, length } => self.new_array(elem, *length).map(obj),
            StatementKind::ArrayStore { array, index, value } => {
                self.array_store(values, *array, *index, *value, &array_element_type(test, *array))?;
                Ok(None)
            }
            StatementKind::Constructor { method, args } => {
                let owner = method.owner.to_internal();
                let site = CallSite { owner: method.owner.as_str(), name: "<init>" };
                let class = self.class(owner.as_str())?;
                let ctor = self.method_id(owner.as_str(), "<init>", &method.descriptor.to_descriptor(), false)?;
                let first_is_null = matches!(method.descriptor.params.first(), Some(FieldType::Object(_)))
                    && args.first().is_some_and(|a| self.object(values, *a).is_ok_and(|o| o.is_null()));
                if first_is_null && self.is_inner_class(owner.as_str(), class)? {
                    // `outer.new Inner()` checks `outer` before the call
                    // (JLS 15.9.4); JNI's NewObject does not.
                    return Err(Stop::Threw(npe("enclosing instance is null")));
                }
                let args = self.args(values, args, &method.descriptor.params)?;
                let o = jni.new_object(class, ctor, &args).map_err(|t| self.threw(t, Some(&site)))?;
                Ok(obj(o))
            }
            StatementKind::StaticCall { method, args } => self.invoke(values, None, method, args),
            StatementKind::Call { receiver, method, args } => self.invoke(values, Some(*receiver), method, args),
            StatementKind::FieldGet { receiver, field } => self.field_get(values, *receiver, field),
            StatementKind::FieldSet { receiver, field, value } => {
                self.field_set(values, *receiver, field, *value)?;
                Ok(None)
            }
        }
    }

    /// Whether `class` (internal name `owner`) is an inner class: a member
    /// class without `static`, whose constructors take the enclosing
    /// instance first (`Class.isMemberClass`, `Class.getModifiers`).
    fn is_inner_class(&mut self, owner: &str, class: jobject) -> Result<bool, Stop> {
        if let Some(inner) = self.inner.get(owner) {
            return Ok(*inner);
        }
        let member = self.method_id("java/lang/Class", "isMemberClass", "()Z", false)?;
        let modifiers = self.method_id("java/lang/Class", "getModifiers", "()I", false)?;
        let jni = self.jni;
        let is_member = jni.call_method(class, member, Kind::Boolean, &[]).map_err(|t| self.threw(t, None))?;
        let flags = jni.call_method(class, modifiers, Kind::Int, &[]).map_err(|t| self.threw(t, None))?;
        const STATIC: i32 = 0x0008;
        let inner = matches!(is_member.typed(), Typed::Boolean(true))
            && matches!(flags.typed(), Typed::Int(f) if f & STATIC == 0);
        self.inner.insert(owner.to_string(), inner);
        Ok(inner)
    }

    fn invoke(
        &mut self,
        values: &[Option<Value>],
        receiver: Option<VarId>,
        method: &testcase::MethodRef,
        args: &[VarId],
    ) -> Result<Option<Value>, Stop> {
        if let (Some(r), true) = (receiver, is_read_object(method)) {
            return self.read_object(values, r);
        }
        let owner = method.owner.to_internal();
        let desc = method.descriptor.to_descriptor();
        let site = CallSite { owner: method.owner.as_str(), name: &method.name };
        let kind = method.descriptor.ret.as_ref().map_or(Kind::Void, kind_of);
        let class = self.class(owner.as_str())?;
        let id = self.method_id(owner.as_str(), &method.name, &desc, receiver.is_none())?;
        let recv = match receiver {
            Some(r) => Some(self.receiver(values, r, class)?),
            None => None,
        };
        let args = self.args(values, args, &method.descriptor.params)?;
        let jni = self.jni;
        let result = match recv {
            Some(o) => jni.call_method(o, id, kind, &args),
            None => jni.call_static(class, id, kind, &args),
        };
        let v = result.map_err(|t| self.threw(t, Some(&site)))?;
        Ok((kind != Kind::Void).then_some(v))
    }

    /// `in.readObject()` through `Serial.readObject(in)`
    /// ([`instrument::tracer::SERIAL_READ_OBJECT`]).
    fn read_object(&mut self, values: &[Option<Value>], receiver: VarId) -> Result<Option<Value>, Stop> {
        use instrument::tracer::SERIAL_READ_OBJECT as READ;
        let stream_class = self.class("java/io/ObjectInputStream")?;
        let stream = self.receiver(values, receiver, stream_class)?;
        let class = self.class(READ.owner)?;
        let id = self.method_id(READ.owner, READ.name, READ.descriptor, true)?;
        let site = CallSite { owner: "java.io.ObjectInputStream", name: "readObject" };
        let result = self.jni.call_static(class, id, Kind::Object, &[jvalue { l: stream }]);
        Ok(Some(result.map_err(|t| self.threw(t, Some(&site)))?))
    }

    fn field_get(
        &mut self,
        values: &[Option<Value>],
        receiver: Option<VarId>,
        field: &testcase::FieldRef,
    ) -> Result<Option<Value>, Stop> {
        let owner = field.owner.to_internal();
        let kind = kind_of(&field.ty);
        let Some(r) = receiver else {
            return self.get_static(owner.as_str(), &field.name, &field.ty.to_descriptor(), kind).map(Some);
        };
        let class = self.class(owner.as_str())?;
        let id = self.field_id(owner.as_str(), &field.name, &field.ty.to_descriptor(), false)?;
        let o = self.receiver(values, r, class)?;
        let v = self.jni.get_field(o, id, kind, false).map_err(|t| self.threw(t, None))?;
        Ok(Some(v))
    }

    fn field_set(
        &mut self,
        values: &[Option<Value>],
        receiver: Option<VarId>,
        field: &testcase::FieldRef,
        value: VarId,
    ) -> Result<(), Stop> {
        let owner = field.owner.to_internal();
        let class = self.class(owner.as_str())?;
        let id = self.field_id(owner.as_str(), &field.name, &field.ty.to_descriptor(), receiver.is_none())?;
        let target = match receiver {
            Some(r) => self.receiver(values, r, class)?,
            None => class,
        };
        let v = self.arg(values, value, &field.ty)?;
        self.jni.set_field(target, id, receiver.is_none(), v).map_err(|t| self.threw(t, None))
    }

    fn get_static(&mut self, owner: &str, name: &str, desc: &str, kind: Kind) -> Result<Value, Stop> {
        let class = self.class(owner)?;
        let id = self.field_id(owner, name, desc, true)?;
        self.jni.get_field(class, id, kind, true).map_err(|t| self.threw(t, None))
    }

    fn boxed(&mut self, p: Primitive) -> Result<Value, Stop> {
        let (owner, desc) = box_of(p);
        let class = self.class(owner)?;
        let id = self.method_id(owner, "valueOf", desc, true)?;
        let arg = primitive(p).raw();
        self.jni.call_static(class, id, Kind::Object, &[arg]).map_err(|t| self.threw(t, None))
    }

    /// `T.class`; `void.class` for `None`. Primitive classes are the boxes' `TYPE`.
    fn class_literal(&mut self, ty: Option<&FieldType>) -> Result<jobject, Stop> {
        let owner = match (ty, ty.and_then(class_name_for)) {
            (_, Some(name)) => return self.class(&name),
            (Some(FieldType::Base(b)), None) => box_of(Primitive::zero(*b)).0,
            (None, _) => "java/lang/Void",
            _ => return Err(Stop::Rejected("class literal of an unknown type".into())),
        };
        let class = self.get_static(owner, "TYPE", "Ljava/lang/Class;", Kind::Object)?;
        Ok(class.as_object().unwrap_or(std::ptr::null_mut()))
    }

    /// `Owner.class.getDeclaredMethod(name, params…)`, `getDeclaredConstructor(params…)`
    /// or `getDeclaredField(name)`, as the emitted test looks the member up.
    fn reflect(&mut self, member: &testcase::MemberRef) -> Result<jobject, Stop> {
        let owner = self.class(member.owner().to_internal().as_str())?;
        let (name, params) = match member {
            testcase::MemberRef::Method(m) if m.is_constructor() => (None, Some(&m.descriptor.params)),
            testcase::MemberRef::Method(m) => (Some(m.name.as_str()), Some(&m.descriptor.params)),
            testcase::MemberRef::Field(f) => (Some(f.name.as_str()), None),
        };
        let mut args = Vec::new();
        if let Some(name) = name {
            let units: Vec<u16> = name.encode_utf16().collect();
            args.push(jvalue { l: self.jni.new_string(&units).map_err(|t| self.threw(t, None))? });
        }
        if let Some(params) = params {
            args.push(jvalue { l: self.class_array(params)? });
        }
        let (lookup, desc) = match (name, params) {
            (_, None) => ("getDeclaredField", "(Ljava/lang/String;)Ljava/lang/reflect/Field;"),
            (None, Some(_)) => ("getDeclaredConstructor", "([Ljava/lang/Class;)Ljava/lang/reflect/Constructor;"),
            (Some(_), Some(_)) => {
                ("getDeclaredMethod", "(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;")
            }
        };
        let id = self.method_id("java/lang/Class", lookup, desc, false)?;
        let site = CallSite { owner: "java.lang.Class", name: lookup };
        self.jni.call_method_object(owner, id, &args).map_err(|t| self.threw(t, Some(&site)))
    }

    /// A `Class[]` of the classes of `types`.
    fn class_array(&mut self, types: &[FieldType]) -> Result<jobject, Stop> {
        let element = self.class("java/lang/Class")?;
        let len = i32::try_from(types.len()).unwrap_or(i32::MAX);
        let array = self.jni.new_array(Kind::Object, element, len).map_err(|t| self.threw(t, None))?;
        for (i, ty) in (0..len).zip(types) {
            let class = self.class_literal(Some(ty))?;
            self.jni.array_store(array, i, Value::object(class)).map_err(|t| self.threw(t, None))?;
        }
        Ok(array)
    }

    /// `Lambdas.make(interface, code, value)`: a `Proxy` doing what `body` says.
    fn lambda(
        &mut self,
        values: &[Option<Value>],
        interface: &BinaryName,
        body: testcase::LambdaBody,
    ) -> Result<jobject, Stop> {
        use instrument::tracer::{LAMBDAS_MAKE, lambda_body};
        let (code, value) = match body {
            testcase::LambdaBody::Default => (lambda_body::DEFAULT, std::ptr::null_mut()),
            testcase::LambdaBody::Identity => (lambda_body::IDENTITY, std::ptr::null_mut()),
            testcase::LambdaBody::NaturalOrder => (lambda_body::NATURAL_ORDER, std::ptr::null_mut()),
            testcase::LambdaBody::Returns(var) => (lambda_body::RETURNS, self.as_reference(values, var)?),
        };
        let iface = self.class(interface.to_internal().as_str())?;
        let class = self.class(LAMBDAS_MAKE.owner)?;
        let make = self.method_id(LAMBDAS_MAKE.owner, LAMBDAS_MAKE.name, LAMBDAS_MAKE.descriptor, true)?;
        let args = [jvalue { l: iface }, jvalue { i: code }, jvalue { l: value }];
        self.jni.call_static_object(class, make, &args).map_err(|t| self.threw(t, None))
    }

    /// `Mocks.make(mocked)`, then `Mocks.stub(mock, key, value)` per stub:
    /// a `Proxy` (of an interface) or a Mockito mock (of an abstract class)
    /// answering as a Mockito mock with these stubs.
    fn mock(
        &mut self,
        values: &[Option<Value>],
        mocked: &BinaryName,
        methods: &[testcase::MethodRef],
        returns: &[VarId],
    ) -> Result<jobject, Stop> {
        use instrument::tracer::{MOCKS_MAKE, MOCKS_STUB};
        let mocked = self.class(mocked.to_internal().as_str())?;
        let class = self.class(MOCKS_MAKE.owner)?;
        let make = self.method_id(MOCKS_MAKE.owner, MOCKS_MAKE.name, MOCKS_MAKE.descriptor, true)?;
        let stub = self.method_id(MOCKS_STUB.owner, MOCKS_STUB.name, MOCKS_STUB.descriptor, true)?;
        let mock =
            self.jni.call_static_object(class, make, &[jvalue { l: mocked }]).map_err(|t| self.threw(t, None))?;
        for (method, value) in methods.iter().zip(returns) {
            let key: Vec<u16> =
                format!("{}{}", method.name, method.descriptor.to_descriptor()).encode_utf16().collect();
            let key = self.jni.new_string(&key).map_err(|t| self.threw(t, None))?;
            let value = self.as_reference(values, *value)?;
            let args = [jvalue { l: mock }, jvalue { l: key }, jvalue { l: value }];
            self.jni.call_static(class, stub, Kind::Void, &args).map_err(|t| self.threw(t, None))?;
        }
        Ok(mock)
    }

    /// The value of `var` as a reference: a primitive boxed (`Integer.valueOf`).
    fn as_reference(&mut self, values: &[Option<Value>], var: VarId) -> Result<jobject, Stop> {
        let Some(value) = values.get(var.index()).copied().flatten() else {
            return Err(Stop::Rejected(format!("v{} has no value", var.0)));
        };
        match primitive_of(value.typed()) {
            Some(p) => Ok(self.boxed(p)?.as_object().unwrap_or(std::ptr::null_mut())),
            None => Ok(value.as_object().unwrap_or(std::ptr::null_mut())),
        }
    }

    fn new_array(&mut self, elem: &FieldType, length: u32) -> Result<jobject, Stop> {
        let kind = kind_of(elem);
        let class = match class_name_for(elem) {
            Some(name) => self.class(&name)?,
            None => std::ptr::null_mut(),
        };
        let len = i32::try_from(length).unwrap_or(i32::MAX);
        self.jni.new_array(kind, class, len).map_err(|t| self.threw(t, None))
    }

    fn array_store(
        &mut self,
        values: &[Option<Value>],
        array: VarId,
        index: u32,
        value: VarId,
        elem: &Option<FieldType>,
    ) -> Result<(), Stop> {
        let Some(elem) = elem else { return Err(Stop::Rejected(format!("v{} is not an array", array.0))) };
        let a = self.object(values, array)?;
        if a.is_null() {
            return Err(Stop::Threw(npe("array is null")));
        }
        let v = self.arg(values, value, elem)?;
        let index = i32::try_from(index).unwrap_or(i32::MAX);
        self.jni.array_store(a, index, v).map_err(|t| self.threw(t, None))
    }

    /// The receiver object: non-null and an instance of `class`.
    fn receiver(&mut self, values: &[Option<Value>], r: VarId, class: jobject) -> Result<jobject, Stop> {
        let o = self.object(values, r)?;
        if o.is_null() {
            return Err(Stop::Threw(npe("receiver is null")));
        }
        if !self.jni.is_instance_of(o, class) {
            return Err(Stop::Threw(class_cast("receiver")));
        }
        Ok(o)
    }

    fn object(&self, values: &[Option<Value>], var: VarId) -> Result<jobject, Stop> {
        match values.get(var.0 as usize).copied().flatten().and_then(|v| v.as_object()) {
            Some(o) => Ok(o),
            None => Err(Stop::Rejected(format!("v{} is not an object value", var.0))),
        }
    }

    fn args(&mut self, values: &[Option<Value>], args: &[VarId], params: &[FieldType]) -> Result<Vec<jvalue>, Stop> {
        if args.len() != params.len() {
            return Err(Stop::Rejected(format!("{} arguments for {} parameters", args.len(), params.len())));
        }
        args.iter().zip(params).map(|(a, p)| self.arg(values, *a, p).map(|v| v.raw())).collect()
    }

    /// One argument, checked against its parameter type.
    fn arg(&mut self, values: &[Option<Value>], var: VarId, param: &FieldType) -> Result<Value, Stop> {
        let Some(value) = values.get(var.0 as usize).copied().flatten() else {
            return Err(Stop::Rejected(format!("v{} has no value", var.0)));
        };
        if value.kind() != kind_of(param) {
            return Err(Stop::Rejected(format!("v{} does not match parameter type {param}", var.0)));
        }
        if let Some(name) = class_name_for(param) {
            // The kind is Object: `class_name_for` names reference types only.
            let o = value.as_object().unwrap_or(std::ptr::null_mut());
            let class = self.class(&name)?;
            if !o.is_null() && !self.jni.is_instance_of(o, class) {
                return Err(Stop::Threw(class_cast(&format!("argument v{}", var.0))));
            }
        }
        Ok(value)
    }

    /// `File.createTempFile(TEMP_FILE_PREFIX, ".tmp")` (in the worker's
    /// `java.io.tmpdir`, emptied after each test), as a `Path` if asked.
    fn temp_file(&mut self, handle: testcase::FileHandle) -> Result<jobject, Stop> {
        let made = self.create_temp_file(".tmp")?;
        self.as_handle(made, handle)
    }

    /// A new empty folder in the worker's `java.io.tmpdir`: a temporary
    /// file made with no suffix, deleted and made again as a folder (what
    /// `Files.createTempDirectory` does, without its varargs), as a `Path`
    /// if asked.
    fn temp_dir(&mut self, handle: testcase::FileHandle) -> Result<jobject, Stop> {
        let made = self.create_temp_file("")?;
        for name in ["delete", "mkdir"] {
            let m = self.method_id("java/io/File", name, "()Z", false)?;
            self.jni.call_method(made, m, Kind::Boolean, &[]).map_err(|t| self.threw(t, None))?;
        }
        self.as_handle(made, handle)
    }

    /// `File.createTempFile(TEMP_FILE_PREFIX, suffix)` ([`exec::sandbox::TEMP_FILE_PREFIX`]).
    fn create_temp_file(&mut self, suffix: &str) -> Result<jobject, Stop> {
        let jni = self.jni;
        let file = self.class("java/io/File")?;
        let create = self.method_id(
            "java/io/File",
            "createTempFile",
            "(Ljava/lang/String;Ljava/lang/String;)Ljava/io/File;",
            true,
        )?;
        let text = |s: &str| jni.new_string(&s.encode_utf16().collect::<Vec<_>>());
        let prefix = text(exec::sandbox::TEMP_FILE_PREFIX).map_err(|t| self.threw(t, None))?;
        let suffix = text(suffix).map_err(|t| self.threw(t, None))?;
        let args = [jvalue { l: prefix }, jvalue { l: suffix }];
        jni.call_static_object(file, create, &args).map_err(|t| self.threw(t, None))
    }

    /// The `java.io.File` `made`, or its `toPath()` when `handle` asks for a `Path`.
    fn as_handle(&mut self, made: jobject, handle: testcase::FileHandle) -> Result<jobject, Stop> {
        if handle == testcase::FileHandle::File {
            return Ok(made);
        }
        let to_path = self.method_id("java/io/File", "toPath", "()Ljava/nio/file/Path;", false)?;
        self.jni.call_method_object(made, to_path, &[]).map_err(|t| self.threw(t, None))
    }

    fn class(&mut self, name: &str) -> Result<jobject, Stop> {
        let jni = self.jni;
        self.h.cache.class(jni, name).map_err(|t| self.threw(t, None))
    }

    fn method_id(
        &mut self,
        owner: &str,
        name: &str,
        desc: &str,
        is_static: bool,
    ) -> Result<crate::jni_raw::jmethodID, Stop> {
        let jni = self.jni;
        self.h.cache.method(jni, owner, name, desc, is_static).map_err(|t| self.threw(t, None))
    }

    fn field_id(
        &mut self,
        owner: &str,
        name: &str,
        desc: &str,
        is_static: bool,
    ) -> Result<crate::jni_raw::jfieldID, Stop> {
        let jni = self.jni;
        self.h.cache.field(jni, owner, name, desc, is_static).map_err(|t| self.threw(t, None))
    }
}

/// The erased element type of the array value `var`, from its statement's type.
fn array_element_type(test: &TestCase, var: VarId) -> Option<FieldType> {
    match test.statements.get(var.0 as usize)?.ty.erasure()? {
        FieldType::Array(elem) => Some(*elem),
        _ => None,
    }
}

fn primitive(p: Primitive) -> Value {
    Value::from(match p {
        Primitive::Boolean(b) => Typed::Boolean(b),
        Primitive::Byte(b) => Typed::Byte(b),
        Primitive::Short(s) => Typed::Short(s),
        Primitive::Char(c) => Typed::Char(c),
        Primitive::Int(i) => Typed::Int(i),
        Primitive::Long(j) => Typed::Long(j),
        Primitive::Float(f) => Typed::Float(f),
        Primitive::Double(d) => Typed::Double(d),
    })
}

/// The box class of a primitive and the descriptor of its `valueOf`.
fn box_of(p: Primitive) -> (&'static str, &'static str) {
    match p {
        Primitive::Boolean(_) => ("java/lang/Boolean", "(Z)Ljava/lang/Boolean;"),
        Primitive::Byte(_) => ("java/lang/Byte", "(B)Ljava/lang/Byte;"),
        Primitive::Short(_) => ("java/lang/Short", "(S)Ljava/lang/Short;"),
        Primitive::Char(_) => ("java/lang/Character", "(C)Ljava/lang/Character;"),
        Primitive::Int(_) => ("java/lang/Integer", "(I)Ljava/lang/Integer;"),
        Primitive::Long(_) => ("java/lang/Long", "(J)Ljava/lang/Long;"),
        Primitive::Float(_) => ("java/lang/Float", "(F)Ljava/lang/Float;"),
        Primitive::Double(_) => ("java/lang/Double", "(D)Ljava/lang/Double;"),
    }
}

/// The primitive a typed JNI value holds, `None` for references and `void`.
fn primitive_of(typed: Typed) -> Option<Primitive> {
    Some(match typed {
        Typed::Boolean(b) => Primitive::Boolean(b),
        Typed::Byte(b) => Primitive::Byte(b),
        Typed::Short(s) => Primitive::Short(s),
        Typed::Char(c) => Primitive::Char(c),
        Typed::Int(i) => Primitive::Int(i),
        Typed::Long(j) => Primitive::Long(j),
        Typed::Float(f) => Primitive::Float(f),
        Typed::Double(d) => Primitive::Double(d),
        Typed::Void | Typed::Object(_) => return None,
    })
}

/// An exception the kernel's refusal caused (an `IOException` of the JDK)
/// reported as the sandbox's own `Sandbox.Refused`, the original class and
/// message kept in the message: the search, the oracles and the report see
/// one outcome for a refusal, however it was raised.
fn as_refusal(info: ExceptionInfo) -> ExceptionInfo {
    match exec::sandbox::refusal(&info) {
        Some(kind) if info.class.as_str() != exec::sandbox::REFUSED => ExceptionInfo {
            class: BinaryName::new(exec::sandbox::REFUSED),
            message: Some(format!("{}: {}: {}", kind.name(), info.class, info.message.unwrap_or_default())),
            direct: false,
            frames: Vec::new(),
        },
        _ => info,
    }
}

fn npe(message: &str) -> ExceptionInfo {
    ExceptionInfo {
        class: BinaryName::new("java.lang.NullPointerException"),
        message: Some(message.into()),
        direct: false,
        frames: Vec::new(),
    }
}

fn class_cast(what: &str) -> ExceptionInfo {
    ExceptionInfo {
        class: BinaryName::new("java.lang.ClassCastException"),
        message: Some(format!("{what} is not of the declared type")),
        direct: false,
        frames: Vec::new(),
    }
}

// Reading results back: summaries, exceptions, trace, output.
impl Runner {
    fn summary(&mut self, v: Option<Value>, config: &ExecConfig) -> ValueSummary {
        let Some(v) = v else { return ValueSummary::Void };
        match v.typed() {
            Typed::Void => ValueSummary::Void,
            Typed::Boolean(z) => ValueSummary::Boolean(z),
            Typed::Byte(b) => ValueSummary::Integer(i64::from(b)),
            Typed::Short(s) => ValueSummary::Integer(i64::from(s)),
            Typed::Int(i) => ValueSummary::Integer(i64::from(i)),
            Typed::Long(j) => ValueSummary::Integer(j),
            Typed::Char(c) => ValueSummary::Char(c),
            Typed::Float(f) => ValueSummary::Float(f64::from(f)),
            Typed::Double(d) => ValueSummary::Float(d),
            Typed::Object(l) => self.object_summary(l, config.max_string),
        }
    }

    fn object_summary(&mut self, o: jobject, max_string: usize) -> ValueSummary {
        if o.is_null() {
            return ValueSummary::Null;
        }
        if self.jni.is_instance_of(o, self.h.known.string) {
            return ValueSummary::String(String::from_utf16_lossy(&self.jni.string_units(o, max_string)));
        }
        let class = self.class_name_of(o).unwrap_or_else(|| "?".into());
        self.boxed_summary(o, &class).unwrap_or(ValueSummary::Object { class: BinaryName::new(class) })
    }

    /// The value inside a boxed primitive (`Integer`, `Character`, ...).
    fn boxed_summary(&mut self, o: jobject, class: &str) -> Option<ValueSummary> {
        let (owner, name, desc, kind) = match class {
            "java.lang.Integer" => ("java/lang/Integer", "intValue", "()I", Kind::Int),
            "java.lang.Long" => ("java/lang/Long", "longValue", "()J", Kind::Long),
            "java.lang.Short" => ("java/lang/Short", "shortValue", "()S", Kind::Short),
            "java.lang.Byte" => ("java/lang/Byte", "byteValue", "()B", Kind::Byte),
            "java.lang.Character" => ("java/lang/Character", "charValue", "()C", Kind::Char),
            "java.lang.Boolean" => ("java/lang/Boolean", "booleanValue", "()Z", Kind::Boolean),
            "java.lang.Float" => ("java/lang/Float", "floatValue", "()F", Kind::Float),
            "java.lang.Double" => ("java/lang/Double", "doubleValue", "()D", Kind::Double),
            _ => return None,
        };
        let jni = self.jni;
        let id = self.h.cache.method(jni, owner, name, desc, false).ok()?;
        let v = jni.call_method(o, id, kind, &[]).ok()?;
        Some(self.summary(Some(v), &ExecConfig::default()))
    }

    /// `o.getClass().getName()`.
    fn class_name_of(&self, o: jobject) -> Option<String> {
        let k = &self.h.known;
        let class = self.jni.call_method_object(o, k.object_get_class, &[]).ok()?;
        let name = self.jni.call_method_object(class, k.class_get_name, &[]).ok()?;
        self.string(name, 1000)
    }

    fn string(&self, s: jobject, max: usize) -> Option<String> {
        (!s.is_null()).then(|| String::from_utf16_lossy(&self.jni.string_units(s, max)))
    }

    /// Describes a thrown exception, or classifies it as a timeout (the
    /// watchdog fired, or the sandbox ended an endless loop).
    fn threw(&self, t: Thrown, site: Option<&CallSite<'_>>) -> Stop {
        if self.watch.fired() {
            return Stop::Timeout;
        }
        let info = self.describe(t.0, site);
        if info.class.as_str() == exec::sandbox::TIME_UP {
            return Stop::Timeout;
        }
        if let Some(reason) = self.stopped_by_time_limit(t.0, &info) {
            self.poisoned.set(Some(reason));
        }
        Stop::Threw(as_refusal(info))
    }

    /// Why throwable `t` (described by `info`) shows that an earlier
    /// test's time limit left this JVM broken, if it does. The watchdog did
    /// not fire for this test (that case is a timeout), so the stop was an
    /// earlier test's, and it breaks the JVM for good where it lands in
    /// linking code: a class whose static initialiser it stopped stays
    /// erroneous (JVMS 5.5: `NoClassDefFoundError: Could not initialize
    /// class X`), and an `invokedynamic` site whose bootstrap it stopped or
    /// interrupted keeps failing (JVMS 5.4.3: the same `LinkageError` on
    /// every later call, without the cause that names the stop; the JDK's
    /// lambdas, pattern switches, string concatenation and record methods
    /// link such sites, and wrap some of these errors in `InternalError`).
    /// So a `LinkageError` anywhere in the cause chain (at most
    /// [`CAUSE_DEPTH`] deep) counts after any earlier stop, and a cause
    /// that names the stop (the sandbox's `TimeUp` or
    /// `java.lang.ThreadDeath`) always does.
    fn stopped_by_time_limit(&self, t: jobject, info: &ExceptionInfo) -> Option<String> {
        let k = &self.h.known;
        let summary = format!("{}: {}", info.class.as_str(), info.message.as_deref().unwrap_or(""));
        let stopped = [exec::sandbox::TIME_UP, "java.lang.ThreadDeath"];
        let mut current = t;
        for depth in 0..CAUSE_DEPTH {
            if self.stopped_before.get() && self.jni.is_instance_of(current, k.linkage_error) {
                return Some(format!("{summary} (after an earlier test's time limit)"));
            }
            if depth > 0 {
                let message = self.jni.call_method_object(current, k.throwable_get_message, &[]).ok();
                let _ = self.jni.take_exception();
                let message = message.and_then(|m| self.string(m, 2000)).unwrap_or_default();
                let text = format!("{} {message}", self.class_name_of(current).unwrap_or_default());
                if stopped.iter().any(|s| text.contains(s)) {
                    return Some(format!("{summary}: {text}"));
                }
            }
            let cause = self.jni.call_method_object(current, k.throwable_get_cause, &[]).ok();
            let _ = self.jni.take_exception();
            match cause {
                Some(c) if !c.is_null() => current = c,
                _ => break,
            }
        }
        None
    }

    fn describe(&self, t: jobject, site: Option<&CallSite<'_>>) -> ExceptionInfo {
        let k = &self.h.known;
        let class = self.class_name_of(t).unwrap_or_else(|| "java.lang.Throwable".into());
        let message =
            self.jni.call_method_object(t, k.throwable_get_message, &[]).ok().and_then(|m| self.string(m, 2000));
        let frames = self.frames(t);
        let direct = site.is_some_and(|s| frames.first().is_some_and(|f| f.class == s.owner && f.method == s.name));
        let _ = self.jni.take_exception();
        ExceptionInfo { class: BinaryName::new(class), message, direct, frames }
    }

    /// The top [`exec::MAX_FRAMES`] frames of the throwable's stack trace.
    fn frames(&self, t: jobject) -> Vec<StackFrame> {
        let k = &self.h.known;
        let Ok(array) = self.jni.call_method_object(t, k.throwable_get_stack_trace, &[]) else { return Vec::new() };
        if array.is_null() {
            return Vec::new();
        }
        let n = usize::try_from(self.jni.array_length(array)).unwrap_or(0).min(exec::MAX_FRAMES);
        let mut frames = Vec::with_capacity(n);
        for i in 0..n {
            let Ok(frame) = self.jni.object_array_element(array, i as i32) else { break };
            let text = |m| self.jni.call_method_object(frame, m, &[]).ok().and_then(|s| self.string(s, 1000));
            let line = match self.jni.call_method(frame, k.frame_line_number, Kind::Int, &[]).map(|v| v.typed()) {
                Ok(Typed::Int(l)) => u32::try_from(l).ok(),
                _ => None,
            };
            let (Some(class), Some(method)) = (text(k.frame_class_name), text(k.frame_method_name)) else { break };
            frames.push(StackFrame { class, method, line });
        }
        frames
    }

    /// The static state a test starts from: a full reset
    /// ([`ExecConfig::static_reset`]); else the saved values of
    /// [`ExecConfig::restored_statics`], saved after a full reset the first
    /// time this JVM sees the list; else what the tests before left.
    fn prepare_statics(&mut self, config: &ExecConfig) {
        if config.static_reset {
            self.reset_statics();
            return;
        }
        let Some(((class, save), (_, restore))) = self.h.known.static_restore else { return };
        if config.restored_statics.is_empty() {
            return;
        }
        let spec: String = config.restored_statics.iter().map(|(c, f)| format!("{c}\t{f}\n")).collect();
        if self.saved_statics.as_deref() == Some(spec.as_str()) {
            self.call_static_void(class, restore);
            let _ = self.jni.take_exception();
            return;
        }
        self.reset_statics();
        let units: Vec<u16> = spec.encode_utf16().collect();
        if let Ok(text) = self.jni.new_string(&units) {
            let _ = self.jni.call_static(class, save, Kind::Void, &[jvalue { l: text }]);
        }
        let _ = self.jni.take_exception();
        self.saved_statics = Some(spec);
    }

    /// `StaticReset.resetAll()` (it clears the tracer and the loop counter
    /// after the resets); what it leaves pending is dropped.
    fn reset_statics(&self) {
        if let Some((class, m)) = self.h.known.static_reset {
            let _ = self.jni.call_static(class, m, Kind::Int, &[]);
            let _ = self.jni.take_exception();
        }
    }

    fn call_static_void(&self, class: jobject, m: crate::jni_raw::jmethodID) {
        let _ = self.jni.call_static(class, m, Kind::Void, &[]);
    }

    /// Clears the executing thread's interrupt flag (`Thread.interrupted()`):
    /// a flag left by the watchdog or by a test would make the next test's
    /// blocking I/O throw (`ClosedByInterruptException` from a `FileChannel`),
    /// and differently in each worker.
    fn clear_interrupt(&self) {
        let k = &self.h.known;
        let _ = self.jni.call_static(k.thread, k.thread_interrupted, Kind::Boolean, &[]);
        let _ = self.jni.take_exception();
    }

    /// After a test: clear the time-up flag and the interrupt flag, stop
    /// threads the test started, and drop any exception a late
    /// `Thread.stop` left pending.
    fn clean_up_after_test(&self) {
        let k = &self.h.known;
        let _ = self.jni.take_exception();
        self.clear_interrupt();
        let _ = self.jni.set_field(k.sandbox, k.sandbox_time_up, true, Typed::Boolean(false).into());
        let _ = self.jni.call_static(k.sandbox, k.sandbox_stop_new_threads, Kind::Int, &[]);
        let _ = self.jni.take_exception();
    }

    /// The non-null object a static no-argument method returns.
    fn static_object(&self, class: jobject, m: crate::jni_raw::jmethodID) -> Option<jobject> {
        let o = self.jni.call_static_object(class, m, &[]).ok()?;
        (!o.is_null()).then_some(o)
    }

    fn read_trace(&self, config: &ExecConfig) -> Trace {
        let k = &self.h.known;
        let Some(arr) = self.static_object(k.tracer, k.tracer_export) else { return Trace::default() };
        let mut trace = parse_export(&self.jni.double_array(arr));
        trace.strings = self.read_strings(k.tracer_export_strings).into_iter().flatten().collect();
        let pairs = self.read_strings(k.tracer_export_pairs);
        trace.string_pairs = pairs.chunks_exact(2).filter_map(|p| Some((p[0].clone()?, p[1].clone()?))).collect();
        if config.value_log > 0 {
            trace.values = Some(self.read_values(config.max_string));
        }
        trace
    }

    /// The value log of the test (`ValueLog.exportValues/exportValueTexts`),
    /// strings read up to `max_string` characters.
    fn read_values(&self, max_string: usize) -> exec::ValueLog {
        let Some(v) = self.h.known.value_log else { return exec::ValueLog::default() };
        let Some(raw) = self.static_object(v.class, v.export_values) else { return exec::ValueLog::default() };
        let raw = self.jni.long_array(raw);
        let texts = match self.static_object(v.class, v.export_texts) {
            Some(arr) => (0..self.jni.array_length(arr))
                .map(|i| self.jni.object_array_element(arr, i).ok().and_then(|s| self.string(s, max_string)))
                .collect(),
            None => Vec::new(),
        };
        crate::value_log::parse_values(&raw, &texts)
    }

    /// The strings a static `String[]` export method of `Tracer`
    /// (`exportStrings`, `exportPairs`) returns, by position; `None` for a
    /// null or an element that cannot be read.
    fn read_strings(&self, export: crate::jni_raw::jmethodID) -> Vec<Option<String>> {
        let k = &self.h.known;
        let Some(arr) = self.static_object(k.tracer, export) else { return Vec::new() };
        (0..self.jni.array_length(arr))
            .map(|i| self.jni.object_array_element(arr, i).ok().and_then(|s| self.string(s, 200)))
            .collect()
    }

    fn take_output(&self) -> CapturedOutput {
        let k = &self.h.known;
        let Some(arr) = self.static_object(k.sandbox, k.sandbox_take_output) else {
            return CapturedOutput::default();
        };
        let get = |i| self.jni.object_array_element(arr, i).ok().and_then(|s| self.string(s, usize::MAX));
        CapturedOutput {
            stdout: get(0).unwrap_or_default(),
            stderr: get(1).unwrap_or_default(),
            total_bytes: get(2).and_then(|t| t.parse().ok()).unwrap_or(0),
        }
    }
}

/// Decodes the array of `Tracer.export()` (layout documented there).
pub fn parse_export(d: &[f64]) -> Trace {
    let mut k = 0;
    let mut next = || {
        let v = d.get(k).copied().unwrap_or(0.0);
        k += 1;
        v
    };
    let mut trace = Trace::default();
    for _ in 0..next() as usize {
        let id = next() as u32;
        let (hits, lt, eq, gt) = (next() as u32, next() as u32, next() as u32, next() as u32);
        let (min_diff, max_diff, min_abs) = (next(), next(), next());
        trace.branches.push((id, BranchRecord { hits, lt, eq, gt, min_diff, max_diff, min_abs }));
    }
    for _ in 0..next() as usize {
        let id = next() as u32;
        let _hits = next();
        let n = next() as usize;
        trace.switches.push((id, (0..n).map(|_| next() as i32).collect()));
    }
    for _ in 0..next() as usize {
        let id = next() as u32;
        trace.lines.push((id, next() as u32));
    }
    for _ in 0..next() as usize {
        let id = next() as u32;
        trace.methods.push((id, next() as u32));
    }
    trace.numbers = (0..next() as usize).map(|_| next() as i64).collect();
    trace.number_pairs = (0..next() as usize).map(|_| (next() as i64, next() as i64)).collect();
    trace.heap_share_allocated = next();
    trace
}

/// Whether `method` is `ObjectInputStream.readObject()`.
fn is_read_object(method: &testcase::MethodRef) -> bool {
    method.owner.as_str() == "java.io.ObjectInputStream"
        && method.name == "readObject"
        && method.descriptor.params.is_empty()
}
