package edge;

import java.util.*;

/**
 * A generic class whose methods take wildcard-typed containers: the tests
 * must fill them and declare no raw types (generate.rs).
 */
public class Index<K, V> {
    private final Map<K, V> map = new HashMap<>();
    /** Read through a type variable: a test reads it as a `List<Object>` and fills it. */
    public final List<V> recent = new ArrayList<>();

    public int putAll(Map<? extends K, ? extends V> other) {
        int n = 0;
        for (Map.Entry<? extends K, ? extends V> e : other.entrySet()) {
            if (e.getKey() == null) {
                continue;
            }
            map.put(e.getKey(), e.getValue());
            n++;
        }
        return n;
    }

    public int recentCount() {
        if (recent.size() > 1) {
            return 2;
        }
        return recent.size();
    }

    public int count(Collection<? extends CharSequence> words) {
        int longer = 0;
        for (CharSequence w : words) {
            if (w != null && w.length() > 3) {
                longer++;
            }
        }
        return longer;
    }
}
