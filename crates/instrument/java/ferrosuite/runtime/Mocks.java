package ferrosuite.runtime;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;

/**
 * The mocks of test cases in a worker ({@code testcase::StatementKind::Mock}):
 * for an interface a {@link Proxy} implementing it, for an abstract class a
 * Mockito mock (Mockito is then on the worker's class path and called by
 * reflection, with a {@code Proxy} of its {@code Answer} interface as the
 * default answer); either way each stubbed method returning
 * its value whatever the arguments, every other method what a Mockito 2 mock
 * returns by default ({@code ReturnsEmptyValues}): zero or false for
 * primitives and their boxes, an empty collection, {@code Optional} or
 * stream for those types, {@code null} otherwise. Emitted tests write
 * {@code mock(X.class)} and {@code when(x.m(any...)).thenReturn(v)} instead
 * and need nothing of this class.
 *
 * <p>As on a Mockito mock, {@code equals} is identity, {@code hashCode} the
 * identity hash and {@code toString} {@code "Mock for X, hashCode: N"}; the
 * hash is the environment's ({@link Environment#identityHashCode}), so no
 * assertion is kept on it. A {@code compareTo} not stubbed gives 0 for the
 * mock itself and 1 for anything else, as Mockito's. Default methods of the
 * interface answer like the others (a Mockito mock does not run their code),
 * as do the concrete methods of an abstract class that are not final (final
 * ones run their code, as on a Mockito mock).
 */
public final class Mocks implements InvocationHandler {
    private final Class<?> type;
    /** Stubbed return values by {@code name + descriptor}. */
    /** The answers of each stubbed method, in order; the last one repeats (Mockito's {@code thenReturn(a, b)}). */
    private final Map<String, java.util.List<Object>> stubs = new HashMap<String, java.util.List<Object>>();
    /** How often each stubbed method was called. */
    private final Map<String, Integer> calls = new HashMap<String, Integer>();

    private Mocks(Class<?> type) {
        this.type = type;
    }

    /**
     * A mock of {@code type}, an interface or an abstract class, with no stubs.
     *
     * @throws Throwable what Mockito throws for a class it cannot mock, or
     *     {@code ClassNotFoundException} when Mockito is not on the class path
     */
    public static Object make(Class<?> type) throws Throwable {
        Mocks handler = new Mocks(type);
        if (type.isInterface()) {
            ClassLoader loader = type.getClassLoader() != null ? type.getClassLoader() : Mocks.class.getClassLoader();
            return Proxy.newProxyInstance(loader, new Class<?>[] {type}, handler);
        }
        final Class<?> answer = mockitoClass(MOCKITO_ANSWER);
        final Object defaultAnswer =
                Proxy.newProxyInstance(Mocks.class.getClassLoader(), new Class<?>[] {answer}, handler);
        final Class<?> mocked = type;
        java.util.concurrent.Future<Object> mock = mockito().submit(new java.util.concurrent.Callable<Object>() {
            public Object call() throws Exception {
                Method mock = mockitoClass("org.mockito.Mockito").getMethod("mock", Class.class, answer);
                return mock.invoke(null, mocked, defaultAnswer);
            }
        });
        try {
            return mock.get();
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof InvocationTargetException ? cause.getCause() : cause;
        }
    }

    /**
     * The one thread that makes Mockito mocks, started on first use and kept
     * by the sandbox ({@link Sandbox#keep}). Mockito's first mock takes a
     * few hundred milliseconds (Byte Buddy starting), more than a test's
     * time limit: on the test's own thread the watchdog would stop it in
     * the middle of Mockito's class initialisation, and every later mock of
     * the worker would fail. On this thread, which the watchdog never
     * stops, a test that times out waiting leaves the work to finish for
     * the next test.
     */
    private static synchronized java.util.concurrent.ExecutorService mockito() {
        if (mockitoThread == null) {
            mockitoThread = java.util.concurrent.Executors.newSingleThreadExecutor(
                    new java.util.concurrent.ThreadFactory() {
                        public Thread newThread(Runnable r) {
                            Thread t = new Thread(r, "ferrosuite-mockito");
                            t.setDaemon(true);
                            Sandbox.keep(t);
                            return t;
                        }
                    });
        }
        return mockitoThread;
    }

    private static java.util.concurrent.ExecutorService mockitoThread;

    /**
     * Starts Mockito on its thread ({@link #mockito}) by mocking {@link Warm}
     * and waits for it, when Mockito is on the class path: the orchestrator
     * puts it there only for classes whose tests mock abstract classes, and
     * the worker calls this before it takes tests, so that no test's time
     * limit pays for Byte Buddy's start.
     */
    public static void warm() {
        try {
            make(Warm.class);
        } catch (Throwable e) {
            // No Mockito, or one that cannot mock: the first real mock reports what is wrong.
        }
    }

    /** The abstract class {@link #warm} mocks. */
    public abstract static class Warm {
        /** A method for Mockito to intercept. */
        public abstract int value();
    }

    /**
     * Adds {@code value} to the answers of the method {@code key}
     * ({@code name + descriptor}) of {@code mock}: its first call returns the
     * first answer, the next the second, and the last answer repeats.
     */
    public static void stub(Object mock, String key, Object value) throws Throwable {
        Mocks handler = handler(mock);
        java.util.List<Object> answers = handler.stubs.get(key);
        if (answers == null) {
            answers = new java.util.ArrayList<Object>();
            handler.stubs.put(key, answers);
        }
        answers.add(value);
    }

    /** The handler of a mock {@link #make} made. */
    private static Mocks handler(Object mock) throws Throwable {
        if (Proxy.isProxyClass(mock.getClass())) {
            return (Mocks) Proxy.getInvocationHandler(mock);
        }
        Object details = invoke(mockitoClass("org.mockito.Mockito").getMethod("mockingDetails", Object.class), null,
                mock);
        Object settings = invoke(mockitoClass("org.mockito.MockingDetails").getMethod("getMockCreationSettings"),
                details);
        Object answer = invoke(mockitoClass("org.mockito.mock.MockCreationSettings").getMethod("getDefaultAnswer"),
                settings);
        return (Mocks) Proxy.getInvocationHandler(answer);
    }

    /** A class of Mockito, from the class path the runtime is on. */
    private static Class<?> mockitoClass(String name) throws ClassNotFoundException {
        return Class.forName(name, true, Mocks.class.getClassLoader());
    }

    /**
     * {@code InvocationOnMock}'s {@code getMock}, {@code getMethod} and
     * {@code getArguments}, looked up once: every call of a mocked method
     * of an abstract class goes through them.
     */
    private static Method[] invocationGetters;

    private static synchronized Method[] invocationGetters() throws Exception {
        if (invocationGetters == null) {
            Class<?> invocation = mockitoClass("org.mockito.invocation.InvocationOnMock");
            invocationGetters = new Method[] {invocation.getMethod("getMock"), invocation.getMethod("getMethod"),
                invocation.getMethod("getArguments")};
        }
        return invocationGetters;
    }

    /** {@code method.invoke(target, args)}, throwing what the method throws. */
    private static Object invoke(Method method, Object target, Object... args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** Mockito's default answer interface, which this handler implements for mocks of abstract classes. */
    private static final String MOCKITO_ANSWER = "org.mockito.stubbing.Answer";

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass().getName().equals(MOCKITO_ANSWER)) {
            // Mockito asks its answer: the invocation is the one argument.
            Method[] get = invocationGetters();
            Object on = args[0];
            return answer(invoke(get[0], on), (Method) invoke(get[1], on), (Object[]) invoke(get[2], on));
        }
        return answer(proxy, method, args);
    }

    /** What the mock {@code mock} returns for a call of {@code method} with {@code args}. */
    private Object answer(Object mock, Method method, Object[] args) {
        String key = method.getName() + descriptor(method);
        java.util.List<Object> answers = stubs.get(key);
        if (answers != null) {
            Integer called = calls.get(key);
            int n = called == null ? 0 : called;
            calls.put(key, n + 1);
            return answers.get(Math.min(n, answers.size() - 1));
        }
        int arity = args == null ? 0 : args.length;
        if (key.equals("equals(Ljava/lang/Object;)Z")) {
            return mock == args[0];
        }
        if (key.equals("hashCode()I") || key.equals("toString()Ljava/lang/String;")) {
            int hash = Environment.identityHashCode(mock);
            return key.startsWith("hashCode") ? (Object) hash
                    : "Mock for " + type.getSimpleName() + ", hashCode: " + hash;
        }
        if (method.getName().equals("compareTo") && arity == 1 && method.getReturnType() == int.class) {
            return mock == args[0] ? 0 : 1;
        }
        return emptyValue(method.getReturnType());
    }

    /** The JVM descriptor of a method: {@code (I[Ljava/lang/String;)Z}. */
    static String descriptor(Method method) {
        StringBuilder b = new StringBuilder("(");
        for (Class<?> p : method.getParameterTypes()) {
            b.append(descriptor(p));
        }
        return b.append(')').append(descriptor(method.getReturnType())).toString();
    }

    /** Primitive types and their descriptor letters, in the same order. */
    private static final Class<?>[] PRIMITIVES = {int.class, long.class, boolean.class, byte.class, char.class,
        short.class, float.class, double.class, void.class};
    private static final String PRIMITIVE_CODES = "IJZBCSFDV";

    private static String descriptor(Class<?> c) {
        if (c.isArray()) {
            return c.getName().replace('.', '/');
        }
        for (int i = 0; i < PRIMITIVES.length; i++) {
            if (c == PRIMITIVES[i]) {
                return PRIMITIVE_CODES.substring(i, i + 1);
            }
        }
        return "L" + c.getName().replace('.', '/') + ";";
    }

    /** What Mockito 2's {@code ReturnsEmptyValues} returns for a method of return type {@code type}. */
    static Object emptyValue(Class<?> type) {
        Object zero = zero(type);
        if (zero != null || type.isPrimitive()) {
            return zero;
        }
        if (type == Iterable.class || type == java.util.ArrayList.class) {
            return new java.util.ArrayList<Object>();
        }
        if (type == java.util.Collection.class || type == java.util.List.class || type == java.util.LinkedList.class) {
            return new java.util.LinkedList<Object>();
        }
        if (type == java.util.Set.class || type == java.util.HashSet.class) {
            return new java.util.HashSet<Object>();
        }
        if (type == java.util.SortedSet.class || type == java.util.TreeSet.class) {
            return new java.util.TreeSet<Object>();
        }
        if (type == java.util.LinkedHashSet.class) {
            return new java.util.LinkedHashSet<Object>();
        }
        if (type == java.util.Map.class || type == java.util.HashMap.class) {
            return new java.util.HashMap<Object, Object>();
        }
        if (type == java.util.SortedMap.class || type == java.util.TreeMap.class) {
            return new java.util.TreeMap<Object, Object>();
        }
        if (type == java.util.LinkedHashMap.class) {
            return new java.util.LinkedHashMap<Object, Object>();
        }
        return emptyOfJava8(type.getName());
    }

    /** Primitive types, their boxes and their zeros, in the same order. */
    private static final Class<?>[][] ZERO_TYPES = {{boolean.class, Boolean.class}, {char.class, Character.class},
        {byte.class, Byte.class}, {short.class, Short.class}, {int.class, Integer.class}, {long.class, Long.class},
        {float.class, Float.class}, {double.class, Double.class}};
    private static final Object[] ZEROS = {false, (char) 0, (byte) 0, (short) 0, 0, 0L, 0.0f, 0.0};

    /** Zero or false for a primitive type or its box; null for other types and void. */
    private static Object zero(Class<?> type) {
        for (int i = 0; i < ZERO_TYPES.length; i++) {
            if (type == ZERO_TYPES[i][0] || type == ZERO_TYPES[i][1]) {
                return ZEROS[i];
            }
        }
        return null;
    }

    /** The empty {@code Optional}s and streams (this class is compiled for Java 8). */
    private static Object emptyOfJava8(String name) {
        switch (name) {
            case "java.util.Optional": return java.util.Optional.empty();
            case "java.util.OptionalDouble": return java.util.OptionalDouble.empty();
            case "java.util.OptionalInt": return java.util.OptionalInt.empty();
            case "java.util.OptionalLong": return java.util.OptionalLong.empty();
            case "java.util.stream.Stream": return java.util.stream.Stream.empty();
            case "java.util.stream.DoubleStream": return java.util.stream.DoubleStream.empty();
            case "java.util.stream.IntStream": return java.util.stream.IntStream.empty();
            case "java.util.stream.LongStream": return java.util.stream.LongStream.empty();
            default: return null;
        }
    }
}
