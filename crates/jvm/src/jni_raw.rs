//! A thin layer over the raw JNI function table (JNI spec, chapter 4).
//!
//! This module holds the unsafe calls; everything above it works with
//! [`Jni`] methods. A [`Jni`] is valid only on the thread it was obtained
//! on (JNI environments are per thread). Methods never leave a Java
//! exception pending silently: calls that can throw return
//! `Err(Thrown(throwable))` with the exception cleared.

use std::ffi::CString;
use std::ptr;

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

/// The primitive kinds JNI distinguishes in calls, fields and arrays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Void,
    Boolean,
    Byte,
    Char,
    Short,
    Int,
    Long,
    Float,
    Double,
    Object,
}

impl Jni {
    /// Wraps the environment pointer of the current thread.
    ///
    /// # Safety
    /// `env` must be the valid `JNIEnv` of the calling thread, and the
    /// returned value must not be used on another thread.
    pub unsafe fn from_raw(env: *mut JNIEnv) -> Jni {
        Jni { env }
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
    pub fn call_method(&self, obj: jobject, m: jmethodID, kind: Kind, args: &[jvalue]) -> JResult<jvalue> {
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
        self.check(v)
    }

    /// Calls a static method returning `kind`.
    pub fn call_static(&self, class: jclass, m: jmethodID, kind: Kind, args: &[jvalue]) -> JResult<jvalue> {
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
        self.check(v)
    }

    /// Reads a field; `obj` is the class for a static field.
    pub fn get_field(&self, obj: jobject, f: jfieldID, kind: Kind, is_static: bool) -> JResult<jvalue> {
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
        self.check(v)
    }

    /// Writes a field; `obj` is the class for a static field.
    pub fn set_field(&self, obj: jobject, f: jfieldID, kind: Kind, is_static: bool, v: jvalue) -> JResult<()> {
        // The union member read matches `kind` (the macro's unsafe block covers it).
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

    /// `array[index] = v` for an array of `kind`.
    pub fn array_store(&self, array: jobject, kind: Kind, index: i32, v: jvalue) -> JResult<()> {
        // The union member read matches `kind` (the macro's unsafe block covers it).
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
