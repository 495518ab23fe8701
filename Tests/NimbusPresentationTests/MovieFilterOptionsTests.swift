import XCTest
import NimbusDomain
@testable import NimbusPresentation

/// The filter pickers' options in each language, and what the years picker takes as typed.
final class MovieFilterOptionsTests: XCTestCase {
    func testTypedYearsAndRanges() {
        XCTAssertEqual(MovieFilterOptions.yearRange("1994"), 1994...1994)
        XCTAssertEqual(MovieFilterOptions.yearRange("1990-1995"), 1990...1995)
        XCTAssertEqual(MovieFilterOptions.yearRange("1995-1990"), 1990...1995)
        XCTAssertEqual(MovieFilterOptions.yearRange("1990–1995"), 1990...1995)
        for text in ["", "-", "199", "19945", "1990-", "-1990", "1990-1995-2000", "٢٠٠٠", "1800", "2300", "abcd",
                     "1990--1995x", "+199", "199 ", " 1994"] {
            XCTAssertNil(MovieFilterOptions.yearRange(text), text)
        }
    }

    /// Every year from 1860 to 2110 alone, and with every year ten either side, with each dash and in
    /// both orders: a range of the two inside 1870–2100, else nothing (checked by arithmetic, not by
    /// the parser's own rule).
    func testEveryYearAndRangeAroundIt() {
        var checked = 0
        for a in 1860...2110 {
            let inside = { (y: Int) in y >= 1870 && y <= 2100 }
            XCTAssertEqual(MovieFilterOptions.yearRange(String(a)), inside(a) ? a...a : nil, "\(a)")
            for b in stride(from: a - 10, through: a + 10, by: 5) {
                for dash in ["-", "–", "—", "~"] {
                    let expected = inside(a) && inside(b) ? Swift.min(a, b)...Swift.max(a, b) : nil
                    XCTAssertEqual(MovieFilterOptions.yearRange("\(a)\(dash)\(b)"), expected, "\(a)\(dash)\(b)")
                    checked += 1
                }
            }
        }
        XCTAssertEqual(checked, 251 * 5 * 4)
    }

    func testGenresInTheLanguagesOrderAnyFirstTheFilterInForceSelected() {
        let ko = L10n.bundled(.ko)
        let current = MovieFilter(genre: "Drama", years: 1990...1999, sort: .rating)
        let (options, selected) = MovieFilterOptions.options(.genre, current: current, support: .all, l10n: ko)
        XCTAssertEqual(options.first, MovieFilterOption(label: "모든 장르", filter: MovieFilter(genre: nil, years: 1990...1999, sort: .rating)))
        XCTAssertEqual(options.count, MovieGenres.catalogue.count + 1)
        let labels = options.dropFirst().map(\.label)
        XCTAssertEqual(labels, labels.sorted { $0.localizedStandardCompare($1) == .orderedAscending })
        XCTAssertEqual(Set(options.dropFirst().compactMap(\.filter.genre)), Set(MovieGenres.catalogue))
        XCTAssertEqual(options[selected].filter, current, "the genre in force is selected")
        XCTAssertEqual(options[selected].label, "드라마")
        XCTAssertTrue(options.allSatisfy { $0.filter.years == 1990...1999 && $0.filter.sort == .rating }, "the rest kept")
    }

    func testYearsOfferTheTypedRangeFirstThenAnyThenDecades() {
        let en = L10n.bundled(.en)
        let current = MovieFilter(genre: "Drama", years: 1980...1989)
        let untouched = MovieFilterOptions.options(.years, current: current, support: .all, l10n: en)
        XCTAssertEqual(untouched.options.map(\.label), ["Any year"] + MovieFilterOptions.decades.map { "\($0.lowerBound)s" })
        XCTAssertEqual(untouched.options[untouched.selected].filter, current)
        let typed = MovieFilterOptions.options(.years, current: current, typed: "1990-1995", support: .all, l10n: en)
        XCTAssertEqual(typed.options.first, MovieFilterOption(label: "1990–1995", filter: MovieFilter(genre: "Drama", years: 1990...1995)))
        XCTAssertEqual(typed.selected, 0)
        let unfinished = MovieFilterOptions.options(.years, current: current, typed: "1990-", support: .all, l10n: en)
        XCTAssertEqual(unfinished.options.first?.label, "Any year")
        XCTAssertEqual(unfinished.selected, 0)
    }

    /// TMDB's search takes one release year: a typed range is not offered, one year is, and no decades.
    func testTMDBOffersOneYearOnly() {
        let ja = L10n.bundled(.ja)
        let tmdb = MovieFilterSupport(genre: false, yearRange: false, sort: false)
        let range = MovieFilterOptions.options(.years, current: .none, typed: "1990-1995", support: tmdb, l10n: ja)
        XCTAssertEqual(range.options.map(\.label), ["すべての年"])
        let year = MovieFilterOptions.options(.years, current: .none, typed: "1994", support: tmdb, l10n: ja)
        XCTAssertEqual(year.options.map(\.filter.years), [1994...1994, nil])
        XCTAssertEqual(MovieFilterOptions.prompt(.years, typed: "", support: tmdb, l10n: ja), ja[.moviesFilterYearsTmdb])
        XCTAssertEqual(MovieFilterOptions.prompt(.years, typed: "", support: .all, l10n: ja), ja[.moviesFilterYearsPrompt])
        XCTAssertEqual(MovieFilterOptions.prompt(.years, typed: "19", support: .all, l10n: ja), "› 19▏")
        XCTAssertNil(MovieFilterOptions.prompt(.genre, typed: "", support: .all, l10n: ja))
    }

    func testSortsInOrderTheOneInForceSelected() {
        let en = L10n.bundled(.en)
        let (options, selected) = MovieFilterOptions.options(.sort, current: MovieFilter(sort: .year), support: .all, l10n: en)
        XCTAssertEqual(options.map(\.filter.sort), MovieSort.allCases)
        XCTAssertEqual(options.map(\.label), ["relevance", "newest", "rating"])
        XCTAssertEqual(selected, 1)
        XCTAssertEqual(MovieFilterOptions.title(.sort, l10n: en), "Sort by")
    }
}
