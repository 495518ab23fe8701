import Foundation
import OpenCombineShim

/// Every value of every publisher, as they come (OpenCombine 0.14 has no `Publishers.Merge`).
public func merge<T, E: Error>(_ publishers: AnyPublisher<T, E>...) -> AnyPublisher<T, E> {
    Publishers.Sequence<[AnyPublisher<T, E>], E>(sequence: publishers)
        .flatMap { $0 }
        .eraseToAnyPublisher()
}
