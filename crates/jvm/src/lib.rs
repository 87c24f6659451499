pub mod jni_raw;
