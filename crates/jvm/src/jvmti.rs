//! JVM TI's `StopThread` (JVM TI specification, "Thread" functions): the
//! watchdog's way to end a test that loops in code without back-edge
//! checks (the JDK's, or a library's) on JDK 20 and later, where
//! `Thread.stop()` only throws `UnsupportedOperationException`. Debuggers
//! still stop threads this way; HotSpot grants the `can_signal_thread`
//! capability at any time.
//!
//! The interface is a table of function pointers (`jvmti.h`,
//! `jvmtiInterface_1_`), numbered from 1 in the header's comments: slot 7
//! is `StopThread`, slot 142 `AddCapabilities`.

use std::ffi::c_void;

use jni::JavaVM;

use crate::jni_raw::jobject;

/// `JVMTI_VERSION_1_2`, the oldest interface version with everything used here.
const JVMTI_VERSION_1_2: i32 = 0x3001_0200;
/// Slot of `StopThread` in the function table (1-based, as in `jvmti.h`).
const STOP_THREAD: usize = 7;
/// Slot of `AddCapabilities`.
const ADD_CAPABILITIES: usize = 142;
/// `can_signal_thread`: bit 10 of the first word of `jvmtiCapabilities`
/// (the eleventh one-bit field; the struct is 128 bits).
const CAN_SIGNAL_THREAD: u32 = 1 << 10;

type StopThreadFn = unsafe extern "system" fn(env: *mut c_void, thread: jobject, exception: jobject) -> i32;
type AddCapabilitiesFn = unsafe extern "system" fn(env: *mut c_void, caps: *const [u32; 4]) -> i32;

/// A JVM TI environment with the capability to stop threads.
#[derive(Clone, Copy)]
pub struct Jvmti {
    /// The `jvmtiEnv*`: a pointer to the pointer to the function table.
    env: *mut c_void,
}

// SAFETY: a JVM TI environment may be used from any thread (JVM TI
// specification, "Environments"); `Jvmti` holds nothing else.
unsafe impl Send for Jvmti {}

impl Jvmti {
    /// The JVM TI environment of `vm` with `can_signal_thread` added;
    /// `None` when the JVM offers no JVM TI or refuses the capability.
    pub fn with_signal_thread(vm: &JavaVM) -> Option<Jvmti> {
        let raw = vm.get_raw();
        let mut env: *mut c_void = std::ptr::null_mut();
        // SAFETY: `raw` is this process's live JavaVM; the out pointer is valid.
        let rc = unsafe { ((**raw).v1_4.GetEnv)(raw, &mut env, JVMTI_VERSION_1_2) };
        if rc != 0 || env.is_null() {
            return None;
        }
        let jvmti = Jvmti { env };
        let caps = [CAN_SIGNAL_THREAD, 0, 0, 0];
        // SAFETY: slot ADD_CAPABILITIES of a JVM TI 1.2+ table is
        // `AddCapabilities(jvmtiEnv*, const jvmtiCapabilities*)`.
        let add: AddCapabilitiesFn = unsafe { std::mem::transmute(jvmti.slot(ADD_CAPABILITIES)) };
        // SAFETY: `env` is the environment just obtained; `caps` outlives the call.
        (unsafe { add(env, &caps) } == 0).then_some(jvmti)
    }

    /// Sends `exception` (a `Throwable`) to `thread` asynchronously, as
    /// `Thread.stop` did; whether JVM TI accepted it.
    pub fn stop_thread(&self, thread: jobject, exception: jobject) -> bool {
        // SAFETY: slot STOP_THREAD is `StopThread(jvmtiEnv*, jthread, jobject)`.
        let stop: StopThreadFn = unsafe { std::mem::transmute(self.slot(STOP_THREAD)) };
        // SAFETY: `thread` and `exception` are global references of this JVM (the caller's contract).
        unsafe { stop(self.env, thread, exception) == 0 }
    }

    /// The function pointer in 1-based slot `n` of the table.
    fn slot(&self, n: usize) -> *const c_void {
        // SAFETY: `env` points to the table pointer; the table has more than 142 slots in every JVM TI 1.2+.
        unsafe {
            let table = *(self.env as *const *const *const c_void);
            *table.add(n - 1)
        }
    }
}
