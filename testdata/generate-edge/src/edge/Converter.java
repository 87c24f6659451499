package edge;

/** Picks a conversion by the class asked for, as a type converter does. */
public class Converter {
    public static String conversion(Class<?> type) {
        if (type == java.math.BigInteger.class) {
            return "big integer";
        }
        if (type == java.util.UUID.class) {
            return "uuid";
        }
        if (java.util.Locale.class.equals(type)) {
            return "locale";
        }
        return "other";
    }
}
