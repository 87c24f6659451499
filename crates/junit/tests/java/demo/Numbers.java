package demo;

/** Arrays in and out. */
public class Numbers {
    public static int sum(int[] xs) {
        int sum = 0;
        for (int x : xs) {
            sum += x;
        }
        return sum;
    }

    public static String join(String[] parts) {
        return String.join("+", parts);
    }

    public static int cells(int[][] grid) {
        int cells = 0;
        for (int[] row : grid) {
            cells += row == null ? 0 : row.length;
        }
        return cells;
    }

    public static long product(long[] xs) {
        long product = 1;
        for (long x : xs) {
            product *= x;
        }
        return product;
    }

    public static int values(Outer.Nested[] nested) {
        int sum = 0;
        for (Outer.Nested n : nested) {
            sum += n.value();
        }
        return sum;
    }

    public static int[] range(int n) {
        int[] range = new int[n];
        for (int i = 0; i < n; i++) {
            range[i] = i;
        }
        return range;
    }

    public static double[] halves(int n) {
        double[] halves = new double[n];
        for (int i = 0; i < n; i++) {
            halves[i] = i / 2.0;
        }
        return halves;
    }

    public static char[] letters(String s) {
        return s.toCharArray();
    }

    public static String[] words(String s) {
        return s.split(", ");
    }
}
