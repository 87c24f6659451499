package example;

/** A stack of ints with a fixed capacity: the README's bundled example. */
public class BoundedStack {
    private final int[] elements;
    private int size;

    public BoundedStack(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        elements = new int[capacity];
    }

    public void push(int value) {
        if (size == elements.length) {
            throw new IllegalStateException("stack is full");
        }
        elements[size++] = value;
    }

    public int pop() {
        if (isEmpty()) {
            throw new IllegalStateException("stack is empty");
        }
        return elements[--size];
    }

    public int peek() {
        return isEmpty() ? -1 : elements[size - 1];
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public boolean isFull() {
        return size == elements.length;
    }

    public int size() {
        return size;
    }

    /** Sum of the elements above {@code threshold}, counting at most {@code limit} of them. */
    public long sumAbove(int threshold, int limit) {
        long sum = 0;
        int counted = 0;
        for (int i = 0; i < size && counted < limit; i++) {
            if (elements[i] > threshold) {
                sum += elements[i];
                counted++;
            }
        }
        return sum;
    }
}
