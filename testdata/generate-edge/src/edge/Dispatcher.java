package edge;

import java.util.HashMap;
import java.util.Map;

/**
 * A dispatcher of handlers whose names are built at run time and looked up
 * in a map (generate.rs, map lookups): no constant names them and no
 * {@code equals} compares them, so only the keys a missed lookup saw tell
 * the search.
 */
public class Dispatcher {
    private final Map<String, Integer> handlers = new HashMap<>();

    public Dispatcher() {
        handlers.put(new StringBuilder("tnemhcatta-evomer").reverse().toString(), 7);
        handlers.put(new StringBuilder("ledom-dnif").reverse().toString(), 9);
    }

    public int dispatch(String name) {
        Integer code = handlers.get(name);
        if (code == null) {
            return -1;
        }
        if (code > 8) {
            return 2;
        }
        return 1;
    }
}
