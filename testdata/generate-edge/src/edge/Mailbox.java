package edge;

/** Accepts the postcodes another class of its package knows: the words to match are that class's constants. */
public class Mailbox {
    public static String accept(String postcode) {
        if (PostcodeRules.isKnown(postcode)) {
            return "delivered";
        }
        return "returned";
    }
}
