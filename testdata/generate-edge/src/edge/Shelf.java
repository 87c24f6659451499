package edge;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Its iterator is a private inner class that tests can reach only through
 * the `Iterator` that `iterator()` returns: the search must call
 * `hasNext`, `next` and `remove` on that object (generate.rs).
 */
public class Shelf implements Iterable<String> {
    private final String[] items = new String[8];
    private int size;

    public boolean add(String item) {
        if (item == null || size == items.length) {
            return false;
        }
        items[size++] = item;
        return true;
    }

    public int size() {
        return size;
    }

    @Override
    public Iterator<String> iterator() {
        return new Cursor();
    }

    private final class Cursor implements Iterator<String> {
        private int next;
        private int last = -1;

        @Override
        public boolean hasNext() {
            return next < size;
        }

        @Override
        public String next() {
            if (next >= size) {
                throw new NoSuchElementException();
            }
            last = next++;
            return items[last];
        }

        @Override
        public void remove() {
            if (last < 0) {
                throw new IllegalStateException("next() first");
            }
            System.arraycopy(items, last + 1, items, last, size - last - 1);
            items[--size] = null;
            next = last;
            last = -1;
        }
    }
}
