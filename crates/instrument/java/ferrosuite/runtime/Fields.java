package ferrosuite.runtime;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The instance fields the recorders read ({@link Recorder}'s profiles,
 * {@link ValueTracer}'s values): those of a class and its superclasses
 * below the JDK's, made accessible, cached per class. Reading a field by
 * reflection runs no code of the recorded class.
 */
final class Fields {
    private Fields() {}

    private static final Map<Class<?>, Field[]> CACHE = new HashMap<Class<?>, Field[]>();

    /** Whether a class of this binary name belongs to the JDK. */
    static boolean isJdk(String name) {
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("sun.") || name.startsWith("com.sun.");
    }

    /** The instance fields of {@code c} and its superclasses below the JDK's (not static, not synthetic). */
    static Field[] of(Class<?> c) {
        synchronized (CACHE) {
            Field[] known = CACHE.get(c);
            if (known != null) {
                return known;
            }
            List<Field> out = new ArrayList<Field>();
            for (Class<?> k = c; k != null && !isJdk(k.getName()); k = k.getSuperclass()) {
                for (Field f : k.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) {
                        continue;
                    }
                    try {
                        f.setAccessible(true);
                        out.add(f);
                    } catch (RuntimeException e) {
                        // a field we may not read: left out
                    }
                }
            }
            Field[] result = out.toArray(new Field[0]);
            CACHE.put(c, result);
            return result;
        }
    }
}
