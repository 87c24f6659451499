package seal;

/**
 * Packed by generate.rs into a jar whose manifest says `Sealed: true`: a
 * test class in package `seal` from another folder makes the JVM throw
 * "sealing violation", so the tests must live in a subpackage and call
 * only public members. It calls `Code`, a class of the same package that
 * is not instrumented, so the workers must not load the package from two
 * places either.
 */
public class Vault {
    private int opened;

    public boolean open(String code) {
        if (!Code.valid(code)) {
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
