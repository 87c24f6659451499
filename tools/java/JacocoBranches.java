/*
 * JacocoBranches -- print JaCoCo's static branch/line/method totals for classes.
 *
 * Uses only JaCoCo's core analysis API (org.jacoco.core.analysis.Analyzer +
 * CoverageBuilder) with an EMPTY ExecutionDataStore, so every counter's
 * "total" is the static count of items JaCoCo would probe; nothing is run.
 * The numbers are a reference for ferrosuite's own probe counts.
 *
 * Usage:
 *   java -cp CP JacocoBranches [--methods] INPUT [binary.class.Name ...]
 *
 *   INPUT   a .jar/.zip file, a directory of .class files (searched
 *           recursively, like JaCoCo's analyzeAll), or a single .class file.
 *   names   optional binary class names (e.g. org.apache.commons.cli.Option,
 *           pkg.Outer$Inner). If given, only these classes are analysed and
 *           printed, in the order given; a name whose class file is missing is
 *           an error (exit 2). Without names every class in INPUT is printed,
 *           sorted by name.
 *
 * Output (tab separated, '\t' below):
 *   binary.class.Name\tbranches_total\tlines_total\tmethods_total
 *   with --methods, after each class line, one line per method:
 *     "  " + name + " " + descriptor + "\t" + branches_total + "\t" + first_line
 *   (first_line is -1 when the class has no line-number debug info).
 *
 *   Classes without code (plain interfaces, ...) print as "Name\t0\t0\t0";
 *   module-info/package-info and everything under META-INF/ are skipped.
 *   JaCoCo skips classes flagged ACC_SYNTHETIC (not printed when scanning;
 *   printed as zeros when named explicitly). Methods JaCoCo filters away
 *   entirely (synthetic bridges/accessors, etc.) are not listed.
 *
 *   Java 17 caveat: JaCoCo 0.8.6 visits classes with the ASM8 API and fails
 *   on the PermittedSubclasses attribute (javac 17 emits it for sealed
 *   classes and for enums whose constants have bodies). For such a class the
 *   attribute is stripped (ASM 9 ClassReader -> ClassWriter, method bodies
 *   copied verbatim, so the counts are unaffected) and the class analysed
 *   again; a note goes to stderr. Any other analysis error is reported on
 *   stderr, the class is printed as "Name\tERROR", and the exit code is 1.
 *
 * Compile (from the repo root):
 *   javac -d target/jacoco-tool \
 *     -cp /usr/share/java/org.jacoco.core.jar:/usr/share/java/asm.jar:/usr/share/java/asm-commons.jar:/usr/share/java/asm-tree.jar \
 *     tools/java/JacocoBranches.java
 *
 * Runtime classpath on Debian 12 (libjacoco-java 0.8.6, libasm-java 9.4):
 *   target/jacoco-tool:/usr/share/java/org.jacoco.core.jar:/usr/share/java/asm.jar:/usr/share/java/asm-commons.jar:/usr/share/java/asm-tree.jar
 *
 *   - org.jacoco.core.jar: the Analyzer itself. Its manifest has no
 *     Class-Path, so the ASM jars must be listed explicitly.
 *   - asm.jar (ClassReader etc.), asm-tree.jar (JaCoCo's filters work on
 *     MethodNode: NoClassDefFoundError org/objectweb/asm/tree/AbstractInsnNode
 *     without it) and asm-commons.jar (JSRInlinerAdapter, used for every
 *     method: NoClassDefFoundError org/objectweb/asm/commons/JSRInlinerAdapter
 *     without it) are all loaded during analysis.
 *   - asm-analysis.jar and asm-util.jar are NOT needed.
 *   - JaCoCo 0.8.6 was built against ASM 8 (its OSGi manifest asks for
 *     [8.0.1,8.1)) but runs fine on the plain classpath with Debian's ASM 9.4,
 *     which also lets it read Java 17 (major 61) class files (see the caveat
 *     about PermittedSubclasses above).
 *
 * Example:
 *   java -cp "$CP" JacocoBranches --methods /usr/share/java/commons-lang3.jar org.apache.commons.lang3.CharUtils
 */

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IClassCoverage;
import org.jacoco.core.analysis.IMethodCoverage;
import org.jacoco.core.data.ExecutionDataStore;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

public class JacocoBranches {

    private static void usage() {
        System.err.println("usage: JacocoBranches [--methods] <jar|class-dir|file.class> [binary.class.Name ...]");
        System.exit(2);
    }

    public static void main(String[] args) throws IOException {
        boolean methods = false;
        String input = null;
        List<String> names = new ArrayList<String>();
        for (String a : args) {
            if (a.equals("--methods")) {
                methods = true;
            } else if (a.equals("-h") || a.equals("--help")) {
                usage();
            } else if (a.startsWith("--")) {
                System.err.println("unknown option: " + a);
                usage();
            } else if (input == null) {
                input = a;
            } else {
                names.add(a);
            }
        }
        if (input == null) {
            usage();
        }
        File in = new File(input);
        if (!in.exists()) {
            System.err.println("no such file or directory: " + input);
            System.exit(2);
        }

        // binary name -> class file bytes, in output order
        Map<String, byte[]> classes;
        int missing = 0;
        if (names.isEmpty()) {
            classes = readAllClasses(in);
        } else {
            classes = new LinkedHashMap<String, byte[]>();
            for (String name : names) {
                byte[] bytes = readClass(in, name);
                if (bytes == null) {
                    System.err.println("class not found in " + input + ": " + name);
                    missing++;
                } else {
                    classes.put(name, bytes);
                }
            }
        }

        int errors = 0;
        for (Map.Entry<String, byte[]> e : classes.entrySet()) {
            String name = e.getKey();
            IClassCoverage c;
            try {
                c = analyze(name, e.getValue());
            } catch (Exception ex) {
                System.err.println("error analysing " + name + ": " + ex + (ex.getCause() != null ? " (" + ex.getCause() + ")" : ""));
                System.out.println(name + "\tERROR");
                errors++;
                continue;
            }
            if (c == null) {
                // JaCoCo skipped the class (ACC_SYNTHETIC)
                if (!names.isEmpty()) System.out.println(name + "\t0\t0\t0");
                continue;
            }
            print(c, name, methods);
        }
        System.out.flush();
        if (missing > 0) {
            System.exit(2);
        }
        if (errors > 0) {
            System.exit(1);
        }
    }

    /** Analyses one class with a fresh CoverageBuilder; null if JaCoCo skipped it. */
    private static IClassCoverage analyze(String name, byte[] bytes) throws IOException {
        try {
            return analyzeOnce(name, bytes);
        } catch (IOException e) {
            if (!(e.getCause() instanceof UnsupportedOperationException)
                    || String.valueOf(e.getCause().getMessage()).indexOf("PermittedSubclasses") < 0) {
                throw e;
            }
            System.err.println("note: " + name + ": stripped PermittedSubclasses (unsupported by JaCoCo 0.8.6)");
            return analyzeOnce(name, stripPermittedSubclasses(bytes));
        }
    }

    private static IClassCoverage analyzeOnce(String name, byte[] bytes) throws IOException {
        CoverageBuilder builder = new CoverageBuilder();
        Analyzer analyzer = new Analyzer(new ExecutionDataStore(), builder);
        analyzer.analyzeClass(bytes, name);
        for (IClassCoverage c : builder.getClasses()) {
            return c;
        }
        return null;
    }

    private static byte[] stripPermittedSubclasses(byte[] bytes) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public void visitPermittedSubclass(String permittedSubclass) {
                // dropped
            }
        }, 0);
        return writer.toByteArray();
    }

    private static void print(IClassCoverage c, String name, boolean methods) {
        System.out.println(name + "\t" + c.getBranchCounter().getTotalCount() + "\t"
                + c.getLineCounter().getTotalCount() + "\t" + c.getMethodCounter().getTotalCount());
        if (methods) {
            for (IMethodCoverage m : c.getMethods()) {
                System.out.println("  " + m.getName() + " " + m.getDesc() + "\t"
                        + m.getBranchCounter().getTotalCount() + "\t" + m.getFirstLine());
            }
        }
    }

    /** Maps a class-file path inside a jar/directory to its binary name, or null to skip it. */
    private static String binaryName(String path) {
        if (!path.endsWith(".class") || path.startsWith("META-INF/")) return null;
        String n = path.substring(0, path.length() - ".class".length());
        if (n.equals("module-info") || n.endsWith("/module-info") || n.endsWith("package-info")) return null;
        return n.replace('/', '.');
    }

    /** All classes of a jar, a directory tree or a single class file, sorted by binary name. */
    private static Map<String, byte[]> readAllClasses(File in) throws IOException {
        Map<String, byte[]> out = new TreeMap<String, byte[]>();
        if (in.isDirectory()) {
            walk(in, "", out);
        } else if (in.getName().endsWith(".class")) {
            byte[] bytes = readAll(new FileInputStream(in));
            out.put(new ClassReader(bytes).getClassName().replace('/', '.'), bytes);
        } else {
            ZipFile zip = new ZipFile(in);
            try {
                Enumeration<? extends ZipEntry> en = zip.entries();
                while (en.hasMoreElements()) {
                    ZipEntry e = en.nextElement();
                    String name = e.isDirectory() ? null : binaryName(e.getName());
                    if (name != null) out.put(name, readAll(zip.getInputStream(e)));
                }
            } finally {
                zip.close();
            }
        }
        return out;
    }

    private static void walk(File dir, String prefix, Map<String, byte[]> out) throws IOException {
        File[] files = dir.listFiles();
        if (files == null) return;
        Arrays.sort(files);
        for (File f : files) {
            String path = prefix + f.getName();
            if (f.isDirectory()) {
                walk(f, path + "/", out);
            } else {
                String name = binaryName(path);
                if (name != null) out.put(name, readAll(new FileInputStream(f)));
            }
        }
    }

    /** Reads the class file for a binary name from a jar, a directory or a single .class file. */
    private static byte[] readClass(File in, String name) throws IOException {
        String entry = name.replace('.', '/') + ".class";
        if (in.isDirectory()) {
            File f = new File(in, entry);
            return f.isFile() ? readAll(new FileInputStream(f)) : null;
        }
        if (in.getName().endsWith(".class")) {
            byte[] bytes = readAll(new FileInputStream(in));
            return new ClassReader(bytes).getClassName().equals(name.replace('.', '/')) ? bytes : null;
        }
        ZipFile zip = new ZipFile(in);
        try {
            ZipEntry e = zip.getEntry(entry);
            return e == null ? null : readAll(zip.getInputStream(e));
        } finally {
            zip.close();
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
