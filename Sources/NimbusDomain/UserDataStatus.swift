/// Whether the user's own data (likes, wishlist, recent queries) is being kept on disk.
public enum UserDataStatus: Equatable, Sendable {
    /// Saved in the data directory as usual.
    case saved
    /// The file on disk could not be read; it was moved to `movedTo` and a fresh one started.
    case recovered(movedTo: String)
    /// The data directory can't be used (`reason`): changes last only until the app quits.
    case notSaved(directory: String, reason: String)
}
