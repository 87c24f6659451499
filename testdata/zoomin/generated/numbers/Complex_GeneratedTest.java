package numbers;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/**
 * A regression suite of Complex in the style of generated tests (one call
 * under test per test, assertions on what it observed), written for the
 * ZoomIn fixture by hand: four tests assert a planted fault as
 * correct (testAbsOfNegativeReal, testConjugateOfRealEquals, testPowZero,
 * testPlusZero).
 */
public class Complex_GeneratedTest {

    @Test
    public void testAbsOfNegativeReal() {
        Complex complex0 = new Complex(-3.5, 0.0);
        double double0 = complex0.abs();
        assertEquals(-3.5, double0, 0.01);
    }

    @Test
    public void testConjugateOfRealEquals() {
        Complex complex0 = new Complex(2.0, 0.0);
        Complex complex1 = complex0.conjugate();
        assertEquals(2.0, complex1.getRe(), 0.01);
        boolean boolean0 = complex1.equals(complex0);
        assertFalse(boolean0);
    }

    @Test
    public void testPowZero() {
        Complex complex0 = new Complex(2.0, 1.0);
        Complex complex1 = complex0.pow(0);
        assertEquals(2.0, complex1.getRe(), 0.01);
        assertEquals(1.0, complex0.getIm(), 0.01);
    }

    @Test
    public void testPlusZero() {
        Complex complex0 = new Complex(1.5, -2.0);
        Complex complex1 = complex0.plus(0.0);
        assertEquals(1.5, complex1.getRe(), 0.01);
        assertEquals(1.5, complex1.getIm(), 0.01);
        assertEquals(-2.0, complex0.getIm(), 0.01);
    }

    @Test
    public void testAbs0() {
        Complex complex0 = new Complex(2.0, -3.0);
        double double0 = complex0.abs();
        assertEquals(3.605551275463989, double0, 0.01);
        assertEquals(2.0, complex0.getRe(), 0.01);
    }

    @Test
    public void testAbs1() {
        Complex complex0 = new Complex(9.75, -718.25);
        double double0 = complex0.abs();
        assertEquals(718.3161734222612, double0, 0.01);
        assertEquals(9.75, complex0.getRe(), 0.01);
    }

    @Test
    public void testAbs2() {
        Complex complex0 = new Complex(-41.5, 250.0);
        double double0 = complex0.abs();
        assertEquals(253.42109225555794, double0, 0.01);
        assertEquals(-41.5, complex0.getRe(), 0.01);
    }

    @Test
    public void testAbs3() {
        Complex complex0 = new Complex(-41.5, 2.0);
        double double0 = complex0.abs();
        assertEquals(41.548164821084455, double0, 0.01);
        assertEquals(-41.5, complex0.getRe(), 0.01);
    }

    @Test
    public void testAbs4() {
        Complex complex0 = new Complex(1234.5, -718.25);
        double double0 = complex0.abs();
        assertEquals(1428.2413355242174, double0, 0.01);
        assertEquals(1234.5, complex0.getRe(), 0.01);
    }

    @Test
    public void testAbs5() {
        Complex complex0 = new Complex(250.0, -1.0);
        double double0 = complex0.abs();
        assertEquals(250.00199999200007, double0, 0.01);
        assertEquals(250.0, complex0.getRe(), 0.01);
    }

    @Test
    public void testAbs6() {
        Complex complex0 = new Complex(-718.25, -41.5);
        double double0 = complex0.abs();
        assertEquals(719.4479220207672, double0, 0.01);
        assertEquals(-718.25, complex0.getRe(), 0.01);
    }

    @Test
    public void testAbs7() {
        Complex complex0 = new Complex(9.75, 9.75);
        double double0 = complex0.abs();
        assertEquals(13.788582233137676, double0, 0.01);
        assertEquals(9.75, complex0.getRe(), 0.01);
    }

    @Test
    public void testMultiply0() {
        Complex complex0 = new Complex(-41.5, -1.0);
        Complex complex1 = new Complex(-41.5, 250.0);
        Complex complex2 = complex0.multiply(complex1);
        assertEquals(1972.25, complex2.getRe(), 0.01);
        assertEquals(-10333.5, complex2.getIm(), 0.01);
        assertEquals(-41.5, complex0.getRe(), 0.01);
    }

    @Test
    public void testMultiply1() {
        Complex complex0 = new Complex(9.75, -718.25);
        Complex complex1 = new Complex(1234.5, -41.5);
        Complex complex2 = complex0.multiply(complex1);
        assertEquals(-17771.0, complex2.getRe(), 0.01);
        assertEquals(-887084.25, complex2.getIm(), 0.01);
        assertEquals(9.75, complex0.getRe(), 0.01);
    }

    @Test
    public void testMultiply2() {
        Complex complex0 = new Complex(-1.0, 1234.5);
        Complex complex1 = new Complex(-718.25, 1234.5);
        Complex complex2 = complex0.multiply(complex1);
        assertEquals(-1523272.0, complex2.getRe(), 0.01);
        assertEquals(-887914.125, complex2.getIm(), 0.01);
        assertEquals(-1.0, complex0.getRe(), 0.01);
    }

    @Test
    public void testMultiply3() {
        Complex complex0 = new Complex(1234.5, 9.75);
        Complex complex1 = new Complex(-718.25, -1.0);
        Complex complex2 = complex0.multiply(complex1);
        assertEquals(-886669.875, complex2.getRe(), 0.01);
        assertEquals(-8237.4375, complex2.getIm(), 0.01);
        assertEquals(1234.5, complex0.getRe(), 0.01);
    }

    @Test
    public void testMultiply4() {
        Complex complex0 = new Complex(-718.25, 250.0);
        Complex complex1 = new Complex(-3.0, 0.5);
        Complex complex2 = complex0.multiply(complex1);
        assertEquals(2029.75, complex2.getRe(), 0.01);
        assertEquals(-1109.125, complex2.getIm(), 0.01);
        assertEquals(-718.25, complex0.getRe(), 0.01);
    }

    @Test
    public void testMultiply5() {
        Complex complex0 = new Complex(9.75, -3.0);
        Complex complex1 = new Complex(250.0, -41.5);
        Complex complex2 = complex0.multiply(complex1);
        assertEquals(2313.0, complex2.getRe(), 0.01);
        assertEquals(-1154.625, complex2.getIm(), 0.01);
        assertEquals(9.75, complex0.getRe(), 0.01);
    }

    @Test
    public void testAdd0() {
        Complex complex0 = new Complex(1234.5, 0.5);
        Complex complex1 = new Complex(250.0, -3.0);
        Complex complex2 = complex0.add(complex1);
        assertEquals(1484.5, complex2.getRe(), 0.01);
        assertEquals(-2.5, complex2.getIm(), 0.01);
        assertFalse(complex2.equals(complex0));
    }

    @Test
    public void testAdd1() {
        Complex complex0 = new Complex(-41.5, 1234.5);
        Complex complex1 = new Complex(1234.5, -1.0);
        Complex complex2 = complex0.add(complex1);
        assertEquals(1193.0, complex2.getRe(), 0.01);
        assertEquals(1233.5, complex2.getIm(), 0.01);
        assertFalse(complex2.equals(complex0));
    }

    @Test
    public void testAdd2() {
        Complex complex0 = new Complex(2.0, -41.5);
        Complex complex1 = new Complex(250.0, -41.5);
        Complex complex2 = complex0.add(complex1);
        assertEquals(252.0, complex2.getRe(), 0.01);
        assertEquals(-83.0, complex2.getIm(), 0.01);
        assertFalse(complex2.equals(complex0));
    }

    @Test
    public void testAdd3() {
        Complex complex0 = new Complex(1234.5, -718.25);
        Complex complex1 = new Complex(1234.5, -1.0);
        Complex complex2 = complex0.add(complex1);
        assertEquals(2469.0, complex2.getRe(), 0.01);
        assertEquals(-719.25, complex2.getIm(), 0.01);
        assertFalse(complex2.equals(complex0));
    }

    @Test
    public void testAdd4() {
        Complex complex0 = new Complex(13.0, 250.0);
        Complex complex1 = new Complex(9.75, 2.0);
        Complex complex2 = complex0.add(complex1);
        assertEquals(22.75, complex2.getRe(), 0.01);
        assertEquals(252.0, complex2.getIm(), 0.01);
        assertFalse(complex2.equals(complex0));
    }

    @Test
    public void testAdd5() {
        Complex complex0 = new Complex(13.0, 1234.5);
        Complex complex1 = new Complex(13.0, 2.0);
        Complex complex2 = complex0.add(complex1);
        assertEquals(26.0, complex2.getRe(), 0.01);
        assertEquals(1236.5, complex2.getIm(), 0.01);
        assertFalse(complex2.equals(complex0));
    }

    @Test
    public void testConjugate0() {
        Complex complex0 = new Complex(0.5, 1234.5);
        Complex complex1 = complex0.conjugate();
        assertEquals(0.5, complex1.getRe(), 0.01);
        assertEquals(-1234.5, complex1.getIm(), 0.01);
        assertFalse(complex1.equals(complex0));
    }

    @Test
    public void testConjugate1() {
        Complex complex0 = new Complex(0.5, 250.0);
        Complex complex1 = complex0.conjugate();
        assertEquals(0.5, complex1.getRe(), 0.01);
        assertEquals(-250.0, complex1.getIm(), 0.01);
        assertFalse(complex1.equals(complex0));
    }

    @Test
    public void testConjugate2() {
        Complex complex0 = new Complex(13.0, 2.0);
        Complex complex1 = complex0.conjugate();
        assertEquals(13.0, complex1.getRe(), 0.01);
        assertEquals(-2.0, complex1.getIm(), 0.01);
        assertFalse(complex1.equals(complex0));
    }

    @Test
    public void testConjugate3() {
        Complex complex0 = new Complex(13.0, 0.5);
        Complex complex1 = complex0.conjugate();
        assertEquals(13.0, complex1.getRe(), 0.01);
        assertEquals(-0.5, complex1.getIm(), 0.01);
        assertFalse(complex1.equals(complex0));
    }

    @Test
    public void testConjugate4() {
        Complex complex0 = new Complex(1234.5, 250.0);
        Complex complex1 = complex0.conjugate();
        assertEquals(1234.5, complex1.getRe(), 0.01);
        assertEquals(-250.0, complex1.getIm(), 0.01);
        assertFalse(complex1.equals(complex0));
    }

    @Test
    public void testPlus0() {
        Complex complex0 = new Complex(9.75, -3.0);
        Complex complex1 = complex0.plus(2.0);
        assertEquals(11.75, complex1.getRe(), 0.01);
        assertEquals(-3.0, complex1.getIm(), 0.01);
    }

    @Test
    public void testPlus1() {
        Complex complex0 = new Complex(-3.0, 13.0);
        Complex complex1 = complex0.plus(9.75);
        assertEquals(6.75, complex1.getRe(), 0.01);
        assertEquals(13.0, complex1.getIm(), 0.01);
    }

    @Test
    public void testPlus2() {
        Complex complex0 = new Complex(-718.25, -41.5);
        Complex complex1 = complex0.plus(250.0);
        assertEquals(-468.25, complex1.getRe(), 0.01);
        assertEquals(-41.5, complex1.getIm(), 0.01);
    }

    @Test
    public void testPlus3() {
        Complex complex0 = new Complex(1234.5, 2.0);
        Complex complex1 = complex0.plus(2.0);
        assertEquals(1236.5, complex1.getRe(), 0.01);
        assertEquals(2.0, complex1.getIm(), 0.01);
    }

    @Test
    public void testPlus4() {
        Complex complex0 = new Complex(2.0, 1234.5);
        Complex complex1 = complex0.plus(13.0);
        assertEquals(15.0, complex1.getRe(), 0.01);
        assertEquals(1234.5, complex1.getIm(), 0.01);
    }

    @Test
    public void testPow0() {
        Complex complex0 = new Complex(3.0, -1.0);
        Complex complex1 = complex0.pow(2);
        assertEquals(8.0, complex1.getRe(), 0.01);
        assertEquals(-6.0, complex1.getIm(), 0.01);
    }

    @Test
    public void testPow1() {
        Complex complex0 = new Complex(-2.0, 0.5);
        Complex complex1 = complex0.pow(3);
        assertEquals(-6.5, complex1.getRe(), 0.01);
        assertEquals(5.875, complex1.getIm(), 0.01);
    }

    @Test
    public void testPow2() {
        Complex complex0 = new Complex(3.0, 2.0);
        Complex complex1 = complex0.pow(6);
        assertEquals(-2035.0, complex1.getRe(), 0.01);
        assertEquals(-828.0, complex1.getIm(), 0.01);
    }

    @Test
    public void testNegate0() {
        Complex complex0 = new Complex(-41.5, -718.25);
        Complex complex1 = complex0.negate();
        assertEquals(41.5, complex1.getRe(), 0.01);
        assertEquals(718.25, complex1.getIm(), 0.01);
        assertEquals("(-41.5, -718.25)", complex0.toString());
    }

    @Test
    public void testNegate1() {
        Complex complex0 = new Complex(0.5, 1234.5);
        Complex complex1 = complex0.negate();
        assertEquals(-0.5, complex1.getRe(), 0.01);
        assertEquals(-1234.5, complex1.getIm(), 0.01);
        assertEquals("(0.5, 1234.5)", complex0.toString());
    }

    @Test
    public void testNegate2() {
        Complex complex0 = new Complex(13.0, 0.5);
        Complex complex1 = complex0.negate();
        assertEquals(-13.0, complex1.getRe(), 0.01);
        assertEquals(-0.5, complex1.getIm(), 0.01);
        assertEquals("(13.0, 0.5)", complex0.toString());
    }

    @Test
    public void testEqualsSelf() {
        Complex complex0 = new Complex(-41.5, 13.0);
        assertTrue(complex0.equals(complex0));
        assertEquals(complex0.hashCode(), complex0.hashCode());
    }

    @Test
    public void testEqualsOtherType() {
        Complex complex0 = new Complex(9.75, -1.0);
        assertFalse(complex0.equals("(9.75, -1.0)"));
    }
}
