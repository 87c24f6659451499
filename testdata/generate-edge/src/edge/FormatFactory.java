package edge;

/** A factory of {@link Format}s, as gson's {@code TypeAdapterFactory}. */
public interface FormatFactory {
    <T> Format<T> create(Class<T> type);
}
