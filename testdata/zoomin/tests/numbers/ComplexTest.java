package numbers;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** The developers' own tests of Complex: they pass, and skip the corner cases where its faults show. */
public class ComplexTest {
    private static final double EPS = 1e-9;

    @Test
    public void absOfComplexNumbers() {
        assertEquals(5.0, new Complex(3, 4).abs(), EPS);
        assertEquals(5.0, new Complex(-3, 4).abs(), EPS);
        assertEquals(13.0, new Complex(5, -12).abs(), EPS);
        assertEquals(Math.sqrt(2), new Complex(1, 1).abs(), EPS);
        assertEquals(2.0, new Complex(0, 2).abs(), EPS);
    }

    @Test
    public void absOfPositiveRealNumbers() {
        assertEquals(2.0, new Complex(2, 0).abs(), EPS);
        assertEquals(7.5, new Complex(7.5, 0).abs(), EPS);
        assertEquals(0.25, new Complex(0.25, 0).abs(), EPS);
    }

    @Test
    public void conjugateFlipsTheImaginaryPart() {
        assertEquals(-4.0, new Complex(3, 4).conjugate().getIm(), EPS);
        assertEquals(3.0, new Complex(3, 4).conjugate().getRe(), EPS);
        assertEquals(-1.0, new Complex(-2, 1).conjugate().getIm(), EPS);
        assertEquals(-0.5, new Complex(0, 0.5).conjugate().getIm(), EPS);
        assertEquals(-6.0, new Complex(1, 6).conjugate().getIm(), EPS);
        assertEquals(-2.0, new Complex(8, 2).conjugate().getIm(), EPS);
        assertEquals(-3.0, new Complex(-1, 3).conjugate().getIm(), EPS);
    }

    @Test
    public void conjugateKeepsTheRealPart() {
        assertEquals(new Complex(2, -5), new Complex(2, 5).conjugate());
    }

    @Test
    public void powers() {
        Complex i = new Complex(0, 1);
        assertEquals(new Complex(0, 1), i.pow(1));
        assertEquals(-1.0, i.pow(2).getRe(), EPS);
        assertEquals(-1.0, i.pow(3).getIm(), EPS);
        assertEquals(1.0, i.pow(4).getRe(), EPS);
        Complex two = new Complex(2, 0);
        assertEquals(8.0, two.pow(3).getRe(), EPS);
        assertEquals(2.0, two.pow(1).getRe(), EPS);
        assertEquals(32.0, two.pow(5).getRe(), EPS);
        assertEquals(new Complex(1, 1), new Complex(1, 1).pow(1));
        assertEquals(new Complex(0, 2), new Complex(1, 1).pow(2));
        assertEquals(new Complex(2, -11), new Complex(2, -1).pow(3));
        assertEquals(new Complex(-3, -4), new Complex(-1, 2).pow(2));
        assertEquals(new Complex(-7, 24), new Complex(3, 4).pow(2));
    }

    @Test
    public void plusARealNumber() {
        assertEquals(new Complex(4, 2), new Complex(1, 2).plus(3));
        assertEquals(new Complex(-1, 5), new Complex(1, 5).plus(-2));
        assertEquals(new Complex(2.5, -1), new Complex(2, -1).plus(0.5));
    }

    @Test
    public void addAndMultiply() {
        assertEquals(new Complex(4, 6), new Complex(1, 2).add(new Complex(3, 4)));
        assertEquals(new Complex(-5, 10), new Complex(1, 2).multiply(new Complex(3, 4)));
        assertEquals(new Complex(-1, -2), new Complex(1, 2).negate());
    }

    @Test
    public void equality() {
        assertTrue(new Complex(1, 2).equals(new Complex(1, 2)));
        assertFalse(new Complex(1, 2).equals(new Complex(2, 1)));
        assertFalse(new Complex(1, 2).equals("(1.0, 2.0)"));
        assertEquals(new Complex(1, 2).hashCode(), new Complex(1, 2).hashCode());
        assertEquals("(1.0, 2.0)", new Complex(1, 2).toString());
    }
}
