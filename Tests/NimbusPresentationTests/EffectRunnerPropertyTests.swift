import Foundation
import Testing
import PropertyBased
import CombineSchedulers
import OpenCombineShim
import NimbusLoop
import TestSupport

/// Work answered where it is asked (`Work.answer`) and after a delay (`Work.after`), under random
/// steps: answers now, answers later (two ids, delays that tie), cancels, time passing, the
/// subscription ending. A plain model says which answers must have arrived, in which order; a later
/// answer is worked out only when it is delivered (never for rows that only flashed by).
struct EffectRunnerPropertyTests {
    private enum Step: Equatable {
        case now(id: String, n: Int)
        case later(id: String, milliseconds: Int, n: Int)
        case cancel(id: String)
        case advance(milliseconds: Int)
        case stop
    }

    private struct Answers: Equatable { var list: [String] = [] }
    private enum Action { case step(Step), answer(String) }

    private static func step(_ seed: Int) -> Step {
        let n = abs(seed % 1_000_000)
        let id = n / 8 % 2 == 0 ? "a" : "b"
        switch n % 8 {
        case 0, 1: return .now(id: id, n: n)
        case 2, 3, 4: return .later(id: id, milliseconds: n / 16 % 6 * 100, n: n)
        case 5: return .cancel(id: id)
        case 6: return .advance(milliseconds: n / 16 % 4 * 100)
        default: return n / 16 % 8 == 0 ? .stop : .advance(milliseconds: 50)
        }
    }

    @Test func answersArriveAsAModelOfThemSaysAndLaterOnesAreWorkedOutOnlyWhenDelivered() async {
        await propertyCheck(count: PropertyCount.scaled(default: 200), input: Gen.int().array(of: 1...50)) { seeds in
            let steps = seeds.map(Self.step)
            let scheduler = DispatchQueue.test
            var workedOut = 0
            let actions = PassthroughSubject<Action, Never>()
            let loop = EffectRunner.run(
                initial: Answers(), actions: actions.eraseToAnyPublisher(), scheduler: scheduler.eraseToAnyScheduler(),
                reduce: { (state: inout Answers, action: Action) -> [Step] in
                    switch action {
                    case .step(let step): return [step]
                    case .answer(let text): state.list.append(text); return []
                    }
                },
                perform: { (step: Step) -> Work<Action, Never> in
                    switch step {
                    case .now(let id, let n): return .answer(id: id) { .answer("now \(n)") }
                    case .later(let id, let milliseconds, let n):
                        return .after(.milliseconds(milliseconds), id: id) {
                            workedOut += 1
                            return .answer("later \(n)")
                        }
                    case .cancel(let id): return .cancel(id)
                    case .advance, .stop: return .none
                    }
                })
            let state = TestObserver(loop.state)

            // The model: the answers due, the later ones pending by id with when they are due.
            var expected: [String] = []
            var pending: [String: (due: Int, order: Int, n: Int)] = [:]
            var clock = 0, order = 0, stopped = false
            for step in steps {
                switch step {
                case .now(let id, let n):
                    pending[id] = nil
                    expected.append("now \(n)")
                case .later(let id, let milliseconds, let n):
                    order += 1
                    pending[id] = (clock + milliseconds, order, n)
                case .cancel(let id):
                    pending[id] = nil
                case .advance(let milliseconds):
                    clock += milliseconds
                    let due = pending.filter { $0.value.due <= clock }.sorted { ($0.value.due, $0.value.order) < ($1.value.due, $1.value.order) }
                    for (id, later) in due {
                        expected.append("later \(later.n)")
                        pending[id] = nil
                    }
                case .stop:
                    stopped = true
                }
                if stopped {
                    state.cancel()
                    scheduler.advance(by: .seconds(10))
                    break
                }
                actions.send(.step(step))
                if case .advance(let milliseconds) = step { scheduler.advance(by: .milliseconds(milliseconds)) }
                #expect((state.last?.list ?? []) == expected, "after \(step) in \(steps)")
            }
            if stopped { #expect((state.last?.list ?? []) == expected, "nothing arrives once stopped: \(steps)") }
            #expect(workedOut == expected.filter { $0.hasPrefix("later") }.count, "\(steps)")
        }
    }
}
