import Foundation

/// Every name of one city folded into search tokens, so that a result row finds the name its
/// query matched by comparing bytes. Made once per city and kept in `FoldedNamesCache`.
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

    /// Folds every name of `blob` (names separated by 0x1F, the canonical one first).
    init(blob: UnsafeRawBufferPointer, scratch: inout FoldedTokens) {
        var start = 0
        repeat {
            let end = Self.nameEnd(in: blob, from: start)
            let name = UnsafeRawBufferPointer(rebasing: blob[start..<end])
            NameFolding.fold(utf8: name, into: &scratch)
            let firstToken = tokenEnds.count
            for t in 0..<scratch.count {
                tokenBytes += scratch.token(t)
                tokenEnds.append(tokenBytes.count)
            }
            let scalars = name.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
            names.append(Name(bytes: start..<end, tokens: firstToken..<tokenEnds.count, scalars: scalars))
            start = end + 1
        } while start < blob.count
    }

    /// The alternate `query` matched, as an index into `names`: nil when the canonical name
    /// matches (or nothing does); otherwise the shortest matching alternate, which is the one in
    /// the query's own script and form ("서울" over "서울특별시").
    func matchedAlternate(_ query: FoldedTokens) -> Int? {
        guard !names.isEmpty, !name(0, matches: query) else { return nil }
        var best: Int?
        for k in names.indices.dropFirst() where best.map({ names[k].scalars < names[$0].scalars }) ?? true {
            if name(k, matches: query) { best = k }
        }
        return best
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

    /// Where the name starting at `start` ends: the next 0x1F separator, or the end of the blob.
    static func nameEnd(in blob: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard start < blob.count, let base = blob.baseAddress,
              let hit = memchr(base + start, 0x1F, blob.count - start) else { return blob.count }
        return UnsafeRawPointer(hit) - base
    }
}

/// Folded names of the most populous cities: made in the background at start-up, or on first use.
final class FoldedNamesCache: @unchecked Sendable {
    /// Cities below this catalogue index are kept; catalogues are in population order.
    static let keptCities = 1_500

    private let lock = NSLock()
    private var kept: [Int: FoldedNames] = [:]
    private var scratch = FoldedTokens()

    /// The folded names of the city at `index`, whose names blob `blob` gives, made on first use;
    /// nil for a city beyond the kept ones.
    func names(_ index: Int, blob: () -> UnsafeRawBufferPointer) -> FoldedNames? {
        guard index < Self.keptCities else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let hit = kept[index] { return hit }
        let made = FoldedNames(blob: blob(), scratch: &scratch)
        kept[index] = made
        return made
    }
}
