package calc;

/** A class whose hand-written suite misses a boundary: `bench mutation` lists what survives. */
public class Grade {
    /** "pass" from 50 points on, "fail" below; scores outside 0..100 are refused. */
    public static String of(int score) {
        if (score < 0 || score > 100) {
            throw new IllegalArgumentException("score " + score);
        }
        if (score >= 50) {
            return "pass";
        }
        return "fail";
    }

    /** Never called by the suite: its mutants are not reached. */
    public static int twice(int x) {
        return x * 2;
    }
}
