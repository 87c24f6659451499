import java.lang.reflect.Method;

/**
 * Runs static methods of a fixture class and prints the tracer's records.
 *
 * Usage: {@code java -cp INSTRUMENTED:ORIGINAL:THIS TraceRunner CLASS SESSION...}
 * where each SESSION is {@code m1:a,b;m2:c} — the tracer is reset, the
 * calls run in order, and the records are printed after a line
 * {@code == SESSION}. Arguments are parsed by the parameter types (int,
 * long, float, double incl. NaN/-0.0/Infinity; Object: {@code null},
 * {@code A} or {@code B}, two fixed distinct objects; String: the text or
 * {@code null}; List: {@code empty} or elements joined by {@code |}). A call
 * that throws is reported as {@code threw CLASS} and the session goes on.
 * The tracer is reached by reflection so this file compiles without it.
 */
public final class TraceRunner {
    private static final Object A = new Object();
    private static final Object B = new Object();

    public static void main(String[] args) throws Exception {
        Class<?> fixture = Class.forName(args[0]);
        Class<?> tracer = Class.forName("ferrosuite.runtime.Tracer");
        Method reset = tracer.getMethod("reset");
        Method dump = tracer.getMethod("dump");
        for (int i = 1; i < args.length; i++) {
            reset.invoke(null);
            for (String call : args[i].split(";")) {
                run(fixture, call);
            }
            System.out.println("== " + args[i]);
            System.out.print(dump.invoke(null));
        }
    }

    private static void run(Class<?> fixture, String call) throws Exception {
        String name = call.substring(0, call.indexOf(':'));
        String[] raw = call.substring(call.indexOf(':') + 1).split(",", -1);
        for (Method m : fixture.getDeclaredMethods()) {
            if (!m.getName().equals(name) || m.getParameterCount() != raw.length) continue;
            Class<?>[] types = m.getParameterTypes();
            Object[] values = new Object[raw.length];
            for (int k = 0; k < raw.length; k++) values[k] = parse(types[k], raw[k]);
            m.setAccessible(true);
            try {
                m.invoke(null, values);
            } catch (java.lang.reflect.InvocationTargetException e) {
                System.out.println("threw " + e.getCause().getClass().getName());
            }
            return;
        }
        throw new IllegalArgumentException("no method " + call);
    }

    private static Object parse(Class<?> type, String s) {
        if (type == int.class) return Integer.parseInt(s);
        if (type == long.class) return Long.parseLong(s);
        if (type == float.class) return Float.parseFloat(s);
        if (type == double.class) return Double.parseDouble(s);
        if (type == String.class) return s.equals("null") ? null : s;
        if (type == java.util.List.class) {
            return s.equals("empty") ? new java.util.ArrayList<Object>() : java.util.Arrays.asList((Object[]) s.split("\\|"));
        }
        return s.equals("null") ? null : s.equals("A") ? A : B;
    }
}
