package edge;

/**
 * A branch that needs a string built at run time (not in the constant
 * pool): only dynamic seeding from `String.equals` finds it.
 */
public class Secret {
    private final String key = new StringBuilder("emag").reverse().toString() + (6 * 7);

    public boolean open(String guess) {
        if (key.equals(guess)) {
            return true;
        }
        return false;
    }
}
