import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// What the film detail screen shows.
public struct MovieDetailState: Equatable, Sendable {
    public struct Field: Equatable, Sendable {
        public let label: String
        public let value: String
        public init(label: String, value: String) {
            self.label = label
            self.value = value
        }
    }

    public enum Phase: Equatable, Sendable {
        case loading(String)
        case loaded
        case error(String)
    }

    /// The cast, after the facts: the names (best known first from the catalogue, in billing order
    /// from TMDB), shortened to a few lines until `c` shows them all.
    public struct Cast: Equatable, Sendable {
        public let label: String
        public let names: [String]
        /// The catalogue's order is fame, not billing, and the line says so ("best known first: …").
        public let bestKnownFirst: Bool
        /// Every name, or as many as a few lines hold.
        public let expanded: Bool
        /// What the row says when the source knows no cast.
        public var unknown = ""
    }

    public let title: String
    public let phase: Phase
    /// Labelled values, in display order (every field the source knows but the cast): the facts.
    public let fields: [Field]
    public var cast: Cast? = nil
    public let inWishlist: Bool
    /// The first line shown (the screen keeps it within what the details fill).
    public var scroll: Int = 0
    /// What `w` did or why it failed ("Added “Heat” to the wishlist"), until the next key.
    public var message: String?
    /// The details could not be had (`r` asks again).
    public var failed: Bool {
        if case .error = phase { return true }
        return false
    }
    /// There is a cast to show whole or shorten (`c`).
    public var hasCast: Bool { cast.map { !$0.names.isEmpty } ?? false }
}

/// One film's details and its wishlist toggle.
public final class MovieDetailViewModel {
    /// What the user does on the screen, sent through one stream.
    public enum Event: Equatable, Sendable {
        case appeared
        /// `w`, and `r`.
        case wishlistToggled, retried
        /// `c`: the whole cast, or a few lines of it again.
        case castToggled
        /// The line the details were scrolled to.
        case scrolled(Int)
    }

    public struct Input {
        public let events: AnyPublisher<Event, Never>
        public init(events: AnyPublisher<Event, Never>) {
            self.events = events
        }
    }

    public struct Output {
        public let state: AnyPublisher<MovieDetailState, Never>
    }

    public struct State: Equatable {
        /// The language the details speaks (the one the view model was made in).
        var l10n: L10n = .bundled(.en)
        let summary: MovieSummary
        var movie: Movie?
        var phase = Phase.idle
        /// Whether the film is saved, as the store last said.
        var inWishlist = false
        var scroll = 0
        var message: Message?
        /// The whole cast is shown (`c`); a few lines of it otherwise.
        var castExpanded = false

        enum Phase: Equatable { case idle, loading, loaded, failed(MovieError) }
    }

    /// A wishlist change that failed (one that is saved is said on the status line).
    public enum Message: Equatable {
        case failed(WishlistError)
    }

    public enum Action: Equatable {
        case appeared, retried, wishlistToggled, scrolled(Int), castToggled
        case stored(Bool)
        case loaded(Movie), failed(MovieError)
        case saved(Message)
    }

    public enum Effect: Equatable {
        case load(MovieID)
        case toggle(MovieSummary)
    }

    private let summary: MovieSummary
    private let details: MovieDetailsUseCase
    private let wishlist: WishlistUseCase
    /// The language of the first state.
    private let firstLanguage: L10n
    private let scheduler: AnySchedulerOf<DispatchQueue>

    public init(movie: MovieSummary, details: MovieDetailsUseCase, wishlist: WishlistUseCase, l10n: L10n,
                scheduler: AnySchedulerOf<DispatchQueue>) {
        self.summary = movie
        self.details = details
        self.wishlist = wishlist
        self.firstLanguage = l10n
        self.scheduler = scheduler
    }

    /// The action an event is.
    static func action(_ event: Event) -> Action {
        switch event {
        case .appeared: .appeared
        case .wishlistToggled: .wishlistToggled
        case .retried: .retried
        case .scrolled(let line): .scrolled(line)
        case .castToggled: .castToggled
        }
    }

    public func transform(input: Input) -> Output {
        let id = summary.id
        let actions = merge(
            input.events.map(Self.action).eraseToAnyPublisher(),
            // The mark follows the store, whichever screen changed it.
            wishlist.contents.map { entries in Action.stored(entries.contains { $0.id == id }) }.eraseToAnyPublisher())
        let loop = EffectRunner.run(initial: State(l10n: firstLanguage, summary: summary), actions: actions, scheduler: scheduler,
                                    reduce: Self.reduce, perform: perform)
        let state = loop.state
            .filter { $0.phase != .idle }
            .map(Self.present)
            .removeDuplicates()
            .eraseToAnyPublisher()
        return Output(state: state)
    }

    static func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        switch action {
        case .appeared, .retried:
            state.message = nil
            if state.phase == .loaded || state.phase == .loading { return [] }
            state.phase = .loading
            return [.load(state.summary.id)]
        case .wishlistToggled:
            state.message = nil
            return [.toggle(state.movie?.summary ?? state.summary)]
        case .scrolled(let line):
            state.message = nil
            state.scroll = max(0, line)
            return []
        case .castToggled:
            state.message = nil
            state.castExpanded.toggle()
            return []
        case .stored(let saved):
            state.inWishlist = saved
            return []
        case .loaded(let movie):
            state.movie = movie
            state.phase = .loaded
            return []
        case .failed(let error):
            // A failure after the details came (a later page of the answer) leaves them shown.
            if state.movie == nil { state.phase = .failed(error) }
            return []
        case .saved(let message):
            state.message = message
            return []
        }
    }

    private func perform(_ effect: Effect) -> Work<Action, Never> {
        switch effect {
        case .load(let id):
            let answers = details.execute(id)
                .map(Action.loaded)
                .catch { Just(Action.failed($0)) }
                .eraseToAnyPublisher()
            return .run(answers, id: "load")
        case .toggle(let movie):
            let wishlist = self.wishlist
            return .answer {
                do {
                    _ = try wishlist.toggle(movie)
                    return nil
                } catch {
                    return .saved(.failed((error as? WishlistError) ?? .storage))
                }
            }
        }
    }
}
