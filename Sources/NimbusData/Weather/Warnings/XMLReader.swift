import Foundation

/// A small XML reader for the feeds warnings come in (Atom, CAP 1.2): elements, attributes, text,
/// CDATA and the five predefined and numeric character references. Comments and processing
/// instructions are skipped. A document type declaration is refused (no DTD, so no entity can
/// expand), and so is anything past the limits: depth, elements, text. Names are kept without their
/// namespace prefix (`cap:event` is `event`): the feeds use the prefixes inconsistently (MeteoAlarm's
/// Atom puts `valueName` in Atom's namespace inside `cap:geocode`).
///
/// Not `FoundationXML`: it would bring libxml2 into a statically linked binary, and a DTD with it.
struct XMLReader {
    struct SyntaxError: Error, Equatable {
        let reason: String
    }

    /// An element: its local name, attributes (local names), text (concatenated, references
    /// resolved) and children.
    final class Element {
        let name: String
        var attributes: Attributes
        var text = ""
        var children: [Element] = []

        init(name: String, attributes: Attributes) {
            self.name = name
            self.attributes = attributes
        }

        /// The first child named `name`.
        func child(_ name: String) -> Element? { children.first { $0.name == name } }

        /// Every child named `name`.
        func children(_ name: String) -> [Element] { children.filter { $0.name == name } }

        /// The text of the first child named `name`.
        func text(of name: String) -> String? { child(name)?.text }
    }

    /// An element's attributes by local name, in document order (a list: a feed's elements have
    /// one to three, and a dictionary each cost a hundred bytes and more).
    struct Attributes: Equatable {
        fileprivate(set) var pairs: [(name: String, value: String)] = []

        subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

        static func == (a: Attributes, b: Attributes) -> Bool {
            a.pairs.count == b.pairs.count && zip(a.pairs, b.pairs).allSatisfy { $0.name == $1.name && $0.value == $1.value }
        }
    }

    /// What a document may hold, whatever its size: each bounds the memory its reading takes
    /// (`WarningsPeakMemoryTests`: a 16 MB feed of twelve-attribute elements took 187 MB before
    /// attributes were counted).
    struct Limits {
        var depth = 64
        var elements = 200_000
        /// Attributes in the whole document (a storm's feed has about ten thousand).
        var attributes = 50_000
        /// Characters of text and attribute values in the whole document.
        var text = 32 << 20
    }

    /// The root element of `data`; throws on anything that is not a well-formed document within `limits`.
    static func parse(_ data: Data, limits: Limits = Limits()) throws -> Element {
        try data.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self), limits: limits)
            return try reader.document()
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let limits: Limits
        var i = 0
        var elements = 0
        var attributeCount = 0
        var textBudget: Int

        init(bytes: UnsafeBufferPointer<UInt8>, limits: Limits) {
            self.bytes = bytes
            self.limits = limits
            textBudget = limits.text
        }

        func fail(_ reason: String) -> SyntaxError { SyntaxError(reason: reason) }

        mutating func document() throws -> Element {
            // A UTF-8 byte order mark.
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
            var root: Element?
            while true {
                skipSpace()
                guard i < bytes.count else { break }
                guard bytes[i] == UInt8(ascii: "<") else { throw fail("text outside the root") }
                if try skipMarkup() { continue }
                guard root == nil else { throw fail("a second root") }
                root = try element(depth: 1)
            }
            guard let root else { throw fail("no root element") }
            return root
        }

        /// Skips a comment, processing instruction or declaration at `i`; true when there was one.
        mutating func skipMarkup() throws -> Bool {
            if starts("<?") {
                guard let end = find("?>", from: i + 2) else { throw fail("unterminated processing instruction") }
                i = end + 2
                return true
            }
            if starts("<!--") {
                guard let end = find("-->", from: i + 4) else { throw fail("unterminated comment") }
                i = end + 3
                return true
            }
            if starts("<!") && !starts("<![CDATA[") { throw fail("declarations (DOCTYPE) are not accepted") }
            return false
        }

        mutating func element(depth: Int) throws -> Element {
            guard depth <= limits.depth else { throw fail("nested too deep") }
            elements += 1
            guard elements <= limits.elements else { throw fail("too many elements") }
            i += 1 // <
            let qname = try name()
            var attributes = Attributes()
            while true {
                skipSpace()
                guard i < bytes.count else { throw fail("unterminated tag") }
                if bytes[i] == UInt8(ascii: "/") {
                    guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: ">") else { throw fail("bad empty tag") }
                    i += 2
                    return Element(name: Self.local(qname), attributes: attributes)
                }
                if bytes[i] == UInt8(ascii: ">") { i += 1; break }
                let attribute = try name()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { throw fail("attribute without a value") }
                i += 1
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
                    throw fail("unquoted attribute")
                }
                let quote = bytes[i]
                i += 1
                let start = i
                while i < bytes.count, bytes[i] != quote {
                    guard bytes[i] != UInt8(ascii: "<") else { throw fail("< in an attribute") }
                    i += 1
                }
                guard i < bytes.count else { throw fail("unterminated attribute") }
                let value = try resolve(start..<i)
                i += 1
                attributeCount += 1
                guard attributeCount <= limits.attributes else { throw fail("too many attributes") }
                let local = Self.local(attribute)
                if !attribute.hasPrefix("xmlns"), attributes[local] == nil { attributes.pairs.append((local, value)) }
            }
            let element = Element(name: Self.local(qname), attributes: attributes)
            var text = ""
            while true {
                guard i < bytes.count else { throw fail("unterminated element \(Self.local(qname))") }
                if bytes[i] == UInt8(ascii: "<") {
                    if starts("</") {
                        i += 2
                        let closing = try name()
                        guard closing == qname else { throw fail("mismatched closing tag") }
                        skipSpace()
                        guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else { throw fail("bad closing tag") }
                        i += 1
                        element.text = text
                        return element
                    }
                    if starts("<![CDATA[") {
                        guard let end = find("]]>", from: i + 9) else { throw fail("unterminated CDATA") }
                        text += try chunk(i + 9..<end)
                        i = end + 3
                        continue
                    }
                    if try skipMarkup() { continue }
                    element.children.append(try self.element(depth: depth + 1))
                } else {
                    let start = i
                    var blank = true
                    while i < bytes.count, bytes[i] != UInt8(ascii: "<") {
                        let c = bytes[i]
                        if blank && !(c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D) { blank = false }
                        i += 1
                    }
                    // Indentation between child elements is no one's text.
                    if blank && !element.children.isEmpty { continue }
                    text += try resolve(start..<i)
                }
            }
        }

        /// The text of `range` as UTF-8 (invalid bytes become U+FFFD), charged to the budget.
        mutating func chunk(_ range: Range<Int>) throws -> String {
            textBudget -= range.count
            guard textBudget >= 0 else { throw fail("too much text") }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }

        /// `chunk` with character references resolved.
        mutating func resolve(_ range: Range<Int>) throws -> String {
            let raw = try chunk(range)
            guard raw.contains("&") else { return raw }
            var out = ""
            var rest = Substring(raw)
            while let amp = rest.firstIndex(of: "&") {
                out += rest[..<amp]
                guard let semi = rest[amp...].prefix(12).firstIndex(of: ";") else { throw fail("bad reference") }
                let ref = rest[rest.index(after: amp)..<semi]
                switch ref {
                case "amp": out += "&"
                case "lt": out += "<"
                case "gt": out += ">"
                case "quot": out += "\""
                case "apos": out += "'"
                default:
                    let number: UInt32?
                    if ref.hasPrefix("#x") || ref.hasPrefix("#X") {
                        number = UInt32(ref.dropFirst(2), radix: 16)
                    } else if ref.hasPrefix("#") {
                        number = UInt32(ref.dropFirst(), radix: 10)
                    } else {
                        throw fail("unknown entity")
                    }
                    guard let number, let scalar = Unicode.Scalar(number), number != 0 else { throw fail("bad character reference") }
                    out.unicodeScalars.append(scalar)
                }
                rest = rest[rest.index(after: semi)...]
            }
            return out + rest
        }

        mutating func name() throws -> String {
            let start = i
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: " ") || c == 0x09 || c == 0x0A || c == 0x0D || c == UInt8(ascii: ">")
                    || c == UInt8(ascii: "/") || c == UInt8(ascii: "=") || c == UInt8(ascii: "<") { break }
                i += 1
                guard i - start <= 200 else { throw fail("name too long") }
            }
            guard i > start else { throw fail("missing name") }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
        }

        func starts(_ s: StaticString) -> Bool {
            let n = s.utf8CodeUnitCount
            guard i + n <= bytes.count else { return false }
            let p = s.utf8Start
            for k in 0..<n where bytes[i + k] != p[k] { return false }
            return true
        }

        func find(_ s: StaticString, from: Int) -> Int? {
            let n = s.utf8CodeUnitCount
            let p = s.utf8Start
            var j = from
            while j + n <= bytes.count {
                if bytes[j] == p[0] {
                    var k = 1
                    while k < n, bytes[j + k] == p[k] { k += 1 }
                    if k == n { return j }
                }
                j += 1
            }
            return nil
        }

        static func local(_ name: String) -> String {
            guard let colon = name.lastIndex(of: ":") else { return name }
            return String(name[name.index(after: colon)...])
        }
    }
}
