import Foundation
import NimbusResources

/// Locates the shipped `<lang>.lproj/Localizable.strings` files.
public enum LocalizationFiles {
    /// URL of the strings file for a language code (`en`, `ko`, `ja`), or nil when no data folder holds it.
    public static func stringsURL(language: String) -> URL? {
        DataFolders.live.url(of: "\(language).lproj/Localizable.strings")
    }
}
