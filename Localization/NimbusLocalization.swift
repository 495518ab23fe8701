import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Locates the bundled `<lang>.lproj/Localizable.strings` files.
public enum LocalizationFiles {
    /// URL of the strings file for a language code (`en`, `ko`, `ja`), or nil when not bundled.
    public static func stringsURL(language: String) -> URL? {
        let relative = "\(language).lproj/Localizable.strings"
        return besideExecutable(relative)
            ?? Bundle.module.url(forResource: "Localizable", withExtension: "strings", subdirectory: "\(language).lproj")
    }

    /// The file in the resource directory SwiftPM puts beside the executable, found without
    /// Foundation's `Bundle` (setting one up was a millisecond of every start); nil when not there.
    static func besideExecutable(_ relative: String) -> URL? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let executable = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let path = (executable as NSString).deletingLastPathComponent + "/Nimbus_NimbusLocalization.resources/" + relative
        return access(path, R_OK) == 0 ? URL(fileURLWithPath: path) : nil
    }
}
