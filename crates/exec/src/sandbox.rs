//! The errors ferrosuite's sandbox throws into the class under test.
//!
//! The sandbox is the Java class `ferrosuite.runtime.Sandbox` (source in
//! `crates/instrument/java`, compiled and embedded by the `instrument`
//! crate). Instrumented code calls it instead of ending the JVM and at
//! loop back-edges; it throws one of the two nested `Error`s below. An
//! execution reports them like any exception ([`crate::ExceptionInfo`]),
//! so the executor, the search and the emitter recognise them by these
//! binary names (the spelling of `Class.getName()`).

/// Binary name of `Sandbox.TimeUp`, thrown at an instrumented loop
/// back-edge once the per-test time limit is reached (or the loop ran more
/// back-edges than the sandbox allows): the test timed out.
pub const TIME_UP: &str = "ferrosuite.runtime.Sandbox$TimeUp";

/// Binary name of `Sandbox.ExitRequested`, thrown instead of
/// `System.exit`, `Runtime.exit` and `Runtime.halt`: the test would end the
/// JVM.
pub const EXIT_REQUESTED: &str = "ferrosuite.runtime.Sandbox$ExitRequested";

/// Both sandbox errors, [`EXIT_REQUESTED`] first: a test that ends in one of
/// them would exit the JVM or loop forever outside the sandbox.
pub const EXCEPTIONS: [&str; 2] = [EXIT_REQUESTED, TIME_UP];

#[cfg(test)]
mod tests {
    use model::classfile::ClassFile;
    use model::names::BinaryName;

    /// Each name is the name of a class the `instrument` crate compiled from
    /// the Java runtime sources, nested in the sandbox class.
    #[test]
    fn sandbox_error_names_are_classes_of_the_java_runtime() {
        for name in super::EXCEPTIONS {
            let internal = BinaryName::parse(name).unwrap().to_internal();
            let file = format!("{internal}.class");
            let (_, bytes) = instrument::tracer::RUNTIME_CLASSES
                .iter()
                .find(|(path, _)| *path == file)
                .unwrap_or_else(|| panic!("the runtime has no {file}"));
            assert_eq!(ClassFile::parse(bytes).unwrap().name(), internal.as_str());
            assert_eq!(internal.outer_class().unwrap().as_str(), instrument::tracer::SANDBOX_CLASS);
        }
    }
}
