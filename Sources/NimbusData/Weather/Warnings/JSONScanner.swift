import Foundation

/// Reads a JSON body in place, value by value, so that a parser makes only the values it keeps:
/// the warnings services' answers are decoded without building the whole document (`JSONDecoder`
/// made 650 MB of 4 MB of `{}` features, 1.2 GB of 48 MB of geometry). Strict JSON (RFC 8259): a
/// syntax error anywhere is a `SyntaxError`; nesting is held to `maxDepth`; bytes that are not
/// UTF-8 inside a string become U+FFFD (the text is cleaned after anyway).
///
/// The scanner never allocates for what it steps over; `string()` makes one `String` of the value.
struct JSONScanner {
    struct SyntaxError: Error {}

    /// A member's name, where it lies in the body; compared without making a `String`.
    struct Key {
        fileprivate let bytes: UnsafeBufferPointer<UInt8>
        fileprivate let start: Int
        fileprivate let end: Int
        /// The name had escapes: it is none of the names parsers look for.
        fileprivate let escaped: Bool

        static func == (key: Key, name: StaticString) -> Bool {
            guard !key.escaped, key.end - key.start == name.utf8CodeUnitCount else { return false }
            let p = name.utf8Start
            for k in 0..<(key.end - key.start) where key.bytes[key.start + k] != p[k] { return false }
            return true
        }

        /// Whether the name is `text`, byte for byte.
        func isNamed(_ text: String) -> Bool {
            guard !escaped else { return false }
            var k = start
            for byte in text.utf8 {
                guard k < end, bytes[k] == byte else { return false }
                k += 1
            }
            return k == end
        }
    }

    enum Kind { case object, array, string, number, literal }

    /// Containers inside containers, at most: a hostile body of 100,000 `[` fails here, not on the stack.
    static let maxDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    /// Where the scanner is: the next byte to read.
    private(set) var position: Int
    private var depth = 0

    /// A scanner of `bytes` from `position`; `bytes` must stay valid while it is used.
    init(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// Runs `body` with a scanner of `data`'s bytes.
    static func scan<T>(_ data: Data, _ body: (inout JSONScanner) throws -> T) throws -> T {
        try data.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw.bindMemory(to: UInt8.self))
            return try body(&scanner)
        }
    }

    /// A scanner of the same body at `position` (a value found earlier, looked at again).
    func rewound(to position: Int) -> JSONScanner { JSONScanner(bytes, at: position) }

    // MARK: Structure

    /// What the next value is; nil at the end of the body or before something that starts no value.
    mutating func kind() -> Kind? {
        skipSpace()
        guard let c = peek() else { return nil }
        switch c {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): return .literal
        default: return nil
        }
    }

    /// Only space is left.
    mutating func end() throws {
        skipSpace()
        guard position == bytes.count else { throw SyntaxError() }
    }

    /// Calls `body` for each member of the object that is the next value, with the scanner on the
    /// member's value, which `body` must read or skip.
    mutating func object(_ body: (inout JSONScanner, Key) throws -> Void) throws {
        skipSpace()
        guard peek() == UInt8(ascii: "{") else { throw SyntaxError() }
        try enter()
        position += 1
        skipSpace()
        if peek() == UInt8(ascii: "}") { position += 1; depth -= 1; return }
        while true {
            skipSpace()
            let key = try key()
            skipSpace()
            guard peek() == UInt8(ascii: ":") else { throw SyntaxError() }
            position += 1
            try body(&self, key)
            skipSpace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; depth -= 1; return
            default: throw SyntaxError()
            }
        }
    }

    /// Calls `body` for each element of the array that is the next value; `body` must read or skip it.
    mutating func array(_ body: (inout JSONScanner) throws -> Void) throws {
        skipSpace()
        guard peek() == UInt8(ascii: "[") else { throw SyntaxError() }
        try enter()
        position += 1
        skipSpace()
        if peek() == UInt8(ascii: "]") { position += 1; depth -= 1; return }
        while true {
            try body(&self)
            skipSpace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; depth -= 1; return
            default: throw SyntaxError()
            }
        }
    }

    private mutating func enter() throws {
        depth += 1
        guard depth <= Self.maxDepth else { throw SyntaxError() }
    }

    /// Steps over the next value, checking its syntax, without recursion: an explicit stack of
    /// the open containers (one bit each: object or array).
    mutating func skipValue() throws {
        var objects: [Bool] = []
        var opened = 0
        value: while true {
            skipSpace()
            switch peek() {
            case UInt8(ascii: "{"):
                position += 1
                skipSpace()
                if peek() == UInt8(ascii: "}") {
                    position += 1
                } else {
                    guard depth + opened < Self.maxDepth else { throw SyntaxError() }
                    objects.append(true)
                    opened += 1
                    try memberName()
                    continue value
                }
            case UInt8(ascii: "["):
                position += 1
                skipSpace()
                if peek() == UInt8(ascii: "]") {
                    position += 1
                } else {
                    guard depth + opened < Self.maxDepth else { throw SyntaxError() }
                    objects.append(false)
                    opened += 1
                    continue value
                }
            case UInt8(ascii: "\""): try skipString()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default: _ = try number()
            }
            // After a value: close what ends here, go on to the container's next value.
            while let inObject = objects.last {
                skipSpace()
                switch peek() {
                case UInt8(ascii: ","):
                    position += 1
                    if inObject { try memberName() }
                    continue value
                case UInt8(ascii: "}") where inObject, UInt8(ascii: "]") where !inObject:
                    position += 1
                    objects.removeLast()
                    opened -= 1
                default:
                    throw SyntaxError()
                }
            }
            return
        }
    }

    /// A member's name and its colon.
    private mutating func memberName() throws {
        skipSpace()
        guard peek() == UInt8(ascii: "\"") else { throw SyntaxError() }
        try skipString()
        skipSpace()
        guard peek() == UInt8(ascii: ":") else { throw SyntaxError() }
        position += 1
    }

    private mutating func key() throws -> Key {
        guard peek() == UInt8(ascii: "\"") else { throw SyntaxError() }
        let start = position + 1
        var k = start
        while k < bytes.count {
            let b = bytes[k]
            if b == UInt8(ascii: "\"") {
                position = k + 1
                return Key(bytes: bytes, start: start, end: k, escaped: false)
            }
            if b == UInt8(ascii: "\\") {
                try skipString()
                return Key(bytes: bytes, start: start, end: start, escaped: true)
            }
            if b < 0x20 { throw SyntaxError() }
            k += 1
        }
        throw SyntaxError()
    }

    // MARK: Values

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard position + n <= bytes.count else { throw SyntaxError() }
        let w = word.utf8Start
        for k in 0..<n where bytes[position + k] != w[k] { throw SyntaxError() }
        position += n
    }

    /// The next value when it is a string; nil (and stepped over) for `null`; `wrongType` (stepped
    /// over) for anything else.
    enum Field<T> {
        case value(T)
        case null
        case wrongType
    }

    mutating func stringField() throws -> Field<String> {
        switch kind() {
        case .string: return .value(try string())
        case .literal where peek() == UInt8(ascii: "n"): try literal("null"); return .null
        default: try skipValue(); return .wrongType
        }
    }

    mutating func numberField() throws -> Field<Double> {
        switch kind() {
        case .number: return .value(try number())
        case .literal where peek() == UInt8(ascii: "n"): try literal("null"); return .null
        default: try skipValue(); return .wrongType
        }
    }

    /// What a GeoJSON position (an array of numbers) held.
    enum Position {
        /// Its first two numbers (longitude, latitude).
        case point(Double, Double)
        /// An array of numbers with fewer than two.
        case short
        /// Not an array of numbers (stepped over).
        case other
    }

    /// The GeoJSON position that is the next value, read without a closure or an array per vertex (a
    /// part of JMA's geometry has millions of them).
    mutating func geoPosition() throws -> Position {
        guard kind() == .array else { try skipValue(); return .other }
        let start = position
        position += 1
        var first = 0.0, second = 0.0
        var count = 0
        skipSpace()
        if peek() == UInt8(ascii: "]") { position += 1; return .short }
        while true {
            guard kind() == .number else {
                position = start
                try skipValue()
                return .other
            }
            let n = try number()
            if count == 0 { first = n } else if count == 1 { second = n }
            count += 1
            skipSpace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return count >= 2 ? .point(first, second) : .short
            default: throw SyntaxError()
            }
        }
    }

    /// Steps over a string, checking its escapes.
    private mutating func skipString() throws {
        var k = position + 1
        while k < bytes.count {
            let b = bytes[k]
            if b == UInt8(ascii: "\"") { position = k + 1; return }
            if b == UInt8(ascii: "\\") {
                guard k + 1 < bytes.count else { throw SyntaxError() }
                switch bytes[k + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    k += 2
                case UInt8(ascii: "u"):
                    k += 2
                    _ = try JSONLexeme.hex4(bytes, &k)
                default:
                    throw SyntaxError()
                }
                continue
            }
            if b < 0x20 { throw SyntaxError() }
            k += 1
        }
        throw SyntaxError()
    }

    /// The string that is the next value.
    mutating func string() throws -> String {
        skipSpace()
        return try JSONLexeme.string(bytes, at: &position)
    }

    /// The number that is the next value (`JSONLexeme.number`).
    mutating func number() throws -> Double {
        skipSpace()
        return try JSONLexeme.number(bytes, at: &position)
    }

}

/// JSON's strings and numbers read in place, for `JSONScanner` and `USGSFeedScanner`.
enum JSONLexeme {
    typealias SyntaxError = JSONScanner.SyntaxError

    /// The string whose opening quote is at `position`, decoded; `position` ends after its closing quote.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int) throws -> String {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw SyntaxError() }
        var k = position + 1
        // The common case: no escapes.
        while k < bytes.count, bytes[k] != UInt8(ascii: "\""), bytes[k] != UInt8(ascii: "\\") {
            if bytes[k] < 0x20 { throw SyntaxError() }
            k += 1
        }
        guard k < bytes.count else { throw SyntaxError() }
        if bytes[k] == UInt8(ascii: "\"") {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[(position + 1)..<k]), as: UTF8.self)
            position = k + 1
            return text
        }
        var out = Array(bytes[(position + 1)..<k])
        while true {
            guard k < bytes.count else { throw SyntaxError() }
            let b = bytes[k]
            if b == UInt8(ascii: "\"") { position = k + 1; return String(decoding: out, as: UTF8.self) }
            if b < 0x20 { throw SyntaxError() }
            guard b == UInt8(ascii: "\\") else { out.append(b); k += 1; continue }
            guard k + 1 < bytes.count else { throw SyntaxError() }
            let e = bytes[k + 1]
            k += 2
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var unit = try hex4(bytes, &k)
                if (0xD800...0xDBFF).contains(unit) {
                    // A high surrogate must be followed by an escaped low one.
                    guard k + 1 < bytes.count, bytes[k] == UInt8(ascii: "\\"), bytes[k + 1] == UInt8(ascii: "u") else {
                        throw SyntaxError()
                    }
                    k += 2
                    let low = try hex4(bytes, &k)
                    guard (0xDC00...0xDFFF).contains(low) else { throw SyntaxError() }
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(unit) {
                    throw SyntaxError()
                }
                guard let scalar = Unicode.Scalar(unit) else { throw SyntaxError() }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default: throw SyntaxError()
            }
        }
    }

    static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, _ k: inout Int) throws -> UInt32 {
        guard k + 4 <= bytes.count else { throw SyntaxError() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[k]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw SyntaxError()
            }
            value = value << 4 | digit
            k += 1
        }
        return value
    }

    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    /// The number that starts at `position` (`position` ends after it): exact for up to 15
    /// significant digits and exponents to ±22 (every number the feeds have), otherwise through
    /// `Double(String)`; one too large for a `Double` is a syntax error, as it is to Foundation.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int) throws -> Double {
        let start = position
        var k = position
        let negative = k < bytes.count && bytes[k] == UInt8(ascii: "-")
        if negative { k += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        func isDigit(_ k: Int) -> Bool { k < bytes.count && bytes[k] >= UInt8(ascii: "0") && bytes[k] <= UInt8(ascii: "9") }
        guard isDigit(k) else { throw SyntaxError() }
        if bytes[k] == UInt8(ascii: "0") {
            k += 1
            guard !isDigit(k) else { throw SyntaxError() } // no leading zeros
        } else {
            while isDigit(k) {
                if digits < 19 { mantissa = mantissa * 10 + UInt64(bytes[k] - UInt8(ascii: "0")) }
                digits += mantissa == 0 ? 0 : 1
                k += 1
            }
        }
        var fraction = 0
        if k < bytes.count, bytes[k] == UInt8(ascii: ".") {
            k += 1
            guard isDigit(k) else { throw SyntaxError() }
            while isDigit(k) {
                if digits < 19 {
                    mantissa = mantissa * 10 + UInt64(bytes[k] - UInt8(ascii: "0"))
                    fraction += 1
                }
                digits += mantissa == 0 ? 0 : 1
                k += 1
            }
        }
        var exponent = 0
        if k < bytes.count, bytes[k] == UInt8(ascii: "e") || bytes[k] == UInt8(ascii: "E") {
            k += 1
            var expNegative = false
            if k < bytes.count, bytes[k] == UInt8(ascii: "+") || bytes[k] == UInt8(ascii: "-") {
                expNegative = bytes[k] == UInt8(ascii: "-")
                k += 1
            }
            guard isDigit(k) else { throw SyntaxError() }
            while isDigit(k) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[k] - UInt8(ascii: "0")) }
                k += 1
            }
            if expNegative { exponent = -exponent }
        }
        position = k
        let power = exponent - fraction
        if digits <= 15, abs(power) <= 22 {
            let m = Double(mantissa)
            let value = power >= 0 ? m * Self.powersOfTen[power] : m / Self.powersOfTen[-power]
            return negative ? -value : value
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<k]), as: UTF8.self)
        // A number past what a `Double` holds (`1e999`) is refused, as Foundation refuses it, not
        // read as an infinity.
        guard let value = Double(text), value.isFinite else { throw SyntaxError() }
        return value
    }
}
