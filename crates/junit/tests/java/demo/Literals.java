package demo;

/** Echoes values in a form that shows exactly what javac made of a literal. */
public class Literals {
    public static String bits(double d) {
        return Long.toHexString(Double.doubleToRawLongBits(d));
    }

    public static String bits(float f) {
        return Integer.toHexString(Float.floatToRawIntBits(f));
    }

    public static String show(boolean b) {
        return "boolean " + b;
    }

    public static String show(byte b) {
        return "byte " + b;
    }

    public static String show(short s) {
        return "short " + s;
    }

    public static String show(char c) {
        return "char " + (int) c;
    }

    public static String show(int i) {
        return "int " + i;
    }

    public static String show(long l) {
        return "long " + l;
    }

    public static String show(Object o) {
        return "object " + o.getClass().getSimpleName() + " " + o;
    }

    /** The UTF-16 code units of {@code s} in hex, separated by spaces. */
    public static String units(String s) {
        StringBuilder units = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            if (i > 0) {
                units.append(' ');
            }
            units.append(Integer.toHexString(s.charAt(i)));
        }
        return units.toString();
    }

    public static String echo(String s) {
        return s;
    }

    public static double half(double d) {
        return d / 2;
    }

    public static float half(float f) {
        return f / 2;
    }

    public static long negate(long l) {
        return -l;
    }

    public static int negate(int i) {
        return -i;
    }

    public static char next(char c) {
        return (char) (c + 1);
    }

    public static byte next(byte b) {
        return (byte) (b + 1);
    }

    public static short next(short s) {
        return (short) (s + 1);
    }

    public static Integer boxed(int i) {
        return i;
    }

    public static Object object(int i) {
        return i;
    }

    public static Number number(int i) {
        return i;
    }

    public static Object flag(boolean b) {
        return b;
    }

    public static Double boxed(double d) {
        return d;
    }
}
