import Foundation
import OpenCombineShim

/// One answer of one of the publishers given to `indexedMerge`: which one (its position in the
/// list) and what it sent, a value or the error it ended with.
public struct Indexed<Value, Failure: Error> {
    public let index: Int
    public let result: Result<Value, Failure>
    public init(index: Int, result: Result<Value, Failure>) {
        self.index = index
        self.result = result
    }
}

extension Indexed: Equatable where Value: Equatable, Failure: Equatable {}

/// Every value of every publisher as it comes, tagged with the index of the publisher it came from
/// (RxSideDish's `indexedMerge`: one request per section, each answer applied to its own section).
///
/// All publishers are subscribed to at once, so a slow one never holds back a fast one. An error
/// ends only the publisher that sent it: it arrives as a `.failure` tagged with that index and the
/// others go on. The merged publisher finishes when every publisher has finished or failed.
public func indexedMerge<Value, Failure: Error>(_ publishers: [AnyPublisher<Value, Failure>])
    -> AnyPublisher<Indexed<Value, Failure>, Never> {
    let tagged = publishers.enumerated().map { index, publisher in
        publisher
            .map { Indexed(index: index, result: .success($0)) }
            .catch { Just(Indexed(index: index, result: .failure($0))) }
            .eraseToAnyPublisher()
    }
    return Publishers.Sequence<[AnyPublisher<Indexed<Value, Failure>, Never>], Never>(sequence: tagged)
        .flatMap { $0 }
        .eraseToAnyPublisher()
}
