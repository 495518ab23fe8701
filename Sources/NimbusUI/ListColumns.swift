/// Shared limits of list columns.
public enum ListColumns {
    /// The widest a name or title column grows: past it a wide terminal keeps the data next to
    /// the names (as htop does) instead of pushing it to the far right.
    public static let nameCap = 60
}
