package needles;

/**
 * A string that must have given characters at computed indices.
 */
public final class Tag {
    private final String name;

    public Tag(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a name");
        }
        this.name = name;
    }

    /** 1 when the character at {@code (length * 3 + shift) % length} is '#' and the first is 'x'. */
    public int kind(int shift) {
        int n = name.length();
        if (n < 4 || n > 12) {
            return -1;
        }
        int at = (n * 3 + shift) % n;
        if (at < 0) {
            return -1;
        }
        if (name.charAt(at) == '#' && name.charAt(0) == 'x') {
            return 1;
        }
        return 0;
    }
}
