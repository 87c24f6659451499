package modern;

import java.util.ArrayList;
import java.util.List;

/** Switches on strings and enums, with patterns; nest-based private access. */
public final class Tokens {

    public enum Kind { WORD, NUMBER, SPACE, OTHER }

    /** A nested class whose private members the outer class reads directly. */
    private static final class Counter {
        private int words;
        private int numbers;

        private void count(Kind kind) {
            switch (kind) {
                case WORD -> words++;
                case NUMBER -> numbers++;
                default -> { }
            }
        }
    }

    private final List<String> seen = new ArrayList<>();
    private final Counter counter = new Counter();

    public static Kind kindOf(char c) {
        if (Character.isLetter(c)) {
            return Kind.WORD;
        }
        if (Character.isDigit(c)) {
            return Kind.NUMBER;
        }
        return Character.isWhitespace(c) ? Kind.SPACE : Kind.OTHER;
    }

    /** A string switch (hashCode dispatch) with a fall-through default. */
    public static int keyword(String word) {
        switch (word) {
            case "if":
            case "else":
                return 1;
            case "while":
                return 2;
            case "record":
                return 3;
            default:
                return word.length() > 8 ? -1 : 0;
        }
    }

    /** A pattern switch over an enum with a guard (`enumSwitch`). */
    public static String label(Kind kind, int length) {
        return switch (kind) {
            case null -> "none";
            case WORD -> length > 5 ? "long word" : "word";
            case NUMBER -> "number";
            case Kind k when k.ordinal() > 2 -> "late " + k.name().toLowerCase();
            default -> "other";
        };
    }

    public Tokens add(String token) {
        seen.add(token);
        if (!token.isEmpty()) {
            counter.count(kindOf(token.charAt(0)));
        }
        return this;
    }

    public String summary() {
        return seen.size() + " tokens: " + counter.words + " words, " + counter.numbers + " numbers";
    }
}
