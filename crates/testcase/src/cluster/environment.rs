//! JDK members whose results depend on the environment (the clock, random
//! seeds, identity hash codes): the cluster never uses them to make values
//! for the class under test, since a test that passed such a value would
//! do something else on every run. In a worker the class under test's own
//! calls of them are made deterministic (`instrument::probes::environment`),
//! but the test's own statements run through JNI, not through
//! instrumented code.

/// (owner internal name, name, descriptor) of the members left out.
const ENVIRONMENT_DEPENDENT: &[(&str, &str, &str)] = &[
    ("java/lang/Object", "hashCode", "()I"),
    ("java/lang/Object", "toString", "()Ljava/lang/String;"),
    ("java/lang/System", "identityHashCode", "(Ljava/lang/Object;)I"),
    ("java/lang/System", "currentTimeMillis", "()J"),
    ("java/lang/System", "nanoTime", "()J"),
    ("java/lang/Math", "random", "()D"),
    ("java/lang/StrictMath", "random", "()D"),
    ("java/util/UUID", "randomUUID", "()Ljava/util/UUID;"),
    ("java/util/Random", "<init>", "()V"),
    ("java/security/SecureRandom", "<init>", "()V"),
    ("java/util/SplittableRandom", "<init>", "()V"),
    ("java/util/Date", "<init>", "()V"),
    ("java/util/concurrent/ThreadLocalRandom", "current", "()Ljava/util/concurrent/ThreadLocalRandom;"),
];

/// Whether the method `owner.name descriptor` (owner as an internal name)
/// reads the environment, so the cluster must not call it.
pub(crate) fn is_environment_dependent(owner: &str, name: &str, descriptor: &str) -> bool {
    ENVIRONMENT_DEPENDENT.contains(&(owner, name, descriptor))
}
