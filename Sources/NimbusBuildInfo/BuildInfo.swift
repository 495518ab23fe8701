/// What the program says of itself in `nimbus --version` (and packages take from there).
public enum BuildInfo {
    /// The version of Nimbus: the one place it is written.
    public static let version = "0.1.0"

    /// The git commit the binary was built from (12 hex digits, `-dirty` when the tracked files
    /// differed from it), or "unknown" when built outside a git checkout. Written at build time
    /// by `scripts/build-info.sh`, run by the BuildInfo plugin.
    public static let commit = generatedCommit
}
