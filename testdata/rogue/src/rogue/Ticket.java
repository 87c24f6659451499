package rogue;

/** Static counters: each ticket's number depends on how many came before. */
public class Ticket {
    private static int issued;
    private final int number;

    public Ticket() {
        number = ++issued;
    }

    public int number() {
        return number;
    }

    public static int issued() {
        return issued;
    }

    public boolean first() {
        return number == 1;
    }
}
