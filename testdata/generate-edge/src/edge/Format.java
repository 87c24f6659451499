package edge;

/** What {@link Stamp} implements, as gson's adapters extend {@code TypeAdapter}. */
public abstract class Format<T> {
    public abstract String format(T value);
}
