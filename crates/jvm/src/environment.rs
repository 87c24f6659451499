//! The environment a worker gives the class under test: the seed from which
//! the runtime's `ferrosuite.runtime.Environment` derives the virtual
//! clock's base, the seeds of random generators and the identity hash
//! codes that instrumented code sees (formulas in `Environment.java`),
//! passed to the worker's JVM as the system property
//! `ferrosuite.environment`. With the heap size ([`crate::pool::WorkerConfig::heap_mb`])
//! it is what differs between the two executions an assertion must agree
//! on (`generate`'s two-environment check).

/// The seed of a worker's environment, and whether its JVM opens
/// `java.lang` to the class path.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Environment {
    /// The seed; every value the environment hands out is a function of it.
    pub seed: u64,
    /// Whether `java.base/java.lang` is open to the class path's unnamed
    /// module ([`OPEN_JAVA_LANG`]), as it is under a coverage agent: JaCoCo
    /// opens it to inject its runtime, so deep reflection into `java.lang`
    /// (a serializer walking a `ThreadLocal`'s fields) succeeds there and
    /// fails without it. A test must not depend on which.
    pub open_java_lang: bool,
}

/// The JVM option that opens `java.lang` to the class path, as the JaCoCo
/// agent does (its `InjectedClassRuntime`, JaCoCo 0.8.3 and later).
pub const OPEN_JAVA_LANG: &str = "--add-opens=java.base/java.lang=ALL-UNNAMED";

/// The system property that activates the runtime's environment and holds its seed.
pub const PROPERTY: &str = "ferrosuite.environment";

impl Environment {
    /// Another environment: a different seed, so a different clock base,
    /// random seeds and identity hash codes (the seed's bits flipped by a
    /// fixed constant other than the runtime's stream increment, so `other`
    /// of `other` is `self` and no seed is its own other), and `java.lang`
    /// opened where it was closed and the reverse.
    pub fn other(self) -> Environment {
        Environment { seed: self.seed ^ 0xd1b5_4a32_d192_ed03, open_java_lang: !self.open_java_lang }
    }

    /// The JVM options that set the runtime's environment:
    /// `-Dferrosuite.environment=SEED` (the seed as a signed 64-bit number,
    /// as Java's `Long.parseLong` reads it), then [`OPEN_JAVA_LANG`] when
    /// `java.lang` is open.
    pub fn jvm_options(self) -> Vec<String> {
        let mut options = vec![format!("-D{PROPERTY}={}", self.seed as i64)];
        if self.open_java_lang {
            options.push(OPEN_JAVA_LANG.to_string());
        }
        options
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_other_environment_differs_and_goes_back() {
        let e = Environment::default();
        assert_ne!(e.other(), e);
        assert_eq!(e.other().other(), e);
        assert_eq!(
            Environment { seed: u64::MAX, open_java_lang: false }.jvm_options(),
            ["-Dferrosuite.environment=-1"]
        );
        assert!(e.other().jvm_options().iter().any(|o| o == OPEN_JAVA_LANG));
    }
}
