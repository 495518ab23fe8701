import Foundation
import Synchronization

/// Finds which of a city's names a query matched, for its result row: nil when the canonical name
/// or the name the row shows matches (or nothing does), else the shortest matching alternate, which
/// is the one in the query's own script and form ("서울" over "서울특별시").
///
/// A name matches when every folded query word starts a word of it (`NameFolding`). Two fast paths
/// give what folding every name would give (`MatchedNameTests` checks them against that):
/// - the largest cities, whose rows come first for short queries and which have a hundred names and
///   more, keep their names folded (`FoldedNames`, made in the background at start-up);
/// - the others are read in place: an ASCII query skips names that cannot fold to ASCII by their
///   bytes, a Hangul or kana query names with no Hangul or kana lead byte, and an all-ASCII name is
///   compared without folding; only the remaining names are folded.
final class CityNameMatcher: Sendable {
    /// Cities below this catalogue index keep their names folded; catalogues are in population order.
    static let keptCities = 1_500

    private struct Kept {
        var names: [Int: FoldedNames] = [:]
        var scratch = FoldedTokens()
    }
    private let kept = Mutex(Kept())

    /// The last query folded: a frame asks for each of its rows with the same query.
    private let lastQuery = Mutex<(text: String, tokens: FoldedTokens)?>(nil)

    /// The name of city `index` that `query` matched (see the type), given the city's names blob
    /// (UTF-8 names separated by `nameSeparator`, the canonical one first) and the number of the
    /// name its row shows (0: the canonical one).
    func matchedName(_ query: String, city index: Int, names blob: UnsafeRawBufferPointer, shownName: Int = 0) -> String? {
        let queryTokens = foldedQuery(query)
        guard queryTokens.count > 0 else { return nil }
        let matched: Range<Int>?
        if let names = foldedNames(index, blob: blob) {
            matched = names.matchedAlternate(queryTokens, shownName: shownName).map { names.names[$0].bytes }
        } else {
            matched = Self.matchedAlternateInPlace(blob, queryTokens, shownName: shownName)
        }
        return matched.map { String(decoding: UnsafeRawBufferPointer(rebasing: blob[$0]), as: UTF8.self) }
    }

    /// Whether some name of city `index` folds to exactly `query`'s words: the query is one of its
    /// names, whole ("roma" for Roma, one of Rome's). Codes are not names here: GeoNames lists
    /// airport and other codes among the alternates ("LOS" for Lagos), which nobody types for a
    /// city's name, so an alternate of two to four capital letters never counts.
    func hasName(equalTo query: FoldedTokens, city index: Int, names blob: UnsafeRawBufferPointer) -> Bool {
        guard query.count > 0 else { return false }
        if let names = foldedNames(index, blob: blob) {
            // Most candidates have no such name: one look in the names' hashes says so.
            guard names.wholeNames.contains(FoldedNames.hash(query.bytes, ends: query.ends, from: 0)) else { return false }
            return names.names.indices.contains { k in
                names.name(k, equals: query) && !(k > 0 && Self.isCode(UnsafeRawBufferPointer(rebasing: blob[names.names[k].bytes])))
            }
        }
        // Read in place, most names without folding them (as `matchedAlternateInPlace` reads them).
        var tokens = FoldedTokens()
        let asciiQuery = query.bytes.allSatisfy { $0 < UTF8Lead.firstNonASCII }
        let keptQuery = !asciiQuery && String(decoding: query.bytes, as: UTF8.self).unicodeScalars
            .allSatisfy { NameFolding.isKept($0.value) }
        for (k, range) in NameRanges(blob: blob, from: 0).enumerated() {
            let name = UnsafeRawBufferPointer(rebasing: blob[range])
            // Folding shortens a name by its separators, marks and wide forms (three bytes to one),
            // never to a quarter: a much longer name cannot fold to the query.
            if name.count > 4 * (query.bytes.count + query.count) + 8 { continue }
            if k > 0 && Self.isCode(name) { continue }
            if let equal = Self.asciiNameEquals(name, query) {
                if equal { return true }
                continue
            }
            if asciiQuery && !Self.mayFoldToASCII(name) { continue }
            if keptQuery && !name.contains(where: UTF8Lead.mayStartHangulOrKana) { continue }
            NameFolding.fold(utf8: name, into: &tokens)
            if tokens.bytes == query.bytes && tokens.ends == query.ends { return true }
        }
        return false
    }

    /// Whether an all-ASCII name folds to exactly `query`'s tokens, compared in one pass over its
    /// bytes (ASCII folds to lowercase letters and digits split at everything else); nil when a
    /// non-ASCII byte comes first, as the name must then be folded to tell.
    static func asciiNameEquals(_ name: UnsafeRawBufferPointer, _ query: FoldedTokens) -> Bool? {
        var token = 0, k = 0, inWord = false
        var end = query.count > 0 ? query.range(0).upperBound : 0
        var matches = true
        for b in name {
            if b >= UTF8Lead.firstNonASCII { return nil }
            guard matches else { continue }
            let folded = asciiFolded(b)
            if folded == 0 {
                if inWord {
                    // A word ended: it must have been the query's whole token.
                    if k != end { matches = false }
                    token += 1
                    if token < query.count { end = query.range(token).upperBound }
                }
                inWord = false
                continue
            }
            if !inWord {
                if token >= query.count { matches = false; continue }
                k = query.range(token).lowerBound
                inWord = true
            }
            if k >= end || query.bytes[k] != folded { matches = false; continue }
            k += 1
        }
        guard matches else { return false }
        if inWord {
            guard k == end else { return false }
            token += 1
        }
        return token == query.count
    }

    /// Whether a name is a code rather than a name: two to four ASCII capital letters ("LOS", "NYC").
    static func isCode(_ name: UnsafeRawBufferPointer) -> Bool {
        (2...4).contains(name.count) && name.allSatisfy { (0x41...0x5A).contains($0) }
    }

    /// Folds the names of city `index` if it is one of the kept ones and they are not folded yet.
    func foldNames(ofCity index: Int, names blob: UnsafeRawBufferPointer) {
        _ = foldedNames(index, blob: blob)
    }

    /// The folded names of city `index`, made on first use; nil for a city beyond the kept ones.
    private func foldedNames(_ index: Int, blob: UnsafeRawBufferPointer) -> FoldedNames? {
        guard index < Self.keptCities else { return nil }
        return kept.withLock { kept in
            if let hit = kept.names[index] { return hit }
            let made = FoldedNames(blob: blob, scratch: &kept.scratch)
            kept.names[index] = made
            return made
        }
    }

    /// `query` folded, from the last call when the query is the same.
    private func foldedQuery(_ query: String) -> FoldedTokens {
        lastQuery.withLock { lastQuery in
            if let last = lastQuery, last.text == query { return last.tokens }
            var tokens = FoldedTokens()
            NameFolding.fold(query, into: &tokens)
            lastQuery = (query, tokens)
            return tokens
        }
    }

    // MARK: - Names read in place

    /// The byte range of the alternate `query` matched in `blob`, read in place; nil when the
    /// canonical name or name number `shownName` matches, or nothing does.
    static func matchedAlternateInPlace(_ blob: UnsafeRawBufferPointer, _ query: FoldedTokens, shownName: Int = 0) -> Range<Int>? {
        var nameTokens = FoldedTokens()
        let asciiQuery = query.bytes.allSatisfy { $0 < UTF8Lead.firstNonASCII }
        let keptQuery = !asciiQuery && String(decoding: query.bytes, as: UTF8.self).unicodeScalars
            .allSatisfy { NameFolding.isKept($0.value) }
        func matches(_ range: Range<Int>) -> Bool {
            let name = UnsafeRawBufferPointer(rebasing: blob[range])
            if asciiQuery {
                // Romanisations are compared in one pass over their bytes; a name that is not
                // all ASCII is folded only if it can fold to ASCII at all.
                if let ascii = asciiNameMatches(name, query) { return ascii }
                if !mayFoldToASCII(name) { return false }
            } else {
                if keptQuery, !name.contains(where: UTF8Lead.mayStartHangulOrKana) { return false }
                if let ascii = asciiNameMatches(name, query) { return ascii }
            }
            NameFolding.fold(utf8: name, into: &nameTokens)
            return (0..<query.count).allSatisfy { q in
                let prefix = query.token(q)
                return (0..<nameTokens.count).contains { nameTokens.token($0).starts(with: prefix) }
            }
        }
        let canonicalEnd = nameEnd(in: blob, from: 0)
        // Most rows match on their canonical name: check it before looking at the alternates.
        if matches(0..<canonicalEnd) { return nil }
        if shownName > 0 {
            var alternates = NameRanges(blob: blob, from: canonicalEnd + 1)
            var shown: Range<Int>?
            for _ in 0..<shownName { shown = alternates.next() }
            if let shown, matches(shown) { return nil }
        }
        return shortestMatching(NameRanges(blob: blob, from: canonicalEnd + 1),
                                scalars: { scalarCount(UnsafeRawBufferPointer(rebasing: blob[$0])) },
                                matches: matches)
    }

    /// False when a name cannot fold to any ASCII letter or digit: no byte is one, and no UTF-8
    /// sequence starts a scalar in a block where some scalar folds to one (conservative; a test
    /// checks every scalar against `NameFolding`). Kana, CJK, Hangul, Cyrillic, Arabic… names are
    /// skipped by their first two bytes without being decoded.
    static func mayFoldToASCII(_ name: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        let n = name.count
        while i < n {
            let b = name[i]
            let next: UInt8 = i + 1 < n ? name[i + 1] : 0
            switch b {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true // ASCII letters and digits
            case UTF8Lead.u0080...UTF8Lead.u02C0: return true       // U+0080–U+02FF: Latin-1, Latin Extended, IPA, modifiers
            case UTF8Lead.u1000 where (0xB4...0xBB).contains(next): return true // U+1D00–U+1EFF: phonetic, Latin Extended Additional
            case UTF8Lead.u2000 where (0x81...0x86).contains(next) || (0x91...0x93).contains(next) || next == 0xB1:
                return true                // super/subscripts, letterlike, number forms, enclosed, Latin Extended-C
            case UTF8Lead.u3000 where (0x88...0x8F).contains(next): return true // U+3200–U+33FF: enclosed and squared (㎞)
            case UTF8Lead.uA000 where (0x9C...0x9F).contains(next): return true // U+A700–U+A7FF: Latin Extended-D
            case UTF8Lead.uF000 where next == 0xAC || next == 0xBC || next == 0xBD: return true // ligatures, fullwidth ASCII
            case UTF8Lead.u10000 where next == 0x90 || next == 0x9D || next == 0x9F:
                return true                // Latin Extended-F, mathematical and enclosed alphanumerics
            default: break
            }
            i += 1
        }
        return false
    }

    /// Word-prefix match of a name against folded query tokens, reading the name's ASCII bytes in
    /// place (ASCII folds to lowercase letters and digits split at everything else). True as soon
    /// as every token has started a word; false when the name is all ASCII and some token never
    /// did; nil when a non-ASCII byte comes first, as the name must then be folded to tell.
    static func asciiNameMatches(_ name: UnsafeRawBufferPointer, _ query: FoldedTokens) -> Bool? {
        let count = query.count
        guard count > 0 else { return true }
        guard count <= 64 else { return nil }
        let all: UInt64 = count == 64 ? ~0 : (1 << UInt64(count)) - 1
        var found: UInt64 = 0
        let n = name.count
        var inWord = false
        return query.bytes.withUnsafeBufferPointer { tokens -> Bool? in
            for i in 0..<n {
                let b = name[i]
                if b >= UTF8Lead.firstNonASCII { return nil }
                let folded = asciiFolded(b)
                if folded != 0 && !inWord {
                    for q in 0..<count where found & (1 << UInt64(q)) == 0 {
                        let range = query.range(q)
                        var k = range.lowerBound
                        var j = i
                        while k < range.upperBound, j < n, asciiFolded(name[j]) == tokens[k] {
                            k += 1
                            j += 1
                        }
                        if k == range.upperBound { found |= 1 << UInt64(q) }
                    }
                    if found == all { return true }
                }
                inWord = folded != 0
            }
            return false
        }
    }

    /// An ASCII letter or digit as a token byte (lowercase); 0 for anything else.
    @inline(__always)
    private static func asciiFolded(_ b: UInt8) -> UInt8 {
        switch b {
        case 0x41...0x5A: return b | 0x20
        case 0x61...0x7A, 0x30...0x39: return b
        default: return 0
        }
    }

    // MARK: - Shared by both paths

    /// Separates the names in a city's names blob.
    static let nameSeparator: UInt8 = 0x1F

    /// The first of `names` (after the canonical one) that matches and is shorter, in Unicode
    /// scalars, than every other that matches. Lengths are measured only once one matched, and
    /// only longer names' matching is skipped then.
    @inline(__always)
    static func shortestMatching<Names: Sequence>(
        _ names: Names, scalars: (Names.Element) -> Int, matches: (Names.Element) -> Bool
    ) -> Names.Element? {
        var best: (name: Names.Element, scalars: Int)?
        for name in names {
            if let shortest = best?.scalars {
                let length = scalars(name)
                if length < shortest && matches(name) { best = (name, length) }
            } else if matches(name) {
                best = (name, scalars(name))
            }
        }
        return best?.name
    }

    /// The number of Unicode scalars in UTF-8 bytes: the bytes that are not continuation bytes.
    static func scalarCount(_ utf8: UnsafeRawBufferPointer) -> Int {
        utf8.reduce(0) { $0 + (UTF8Lead.isContinuation($1) ? 0 : 1) }
    }

    /// Where the name starting at `start` ends: the next separator, or the end of the blob.
    static func nameEnd(in blob: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard start < blob.count, let base = blob.baseAddress,
              let hit = memchr(base + start, Int32(nameSeparator), blob.count - start) else { return blob.count }
        return UnsafeRawPointer(hit) - base
    }

    /// The byte ranges of the names in a blob from `start` on (an empty name at the very end is none).
    struct NameRanges: Sequence, IteratorProtocol {
        let blob: UnsafeRawBufferPointer
        var start: Int

        init(blob: UnsafeRawBufferPointer, from start: Int) {
            self.blob = blob
            self.start = start
        }

        mutating func next() -> Range<Int>? {
            guard start < blob.count else { return nil }
            let end = CityNameMatcher.nameEnd(in: blob, from: start)
            defer { start = end + 1 }
            return start..<end
        }
    }
}

/// Every name of one city folded into search tokens, so that a result row finds the name its
/// query matched by comparing bytes. Made once per kept city by `CityNameMatcher`.
struct FoldedNames {
    struct Name {
        /// Where the name is in the city's names blob.
        let bytes: Range<Int>
        /// Its tokens, as indices into `tokenEnds`.
        let tokens: Range<Int>
        /// Its length in Unicode scalars (the shortest matching alternate wins).
        let scalars: Int
    }

    private(set) var names: [Name] = []
    private var tokenBytes: [UInt8] = []
    private var tokenEnds: [Int] = []
    /// `hash` of each name's tokens: whether some name is exactly a query, in one look.
    private(set) var wholeNames: Set<UInt64> = []

    /// FNV-1a over the bytes of a name's tokens (`ends`: their end offsets from `from`), each token
    /// closed by a byte that folded tokens never hold.
    static func hash(_ bytes: [UInt8], ends: some Collection<Int>, from start: Int) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        var i = start
        for end in ends {
            while i < end {
                h = (h ^ UInt64(bytes[i])) &* 0x100_0000_01b3
                i += 1
            }
            h = (h ^ 0xFF) &* 0x100_0000_01b3
        }
        return h
    }

    /// Folds every name of `blob` (names separated by `CityNameMatcher.nameSeparator`, the canonical one first).
    init(blob: UnsafeRawBufferPointer, scratch: inout FoldedTokens) {
        var start = 0
        repeat {
            let end = CityNameMatcher.nameEnd(in: blob, from: start)
            let name = UnsafeRawBufferPointer(rebasing: blob[start..<end])
            NameFolding.fold(utf8: name, into: &scratch)
            let firstToken = tokenEnds.count
            for t in 0..<scratch.count {
                tokenBytes += scratch.token(t)
                tokenEnds.append(tokenBytes.count)
            }
            names.append(Name(bytes: start..<end, tokens: firstToken..<tokenEnds.count,
                              scalars: CityNameMatcher.scalarCount(name)))
            wholeNames.insert(Self.hash(scratch.bytes, ends: scratch.ends, from: 0))
            start = end + 1
        } while start < blob.count
    }

    /// The alternate `query` matched, as an index into `names`: nil when the canonical name or
    /// name `shownName` matches (or nothing does); otherwise the shortest matching alternate.
    func matchedAlternate(_ query: FoldedTokens, shownName: Int = 0) -> Int? {
        guard !names.isEmpty, !name(0, matches: query) else { return nil }
        if shownName > 0, shownName < names.count, name(shownName, matches: query) { return nil }
        return CityNameMatcher.shortestMatching(names.indices.dropFirst(), scalars: { names[$0].scalars },
                                                matches: { name($0, matches: query) })
    }

    /// Whether name `k` folds to exactly `query`'s tokens.
    func name(_ k: Int, equals query: FoldedTokens) -> Bool {
        let tokens = names[k].tokens
        guard tokens.count == query.count else { return false }
        for (q, t) in tokens.enumerated() {
            let start = t == 0 ? 0 : tokenEnds[t - 1]
            let range = query.range(q)
            guard tokenEnds[t] - start == range.count,
                  tokenBytes[start..<tokenEnds[t]].elementsEqual(query.bytes[range]) else { return false }
        }
        return true
    }

    /// Whether every query token starts some token of name `k`.
    func name(_ k: Int, matches query: FoldedTokens) -> Bool {
        let tokens = names[k].tokens
        guard !tokens.isEmpty else { return false }
        return tokenBytes.withUnsafeBufferPointer { bytes in
            query.bytes.withUnsafeBufferPointer { queryBytes in
                (0..<query.count).allSatisfy { q in
                    let prefix = query.range(q)
                    let first = queryBytes[prefix.lowerBound]
                    return tokens.contains { t in
                        let start = t == 0 ? 0 : tokenEnds[t - 1]
                        // Most tokens differ in their first byte: no call for those.
                        guard bytes[start] == first, tokenEnds[t] - start >= prefix.count else { return false }
                        return memcmp(bytes.baseAddress! + start, queryBytes.baseAddress! + prefix.lowerBound, prefix.count) == 0
                    }
                }
            }
        }
    }
}

/// UTF-8 bytes by what they start: a sequence's first byte says its length and, for three- and
/// four-byte sequences, the block of 4,096 (or 262,144) scalars it is in.
enum UTF8Lead {
    /// Bytes below this are ASCII, each a scalar of its own.
    static let firstNonASCII: UInt8 = 0x80
    /// The first lead byte of a two-byte sequence (0xC0 and 0xC1 start only overlong forms).
    static let firstOfTwo: UInt8 = 0xC2
    /// The first lead byte of a three-byte sequence (U+0800–U+FFFF).
    static let firstOfThree: UInt8 = 0xE0
    /// The first lead byte of a four-byte sequence (U+10000–U+10FFFF).
    static let firstOfFour: UInt8 = 0xF0
    /// Bytes from here on start no sequence.
    static let pastFour: UInt8 = 0xF8

    /// Two-byte leads: U+0080–U+00BF starts with 0xC2, U+02C0–U+02FF with 0xCB.
    static let u0080: UInt8 = 0xC2
    static let u02C0: UInt8 = 0xCB
    /// Three-byte leads of the blocks U+x000–U+xFFF.
    static let u1000: UInt8 = 0xE1 // Hangul Jamo, phonetic extensions, Latin Extended Additional
    static let u2000: UInt8 = 0xE2 // punctuation, letterlike and number forms, enclosed alphanumerics
    static let u3000: UInt8 = 0xE3 // CJK symbols, kana, Hangul compatibility Jamo, enclosed CJK
    static let uA000: UInt8 = 0xEA // …, Latin Extended-D, Hangul syllables from U+AC00
    static let uD000: UInt8 = 0xED // Hangul syllables to U+D7A3
    static let uF000: UInt8 = 0xEF // ligatures, half- and fullwidth forms
    /// Four-byte lead of U+10000–U+3FFFF.
    static let u10000: UInt8 = 0xF0

    /// Whether `byte` is a continuation byte (10xxxxxx), not the start of a scalar.
    @inline(__always)
    static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

    /// The length of the sequence `lead` starts: 1 for ASCII, 0 when it starts none.
    @inline(__always)
    static func sequenceLength(_ lead: UInt8) -> Int {
        lead >= pastFour ? 0 : lead >= firstOfFour ? 4 : lead >= firstOfThree ? 3 : lead >= firstOfTwo ? 2
            : lead < firstNonASCII ? 1 : 0
    }

    /// Whether `byte` may start a scalar that folds to Hangul or kana (`NameFolding.isKept`: U+1100–11FF,
    /// U+3040–30FF, U+3130–318F, U+AC00–D7A3; half-width katakana and Hangul, U+FF65–FFDC, by NFKD).
    @inline(__always)
    static func mayStartHangulOrKana(_ byte: UInt8) -> Bool {
        switch byte {
        case u1000, u3000, uA000...uD000, uF000: return true
        default: return false
        }
    }
}
