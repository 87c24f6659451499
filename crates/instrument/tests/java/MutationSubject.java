import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * Fixture of tests/mutants.rs: methods with one kind of mutation site each,
 * so that every mutant changes a result of MutantDriver's calls.
 */
public class MutationSubject {
    static int counter;
    int total;
    int hits;

    public int add(int a, int b) {
        return a + b; // ADD
    }

    public boolean lt(int a, int b) {
        return a < b; // LT
    }

    public int five() {
        return 5; // FIVE
    }

    public long mul(long a, long b) {
        return a * b; // MUL
    }

    public double half(double x) {
        return x / 2.0; // HALF
    }

    public boolean isNull(Object o) {
        return o == null; // NULL
    }

    public int pick(String s) {
        return s.isEmpty() ? 1 : 2; // PICK
    }

    public boolean big(long x) {
        return x > 100L; // BIG
    }

    public int large() {
        return 100000; // LARGE
    }

    public void bump(int n) {
        total += n; // BUMP
    }

    public int bumpTwice(int n) {
        bump(n); // FIRST BUMP
        bump(n);
        return total;
    }

    static void count() {
        counter++; // COUNT
    }

    public int counted() {
        counter = 0;
        count(); // COUNTED
        count();
        return counter;
    }

    public int cleared(List<Integer> list) {
        list.clear(); // CLEAR
        return list.size();
    }

    public int code(String s) {
        switch (s) {
            case "a":
                return 1;
            case "b":
                return 2;
            default:
                return 0;
        }
    }

    public int checked(int x) {
        assert x > 0 : "positive"; // ASSERT
        return x;
    }

    public int twice(int x) {
        IntUnaryOperator f = y -> y * 2; // LAMBDA
        return f.applyAsInt(x);
    }

    private void secret() {
        hits += 10;
    }

    public int viaInner() {
        return new Inner().call();
    }

    class Inner {
        int call() {
            secret(); // NESTMATE
            return hits;
        }
    }
}
