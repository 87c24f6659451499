package demo;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/** Generic factories and consumers. */
public class Generics {
    public static <T> List<T> listOf(T a, T b) {
        List<T> list = new ArrayList<>();
        list.add(a);
        list.add(b);
        return list;
    }

    public static <T> T first(List<T> list) {
        return list.get(0);
    }

    public static int count(List<String> list) {
        return list.size();
    }

    public static int total(List<? extends Number> numbers) {
        int total = 0;
        for (Number n : numbers) {
            total += n.intValue();
        }
        return total;
    }

    public static Object anything() {
        return Arrays.asList("x", "y");
    }

    @SuppressWarnings("rawtypes")
    public static List rawNames() {
        return Arrays.asList("a", "b", "c");
    }

    public static Map<String, List<Integer>> index(String key, int value) {
        return Collections.singletonMap(key, Collections.singletonList(value));
    }

    public static Map.Entry<String, Integer> entry(String key, int value) {
        return new AbstractMap.SimpleEntry<>(key, value);
    }

    public static <T extends Comparable<T>> T max(T a, T b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
