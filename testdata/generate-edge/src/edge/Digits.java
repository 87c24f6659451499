package edge;

/** Arrays returned and exceptions with messages (issue 19): what a test can observe of them is asserted. */
public class Digits {
    /** The decimal digits of {@code n}, most significant first. */
    public static int[] of(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative: " + n);
        }
        String text = Integer.toString(n);
        int[] digits = new int[text.length()];
        for (int i = 0; i < digits.length; i++) {
            digits[i] = text.charAt(i) - '0';
        }
        return digits;
    }

    /** The words of {@code text}, split at single spaces. */
    public static String[] words(String text) {
        if (text.isEmpty()) {
            throw new IllegalStateException("no words");
        }
        return text.split(" ");
    }
}
