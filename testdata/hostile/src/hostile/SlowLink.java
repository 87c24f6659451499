package hostile;

/**
 * A class whose `invokedynamic` site links slowly: the lambda's bootstrap
 * creates its instance, which initialises the functional interface (it
 * declares a default method), whose initialiser takes about 300 ms and
 * gives up when interrupted. A short time limit breaks the call site for
 * good in that JVM (JVMS 5.4.3: the bootstrap's `LinkageError` is thrown
 * again on every later call), a long one lets it link.
 */
public class SlowLink {
    interface Slow {
        long WARM_UP = SlowLink.sleep();

        long get();

        default long twice() {
            return 2 * get();
        }
    }

    /** 300 sleeps of 1 ms, ended by an interrupt (the workers' clock is virtual; sleeping is not). */
    static long sleep() {
        for (int i = 0; i < 300; i++) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                throw new IllegalStateException("interrupted while initialising", e);
            }
        }
        return 300;
    }

    public static long value() {
        Slow slow = () -> 21;
        return slow.twice();
    }
}
