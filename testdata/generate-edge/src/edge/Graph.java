package edge;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A graph that keeps its nodes in public final collections, as ANTLR's
 * {@code DFA.states} does: a test fills them only by reading the field and
 * adding to the collection it holds. Its title is a public volatile field
 * (a field's {@code volatile} flag is the bit a method's {@code bridge} flag is).
 */
public class Graph {
    public final Map<String, Integer> weights = new HashMap<>();
    public final List<String> order = new ArrayList<>();
    public volatile String title;
}
