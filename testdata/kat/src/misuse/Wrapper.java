package misuse;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;

/**
 * A list that delegates to an ArrayList: the IndexOutOfBoundsException of
 * get(int) is the List contract it implements, not a misuse
 * (crates/katcheck/tests/fixtures.rs).
 */
public class Wrapper extends AbstractList<String> {
    private final List<String> items = new ArrayList<>();

    @Override
    public String get(int index) {
        return items.get(index);
    }

    @Override
    public int size() {
        return items.size();
    }

    /** Not a List method: an IndexOutOfBoundsException here is the class's own. */
    public String at(int index) {
        return items.get(index);
    }
}
