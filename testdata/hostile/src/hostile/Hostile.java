package hostile;

import java.util.ArrayList;
import java.util.List;

/**
 * Classes under test that try to kill, hang or flood the JVM that runs
 * them. Each method is one hostile case of the executor's robustness test;
 * {@link #abs(int)} is the normal case run after each of them.
 */
public class Hostile {
    public static int abs(int x) {
        return x > 0 ? x : -x;
    }

    public static int exit() {
        System.exit(1);
        return 0;
    }

    public static int halt() {
        Runtime.getRuntime().halt(1);
        return 0;
    }

    /** Not rewritable: the exit happens inside the JDK's reflection. */
    public static int exitByReflection() throws Exception {
        Runtime.class.getMethod("exit", int.class).invoke(Runtime.getRuntime(), 1);
        return 0;
    }

    public static long spin() {
        long n = 0;
        while (true) {
            n++;
        }
    }

    public static long spinCatchingThrowable() {
        long n = 0;
        while (true) {
            try {
                for (int i = 0; i < 1000; i++) {
                    n += i;
                }
            } catch (Throwable t) {
                n = -n;
            }
        }
    }

    public static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }

    public static int allocate() {
        List<long[]> hoard = new ArrayList<>();
        while (true) {
            hoard.add(new long[1 << 20]);
        }
    }

    /**
     * A busy loop in JDK code (a stream that looks through 2^63 numbers),
     * which has no instrumented back-edge check; on JDK 20+, where
     * Thread.stop() throws, the watchdog stops it through JVM TI.
     */
    public static int spinInJdk() {
        return java.util.stream.LongStream.iterate(0, i -> i + 1).filter(i -> i < 0).findFirst().isPresent() ? 1 : 0;
    }

    public static int startNonDaemonThread() {
        Thread t = new Thread(() -> {
            long n = 0;
            while (true) {
                n++;
            }
        });
        t.start();
        return 1;
    }

    public static int print100MB() {
        byte[] line = new byte[1 << 20];
        java.util.Arrays.fill(line, (byte) 'x');
        for (int i = 0; i < 100; i++) {
            System.out.write(line, 0, line.length);
        }
        return 100;
    }
}
