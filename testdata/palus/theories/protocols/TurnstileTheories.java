package protocols;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import org.junit.experimental.theories.Theories;
import org.junit.experimental.theories.Theory;
import org.junit.runner.RunWith;

/** Theories about turnstiles for `generate --theories`: one wrong, two that hold. */
@RunWith(Theories.class)
public class TurnstileTheories {
    /** Holds: passes are counted up from 0. */
    @Theory
    public void passesAreNeverNegative(Turnstile t) {
        assertTrue(t.passes() >= 0);
    }

    /** Never applies: its assumption fails for every turnstile. */
    @Theory
    public void negativePassesWouldBeWrong(Turnstile t) {
        assumeTrue(t.passes() < 0);
        throw new IllegalStateException("unreachable");
    }

    /** Wrong: a new turnstile is locked. */
    @Theory
    public void everyTurnstileIsUnlocked(Turnstile t) {
        assertEquals(Turnstile.State.UNLOCKED, t.state());
    }
}
