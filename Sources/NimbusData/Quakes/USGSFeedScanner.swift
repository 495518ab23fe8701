import Foundation

/// Reads a USGS feed's events straight from its UTF-8 bytes: only the fields an event needs are
/// made into values, everything else is stepped over. `JSONDecoder` took 180–500 ms for an
/// `all_month` feed (10,000 events) on Linux, ten times the budget; this takes a few milliseconds.
///
/// Strict JSON (RFC 8259) as `JSONDecoder` reads it: a syntax error anywhere fails the whole body;
/// a feature whose fields have the wrong types (a magnitude that is a string, no geometry) is
/// returned as nil, to be dropped and counted while the others are kept. (One leniency: bytes that
/// are not UTF-8 inside a string become U+FFFD rather than failing the feed; text is sanitised anyway.)
struct USGSFeedScanner {
    typealias SyntaxError = JSONScanner.SyntaxError

    /// What the top level held.
    struct Collection {
        var type: String?
        var generated: Double?
        /// Each element of `features`: the feature, or nil when it was not a well-typed one.
        var features: [RawFeature?] = []
        var hasFeatures = false
    }

    /// Where a string value lies in the body (its opening quote); made into a `String` on demand.
    struct Text {
        let at: Int
    }

    /// A well-typed feature: its numbers read, its text only located (making strings is the costly
    /// part, and most events of a long feed are not kept).
    struct RawFeature {
        var id = ""
        var mag: Double?, time: Double?, updated: Double?
        var tz: Double?, felt: Double?, tsunami: Double?, sig: Double?
        var place: Text?, url: Text?, alert: Text?, status: Text?, magType: Text?, type: Text?, title: Text?
        /// The first three coordinates (longitude, latitude, depth) and how many there were.
        var coordinates: (Double, Double, Double) = (0, 0, 0)
        var coordinateCount = 0
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0
    /// Nesting of arrays and objects skipped over, bounded so hostile input cannot exhaust the stack.
    private var depth = 0
    static let maxDepth = 512

    /// A scanner of `bytes`, which must stay valid while it is used.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The body's collection; throws `SyntaxError` when it is not JSON, and returns nil when it is
    /// JSON but not an object with the fields a collection has (`type`, `features`, well-typed `metadata`).
    mutating func collection() throws -> Collection? {
        i = 0
        depth = 0
        let collection = try topLevel()
        skipSpace()
        guard i == bytes.count else { throw SyntaxError() }
        return collection
    }

    /// `collection()` of `body` (for tests).
    static func scan(_ body: Data) throws -> Collection? {
        try body.withUnsafeBytes { raw in
            var scanner = USGSFeedScanner(raw.bindMemory(to: UInt8.self))
            return try scanner.collection()
        }
    }

    /// The string at `text` (checked when the body was scanned).
    mutating func string(_ text: Text) -> String {
        i = text.at
        return (try? string()) ?? ""
    }

    /// The feature with its text made.
    mutating func feature(_ raw: RawFeature) -> USGSFeedDTO.Feature {
        func text(_ t: Text?) -> String? { t.map { string($0) } }
        let c = raw.coordinates
        let coordinates = [c.0, c.1, c.2].prefix(raw.coordinateCount) + Array(repeating: 0, count: max(0, raw.coordinateCount - 3))
        return USGSFeedDTO.Feature(
            id: raw.id,
            properties: .init(mag: raw.mag, place: text(raw.place), time: raw.time, updated: raw.updated,
                              tz: raw.tz.map { Int($0) }, url: text(raw.url), felt: raw.felt.map { Int($0) },
                              alert: text(raw.alert), status: text(raw.status), tsunami: raw.tsunami.map { Int($0) },
                              sig: raw.sig.map { Int($0) }, magType: text(raw.magType), type: text(raw.type),
                              title: text(raw.title)),
            geometry: .init(coordinates: Array(coordinates)))
    }

    // MARK: Structure

    private mutating func topLevel() throws -> Collection? {
        skipSpace()
        guard peek() == UInt8(ascii: "{") else {
            try skipValue()
            return nil
        }
        var collection = Collection()
        var wellTyped = true
        try object { scanner, key in
            switch key {
            case .type:
                if let text = try scanner.stringOrOther() { collection.type = text } else { wellTyped = false }
            case .metadata:
                switch try scanner.metadata() {
                case .some(let generated): collection.generated = generated
                case .none: wellTyped = false
                }
            case .features:
                guard scanner.peek() == UInt8(ascii: "[") else { wellTyped = false; try scanner.skipValue(); return }
                collection.hasFeatures = true
                collection.features.reserveCapacity(1024)
                try scanner.array { scanner in collection.features.append(try scanner.feature()) }
            default:
                try scanner.skipValue()
            }
        }
        return wellTyped && collection.hasFeatures && collection.type != nil ? collection : nil
    }

    /// `metadata`: null, or an object whose `generated` is a number or null. The outer optional is
    /// nil when it is neither (the collection is then not well typed).
    private mutating func metadata() throws -> Double?? {
        if try null() { return .some(nil) }
        guard peek() == UInt8(ascii: "{") else { try skipValue(); return nil }
        var generated: Double?
        var ok = true
        try object { scanner, key in
            if key == .generated {
                switch try scanner.numberOrOther() {
                case .number(let n): generated = n
                case .null: generated = nil
                case .other: ok = false
                }
            } else {
                try scanner.skipValue()
            }
        }
        return ok ? .some(generated) : nil
    }

    private mutating func feature() throws -> RawFeature? {
        guard peek() == UInt8(ascii: "{") else { try skipValue(); return nil }
        var feature = RawFeature()
        var hasID = false, hasProperties = false, hasGeometry = false
        var ok = true
        try object { scanner, key in
            switch key {
            case .id:
                if let text = try scanner.stringOrOther() { feature.id = text; hasID = true } else { ok = false }
            case .properties:
                if try scanner.properties(into: &feature) { hasProperties = true } else { ok = false }
            case .geometry:
                if try scanner.geometry(into: &feature) { hasGeometry = true } else { ok = false }
            default:
                try scanner.skipValue()
            }
        }
        return ok && hasID && hasProperties && hasGeometry ? feature : nil
    }

    /// `properties`: an object whose known fields are null or of their type; false otherwise.
    private mutating func properties(into feature: inout RawFeature) throws -> Bool {
        guard peek() == UInt8(ascii: "{") else { try skipValue(); return false }
        var ok = true
        try object { scanner, key in
            switch key {
            case .mag: ok = try scanner.number(into: &feature.mag, whole: false) && ok
            case .time: ok = try scanner.number(into: &feature.time, whole: false) && ok
            case .updated: ok = try scanner.number(into: &feature.updated, whole: false) && ok
            case .tz: ok = try scanner.number(into: &feature.tz, whole: true) && ok
            case .felt: ok = try scanner.number(into: &feature.felt, whole: true) && ok
            case .tsunami: ok = try scanner.number(into: &feature.tsunami, whole: true) && ok
            case .sig: ok = try scanner.number(into: &feature.sig, whole: true) && ok
            case .place: ok = try scanner.text(into: &feature.place) && ok
            case .url: ok = try scanner.text(into: &feature.url) && ok
            case .alert: ok = try scanner.text(into: &feature.alert) && ok
            case .status: ok = try scanner.text(into: &feature.status) && ok
            case .magType: ok = try scanner.text(into: &feature.magType) && ok
            // In `properties`, `type` is the event's kind ("earthquake").
            case .type: ok = try scanner.text(into: &feature.type) && ok
            case .title: ok = try scanner.text(into: &feature.title) && ok
            default: try scanner.skipValue()
            }
        }
        return ok
    }

    /// A number or null into `slot`; false when it is something else (or, `whole`, not a whole number,
    /// as `Int`'s decoding requires).
    private mutating func number(into slot: inout Double?, whole: Bool) throws -> Bool {
        switch try numberOrOther() {
        case .number(let n):
            slot = n
            return !whole || (n.rounded() == n && abs(n) <= 9.0e15)
        case .null:
            slot = nil
            return true
        case .other:
            return false
        }
    }

    /// A string (located, checked, not made) or null into `slot`; false when it is something else.
    private mutating func text(into slot: inout Text?) throws -> Bool {
        switch peek() {
        case UInt8(ascii: "\""):
            slot = Text(at: i)
            try skipString()
            return true
        case UInt8(ascii: "n"):
            try literal("null")
            slot = nil
            return true
        default:
            try skipValue()
            return false
        }
    }

    /// `geometry`: an object with `coordinates`, an array of numbers; false otherwise.
    private mutating func geometry(into feature: inout RawFeature) throws -> Bool {
        guard peek() == UInt8(ascii: "{") else { try skipValue(); return false }
        var found = false
        var ok = true
        try object { scanner, key in
            guard key == .coordinates else { try scanner.skipValue(); return }
            guard scanner.peek() == UInt8(ascii: "[") else { ok = false; try scanner.skipValue(); return }
            found = true
            var count = 0
            try scanner.array { scanner in
                guard case .number(let n) = try scanner.numberOrOther() else { ok = false; return }
                switch count {
                case 0: feature.coordinates.0 = n
                case 1: feature.coordinates.1 = n
                case 2: feature.coordinates.2 = n
                default: break
                }
                count += 1
            }
            feature.coordinateCount = count
        }
        return ok && found
    }

    // MARK: Keys

    /// The keys the scanner looks for; everything else is `.other`.
    enum Key: Equatable {
        case type, metadata, features, generated, id, properties, geometry, coordinates
        case mag, place, time, updated, tz, url, felt, alert, status, tsunami, sig, magType, title
        case other
    }

    /// The key whose name is `bytes[start..<end]`: picked by length and first letters, then compared.
    private func key(_ start: Int, _ end: Int) -> Key {
        let n = end - start
        guard n >= 2, n <= 11 else { return .other }
        let name: StaticString, key: Key
        switch (n, bytes[start]) {
        case (2, UInt8(ascii: "i")): (name, key) = ("id", .id)
        case (2, UInt8(ascii: "t")): (name, key) = ("tz", .tz)
        case (3, UInt8(ascii: "m")): (name, key) = ("mag", .mag)
        case (3, UInt8(ascii: "u")): (name, key) = ("url", .url)
        case (3, UInt8(ascii: "s")): (name, key) = ("sig", .sig)
        case (4, UInt8(ascii: "t")):
            (name, key) = bytes[start + 1] == UInt8(ascii: "y") ? ("type", .type) : ("time", .time)
        case (4, UInt8(ascii: "f")): (name, key) = ("felt", .felt)
        case (5, UInt8(ascii: "p")): (name, key) = ("place", .place)
        case (5, UInt8(ascii: "a")): (name, key) = ("alert", .alert)
        case (5, UInt8(ascii: "t")): (name, key) = ("title", .title)
        case (6, UInt8(ascii: "s")): (name, key) = ("status", .status)
        case (7, UInt8(ascii: "u")): (name, key) = ("updated", .updated)
        case (7, UInt8(ascii: "t")): (name, key) = ("tsunami", .tsunami)
        case (7, UInt8(ascii: "m")): (name, key) = ("magType", .magType)
        case (8, UInt8(ascii: "m")): (name, key) = ("metadata", .metadata)
        case (8, UInt8(ascii: "f")): (name, key) = ("features", .features)
        case (8, UInt8(ascii: "g")): (name, key) = ("geometry", .geometry)
        case (9, UInt8(ascii: "g")): (name, key) = ("generated", .generated)
        case (10, UInt8(ascii: "p")): (name, key) = ("properties", .properties)
        case (11, UInt8(ascii: "c")): (name, key) = ("coordinates", .coordinates)
        default: return .other
        }
        let expected = name.utf8Start
        for k in 1..<n where bytes[start + k] != expected[k] { return .other }
        return key
    }

    /// Calls `body` for each member of the object at the cursor, with the cursor on the member's value.
    private mutating func object(_ body: (inout USGSFeedScanner, Key) throws -> Void) throws {
        try enter()
        i += 1 // {
        skipSpace()
        if peek() == UInt8(ascii: "}") { i += 1; depth -= 1; return }
        while true {
            skipSpace()
            guard peek() == UInt8(ascii: "\"") else { throw SyntaxError() }
            let name: Key
            if let raw = try rawString() {
                name = key(raw.start, raw.end)
            } else {
                name = .other // a key with escapes is none of ours
            }
            skipSpace()
            guard peek() == UInt8(ascii: ":") else { throw SyntaxError() }
            i += 1
            skipSpace()
            try body(&self, name)
            skipSpace()
            switch peek() {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "}"): i += 1; depth -= 1; return
            default: throw SyntaxError()
            }
        }
    }

    /// Calls `body` for each element of the array at the cursor, with the cursor on the element.
    private mutating func array(_ body: (inout USGSFeedScanner) throws -> Void) throws {
        try enter()
        i += 1 // [
        skipSpace()
        if peek() == UInt8(ascii: "]") { i += 1; depth -= 1; return }
        while true {
            skipSpace()
            try body(&self)
            skipSpace()
            switch peek() {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"): i += 1; depth -= 1; return
            default: throw SyntaxError()
            }
        }
    }

    private mutating func enter() throws {
        depth += 1
        guard depth <= Self.maxDepth else { throw SyntaxError() }
    }

    // MARK: Values

    private func peek() -> UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    /// Steps over any value.
    private mutating func skipValue() throws {
        skipSpace()
        switch peek() {
        case UInt8(ascii: "{"): try object { scanner, _ in try scanner.skipValue() }
        case UInt8(ascii: "["): try array { scanner in try scanner.skipValue() }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try number()
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw SyntaxError() }
        let w = word.utf8Start
        for k in 0..<n where bytes[i + k] != w[k] { throw SyntaxError() }
        i += n
    }

    /// True (and past it) when the value at the cursor is `null`.
    private mutating func null() throws -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    private enum NumberOrOther { case number(Double), null, other }

    private mutating func numberOrOther() throws -> NumberOrOther {
        switch peek() ?? 0 {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: try skipValue(); return .other
        }
    }

    /// A string, or nil (and stepped over) when the value is something else.
    private mutating func stringOrOther() throws -> String? {
        guard peek() == UInt8(ascii: "\"") else { try skipValue(); return nil }
        return try string()
    }

    /// The bytes between the quotes when the string has no escapes (the cursor then past it); nil,
    /// with the cursor past the string, when it has some.
    private mutating func rawString() throws -> (start: Int, end: Int)? {
        let start = i + 1
        var k = start
        while k < bytes.count {
            let b = bytes[k]
            if b == UInt8(ascii: "\"") { i = k + 1; return (start, k) }
            if b == UInt8(ascii: "\\") { _ = try string(); return nil }
            if b < 0x20 { throw SyntaxError() }
            k += 1
        }
        throw SyntaxError()
    }

    /// Steps over a string, checking it as `string()` would.
    private mutating func skipString() throws {
        var k = i + 1
        while k < bytes.count {
            let b = bytes[k]
            if b == UInt8(ascii: "\"") { i = k + 1; return }
            if b == UInt8(ascii: "\\") { _ = try string(); return }
            if b < 0x20 { throw SyntaxError() }
            k += 1
        }
        throw SyntaxError()
    }

    private mutating func string() throws -> String {
        try JSONLexeme.string(bytes, at: &i)
    }

    private mutating func number() throws -> Double {
        try JSONLexeme.number(bytes, at: &i)
    }

}
