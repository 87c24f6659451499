package misuse;

/**
 * Calls into a class that the KAT check's class path lacks (the test
 * deletes Gone.class): the check warns or skips, never crashes
 * (crates/ferrosuite/tests/kat_cli.rs).
 */
public class Uses {
    public static int use(String s, int i) {
        Gone g = new Gone(s);
        return g.size() + s.charAt(i);
    }
}

class Gone {
    private final String s;

    Gone(String s) {
        this.s = s;
    }

    int size() {
        return s.length();
    }
}
