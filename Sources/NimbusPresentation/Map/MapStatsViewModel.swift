import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// What the map cache statistics overlay (F12) shows: one line a counter.
public struct MapStatsState: Equatable, Sendable {
    public let title: String
    public let lines: [String]
}

/// The map cache's counters, read again on each tick while the overlay is open.
public final class MapStatsViewModel {
    /// What the user does in the overlay, sent through one stream.
    public enum Event: Equatable, Sendable {
        /// Esc.
        case closeRequested
    }

    public struct Input {
        /// The user's events.
        public let events: AnyPublisher<Event, Never>
        /// The overlay's clock (it reads the counters on each tick).
        public let tick: AnyPublisher<Void, Never>
        public init(events: AnyPublisher<Event, Never>, tick: AnyPublisher<Void, Never>) {
            self.events = events
            self.tick = tick
        }
    }

    public enum Route: Equatable, Sendable { case close }

    public struct Output {
        public let state: AnyPublisher<MapStatsState, Never>
        public let route: AnyPublisher<Route, Never>
    }

    public struct State: Equatable {
        /// The language the overlay speaks (the one the view model was made in).
        var l10n: L10n = .bundled(.en)
        /// The counters last read.
        var statistics = MapCacheStatistics()
    }

    public enum Action: Equatable { case read(MapCacheStatistics), close }
    public enum Effect: Equatable { case close }

    private let statistics: () -> MapCacheStatistics
    /// The language of the first state.
    private let firstLanguage: L10n

    public init(statistics: @escaping () -> MapCacheStatistics, l10n: L10n) {
        self.statistics = statistics
        self.firstLanguage = l10n
    }

    public func transform(input: Input) -> Output {
        let statistics = self.statistics
        let reads = input.tick.prepend(()).map { Action.read(statistics()) }.eraseToAnyPublisher()
        let loop = EffectRunner.run(initial: State(l10n: firstLanguage), actions: merge(reads, input.events.map { event in switch event { case .closeRequested: Action.close } }.eraseToAnyPublisher()),
                                    scheduler: .immediate, reduce: Self.reduce) { _ in Work<Action, Route>.route(.close) }
        return Output(state: loop.state.map(Self.present).eraseToAnyPublisher(), route: loop.route)
    }

    static func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        switch action {
        case .read(let stats):
            state.statistics = stats
            return []
        case .close:
            return [.close]
        }
    }
}
