package triage;

/** A type the test cluster cannot make: no accessible constructor, no factory, final. */
public final class Handle {
    private Handle() {
    }

    /** Always true. */
    public boolean ok() {
        return true;
    }
}
