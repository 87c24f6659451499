package example;

/**
 * Transfers between {@link Account}s: the branches depend on the state of
 * the accounts passed in (owners, balances, limits, frozen flags).
 */
public class Bank {
    /** Transfers at or above this amount between different owners need review. */
    public static final long REVIEW_THRESHOLD = 1_000_000;

    private final int feePercent;
    private long feesCollected;
    private int transfers;
    private int rejected;

    public Bank(int feePercent) {
        if (feePercent < 0 || feePercent > 100) {
            throw new IllegalArgumentException("fee must be 0..100 percent: " + feePercent);
        }
        this.feePercent = feePercent;
    }

    /** The fee for moving {@code amount} from {@code from} to {@code to}: none between accounts of one owner, at least 1 otherwise. */
    public long fee(Account from, Account to, long amount) {
        if (from.getOwner().equals(to.getOwner()) || feePercent == 0) {
            return 0;
        }
        long fee = amount * feePercent / 100;
        return fee == 0 ? 1 : fee;
    }

    /**
     * Moves {@code amount} plus the fee out of {@code from} and {@code amount}
     * into {@code to}. Returns false and changes nothing when an account is
     * frozen, the amount needs review, or {@code from} cannot cover it.
     */
    public boolean transfer(Account from, Account to, long amount) {
        if (from == null || to == null) {
            throw new IllegalArgumentException("account is null");
        }
        if (from == to) {
            throw new IllegalArgumentException("cannot transfer to the same account");
        }
        if (amount <= 0) {
            throw new IllegalArgumentException("amount must be positive: " + amount);
        }
        if (from.isFrozen() || to.isFrozen()) {
            rejected++;
            return false;
        }
        if (amount >= REVIEW_THRESHOLD && !from.getOwner().equals(to.getOwner())) {
            rejected++;
            return false;
        }
        long fee = fee(from, to, amount);
        if (!from.withdraw(amount + fee)) {
            rejected++;
            return false;
        }
        to.deposit(amount);
        feesCollected += fee;
        transfers++;
        return true;
    }

    /** A coarse risk label for an account. */
    public String risk(Account account) {
        if (account.isFrozen()) {
            return "frozen";
        }
        if (account.getBalance() < 0) {
            return account.getBalance() < -account.getOverdraftLimit() / 2 ? "high" : "overdrawn";
        }
        return account.getBalance() >= REVIEW_THRESHOLD ? "review" : "normal";
    }

    public long getFeesCollected() {
        return feesCollected;
    }

    public int getTransfers() {
        return transfers;
    }

    public int getRejected() {
        return rejected;
    }
}
