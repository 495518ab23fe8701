import Foundation
import NimbusData
import NimbusDomain
import NimbusPresentation

/// Where the Movies and Wishlist tabs get their films: TMDB when `TMDB_API_KEY` is set, else the
/// bundled catalogue; the history and the wishlist are the user database's either way.
enum MovieSources {
    static func services(container: AppDIContainer) -> MovieServices {
        let database = container.userDatabase
        let history = MovieHistoryStore(database: database, now: container.configuration.now)
        let wishlist = WishlistStore(database: database, now: container.configuration.now)
        // Files are matched in the bundled catalogue whichever source searches use.
        let importer = WishlistImporter(store: wishlist, catalogue: container.movieCatalogue,
                                        home: container.configuration.environment["HOME"])
        let language = tmdbLanguage(container.l10n.language)
        if let tmdb = TMDBMovieRepository.Configuration.from(environment: container.configuration.environment, language: language) {
            container.logger(.tmdb)?.info("films from TMDB at \(LogRedaction.url(tmdb.baseURL))")
            let movies = TMDBMovieRepository(configuration: tmdb, client: container.httpClient(for: .films),
                                             logger: container.logger(.tmdb))
            return MovieServices(movies: movies, others: [container.movieCatalogue], history: history, wishlist: wishlist,
                                 importer: importer, source: .tmdb(language: language), dataStatus: database.status)
        }
        let catalogue = container.movieCatalogue
        return MovieServices(movies: catalogue, others: [], history: history, wishlist: wishlist, importer: importer,
                             source: .catalogue(films: catalogue.movieCount), dataStatus: database.status,
                             catalogueYears: catalogue.yearSpan)
    }

    /// TMDB's `language` parameter for the UI language.
    static func tmdbLanguage(_ language: Language) -> String {
        switch language {
        case .en: "en-US"
        case .ko: "ko-KR"
        case .ja: "ja-JP"
        }
    }
}
