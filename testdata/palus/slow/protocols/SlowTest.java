package protocols;

import org.junit.Test;

/** A sample test that outlives any sample budget after its first calls. */
public class SlowTest {
    @Test
    public void coinsThenWaits() throws InterruptedException {
        Turnstile t = new Turnstile();
        t.coin(10);
        t.coin(20);
        Thread.sleep(60_000);
    }
}
