package models;

/**
 * One static method per JDK operation the concolic replay models, each
 * returning what the operation gives (booleans as 0 or 1), so that the
 * replay's semantics can be compared with the JVM's on edge values.
 */
public final class Models {
    private Models() {}

    public static int length(String s) { return s.length(); }
    public static int charAt(String s, int i) { return s.charAt(i); }
    public static int equalsTo(String s, String t) { return s.equals(t) ? 1 : 0; }
    public static int startsWith(String s, String t) { return s.startsWith(t) ? 1 : 0; }
    public static int indexOf(String s, int c) { return s.indexOf(c); }
    public static int isEmpty(String s) { return s.isEmpty() ? 1 : 0; }
    public static int endsWith(String s, String t) { return s.endsWith(t) ? 1 : 0; }
    public static int compareTo(String s, String t) { return s.compareTo(t); }
    public static int hashCode(String s) { return s.hashCode(); }
    public static int builder(String a, int n, char c) {
        String s = new StringBuilder().append(a).append(n).append(c).append((String) null).toString();
        return s.length() * 1000 + s.charAt(s.length() - 6) + (s.startsWith(a) ? 1 : 0);
    }
    public static int switchOn(String s) {
        switch (s) {
            case "Aa": return 1;
            case "BB": return 2;
            case "needle": return 3;
            default: return 0;
        }
    }

    public static int absI(int a) { return Math.abs(a); }
    public static long absJ(long a) { return Math.abs(a); }
    public static float absF(float a) { return Math.abs(a); }
    public static double absD(double a) { return Math.abs(a); }
    public static int minI(int a, int b) { return Math.min(a, b); }
    public static int maxI(int a, int b) { return Math.max(a, b); }
    public static long minJ(long a, long b) { return Math.min(a, b); }
    public static long maxJ(long a, long b) { return Math.max(a, b); }
    public static float minF(float a, float b) { return Math.min(a, b); }
    public static float maxF(float a, float b) { return Math.max(a, b); }
    public static double minD(double a, double b) { return Math.min(a, b); }
    public static double maxD(double a, double b) { return Math.max(a, b); }

    public static int boxI(int a) { return Integer.valueOf(a).intValue(); }
    public static long boxJ(long a) { return Long.valueOf(a).longValue(); }
    public static int boxC(char a) { return Character.valueOf(a).charValue(); }
    public static int boxZ(boolean a) { return Boolean.valueOf(a).booleanValue() ? 1 : 0; }
    public static int boxS(short a) { return Short.valueOf(a).shortValue(); }
    public static int boxB(byte a) { return Byte.valueOf(a).byteValue(); }
    public static double boxD(double a) { return Double.valueOf(a).doubleValue(); }
    public static float boxF(float a) { return Float.valueOf(a).floatValue(); }
    public static long unboxWiden(int a) { return Integer.valueOf(a).longValue(); }
    public static int boxEquals(int a, int b) { return Integer.valueOf(a).equals(Integer.valueOf(b)) ? 1 : 0; }

    public static int arraycopy(int from, int n, int i) {
        int[] a = {1, 2, 3, 4, 5};
        int[] b = new int[5];
        System.arraycopy(a, from, b, 1, n);
        return b[i];
    }

    /** A multi-dimensional array ({@code multianewarray}): a store and narrowed bytes. */
    public static int grid(int rows, int r, int c) {
        byte[][] g = new byte[rows][3];
        g[r][c] = (byte) (r * 100 + c);
        return g[r][c] + g[0].length * 1000 + g.length * 10000;
    }
}
