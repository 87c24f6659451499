package edge;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Addresses told apart by regular expressions built at run time
 * (generate.rs, regex pairs): no constant holds a pattern, so only the
 * patterns an input failed to match tell the search what to write, first
 * the whole address, then its domain.
 */
public class Recipient {
    /** {@code ^(.+)@(.+)$}. */
    private static final Pattern ADDRESS = Pattern.compile(reverse("$)+.(@)+.(^"));
    /** {@code ^\[(\d{1,3})\]$}. */
    private static final Pattern LITERAL = Pattern.compile(reverse("$]\\)}3,1{d\\([\\^"));

    private static String reverse(String s) {
        return new StringBuilder(s).reverse().toString();
    }

    /** "none", "name" or "literal": the kind of {@code address}'s domain. */
    public static String kind(String address) {
        if (address == null) {
            return "none";
        }
        Matcher parts = ADDRESS.matcher(address);
        if (!parts.matches()) {
            return "none";
        }
        if (!LITERAL.matcher(parts.group(2)).matches()) {
            return "name";
        }
        return "literal";
    }
}
