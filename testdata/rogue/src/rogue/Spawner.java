package rogue;

import java.io.IOException;

/** Starts processes that would outlive the test. */
public class Spawner {
    /** Starts a long sleep in the background; returns whether it started. */
    public boolean spawn(int seconds) throws IOException {
        if (seconds <= 0) return false;
        new ProcessBuilder("sh", "-c", "sleep " + Math.min(seconds, 600) + "; : @MARKER@").start();
        return true;
    }

    /** Runs a command through Runtime.exec. */
    public int exec(String word) throws IOException, InterruptedException {
        Process p = Runtime.getRuntime().exec(new String[] {"sh", "-c", "echo " + word + " @MARKER@ > /dev/null"});
        return p.waitFor();
    }
}
