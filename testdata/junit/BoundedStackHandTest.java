package example;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/**
 * A hand-written JUnit 4 test of example.BoundedStack for
 * crates/ferrosuite/tests/javarun.rs: one test that passes, one that fails,
 * one whose verdict depends on the order (a static counter), and two that
 * misbehave (an endless loop, System.exit) for the runner's time limit and
 * restart. The tests pick which methods to run.
 */
public class BoundedStackHandTest {
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

    @Test(expected = IllegalStateException.class)
    public void testPopEmptyThrows() {
        new BoundedStack(3).pop();
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
