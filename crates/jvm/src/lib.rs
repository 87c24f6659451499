pub mod handles;
pub mod jni_raw;
pub mod pool;
pub mod protocol;
pub mod runner;
pub mod vm;
pub mod watchdog;
pub mod worker;
