//! The Java-side tracer that probes call (`java/ferrosuite/runtime/Tracer.java`,
//! compiled by `build.rs`), its name and the descriptors of its probe methods.
//!
//! The tracer's public static fields are the layout the executor reads back;
//! the Java source documents them field by field.

/// Internal name of the tracer class.
pub const TRACER_CLASS: &str = "ferrosuite/runtime/Tracer";

/// The compiled tracer class file (Java 8 class-file version).
pub const TRACER_BYTES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/ferrosuite/runtime/Tracer.class"));

/// Path of the tracer class file relative to a class-path directory.
pub const TRACER_PATH: &str = "ferrosuite/runtime/Tracer.class";

/// A static method of the tracer: name and JVM descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TracerMethod {
    pub name: &'static str,
    pub descriptor: &'static str,
}

macro_rules! tracer_methods {
    ($($konst:ident = $name:literal $desc:literal;)*) => {
        $(
            #[doc = concat!("`Tracer.", $name, $desc, "`.")]
            pub const $konst: TracerMethod = TracerMethod { name: $name, descriptor: $desc };
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
}
