import Foundation
@preconcurrency import OpenCombineShim

/// Records every value a publisher emits, so tests can assert the whole history.
public final class TestObserver<Value> {
    public private(set) var values: [Value] = []
    public private(set) var finished = false
    private var cancellable: AnyCancellable?

    public init<P: Publisher>(_ publisher: P) where P.Output == Value, P.Failure == Never {
        cancellable = publisher.sink(
            receiveCompletion: { [weak self] _ in self?.finished = true },
            receiveValue: { [weak self] in self?.values.append($0) })
    }

    public var last: Value? { values.last }

    public func cancel() { cancellable?.cancel() }
}
