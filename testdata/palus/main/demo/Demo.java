package demo;

import protocols.Turnstile;

/** A program whose run is a sample execution (`--sample-main demo.Demo`). */
public class Demo {
    public static void main(String[] args) {
        Turnstile t = new Turnstile();
        t.coin(25);
        t.coin(25);
        t.push();
        System.out.println("passes: " + t.passes());
    }
}
