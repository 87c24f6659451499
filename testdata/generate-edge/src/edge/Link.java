package edge;

/** A link of a chain whose state is public fields, written by whoever builds it. */
public class Link {
    public Link next;
    public int weight;
}
