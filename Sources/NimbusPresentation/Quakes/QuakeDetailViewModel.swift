import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// What an event's detail shows.
public struct QuakeDetailState: Equatable, Sendable {
    /// "M 5.1 · 24 km SW of Pohang", or "M 5.1 · South Atlantic Ocean" far from any town.
    public let title: String
    /// For an event named by its region, the nearest town: "3,909 km S of Ushuaia, Argentina".
    public let nearestTown: String?
    /// The feed's own name for the region.
    public let region: String
    /// Every fact, one line each, in order: time (UTC and at the epicentre), depth, position, felt
    /// reports, tsunami flag, PAGER alert, review status, significance, link.
    public let facts: [String]
    /// Facts that call for attention (tsunami, alert): shown in the warning style.
    public let warnings: Set<Int>
    /// The nearest city, which `f` likes or unlikes.
    public let nearestCity: String?
    /// There is a nearest city for `f` to like.
    public var hasNearestCity: Bool { nearestCity != nil }
    public let nearestLiked: Bool
    /// Why the last `f` could not be saved (a like that is saved is said on the status line by the app).
    public let likeError: String?
}

/// One event: its facts, and `f` on its nearest city.
public final class QuakeDetailViewModel {
    /// What the user does on the screen, sent through one stream.
    public enum Event: Equatable, Sendable {
        /// `f`: like (or unlike) the nearest city.
        case likeToggled
    }

    public struct Input {
        public let events: AnyPublisher<Event, Never>
        public init(events: AnyPublisher<Event, Never>) { self.events = events }
    }

    public struct Output {
        public let state: AnyPublisher<QuakeDetailState, Never>
    }

    public struct State: Equatable {
        /// The nearest city, which `f` likes (nil: none, or no likes store).
        let city: Int?
        /// The nearest city is liked, as the store says.
        var liked = false
        /// The last `f` could not be saved.
        var likeFailed = false
        /// The settings' units and clock: what the facts are written in.
        var display = DisplayUnits.Value(system: .metric)
        /// The language it speaks (the one the view model was made in).
        var l10n: L10n = .bundled(.en)
    }

    public enum Action: Equatable {
        /// What the likes store holds now.
        case likes([Int])
        case likeToggled
        case likeFailed
        case display(DisplayUnits.Value)
    }

    public enum Effect: Equatable { case toggleLike(Int) }

    public let quake: Quake
    public let place: QuakePlace?
    private let likes: LikeCityUseCase?
    /// The zones, and the first state's language and units: a state is formatted in its own.
    private let formatter: QuakeFormatter
    /// The settings' units and clock as they change (nil: the formatter's, fixed).
    private let display: DisplayUnits?
    private let now: @Sendable () -> Date

    public init(quake: Quake, place: QuakePlace?, likes: LikeCityUseCase?, format: QuakeFormatter,
                display: DisplayUnits? = nil, now: @escaping @Sendable () -> Date) {
        self.quake = quake
        self.place = place
        self.likes = likes
        self.formatter = format
        self.display = display
        self.now = now
    }

    /// The map of an event's epicentre is the map of a "city" there, named by the magnitude, in the
    /// nearest town's country and zone.
    public static func epicentre(of quake: Quake, near place: QuakePlace?) -> City {
        City(id: mapID(quake.id), name: "M " + QuakeFormatter.magnitude(quake.magnitude),
             countryCode: place?.city.countryCode ?? "", latitude: quake.coordinate.latitude,
             longitude: quake.coordinate.longitude, population: 0,
             timeZone: place?.city.timeZone ?? "UTC", alternateNames: [])
    }

    /// A map cache key for an event that no catalogue city has (GeoNames ids are positive): FNV-1a of
    /// the event's id, negative.
    static func mapID(_ eventID: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in eventID.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return -Int(hash % 1_000_000_000) - 1
    }

    /// The action an event is.
    static func action(_ event: Event) -> Action {
        switch event {
        case .likeToggled: .likeToggled
        }
    }

    public func transform(input: Input) -> Output {
        // The like follows the store, whichever screen changed it.
        let stored = likes.map { $0.contents.map(Action.likes).eraseToAnyPublisher() } ?? Just(.likes([])).eraseToAnyPublisher()
        // The settings' units and clock, after each change: the same facts are written again.
        let displayed = display.map { display in display.changes.dropFirst().map { Action.display(display.value) }.eraseToAnyPublisher() }
            ?? Empty().eraseToAnyPublisher()
        let loop = EffectRunner.run(
            initial: State(city: likes == nil ? nil : place?.city.id, display: display?.value ?? formatter.weather.display, l10n: formatter.l10n),
            actions: merge(stored, input.events.map(Self.action).eraseToAnyPublisher(), displayed),
            scheduler: .immediate, reduce: Self.reduce, perform: perform)
        let state = loop.state
            .map { [formatter, quake, place, now] state in
                Self.state(quake, place, liked: state.liked, failed: state.likeFailed,
                           format: formatter.with(state.display, state.l10n), now: now())
            }
            .removeDuplicates()
            .eraseToAnyPublisher()
        return Output(state: state)
    }

    static func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        switch action {
        case .likes(let ids):
            state.liked = state.city.map(ids.contains) ?? false
            state.likeFailed = false
            return []
        case .likeToggled:
            state.likeFailed = false
            guard let city = state.city else { return [] }
            return [.toggleLike(city)]
        case .likeFailed:
            state.likeFailed = true
            return []
        case .display(let display):
            state.display = display
            return []
        }
    }

    private func perform(_ effect: Effect) -> Work<Action, Never> {
        switch effect {
        case .toggleLike(let city):
            guard let likes else { return .none }
            return .answer {
                switch likes.toggle(city) {
                // The mark follows the store's own change.
                case .success: return nil
                case .failure: return .likeFailed
                }
            }
        }
    }
}
