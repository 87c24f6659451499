package ferrosuite.runtime;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Keeps a class under test from harming the worker JVM that runs it.
 *
 * - {@code System.exit}, {@code Runtime.exit} and {@code Runtime.halt} calls in
 *   instrumented classes are rewritten to {@link #exit}, {@link #runtimeExit}
 *   and {@link #runtimeHalt}, which throw {@link ExitRequested} instead.
 * - Loop back-edges in instrumented classes call {@link #checkTimeout}, which
 *   throws {@link TimeUp} once the worker's watchdog set {@link #timeUp} or
 *   the test took more than {@link #maxBackEdges} back-edges; this ends
 *   endless loops early, and loops that catch the {@code ThreadDeath} of
 *   {@code Thread.stop()}.
 * - {@link #install} redirects {@code System.out}/{@code System.err} into
 *   bounded buffers read with {@link #takeOutput}.
 * - {@link #stopNewThreads} stops threads a test started: it interrupts them,
 *   marks them so that their next back-edge check throws {@link TimeUp}
 *   (the one way to end a busy thread on JDK 20+, whose
 *   {@code Thread.stop()} throws {@code UnsupportedOperationException}),
 *   stops them where {@code Thread.stop()} still works, and keeps their
 *   death from printing a stack trace into a later test's output.
 * - Calls in instrumented classes that write files, open sockets or start
 *   processes are preceded by {@link #checkWrite}, {@link #refuseNetwork}
 *   or {@link #refuseProcess}, which throw
 *   {@link Refused} in a worker when the effect would leave the worker's
 *   folder. (The kernel refuses the same effects for all code, JDK and
 *   libraries included; these checks give the refusal its own exception,
 *   which a {@code catch (IOException e)} of the class under test does not
 *   swallow.)
 */
public final class Sandbox {
    private Sandbox() {}

    /** Set by the watchdog when the running test is out of time. */
    public static volatile boolean timeUp;

    /**
     * Loop back-edges taken since the worker last cleared this counter (it
     * does so before each test). Past {@link #maxBackEdges} the test is
     * treated as an endless loop and ended at once, long before the
     * watchdog's deadline.
     */
    public static int backEdges;

    /**
     * Back-edges one test may take: unlimited until {@link #install} (so
     * instrumented classes run outside a worker behave as the originals),
     * then {@link #WORKER_BACK_EDGES}.
     */
    public static int maxBackEdges = Integer.MAX_VALUE;

    /** The worker's limit: a few tens of milliseconds of looping. */
    public static final int WORKER_BACK_EDGES = 500_000;

    /** Thrown instead of terminating the JVM. */
    public static final class ExitRequested extends Error {
        private static final long serialVersionUID = 1L;
        public final int status;

        ExitRequested(String call, int status) {
            super(call + "(" + status + ") called by the class under test");
            this.status = status;
        }
    }

    /** Thrown at a loop back-edge after the time limit. */
    public static final class TimeUp extends Error {
        private static final long serialVersionUID = 1L;

        TimeUp() {
            super("test time limit reached");
        }
    }

    /**
     * Thrown instead of an effect the sandbox does not allow: a file written,
     * created, deleted or renamed outside the worker's folder
     * ({@code file-write}), a TCP connection or listening socket
     * ({@code network}), a new process ({@code process}). The message starts
     * with the kind, then ": " and what was refused.
     */
    public static final class Refused extends Error {
        private static final long serialVersionUID = 1L;

        Refused(String kind, String what) {
            super(kind + ": " + what);
        }
    }

    /** Whether {@link #install} ran: only workers refuse anything. */
    private static boolean installed;

    /** The worker's folder (absolute, normalised): the only place files may be written. */
    private static java.nio.file.Path root;

    /**
     * Called before a call that writes, creates or deletes the file
     * {@code target} (a {@code String}, {@code File} or {@code Path}; other
     * values pass): throws {@link Refused} in a worker when the file is
     * outside the worker's folder.
     */
    public static void checkWrite(Object target) {
        if (!installed || target == null) return;
        java.nio.file.Path path;
        try {
            if (target instanceof String) path = java.nio.file.Paths.get((String) target);
            else if (target instanceof java.io.File) path = ((java.io.File) target).toPath();
            else if (target instanceof java.nio.file.Path) path = (java.nio.file.Path) target;
            else return;
            path = path.toAbsolutePath().normalize();
        } catch (RuntimeException e) {
            return; // not a path: the call itself will fail as it would anywhere
        }
        if (path.getFileSystem() == root.getFileSystem() && !path.startsWith(root)) {
            throw new Refused("file-write", path.toString());
        }
    }

    /** Called before a call that opens a TCP connection or a listening socket. */
    public static void refuseNetwork() {
        if (installed) throw new Refused("network", "TCP connections and listening sockets");
    }

    /** Called before a call that starts a process. */
    public static void refuseProcess() {
        if (installed) throw new Refused("process", "starting a process");
    }

    /** Replacement of {@code System.exit(int)}. */
    public static void exit(int status) {
        throw new ExitRequested("System.exit", status);
    }

    /** Replacement of {@code Runtime.exit(int)}. */
    public static void runtimeExit(Runtime runtime, int status) {
        throw new ExitRequested("Runtime.exit", status);
    }

    /** Replacement of {@code Runtime.halt(int)}. */
    public static void runtimeHalt(Runtime runtime, int status) {
        throw new ExitRequested("Runtime.halt", status);
    }

    /** Called at loop back-edges. */
    public static void checkTimeout() {
        if (++backEdges > maxBackEdges || timeUp) throw new TimeUp();
        if (stoppedCount != 0 && isStopped(Thread.currentThread())) throw new TimeUp();
    }

    /** Threads {@link #stopNewThreads} asked to end, that may still run: the first {@link #stoppedCount}. */
    private static volatile Thread[] stopped = new Thread[0];
    private static volatile int stoppedCount;

    private static boolean isStopped(Thread t) {
        Thread[] all = stopped;
        for (int i = 0; i < stoppedCount && i < all.length; i++) if (all[i] == t) return true;
        return false;
    }

    /** The uncaught-exception handler of stopped threads: their end is expected, and silent. */
    private static final Thread.UncaughtExceptionHandler SILENT = new Thread.UncaughtExceptionHandler() {
        public void uncaughtException(Thread t, Throwable e) {
        }
    };

    private static Capture out;
    private static Capture err;
    private static Thread[] baseline = new Thread[0];
    private static int baselineCount;

    /**
     * Redirects System.out/err into buffers of {@code maxBytes} each, records
     * the live threads and turns on the back-edge limit (worker use only).
     */
    public static void install(int maxBytes) {
        maxBackEdges = WORKER_BACK_EDGES;
        root = java.nio.file.Paths.get(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize();
        try {
            root = root.toRealPath();
        } catch (java.io.IOException e) {
            // keep the normalised path
        }
        installed = true;
        out = new Capture(maxBytes);
        err = new Capture(maxBytes);
        System.setOut(new PrintStream(out, true));
        System.setErr(new PrintStream(err, true));
        baselineCount = Thread.activeCount();
        baseline = new Thread[baselineCount + 16];
        baselineCount = Thread.enumerate(baseline);
    }

    /**
     * The captured stdout, stderr and total bytes written since the last call,
     * or null when nothing was written; clears the buffers.
     */
    public static String[] takeOutput() {
        System.out.flush();
        System.err.flush();
        if (out.total + err.total == 0) return null;
        String[] r = {out.text(), err.text(), Long.toString(out.total + err.total)};
        out.clear();
        err.clear();
        return r;
    }

    /**
     * Interrupts and stops the threads started since {@link #install} (see
     * the class comment); returns how many are still alive.
     */
    @SuppressWarnings("deprecation")
    public static int stopNewThreads() {
        if (Thread.activeCount() <= baselineCount) {
            stoppedCount = 0;
            return 0;
        }
        Thread[] now = new Thread[Thread.activeCount() + 16];
        int n = Thread.enumerate(now);
        Thread[] alive = new Thread[n];
        int count = 0;
        Thread self = Thread.currentThread();
        for (int i = 0; i < n; i++) {
            Thread t = now[i];
            if (t == self || isBaseline(t)) continue;
            alive[count++] = t;
        }
        Thread[] before = stopped;
        int beforeCount = stoppedCount;
        stopped = alive;
        stoppedCount = count;
        for (int i = 0; i < count; i++) {
            Thread t = alive[i];
            t.setUncaughtExceptionHandler(SILENT);
            t.interrupt();
            try {
                t.stop();
            } catch (Throwable e) {
                // JDK 20+: UnsupportedOperationException; the back-edge check ends it.
            }
        }
        awaitNewlyStopped(alive, count, before, beforeCount);
        return count;
    }

    /** How long {@link #stopNewThreads} waits for the threads it just stopped to end, at most. */
    private static final long STOP_WAIT_NANOS = 50_000_000L;

    /**
     * Waits, {@link #STOP_WAIT_NANOS} at most in all, for the threads among
     * the first {@code count} of {@code alive} that were not stopped before
     * (not among the first {@code beforeCount} of {@code before}) to end: on
     * JDK 20+ a busy thread ends only at its next back-edge check, and until
     * then its probes would write into the next test's trace. A thread
     * stopped by an earlier call is not waited for again.
     */
    private static void awaitNewlyStopped(Thread[] alive, int count, Thread[] before, int beforeCount) {
        long deadline = System.nanoTime() + STOP_WAIT_NANOS;
        outer:
        for (int i = 0; i < count; i++) {
            for (int j = 0; j < beforeCount && j < before.length; j++) if (before[j] == alive[i]) continue outer;
            long left = deadline - System.nanoTime();
            if (left <= 0) return;
            try {
                alive[i].join(Math.max(1L, left / 1_000_000L));
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Adds {@code t}, a thread of the runtime itself (not of the class under
     * test), to the threads {@link #stopNewThreads} leaves running.
     */
    public static synchronized void keep(Thread t) {
        if (baselineCount == baseline.length) {
            baseline = java.util.Arrays.copyOf(baseline, baseline.length * 2 + 1);
        }
        baseline[baselineCount++] = t;
    }

    private static boolean isBaseline(Thread t) {
        for (int i = 0; i < baselineCount; i++) if (baseline[i] == t) return true;
        return false;
    }
}

/** A bounded output buffer: keeps the first bytes, counts them all. */
final class Capture extends OutputStream {
    private final byte[] buf;
    private int n;
    long total;

    Capture(int max) {
        buf = new byte[max];
    }

    @Override
    public void write(int b) {
        total++;
        if (n < buf.length) buf[n++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        total += len;
        int k = Math.min(len, buf.length - n);
        if (k > 0) {
            System.arraycopy(b, off, buf, n, k);
            n += k;
        }
    }

    String text() {
        return new String(buf, 0, n, StandardCharsets.UTF_8);
    }

    void clear() {
        n = 0;
        total = 0;
        Arrays.fill(buf, 0, Math.min(16, buf.length), (byte) 0);
    }
}
