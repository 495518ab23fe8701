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

    /// Only the first answer counts: a second key after it (the overlay closing) asks nothing more.
    public struct State: Equatable { var answer: Bool? }
    /// `asked`: the question is put (the loop's state starts with an action).
    public enum Action: Equatable { case asked, answered(Bool) }
    public enum Effect: Equatable { case answer(Bool) }

    private let asked: ConfirmState

    public init(title: String, question: String, keys: String, yes: String, no: String) {
        asked = ConfirmState(title: title, question: question, keys: keys, yes: yes, no: no)
    }

    /// "Delete all N saved films?", in the UI language (the wishlist's `D`).
    public static func deleteAllWishlist(count: Int, l10n: L10n) -> ConfirmViewModel {
        ConfirmViewModel(title: l10n[.wishlistConfirmTitle], question: l10n.count(.wishlistConfirm, count, l10n.number(count)),
                         keys: l10n[.wishlistConfirmKeys], yes: l10n[.hintDeleteAll], no: l10n[.hintBack])
    }

    public func transform(input: Input) -> Output {
        let actions = Just(Action.asked).append(input.events.map { event in switch event { case .answered(let yes): Action.answered(yes) } }).eraseToAnyPublisher()
        let loop = EffectRunner.run(initial: State(), actions: actions,
                                    scheduler: .immediate, reduce: Self.reduce, perform: { effect -> Work<Action, Route> in
                                        switch effect { case .answer(let yes): .route(.answered(yes)) }
                                    })
        // The question is fixed: the state only says what was asked.
        let asked = self.asked
        return Output(state: loop.state.map { _ in asked }.removeDuplicates().eraseToAnyPublisher(), route: loop.route)
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
