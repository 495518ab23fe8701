import Foundation
import NimbusResources

/// Locates the bundled `<lang>.lproj/Localizable.strings` files.
public enum LocalizationFiles {
    /// URL of the strings file for a language code (`en`, `ko`, `ja`), or nil when not bundled.
    public static func stringsURL(language: String) -> URL? {
        NimbusResources.besideExecutable("\(language).lproj/Localizable.strings", in: "NimbusLocalization")
            ?? Bundle.module.url(forResource: "Localizable", withExtension: "strings", subdirectory: "\(language).lproj")
    }
}
