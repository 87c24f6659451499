package modern;

import java.util.List;

/** Prints what the fixtures compute, for the instrumented-versus-original comparison. */
public final class Driver {
    public static void main(String[] args) {
        List<Shape> shapes = List.of(new Shape.Circle(1), new Shape.Rect(2, 3), new Shape.Square(4));
        for (Shape s : shapes) {
            System.out.println(s + " area " + Shape.area(s));
        }
        for (Object o : new Object[] {null, new Shape.Circle(0), new Shape.Circle(2), new Shape.Rect(1, 1),
                new Shape.Rect(1, 2), "", "x", 42}) {
            System.out.println(Shape.describe(o));
        }
        try {
            new Shape.Circle(-1);
        } catch (IllegalArgumentException e) {
            System.out.println(e.getMessage());
        }
        Pair<String, Integer> a = new Pair<>("a", 1);
        Pair<String, Integer> b = new Pair<>("b", null);
        System.out.println(Pair.min(a, b) + " " + Pair.min(b, a) + " " + a.hasSecond() + b.hasSecond()
                + " " + a.withSecond(2.5) + " " + a.equals(new Pair<>("a", 1)) + " " + (a.hashCode() == new Pair<>("a", 1).hashCode()));
        for (String amount : new String[] {"12", "12.5", "-3.25", "1.", "1.234"}) {
            try {
                System.out.println(Money.of(amount, "eur"));
            } catch (IllegalArgumentException e) {
                System.out.println(e.getMessage());
            }
        }
        Money m = new Money(100, "usd");
        System.out.println(m.plus(m) + " " + m.compareTo(new Money(5, "EUR")) + " " + m.isNegative());
        for (Planet p : Planet.values()) {
            System.out.println(p + " " + p.kind() + " " + p.surfaceGravity() + " " + p.heavierThan(Planet.EARTH));
        }
        for (String w : new String[] {"if", "else", "while", "record", "x", "extraordinary"}) {
            System.out.println(w + " " + Tokens.keyword(w));
        }
        for (Tokens.Kind k : Tokens.Kind.values()) {
            System.out.println(Tokens.label(k, 3) + " " + Tokens.label(k, 7));
        }
        System.out.println(Tokens.label(null, 0));
        System.out.println(new Tokens().add("word").add("42").add("").add(" ").summary());
    }
}
