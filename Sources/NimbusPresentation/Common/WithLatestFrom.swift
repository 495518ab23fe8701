import Foundation
@preconcurrency import OpenCombineShim

extension Publisher where Failure == Never {
    /// Pairs each value with the latest value of `other` (values before `other` has emitted are dropped).
    /// Each subscriber gets its own subscription to `other`, held as long as its own.
    func withLatest<Other: Publisher>(from other: Other) -> AnyPublisher<(Output, Other.Output), Never>
        where Other.Failure == Never {
        Deferred { () -> AnyPublisher<(Output, Other.Output), Never> in
            let latest = CurrentValueSubject<Other.Output?, Never>(nil)
            var keep: AnyCancellable?
            return self
                .handleEvents(receiveSubscription: { _ in keep = other.sink { latest.send($0) } },
                              receiveCompletion: { _ in keep?.cancel() },
                              receiveCancel: { keep?.cancel() })
                .compactMap { value in latest.value.map { (value, $0) } }
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }
}
