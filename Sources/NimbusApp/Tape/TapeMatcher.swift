import Foundation
import NimbusTerminal
import Synchronization

extension Tape {
    /// What an `Expect` line looks for: a text, or a regular expression (`/Seoul|서울/`, `/m[0-9]\.[0-9]/i`).
    public enum Matcher: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        case text(String)
        /// Swift `Regex` syntax; `^` and `$` match at each line of the screen, `.` never a newline.
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
                _ = try Regex(pattern)
                return nil
            } catch {
                return "/\(pattern)/ is not a regular expression: \(error)"
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

/// Finds a tape's texts and patterns on a screen. A pattern is compiled once, and matched on a
/// worker with a deadline: a pattern that backtracks without end (`/(a+)+b/`) fails its line after
/// two seconds instead of hanging the run.
@MainActor
final class ScreenSearch {
    private var compiled: [Tape.Matcher: Regex<AnyRegexOutput>] = [:]
    /// How long one match may take (wall time).
    static let deadline: DispatchTimeInterval = .seconds(2)

    struct TooSlow: Error, CustomStringConvertible {
        let matcher: Tape.Matcher
        var description: String {
            "\(matcher) took over 2 s to match one screen (a pattern that backtracks without end?)"
        }
    }

    /// Whether `text` (a whole screen, rows joined by newlines) shows `matcher`.
    func isShown(_ matcher: Tape.Matcher, in text: String) throws -> Bool {
        switch matcher {
        case .text(let needle): return text.contains(needle)
        case .pattern:
            nonisolated(unsafe) let regex = try regex(matcher) // immutable once compiled
            return try Self.withDeadline(matcher) { (try? regex.firstMatch(in: text)) != nil }
        }
    }

    /// The character ranges of `row` where `matcher` shows.
    func ranges(of matcher: Tape.Matcher, in row: ScreenRow) throws -> [Range<Int>] {
        switch matcher {
        case .text(let needle): return row.ranges(of: needle)
        case .pattern:
            nonisolated(unsafe) let regex = try regex(matcher) // immutable once compiled
            let text = row.text
            let count = row.characters.count
            return try Self.withDeadline(matcher) {
                text.matches(of: regex).compactMap { match -> Range<Int>? in
                    let lower = text.distance(from: text.startIndex, to: match.range.lowerBound)
                    let upper = text.distance(from: text.startIndex, to: match.range.upperBound)
                    return lower < upper && upper <= count ? lower..<upper : nil
                }
            }
        }
    }

    private func regex(_ matcher: Tape.Matcher) throws -> Regex<AnyRegexOutput> {
        if let known = compiled[matcher] { return known }
        guard case .pattern(let pattern, let ignoringCase) = matcher else { preconditionFailure("not a pattern") }
        var regex = try Regex(pattern).anchorsMatchLineEndings()
        if ignoringCase { regex = regex.ignoresCase() }
        compiled[matcher] = regex
        return regex
    }

    /// Runs `work` on a worker thread; throws `TooSlow` when it has not finished by the deadline (the
    /// worker is then left to finish on its own: Swift's regex matching can't be interrupted).
    private static func withDeadline<T: Sendable>(_ matcher: Tape.Matcher, _ work: @escaping @Sendable () -> T) throws -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global(qos: .userInitiated).async {
            let value = work()
            result.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: .now() + deadline) == .success, let value = result.withLock({ $0 }) else {
            throw TooSlow(matcher: matcher)
        }
        return value
    }
}
