package game;

/** A vault with its account; a frozen vault pays nothing. */
public class Vault {
    private final Account account = new Account();
    private boolean frozen;

    public Account getAccount() {
        return account;
    }

    public void freeze() {
        frozen = true;
    }

    public boolean isFrozen() {
        return frozen;
    }
}
