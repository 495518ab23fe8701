import XCTest
import OpenCombineShim
@testable import NimbusPresentation
import TestSupport

/// A yes-or-no question: only its first answer is an answer.
final class ConfirmReduceTests: XCTestCase {
    typealias VM = ConfirmViewModel

    func testOnlyTheFirstAnswerCounts() {
        func asked(answer: Bool? = nil) -> VM.State {
            VM.State(l10n: .bundled(.en), question: .deleteAllWishlist(count: 2), answer: answer)
        }
        let cases: [(VM.State, VM.Action, VM.State, [VM.Effect])] = [
            (asked(), .answered(true), asked(answer: true), [.answer(true)]),
            (asked(), .answered(false), asked(answer: false), [.answer(false)]),
            (asked(answer: true), .answered(false), asked(answer: true), []),
            (asked(answer: false), .answered(true), asked(answer: false), []),
            (asked(), .asked, asked(), []),
        ]
        for (i, (before, action, after, effects)) in cases.enumerated() {
            var state = before
            XCTAssertEqual(VM.reduce(&state, action), effects, "case \(i)")
            XCTAssertEqual(state, after, "case \(i)")
        }
    }

    func testTheQuestionIsShownAtOnceAndTheFirstAnswerIsTheRoute() {
        let answers = PassthroughSubject<ConfirmViewModel.Event, Never>()
        let output = ConfirmViewModel(question: .deleteAllWishlist(count: 12), l10n: .bundled(.en))
            .transform(input: .init(events: answers.eraseToAnyPublisher()))
        let state = TestObserver(output.state)
        let route = TestObserver(output.route)
        XCTAssertEqual(state.values.map(\.question), ["Delete all 12 saved films?"], "asked before any key")
        answers.send(.answered(true))
        answers.send(.answered(false))
        XCTAssertEqual(route.values, [.answered(true)])
        XCTAssertEqual(state.values.count, 1, "the question does not change")
    }

    func testTheWishlistsQuestionCountsTheFilmsInEachLanguage() {
        for language in Language.allCases {
            let l10n = L10n.bundled(language)
            for count in [1, 2, 12, 1234] {
                let state = TestObserver(ConfirmViewModel.deleteAllWishlist(count: count, l10n: l10n)
                    .transform(input: .init(events: Empty().eraseToAnyPublisher())).state)
                let asked = state.values.first
                XCTAssertEqual(asked?.question, l10n.count(.wishlistConfirm, count, l10n.number(count)), "\(language) \(count)")
                XCTAssertTrue(asked?.question.contains(l10n.number(count)) == true, "\(language) \(count)")
                XCTAssertEqual(asked?.yes, l10n[.hintDeleteAll])
                XCTAssertEqual(asked?.no, l10n[.hintBack])
            }
        }
    }

    /// The question is said in its state's language, whichever the view model was made in.
    func testTheQuestionIsSaidInTheStatesLanguage() {
        var shown: [ConfirmState] = []
        for language in Language.allCases {
            let state = VM.State(l10n: .bundled(language), question: .deleteAllWishlist(count: 3))
            let own = TestObserver(ConfirmViewModel(question: .deleteAllWishlist(count: 3), l10n: .bundled(language))
                .transform(input: .init(events: Empty().eraseToAnyPublisher())).state).values.first
            XCTAssertEqual(VM.present(state), own, "\(language)")
            shown.append(VM.present(state))
        }
        XCTAssertEqual(Set(shown.map(\.question)).count, Language.allCases.count, "\(shown.map(\.question))")
    }
}
