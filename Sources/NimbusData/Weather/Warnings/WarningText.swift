import Foundation
import NimbusDomain

/// Limits on a warning's text, applied where a service's answer becomes a `WeatherWarning`.
enum WarningText {
    /// Event names, headlines, offices: one line.
    static let line = 500
    /// Descriptions and instructions: a warning's full text is a few kilobytes; a 10 MB one is cut here.
    static let body = 20_000
    /// Warnings kept per place: more than any service issues for one point.
    static let maxWarnings = 50
    /// Identifiers.
    static let id = 300

    /// One line of a service's text: controls and bidirectional overrides removed, line breaks made
    /// spaces, cut to `line`; nil when nothing is left.
    static func single(_ text: String?, limit: Int = line) -> String? {
        guard let text else { return nil }
        let cleaned = RemoteText.clean(text, maxScalars: limit)
        return cleaned.isEmpty ? nil : cleaned
    }

    /// A service's paragraphs as they were written, line breaks kept (CR LF, CR and U+2028 made LF,
    /// U+2029 a blank line; at most two in a row), tabs made spaces, every other control character
    /// and bidirectional override removed, what is unassigned replaced with U+FFFD, cut to `body`
    /// scalars; nil when nothing is left.
    static func multiline(_ text: String?, limit: Int = body) -> String? {
        guard let text else { return nil }
        var lines: [String] = []
        var line = String.UnicodeScalarView()
        var count = 0
        var previousCR = false
        func endLine() {
            lines.append(RemoteText.clip(String(line), to: limit).trimmingCharacters(in: .whitespaces))
            line = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            if count > limit + RemoteText.maxCombiningMarks + 1 { break }
            let v = scalar.value
            defer { previousCR = v == 0x0D }
            if v == 0x0A {
                if !previousCR { endLine() }
            } else if v == 0x0D || v == 0x2028 {
                endLine()
            } else if v == 0x2029 {
                endLine()
                endLine()
            } else if v == 0x09 {
                line.append(" ")
            } else if v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v)
                        || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F || v == 0x061C {
                continue
            } else if RemoteText.isUnassigned(scalar) {
                line.append(RemoteText.replacement)
            } else {
                line.append(scalar)
            }
            count += 1
        }
        endLine()
        // At most one blank line between paragraphs, none at either end.
        var kept: [String] = []
        for l in lines {
            if l.isEmpty && (kept.last?.isEmpty ?? true) { continue }
            kept.append(l)
        }
        while kept.last?.isEmpty == true { kept.removeLast() }
        let joined = RemoteText.clip(kept.joined(separator: "\n"), to: limit)
        return joined.isEmpty ? nil : joined
    }

    /// A language tag as BCP 47 writes one ("en-US", "ja"): letters, digits and hyphens, at most 35.
    static func language(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty, text.count <= 35,
              text.unicodeScalars.allSatisfy({ ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_" })
        else { return nil }
        return text.replacingOccurrences(of: "_", with: "-")
    }

    /// A believable instant: between 2000 and 2200.
    static func believable(_ date: Date?) -> Date? {
        guard let date, WeatherWarning.believableTimes.contains(date) else { return nil }
        return date
    }

    /// An ISO 8601 instant with its offset ("2025-01-03T10:00:00-08:00", "…Z", fractional seconds
    /// allowed), believable or nil.
    static func instant(_ text: String?) -> Date? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), (10...40).contains(text.utf8.count) else { return nil }
        return believable(ISO8601.parse(text))
    }
}

/// ISO 8601 date-times as warning services write them, read without `DateFormatter` (made per call
/// it is slow; shared it is not thread-safe on every platform).
enum ISO8601 {
    /// "YYYY-MM-DDThh:mm[:ss[.fff]](Z|±hh:mm|±hhmm)"; nil for anything else, or a date that does not exist.
    static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in 0..<n {
                let c = b[i + k]
                guard (48...57).contains(c) else { return nil }
                v = v * 10 + Int(c - 48)
            }
            i += n
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(45), let month = digits(2), expect(45), let day = digits(2),
              i < b.count, b[i] == 84 || b[i] == 116 || b[i] == 32 else { return nil }
        i += 1
        guard let hour = digits(2), expect(58), let minute = digits(2) else { return nil }
        var second = 0
        var fraction = 0.0
        if expect(58) {
            guard let s = digits(2) else { return nil }
            second = s
            if i < b.count, b[i] == 46 || b[i] == 44 {
                i += 1
                var scale = 0.1
                let start = i
                while i < b.count, (48...57).contains(b[i]), i - start < 9 {
                    fraction += Double(b[i] - 48) * scale
                    scale /= 10
                    i += 1
                }
                guard i > start else { return nil }
            }
        }
        var offset = 0
        guard i < b.count else { return nil }
        if b[i] == 90 || b[i] == 122 {
            i += 1
        } else if b[i] == 43 || b[i] == 45 {
            let sign = b[i] == 45 ? -1 : 1
            i += 1
            guard let oh = digits(2) else { return nil }
            _ = expect(58)
            guard let om = digits(2), oh <= 18, om < 60 else { return nil }
            offset = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == b.count, (1...12).contains(month), hour < 24, minute < 60, second < 61 else { return nil }
        let lengths = [31, year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...lengths[month - 1]).contains(day) else { return nil }
        // Days from 1970-01-01 (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds) + fraction)
    }
}
