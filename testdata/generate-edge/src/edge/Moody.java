package edge;

import java.util.Random;
import java.util.UUID;

/**
 * Methods whose results depend on the environment (the clock, random
 * numbers, UUIDs, identity hash codes, whether {@code java.lang} is open
 * to deep reflection, as it is under a coverage agent), next to deterministic ones: no
 * emitted assertion may expect an environment-dependent value, and the
 * deterministic ones are still asserted.
 */
public class Moody {
    private final int base;

    public Moody(int base) {
        this.base = base;
    }

    public long clock() {
        return System.currentTimeMillis();
    }

    public long nanos() {
        return System.nanoTime();
    }

    public int dice() {
        return new Random().nextInt();
    }

    public double chance() {
        return Math.random();
    }

    public String uuid() {
        return UUID.randomUUID().toString();
    }

    public int identity() {
        return System.identityHashCode(new Object());
    }

    public int hash() {
        return new Object().hashCode();
    }

    public String describe() {
        return new Object().toString();
    }

    /** A getter (an inspector the assertions call) that reads the clock. */
    public long getStamp() {
        return System.nanoTime() / 1000;
    }

    /** A value computed from the clock, which then decides a branch. */
    public String phase() {
        long t = System.currentTimeMillis() % 1000;
        if (t < 500) {
            return "early " + t;
        }
        return "late " + t;
    }

    /** A branch decided by an identity hash. */
    public int bucket() {
        int h = System.identityHashCode(this) % 1000;
        if (h % 2 == 0) {
            return h;
        }
        return -h;
    }

    /**
     * Whether a private field of {@code java.lang} can be made accessible:
     * JaCoCo's agent opens the package, a plain JVM does not.
     */
    public boolean reflective() {
        try {
            ThreadLocal.class.getDeclaredField("threadLocalHashCode").setAccessible(true);
            return true;
        } catch (NoSuchFieldException | RuntimeException e) {
            return false;
        }
    }

    public int twice(int x) {
        return 2 * x + base;
    }

    public int getBase() {
        return base;
    }
}
