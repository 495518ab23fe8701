import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Files bundled with the app (see `SOURCES.md` for where they come from).
public enum NimbusResources {
    /// The URL of a bundled resource, or nil when it is not in the bundle.
    public static func url(forResource name: String, withExtension ext: String) -> URL? {
        besideExecutable("\(name).\(ext)", in: "NimbusResources") ?? Bundle.module.url(forResource: name, withExtension: ext)
    }

    /// `relative` in the resource directory SwiftPM puts beside the executable for `target`, found
    /// without Foundation's `Bundle` (setting one up was a millisecond of every start); nil when
    /// the file is not there.
    public static func besideExecutable(_ relative: String, in target: String) -> URL? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let executable = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let path = (executable as NSString).deletingLastPathComponent + "/Nimbus_\(target).resources/" + relative
        return access(path, R_OK) == 0 ? URL(fileURLWithPath: path) : nil
    }
}
