/// Where the films come from, and how the app says so: the status bar's source and the search's
/// hint before a query.
public enum FilmSource: Equatable, Sendable {
    /// TMDB, asked in this language ("ko-KR").
    case tmdb(language: String)
    /// The bundled catalogue, of this many films.
    case catalogue(films: Int)

    /// The status bar's source: "TMDB · ko-KR", "Wikidata · 17,472 films".
    public func status(_ l10n: L10n) -> String {
        switch self {
        case .tmdb(let language): l10n.format(.statusSourceMoviesTmdb, language)
        case .catalogue(let films): l10n.format(.statusSourceMoviesCatalogue, l10n.number(films))
        }
    }

    /// What the Movies tab says before a query.
    public func idleMessage(_ l10n: L10n) -> String {
        switch self {
        case .tmdb: l10n[.moviesIdleTmdb]
        case .catalogue(let films): l10n.format(.moviesIdleCatalogue, l10n.number(films))
        }
    }
}
