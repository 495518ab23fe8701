import Foundation
import Glibc
import GRDB
import NimbusDomain

/// The wishlist as a file: CSV with Letterboxd's import columns (Title, Year, Directors, then Genres
/// and Added, which Letterboxd ignores) or JSON, and back. A file to import is treated as hostile:
/// its size and row count are capped, quoted CSV fields may hold commas, quotes and line breaks, a
/// byte-order mark and CRLF are accepted, and control characters are removed from every field.
///
/// A CSV cell a spreadsheet would run as a formula (one starting with `=`, `+`, `-`, `@`, a tab or a
/// carriage return: a TMDB title such as `=HYPERLINK(…)`, or the film "+1") is written as text, with
/// a leading `'` (OWASP's advice), and read back without it.
public enum WishlistTransfer {
    public enum Format: String, CaseIterable, Sendable { case csv, json }

    /// A film named in a file: what matching needs.
    public struct Item: Equatable, Sendable {
        public let title: String
        public let year: Int?
        public init(title: String, year: Int?) {
            self.title = title
            self.year = year
        }
    }

    /// Why a file could not be read as a list of films.
    public typealias Failure = WishlistFileError

    public static let maxBytes = 5 * 1024 * 1024
    public static let maxRows = 20_000
    public static let maxFieldLength = 1_000

    public static let csvColumns = ["Title", "Year", "Directors", "Genres", "Added"]

    // MARK: Export

    public static func export(_ entries: [WishlistEntry], as format: Format) throws -> String {
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withFullDate]
        switch format {
        case .csv:
            var lines = [csvColumns.joined(separator: ",")]
            for entry in entries {
                let movie = entry.movie
                lines.append([movie.title, movie.year.map(String.init) ?? "", movie.directors.joined(separator: ", "),
                              movie.genres.joined(separator: ", "), iso.string(from: entry.addedAt)]
                    .map(csvField).joined(separator: ","))
            }
            return lines.joined(separator: "\r\n") + "\r\n"
        case .json:
            struct Film: Encodable { let title: String, year: Int?, directors: [String], genres: [String], added: String }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let films = entries.map { Film(title: $0.movie.title, year: $0.movie.year, directors: $0.movie.directors,
                                           genres: $0.movie.genres, added: iso.string(from: $0.addedAt)) }
            return String(decoding: try encoder.encode(films), as: UTF8.self) + "\n"
        }
    }

    /// One CSV field. Read by scalars, as `csvRows` reads it back: a quote followed by a combining
    /// mark is one Character (`"` + U+0369 is `"ͩ`), so a Character test missed it and a
    /// Character replacement left it single, and the title read back broken.
    static func csvField(_ text: String) -> String {
        let clean = neutralised(sanitize(text))
        let scalars = clean.unicodeScalars
        guard scalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || scalars.first == " "
                || scalars.last == " " || scalars.first == "'" else {
            return clean
        }
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in scalars {
            if scalar == "\"" { quoted.append("\"") }
            quoted.append(scalar)
        }
        quoted.append("\"")
        return String(quoted)
    }

    /// What a spreadsheet takes for the start of a formula (OWASP, CSV injection).
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// Whether `text` must be written with a leading `'` so that it stays text: it starts a formula,
    /// or it is `'` and then such a text (so that removing one `'` on import gives back exactly what
    /// was written: "'71" stays as it is, "'=x" is written "''=x").
    static func needsQuote(_ text: Substring.UnicodeScalarView) -> Bool {
        guard let first = text.first else { return false }
        if formulaStarts.contains(first) { return true }
        return first == "'" && needsQuote(text.dropFirst())
    }

    /// `text` as a cell no spreadsheet runs.
    static func neutralised(_ text: String) -> String {
        needsQuote(Substring(text).unicodeScalars) ? "'" + text : text
    }

    /// A cell read back: the `'` that `neutralised` added, removed.
    static func unneutralised(_ text: String) -> String {
        let scalars = Substring(text).unicodeScalars
        guard scalars.first == "'", needsQuote(scalars.dropFirst()) else { return text }
        return String(text.dropFirst())
    }

    // MARK: Import

    /// The contents of the file at `path`, its size checked on the file opened, not on the name (a
    /// link to a 2 GB file is refused by a `fstat`, not read), and read with a cap all the same (a
    /// pipe, a device or a file that grows has no size to trust): more than `maxBytes` is `tooLarge`.
    public static func read(path: String) throws -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure.unreadable(String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure.unreadable(String(cString: strerror(errno))) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw Failure.unreadable(String(cString: strerror(EISDIR))) }
        if (info.st_mode & S_IFMT) == S_IFREG, info.st_size > maxBytes { throw Failure.tooLarge(limit: maxBytes) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure.unreadable(String(cString: strerror(errno)))
            }
            if count == 0 { return data }
            data.append(buffer, count: count)
            if data.count > maxBytes { throw Failure.tooLarge(limit: maxBytes) }
        }
    }

    /// The films a file names, in its order. `format` nil: JSON when the text starts with `[` or `{`, else CSV.
    public static func parse(_ data: Data, format: Format? = nil) throws -> [Item] {
        guard data.count <= maxBytes else { throw Failure.tooLarge(limit: maxBytes) }
        guard var text = String(data: data, encoding: .utf8) else { throw Failure.notText }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let trimmed = text.drop(while: { $0.isWhitespace })
        let isJSON = format.map { $0 == .json } ?? (trimmed.first == "[" || trimmed.first == "{")
        return isJSON ? try parseJSON(Data(text.utf8)) : try parseCSV(text)
    }

    static func parseJSON(_ data: Data) throws -> [Item] {
        guard let value = try? JSONSerialization.jsonObject(with: data, options: []) else {
            throw Failure.badFormat(.jsonUnreadable)
        }
        let list: [Any]
        if let array = value as? [Any] { list = array }
        else if let object = value as? [String: Any], let films = object["films"] as? [Any] { list = films }
        else { throw Failure.badFormat(.jsonNotAList) }
        guard list.count <= maxRows else { throw Failure.tooManyRows(limit: maxRows) }
        return list.compactMap { element in
            guard let film = element as? [String: Any] else { return nil }
            let title = (film["title"] ?? film["Title"]) as? String ?? ""
            let yearValue = film["year"] ?? film["Year"]
            let year = (yearValue as? Int) ?? (yearValue as? String).flatMap { Int(sanitize($0)) }
            return item(title: title, year: year)
        }
    }

    static func parseCSV(_ text: String) throws -> [Item] {
        let rows = try csvRows(text)
        guard let header = rows.first else { return [] }
        let names = header.map { sanitize($0).lowercased() }
        guard let titleColumn = names.firstIndex(of: "title") ?? names.firstIndex(of: "name") else {
            throw Failure.badFormat(.csvNoTitle)
        }
        let yearColumn = names.firstIndex(of: "year")
        return rows.dropFirst().compactMap { row in
            guard row.indices.contains(titleColumn) else { return nil }
            let year = yearColumn.flatMap { row.indices.contains($0) ? Int(sanitize(row[$0])) : nil }
            return item(title: unneutralised(sanitize(row[titleColumn])), year: year)
        }
    }

    private static func item(title: String, year: Int?) -> Item? {
        let clean = sanitize(title)
        guard !clean.isEmpty else { return nil }
        return Item(title: clean, year: year.flatMap { (1800...2200).contains($0) ? $0 : nil })
    }

    /// RFC 4180 rows: fields split at commas, quoted fields may hold commas, doubled quotes and line
    /// breaks; CRLF, LF or CR ends a row; blank lines are skipped.
    static func csvRows(_ text: String) throws -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        // The field's length so far: counted as it grows (a 5 MB field is cut once it is long enough,
        // never measured again from its start for each character).
        var fieldLength = 0
        var quoted = false
        var fieldStarted = false
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar?
        func append(_ scalar: Unicode.Scalar) {
            guard fieldLength < maxFieldLength else { return }
            field.unicodeScalars.append(scalar)
            fieldLength += 1
        }
        func endField() {
            row.append(field)
            field = ""
            fieldLength = 0
            fieldStarted = false
        }
        func endRow() throws {
            endField()
            if !(row.count == 1 && row[0].isEmpty) { rows.append(row) }
            guard rows.count <= maxRows + 1 else { throw Failure.tooManyRows(limit: maxRows) }
            row = []
        }
        while let scalar = pending ?? scalars.next() {
            pending = nil
            if quoted {
                if scalar == "\"" {
                    if let next = scalars.next() {
                        if next == "\"" { append("\"") } else { quoted = false; pending = next }
                    } else { quoted = false }
                } else {
                    append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where !fieldStarted:
                quoted = true
                fieldStarted = true
            case ",":
                endField()
                guard row.count <= 100 else { throw Failure.badFormat(.csvTooManyFields) }
            case "\r":
                if let next = scalars.next(), next != "\n" { pending = next }
                try endRow()
            case "\n":
                try endRow()
            default:
                fieldStarted = true
                append(scalar)
            }
        }
        if fieldStarted || !field.isEmpty || !row.isEmpty { try endRow() }
        return rows
    }

    /// Control characters (C0, DEL, C1, bidi overrides) removed, white space runs collapsed, ends
    /// trimmed; the byte order mark (U+FEFF, which files joined together carry mid-text, and JSON
    /// readers drop) removed outright.
    public static func sanitize(_ text: String) -> String {
        let kept = text.unicodeScalars.lazy.filter { $0.value != 0xFEFF }.map { scalar -> Character in
            let v = scalar.value
            if v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) {
                return " "
            }
            return Character(scalar)
        }
        return String(kept).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
