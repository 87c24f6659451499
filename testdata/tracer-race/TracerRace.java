import ferrosuite.runtime.Tracer;

/**
 * Stresses the tracer from several threads: probes with growing ids must
 * never throw into the caller, and resets racing with a probing thread
 * must not hide any id from later executions. Prints
 * {@code errors <n> lines <m>}; expected {@code errors 0 lines 50}.
 */
public final class TracerRace {
    public static void main(String[] args) throws Exception {
        final int[] errors = {0};
        Thread[] threads = new Thread[8];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                try {
                    for (int id = 0; id < 40000; id++) {
                        Tracer.cmpI(id, id);
                        Tracer.line(id);
                        Tracer.method(id % 5000);
                        Tracer.switchValue(id, id % 3000);
                    }
                } catch (Throwable e) {
                    synchronized (errors) {
                        errors[0]++;
                    }
                }
            });
            threads[t].start();
        }
        for (Thread t : threads) t.join();
        Thread background = new Thread(() -> {
            for (int k = 0; k < 200000; k++) Tracer.line(k % 50);
        });
        background.start();
        for (int k = 0; k < 20000; k++) Tracer.reset();
        background.join();
        Tracer.reset();
        for (int id = 0; id < 50; id++) Tracer.line(id);
        System.out.println("errors " + errors[0] + " lines " + Tracer.touchedLineCount);
    }
}
