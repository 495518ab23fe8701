import Foundation
import NimbusTerminal

extension Tape {
    /// What an `Expect` line looks for: a text, or a regular expression (`/Seoul|서울/`, `/m[0-9]\.[0-9]/i`).
    public enum Matcher: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        case text(String)
        /// ICU regular expression syntax (`NSRegularExpression`); `^` and `$` match at each line of the
        /// screen, `.` never a newline.
        case pattern(String, ignoringCase: Bool)

        public init(stringLiteral value: String) { self = .text(value) }

        /// The longest pattern a tape may give.
        static let maxPatternLength = 1000

        /// Why the pattern can't be used; nil for a text and for a pattern that compiles.
        var problem: String? {
            guard case .pattern(let pattern, _) = self else { return nil }
            guard pattern.count <= Self.maxPatternLength else { return "a /regular expression/ of at most 1000 characters" }
            guard !pattern.isEmpty else { return "an empty /regular expression/ matches every screen" }
            do {
                _ = try NSRegularExpression(pattern: pattern)
                return nil
            } catch {
                return "/\(pattern)/ is not a regular expression"
            }
        }

        public var description: String {
            switch self {
            case .text(let text): return "\"\(text)\""
            case .pattern(let pattern, let ignoringCase): return "/\(pattern)/" + (ignoringCase ? "i" : "")
            }
        }
    }
}

/// Finds a tape's texts and patterns on a screen. A pattern is compiled once, and matched on the
/// runner's own thread by ICU, which asks between steps whether to go on: a match is stopped where
/// it stands when it passes its deadline (two seconds; `/(a+)+b/` backtracks without end), and all
/// the matching one tape does is held to `budget` (an `Expect` matches again at every frame for up
/// to five virtual seconds, so a pattern just under the deadline would otherwise cost minutes). No
/// match goes on running after its line has failed.
@MainActor
final class ScreenSearch {
    private var compiled: [Tape.Matcher: NSRegularExpression] = [:]
    /// How long one match may take (wall time, seconds).
    nonisolated static let deadline: TimeInterval = 2
    /// How long all the matches of one tape may take together (wall time, seconds).
    nonisolated static let budget: TimeInterval = 5

    private let deadline: TimeInterval
    private let budget: TimeInterval
    /// Seconds spent matching patterns so far.
    private(set) var spent: TimeInterval = 0
    /// Every match in ICU's hands: entered as it is handed over, left when ICU gives it back, on
    /// whichever thread that is. What shows that a match stopped at its deadline and did not go on
    /// running after its line failed (`TapeRunner.matchesEnded(within:)`).
    private let matching: DispatchGroup

    init(deadline: TimeInterval = ScreenSearch.deadline, budget: TimeInterval = ScreenSearch.budget, matching: DispatchGroup = DispatchGroup()) {
        self.deadline = deadline
        self.budget = budget
        self.matching = matching
    }

    struct TooSlow: Error, CustomStringConvertible {
        let matcher: Tape.Matcher
        /// The tape's budget ran out, rather than this match's own deadline.
        let budgetSpent: Bool
        var description: String {
            budgetSpent
                ? "\(matcher): the tape's patterns took over \(Int(ScreenSearch.budget)) s in all (a pattern that backtracks?)"
                : "\(matcher) took over \(Int(ScreenSearch.deadline)) s to match one screen (a pattern that backtracks without end?)"
        }
    }

    /// Whether `text` (a whole screen, rows joined by newlines) shows `matcher`.
    func isShown(_ matcher: Tape.Matcher, in text: String) throws -> Bool {
        switch matcher {
        case .text(let needle): return text.contains(needle)
        case .pattern: return try !matches(matcher, in: text, first: true).isEmpty
        }
    }

    /// The character ranges of `row` where `matcher` shows.
    func ranges(of matcher: Tape.Matcher, in row: ScreenRow) throws -> [Range<Int>] {
        switch matcher {
        case .text(let needle): return row.ranges(of: needle)
        case .pattern:
            let text = row.text
            let found = try matches(matcher, in: text, first: false)
            guard !found.isEmpty else { return [] }
            // UTF-16 offsets (ICU's) to character offsets (the row's).
            var characterAt: [Int: Int] = [:]
            var utf16 = 0
            for (i, character) in text.enumerated() {
                characterAt[utf16] = i
                utf16 += character.utf16.count
            }
            characterAt[utf16] = text.count
            let count = row.characters.count
            return found.compactMap { range -> Range<Int>? in
                guard let lower = characterAt[range.location], let upper = characterAt[range.location + range.length],
                      lower < upper, upper <= count else { return nil }
                return lower..<upper
            }
        }
    }

    /// The UTF-16 ranges of the matches of `matcher` in `text` (the first only, when `first`),
    /// stopped at the match's deadline or the tape's budget, whichever comes first.
    private func matches(_ matcher: Tape.Matcher, in text: String, first: Bool) throws -> [NSRange] {
        let regex = try regex(matcher)
        let remaining = budget - spent
        guard remaining > 0 else { throw TooSlow(matcher: matcher, budgetSpent: true) }
        let limit = min(deadline, remaining)
        let started = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> TimeInterval { TimeInterval(DispatchTime.now().uptimeNanoseconds - started) / 1e9 }
        var found: [NSRange] = []
        var stopped = false
        // With `.reportProgress` ICU calls back every few thousand steps, inside a match too, and
        // stops where it is when told to.
        matching.enter()
        defer { matching.leave() }
        regex.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(location: 0, length: text.utf16.count)) { match, _, stop in
            if let match {
                found.append(match.range)
                if first { stop.pointee = true }
            } else if elapsed() > limit {
                stopped = true
                stop.pointee = true
            }
        }
        spent += elapsed()
        if stopped { throw TooSlow(matcher: matcher, budgetSpent: limit < deadline) }
        return found
    }

    private func regex(_ matcher: Tape.Matcher) throws -> NSRegularExpression {
        if let known = compiled[matcher] { return known }
        guard case .pattern(let pattern, let ignoringCase) = matcher else { preconditionFailure("not a pattern") }
        let regex = try NSRegularExpression(pattern: pattern, options: ignoringCase ? [.anchorsMatchLines, .caseInsensitive] : [.anchorsMatchLines])
        compiled[matcher] = regex
        return regex
    }
}
