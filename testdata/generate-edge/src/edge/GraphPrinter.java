package edge;

/** Prints a {@link Graph}: its branches need nodes in the graph's public final collections. */
public class GraphPrinter {
    public static String print(Graph graph) {
        if (graph.order.isEmpty()) {
            return "empty";
        }
        StringBuilder out = new StringBuilder(graph.title == null ? "" : graph.title + ": ");
        for (String node : graph.order) {
            Integer weight = graph.weights.get(node);
            if (weight == null) {
                out.append(node).append("?");
            } else if (weight > 10) {
                out.append(node).append("!");
            } else {
                out.append(node);
            }
        }
        return out.toString();
    }
}
