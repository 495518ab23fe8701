import Foundation
import NimbusDomain
import OpenCombineShim

/// Climate normals the test answers by hand.
public final class ScriptedNormalsRepository: ClimateNormalsRepository, @unchecked Sendable { // unchecked: one thread
    public init() {}

    public private(set) var requests: [Coordinate] = []
    public var subject = PassthroughSubject<ClimateNormals, ClimateError>()

    public func normals(for coordinate: Coordinate) -> AnyPublisher<ClimateNormals, ClimateError> {
        requests.append(coordinate)
        subject = PassthroughSubject()
        return subject.eraseToAnyPublisher()
    }
}
