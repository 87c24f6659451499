package bank;

/** A fixture for the value tracer: a refused deposit throws, a private helper is traced too. */
public class Account {
    private int balance;

    public void deposit(int amount) {
        if (amount <= 0) {
            throw new IllegalArgumentException("amount must be positive: " + amount);
        }
        balance = add(balance, amount);
    }

    private static int add(int a, int b) {
        return a + b;
    }

    public int getBalance() {
        return balance;
    }
}
