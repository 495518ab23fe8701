import Foundation
@preconcurrency import OpenCombineShim
import CombineSchedulers

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
    public struct Input {
        public let answered: AnyPublisher<Bool, Never>
        public init(answered: AnyPublisher<Bool, Never>) { self.answered = answered }
    }

    public enum Route: Equatable, Sendable { case answered(Bool) }

    public struct Output {
        public let state: AnyPublisher<ConfirmState, Never>
        public let route: AnyPublisher<Route, Never>
    }

    private let asked: ConfirmState

    public init(title: String, question: String, keys: String, yes: String, no: String) {
        asked = ConfirmState(title: title, question: question, keys: keys, yes: yes, no: no)
    }

    public func transform(input: Input) -> Output {
        // Nothing to fold: the question is fixed; the first answer is the only route.
        Output(state: Just(asked).eraseToAnyPublisher(),
               route: input.answered.first().map(Route.answered).eraseToAnyPublisher())
    }
}
