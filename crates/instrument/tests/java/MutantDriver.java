import java.util.ArrayList;
import java.util.Arrays;
import java.util.concurrent.Callable;

/**
 * Runs MutationSubject's methods on fixed inputs once per mutant id given
 * as argument and prints one line per id: {@code id<TAB>result;result;...}.
 * Ids are set in {@code ferrosuite.runtime.Mutants.active} by reflection,
 * except leading 0s (the original behaviour), so that the driver also runs
 * against the uninstrumented class without the runtime.
 */
public final class MutantDriver {
    public static void main(String[] args) throws Exception {
        boolean set = false;
        for (String arg : args) {
            int id = Integer.parseInt(arg);
            if (id != 0 || set) {
                Class.forName("ferrosuite.runtime.Mutants").getField("active").setInt(null, id);
                set = true;
            }
            System.out.println(id + "\t" + results());
        }
    }

    private static String results() {
        StringBuilder out = new StringBuilder();
        run(out, () -> s().add(7, 3));
        run(out, () -> s().add(1, 0));
        for (int a = 1; a <= 3; a++) {
            int x = a;
            run(out, () -> s().lt(x, 2));
        }
        run(out, () -> s().five());
        run(out, () -> s().mul(7, 3));
        run(out, () -> s().mul(1, 0));
        run(out, () -> s().half(7.0));
        run(out, () -> s().isNull(null));
        run(out, () -> s().isNull("x"));
        run(out, () -> s().pick(""));
        run(out, () -> s().pick("x"));
        for (long x : new long[] {50, 100, 101, 200}) run(out, () -> s().big(x));
        run(out, () -> s().large());
        run(out, () -> s().bumpTwice(3));
        run(out, () -> s().counted());
        run(out, () -> s().cleared(new ArrayList<>(Arrays.asList(1, 2))));
        for (String k : new String[] {"a", "b", "z"}) run(out, () -> s().code(k));
        for (int x = 1; x >= -1; x--) {
            int v = x;
            run(out, () -> s().checked(v));
        }
        run(out, () -> s().twice(3));
        run(out, () -> s().viaInner());
        return out.toString();
    }

    private static MutationSubject s() {
        return new MutationSubject();
    }

    private static void run(StringBuilder out, Callable<Object> call) {
        if (out.length() > 0) out.append(';');
        try {
            out.append(call.call());
        } catch (Throwable t) {
            out.append('!').append(t.getClass().getSimpleName());
        }
    }
}
