package example;

/**
 * A recursive-descent parser and evaluator for integer expressions with
 * {@code + - * /}, unary minus and parentheses, e.g. {@code "2 * (3 + -4) / 5"}.
 * Bad input throws {@link IllegalArgumentException} with a message that
 * names the problem and its position.
 *
 * <pre>
 * expression := term (('+' | '-') term)*
 * term       := factor (('*' | '/') factor)*
 * factor     := number | '-' factor | '(' expression ')'
 * </pre>
 */
public class ExpressionParser {
    /** Deepest nesting of parentheses and unary minus accepted. */
    public static final int MAX_DEPTH = 64;

    private final String input;
    private int pos;
    private int depth;

    public ExpressionParser(String input) {
        if (input == null) {
            throw new IllegalArgumentException("input is null");
        }
        this.input = input;
    }

    /** Parses and evaluates {@code expression}. */
    public static int evaluate(String expression) {
        return new ExpressionParser(expression).parse();
    }

    /** Parses the whole input and returns its value; may be called once. */
    public int parse() {
        if (pos != 0) {
            throw new IllegalStateException("already parsed");
        }
        skipSpaces();
        if (pos == input.length()) {
            throw new IllegalArgumentException("empty expression");
        }
        int value = expression();
        skipSpaces();
        if (pos < input.length()) {
            throw error("unexpected '" + input.charAt(pos) + "'");
        }
        return value;
    }

    /** How many characters the parser has consumed so far. */
    public int position() {
        return pos;
    }

    private int expression() {
        long value = term();
        while (true) {
            skipSpaces();
            if (accept('+')) {
                value = checked(value + term());
            } else if (accept('-')) {
                value = checked(value - term());
            } else {
                return (int) value;
            }
        }
    }

    private int term() {
        long value = factor();
        while (true) {
            skipSpaces();
            if (accept('*')) {
                value = checked(value * factor());
            } else if (accept('/')) {
                int divisorPos = pos;
                int divisor = factor();
                if (divisor == 0) {
                    pos = divisorPos;
                    throw error("division by zero");
                }
                value = checked(value / divisor);
            } else {
                return (int) value;
            }
        }
    }

    private int factor() {
        skipSpaces();
        if (pos == input.length()) {
            throw error("unexpected end of input");
        }
        char c = input.charAt(pos);
        if (c == '(' || c == '-') {
            if (++depth > MAX_DEPTH) {
                throw error("nesting deeper than " + MAX_DEPTH);
            }
            pos++;
            int value;
            if (c == '(') {
                value = expression();
                skipSpaces();
                if (!accept(')')) {
                    throw error("expected ')'");
                }
            } else {
                value = (int) checked(-(long) factor());
            }
            depth--;
            return value;
        }
        if (c >= '0' && c <= '9') {
            return number();
        }
        throw error("unexpected '" + c + "'");
    }

    private int number() {
        int start = pos;
        long value = 0;
        while (pos < input.length() && input.charAt(pos) >= '0' && input.charAt(pos) <= '9') {
            value = value * 10 + (input.charAt(pos) - '0');
            if (value > Integer.MAX_VALUE) {
                pos = start;
                throw error("number too large");
            }
            pos++;
        }
        return (int) value;
    }

    private boolean accept(char c) {
        if (pos < input.length() && input.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void skipSpaces() {
        while (pos < input.length() && input.charAt(pos) == ' ') {
            pos++;
        }
    }

    private long checked(long value) {
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw error("overflow");
        }
        return value;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(what + " at position " + pos + " in \"" + input + "\"");
    }
}
