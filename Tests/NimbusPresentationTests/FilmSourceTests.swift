import XCTest
@testable import NimbusPresentation

/// How the app names where the films come from, in each language.
final class FilmSourceTests: XCTestCase {
    func testTheStatusAndTheHintNameTheSourceInTheUILanguage() {
        let en = L10n.bundled(.en)
        XCTAssertEqual(FilmSource.catalogue(films: 17472).status(en), en.format(.statusSourceMoviesCatalogue, "17,472"))
        XCTAssertEqual(FilmSource.catalogue(films: 17472).idleMessage(en), en.format(.moviesIdleCatalogue, "17,472"))
        XCTAssertEqual(FilmSource.tmdb(language: "en-US").status(en), en.format(.statusSourceMoviesTmdb, "en-US"))
        XCTAssertEqual(FilmSource.tmdb(language: "en-US").idleMessage(en), en[.moviesIdleTmdb])
        for language in Language.allCases {
            let l10n = L10n.bundled(language)
            XCTAssertTrue(FilmSource.catalogue(films: 17472).status(l10n).contains(l10n.number(17472)), "\(language)")
            XCTAssertTrue(FilmSource.tmdb(language: "ko-KR").status(l10n).contains("ko-KR"), "\(language)")
            XCTAssertFalse(FilmSource.tmdb(language: "ko-KR").idleMessage(l10n).isEmpty, "\(language)")
        }
    }
}
