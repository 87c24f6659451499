package edge;

/**
 * Parses numbers from strings and checks their range, as validators do: a
 * test reaches the out-of-range branches only with the string of a number
 * beyond the constant the parsed value is compared with.
 */
public class Quantity {
    public static String count(String text) {
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            return "not a number";
        }
        if (value > Integer.MAX_VALUE) {
            return "too many for an int";
        }
        return "fits";
    }

    public static String measure(String text) {
        double value;
        try {
            value = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return "not a number";
        }
        if (value > Float.MAX_VALUE) {
            return "too large for a float";
        }
        return "fits";
    }
}
