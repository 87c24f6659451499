package protocols;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class DriverTest {
    @Test
    public void queriesAndCloses() {
        Driver d = new Driver();
        Connection c = d.connect("fake://orders");
        assertEquals("orders:1", c.query("select 1"));
        assertEquals("one", d.status());
        c.close();
        assertTrue(c.isClosed());
        assertEquals("idle", d.status());
    }

    @Test
    public void transactions() {
        Driver d = new Driver();
        Connection c = d.connect("fake://stock");
        assertEquals("ok", c.query("begin"));
        assertEquals("committed", c.query("commit"));
        Connection other = d.connect("fake://stock");
        assertEquals("busy", d.status());
        other.close();
        c.close();
    }
}
