package dev.gatun.arrow.memory;

/** Named points where tests inject failures (see {@link FaultHook}). */
public enum FaultPoint {
    /** Before every raw allocation. */
    ALLOCATE,
    /** While growing a buffer: the new block is allocated, the old one not yet freed. */
    GROW,
    /** During C Data export of an array, after its release handlers are registered. */
    EXPORT_ARRAY,
    /** During C Data export of a schema, after its release handlers are registered. */
    EXPORT_SCHEMA,
    /** Around a native call that exchanges arrays: before it, and after it before the import. */
    NATIVE_CALL,
    /** During import, after the struct was moved in and before it is validated. */
    IMPORT,
    /** Inside a release handler of an exported struct, before anything is freed. */
    RELEASE
}
