import XCTest
import CombineSchedulers
import OpenCombineShim
@testable import NimbusPresentation
import TestSupport
import NimbusLoop

/// The one loop every view model runs on: actions fold into the state, effects run, their answers
/// come back as actions, and the newest work with an id replaces the one in flight.
final class EffectRunnerTests: XCTestCase {
    private struct Counter: Equatable {
        var total = 0
        var answers: [String] = []
    }

    private enum Action { case add(Int), ask(String), answer(String), cancel, go }
    private enum Effect: Equatable { case ask(String), cancel, go }

    private static func reduce(_ state: inout Counter, _ action: Action) -> [Effect] {
        switch action {
        case .add(let n):
            state.total += n
            return []
        case .ask(let what):
            return [.ask(what)]
        case .answer(let text):
            state.answers.append(text)
            return []
        case .cancel:
            return [.cancel]
        case .go:
            return [.go]
        }
    }

    private var scheduler = DispatchQueue.test
    private var requests: [String: PassthroughSubject<String, Never>] = [:]
    /// How many times a `later` answer was worked out (it must not be, once replaced or cancelled).
    private var laterReads = 0

    private func run(_ actions: PassthroughSubject<Action, Never>, immediate: Bool = false) -> Loop<Counter, String> {
        EffectRunner.run(initial: Counter(), actions: actions.eraseToAnyPublisher(), scheduler: scheduler.eraseToAnyScheduler(),
                         reduce: Self.reduce) { [unowned self] effect in
            switch effect {
            case .ask(let what):
                if what == "now" { return .run(Just(Action.answer("at once")).eraseToAnyPublisher(), id: "ask", immediate: immediate) }
                if what == "sync" { return .answer(id: "ask") { .answer("sync") } }
                if what == "later" {
                    return .after(.milliseconds(300), id: "ask") { [unowned self] in
                        laterReads += 1
                        return .answer("later")
                    }
                }
                let subject = PassthroughSubject<String, Never>()
                requests[what] = subject
                return .run(subject.map(Action.answer).eraseToAnyPublisher(), id: "ask")
            case .cancel:
                return .cancel("ask")
            case .go:
                return .all([.route("first"), .route("second")])
            }
        }
    }

    func testNothingIsEmittedBeforeTheFirstActionAndUnchangedStatesAreNotRepeated() {
        let actions = PassthroughSubject<Action, Never>()
        let state = TestObserver(run(actions).state)
        XCTAssertEqual(state.values, [])
        actions.send(.add(0))
        actions.send(.add(0))
        actions.send(.add(2))
        XCTAssertEqual(state.values.map(\.total), [0, 2])
    }

    /// A store's contents arrive the moment the loop starts, before its subscriber has asked for
    /// anything: the state they make is kept for it, not dropped.
    func testActionsThatComeWithTheSubscriptionAreNotLost() {
        let loop = EffectRunner.run(initial: Counter(), actions: Just(Action.add(5)).eraseToAnyPublisher(),
                                    scheduler: scheduler.eraseToAnyScheduler(), reduce: Self.reduce) { _ in Work<Action, String>.none }
        let state = TestObserver(loop.state)
        XCTAssertEqual(state.values.map(\.total), [5])
    }

    func testANewerRequestWithTheSameIdReplacesTheOneInFlightAndItsLateAnswerIsDropped() {
        let actions = PassthroughSubject<Action, Never>()
        let state = TestObserver(run(actions).state)
        actions.send(.ask("a"))
        let first = requests["a"]!
        actions.send(.ask("b"))
        first.send("late a")
        requests["b"]!.send("b")
        scheduler.advance()
        XCTAssertEqual(state.last?.answers, ["b"])
    }

    func testAnAnswerAlreadyQueuedOnTheSchedulerIsDroppedWhenItsWorkIsCancelled() {
        let actions = PassthroughSubject<Action, Never>()
        let state = TestObserver(run(actions).state)
        actions.send(.ask("a"))
        requests["a"]!.send("queued")   // waiting on the scheduler
        actions.send(.cancel)
        scheduler.advance()
        XCTAssertEqual(state.last?.answers, [])
    }

    func testAnImmediateAnswerIsReducedAfterTheActionThatAskedForItNotInsideIt() {
        let actions = PassthroughSubject<Action, Never>()
        let state = TestObserver(run(actions, immediate: true).state)
        actions.send(.ask("now"))
        XCTAssertEqual(state.values.map(\.answers), [[], ["at once"]])
    }

    func testRoutesComeOutInOrder() {
        let actions = PassthroughSubject<Action, Never>()
        let loop = run(actions)
        let route = TestObserver(loop.route)
        let state = TestObserver(loop.state)
        actions.send(.go)
        XCTAssertEqual(route.values, ["first", "second"])
        withExtendedLifetime(state) {}
    }

    func testEndingTheSubscriptionStopsTheWorkInFlight() {
        let actions = PassthroughSubject<Action, Never>()
        let state = TestObserver(run(actions).state)
        actions.send(.ask("a"))
        state.cancel()
        requests["a"]!.send("after")
        actions.send(.add(1))
        scheduler.advance()
        XCTAssertEqual(state.values.map(\.total), [0])
    }

    // MARK: Work answered where it is asked, now or after a delay

    func testAnAnswerIsReducedAfterTheActionThatAskedForItNotInsideIt() {
        let actions = PassthroughSubject<Action, Never>()
        let state = TestObserver(run(actions).state)
        actions.send(.ask("sync"))
        XCTAssertEqual(state.values.map(\.answers), [[], ["sync"]])
    }

    func testAnAnswerWithAnIdReplacesTheWorkInFlightWithThatId() {
        let actions = PassthroughSubject<Action, Never>()
        let state = TestObserver(run(actions).state)
        actions.send(.ask("a"))
        actions.send(.ask("sync"))
        requests["a"]!.send("late a")
        scheduler.advance()
        XCTAssertEqual(state.last?.answers, ["sync"])
    }

    func testALaterAnswerComesOnlyOnceItsDelayHasPassed() {
        let actions = PassthroughSubject<Action, Never>()
        let state = TestObserver(run(actions).state)
        actions.send(.ask("later"))
        scheduler.advance(by: .milliseconds(299))
        XCTAssertEqual(state.last?.answers, [])
        XCTAssertEqual(laterReads, 0)
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(state.last?.answers, ["later"])
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(laterReads, 1, "a later answer is worked out once")
    }

    /// Replaced, cancelled or stopped before its delay, a later answer is never worked out: rows that
    /// only flashed by are never read.
    func testALaterAnswerReplacedCancelledOrStoppedIsNeverWorkedOut() {
        for end in ["replaced", "cancelled", "stopped"] {
            laterReads = 0
            let actions = PassthroughSubject<Action, Never>()
            let state = TestObserver(run(actions).state)
            actions.send(.ask("later"))
            scheduler.advance(by: .milliseconds(100))
            switch end {
            case "replaced": actions.send(.ask("sync"))
            case "cancelled": actions.send(.cancel)
            default: state.cancel()
            }
            scheduler.advance(by: .seconds(1))
            XCTAssertEqual(laterReads, 0, end)
            XCTAssertFalse(state.values.contains { $0.answers.contains("later") }, end)
        }
    }
}
