package demo;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Comparator;
import java.util.function.Function;
import java.util.function.IntBinaryOperator;
import java.util.function.Predicate;

/** Takes Class values, members by reflection and lambdas. */
public class Values {
    /** A functional interface with a default method, which a lambda keeps. */
    public interface Shout {
        String shout(String text);

        default String twice(String text) {
            return shout(shout(text));
        }
    }

    /** A nested class with a constructor to look up. */
    public static class Inner {
        public Inner(int x) {}
    }

    private int count;

    private String hidden(int x, String[] ys) {
        return ys[x];
    }

    public static String describe(Class<?> c) {
        if (c.isPrimitive()) {
            return "primitive " + c.getName();
        }
        if (c.isArray()) {
            return "array of " + c.getComponentType().getName();
        }
        return (c.isInterface() ? "interface " : "class ") + c.getSimpleName();
    }

    public static int arity(Method m) {
        return m.getParameterCount();
    }

    public static int arity(Constructor<?> c) {
        return -c.getParameterCount();
    }

    public static String type(Field f) {
        return f.getType().getName();
    }

    public static String applyTwice(Function<String, String> f, String s) {
        return f.apply(f.apply(s));
    }

    public static boolean test(Predicate<String> p, String s) {
        return p.test(s);
    }

    public static int compare(Comparator<String> c, String a, String b) {
        return Integer.signum(c.compare(a, b));
    }

    public static int combine(IntBinaryOperator op) {
        return op.applyAsInt(2, 3);
    }

    public static String twice(Shout shout, String text) {
        return shout.twice(text);
    }

    public static int run(Runnable r) {
        r.run();
        return 1;
    }
}
