package game;

/** A vault whose private gold changes only through a checked public method. */
public class Vault {
    private int gold;

    /** Deposits {@code amount} when it is between 1 and 5000. */
    public void deposit(int amount) {
        if (amount > 0 && amount <= 5000) {
            gold += amount;
        }
    }

    int gold() {
        return gold;
    }
}
