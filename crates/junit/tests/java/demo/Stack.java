package demo;

/** A bounded stack of objects. */
public class Stack {
    private final Object[] items;
    private int size;

    public Stack(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("negative capacity");
        }
        items = new Object[capacity];
    }

    public void push(Object item) {
        if (size == items.length) {
            throw new Full(size);
        }
        items[size++] = item;
    }

    public Object pop() {
        if (size == 0) {
            throw new IllegalStateException("empty");
        }
        return items[--size];
    }

    public Object peek() {
        return size == 0 ? null : items[size - 1];
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** Package-private: reachable from tests in the same package only. */
    int capacity() {
        return items.length;
    }

    /** Thrown by {@link #push} on a full stack. */
    public static class Full extends RuntimeException {
        public Full(int size) {
            super("full at " + size);
        }
    }
}
