import Foundation

/// Text from a server, made safe to keep and to draw before anything else sees it: control
/// characters and bidirectional overrides removed, runs of combining marks cut to a few per
/// character, and the whole cut to a length, all in one linear pass.
enum RemoteText {
    /// Names and titles.
    static let titleLimit = 1_000
    /// Overviews and other long text.
    static let bodyLimit = 10_000
    /// Combining marks kept after one base character (a real script needs at most a few).
    static let marksPerBase = 8

    static func clean(_ text: String, maxScalars: Int) -> String {
        var out = String.UnicodeScalarView()
        var kept = 0
        var marks = 0
        for scalar in text.unicodeScalars {
            guard kept < maxScalars else { break }
            let v = scalar.value
            if v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
                || v == 0x200E || v == 0x200F || v == 0x061C {
                // A line break or tab becomes a space; other controls go.
                if v == 0x0A || v == 0x09 || v == 0x0D { out.append(" "); kept += 1; marks = 0 }
                continue
            }
            if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .enclosingMark {
                marks += 1
                if marks > marksPerBase { continue }
            } else {
                marks = 0
            }
            out.append(scalar)
            kept += 1
        }
        return String(out).trimmingCharacters(in: .whitespaces)
    }
}
