package dev.gatun.ffm;

/** Child-JVM entry point for the loading tests: prints the native ABI version. */
public final class AbiVersionMain {
    private AbiVersionMain() {}

    public static void main(String[] args) {
        System.out.println("gatun abi version " + GatunLibrary.abiVersion());
    }
}
