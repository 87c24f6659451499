package edge;

import java.util.HashMap;
import java.util.Map;

/**
 * A table of aliases with a shared instance (as joda-convert's
 * {@code RenameHandler.INSTANCE}): its state lives in the instance, not in
 * static fields, so restoring static fields does not undo what a test
 * registered on {@link #INSTANCE}. A test that registers on the shared
 * instance changes what later tests see; one that registers on its own
 * {@code new Aliases()} does not.
 */
public final class Aliases {
    /** The shared table. */
    public static final Aliases INSTANCE = new Aliases();

    private final Map<String, String> targets = new HashMap<>();

    /** Adds `name` for `target`; a name keeps its first target. */
    public void alias(String name, String target) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("no name");
        }
        String old = targets.putIfAbsent(name, target);
        if (old != null && !old.equals(target)) {
            throw new IllegalStateException("already an alias of " + old + ": " + name);
        }
    }

    /** The target of `name`, or `name` itself. */
    public String resolve(String name) {
        String target = targets.get(name);
        if (target == null) {
            return name;
        }
        return target;
    }

    /** How many aliases there are. */
    public int size() {
        return targets.size();
    }
}
