package calc;

import static org.junit.Assert.*;

import org.junit.Test;

/** The suite `bench mutation` measures: no test at 50 points, none out of range. */
public class Grade_FerroTest {

    @Test
    public void ofReturnsPass() throws Throwable {
        assertEquals("pass", Grade.of(70));
    }

    @Test
    public void ofReturnsFail() throws Throwable {
        assertEquals("fail", Grade.of(10));
    }

    /** Fails on the original class: left out of the kills. */
    @Test
    public void ofReturnsNope() throws Throwable {
        assertEquals("nope", Grade.of(10));
    }
}
