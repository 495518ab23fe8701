import Foundation

/// OSC 52, the terminal's clipboard: `ESC ] 52 ; c ; <base64> BEL` puts text on the clipboard of the
/// machine the terminal runs on (over SSH too, and in tmux with `set-clipboard on`).
public enum OSC52 {
    /// Copied text is at most this many bytes of UTF-8 (terminals cap the sequence; xterm at ~100 KB).
    public static let limit = 8 * 1024

    /// What may be copied: line breaks and tabs become spaces, every other control character (and
    /// escape sequence) is dropped, and the text is cut on a character boundary at `limit` bytes.
    public static func sanitize(_ text: String) -> String {
        var spaced = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            spaced.append(s == "\n" || s == "\r" || s == "\t" ? " " : s)
        }
        var clean = DisplayWidth.sanitize(String(spaced)).trimmingCharacters(in: .whitespaces)
        if clean.utf8.count > limit {
            var cut = ""
            for ch in clean {
                if cut.utf8.count + String(ch).utf8.count > limit { break }
                cut.append(ch)
            }
            clean = cut
        }
        return clean
    }

    /// The bytes of the OSC 52 sequence that copies `text` (sanitised first).
    public static func sequence(for text: String) -> [UInt8] {
        Array("\u{1B}]52;c;".utf8) + Array(Data(sanitize(text).utf8).base64EncodedString().utf8) + [0x07]
    }

    /// The text an OSC 52 sequence copies; nil when `bytes` is not one.
    public static func decode(_ bytes: [UInt8]) -> String? {
        let prefix = Array("\u{1B}]52;c;".utf8)
        guard bytes.count > prefix.count, Array(bytes.prefix(prefix.count)) == prefix, bytes.last == 0x07,
              let data = Data(base64Encoded: Data(bytes[prefix.count..<(bytes.count - 1)])) else { return nil }
        return String(data: data, encoding: .utf8)
    }
}
