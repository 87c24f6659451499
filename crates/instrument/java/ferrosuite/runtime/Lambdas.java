package ferrosuite.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * The lambdas of test cases in a worker ({@code testcase::StatementKind::Lambda}):
 * a {@link Proxy} implementing one functional interface, whose abstract
 * method does what the lambda's body says. Emitted tests write a Java
 * lambda instead and need nothing of this class.
 *
 * <p>On the proxy, {@code equals} is identity, {@code hashCode} the identity
 * hash and {@code toString} names the interface and that hash, like a
 * lambda's ({@code Foo$$Lambda$14/0x…@1b2c3d}). The hash is the
 * environment's ({@link Environment#identityHashCode}): the same on every
 * run in a worker, so the search stays deterministic, but another in the
 * second environment, so no assertion is kept on it (the oracle also drops
 * strings with {@code $$Lambda}). Default methods of the interface run
 * their own code.
 */
public final class Lambdas implements InvocationHandler {
    /** Nothing for a void method, else the default value of the return type. */
    public static final int DEFAULT = 0;
    /** Returns {@link #value}. */
    public static final int RETURNS = 1;
    /** Returns the first argument. */
    public static final int IDENTITY = 2;
    /** Compares the two arguments in natural order. */
    public static final int NATURAL_ORDER = 3;

    private final Class<?> iface;
    private final int body;
    private final Object value;

    private Lambdas(Class<?> iface, int body, Object value) {
        this.iface = iface;
        this.body = body;
        this.value = value;
    }

    /** A lambda of {@code iface} with body {@code body} (one of the constants) returning {@code value} for {@link #RETURNS}. */
    public static Object make(Class<?> iface, int body, Object value) {
        ClassLoader loader = iface.getClassLoader() != null ? iface.getClassLoader() : Lambdas.class.getClassLoader();
        return Proxy.newProxyInstance(loader, new Class<?>[] {iface}, new Lambdas(iface, body, value));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) {
            return objectMethod(proxy, method, args);
        }
        if (method.isDefault()) {
            return callDefault(proxy, method, args);
        }
        switch (body) {
            case RETURNS:
                return value;
            case IDENTITY:
                return args[0];
            case NATURAL_ORDER:
                @SuppressWarnings({"unchecked", "rawtypes"})
                int order = ((Comparable) args[0]).compareTo(args[1]);
                return order;
            default:
                return defaultValue(method.getReturnType());
        }
    }

    /** {@code equals}, {@code hashCode} and {@code toString} of the proxy. */
    private Object objectMethod(Object proxy, Method method, Object[] args) {
        int hash = Environment.identityHashCode(proxy);
        switch (method.getName()) {
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return hash;
            default:
                return iface.getName() + "$$Lambda@" + Integer.toHexString(hash);
        }
    }

    /** The default value of a return type: null, false or zero; null for void. */
    private static Object defaultValue(Class<?> type) {
        if (!type.isPrimitive() || type == void.class) {
            return null;
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == char.class) {
            return (char) 0;
        }
        if (type == byte.class) {
            return (byte) 0;
        }
        if (type == short.class) {
            return (short) 0;
        }
        if (type == int.class) {
            return 0;
        }
        if (type == long.class) {
            return 0L;
        }
        return type == float.class ? (Object) 0.0f : (Object) 0.0;
    }

    /**
     * Runs a default method on the proxy: {@code InvocationHandler.invokeDefault}
     * (JDK 16 and later) where this class may access the interface, else a
     * private lookup in the interface (JDK 9 and later; the class path's
     * unnamed module is open). Called reflectively: the runtime is compiled
     * for Java 8.
     */
    private static Object callDefault(Object proxy, Method method, Object[] args) throws Throwable {
        Object[] arguments = args == null ? new Object[0] : args;
        try {
            Method invokeDefault =
                    InvocationHandler.class.getMethod("invokeDefault", Object.class, Method.class, Object[].class);
            return invokeDefault.invoke(null, proxy, method, arguments);
        } catch (InvocationTargetException e) {
            if (!(e.getCause() instanceof IllegalAccessException)) {
                throw e.getCause();
            }
        } catch (NoSuchMethodException e) {
            // Before JDK 16: the private lookup below.
        }
        Class<?> declaring = method.getDeclaringClass();
        Method privateLookupIn =
                MethodHandles.class.getMethod("privateLookupIn", Class.class, MethodHandles.Lookup.class);
        MethodHandles.Lookup lookup;
        try {
            lookup = (MethodHandles.Lookup) privateLookupIn.invoke(null, declaring, MethodHandles.lookup());
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
        return lookup.unreflectSpecial(method, declaring).bindTo(proxy).invokeWithArguments(arguments);
    }
}
