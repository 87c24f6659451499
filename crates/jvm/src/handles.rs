//! Cached JNI handles: classes (as global references), method and field
//! ids, resolved once per worker and reused by every test.

use std::collections::HashMap;

use instrument::static_reset::{RESET_ALL, RESTORE_SAVED, SAVE_FIELDS};
use instrument::tracer::{MUTANTS_CLASS, SANDBOX_CLASS, TRACER_CLASS, TracerMethod, value_log};
use model::descriptor::{BaseType, FieldType};

use crate::jni_raw::{JResult, Jni, Kind, jclass, jfieldID, jmethodID};
use crate::vm::VmError;

/// The JNI kind of a field type.
pub fn kind_of(ty: &FieldType) -> Kind {
    match ty {
        FieldType::Base(b) => match b {
            BaseType::Boolean => Kind::Boolean,
            BaseType::Byte => Kind::Byte,
            BaseType::Char => Kind::Char,
            BaseType::Short => Kind::Short,
            BaseType::Int => Kind::Int,
            BaseType::Long => Kind::Long,
            BaseType::Float => Kind::Float,
            BaseType::Double => Kind::Double,
        },
        FieldType::Object(_) | FieldType::Array(_) => Kind::Object,
    }
}

/// The name `FindClass` expects for a reference type: the internal name
/// of a class, the descriptor of an array.
pub fn class_name_for(ty: &FieldType) -> Option<String> {
    match ty {
        FieldType::Object(n) => Some(n.as_str().to_string()),
        FieldType::Array(_) => Some(ty.to_descriptor()),
        FieldType::Base(_) => None,
    }
}

/// Well-known methods used to describe values and exceptions.
#[derive(Clone, Copy)]
pub struct Known {
    pub string: jclass,
    /// `java.lang.LinkageError`: what a class or call site that an earlier
    /// test's time limit broke throws ([`crate::runner::Runner::take_poisoned`]).
    pub linkage_error: jclass,
    pub object_get_class: jmethodID,
    pub class_get_name: jmethodID,
    pub throwable_get_message: jmethodID,
    pub throwable_get_cause: jmethodID,
    pub throwable_get_stack_trace: jmethodID,
    pub frame_class_name: jmethodID,
    pub frame_method_name: jmethodID,
    pub frame_line_number: jmethodID,
    pub thread: jclass,
    pub thread_current: jmethodID,
    pub thread_interrupt: jmethodID,
    pub thread_interrupted: jmethodID,
    pub thread_stop: Option<jmethodID>,
    pub tracer: jclass,
    pub tracer_reset: jmethodID,
    pub tracer_export: jmethodID,
    pub tracer_export_strings: jmethodID,
    /// `Tracer.exportPairs()`: the input-to-state pairs of the execution.
    pub tracer_export_pairs: jmethodID,
    pub sandbox: jclass,
    pub sandbox_time_up: jfieldID,
    pub sandbox_back_edges: jfieldID,
    /// `Mutants.active`, when the runtime has the `Mutants` class.
    pub mutants: Option<(jclass, jfieldID)>,
    /// `StaticReset.resetAll()`, when the runtime has the `StaticReset` class.
    pub static_reset: Option<(jclass, jmethodID)>,
    /// `StaticReset.saveFields(String)` and `StaticReset.restoreSaved()`,
    /// when the runtime has them (`ExecConfig::restored_statics`).
    pub static_restore: Option<((jclass, jmethodID), (jclass, jmethodID))>,
    /// `ValueLog`'s cap and exports, when the runtime has the class.
    pub value_log: Option<ValueLogHandles>,
    pub sandbox_take_output: jmethodID,
    pub sandbox_stop_new_threads: jmethodID,
    pub sandbox_install: jmethodID,
}

/// The members of `ValueLog` the runner uses
/// (`instrument::tracer::value_log`).
#[derive(Clone, Copy)]
pub struct ValueLogHandles {
    /// The class.
    pub class: jclass,
    /// The static `int cap`.
    pub cap: jfieldID,
    /// `long[] exportValues()`.
    pub export_values: jmethodID,
    /// `String[] exportValueTexts()`.
    pub export_texts: jmethodID,
}

/// The handles of one worker: a cache of classes and member ids, and the
/// well-known ones resolved at start.
pub struct Handles {
    pub cache: Cache,
    pub known: Known,
}

impl Handles {
    /// Resolves the well-known handles.
    ///
    /// # Errors
    /// [`VmError::Runtime`] when the JDK or the ferrosuite runtime classes are missing.
    pub fn new(jni: Jni) -> Result<Handles, VmError> {
        let mut cache = Cache::default();
        let known = cache.resolve_known(jni).map_err(|_| {
            let _ = jni.take_exception();
            VmError::Runtime
        })?;
        Ok(Handles { cache, known })
    }
}

/// Classes (global references) and member ids by name, resolved once.
/// Global references are never freed: a worker resolves a bounded set.
#[derive(Default)]
pub struct Cache {
    classes: HashMap<String, jclass>,
    methods: HashMap<(String, String, String, bool), jmethodID>,
    fields: HashMap<(String, String, String, bool), jfieldID>,
}

impl Cache {
    fn resolve_known(&mut self, jni: Jni) -> JResult<Known> {
        let m = |h: &mut Cache, c: &str, n: &str, d: &str, s: bool| h.method(jni, c, n, d, s);
        Ok(Known {
            string: self.class(jni, "java/lang/String")?,
            linkage_error: self.class(jni, "java/lang/LinkageError")?,
            object_get_class: m(self, "java/lang/Object", "getClass", "()Ljava/lang/Class;", false)?,
            class_get_name: m(self, "java/lang/Class", "getName", "()Ljava/lang/String;", false)?,
            throwable_get_message: m(self, "java/lang/Throwable", "getMessage", "()Ljava/lang/String;", false)?,
            throwable_get_cause: m(self, "java/lang/Throwable", "getCause", "()Ljava/lang/Throwable;", false)?,
            throwable_get_stack_trace: m(
                self,
                "java/lang/Throwable",
                "getStackTrace",
                "()[Ljava/lang/StackTraceElement;",
                false,
            )?,
            frame_class_name: m(self, "java/lang/StackTraceElement", "getClassName", "()Ljava/lang/String;", false)?,
            frame_method_name: m(self, "java/lang/StackTraceElement", "getMethodName", "()Ljava/lang/String;", false)?,
            frame_line_number: m(self, "java/lang/StackTraceElement", "getLineNumber", "()I", false)?,
            thread: self.class(jni, "java/lang/Thread")?,
            thread_current: m(self, "java/lang/Thread", "currentThread", "()Ljava/lang/Thread;", true)?,
            thread_interrupt: m(self, "java/lang/Thread", "interrupt", "()V", false)?,
            thread_interrupted: m(self, "java/lang/Thread", "interrupted", "()Z", true)?,
            thread_stop: {
                // JDK 20+ keep the method but make it throw; a later JDK may drop it.
                let stop = m(self, "java/lang/Thread", "stop", "()V", false).ok();
                let _ = jni.take_exception();
                stop
            },
            tracer: self.class(jni, TRACER_CLASS)?,
            tracer_reset: m(self, TRACER_CLASS, "reset", "()V", true)?,
            tracer_export: m(self, TRACER_CLASS, "export", "()[D", true)?,
            tracer_export_strings: m(self, TRACER_CLASS, "exportStrings", "()[Ljava/lang/String;", true)?,
            tracer_export_pairs: m(self, TRACER_CLASS, "exportPairs", "()[Ljava/lang/String;", true)?,
            sandbox: self.class(jni, SANDBOX_CLASS)?,
            sandbox_time_up: self.field(jni, SANDBOX_CLASS, "timeUp", "Z", true)?,
            sandbox_back_edges: self.field(jni, SANDBOX_CLASS, "backEdges", "I", true)?,
            mutants: self.optional_static_field(jni, MUTANTS_CLASS, "active", "I"),
            static_reset: self.optional_static_method(jni, RESET_ALL),
            static_restore: self
                .optional_static_method(jni, SAVE_FIELDS)
                .zip(self.optional_static_method(jni, RESTORE_SAVED)),
            value_log: self.value_log(jni),
            sandbox_take_output: m(self, SANDBOX_CLASS, "takeOutput", "()[Ljava/lang/String;", true)?,
            sandbox_stop_new_threads: m(self, SANDBOX_CLASS, "stopNewThreads", "()I", true)?,
            sandbox_install: m(self, SANDBOX_CLASS, "install", "(I)V", true)?,
        })
    }

    /// A static field that may be missing (the exception is cleared).
    fn optional_static_field(&mut self, jni: Jni, owner: &str, name: &str, desc: &str) -> Option<(jclass, jfieldID)> {
        let found = self.class(jni, owner).and_then(|c| self.field(jni, owner, name, desc, true).map(|f| (c, f)));
        let _ = jni.take_exception();
        found.ok()
    }

    /// The `ValueLog` members, or `None` when the runtime lacks them.
    fn value_log(&mut self, jni: Jni) -> Option<ValueLogHandles> {
        let (class, cap) = self.optional_static_field(jni, value_log::CLASS, value_log::CAP_FIELD, "I")?;
        let (_, export_values) = self.optional_static_method(jni, value_log::EXPORT_VALUES)?;
        let (_, export_texts) = self.optional_static_method(jni, value_log::EXPORT_TEXTS)?;
        Some(ValueLogHandles { class, cap, export_values, export_texts })
    }

    /// A static method of the runtime that may be missing (the exception is cleared).
    fn optional_static_method(&mut self, jni: Jni, m: TracerMethod) -> Option<(jclass, jmethodID)> {
        let found = self
            .class(jni, m.owner)
            .and_then(|c| self.method(jni, m.owner, m.name, m.descriptor, true).map(|id| (c, id)));
        let _ = jni.take_exception();
        found.ok()
    }

    /// A class by `FindClass` name, as a cached global reference.
    pub fn class(&mut self, jni: Jni, name: &str) -> JResult<jclass> {
        if let Some(c) = self.classes.get(name) {
            return Ok(*c);
        }
        let local = jni.find_class(name)?;
        let global = jni.global_ref(local);
        jni.delete_local(local);
        self.classes.insert(name.to_string(), global);
        Ok(global)
    }

    /// A method id of class `owner` (internal name), cached.
    pub fn method(&mut self, jni: Jni, owner: &str, name: &str, desc: &str, is_static: bool) -> JResult<jmethodID> {
        let key = (owner.to_string(), name.to_string(), desc.to_string(), is_static);
        if let Some(m) = self.methods.get(&key) {
            return Ok(*m);
        }
        let class = self.class(jni, owner)?;
        let id = jni.method_id(class, name, desc, is_static)?;
        self.methods.insert(key, id);
        Ok(id)
    }

    /// A field id of class `owner` (internal name), cached.
    pub fn field(&mut self, jni: Jni, owner: &str, name: &str, desc: &str, is_static: bool) -> JResult<jfieldID> {
        let key = (owner.to_string(), name.to_string(), desc.to_string(), is_static);
        if let Some(f) = self.fields.get(&key) {
            return Ok(*f);
        }
        let class = self.class(jni, owner)?;
        let id = jni.field_id(class, name, desc, is_static)?;
        self.fields.insert(key, id);
        Ok(id)
    }
}

// SAFETY: `Known` holds global references and method/field ids, which JNI
// defines as valid on every thread of the JVM that made them.
unsafe impl Send for Known {}
