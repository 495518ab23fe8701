import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import NimbusLoop

/// What the warnings overlay shows.
public struct WarningsOverlayState: Equatable, Sendable {
    public let text: WarningsText
    /// The first line shown (the overlay keeps it within what its box measured).
    public let scroll: Int
}

public enum WarningsOverlayRoute: Equatable, Sendable { case close }

/// The full text of the warnings in force, over a city's detail: scrolled, then closed.
public final class WarningsViewModel {
    /// What the user does in the overlay, sent through one stream.
    public enum Event: Equatable, Sendable {
        /// The line scrolled to.
        case scrolled(Int)
        /// `a`, `Esc` or `q`.
        case closeRequested
    }

    public struct Input {
        public let events: AnyPublisher<Event, Never>
        public init(events: AnyPublisher<Event, Never>) { self.events = events }
    }

    public struct Output {
        public let state: AnyPublisher<WarningsOverlayState, Never>
        public let route: AnyPublisher<WarningsOverlayRoute, Never>
    }

    public struct State: Equatable {
        var l10n: L10n = .bundled(.en)
        var scroll = 0
    }
    public enum Action: Equatable { case scrolled(Int), close }
    public enum Effect: Equatable { case close }

    let shown: WarningsShown
    /// The language of the first state.
    private let firstLanguage: L10n
    /// The text, made again only when the state's language changes (not on a scroll).
    var text: Memo<L10n, WarningsText>?

    public init(shown: WarningsShown, l10n: L10n) {
        self.shown = shown
        self.firstLanguage = l10n
    }

    public func transform(input: Input) -> Output {
        let actions = input.events.map { event -> Action in
            switch event {
            case .scrolled(let line): .scrolled(line)
            case .closeRequested: .close
            }
        }.eraseToAnyPublisher()
        let initial = State(l10n: firstLanguage)
        let loop = EffectRunner.run(initial: initial, actions: actions, scheduler: .immediate, reduce: Self.reduce) { _ in
            Work<Action, WarningsOverlayRoute>.route(.close)
        }
        // The text is shown from the start, from its first line.
        let state = loop.state.prepend(initial)
            .map { [self] in present($0) }
            .removeDuplicates()
            .eraseToAnyPublisher()
        return Output(state: state, route: loop.route)
    }

    static func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        switch action {
        case .scrolled(let line):
            state.scroll = max(0, line)
            return []
        case .close:
            return [.close]
        }
    }
}
