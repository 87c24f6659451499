package numbers;

/**
 * A complex number with four planted faults, each a wrong result on a
 * corner case that the manual tests (ComplexTest) skip, none of which
 * throws:
 * <ul>
 * <li>a sign: {@link #abs()} of a negative real number is negative;</li>
 * <li>-0.0 versus 0.0: {@link #equals(Object)} compares the bits of the
 * parts, so {@code 2 - 0.0i} differs from {@code 2 + 0i} (the conjugate of a
 * real number is the number itself);</li>
 * <li>an off-by-one: {@link #pow(int)} starts from {@code this} instead of
 * one, so {@code pow(0)} is the number itself;</li>
 * <li>a wrong field copied: {@link #plus(double)} of 0 copies the real
 * part into the imaginary part.</li>
 * </ul>
 * Each faulty line ends with {@code // FAULT name: fixed code}; the ZoomIn
 * tests also build one variant per fault, with the other three lines
 * replaced by their fixed code (one fault per subject, as in the paper).
 */
public final class Complex {
    private final double re;
    private final double im;

    public Complex(double re, double im) {
        this.re = re;
        this.im = im;
    }

    public double getRe() {
        return re;
    }

    public double getIm() {
        return im;
    }

    /** The modulus. Fault (a sign): a real number's is its real part, negative ones included. */
    public double abs() {
        return im == 0 ? re : Math.sqrt(re * re + im * im); // FAULT sign: return Math.sqrt(re * re + im * im);
    }

    public Complex conjugate() {
        return new Complex(re, -im);
    }

    public Complex negate() {
        return new Complex(-re, -im);
    }

    public Complex add(Complex other) {
        return new Complex(re + other.re, im + other.im);
    }

    /** This plus a real number. Fault (a wrong field copied): adding 0 copies the real part into the imaginary part. */
    public Complex plus(double x) {
        return x == 0 ? new Complex(re, re) : new Complex(re + x, im); // FAULT field: return new Complex(re + x, im);
    }

    public Complex multiply(Complex other) {
        return new Complex(re * other.re - im * other.im, re * other.im + im * other.re);
    }

    /** This to the power n (n >= 0). Fault (an off-by-one): the product starts from this, not one. */
    public Complex pow(int n) {
        Complex result = this; // FAULT off-by-one: Complex result = n == 0 ? new Complex(1, 0) : this;
        for (int i = 1; i < n; i++) {
            result = result.multiply(this);
        }
        return result;
    }

    /** Fault (-0.0 versus 0.0): parts are compared by their bits. */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Complex)) {
            return false;
        }
        Complex c = (Complex) o;
        return Double.doubleToLongBits(re) == Double.doubleToLongBits(c.re) && Double.doubleToLongBits(im) == Double.doubleToLongBits(c.im); // FAULT zero: return re == c.re && im == c.im;
    }

    @Override
    public int hashCode() {
        return 31 * Double.hashCode(re) + Double.hashCode(im);
    }

    @Override
    public String toString() {
        return "(" + re + ", " + im + ")";
    }
}
