import XCTest
import NimbusDomain
@testable import NimbusUI

/// The film list's and the wishlist's column layouts at every width from 0 to 400 columns: never
/// wider than the terminal, the title never past its cap, the extra width of a wide terminal going to
/// the data columns, and no column shrinking as the terminal widens (except the title, when a new
/// column appears).
final class ListColumnsTests: XCTestCase {
    func testMovieColumnsAtEveryWidth() {
        var previous = MovieColumns(width: 0)
        for width in 0...400 {
            let c = MovieColumns(width: width)
            XCTAssertLessThanOrEqual(c.total, max(width, 2), "width \(width): \(c)")
            XCTAssertLessThanOrEqual(c.title, ListColumns.nameCap)
            if width >= 40 { XCTAssertGreaterThanOrEqual(c.title, 12, "a title stays readable at \(width)") }
            for (now, before) in [(c.year, previous.year), (c.genres, previous.genres), (c.director, previous.director),
                                  (c.rating, previous.rating), (c.runtime, previous.runtime), (c.countries, previous.countries)] {
                XCTAssertGreaterThanOrEqual(now, before, "no data column shrinks as \(width - 1) → \(width) widens")
            }
            if c.title == ListColumns.nameCap, c.genres < 40 || c.director < 32 || c.countries < 36 {
                XCTAssertEqual(c.total, width, "past the title's cap the width goes to the data columns (\(width))")
            }
            previous = c
        }
        XCTAssertEqual(MovieColumns(width: 80), MovieColumns(width: 80))
        XCTAssertEqual(MovieColumns(width: 80).rating, 0, "80 columns: title, year, genres, director")
        XCTAssertEqual(MovieColumns(width: 80).title, 39)
        let wide = MovieColumns(width: 200)
        XCTAssertEqual(wide.title, ListColumns.nameCap)
        XCTAssertGreaterThan(wide.runtime, 0)
        XCTAssertGreaterThan(wide.rating, 0)
        XCTAssertGreaterThan(wide.countries, 0)
    }

    /// The column a list is sorted by is shown at every width with data columns (films sorted by rating
    /// at 100 columns showed no rating); the layout keeps its rules at every width, in every order.
    func testTheSortedColumnIsAlwaysShown() {
        for sort in MovieSort.allCases {
            var previous = MovieColumns(width: 0, sortedBy: sort)
            for width in 0...400 {
                let c = MovieColumns(width: width, sortedBy: sort)
                XCTAssertLessThanOrEqual(c.total, max(width, 2), "\(sort) at \(width): \(c)")
                if width >= 40 { XCTAssertGreaterThanOrEqual(c.title, 12, "a title stays readable at \(width), \(sort)") }
                if width >= 30 {
                    switch sort {
                    case .rating: XCTAssertGreaterThan(c.rating, 0, "sorted by rating at \(width)")
                    case .year: XCTAssertGreaterThan(c.year, 0, "sorted by year at \(width)")
                    case .relevance: break
                    }
                }
                for (now, before) in [(c.year, previous.year), (c.rating, previous.rating), (c.genres, previous.genres),
                                      (c.director, previous.director)] {
                    XCTAssertGreaterThanOrEqual(now, before, "no data column shrinks at \(width), \(sort)")
                }
                previous = c
            }
        }
        XCTAssertEqual(MovieColumns(width: 100).rating, 0, "by relevance, 100 columns have no rating")
        XCTAssertEqual(MovieColumns(width: 100, sortedBy: .rating).rating, 7)
        XCTAssertEqual(MovieColumns(width: 200, sortedBy: .rating), MovieColumns(width: 200), "wide: every column anyway")
    }

    func testWishlistColumnsAtEveryWidth() {
        var previous = WishlistColumns(width: 0)
        for width in 0...400 {
            let c = WishlistColumns(width: width)
            XCTAssertLessThanOrEqual(c.total, max(width, 2), "width \(width): \(c)")
            XCTAssertLessThanOrEqual(c.title, ListColumns.nameCap)
            for (now, before) in [(c.year, previous.year), (c.director, previous.director), (c.genres, previous.genres),
                                  (c.added, previous.added)] {
                XCTAssertGreaterThanOrEqual(now, before, "no data column shrinks at \(width)")
            }
            previous = c
        }
        XCTAssertGreaterThan(WishlistColumns(width: 160).genres, 0)
        XCTAssertEqual(WishlistColumns(width: 80).genres, 0)
    }

    func testSpreadGivesInTurnUpToEachCap() {
        var widths = [10, 0, 5]
        XCTAssertEqual(ListColumns.spread(20, over: &widths, caps: [14, 30, 8]), 13)
        XCTAssertEqual(widths, [14, 0, 8], "a hidden column takes nothing; each stops at its cap")
        var more = [1, 1]
        XCTAssertEqual(ListColumns.spread(5, over: &more, caps: [10, 3]), 0)
        XCTAssertEqual(more, [4, 3])
    }
}
