package edge;

/**
 * Its codes are computed at run time, so they are not constants of the
 * class file: the search finds them only by taking the numbers the class
 * compares as seeds (generate.rs, dynamic numeric seeds).
 */
public class Keypad {
    private final int pin = Integer.parseInt("4711") * 9 + 5;
    private final long master = Long.parseLong("1099511627776") * 3 + 12345;

    public String enter(int code) {
        if (code == pin) {
            return "open";
        }
        return "locked";
    }

    public String override(long code) {
        if (code == master) {
            return "override";
        }
        return "denied";
    }
}
