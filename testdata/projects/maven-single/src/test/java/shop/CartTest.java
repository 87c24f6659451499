package shop;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** The project's own test, written by hand. */
public class CartTest {
    @Test
    public void anEmptyCartCostsNothing() {
        assertEquals(0, new Cart().total());
    }
}
