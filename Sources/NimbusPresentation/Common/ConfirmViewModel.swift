import Foundation
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// A yes-or-no question over the screen ("Delete all 12 saved films?").
public struct ConfirmState: Equatable, Sendable {
    public let title: String
    public let question: String
    /// "y: delete all   n / Esc: keep them".
    public let keys: String
    /// The status bar's labels for yes and no.
    public let yes: String
    public let no: String
}

/// Asks one question; its answer is its route, which the coordinator hands to whoever asked.
public final class ConfirmViewModel {
    /// What the user does: answers.
    public enum Event: Equatable, Sendable {
        /// `y` (true), `n` or Esc (false).
        case answered(Bool)
    }

    public struct Input {
        public let events: AnyPublisher<Event, Never>
        public init(events: AnyPublisher<Event, Never>) { self.events = events }
    }

    public enum Route: Equatable, Sendable { case answered(Bool) }

    public struct Output {
        public let state: AnyPublisher<ConfirmState, Never>
        public let route: AnyPublisher<Route, Never>
    }

    /// What can be asked: the texts are said from the state's language.
    public enum Question: Equatable, Sendable {
        /// "Delete all N saved films?" (the wishlist's `D`).
        case deleteAllWishlist(count: Int)
    }

    /// What is asked, in which language; only the first answer counts: a second key after it (the
    /// overlay closing) asks nothing more.
    public struct State: Equatable {
        var l10n: L10n
        let question: Question
        var answer: Bool?
    }
    /// `asked`: the question is put (the loop's state starts with an action).
    public enum Action: Equatable { case asked, answered(Bool) }
    public enum Effect: Equatable { case answer(Bool) }

    private let question: Question
    /// The language of the first state.
    private let firstLanguage: L10n

    public init(question: Question, l10n: L10n) {
        self.question = question
        self.firstLanguage = l10n
    }

    /// "Delete all N saved films?", first said in `l10n`'s language (the wishlist's `D`).
    public static func deleteAllWishlist(count: Int, l10n: L10n) -> ConfirmViewModel {
        ConfirmViewModel(question: .deleteAllWishlist(count: count), l10n: l10n)
    }

    public func transform(input: Input) -> Output {
        let actions = Just(Action.asked).append(input.events.map { event in switch event { case .answered(let yes): Action.answered(yes) } }).eraseToAnyPublisher()
        let loop = EffectRunner.run(initial: State(l10n: firstLanguage, question: question), actions: actions,
                                    scheduler: .immediate, reduce: Self.reduce, perform: { effect -> Work<Action, Route> in
                                        switch effect { case .answer(let yes): .route(.answered(yes)) }
                                    })
        // An answer changes nothing shown: the question stays until the overlay closes.
        return Output(state: loop.state.map(Self.present).removeDuplicates().eraseToAnyPublisher(), route: loop.route)
    }

    static func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        switch action {
        case .asked:
            return []
        case .answered(let yes):
            guard state.answer == nil else { return [] }
            state.answer = yes
            return [.answer(yes)]
        }
    }
}
