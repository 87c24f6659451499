package seal;

/** Another class of the sealed package, which the workers load beside the instrumented `Vault`. */
public final class Code {
    private Code() {
    }

    public static boolean valid(String code) {
        return code != null && code.length() == 4;
    }
}
