import Foundation
@preconcurrency import OpenCombineShim

extension Publisher where Failure == Never {
    /// Pairs each value with the latest value of `other` (values before `other` has emitted are dropped).
    /// Each subscriber gets its own subscription to `other`, held as long as its own.
    func withLatest<Other: Publisher>(from other: Other) -> AnyPublisher<(Output, Other.Output), Never>
        where Other.Failure == Never {
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
private final class LatestValue<Value>: Subscriber, @unchecked Sendable {
    typealias Input = Value
    typealias Failure = Never

    private let lock = NSLock()
    private var stored: Value?
    private var subscription: Subscription?
    private var stopped = false

    var value: Value? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func receive(subscription: Subscription) {
        lock.lock()
        guard !stopped, self.subscription == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        self.subscription = subscription
        lock.unlock()
        subscription.request(.unlimited)
    }

    func receive(_ input: Value) -> Subscribers.Demand {
        lock.lock()
        stored = input
        lock.unlock()
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}

    /// Cancels the subscription to the followed publisher (and with it this subscriber's retain).
    func stop() {
        lock.lock()
        stopped = true
        let subscription = self.subscription
        self.subscription = nil
        lock.unlock()
        subscription?.cancel()
    }
}
