import Foundation
import Synchronization
@preconcurrency import OpenCombineShim

extension Publisher where Failure == Never {
    /// Pairs each value with the latest value of `other` (values before `other` has emitted are dropped).
    /// Each subscriber gets its own subscription to `other`, held as long as its own.
    func withLatest<Other: Publisher>(from other: Other) -> AnyPublisher<(Output, Other.Output), Never>
        where Other.Failure == Never, Other.Output: Sendable {
        Deferred { () -> AnyPublisher<(Output, Other.Output), Never> in
            let latest = LatestValue<Other.Output>()
            return self
                .handleEvents(receiveSubscription: { _ in other.subscribe(latest) },
                              receiveCompletion: { _ in latest.stop() },
                              receiveCancel: { latest.stop() })
                .compactMap { value in latest.value.map { (value, $0) } }
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }
}

/// The last value of a publisher, kept by a subscriber of its own: it runs on every value of the
/// publisher it follows (the city list's state, on every keystroke), so it is one lock and a
/// store rather than a sink feeding a `CurrentValueSubject`.
private final class LatestValue<Value: Sendable>: Subscriber, Sendable {
    typealias Input = Value
    typealias Failure = Never

    private struct State {
        var stored: Value?
        var subscription: Subscription?
        var stopped = false
    }
    private let state = Mutex(State())

    var value: Value? { state.withLock { $0.stored } }

    func receive(subscription: Subscription) {
        let accepted = state.withLock { state in
            guard !state.stopped, state.subscription == nil else { return false }
            state.subscription = subscription
            return true
        }
        guard accepted else { subscription.cancel(); return }
        subscription.request(.unlimited)
    }

    func receive(_ input: Value) -> Subscribers.Demand {
        state.withLock { $0.stored = input }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}

    /// Cancels the subscription to the followed publisher (and with it this subscriber's retain).
    func stop() {
        let subscription = state.withLock { state in
            state.stopped = true
            defer { state.subscription = nil }
            return state.subscription
        }
        subscription?.cancel()
    }
}
