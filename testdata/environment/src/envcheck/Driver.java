package envcheck;

import edge.Moody;

/**
 * Runs the instrumented {@code edge.Moody} outside a worker (no
 * {@code -Dferrosuite.environment}) and prints whether it behaves as the
 * original: the clock is the real one, random values and identity hashes
 * differ from call to call as real ones do.
 */
public class Driver {
    public static void main(String[] args) {
        Moody m = new Moody(1);
        long real = System.currentTimeMillis();
        boolean clock = Math.abs(m.clock() - real) < 60_000;
        boolean dice = m.dice() != m.dice() || m.dice() != m.dice();
        boolean uuid = !m.uuid().equals(m.uuid());
        Object o = new Object();
        boolean hash = m.describe().startsWith("java.lang.Object@") && o.hashCode() == System.identityHashCode(o);
        System.out.println("clock=" + clock + " dice=" + dice + " uuid=" + uuid + " hash=" + hash);
    }
}
