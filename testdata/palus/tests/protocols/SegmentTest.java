package protocols;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Vector;
import org.junit.Test;

public class SegmentTest {
    @Test
    public void measures() {
        Vector<Integer> ends = new Vector<>();
        ends.add(3);
        ends.add(7);
        Segment s = new Segment(ends);
        assertEquals(4, s.length());
        assertTrue(s.contains(5));
    }
}
