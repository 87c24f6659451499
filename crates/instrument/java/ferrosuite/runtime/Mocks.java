package ferrosuite.runtime;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;

/**
 * The mocks of test cases in a worker ({@code testcase::StatementKind::Mock}):
 * a {@link Proxy} implementing one interface, each stubbed method returning
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
 * interface answer like the others (a Mockito mock does not run their code).
 */
public final class Mocks implements InvocationHandler {
    private final Class<?> iface;
    /** Stubbed return values by {@code name + descriptor}. */
    private final Map<String, Object> stubs = new HashMap<String, Object>();

    private Mocks(Class<?> iface) {
        this.iface = iface;
    }

    /** A mock of {@code iface} with no stubs. */
    public static Object make(Class<?> iface) {
        ClassLoader loader = iface.getClassLoader() != null ? iface.getClassLoader() : Mocks.class.getClassLoader();
        return Proxy.newProxyInstance(loader, new Class<?>[] {iface}, new Mocks(iface));
    }

    /** Makes the method {@code key} ({@code name + descriptor}) of {@code mock} return {@code value}. */
    public static void stub(Object mock, String key, Object value) {
        ((Mocks) Proxy.getInvocationHandler(mock)).stubs.put(key, value);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        String key = method.getName() + descriptor(method);
        if (stubs.containsKey(key)) {
            return stubs.get(key);
        }
        if (method.getDeclaringClass() == Object.class) {
            int hash = Environment.identityHashCode(proxy);
            if (method.getName().equals("equals")) {
                return proxy == args[0];
            }
            return method.getName().equals("hashCode") ? (Object) hash
                    : "Mock for " + iface.getSimpleName() + ", hashCode: " + hash;
        }
        if (method.getName().equals("compareTo") && args != null && args.length == 1
                && method.getReturnType() == int.class) {
            return proxy == args[0] ? 0 : 1;
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
