import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers
import NimbusLoop

extension MovieDetailViewModel {
    static func present(_ state: State) -> MovieDetailState {
        let l10n = state.l10n
        let phase: MovieDetailState.Phase
        switch state.phase {
        case .idle, .loading: phase = .loading(l10n[.movieDetailLoading])
        case .loaded: phase = .loaded
        case .failed(let error): phase = .error(l10n.format(.moviesError, l10n.describe(error)))
        }
        let message: String?
        switch state.message {
        case .failed(let error)?: message = l10n.describeWishlistFailure(error)
        case nil: message = nil
        }
        let cast = state.movie.map { m in
            MovieDetailState.Cast(label: l10n[.movieDetailCast], names: m.cast, bestKnownFirst: m.id.source == .catalogue,
                                  expanded: state.castExpanded, unknown: l10n[.movieDetailUnknown])
        }
        return MovieDetailState(title: state.movie?.title ?? state.summary.title, phase: phase,
                                fields: state.movie.map { fields($0, l10n: l10n) } ?? [], cast: cast, inWishlist: state.inWishlist,
                                scroll: state.scroll, message: message)
    }

    static func fields(_ m: Movie, l10n: L10n) -> [MovieDetailState.Field] {
        var out: [MovieDetailState.Field] = []
        func add(_ key: L10nKey, _ value: String?) {
            let text = value.flatMap { $0.isEmpty ? nil : $0 } ?? l10n[.movieDetailUnknown]
            out.append(.init(label: l10n[key], value: text))
        }
        func list(_ items: [String]) -> String? { items.isEmpty ? nil : items.joined(separator: ", ") }
        add(.movieDetailYear, m.year.map(String.init))
        add(.movieDetailRuntime, m.runtime.map { l10n.format(.movieDetailRuntimeValue, l10n.number($0)) })
        add(.movieDetailGenres, m.genres.isEmpty ? nil : l10n.genres(m.genres))
        add(.movieDetailDirectors, list(m.directors))
        add(.movieDetailWriters, list(m.writers))
        add(.movieDetailLanguages, list(m.languages))
        add(.movieDetailCountries, m.countries.isEmpty ? nil : l10n.countries(m.countries))
        add(.movieDetailRated, m.rated)
        let r = m.ratings
        if m.id.source == .catalogue {
            add(.movieDetailMetacritic, r.metacritic.map { "\($0)/100" })
            add(.movieDetailTomatometer, r.tomatometer.map { "\($0)%" })
            add(.movieDetailCriticAverage, r.criticAverage.map { String(format: "%.1f/10", $0) })
            add(.movieDetailReviews, r.reviewCount.map { l10n.number($0) })
        } else {
            add(.movieDetailVotes, r.voteAverage.map {
                l10n.count(.movieDetailVotesValue, r.voteCount ?? 0, String(format: "%.1f/10", $0), l10n.number(r.voteCount ?? 0))
            })
            add(.movieDetailOverview, m.overview)
        }
        // The cast comes last (`cast`): a hundred names would push every fact below the screen.
        return out
    }
}
