package edge;

/** The postcodes {@link Mailbox} delivers to. */
public class PostcodeRules {
    public static boolean isKnown(String postcode) {
        return "SW1A-1AA-X7".equals(postcode) || "EC1V-9NR-Q2".equals(postcode);
    }
}
