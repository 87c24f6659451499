package protocols;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import org.junit.Test;

public class ResourceTest {
    @Test
    public void readsAfterOpening() {
        Resource r = new Resource("disk");
        r.open();
        assertEquals(5, r.read());
        assertEquals(6, r.read());
        r.close();
        assertFalse(r.isOpen());
    }

    @Test
    public void reopens() {
        Resource r = new Resource("tape");
        r.open();
        r.read();
        r.close();
        r.open();
        assertEquals(41, r.read());
        r.close();
    }

    @Test
    public void thisSampleTestFails() {
        Resource r = new Resource("broken");
        r.open();
        r.close();
        assertEquals(1, r.read());
    }
}
