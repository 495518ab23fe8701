import Foundation
import NimbusDomain

/// One choice of a filter picker: its label in the UI language and the whole filter it makes.
public struct MovieFilterOption: Equatable, Sendable {
    public let label: String
    public let filter: MovieFilter

    public init(label: String, filter: MovieFilter) {
        self.label = label
        self.filter = filter
    }
}

/// The genre, years and sort pickers in the UI language: their titles, the years picker's prompt, the
/// options for the filter in force, and what the years picker takes as typed ("1994", "1990-1995").
public enum MovieFilterOptions {
    /// The decades the years picker lists, newest first (the bundled catalogue's are 1940 to 2014).
    public static let decades: [ClosedRange<Int>] = stride(from: 2010, through: 1940, by: -10).map { $0...($0 + 9) }

    /// The most a years picker takes typed ("1990-1995" and a little more).
    public static let typedLimit = 9

    /// `kind`'s options for `current`, each the whole filter it would make, and the one to select: the
    /// filter in force, or (years) the range typed, which comes first. With TMDB a typed range is
    /// offered only when it is one year, and no decades are listed (its search takes one year).
    public static func options(_ kind: MovieChip.Kind, current: MovieFilter, typed: String = "",
                               support: MovieFilterSupport, l10n: L10n) -> (options: [MovieFilterOption], selected: Int) {
        func with(genre: String?) -> MovieFilter { MovieFilter(genre: genre, years: current.years, sort: current.sort) }
        func with(years: ClosedRange<Int>?) -> MovieFilter { MovieFilter(genre: current.genre, years: years, sort: current.sort) }
        var options: [MovieFilterOption] = []
        var selected = 0
        switch kind {
        case .genre:
            options.append(MovieFilterOption(label: l10n[.moviesFilterGenreAny], filter: with(genre: nil)))
            // In the UI language's order.
            let genres = MovieGenres.catalogue.map { (name: $0, label: l10n.genre($0)) }
                .sorted { $0.label.localizedStandardCompare($1.label) == .orderedAscending }
            for genre in genres {
                if genre.name == current.genre { selected = options.count }
                options.append(MovieFilterOption(label: genre.label, filter: with(genre: genre.name)))
            }
        case .years:
            if let range = yearRange(typed), support.yearRange || range.count == 1 {
                options.append(MovieFilterOption(label: l10n.years(range), filter: with(years: range)))
            }
            options.append(MovieFilterOption(label: l10n[.moviesFilterYearsAny], filter: with(years: nil)))
            if support.yearRange {
                for decade in decades {
                    if decade == current.years && typed.isEmpty { selected = options.count }
                    options.append(MovieFilterOption(label: l10n.years(decade), filter: with(years: decade)))
                }
            }
        case .sort:
            for sort in MovieSort.allCases {
                if sort == current.sort { selected = options.count }
                options.append(MovieFilterOption(label: l10n.sortName(sort),
                                                 filter: MovieFilter(genre: current.genre, years: current.years, sort: sort)))
            }
        }
        return (options, typed.isEmpty ? selected : 0)
    }

    /// The picker's title ("Genre", "Years", "Sort by").
    public static func title(_ kind: MovieChip.Kind, l10n: L10n) -> String {
        switch kind {
        case .genre: return l10n[.moviesFilterGenreTitle]
        case .years: return l10n[.moviesFilterYearsTitle]
        case .sort: return l10n[.moviesFilterSortTitle]
        }
    }

    /// The years picker's first line: what to type (a range, or TMDB's one year), else what is typed.
    public static func prompt(_ kind: MovieChip.Kind, typed: String, support: MovieFilterSupport, l10n: L10n) -> String? {
        guard kind == .years else { return nil }
        guard typed.isEmpty else { return "› " + typed + "▏" }
        return l10n[support.yearRange ? .moviesFilterYearsPrompt : .moviesFilterYearsTmdb]
    }

    /// Whether the years picker takes `c` as typed: ASCII digits and a dash.
    public static func isYearCharacter(_ c: Character) -> Bool {
        (c.isASCII && c.isNumber) || "-–".contains(c)
    }

    /// "1994", "1990-1995" (either order, any dash) as a range of years a film can have; else nil.
    public static func yearRange(_ text: String) -> ClosedRange<Int>? {
        // An unfinished range ("1990-") is not a year yet.
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { "-–—~".contains($0) }).map(String.init)
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0.count == 4 && $0.allSatisfy(\.isASCII) }),
              let a = Int(parts[0]), let b = Int(parts[parts.count - 1]), (1870...2100).contains(a), (1870...2100).contains(b)
        else { return nil }
        return min(a, b)...max(a, b)
    }
}
