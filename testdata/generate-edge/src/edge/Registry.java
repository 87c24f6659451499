package edge;

import java.util.Arrays;

/**
 * A registry that takes names only until its instance is first handed out
 * (as commons-validator's {@code DomainValidator.updateTLDOverride}): a
 * test of {@code configure} passes alone and fails after any test that
 * called {@code getInstance()}, unless the suite restores the static state.
 */
public class Registry {
    private static boolean inUse;
    private static String[] names = new String[0];
    private static final Registry INSTANCE = new Registry();

    private Registry() {}

    /** The registry; no more names after this. */
    public static Registry getInstance() {
        inUse = true;
        return INSTANCE;
    }

    /** Adds `name`; returns how many names there are, or -1 for no name. */
    public static int configure(String name) {
        if (inUse) {
            throw new IllegalStateException("configure before getInstance");
        }
        if (name == null || name.isEmpty()) {
            return -1;
        }
        String[] grown = Arrays.copyOf(names, names.length + 1);
        grown[names.length] = name;
        names = grown;
        return names.length;
    }

    /** Whether `name` was configured. */
    public boolean knows(String name) {
        for (String n : names) {
            if (n.equals(name)) {
                return true;
            }
        }
        return false;
    }
}
