import NimbusDomain

/// Shared limits of list columns.
public enum ListColumns {
    /// The widest a name or title column grows: past it a wide terminal keeps the data next to
    /// the names (as htop does) instead of pushing it to the far right.
    public static let nameCap = 60

    /// Gives `spare` columns to `widths` in turn, one at a time, each column only while it is shown
    /// (above 0) and under its cap; returns what no column could take.
    @discardableResult
    public static func spread(_ spare: Int, over widths: inout [Int], caps: [Int]) -> Int {
        var left = max(0, spare)
        while left > 0 {
            var gave = false
            for i in widths.indices where left > 0 && widths[i] > 0 && widths[i] < caps[i] {
                widths[i] += 1
                left -= 1
                gave = true
            }
            if !gave { break }
        }
        return left
    }
}

/// The film list's columns for a width: the title takes what the others leave, up to `nameCap`; the
/// year, genres and director come first, then (from 110 columns) rating and runtime, then (from 130)
/// countries; width past the title's cap widens genres, director and countries, each to a cap.
public struct MovieColumns: Equatable, Sendable {
    public let title: Int, year: Int, genres: Int, director: Int, rating: Int, runtime: Int, countries: Int

    /// `sortedBy`: the column the list is ordered by is shown at every width that shows a data column
    /// (from 30), so a list sorted by rating says the ratings it is sorted by.
    public init(width: Int, sortedBy sort: MovieSort = .relevance) {
        let width = max(0, width)
        year = width >= 30 ? 6 : 0
        var grow = [width >= 46 ? min(24, width / 5) : 0,    // genres
                    width >= 60 ? min(24, width / 5) : 0,    // director
                    width >= 130 ? 16 : 0]                    // countries
        rating = width >= 110 || (sort == .rating && width >= 30) ? 7 : 0
        runtime = width >= 110 ? 10 : 0
        let fixed = year + rating + runtime + grow.reduce(0, +)
        title = min(ListColumns.nameCap, max(0, width - fixed - 3))
        ListColumns.spread(width - 2 - title - fixed, over: &grow, caps: [40, 32, 36])
        genres = grow[0]
        director = grow[1]
        countries = grow[2]
    }

    /// Every column's width after the two mark cells, in drawing order.
    public var total: Int { 2 + title + year + genres + director + rating + runtime + countries }
}

/// The wishlist's columns for a width: title (up to `nameCap`), year, director, date added, and from
/// 100 columns genres; width past the title's cap widens director and genres, each to a cap.
public struct WishlistColumns: Equatable, Sendable {
    public let title: Int, year: Int, director: Int, genres: Int, added: Int

    public init(width: Int) {
        let width = max(0, width)
        year = width >= 30 ? 6 : 0
        added = width >= 56 ? 14 : 0
        var grow = [width >= 64 ? min(24, width / 4) : 0,   // director
                    width >= 100 ? 16 : 0]                   // genres (before the title reaches its cap)
        let fixed = year + added + grow.reduce(0, +)
        title = min(ListColumns.nameCap, max(0, width - fixed - 2))
        ListColumns.spread(width - 2 - title - fixed, over: &grow, caps: [32, 40])
        director = grow[0]
        genres = grow[1]
    }

    public var total: Int { 2 + title + year + director + genres + added }
}
