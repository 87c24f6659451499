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

    /**
     * 1 when the character at {@code (length * 3 + shift) % length} (not the
     * first) is '#' and the string's mixed hash is {@code 0x1234567}; 0 when
     * only the character is right; -1 for a length outside 4 to 12.
     */
    public int kind(int shift) {
        int n = name.length();
        if (n < 4 || n > 12) {
            return -1;
        }
        int at = (n * 3 + shift) % n;
        if (at <= 0 || name.charAt(at) != '#') {
            return -1;
        }
        int h = 0;
        for (int i = 0; i < n; i++) {
            h = h * 31 + name.charAt(i);
        }
        h ^= h >>> 11;
        if (h == 0x1234567) {
            return 1;
        }
        return 0;
    }
}
