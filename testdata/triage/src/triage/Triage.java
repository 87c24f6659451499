package triage;

import java.util.Iterator;

/**
 * One method per cause of an uncovered goal (crates/generate/src/triage.rs);
 * the tests say which goals count as covered. Java 8 source.
 */
public class Triage {
    private int count;
    private final int[] items = new int[4];

    /** exception-path: the branch inside the handler. */
    public int parse(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            if (s.isEmpty()) {
                return -1;
            }
            return -2;
        }
    }

    /** private-or-dead: private and never called. */
    private int hidden(int x) {
        if (x > 0) {
            return 1;
        }
        return 0;
    }

    /** object-state: the call of the private helper needs a field's state. */
    public int delegate(int x) {
        if (count > 100) {
            return helped(x);
        }
        return 0;
    }

    /** object-state, from its caller: private, called only where the field allows. */
    private int helped(int x) {
        if (x > 5) {
            return 1;
        }
        return 2;
    }

    /** private-or-dead: the lambda's body is a private synthetic method. */
    public Runnable task() {
        return () -> {
            if (count > 0) {
                count--;
            }
        };
    }

    /** nested-object-not-exercised: the anonymous iterator's methods. */
    public Iterator<Integer> iterator() {
        return new Iterator<Integer>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < count;
            }

            @Override
            public Integer next() {
                return items[next++];
            }
        };
    }

    /** type-never-produced: no test can make a Handle. */
    public int withHandle(Handle h) {
        if (h.ok()) {
            return 1;
        }
        return 0;
    }

    /** method-never-called. */
    public int never(int x) {
        if (x > 3) {
            return 1;
        }
        return 0;
    }

    /** environment: the condition reads the clock. */
    public int clock(long deadline) {
        if (System.currentTimeMillis() > deadline) {
            return 1;
        }
        return 0;
    }

    /** object-state: the condition reads a field. */
    public int state(int x) {
        if (count > 10) {
            return x;
        }
        return 0;
    }

    /** search-budget: the condition reads an argument only. */
    public int magic(int x) {
        if (x == 123456789) {
            return 1;
        }
        return 0;
    }

    /** The inner decision is not reached while the outer one (object state) blocks it. */
    public int guarded(int x) {
        if (count > 0) {
            if (x == 7) {
                return 1;
            }
        }
        return 0;
    }

    /** Adds a value. */
    public void add(int v) {
        items[count % items.length] = v;
        count++;
    }
}
