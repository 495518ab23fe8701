import Foundation
@preconcurrency import OpenCombineShim

extension Publisher where Failure == Never {
    /// Pairs each value with the latest value of `other` (values before `other` has emitted are dropped).
    func withLatest<Other: Publisher>(from other: Other) -> AnyPublisher<(Output, Other.Output), Never>
        where Other.Failure == Never {
        let latest = CurrentValueSubject<Other.Output?, Never>(nil)
        var keep: AnyCancellable?
        return handleEvents(receiveSubscription: { _ in
            keep = other.sink { latest.send($0) }
        }, receiveCancel: {
            keep?.cancel()
        })
        .compactMap { value in latest.value.map { (value, $0) } }
        .eraseToAnyPublisher()
    }
}
