package ferrosuite.runtime;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.IdentityHashMap;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A controlled environment for the class under test in a worker: the
 * clock, random numbers, UUIDs and identity hash codes that instrumented
 * code asks for are deterministic, and {@link #reset} (called by
 * {@code Tracer.reset()} before each test) makes each test start from the
 * same state, so a test gives the same values every time it runs.
 *
 * The environment is active only when the JVM was started with
 * {@code -Dferrosuite.environment=SEED} (a worker does that, with the seed
 * of its environment); otherwise every method here does what the call it
 * replaces does, so instrumented classes behave as the originals.
 *
 * Call sites rewritten by the instrumenter ({@code probes/environment.rs}):
 * {@code System.currentTimeMillis}/{@code nanoTime}, {@code new Random()},
 * {@code new Date()}, {@code Math.random()}, {@code ThreadLocalRandom.current()},
 * {@code UUID.randomUUID()}, {@code System.identityHashCode},
 * {@code hashCode()}, {@code toString()} and {@code String.valueOf(Object)}.
 * Calls made inside JDK code (a {@code HashMap} hashing its keys, string
 * concatenation, {@code Instant.now()}) are not rewritten.
 *
 * Derived from the seed S, one stream per use, stream(i, k) =
 * mix(S + i * G + k) (mix = SplitMix64's finaliser and G its golden-ratio
 * increment 0x9e3779b97f4a7c15, Steele et al., "Fast splittable
 * pseudorandom number generators", OOPSLA 2014): the clock starts at
 * 2017-07-14 (1.5e12 ms since the epoch) plus stream(1, 0) mod 10 years,
 * and advances by 1 ms at every read (so loops that wait for a deadline
 * end); {@code nanoTime} starts at stream(2, 0) mod 2^50 and advances by the
 * same 1 ms; the k-th {@code new Random()} of a test is seeded with
 * stream(3, k), {@code Math.random()} draws from a generator seeded with
 * stream(3, 0) and UUIDs from one seeded with its complement; the k-th
 * object whose identity hash a test asks for gets stream(4, k) reduced to
 * 31 bits (never 0); {@code ThreadLocalRandom} starts from stream(5, 0).
 */
public final class Environment {
    private Environment() {}

    /** The system property that activates the environment and holds its seed. */
    public static final String PROPERTY = "ferrosuite.environment";

    /** Whether the environment is active (the JVM is a worker's). */
    public static final boolean ACTIVE;

    /** The seed of the environment (0 when inactive). */
    public static final long SEED;

    /** Identity hash codes handed out per test at most; beyond, the real ones. */
    public static final int MAX_HASHED = 1 << 16;

    private static final long CLOCK_BASE_MS;
    private static final long NANO_BASE;
    private static final long TEN_YEARS_MS = 10L * 365 * 24 * 3600 * 1000;

    static {
        String s = System.getProperty(PROPERTY);
        long seed = 0;
        boolean active = false;
        if (s != null) {
            try {
                seed = Long.parseLong(s);
                active = true;
            } catch (NumberFormatException e) {
                active = false;
            }
        }
        ACTIVE = active;
        SEED = seed;
        CLOCK_BASE_MS = 1_500_000_000_000L + Math.floorMod(stream(seed, 1, 0), TEN_YEARS_MS);
        NANO_BASE = stream(seed, 2, 0) & ((1L << 50) - 1);
    }

    private static volatile boolean dirty;
    private static long ticks;
    private static int randoms;
    private static Random math;
    private static Random uuids;
    private static IdentityHashMap<Object, Integer> hashes;
    private static Thread seededThread;

    /**
     * Forgets what the last test asked for: clock, generators, hashes. Called
     * before every test, so the common case (nothing was asked for) takes no
     * lock.
     */
    public static void reset() {
        if (dirty) resetNow();
    }

    private static synchronized void resetNow() {
        dirty = false;
        ticks = 0;
        randoms = 0;
        math = null;
        uuids = null;
        hashes = null;
        seededThread = null;
    }

    /** SplitMix64's increment, the golden ratio in 64 bits. */
    private static final long GOLDEN = 0x9e3779b97f4a7c15L;

    /** Value k of stream i of the environment seeded with {@code seed}. */
    static long stream(long seed, int i, long k) {
        return mix(seed + i * GOLDEN + k);
    }

    /** SplitMix64's finaliser: a bijection that scatters consecutive inputs. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private static synchronized long tick() {
        dirty = true;
        return ++ticks;
    }

    /** Replacement of {@code System.currentTimeMillis()}. */
    public static long currentTimeMillis() {
        if (!ACTIVE) return System.currentTimeMillis();
        return CLOCK_BASE_MS + tick();
    }

    /** Replacement of {@code System.nanoTime()}. */
    public static long nanoTime() {
        if (!ACTIVE) return System.nanoTime();
        return NANO_BASE + tick() * 1_000_000L;
    }

    /**
     * The seed passed to {@code Random(long)} where the code called
     * {@code Random()}: the k-th of the test, or a random one outside a worker.
     */
    public static long newRandomSeed() {
        if (!ACTIVE) return ThreadLocalRandom.current().nextLong();
        synchronized (Environment.class) {
            dirty = true;
            return stream(SEED, 3, ++randoms);
        }
    }

    /** Replacement of {@code Math.random()}. */
    public static double mathRandom() {
        if (!ACTIVE) return Math.random();
        synchronized (Environment.class) {
            dirty = true;
            if (math == null) math = new Random(stream(SEED, 3, 0));
            return math.nextDouble();
        }
    }

    /** Replacement of {@code UUID.randomUUID()}: a version-4 UUID from the test's generator. */
    public static UUID randomUUID() {
        if (!ACTIVE) return UUID.randomUUID();
        long msb;
        long lsb;
        synchronized (Environment.class) {
            dirty = true;
            if (uuids == null) uuids = new Random(~stream(SEED, 3, 0));
            msb = uuids.nextLong();
            lsb = uuids.nextLong();
        }
        msb = (msb & ~0xf000L) | 0x4000L; // version 4
        lsb = (lsb & 0x3fffffffffffffffL) | 0x8000000000000000L; // IETF variant
        return new UUID(msb, lsb);
    }

    /**
     * Replacement of {@code ThreadLocalRandom.current()}: the first call of a
     * test on a thread sets that thread's generator state to a seed of the
     * environment (through {@code sun.misc.Unsafe}; left as it is when that
     * is not possible).
     */
    public static ThreadLocalRandom threadLocalRandom() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        if (!ACTIVE || Tlr.PUT_LONG == null) return r;
        Thread t = Thread.currentThread();
        synchronized (Environment.class) {
            if (seededThread == t) return r;
            dirty = true;
            seededThread = t;
        }
        try {
            Tlr.PUT_LONG.invoke(Tlr.UNSAFE, t, Tlr.SEED_OFFSET, stream(SEED, 5, 0));
        } catch (Throwable e) {
            // The generator keeps its own state.
        }
        return r;
    }

    /** Replacement of {@code System.identityHashCode(Object)}. */
    public static int identityHashCode(Object o) {
        if (!ACTIVE || o == null) return System.identityHashCode(o);
        return number(o);
    }

    /**
     * Replacement of {@code o.hashCode()}: the deterministic identity hash
     * when the class does not override {@code Object.hashCode} (or only
     * inherits {@code Enum}'s, which is the identity hash too).
     */
    public static int hashCode(Object o) {
        if (ACTIVE && o != null && Overrides.HASH_CODE.get(o.getClass()) == Boolean.FALSE) return number(o);
        return o.hashCode();
    }

    /**
     * Replacement of {@code o.toString()}: {@code Object.toString}'s form
     * (class name, "@", hexadecimal hash code) with the deterministic hash
     * when the class does not override it.
     */
    public static String toString(Object o) {
        if (ACTIVE && o != null && Overrides.TO_STRING.get(o.getClass()) == Boolean.FALSE) {
            return objectToString(o);
        }
        return o.toString();
    }

    /**
     * Replacement of {@code super.toString()} naming {@code Object}: its form
     * with {@link #hashCode(Object)} (which keeps an overriding hashCode).
     */
    public static String objectToString(Object o) {
        return o.getClass().getName() + "@" + Integer.toHexString(hashCode(o));
    }

    /** Replacement of {@code String.valueOf(Object)}. */
    public static String valueOf(Object o) {
        return o == null ? "null" : toString(o);
    }

    /** The deterministic identity hash of {@code o}: by order of first request in the test. */
    private static synchronized int number(Object o) {
        dirty = true;
        if (hashes == null) hashes = new IdentityHashMap<Object, Integer>();
        Integer h = hashes.get(o);
        if (h != null) return h;
        if (hashes.size() >= MAX_HASHED) return System.identityHashCode(o);
        int v = (int) (stream(SEED, 4, hashes.size()) >>> 33);
        h = v == 0 ? 1 : v;
        hashes.put(o, h);
        return h;
    }

    /** Whether a class overrides {@code hashCode}/{@code toString}, cached per class. */
    static final class Overrides extends ClassValue<Boolean> {
        static final Overrides HASH_CODE = new Overrides("hashCode", true);
        static final Overrides TO_STRING = new Overrides("toString", false);

        private final String name;
        /** Whether {@code Enum}'s version counts as Object's (true of hashCode). */
        private final boolean enumIsObjects;

        Overrides(String name, boolean enumIsObjects) {
            this.name = name;
            this.enumIsObjects = enumIsObjects;
        }

        @Override
        protected Boolean computeValue(Class<?> c) {
            try {
                Class<?> owner = c.getMethod(name).getDeclaringClass();
                return owner != Object.class && !(enumIsObjects && owner == Enum.class);
            } catch (Throwable e) {
                return Boolean.TRUE;
            }
        }
    }

    /** Access to the generator state of {@code ThreadLocalRandom}, or nulls. */
    static final class Tlr {
        static final Object UNSAFE;
        static final Method PUT_LONG;
        static final long SEED_OFFSET;

        static {
            Object unsafe = null;
            Method putLong = null;
            long offset = 0;
            try {
                Class<?> u = Class.forName("sun.misc.Unsafe");
                Field f = u.getDeclaredField("theUnsafe");
                f.setAccessible(true);
                unsafe = f.get(null);
                Field seed = Thread.class.getDeclaredField("threadLocalRandomSeed");
                offset = (Long) u.getMethod("objectFieldOffset", Field.class).invoke(unsafe, seed);
                putLong = u.getMethod("putLong", Object.class, long.class, long.class);
            } catch (Throwable e) {
                putLong = null;
            }
            UNSAFE = unsafe;
            PUT_LONG = putLong;
            SEED_OFFSET = offset;
        }
    }
}
