package edge;

import java.lang.reflect.Method;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Branches on values the test factory once could not make: {@code Class}
 * values of every kind, {@code Method} values and lambdas.
 */
public class Values {
    public static String describe(Class<?> c) {
        if (c == null) {
            return "none";
        }
        if (c.isPrimitive()) {
            return "primitive";
        }
        if (c.isArray()) {
            return "array";
        }
        return c.isInterface() ? "interface" : "class";
    }

    public static String arity(Method m) {
        switch (m.getParameterCount()) {
            case 0:
                return "none";
            case 1:
                return "one";
            default:
                return "many";
        }
    }

    public static String applyTwice(Function<String, String> f, String s) {
        String once = f.apply(s);
        if (once == null) {
            return "null";
        }
        if (once.equals(s)) {
            return "same";
        }
        return f.apply(once).length() > 3 ? "long" : "short";
    }

    public static int count(List<String> xs, Predicate<String> p) {
        int n = 0;
        for (String x : xs) {
            if (p.test(x)) {
                n++;
            }
        }
        return n;
    }
}
