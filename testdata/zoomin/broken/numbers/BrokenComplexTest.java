package numbers;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Manual tests ZoomIn must skip: one fails, one needs a class missing from the class path at run time. */
public class BrokenComplexTest {
    @Test
    public void failsOnPurpose() {
        assertEquals(6.0, new Complex(3, 4).abs(), 1e-9);
    }

    @Test
    public void needsAMissingClass() {
        assertEquals(1.0, Helper.one().getRe(), 1e-9);
    }
}
