import XCTest
@testable import NimbusPresentation

/// The catalogue's genres in every UI language.
final class MovieGenresTests: XCTestCase {
    static let catalogueGenres = ["Action", "Adventure", "Animation", "Biography", "Comedy", "Crime", "Documentary", "Drama",
                                  "Family", "Fantasy", "History", "Horror", "Music", "Musical", "Mystery", "Romance",
                                  "Sci-Fi", "Sport", "Thriller", "War", "Western"]

    func testEveryCatalogueGenreIsTranslatedInKoreanAndJapanese() {
        XCTAssertEqual(Set(MovieGenres.ko.keys), Set(Self.catalogueGenres))
        XCTAssertEqual(Set(MovieGenres.ja.keys), Set(Self.catalogueGenres))
        XCTAssertEqual(L10n.bundled(.ko).genres(["Crime", "Drama"]), "범죄, 드라마")
        XCTAssertEqual(L10n.bundled(.ja).genres(["Crime", "Drama"]), "犯罪、ドラマ")
        XCTAssertEqual(L10n.bundled(.en).genres(["Crime", "Drama"]), "Crime, Drama")
        XCTAssertEqual(L10n.bundled(.ko).genre("범죄"), "범죄", "TMDB's own Korean names pass through")
    }
}
