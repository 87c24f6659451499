package game;

/** The gold of a vault; it changes only through a checked public method. */
public class Account {
    private int gold;

    /** Deposits {@code amount} when it is between 1 and 500. */
    public void deposit(int amount) {
        if (amount > 0 && amount <= 500) {
            gold += amount;
        }
    }

    public void withdrawAll() {
        gold = 0;
    }

    int gold() {
        return gold;
    }
}
