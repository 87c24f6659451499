package game;

import java.util.HashMap;
import java.util.Map;

/** Vaults by owner name. */
public class Bank {
    private final Map<String, Vault> vaults = new HashMap<>();

    public void open(String owner, Vault v) {
        if (owner != null && v != null) {
            vaults.put(owner, v);
        }
    }

    public Vault vaultOf(String owner) {
        return vaults.get(owner);
    }
}
