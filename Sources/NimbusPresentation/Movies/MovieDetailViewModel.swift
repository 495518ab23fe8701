import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers

/// What the film detail screen shows.
public struct MovieDetailState: Equatable, Sendable {
    public struct Field: Equatable, Sendable {
        public let label: String
        public let value: String
    }

    public enum Phase: Equatable, Sendable {
        case loading(String)
        case loaded
        case error(String)
    }

    public let title: String
    public let phase: Phase
    /// Labelled values, in display order (every field the source knows).
    public let fields: [Field]
    public let inWishlist: Bool
}

/// One film's details and its wishlist toggle.
public final class MovieDetailViewModel {
    public struct Input {
        public let appeared: AnyPublisher<Void, Never>
        public let wishlistToggled: AnyPublisher<Void, Never>
        public let retried: AnyPublisher<Void, Never>
        public init(appeared: AnyPublisher<Void, Never>, wishlistToggled: AnyPublisher<Void, Never>,
                    retried: AnyPublisher<Void, Never>) {
            self.appeared = appeared
            self.wishlistToggled = wishlistToggled
            self.retried = retried
        }
    }

    public struct Output {
        public let state: AnyPublisher<MovieDetailState, Never>
        public let message: AnyPublisher<String, Never>
    }

    private let summary: MovieSummary
    private let details: MovieDetailsUseCase
    private let wishlist: WishlistUseCase
    private let l10n: L10n
    private let scheduler: AnySchedulerOf<DispatchQueue>
    /// Whether the film is saved, as the store last said.
    private var inWishlist = false
    private var cancellables: Set<AnyCancellable> = []
    private var load: AnyCancellable?
    private let stateSubject = PassthroughSubject<MovieDetailState, Never>()
    private let messageSubject = PassthroughSubject<String, Never>()
    private var phase = MovieDetailState.Phase.loading("")
    private var movie: Movie?
    private var started = false

    public init(movie: MovieSummary, details: MovieDetailsUseCase, wishlist: WishlistUseCase, l10n: L10n,
                scheduler: AnySchedulerOf<DispatchQueue>) {
        self.summary = movie
        self.details = details
        self.wishlist = wishlist
        self.l10n = l10n
        self.scheduler = scheduler
    }

    public func transform(input: Input) -> Output {
        for event in [input.appeared, input.retried] {
            event.sink { [weak self] in self?.fetch() }.store(in: &cancellables)
        }
        input.wishlistToggled
            .sink { [weak self] in self?.toggle() }
            .store(in: &cancellables)
        // The mark follows the store, whichever screen changed it.
        let id = summary.id
        wishlist.contents
            .map { entries in entries.contains { $0.id == id } }
            .sink { [weak self] saved in
                guard let self, saved != self.inWishlist else { return }
                self.inWishlist = saved
                if self.started { self.emit() }
            }
            .store(in: &cancellables)
        return Output(state: stateSubject.removeDuplicates().eraseToAnyPublisher(),
                      message: messageSubject.eraseToAnyPublisher())
    }

    private func fetch() {
        if case .loaded = phase { return }
        started = true
        phase = .loading(l10n[.movieDetailLoading])
        emit()
        load = details.execute(summary.id)
            .receive(on: scheduler)
            .sink(receiveCompletion: { [weak self] completion in
                guard let self, case .failure(let error) = completion else { return }
                if self.movie == nil {
                    self.phase = .error(self.l10n.format(.moviesError, self.l10n.describe(error)))
                    self.emit()
                }
            }, receiveValue: { [weak self] movie in
                self?.movie = movie
                self?.phase = .loaded
                self?.emit()
            })
    }

    private func toggle() {
        let target = movie?.summary ?? summary
        do {
            let change = try wishlist.toggle(target)
            messageSubject.send(l10n.describe(change, title: target.title))
        } catch {
            messageSubject.send(l10n.describeWishlistFailure(error))
        }
    }

    private func emit() {
        stateSubject.send(MovieDetailState(title: movie?.title ?? summary.title, phase: phase,
                                           fields: movie.map(fields) ?? [], inWishlist: inWishlist))
    }

    private func fields(_ m: Movie) -> [MovieDetailState.Field] {
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
        // The catalogue has no billing order: its cast is stored best known first, and says so. TMDB's
        // cast comes in billing order.
        add(.movieDetailCast, list(m.cast).map { m.id.source == .catalogue ? l10n.format(.movieDetailCastKnown, $0) : $0 })
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
                l10n.format(.movieDetailVotesValue, String(format: "%.1f/10", $0), l10n.number(r.voteCount ?? 0))
            })
            add(.movieDetailOverview, m.overview)
        }
        return out
    }
}
