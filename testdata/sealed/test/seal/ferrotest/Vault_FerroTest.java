package seal.ferrotest;

import static org.junit.Assert.*;

import org.junit.Test;
import seal.Vault;

/**
 * A suite of the sealed `seal.Vault` for `bench mutation`: with the mutant
 * schema of `Vault` first on the class path, `Code` must not come from the
 * sealed jar.
 */
public class Vault_FerroTest {

    @Test
    public void openReturnsTrue() throws Throwable {
        Vault vault = new Vault();
        assertTrue(vault.open("1234"));
        assertEquals(1, vault.opened());
    }

    @Test
    public void openReturnsFalse() throws Throwable {
        Vault vault = new Vault();
        assertFalse(vault.open("12"));
        assertEquals(0, vault.opened());
    }
}
