package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The JUnit 5 twin of BoundedStackHandTest (same tests, same lines of interest). */
public class BoundedStackHandTest5 {
    /** How many times testPushPop has run in this JVM. */
    static int pushPopRuns;

    @Test
    public void testPushPop() {
        pushPopRuns++;
        BoundedStack stack = new BoundedStack(2);
        stack.push(1);
        stack.push(2);
        assertTrue(stack.isFull());
        assertEquals(2, stack.pop());
        assertEquals(1, stack.peek());
    }

    @Test
    public void testFails() {
        BoundedStack stack = new BoundedStack(1);
        assertEquals(1, stack.size()); // fails: the stack is empty
    }

    /** Passes only when testPushPop has not run before it in this JVM. */
    @Test
    public void testOrderDependent() {
        assertEquals(0, pushPopRuns);
    }

    @Test
    public void testPopEmptyThrows() {
        assertThrows(IllegalStateException.class, () -> new BoundedStack(3).pop());
    }

    @Test
    public void testHangs() {
        BoundedStack stack = new BoundedStack(1);
        while (stack.isEmpty()) {
            stack.peek();
        }
    }

    @Test
    public void testExits() {
        new BoundedStack(1).push(7);
        System.exit(42);
    }
}
