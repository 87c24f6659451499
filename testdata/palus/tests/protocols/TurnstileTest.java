package protocols;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class TurnstileTest {
    @Test
    public void letsThroughAfterACoin() {
        Turnstile t = new Turnstile();
        t.coin(50);
        assertTrue(t.push());
        assertEquals(1, t.passes());
    }

    @Test
    public void breaksAndIsRepaired() {
        Turnstile t = new Turnstile();
        t.push();
        t.push();
        t.push();
        assertEquals(Turnstile.State.BROKEN, t.state());
        t.service("fix-42");
        t.reset();
        assertEquals(Turnstile.State.LOCKED, t.state());
    }
}
