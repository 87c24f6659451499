//! The Java-side tracer that probes call (`java/ferrosuite/runtime/Tracer.java`,
//! compiled by `build.rs`), its name and the descriptors of its probe methods.
//!
//! The tracer's public static fields are the layout the executor reads back;
//! the Java source documents them field by field.

/// Internal name of the tracer class.
pub const TRACER_CLASS: &str = "ferrosuite/runtime/Tracer";

/// Internal name of the sandbox class (exit rewriting, loop checks, output capture).
pub const SANDBOX_CLASS: &str = "ferrosuite/runtime/Sandbox";

/// Internal name of the class that makes the lambdas of test cases in a
/// worker (`Lambdas.java`: a `java.lang.reflect.Proxy` per lambda).
pub const LAMBDAS_CLASS: &str = "ferrosuite/runtime/Lambdas";

/// `Lambdas.make(Class, int, Object)`: a lambda of a functional interface
/// with one of the [`lambda_body`] codes, and the value it returns for
/// [`lambda_body::RETURNS`].
pub const LAMBDAS_MAKE: TracerMethod = TracerMethod {
    owner: LAMBDAS_CLASS,
    name: "make",
    descriptor: "(Ljava/lang/Class;ILjava/lang/Object;)Ljava/lang/Object;",
};

/// `Mocks.make(Class)`: a mock of an interface with no stubs (`Mocks.java`:
/// a `java.lang.reflect.Proxy` answering as a Mockito 2 mock does).
pub const MOCKS_MAKE: TracerMethod = TracerMethod {
    owner: "ferrosuite/runtime/Mocks",
    name: "make",
    descriptor: "(Ljava/lang/Class;)Ljava/lang/Object;",
};

/// `Mocks.stub(Object mock, String key, Object value)`: the method `key`
/// (its name and JVM descriptor, `area()I`) of `mock` returns `value` (boxed
/// for a primitive return type) whatever its arguments.
pub const MOCKS_STUB: TracerMethod = TracerMethod {
    owner: "ferrosuite/runtime/Mocks",
    name: "stub",
    descriptor: "(Ljava/lang/Object;Ljava/lang/String;Ljava/lang/Object;)V",
};

/// `Mocks.warm()`: starts Mockito when it is on the class path, before a
/// worker takes tests (its first mock takes longer than a test may).
pub const MOCKS_WARM: TracerMethod =
    TracerMethod { owner: "ferrosuite/runtime/Mocks", name: "warm", descriptor: "()V" };

/// `Serial.readObject(ObjectInputStream)`: the worker's way to call
/// `ObjectInputStream.readObject()` so that it resolves application classes
/// (`Serial.java` says why).
pub const SERIAL_READ_OBJECT: TracerMethod = TracerMethod {
    owner: "ferrosuite/runtime/Serial",
    name: "readObject",
    descriptor: "(Ljava/io/ObjectInputStream;)Ljava/lang/Object;",
};

/// The body codes of `Lambdas.make`, the constants of `Lambdas.java`.
pub mod lambda_body {
    /// Nothing for a `void` method, else the default value of the return type.
    pub const DEFAULT: i32 = 0;
    /// Returns the value passed to `make`.
    pub const RETURNS: i32 = 1;
    /// Returns the first argument.
    pub const IDENTITY: i32 = 2;
    /// Compares the two arguments in natural order.
    pub const NATURAL_ORDER: i32 = 3;
}

/// The compiled runtime classes (Java 8 class-file version): path relative
/// to a class-path directory, and class-file bytes. Instrumented classes
/// need them on the class path.
pub const RUNTIME_CLASSES: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/runtime_classes.rs"));

/// Writes the runtime classes under the class-path directory `dir`.
///
/// # Errors
/// I/O errors creating the directories or files.
pub fn write_runtime(dir: &std::path::Path) -> std::io::Result<()> {
    for (rel, bytes) in RUNTIME_CLASSES {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, bytes)?;
    }
    Ok(())
}

/// A static method of the runtime that instrumented code calls: owner
/// (internal name), name and JVM descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TracerMethod {
    /// Internal name of the runtime class that declares it.
    pub owner: &'static str,
    /// The method name.
    pub name: &'static str,
    /// The JVM method descriptor.
    pub descriptor: &'static str,
}

macro_rules! tracer_methods {
    ($($konst:ident = $name:literal $desc:literal;)*) => {
        $(
            #[doc = concat!("`Tracer.", $name, $desc, "`.")]
            pub const $konst: TracerMethod = TracerMethod { owner: TRACER_CLASS, name: $name, descriptor: $desc };
        )*
    };
}

tracer_methods! {
    CMP_II = "cmpII" "(III)V";
    CMP_I = "cmpI" "(II)V";
    CMP_AA = "cmpAA" "(Ljava/lang/Object;Ljava/lang/Object;I)V";
    CMP_A = "cmpA" "(Ljava/lang/Object;I)V";
    LCMP = "lcmp" "(JJI)I";
    FCMPL = "fcmpl" "(FFI)I";
    FCMPG = "fcmpg" "(FFI)I";
    DCMPL = "dcmpl" "(DDI)I";
    DCMPG = "dcmpg" "(DDI)I";
    SWITCH_VALUE = "switchValue" "(II)V";
    LINE = "line" "(I)V";
    METHOD = "method" "(I)V";
    EXPORT = "export" "()[D";
    STRING_EQUALS = "stringEquals" "(Ljava/lang/String;Ljava/lang/Object;)Z";
    STRING_EQUALS_IGNORE_CASE = "stringEqualsIgnoreCase" "(Ljava/lang/String;Ljava/lang/String;)Z";
    STRING_STARTS_WITH = "stringStartsWith" "(Ljava/lang/String;Ljava/lang/String;)Z";
    STRING_ENDS_WITH = "stringEndsWith" "(Ljava/lang/String;Ljava/lang/String;)Z";
    STRING_CONTAINS = "stringContains" "(Ljava/lang/String;Ljava/lang/CharSequence;)Z";
    MAP_GET = "mapGet" "(Ljava/util/Map;Ljava/lang/Object;)Ljava/lang/Object;";
    MAP_CONTAINS_KEY = "mapContainsKey" "(Ljava/util/Map;Ljava/lang/Object;)Z";
    PROPERTIES_GET_PROPERTY = "propertiesGetProperty" "(Ljava/util/Properties;Ljava/lang/String;)Ljava/lang/String;";
    COLLECTION_CONTAINS = "collectionContains" "(Ljava/util/Collection;Ljava/lang/Object;)Z";
    ARRAYS_BINARY_SEARCH = "arraysBinarySearch" "([Ljava/lang/Object;Ljava/lang/Object;)I";
    CLASS_GET_METHOD = "classGetMethod" "(Ljava/lang/Class;Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;";
    CLASS_GET_DECLARED_METHOD = "classGetDeclaredMethod" "(Ljava/lang/Class;Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;";
    CLASS_GET_FIELD = "classGetField" "(Ljava/lang/Class;Ljava/lang/String;)Ljava/lang/reflect/Field;";
    CLASS_GET_DECLARED_FIELD = "classGetDeclaredField" "(Ljava/lang/Class;Ljava/lang/String;)Ljava/lang/reflect/Field;";
    PATTERN_MATCHER = "patternMatcher" "(Ljava/util/regex/Pattern;Ljava/lang/CharSequence;)Ljava/util/regex/Matcher;";
    MATCHER_MATCHES = "matcherMatches" "(Ljava/util/regex/Matcher;)Z";
    MATCHER_LOOKING_AT = "matcherLookingAt" "(Ljava/util/regex/Matcher;)Z";
    MATCHER_FIND = "matcherFind" "(Ljava/util/regex/Matcher;)Z";
    STRING_MATCHES = "stringMatches" "(Ljava/lang/String;Ljava/lang/String;)Z";
    PATTERN_MATCHES = "patternMatches" "(Ljava/lang/String;Ljava/lang/CharSequence;)Z";
    RESET = "reset" "()V";
    CALL_CONDITION = "callCondition" "(DI)V";
    CONDITION_DISTANCE = "conditionDistance" "(JJI)D";
    MIN_DISTANCE = "minDistance" "(DD)D";
    REFERENCE_VALUE = "referenceValue" "(Ljava/lang/Object;)J";
    LENGTH_VALUE = "lengthValue" "(Ljava/lang/Object;)J";
    STATE_VALUE = "stateValue" "(Ljava/lang/Object;I)J";
    ADD_VALUES = "addValues" "(JJ)J";
    SUBTRACT_VALUES = "subtractValues" "(JJ)J";
}

/// A static method of the sandbox class.
pub mod sandbox {
    use super::{SANDBOX_CLASS, TracerMethod};

    /// `Sandbox.exit(int)`, replacing `System.exit(int)`.
    pub const EXIT: TracerMethod = TracerMethod { owner: SANDBOX_CLASS, name: "exit", descriptor: "(I)V" };
    /// `Sandbox.runtimeExit(Runtime, int)`, replacing `Runtime.exit(int)`.
    pub const RUNTIME_EXIT: TracerMethod =
        TracerMethod { owner: SANDBOX_CLASS, name: "runtimeExit", descriptor: "(Ljava/lang/Runtime;I)V" };
    /// `Sandbox.runtimeHalt(Runtime, int)`, replacing `Runtime.halt(int)`.
    pub const RUNTIME_HALT: TracerMethod =
        TracerMethod { owner: SANDBOX_CLASS, name: "runtimeHalt", descriptor: "(Ljava/lang/Runtime;I)V" };
    /// `Sandbox.checkTimeout()`, called at loop back-edges.
    pub const CHECK_TIMEOUT: TracerMethod =
        TracerMethod { owner: SANDBOX_CLASS, name: "checkTimeout", descriptor: "()V" };
    /// `Sandbox.checkWrite(Object)`, called before a call that writes the file an argument names.
    pub const CHECK_WRITE: TracerMethod =
        TracerMethod { owner: SANDBOX_CLASS, name: "checkWrite", descriptor: "(Ljava/lang/Object;)V" };
    /// `Sandbox.refuseNetwork()`, called before a call that opens a TCP socket.
    pub const REFUSE_NETWORK: TracerMethod =
        TracerMethod { owner: SANDBOX_CLASS, name: "refuseNetwork", descriptor: "()V" };
    /// `Sandbox.refuseProcess()`, called before a call that starts a process.
    pub const REFUSE_PROCESS: TracerMethod =
        TracerMethod { owner: SANDBOX_CLASS, name: "refuseProcess", descriptor: "()V" };
}

/// Internal name of the mutant-schema class (`Mutants.java`).
pub const MUTANTS_CLASS: &str = "ferrosuite/runtime/Mutants";

/// The static methods of `Mutants` that mutated instructions call.
pub mod mutants {
    use super::{MUTANTS_CLASS, TracerMethod};

    /// `Mutants.<name><descriptor>`.
    pub const fn method(name: &'static str, descriptor: &'static str) -> TracerMethod {
        TracerMethod { owner: MUTANTS_CLASS, name, descriptor }
    }

    /// Bootstrap of a removable void call:
    /// `removeCall(Lookup, String, MethodType, MethodHandle target, int id)`.
    pub const REMOVE_CALL: TracerMethod = method(
        "removeCall",
        "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;\
         Ljava/lang/invoke/MethodHandle;I)Ljava/lang/invoke/CallSite;",
    );
}

/// The value log of TARDIS's concolic replay (`ValueLog.java`): probes
/// after calls into code the replay does not run, and the kinds of the
/// logged values (the constants of the Java source).
pub mod value_log {
    use super::TracerMethod;

    /// Internal name of the value-log class.
    pub const CLASS: &str = "ferrosuite/runtime/ValueLog";

    const fn log(name: &'static str, descriptor: &'static str) -> TracerMethod {
        TracerMethod { owner: CLASS, name, descriptor }
    }

    /// `ValueLog.logI(int value, int site)`: after a call returning `int`, `boolean`, `char`, `short` or `byte`.
    pub const LOG_I: TracerMethod = log("logI", "(II)V");
    /// `ValueLog.logJ(long value, int site)`.
    pub const LOG_J: TracerMethod = log("logJ", "(JI)V");
    /// `ValueLog.logF(float value, int site)`.
    pub const LOG_F: TracerMethod = log("logF", "(FI)V");
    /// `ValueLog.logD(double value, int site)`.
    pub const LOG_D: TracerMethod = log("logD", "(DI)V");
    /// `ValueLog.logA(Object value, int site)`.
    pub const LOG_A: TracerMethod = log("logA", "(Ljava/lang/Object;I)V");
    /// `ValueLog.exportValues()`: `[count, truncated, (site << 8 | kind, bits)...]`.
    pub const EXPORT_VALUES: TracerMethod = log("exportValues", "()[J");
    /// `ValueLog.exportValueTexts()`: per event a string's text, an object's class name, or null.
    pub const EXPORT_TEXTS: TracerMethod = log("exportValueTexts", "()[Ljava/lang/String;");
    /// The static `int` field with the per-execution event cap (0: off).
    pub const CAP_FIELD: &str = "cap";

    /// Kind of an `int`-like value.
    pub const INT: u8 = 0;
    /// Kind of a `long`.
    pub const LONG: u8 = 1;
    /// Kind of a `float` (raw bits).
    pub const FLOAT: u8 = 2;
    /// Kind of a `double` (raw bits).
    pub const DOUBLE: u8 = 3;
    /// Kind of `null`.
    pub const NULL: u8 = 4;
    /// Kind of a `String` (bits: its length).
    pub const STRING: u8 = 5;
    /// Kind of another object (bits: its identity ordinal).
    pub const OBJECT: u8 = 6;
    /// First box kind; `BOX + k` for k in Integer, Long, Short, Byte,
    /// Character, Boolean, Float, Double.
    pub const BOX: u8 = 7;
    /// The box classes in the order of their kinds from [`BOX`].
    pub const BOXES: [&str; 8] = [
        "java/lang/Integer",
        "java/lang/Long",
        "java/lang/Short",
        "java/lang/Byte",
        "java/lang/Character",
        "java/lang/Boolean",
        "java/lang/Float",
        "java/lang/Double",
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value-log probes and exports are public static methods of the
    /// compiled runtime, and the kinds are the constants of its source.
    #[test]
    fn the_value_log_has_the_methods_and_kinds_the_probes_use() {
        use model::access;
        use model::classfile::ClassFile;
        use value_log::*;
        let file = format!("{CLASS}.class");
        let (_, bytes) = RUNTIME_CLASSES.iter().find(|(p, _)| *p == file).expect("compiled");
        let cf = ClassFile::parse(bytes).unwrap();
        let public_static = access::PUBLIC | access::STATIC;
        for m in [LOG_I, LOG_J, LOG_F, LOG_D, LOG_A, EXPORT_VALUES, EXPORT_TEXTS] {
            assert!(
                cf.methods.iter().any(|x| cf.member_name(x) == m.name
                    && cf.member_descriptor(x) == m.descriptor
                    && x.access & public_static == public_static),
                "{m:?}"
            );
        }
        assert!(cf.fields.iter().any(|f| cf.member_name(f) == CAP_FIELD && cf.member_descriptor(f) == "I"));
        let source = include_str!("../java/ferrosuite/runtime/ValueLog.java");
        for (name, kind) in
            [("INT", INT), ("LONG", LONG), ("FLOAT", FLOAT), ("DOUBLE", DOUBLE), ("NULL", NULL), ("STRING", STRING)]
                .into_iter()
                .chain([("OBJECT", OBJECT), ("BOX", BOX)])
        {
            assert!(source.contains(&format!("public static final int {name} = {kind};")), "{name}");
        }
        let order = "Integer, Long, Short, Byte, Character, Boolean, Float, Double";
        assert!(source.contains(order));
        assert_eq!(BOXES.map(|b| b.trim_start_matches("java/lang/")).join(", "), order);
    }

    /// Every method the recording probes and the worker call is a public
    /// static method of the compiled runtime, with that descriptor.
    #[test]
    fn the_recording_sinks_have_the_methods_the_probes_call() {
        use model::access;
        use model::classfile::ClassFile;
        let methods = [
            recorder::ENTER,
            recorder::EXIT,
            recorder::EXIT_VOID,
            value_tracer::ENTER,
            value_tracer::EXIT,
            value_tracer::EXIT_VOID,
            value_tracer::LINE,
            MOCKS_MAKE,
            MOCKS_STUB,
            SERIAL_READ_OBJECT,
        ];
        for m in methods {
            let file = format!("{}.class", m.owner);
            let (_, bytes) = RUNTIME_CLASSES.iter().find(|(p, _)| *p == file).expect("compiled");
            let cf = ClassFile::parse(bytes).unwrap();
            let public_static = access::PUBLIC | access::STATIC;
            assert!(
                cf.methods.iter().any(|x| cf.member_name(x) == m.name
                    && cf.member_descriptor(x) == m.descriptor
                    && x.access & public_static == public_static),
                "{m:?}"
            );
        }
    }

    /// `Lambdas.make` is a public static method of the compiled runtime,
    /// and the body codes are the constants of its source.
    #[test]
    fn lambdas_make_and_its_body_codes_match_the_java_runtime() {
        use model::access;
        use model::classfile::ClassFile;
        let file = format!("{LAMBDAS_CLASS}.class");
        let (_, bytes) = RUNTIME_CLASSES.iter().find(|(p, _)| *p == file).expect("compiled");
        let cf = ClassFile::parse(bytes).unwrap();
        let public_static = access::PUBLIC | access::STATIC;
        assert!(cf.methods.iter().any(|m| cf.member_name(m) == LAMBDAS_MAKE.name
            && cf.member_descriptor(m) == LAMBDAS_MAKE.descriptor
            && m.access & public_static == public_static));
        let source = include_str!("../java/ferrosuite/runtime/Lambdas.java");
        let codes = [
            ("DEFAULT", lambda_body::DEFAULT),
            ("RETURNS", lambda_body::RETURNS),
            ("IDENTITY", lambda_body::IDENTITY),
            ("NATURAL_ORDER", lambda_body::NATURAL_ORDER),
        ];
        for (name, code) in codes {
            assert!(source.contains(&format!("public static final int {name} = {code};")), "{name}");
        }
    }
}

/// The three methods every sink of the recording probes has
/// (`probes::record::Sink`).
#[derive(Debug, Clone, Copy)]
enum SinkMethod {
    /// `enter(int method, Object receiver, Object[] args)`.
    Enter,
    /// `exit(Object result, int method, Object receiver)`.
    Exit,
    /// `exitVoid(int method, Object receiver)`.
    ExitVoid,
}

/// Method `m` of the sink class `owner`.
const fn sink_method(owner: &'static str, m: SinkMethod) -> TracerMethod {
    match m {
        SinkMethod::Enter => {
            TracerMethod { owner, name: "enter", descriptor: "(ILjava/lang/Object;[Ljava/lang/Object;)V" }
        }
        SinkMethod::Exit => {
            TracerMethod { owner, name: "exit", descriptor: "(Ljava/lang/Object;ILjava/lang/Object;)V" }
        }
        SinkMethod::ExitVoid => TracerMethod { owner, name: "exitVoid", descriptor: "(ILjava/lang/Object;)V" },
    }
}

/// The static methods of `Recorder.java`, the sink of the recording probes
/// ([`crate::probes::record`]).
pub mod recorder {
    use super::TracerMethod;

    /// Internal name of the recorder class.
    pub const CLASS: &str = "ferrosuite/runtime/Recorder";
    /// `Recorder.enter(int method, Object receiver, Object[] args)`.
    pub const ENTER: TracerMethod = super::sink_method(CLASS, super::SinkMethod::Enter);
    /// `Recorder.exit(Object result, int method, Object receiver)`.
    pub const EXIT: TracerMethod = super::sink_method(CLASS, super::SinkMethod::Exit);
    /// `Recorder.exitVoid(int method, Object receiver)`.
    pub const EXIT_VOID: TracerMethod = super::sink_method(CLASS, super::SinkMethod::ExitVoid);
    /// The system property that names the recording folder (`classes.txt` in, `events.txt` out).
    pub const DIR_PROPERTY: &str = "ferrosuite.record";
}

/// The static methods of `ValueTracer.java`, the sink of the value-tracing
/// probes (ZoomIn, [`crate::probes::record::Sink::VALUE_TRACER`]).
pub mod value_tracer {
    use super::TracerMethod;

    /// Internal name of the value tracer class.
    pub const CLASS: &str = "ferrosuite/runtime/ValueTracer";
    /// `ValueTracer.enter(int method, Object receiver, Object[] args)`.
    pub const ENTER: TracerMethod = super::sink_method(CLASS, super::SinkMethod::Enter);
    /// `ValueTracer.exit(Object result, int method, Object receiver)`.
    pub const EXIT: TracerMethod = super::sink_method(CLASS, super::SinkMethod::Exit);
    /// `ValueTracer.exitVoid(int method, Object receiver)`.
    pub const EXIT_VOID: TracerMethod = super::sink_method(CLASS, super::SinkMethod::ExitVoid);
    /// `ValueTracer.line(int line)`.
    pub const LINE: TracerMethod = TracerMethod { owner: CLASS, name: "line", descriptor: "(I)V" };
    /// The system property that names the tracing folder (`values.txt` out).
    pub const DIR_PROPERTY: &str = "ferrosuite.trace";
    /// The system property that bounds the depth of traced fields (default 2).
    pub const DEPTH_PROPERTY: &str = "ferrosuite.trace.depth";
}
