package hostile;

/**
 * A class whose static initialiser takes about 300 ms: a short time limit
 * stops it, a long one lets it finish (as a JDK class's first, cold
 * initialisation on a loaded machine).
 */
public class SlowInit {
    static final long VALUE = spin();

    /** 300 sleeps of 1 ms (the workers' clock is virtual; sleeping is not). */
    private static long spin() {
        long n = 0;
        for (int i = 0; i < 300; i++) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                // keep initialising: only a stop ends this
            }
            n++;
        }
        return n > 0 ? 42 : 0;
    }

    public static long value() {
        return VALUE;
    }
}
