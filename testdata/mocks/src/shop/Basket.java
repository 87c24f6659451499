package shop;

/**
 * Sums a feed to its end. Only a feed that has amounts and then ends gives
 * a total: a mock whose {@code more()} always answers the same either
 * never enters the loop or never leaves it, so the branches after the loop
 * need a stub with a sequence of answers ({@code thenReturn(true, false)}).
 */
public class Basket {
    /** "empty", "small" or "large" by the feed's total; "endless" after 50 amounts. */
    public static String drain(Feed feed) {
        int n = 0;
        int total = 0;
        while (feed.more()) {
            total += feed.next();
            n++;
            if (n > 50) {
                return "endless";
            }
        }
        if (n == 0) {
            return "empty";
        }
        return total > 10 ? "large" : "small";
    }
}
