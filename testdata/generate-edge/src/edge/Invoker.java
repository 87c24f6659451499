package edge;

import java.lang.reflect.Method;

/**
 * Calls a method of a value by the name its caller gives (generate.rs,
 * reflection by name): no constant names a method, so only the member
 * names a failed lookup saw tell the search.
 */
public class Invoker {
    /** "text" or "other" by the return type of {@code value}'s public no-argument method {@code name}. */
    public static String kind(Object value, String name) {
        if (value == null || name == null) {
            return "nothing";
        }
        try {
            Method method = value.getClass().getMethod(name);
            return method.getReturnType() == String.class ? "text" : "other";
        } catch (NoSuchMethodException e) {
            return "no such method";
        }
    }
}
