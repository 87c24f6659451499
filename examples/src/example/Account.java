package example;

/** A bank account with an owner, a balance in cents, an overdraft limit and a frozen flag. */
public class Account {
    private final String owner;
    private final long overdraftLimit;
    private long balance;
    private boolean frozen;

    public Account(String owner, long balance) {
        this(owner, balance, 0);
    }

    public Account(String owner, long balance, long overdraftLimit) {
        if (owner == null || owner.isEmpty()) {
            throw new IllegalArgumentException("owner is empty");
        }
        if (overdraftLimit < 0) {
            throw new IllegalArgumentException("negative overdraft limit: " + overdraftLimit);
        }
        if (balance < -overdraftLimit) {
            throw new IllegalArgumentException("balance below the overdraft limit: " + balance);
        }
        this.owner = owner;
        this.balance = balance;
        this.overdraftLimit = overdraftLimit;
    }

    public String getOwner() {
        return owner;
    }

    public long getBalance() {
        return balance;
    }

    public long getOverdraftLimit() {
        return overdraftLimit;
    }

    public boolean isFrozen() {
        return frozen;
    }

    public void freeze() {
        frozen = true;
    }

    public void unfreeze() {
        frozen = false;
    }

    /** The most that can be withdrawn now (0 when frozen). */
    public long available() {
        return frozen ? 0 : balance + overdraftLimit;
    }

    public void deposit(long amount) {
        if (amount <= 0) {
            throw new IllegalArgumentException("deposit must be positive: " + amount);
        }
        if (frozen) {
            throw new IllegalStateException("account of " + owner + " is frozen");
        }
        balance += amount;
    }

    /** Takes {@code amount} out; returns false (and changes nothing) when it exceeds {@link #available()}. */
    public boolean withdraw(long amount) {
        if (amount <= 0) {
            throw new IllegalArgumentException("withdrawal must be positive: " + amount);
        }
        if (amount > available()) {
            return false;
        }
        balance -= amount;
        return true;
    }

    @Override
    public String toString() {
        return owner + ": " + balance + (frozen ? " (frozen)" : "");
    }
}
