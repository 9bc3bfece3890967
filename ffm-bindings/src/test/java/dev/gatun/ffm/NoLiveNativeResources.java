package dev.gatun.ffm;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** After each test: no native handle, exported array or exported schema may be left alive. */
public final class NoLiveNativeResources implements AfterEachCallback {
    @Override
    public void afterEach(ExtensionContext context) {
        NativeStats stats = GatunLibrary.stats();
        if (!stats.hasNoLiveResources()) {
            throw new AssertionError(context.getDisplayName() + " left native resources alive: "
                    + stats.describeLiveResources());
        }
    }
}
