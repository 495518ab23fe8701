import Foundation
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// One line of the help: a key and what it does, as words given (`HelpEntry`, said in the language
/// of the state shown) or as text shown (`HelpLine`).
public struct HelpItem<Text: Equatable & Sendable>: Equatable, Sendable {
    public let key: Text
    public let label: Text
    public init(key: Text, label: Text) {
        self.key = key
        self.label = label
    }
}

public typealias HelpEntry = HelpItem<Words>
public typealias HelpLine = HelpItem<String>

/// What the help overlay shows.
public struct HelpState: Equatable, Sendable {
    /// The screen's keys and the app's, each narrowed to the filter.
    public let screen: [HelpLine]
    public let global: [HelpLine]
    /// Every entry, unfiltered: the box is sized for these and keeps its size while the filter changes.
    public let allScreen: [HelpLine]
    public let allGlobal: [HelpLine]
    /// "Filter: par▏" while a filter is typed or kept; nil without one.
    public let prompt: String?
    /// "No key matches “xyz”" when the filter leaves nothing.
    public let noMatch: String?
    /// How to use the overlay, for its last line.
    public let footer: String
    /// The first line shown.
    public let scroll: Int
    /// The overlay's own words.
    public let labels: Labels

    /// The overlay's own words, in the state's language: its title and headings, and the lines the
    /// box is sized for (an empty filter line, and each footer).
    public struct Labels: Equatable, Sendable {
        public let title: String
        /// Above the screen's keys, and above the app's.
        public let screenHeading: String
        public let globalHeading: String
        /// "Filter: " with nothing typed.
        public let emptyPrompt: String
        /// The footer while typing a filter, and otherwise.
        public let footers: [String]
    }
}

public enum HelpRoute: Equatable, Sendable { case close }

/// The help overlay: every key of the screen and of the app, filtered as you type.
///
/// One rule for typing, as in every search of the app: letters, digits and `/` type into the filter
/// (`q` is text here), Backspace edits it, Enter keeps it and Esc clears it, then closes; `?` closes.
public final class HelpViewModel {
    /// What the user does in the help, sent through one stream.
    public enum Event: Equatable, Sendable {
        /// A printable character typed (or pasted text).
        case typed(String)
        case backspace
        /// Ctrl-U: the whole filter.
        case cleared
        /// Enter: keep the filter, stop typing.
        case kept
        /// Esc: clear the filter, or close when there is none.
        case escaped
        /// `?`.
        case closeRequested
        /// The line scrolled to (the overlay keeps it within what its box measured).
        case scrolled(Int)
    }

    public struct Input {
        public let events: AnyPublisher<Event, Never>
        public init(events: AnyPublisher<Event, Never>) { self.events = events }
    }

    public struct Output {
        public let state: AnyPublisher<HelpState, Never>
        public let route: AnyPublisher<HelpRoute, Never>
    }

    public struct State: Equatable {
        /// The language the help speaks (the one the view model was made in).
        var l10n: L10n = .bundled(.en)
        var filter = ""
        var typing = false
        var scroll = 0
    }

    public enum Action: Equatable { case typed(String), backspace, cleared, kept, escaped, close, scrolled(Int) }
    public enum Effect: Equatable { case close }

    let screen: [HelpEntry]
    let global: [HelpEntry]
    /// The language of the first state.
    private let firstLanguage: L10n
    /// Every line and the overlay's words, said again only when the state's language changes (not
    /// on each key of the filter).
    var said: Memo<L10n, Said>?

    /// The help in one language, unfiltered.
    struct Said {
        let screen: [HelpLine]
        let global: [HelpLine]
        let labels: HelpState.Labels
    }

    public init(screen: [HelpEntry], global: [HelpEntry], l10n: L10n) {
        self.screen = screen
        self.global = global
        self.firstLanguage = l10n
    }

    public func transform(input: Input) -> Output {
        let actions = input.events.map(Self.action).eraseToAnyPublisher()
        let initial = State(l10n: firstLanguage)
        let loop = EffectRunner.run(initial: initial, actions: actions, scheduler: .immediate, reduce: Self.reduce) { _ in
            Work<Action, HelpRoute>.route(.close)
        }
        // The help is shown from the start: its first state is the whole list.
        let state = loop.state.prepend(initial).map { [self] in present($0) }.removeDuplicates().eraseToAnyPublisher()
        return Output(state: state, route: loop.route)
    }

    /// The action an event is.
    static func action(_ event: Event) -> Action {
        switch event {
        case .typed(let text): .typed(text)
        case .backspace: .backspace
        case .cleared: .cleared
        case .kept: .kept
        case .escaped: .escaped
        case .closeRequested: .close
        case .scrolled(let line): .scrolled(line)
        }
    }

    static func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        switch action {
        case .typed(let text):
            state.typing = true
            state.filter += text
            state.scroll = 0
        case .backspace:
            if state.filter.isEmpty { state.typing = false } else { state.filter.removeLast() }
            state.scroll = 0
        case .cleared:
            state.filter = ""
            state.scroll = 0
        case .kept:
            state.typing = false
        case .escaped:
            if state.filter.isEmpty && !state.typing { return [.close] }
            state.filter = ""
            state.typing = false
            state.scroll = 0
        case .close:
            return [.close]
        case .scrolled(let line):
            state.scroll = max(0, line)
        }
        return []
    }

    /// A key matches the filter when its key or its label contains every word of the filter,
    /// ignoring case and accents.
    public static func matches(_ entry: HelpLine, _ filter: String) -> Bool {
        let words = filter.split(separator: " ")
        guard !words.isEmpty else { return true }
        let text = (entry.key + " " + entry.label).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        return words.allSatisfy { text.contains($0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)) }
    }
}
