/*
 * JacocoCoverage -- line and branch coverage of one class (and its nested
 * classes) from a JaCoCo .exec file, per JaCoCo's own analysis.
 *
 * Usage:
 *   java -cp CP JacocoCoverage EXEC_FILE INPUT binary.class.Name
 *
 *   EXEC_FILE  the agent's output (destfile=...); a missing file means no
 *              class was executed (everything counts as missed).
 *   INPUT      a .jar/.zip, a directory of class files (searched
 *              recursively) or a single .class file: the class files that
 *              ran (JaCoCo matches execution data by a CRC of the class
 *              bytes, so they must be the very same files).
 *   name       the class under test; the class itself and every class
 *              whose binary name starts with "name$" (nested, inner,
 *              anonymous and local classes) are counted.
 *
 * Output (tab separated), one line per analysed class, sorted by name,
 * then the sum:
 *   binary.Name  lines_covered  lines_total  branches_covered  branches_total  methods_covered  methods_total
 *   TOTAL        ...same columns...
 * and before each class's row, the lines of it with an instruction executed:
 *   LINES  binary.Name  3,4,7        (empty after the name when none)
 * Exit status 2 when the class is not in INPUT or the arguments are wrong,
 * 1 when JaCoCo cannot analyse a class.
 *
 * Classes JaCoCo skips (ACC_SYNTHETIC, such as javac's Outer$1 switch maps)
 * are left out. Java 17 caveat (see JacocoBranches.java): JaCoCo 0.8.6 fails
 * on the PermittedSubclasses attribute. Such a class is analysed again
 * without the attribute, stripped by FerroAgent.stripPermittedSubclasses:
 * the agent FerroAgent strips it the same way before JaCoCo's agent
 * instruments the class, so the stripped bytes' CRC finds the execution
 * data. (Data recorded under the original bytes' CRC is used too.)
 *
 * Compile together with FerroAgent.java, with the same class path as
 * JacocoBranches:
 *   /usr/share/java/org.jacoco.core.jar:/usr/share/java/asm.jar:/usr/share/java/asm-commons.jar:/usr/share/java/asm-tree.jar
 */

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IClassCoverage;
import org.jacoco.core.analysis.ICounter;
import org.jacoco.core.data.ExecutionData;
import org.jacoco.core.data.ExecutionDataStore;
import org.jacoco.core.internal.data.CRC64;
import org.jacoco.core.tools.ExecFileLoader;
import org.objectweb.asm.ClassReader;

public class JacocoCoverage {

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("usage: JacocoCoverage EXEC_FILE <jar|class-dir|file.class> binary.class.Name");
            System.exit(2);
        }
        File execFile = new File(args[0]);
        File in = new File(args[1]);
        String cut = args[2];
        if (!in.exists()) {
            System.err.println("no such file or directory: " + in);
            System.exit(2);
        }
        ExecFileLoader loader = new ExecFileLoader();
        if (execFile.isFile()) {
            loader.load(execFile);
        }
        ExecutionDataStore store = loader.getExecutionDataStore();

        Map<String, byte[]> classes = new TreeMap<String, byte[]>();
        collect(in, cut, classes);
        if (!classes.containsKey(cut)) {
            System.err.println("class not found in " + in + ": " + cut);
            System.exit(2);
        }

        long[] total = new long[6];
        int errors = 0;
        for (Map.Entry<String, byte[]> e : classes.entrySet()) {
            IClassCoverage c;
            try {
                c = analyze(e.getKey(), e.getValue(), store);
            } catch (Exception ex) {
                System.err.println("error analysing " + e.getKey() + ": " + ex
                        + (ex.getCause() != null ? " (" + ex.getCause() + ")" : ""));
                errors++;
                continue;
            }
            if (c == null) {
                continue; // JaCoCo skipped the class (ACC_SYNTHETIC)
            }
            long[] row = counts(c);
            for (int i = 0; i < row.length; i++) {
                total[i] += row[i];
            }
            System.out.println("LINES\t" + e.getKey() + "\t" + coveredLines(c));
            System.out.println(e.getKey() + "\t" + join(row));
        }
        System.out.println("TOTAL\t" + join(total));
        System.out.flush();
        if (errors > 0) {
            System.exit(1);
        }
    }

    /** The lines of the class with at least one instruction executed, comma-separated. */
    private static String coveredLines(IClassCoverage c) {
        StringBuilder b = new StringBuilder();
        for (int line = c.getFirstLine(); line >= 0 && line <= c.getLastLine(); line++) {
            if (c.getLine(line).getInstructionCounter().getCoveredCount() > 0) {
                if (b.length() > 0) b.append(',');
                b.append(line);
            }
        }
        return b.toString();
    }

    private static long[] counts(IClassCoverage c) {
        ICounter lines = c.getLineCounter();
        ICounter branches = c.getBranchCounter();
        ICounter methods = c.getMethodCounter();
        return new long[] {lines.getCoveredCount(), lines.getTotalCount(), branches.getCoveredCount(),
            branches.getTotalCount(), methods.getCoveredCount(), methods.getTotalCount()};
    }

    private static String join(long[] row) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < row.length; i++) {
            if (i > 0) b.append('\t');
            b.append(row[i]);
        }
        return b.toString();
    }

    /** Analyses one class against the execution data; null if JaCoCo skipped it. */
    private static IClassCoverage analyze(String name, byte[] bytes, ExecutionDataStore store) throws IOException {
        try {
            return analyzeOnce(name, bytes, store);
        } catch (IOException e) {
            if (!(e.getCause() instanceof UnsupportedOperationException)
                    || String.valueOf(e.getCause().getMessage()).indexOf("PermittedSubclasses") < 0) {
                throw e;
            }
            System.err.println("note: " + name + ": stripped PermittedSubclasses (unsupported by JaCoCo 0.8.6)");
            byte[] stripped = FerroAgent.stripPermittedSubclasses(bytes);
            if (stripped == null) {
                throw e;
            }
            ExecutionData data = store.get(CRC64.classId(bytes));
            if (data != null) {
                store.put(new ExecutionData(CRC64.classId(stripped), data.getName(), data.getProbes().clone()));
            }
            return analyzeOnce(name, stripped, store);
        }
    }

    private static IClassCoverage analyzeOnce(String name, byte[] bytes, ExecutionDataStore store)
            throws IOException {
        CoverageBuilder builder = new CoverageBuilder();
        Analyzer analyzer = new Analyzer(store, builder);
        analyzer.analyzeClass(bytes, name);
        for (IClassCoverage c : builder.getClasses()) {
            return c;
        }
        return null;
    }

    private static boolean wanted(String name, String cut) {
        return name.equals(cut) || name.startsWith(cut + "$");
    }

    /** Maps a class-file path inside a jar/directory to its binary name, or null to skip it. */
    private static String binaryName(String path) {
        if (!path.endsWith(".class") || path.startsWith("META-INF/")) return null;
        return path.substring(0, path.length() - ".class".length()).replace('/', '.');
    }

    /** The wanted classes of a jar, a directory tree or a single class file. */
    private static void collect(File in, String cut, Map<String, byte[]> out) throws IOException {
        if (in.isDirectory()) {
            // the class and its nested classes share one package directory
            String pkg = cut.lastIndexOf('.') < 0 ? "" : cut.substring(0, cut.lastIndexOf('.'));
            File dir = pkg.isEmpty() ? in : new File(in, pkg.replace('.', File.separatorChar));
            File[] files = dir.listFiles();
            if (files == null) return;
            Arrays.sort(files);
            for (File f : files) {
                String name = f.isFile() ? binaryName((pkg.isEmpty() ? "" : pkg.replace('.', '/') + "/") + f.getName()) : null;
                if (name != null && wanted(name, cut)) out.put(name, readAll(new FileInputStream(f)));
            }
        } else if (in.getName().endsWith(".class")) {
            byte[] bytes = readAll(new FileInputStream(in));
            String name = new ClassReader(bytes).getClassName().replace('/', '.');
            if (wanted(name, cut)) out.put(name, bytes);
        } else {
            ZipFile zip = new ZipFile(in);
            try {
                Enumeration<? extends ZipEntry> en = zip.entries();
                while (en.hasMoreElements()) {
                    ZipEntry e = en.nextElement();
                    String name = e.isDirectory() ? null : binaryName(e.getName());
                    if (name != null && wanted(name, cut)) out.put(name, readAll(zip.getInputStream(e)));
                }
            } finally {
                zip.close();
            }
        }
    }

    private static byte[] readAll(InputStream is) throws IOException {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            int n;
            while ((n = is.read(buf)) > 0) {
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } finally {
            is.close();
        }
    }
}
