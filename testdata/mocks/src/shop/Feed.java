package shop;

/**
 * A feed of amounts, read until {@link #more} says it has ended: an
 * interface nothing on the class path implements, so tests get mocks of it.
 */
public interface Feed {
    /** Whether another amount follows. */
    boolean more();

    /** The next amount, in cents. */
    int next();
}
