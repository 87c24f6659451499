//! A thin layer over the raw JNI function table (JNI spec, chapter 4).
//!
//! This module holds the unsafe JNI code: calls through the function
//! table, attaching threads, and reading the `jvalue` union. Everything
//! above it works with [`Jni`] methods and [`Value`]s. A [`Jni`] is valid
//! only on the thread it was obtained on (JNI environments are per thread).
//! Methods never leave a Java exception pending silently: calls that can
//! throw return `Err(Thrown(throwable))` with the exception cleared.

use std::ffi::CString;
use std::ptr;

use jni::JavaVM;
use jni::sys::{JNIEnv, jint, jsize};
pub use jni::sys::{jclass, jfieldID, jmethodID, jobject, jthrowable, jvalue};

/// A Java exception thrown by a JNI call; the local reference to the
/// throwable, already cleared from the thread.
#[derive(Debug, Clone, Copy)]
pub struct Thrown(pub jthrowable);

/// Result of a JNI call that may throw.
pub type JResult<T> = Result<T, Thrown>;

/// The JNI environment of the current thread.
#[derive(Clone, Copy)]
pub struct Jni {
    env: *mut JNIEnv,
}

macro_rules! call {
    ($self:expr, $version:ident, $name:ident $(, $arg:expr)*) => {{
        let env = $self.env;
        // SAFETY: `env` is the valid JNIEnv of this thread (see `Jni::from_raw`),
        // and each caller passes references and ids obtained from this JVM.
        unsafe { ((**env).$version.$name)(env $(, $arg)*) }
    }};
}

/// The kinds of values JNI distinguishes in calls, fields and arrays:
/// `void`, the eight primitive types, and references.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// No value (the return kind of a `void` method).
    Void,
    /// `boolean` (`jboolean`).
    Boolean,
    /// `byte` (`jbyte`).
    Byte,
    /// `char` (`jchar`, a UTF-16 code unit).
    Char,
    /// `short` (`jshort`).
    Short,
    /// `int` (`jint`).
    Int,
    /// `long` (`jlong`).
    Long,
    /// `float` (`jfloat`).
    Float,
    /// `double` (`jdouble`).
    Double,
    /// A reference (`jobject`, possibly null).
    Object,
}

/// A JNI value with its kind: the member of the `jvalue` union that holds
/// it is always the one of its kind, so it can be read without `unsafe`.
#[derive(Clone, Copy)]
pub struct Value {
    raw: jvalue,
    kind: Kind,
}

/// The content of a [`Value`], by kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Typed {
    /// No value.
    Void,
    /// A `boolean`.
    Boolean(bool),
    /// A `byte`.
    Byte(i8),
    /// A `char` (UTF-16 code unit).
    Char(u16),
    /// A `short`.
    Short(i16),
    /// An `int`.
    Int(i32),
    /// A `long`.
    Long(i64),
    /// A `float`.
    Float(f32),
    /// A `double`.
    Double(f64),
    /// A reference (possibly null).
    Object(jobject),
}

impl From<Typed> for Value {
    fn from(typed: Typed) -> Value {
        let (raw, kind) = match typed {
            Typed::Void => (jvalue { j: 0 }, Kind::Void),
            Typed::Boolean(z) => (jvalue { z }, Kind::Boolean),
            Typed::Byte(b) => (jvalue { b }, Kind::Byte),
            Typed::Char(c) => (jvalue { c }, Kind::Char),
            Typed::Short(s) => (jvalue { s }, Kind::Short),
            Typed::Int(i) => (jvalue { i }, Kind::Int),
            Typed::Long(j) => (jvalue { j }, Kind::Long),
            Typed::Float(f) => (jvalue { f }, Kind::Float),
            Typed::Double(d) => (jvalue { d }, Kind::Double),
            Typed::Object(l) => (jvalue { l }, Kind::Object),
        };
        Value { raw, kind }
    }
}

impl Value {
    /// A reference value.
    pub fn object(l: jobject) -> Value {
        Value::from(Typed::Object(l))
    }

    /// The kind of the value.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The raw union, to pass as an argument of a JNI call.
    pub fn raw(&self) -> jvalue {
        self.raw
    }

    /// The reference, if this is a reference value.
    pub fn as_object(&self) -> Option<jobject> {
        match self.typed() {
            Typed::Object(l) => Some(l),
            _ => None,
        }
    }

    /// The content, read from the union member of the value's kind.
    pub fn typed(&self) -> Typed {
        let v = self.raw;
        // SAFETY: every constructor stores the value in the member of its
        // kind (`From<Typed>`, and the `Jni` calls that read a result of
        // `kind` into that member), so each arm reads an initialised member.
        unsafe {
            match self.kind {
                Kind::Void => Typed::Void,
                Kind::Boolean => Typed::Boolean(v.z),
                Kind::Byte => Typed::Byte(v.b),
                Kind::Char => Typed::Char(v.c),
                Kind::Short => Typed::Short(v.s),
                Kind::Int => Typed::Int(v.i),
                Kind::Long => Typed::Long(v.j),
                Kind::Float => Typed::Float(v.f),
                Kind::Double => Typed::Double(v.d),
                Kind::Object => Typed::Object(v.l),
            }
        }
    }
}

impl Jni {
    /// Wraps the environment pointer of the current thread.
    ///
    /// # Safety
    /// `env` must be the valid `JNIEnv` of the calling thread, and the
    /// returned value must not be used on another thread.
    unsafe fn from_raw(env: *mut JNIEnv) -> Jni {
        Jni { env }
    }

    /// Attaches the calling thread to `vm` as a daemon thread
    /// (`AttachCurrentThreadAsDaemon`) and returns its JNI environment. The
    /// thread stays attached until it ends.
    ///
    /// # Errors
    /// The JNI error code when the JVM refuses the attachment.
    pub fn attach_current_thread_as_daemon(vm: &JavaVM) -> Result<Jni, jint> {
        let raw = vm.get_raw();
        let mut env: *mut std::ffi::c_void = std::ptr::null_mut();
        // SAFETY: `raw` is the live JavaVM of this process; the out pointer is valid.
        let rc = unsafe { ((**raw).v1_4.AttachCurrentThreadAsDaemon)(raw, &mut env, std::ptr::null_mut()) };
        if rc != 0 || env.is_null() {
            return Err(rc);
        }
        // SAFETY: the JVM just returned this thread's environment, and a
        // `Jni` is used only on the thread that made it.
        Ok(unsafe { Jni::from_raw(env.cast()) })
    }

    /// The pending exception, cleared, if any.
    pub fn take_exception(&self) -> Option<jthrowable> {
        let t = call!(self, v1_1, ExceptionOccurred);
        if t.is_null() {
            None
        } else {
            call!(self, v1_1, ExceptionClear);
            Some(t)
        }
    }

    fn check<T>(&self, value: T) -> JResult<T> {
        match self.take_exception() {
            Some(t) => Err(Thrown(t)),
            None => Ok(value),
        }
    }

    fn cstring(s: &str) -> CString {
        CString::new(s.replace('\0', "")).expect("no NUL left")
    }

    /// `FindClass` with an internal name (`java/lang/String`, `[I`).
    pub fn find_class(&self, internal_name: &str) -> JResult<jclass> {
        let n = Self::cstring(internal_name);
        let c = call!(self, v1_1, FindClass, n.as_ptr());
        self.check(c)
    }

    /// `GetMethodID` or `GetStaticMethodID`.
    pub fn method_id(&self, class: jclass, name: &str, descriptor: &str, is_static: bool) -> JResult<jmethodID> {
        let (n, d) = (Self::cstring(name), Self::cstring(descriptor));
        let id = if is_static {
            call!(self, v1_1, GetStaticMethodID, class, n.as_ptr(), d.as_ptr())
        } else {
            call!(self, v1_1, GetMethodID, class, n.as_ptr(), d.as_ptr())
        };
        self.check(id)
    }

    /// `GetFieldID` or `GetStaticFieldID`.
    pub fn field_id(&self, class: jclass, name: &str, descriptor: &str, is_static: bool) -> JResult<jfieldID> {
        let (n, d) = (Self::cstring(name), Self::cstring(descriptor));
        let id = if is_static {
            call!(self, v1_1, GetStaticFieldID, class, n.as_ptr(), d.as_ptr())
        } else {
            call!(self, v1_1, GetFieldID, class, n.as_ptr(), d.as_ptr())
        };
        self.check(id)
    }

    /// `NewObjectA`.
    pub fn new_object(&self, class: jclass, ctor: jmethodID, args: &[jvalue]) -> JResult<jobject> {
        let o = call!(self, v1_1, NewObjectA, class, ctor, args.as_ptr());
        self.check(o)
    }

    /// Calls an instance method (virtual dispatch) returning `kind`.
    pub fn call_method(&self, obj: jobject, m: jmethodID, kind: Kind, args: &[jvalue]) -> JResult<Value> {
        let a = args.as_ptr();
        let v = match kind {
            Kind::Void => {
                call!(self, v1_1, CallVoidMethodA, obj, m, a);
                jvalue { j: 0 }
            }
            Kind::Boolean => jvalue { z: call!(self, v1_1, CallBooleanMethodA, obj, m, a) },
            Kind::Byte => jvalue { b: call!(self, v1_1, CallByteMethodA, obj, m, a) },
            Kind::Char => jvalue { c: call!(self, v1_1, CallCharMethodA, obj, m, a) },
            Kind::Short => jvalue { s: call!(self, v1_1, CallShortMethodA, obj, m, a) },
            Kind::Int => jvalue { i: call!(self, v1_1, CallIntMethodA, obj, m, a) },
            Kind::Long => jvalue { j: call!(self, v1_1, CallLongMethodA, obj, m, a) },
            Kind::Float => jvalue { f: call!(self, v1_1, CallFloatMethodA, obj, m, a) },
            Kind::Double => jvalue { d: call!(self, v1_1, CallDoubleMethodA, obj, m, a) },
            Kind::Object => jvalue { l: call!(self, v1_1, CallObjectMethodA, obj, m, a) },
        };
        self.check(Value { raw: v, kind })
    }

    /// Calls an instance method (virtual dispatch) that returns a reference.
    pub fn call_method_object(&self, obj: jobject, m: jmethodID, args: &[jvalue]) -> JResult<jobject> {
        let o = call!(self, v1_1, CallObjectMethodA, obj, m, args.as_ptr());
        self.check(o)
    }

    /// Calls a static method returning `kind`.
    pub fn call_static(&self, class: jclass, m: jmethodID, kind: Kind, args: &[jvalue]) -> JResult<Value> {
        let a = args.as_ptr();
        let v = match kind {
            Kind::Void => {
                call!(self, v1_1, CallStaticVoidMethodA, class, m, a);
                jvalue { j: 0 }
            }
            Kind::Boolean => jvalue { z: call!(self, v1_1, CallStaticBooleanMethodA, class, m, a) },
            Kind::Byte => jvalue { b: call!(self, v1_1, CallStaticByteMethodA, class, m, a) },
            Kind::Char => jvalue { c: call!(self, v1_1, CallStaticCharMethodA, class, m, a) },
            Kind::Short => jvalue { s: call!(self, v1_1, CallStaticShortMethodA, class, m, a) },
            Kind::Int => jvalue { i: call!(self, v1_1, CallStaticIntMethodA, class, m, a) },
            Kind::Long => jvalue { j: call!(self, v1_1, CallStaticLongMethodA, class, m, a) },
            Kind::Float => jvalue { f: call!(self, v1_1, CallStaticFloatMethodA, class, m, a) },
            Kind::Double => jvalue { d: call!(self, v1_1, CallStaticDoubleMethodA, class, m, a) },
            Kind::Object => jvalue { l: call!(self, v1_1, CallStaticObjectMethodA, class, m, a) },
        };
        self.check(Value { raw: v, kind })
    }

    /// Calls a static method that returns a reference.
    pub fn call_static_object(&self, class: jclass, m: jmethodID, args: &[jvalue]) -> JResult<jobject> {
        let o = call!(self, v1_1, CallStaticObjectMethodA, class, m, args.as_ptr());
        self.check(o)
    }

    /// Reads a field of `kind`; `obj` is the class for a static field.
    pub fn get_field(&self, obj: jobject, f: jfieldID, kind: Kind, is_static: bool) -> JResult<Value> {
        let v = if is_static {
            match kind {
                Kind::Boolean => jvalue { z: call!(self, v1_1, GetStaticBooleanField, obj, f) },
                Kind::Byte => jvalue { b: call!(self, v1_1, GetStaticByteField, obj, f) },
                Kind::Char => jvalue { c: call!(self, v1_1, GetStaticCharField, obj, f) },
                Kind::Short => jvalue { s: call!(self, v1_1, GetStaticShortField, obj, f) },
                Kind::Int => jvalue { i: call!(self, v1_1, GetStaticIntField, obj, f) },
                Kind::Long => jvalue { j: call!(self, v1_1, GetStaticLongField, obj, f) },
                Kind::Float => jvalue { f: call!(self, v1_1, GetStaticFloatField, obj, f) },
                Kind::Double => jvalue { d: call!(self, v1_1, GetStaticDoubleField, obj, f) },
                Kind::Object | Kind::Void => jvalue { l: call!(self, v1_1, GetStaticObjectField, obj, f) },
            }
        } else {
            match kind {
                Kind::Boolean => jvalue { z: call!(self, v1_1, GetBooleanField, obj, f) },
                Kind::Byte => jvalue { b: call!(self, v1_1, GetByteField, obj, f) },
                Kind::Char => jvalue { c: call!(self, v1_1, GetCharField, obj, f) },
                Kind::Short => jvalue { s: call!(self, v1_1, GetShortField, obj, f) },
                Kind::Int => jvalue { i: call!(self, v1_1, GetIntField, obj, f) },
                Kind::Long => jvalue { j: call!(self, v1_1, GetLongField, obj, f) },
                Kind::Float => jvalue { f: call!(self, v1_1, GetFloatField, obj, f) },
                Kind::Double => jvalue { d: call!(self, v1_1, GetDoubleField, obj, f) },
                Kind::Object | Kind::Void => jvalue { l: call!(self, v1_1, GetObjectField, obj, f) },
            }
        };
        self.check(Value { raw: v, kind })
    }

    /// Writes `value` to a field of its kind; `obj` is the class for a
    /// static field.
    pub fn set_field(&self, obj: jobject, f: jfieldID, is_static: bool, value: Value) -> JResult<()> {
        let (kind, v) = (value.kind, value.raw);
        // The union member read matches `kind` (a `Value`'s invariant; the
        // macro's unsafe block covers the read).
        if is_static {
            match kind {
                Kind::Boolean => call!(self, v1_1, SetStaticBooleanField, obj, f, v.z),
                Kind::Byte => call!(self, v1_1, SetStaticByteField, obj, f, v.b),
                Kind::Char => call!(self, v1_1, SetStaticCharField, obj, f, v.c),
                Kind::Short => call!(self, v1_1, SetStaticShortField, obj, f, v.s),
                Kind::Int => call!(self, v1_1, SetStaticIntField, obj, f, v.i),
                Kind::Long => call!(self, v1_1, SetStaticLongField, obj, f, v.j),
                Kind::Float => call!(self, v1_1, SetStaticFloatField, obj, f, v.f),
                Kind::Double => call!(self, v1_1, SetStaticDoubleField, obj, f, v.d),
                Kind::Object | Kind::Void => call!(self, v1_1, SetStaticObjectField, obj, f, v.l),
            }
        } else {
            match kind {
                Kind::Boolean => call!(self, v1_1, SetBooleanField, obj, f, v.z),
                Kind::Byte => call!(self, v1_1, SetByteField, obj, f, v.b),
                Kind::Char => call!(self, v1_1, SetCharField, obj, f, v.c),
                Kind::Short => call!(self, v1_1, SetShortField, obj, f, v.s),
                Kind::Int => call!(self, v1_1, SetIntField, obj, f, v.i),
                Kind::Long => call!(self, v1_1, SetLongField, obj, f, v.j),
                Kind::Float => call!(self, v1_1, SetFloatField, obj, f, v.f),
                Kind::Double => call!(self, v1_1, SetDoubleField, obj, f, v.d),
                Kind::Object | Kind::Void => call!(self, v1_1, SetObjectField, obj, f, v.l),
            }
        }
        self.check(())
    }

    /// A new `java.lang.String` from UTF-16 code units.
    pub fn new_string(&self, units: &[u16]) -> JResult<jobject> {
        let s = call!(self, v1_1, NewString, units.as_ptr(), units.len() as jsize);
        self.check(s)
    }

    /// The UTF-16 code units of a `java.lang.String`, at most `max` of them.
    pub fn string_units(&self, s: jobject, max: usize) -> Vec<u16> {
        let len = (call!(self, v1_1, GetStringLength, s) as usize).min(max);
        let mut buf = vec![0u16; len];
        call!(self, v1_2, GetStringRegion, s, 0, len as jsize, buf.as_mut_ptr());
        let _ = self.take_exception();
        buf
    }

    /// A new array of `len` elements of primitive `kind`, or of class
    /// `elem_class` (with null elements) for `Kind::Object`.
    pub fn new_array(&self, kind: Kind, elem_class: jclass, len: i32) -> JResult<jobject> {
        let a = match kind {
            Kind::Boolean => call!(self, v1_1, NewBooleanArray, len),
            Kind::Byte => call!(self, v1_1, NewByteArray, len),
            Kind::Char => call!(self, v1_1, NewCharArray, len),
            Kind::Short => call!(self, v1_1, NewShortArray, len),
            Kind::Int => call!(self, v1_1, NewIntArray, len),
            Kind::Long => call!(self, v1_1, NewLongArray, len),
            Kind::Float => call!(self, v1_1, NewFloatArray, len),
            Kind::Double => call!(self, v1_1, NewDoubleArray, len),
            Kind::Object | Kind::Void => call!(self, v1_1, NewObjectArray, len, elem_class, ptr::null_mut()),
        };
        self.check(a)
    }

    /// `array[index] = value` for an array of the value's kind.
    pub fn array_store(&self, array: jobject, index: i32, value: Value) -> JResult<()> {
        let (kind, v) = (value.kind, value.raw);
        // The union member read matches `kind` (a `Value`'s invariant; the
        // macro's unsafe block covers the read).
        match kind {
            Kind::Boolean => call!(self, v1_1, SetBooleanArrayRegion, array, index, 1, &v.z),
            Kind::Byte => call!(self, v1_1, SetByteArrayRegion, array, index, 1, &v.b),
            Kind::Char => call!(self, v1_1, SetCharArrayRegion, array, index, 1, &v.c),
            Kind::Short => call!(self, v1_1, SetShortArrayRegion, array, index, 1, &v.s),
            Kind::Int => call!(self, v1_1, SetIntArrayRegion, array, index, 1, &v.i),
            Kind::Long => call!(self, v1_1, SetLongArrayRegion, array, index, 1, &v.j),
            Kind::Float => call!(self, v1_1, SetFloatArrayRegion, array, index, 1, &v.f),
            Kind::Double => call!(self, v1_1, SetDoubleArrayRegion, array, index, 1, &v.d),
            Kind::Object | Kind::Void => call!(self, v1_1, SetObjectArrayElement, array, index, v.l),
        }
        self.check(())
    }

    /// Length of an array.
    pub fn array_length(&self, array: jobject) -> i32 {
        call!(self, v1_1, GetArrayLength, array)
    }

    /// Copies a whole `double[]`.
    pub fn double_array(&self, array: jobject) -> Vec<f64> {
        let n = self.array_length(array).max(0) as usize;
        let mut out = vec![0f64; n];
        call!(self, v1_1, GetDoubleArrayRegion, array, 0, n as jsize, out.as_mut_ptr());
        let _ = self.take_exception();
        out
    }

    /// The elements of a `long[]`.
    pub fn long_array(&self, array: jobject) -> Vec<i64> {
        let n = self.array_length(array).max(0) as usize;
        let mut out = vec![0i64; n];
        call!(self, v1_1, GetLongArrayRegion, array, 0, n as jsize, out.as_mut_ptr());
        let _ = self.take_exception();
        out
    }

    /// Element `i` of an object array.
    pub fn object_array_element(&self, array: jobject, i: i32) -> JResult<jobject> {
        let o = call!(self, v1_1, GetObjectArrayElement, array, i);
        self.check(o)
    }

    /// `IsInstanceOf` (true for null).
    pub fn is_instance_of(&self, obj: jobject, class: jclass) -> bool {
        call!(self, v1_1, IsInstanceOf, obj, class)
    }

    /// `NewGlobalRef`.
    pub fn global_ref(&self, obj: jobject) -> jobject {
        call!(self, v1_1, NewGlobalRef, obj)
    }

    /// `DeleteLocalRef`.
    pub fn delete_local(&self, obj: jobject) {
        if !obj.is_null() {
            call!(self, v1_1, DeleteLocalRef, obj);
        }
    }

    /// `PushLocalFrame`: local references made until [`Self::pop_frame`]
    /// are freed together.
    pub fn push_frame(&self, capacity: i32) -> bool {
        call!(self, v1_2, PushLocalFrame, capacity as jint) == 0
    }

    /// `PopLocalFrame`.
    pub fn pop_frame(&self) {
        call!(self, v1_2, PopLocalFrame, ptr::null_mut());
    }
}
