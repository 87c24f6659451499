package seal;

/**
 * Packed by generate.rs into a jar whose manifest says `Sealed: true`: a
 * test class in package `seal` from another folder makes the JVM throw
 * "sealing violation", so the tests must live in a subpackage and call
 * only public members.
 */
public class Vault {
    private int opened;

    public boolean open(String code) {
        if (code == null || code.length() != 4) {
            return false;
        }
        opened++;
        return true;
    }

    public int opened() {
        return opened;
    }

    int internal() {
        return opened * 2;
    }
}
