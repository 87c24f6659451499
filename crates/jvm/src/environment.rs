//! The environment a worker gives the class under test: the seed from which
//! the runtime's `ferrosuite.runtime.Environment` derives the virtual
//! clock's base, the seeds of random generators and the identity hash
//! codes that instrumented code sees (formulas in `Environment.java`),
//! passed to the worker's JVM as the system property
//! `ferrosuite.environment`. With the heap size ([`crate::pool::WorkerConfig::heap_mb`])
//! it is what differs between the two executions an assertion must agree
//! on (`generate`'s two-environment check).

/// The seed of a worker's environment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Environment {
    /// The seed; every value the environment hands out is a function of it.
    pub seed: u64,
}

/// The system property that activates the runtime's environment and holds its seed.
pub const PROPERTY: &str = "ferrosuite.environment";

impl Environment {
    /// Another environment: a different seed, so a different clock base,
    /// random seeds and identity hash codes (the seed's bits flipped by a
    /// fixed constant other than the runtime's stream increment, so `other`
    /// of `other` is `self` and no seed is its own other).
    pub fn other(self) -> Environment {
        Environment { seed: self.seed ^ 0xd1b5_4a32_d192_ed03 }
    }

    /// The JVM option that sets the runtime's environment:
    /// `-Dferrosuite.environment=SEED` (the seed as a signed 64-bit number,
    /// as Java's `Long.parseLong` reads it).
    pub fn jvm_option(self) -> String {
        format!("-D{PROPERTY}={}", self.seed as i64)
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
        assert_eq!(Environment { seed: u64::MAX }.jvm_option(), "-Dferrosuite.environment=-1");
    }
}
