import Foundation

/// Whether a person named in a film's credits (its cast or directors, one ", "-joined list each, as
/// the catalogue stores them) is the person a query names.
///
/// A name is compared as its folded words (`MovieCatalogue.words`: lowercased, accents removed, split
/// at anything not a letter or digit), in any order, so `hanks tom` is Tom Hanks and `joon ho bong`
/// is Bong Joon-ho (a name is written family name first in one language and last in another).
/// A name *holds* a query when every query word is one of its words (the last one typed may be the
/// start of one, as a search follows typing); it *is* the query when, besides, its words are exactly
/// the query's (`tom hanks`: Tom Hanks, not Tom Hanks Jr. nor Tom Hanksley).
enum CreditNames {
    /// The folded words of a query, as credit names are compared with them (at most 12, as the search).
    struct Query {
        let words: [[UInt8]]
        /// The last word may be the start of a name's word (it is being typed); else it is a whole word.
        let lastIsPrefix: Bool
        /// The words sorted, for comparing with a name's sorted words.
        let sorted: [[UInt8]]
        /// Every word's bit set.
        let all: UInt16

        init(_ words: [[UInt8]], lastIsPrefix: Bool = true) {
            self.words = Array(words.prefix(12))
            self.lastIsPrefix = lastIsPrefix
            sorted = self.words.sorted { $0.lexicographicallyPrecedes($1) }
            all = UInt16((1 << self.words.count) - 1)
        }
    }

    /// How the best name of a list meets a query.
    enum Meeting: Comparable {
        /// No name holds every query word.
        case unmet
        /// A name holds every query word (the last one perhaps as a prefix).
        case holds
        /// A name's words are exactly the query's.
        case `is`
    }

    /// The best meeting of any name in a ", "-joined list with `query`.
    static func best(in list: UnsafeRawBufferPointer, _ query: Query) -> Meeting {
        guard !query.words.isEmpty else { return .unmet }
        var best = Meeting.unmet
        var start = 0
        let n = list.count
        while start < n {
            var end = start
            while end < n && !(list[end] == 0x2C && end + 1 < n && list[end + 1] == 0x20) { end += 1 }
            let meeting = self.meeting(UnsafeRawBufferPointer(rebasing: list[start..<end]), query)
            if meeting == .is { return .is }
            best = max(best, meeting)
            start = end + 2
        }
        return best
    }

    /// The best meeting of any name in a ", "-joined list with `query` (tests, and lists not in SQLite).
    static func best(in list: String, _ query: Query) -> Meeting {
        var list = list
        return list.withUTF8 { best(in: UnsafeRawBufferPointer($0), query) }
    }

    /// How one name meets `query`. An ASCII name is compared byte by byte without making strings (a
    /// keystroke may compare thousands); any other is folded into words first.
    static func meeting(_ name: UnsafeRawBufferPointer, _ query: Query) -> Meeting {
        if let meeting = asciiMeeting(name, query) { return meeting }
        return foldedMeeting(MovieCatalogue.words(String(decoding: name, as: UTF8.self)).map { Array($0.utf8) }, query)
    }

    /// How a name of folded words meets `query` (the reference for `asciiMeeting`).
    static func foldedMeeting(_ words: [[UInt8]], _ query: Query) -> Meeting {
        var found: UInt16 = 0
        for word in words {
            found |= bits(word[...], query)
        }
        guard found == query.all else { return .unmet }
        return words.count == query.words.count && words.sorted(by: { $0.lexicographicallyPrecedes($1) }) == query.sorted
            ? .is : .holds
    }

    /// The bits of the query words `word` meets: equal to it, or, for a last word being typed, its start.
    private static func bits(_ word: ArraySlice<UInt8>, _ query: Query) -> UInt16 {
        var found: UInt16 = 0
        let last = query.lastIsPrefix ? query.words.count - 1 : -1
        for (i, q) in query.words.enumerated() where i == last ? word.starts(with: q) : word.elementsEqual(q) {
            found |= 1 << i
        }
        return found
    }

    @inline(__always)
    private static func folded(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    @inline(__always)
    private static func isWordByte(_ lower: UInt8) -> Bool { (lower >= 0x61 && lower <= 0x7A) || (lower >= 0x30 && lower <= 0x39) }

    /// `foldedMeeting` of an ASCII name's words, compared in place; nil for a name with other characters.
    static func asciiMeeting(_ name: UnsafeRawBufferPointer, _ query: Query) -> Meeting? {
        var found: UInt16 = 0
        var count = 0
        let n = name.count, last = query.lastIsPrefix ? query.words.count - 1 : -1
        var i = 0
        while i < n {
            guard name[i] < 0x80 else { return nil }
            guard isWordByte(folded(name[i])) else { i += 1; continue }
            var end = i
            while end < n && name[end] < 0x80 && isWordByte(folded(name[end])) { end += 1 }
            if end < n && name[end] >= 0x80 { return nil }
            for (k, q) in query.words.enumerated() where k == last ? end - i >= q.count : end - i == q.count {
                var same = true
                for j in 0..<q.count where folded(name[i + j]) != q[j] { same = false; break }
                if same { found |= 1 << k }
            }
            count += 1
            i = end
        }
        guard found == query.all else { return .unmet }
        guard count == query.words.count else { return .holds }
        // Every query word is met and there are as many words: the name is the query when its sorted
        // words are the query's (rare enough to make them).
        let words = name.split(whereSeparator: { !isWordByte(folded($0)) }).map { $0.map(folded) }
        return words.sorted(by: { $0.lexicographicallyPrecedes($1) }) == query.sorted ? .is : .holds
    }
}
