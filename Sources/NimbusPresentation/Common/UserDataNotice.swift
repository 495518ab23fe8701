import NimbusDomain

/// What to tell the user when their data is not being kept as usual.
public enum UserDataNotice {
    /// The localised notice for `status`, or nil when the data is saved as usual.
    public static func message(_ status: UserDataStatus, l10n: L10n) -> String? {
        switch status {
        case .saved:
            return nil
        case .recovered(let movedTo):
            // The file stays beside the database in the data directory: its name is enough to find it.
            return l10n.format(.dataRecovered, String(movedTo.split(separator: "/").last ?? Substring(movedTo)))
        case .notSaved(let directory, let reason):
            return l10n.format(.dataNotSaved, directory, reason)
        }
    }
}
