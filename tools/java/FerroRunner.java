/*
 * FerroRunner -- runs chosen test methods of one JUnit 4 or JUnit 5 test
 * class, one at a time, in the order given, in this one JVM (so static state
 * carries over from one test to the next, as it does under a build tool),
 * and prints one machine-readable line per event.
 *
 * ferrosuite compiles this file at run time (javac --release 8, no class
 * path: JUnit is reached through reflection only, so one compiled runner
 * serves JUnit 4 and JUnit 5) and drives it from
 * crates/ferrosuite/src/javarun.rs.
 *
 * Usage:
 *   java -cp RUNNER_DIR:TEST_CLASSES:CP:JUNIT_JARS FerroRunner 4|5 TIMEOUT_MS test.Class method...
 *
 *   4 runs each method with JUnitCore.run(Request.method(cls, name)),
 *   5 with the JUnit Platform Launcher and DiscoverySelectors.selectMethod.
 *   TIMEOUT_MS limits each test method (0: no limit).
 *
 *   With -Dferro.isolate=PATH (a ':'-separated class path: the test classes,
 *   the classes under test and their dependencies, which are then NOT on
 *   -cp), each test method runs in a class loader of its own over PATH,
 *   whose parent is the loader of the runner and JUnit: every test sees the
 *   test class, the classes under test and their dependencies freshly
 *   loaded and initialised, as if it ran alone in a new JVM (state of the
 *   JDK itself, such as system properties, is still shared).
 *
 *   Before each test method the system property ferro.test is set to
 *   "test.Class#method" (the recording probes of a sample run read it).
 *
 *   A method given as "name@ID" (ID an int) runs test "name" with mutant ID
 *   of a mutant schema active: ferrosuite.runtime.Mutants.active is set to
 *   ID first (0: no mutant). Once a test with mutant ID failed, the later
 *   "...@ID" methods are skipped (SKIP, message "mutant ID killed"): the
 *   mutant is killed.
 *
 * Output on standard output, one event per line, fields separated by TAB:
 *   #ferro READY                      the test class and JUnit were found
 *   #ferro START   name
 *   #ferro PASS    name
 *   #ferro FAIL    name  line  message  line: the line of the test class where
 *                                       it failed (top-most frame of the test
 *                                       class), or "-"; message: the
 *                                       Throwable's toString()
 *   #ferro SKIP    name  message        ignored or assumption failed
 *   #ferro TIMEOUT name                 then the JVM exits with status 3
 *   #ferro DONE                         then the JVM exits with status 0
 *   #ferro ERROR   message              set-up failed; exit status 2
 * Messages escape backslash, TAB, CR and LF as \\ \t \r \n. Lines that do
 * not start with "#ferro<TAB>" are not the runner's. The tests' System.out
 * is redirected to System.err, so it cannot garble these lines.
 *
 * The runner exits with System.exit (not halt), so shutdown hooks, such as
 * the JaCoCo agent's dump of its .exec file, run; threads the tests left
 * behind do not keep the JVM alive. A test that calls System.exit ends the
 * JVM: the driver sees the end of output after START and runs the remaining
 * tests in a new JVM.
 */

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;

public final class FerroRunner {
    private static final int MAX_MESSAGE = 4000;
    private static PrintStream protocol;

    /** What happened to one test method. */
    static final class Outcome {
        final String kind; // PASS, FAIL, SKIP
        final Throwable failure;
        final String message;

        Outcome(String kind, Throwable failure, String message) {
            this.kind = kind;
            this.failure = failure;
            this.message = message;
        }
    }

    /** Runs one test method of a class. */
    interface Engine {
        Outcome run(Class<?> testClass, String method) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
        System.setOut(System.err);
        if (args.length < 3) {
            fatal("usage: FerroRunner 4|5 TIMEOUT_MS test.Class method...");
        }
        long timeoutMillis = Long.parseLong(args[1]);
        String className = args[2];
        Engine engine;
        try {
            if (args[0].equals("4")) {
                engine = new JUnit4();
            } else if (args[0].equals("5")) {
                engine = new JUnit5();
            } else {
                fatal("unknown JUnit version " + args[0] + " (expected 4 or 5)");
                return;
            }
        } catch (ClassNotFoundException e) {
            fatal("JUnit " + args[0] + " is not on the class path: " + e);
            return;
        }
        URL[] isolated = isolatedPath();
        Class<?> testClass = loadTestClass(className, isolated);
        if (testClass == null) {
            return;
        }
        emit("READY");
        java.util.Set<Integer> killed = new java.util.HashSet<Integer>();
        for (int i = 3; i < args.length; i++) {
            String name = args[i];
            int at = name.indexOf('@');
            String method = at < 0 ? name : name.substring(0, at);
            Integer mutant = at < 0 ? null : Integer.valueOf(name.substring(at + 1));
            if (isolated != null && i > 3) {
                closeLoader(testClass);
                testClass = loadTestClass(className, isolated);
            }
            System.setProperty("ferro.test", className + "#" + method);
            emit("START\t" + name);
            if (mutant != null && killed.contains(mutant)) {
                emit("SKIP\t" + name + "\t" + escape("mutant " + mutant + " killed"));
                continue;
            }
            if (mutant != null) {
                activate(testClass, mutant.intValue());
            }
            Outcome o = runWithTimeout(engine, testClass, method, timeoutMillis);
            if (mutant != null && (o == null || o.kind.equals("FAIL"))) {
                killed.add(mutant);
            }
            if (o == null) {
                emit("TIMEOUT\t" + name);
                System.exit(3);
            } else if (o.kind.equals("PASS")) {
                emit("PASS\t" + name);
            } else if (o.kind.equals("SKIP")) {
                emit("SKIP\t" + name + "\t" + escape(o.message));
            } else {
                int line = o.failure == null ? -1 : lineIn(o.failure, className);
                String message = o.failure == null ? o.message : describe(o.failure);
                emit("FAIL\t" + name + "\t" + (line < 0 ? "-" : String.valueOf(line)) + "\t" + escape(message));
            }
        }
        emit("DONE");
        System.exit(0);
    }

    /** Sets ferrosuite.runtime.Mutants.active, as seen by the test class, to {@code id}. */
    private static void activate(Class<?> testClass, int id) {
        try {
            Class<?> mutants = Class.forName("ferrosuite.runtime.Mutants", true, testClass.getClassLoader());
            mutants.getField("active").setInt(null, id);
        } catch (Throwable t) {
            fatal("cannot activate mutant " + id + " (is a mutant schema on the class path?): " + t);
        }
    }

    /** The entries of -Dferro.isolate as URLs, or null when tests are not isolated. */
    private static URL[] isolatedPath() throws Exception {
        String path = System.getProperty("ferro.isolate");
        if (path == null) {
            return null;
        }
        String[] entries = path.split(":");
        URL[] urls = new URL[entries.length];
        for (int i = 0; i < entries.length; i++) {
            urls[i] = new java.io.File(entries[i]).toURI().toURL();
        }
        return urls;
    }

    /**
     * The test class, from the runner's class path or, when isolated, from a
     * new class loader over that path; null (after an ERROR line) when it
     * cannot be loaded.
     */
    private static Class<?> loadTestClass(String className, URL[] isolated) {
        ClassLoader parent = FerroRunner.class.getClassLoader();
        try {
            ClassLoader loader = isolated == null ? parent : new URLClassLoader(isolated, parent);
            return Class.forName(className, false, loader);
        } catch (Throwable t) {
            fatal("cannot load test class " + className + ": " + t);
            return null;
        }
    }

    /** Closes the isolated class loader of a test class (its jars), if it has one. */
    private static void closeLoader(Class<?> testClass) {
        ClassLoader loader = testClass.getClassLoader();
        if (loader instanceof URLClassLoader && loader != FerroRunner.class.getClassLoader()) {
            try {
                ((URLClassLoader) loader).close();
            } catch (java.io.IOException e) {
                // the next test has a new loader anyway
            }
        }
    }

    /** Runs the test on a new daemon thread; null when it did not finish in time. */
    private static Outcome runWithTimeout(final Engine engine, final Class<?> testClass, final String method,
            long timeoutMillis) throws InterruptedException {
        final Outcome[] result = new Outcome[1];
        // a 16 MB stack, like the thread the executor's workers run tests on
        Thread t = new Thread(null, new Runnable() {
            public void run() {
                Outcome o;
                try {
                    o = engine.run(testClass, method);
                } catch (Throwable e) {
                    Throwable cause = e instanceof InvocationTargetException && e.getCause() != null ? e.getCause() : e;
                    o = new Outcome("FAIL", cause, null);
                }
                synchronized (result) {
                    result[0] = o;
                }
            }
        }, "ferro-test-" + method, 16L << 20);
        t.setContextClassLoader(testClass.getClassLoader());
        t.setDaemon(true);
        t.start();
        t.join(timeoutMillis);
        if (t.isAlive()) {
            return null;
        }
        synchronized (result) {
            return result[0];
        }
    }

    /** JUnit 4: JUnitCore.run(Request.method(testClass, name)). */
    static final class JUnit4 implements Engine {
        private final Object core;
        private final Method run;
        private final Method requestMethod;
        private final Method getFailures;
        private final Method getRunCount;
        private final Method getIgnoreCount;
        private final Method getAssumptionFailureCount; // JUnit 4.13+, else null
        private final Method getException;

        JUnit4() throws Exception {
            Class<?> coreClass = Class.forName("org.junit.runner.JUnitCore");
            Class<?> requestClass = Class.forName("org.junit.runner.Request");
            Class<?> resultClass = Class.forName("org.junit.runner.Result");
            core = coreClass.getConstructor().newInstance();
            run = coreClass.getMethod("run", requestClass);
            requestMethod = requestClass.getMethod("method", Class.class, String.class);
            getFailures = resultClass.getMethod("getFailures");
            getRunCount = resultClass.getMethod("getRunCount");
            getIgnoreCount = resultClass.getMethod("getIgnoreCount");
            Method assumptions = null;
            try {
                assumptions = resultClass.getMethod("getAssumptionFailureCount");
            } catch (NoSuchMethodException e) {
                // JUnit before 4.13
            }
            getAssumptionFailureCount = assumptions;
            getException = Class.forName("org.junit.runner.notification.Failure").getMethod("getException");
        }

        public Outcome run(Class<?> testClass, String method) throws Exception {
            Object request = requestMethod.invoke(null, testClass, method);
            Object result = run.invoke(core, request);
            List<?> failures = (List<?>) getFailures.invoke(result);
            if (!failures.isEmpty()) {
                return new Outcome("FAIL", (Throwable) getException.invoke(failures.get(0)), null);
            }
            if (((Number) getIgnoreCount.invoke(result)).intValue() > 0) {
                return new Outcome("SKIP", null, "ignored");
            }
            if (getAssumptionFailureCount != null
                    && ((Number) getAssumptionFailureCount.invoke(result)).intValue() > 0) {
                return new Outcome("SKIP", null, "assumption failed");
            }
            if (((Number) getRunCount.invoke(result)).intValue() == 0) {
                return new Outcome("FAIL", null, "no JUnit 4 test " + method + " in " + testClass.getName());
            }
            return new Outcome("PASS", null, null);
        }
    }

    /** JUnit 5: the Platform Launcher with DiscoverySelectors.selectMethod(testClass, name). */
    static final class JUnit5 implements Engine {
        private final Object launcher;
        private final Method execute;
        private final Method selectMethod;
        private final Method request;
        private final Method selectors;
        private final Method build;
        private final Class<?> selectorClass;
        private final Class<?> listenerClass;
        private final Class<?> summaryListenerClass;
        private final Method getSummary;
        private final Method found;
        private final Method succeeded;
        private final Method aborted;
        private final Method skipped;
        private final Method getFailures;
        private final Method getException;

        JUnit5() throws Exception {
            Class<?> selectors = Class.forName("org.junit.platform.engine.discovery.DiscoverySelectors");
            selectorClass = Class.forName("org.junit.platform.engine.DiscoverySelector");
            Class<?> builder = Class.forName("org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder");
            Class<?> requestClass = Class.forName("org.junit.platform.launcher.LauncherDiscoveryRequest");
            Class<?> launcherClass = Class.forName("org.junit.platform.launcher.Launcher");
            listenerClass = Class.forName("org.junit.platform.launcher.TestExecutionListener");
            summaryListenerClass = Class.forName("org.junit.platform.launcher.listeners.SummaryGeneratingListener");
            Class<?> summary = Class.forName("org.junit.platform.launcher.listeners.TestExecutionSummary");
            Class<?> failure = Class.forName("org.junit.platform.launcher.listeners.TestExecutionSummary$Failure");
            selectMethod = selectors.getMethod("selectMethod", Class.class, String.class);
            request = builder.getMethod("request");
            this.selectors = builder.getMethod("selectors", Array.newInstance(selectorClass, 0).getClass());
            build = builder.getMethod("build");
            launcher = Class.forName("org.junit.platform.launcher.core.LauncherFactory").getMethod("create").invoke(null);
            execute = launcherClass.getMethod("execute", requestClass, Array.newInstance(listenerClass, 0).getClass());
            getSummary = summaryListenerClass.getMethod("getSummary");
            found = summary.getMethod("getTestsFoundCount");
            succeeded = summary.getMethod("getTestsSucceededCount");
            aborted = summary.getMethod("getTestsAbortedCount");
            skipped = summary.getMethod("getTestsSkippedCount");
            getFailures = summary.getMethod("getFailures");
            getException = failure.getMethod("getException");
        }

        public Outcome run(Class<?> testClass, String method) throws Exception {
            Object selectorArray = Array.newInstance(selectorClass, 1);
            Array.set(selectorArray, 0, selectMethod.invoke(null, testClass, method));
            Object builder = request.invoke(null);
            selectors.invoke(builder, selectorArray);
            Object discoveryRequest = build.invoke(builder);
            Object listener = summaryListenerClass.getConstructor().newInstance();
            Object listeners = Array.newInstance(listenerClass, 1);
            Array.set(listeners, 0, listener);
            execute.invoke(launcher, discoveryRequest, listeners);
            Object summary = getSummary.invoke(listener);
            List<?> failures = (List<?>) getFailures.invoke(summary);
            if (!failures.isEmpty()) {
                return new Outcome("FAIL", (Throwable) getException.invoke(failures.get(0)), null);
            }
            if (count(found, summary) == 0) {
                return new Outcome("FAIL", null, "no JUnit 5 test " + method + " in " + testClass.getName());
            }
            if (count(skipped, summary) > 0) {
                return new Outcome("SKIP", null, "disabled");
            }
            if (count(aborted, summary) > 0) {
                return new Outcome("SKIP", null, "assumption failed");
            }
            if (count(succeeded, summary) == 0) {
                return new Outcome("FAIL", null, "the test did not run");
            }
            return new Outcome("PASS", null, null);
        }

        private static long count(Method m, Object summary) throws Exception {
            return ((Number) m.invoke(summary)).longValue();
        }
    }

    /** The Throwable's toString(), with its causes' when it has any. */
    private static String describe(Throwable t) {
        StringBuilder b = new StringBuilder(String.valueOf(t));
        Throwable c = t.getCause();
        for (int depth = 0; c != null && c != t && depth < 5; depth++, c = c.getCause()) {
            b.append(" (caused by ").append(c).append(')');
        }
        return b.toString();
    }

    /** The line of the top-most stack frame in the test class (or a nested class of it), or -1. */
    private static int lineIn(Throwable t, String testClass) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            for (StackTraceElement e : c.getStackTrace()) {
                String cls = e.getClassName();
                if (cls.equals(testClass) || cls.startsWith(testClass + "$")) {
                    return e.getLineNumber();
                }
            }
        }
        return -1;
    }

    private static String escape(String s) {
        if (s == null) {
            return "";
        }
        if (s.length() > MAX_MESSAGE) {
            s = s.substring(0, MAX_MESSAGE) + "...";
        }
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\': b.append("\\\\"); break;
                case '\t': b.append("\\t"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                default: b.append(c);
            }
        }
        return b.toString();
    }

    private static void emit(String line) {
        protocol.print("#ferro\t" + line + "\n");
        protocol.flush();
    }

    private static void fatal(String message) {
        emit("ERROR\t" + escape(message));
        System.exit(2);
    }
}
