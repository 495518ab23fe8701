import Foundation
import NimbusResources

/// Locates the shipped `<lang>.lproj/Localizable.strings` files.
public enum LocalizationFiles {
    /// URL of the strings file for a language code (`en`, `ko`, `ja`), or nil when no data folder holds it.
    public static func stringsURL(language: String) -> URL? {
        DataFolders.live.url(of: "\(language).lproj/Localizable.strings")
    }

    /// The bytes of the strings file for a language, read within its cap (`DataFile`); nil when
    /// no data folder holds a usable one.
    public static func strings(language: String) -> Data? {
        guard let url = stringsURL(language: language) else { return nil }
        return try? DataFile.read(url, maxBytes: DataFile.maxBytes(url.lastPathComponent))
    }
}
