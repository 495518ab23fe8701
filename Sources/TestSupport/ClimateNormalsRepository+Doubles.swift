import Foundation
import NimbusDomain
import OpenCombineShim

/// Climate normals the test answers by hand.
public final class ScriptedNormalsRepository: ClimateNormalsRepository, @unchecked Sendable { // unchecked: one thread
    public init() {}

    public private(set) var requests: [Coordinate] = []
    /// Whether each request asked past the kept copy.
    public private(set) var refreshes: [Bool] = []
    /// The places whose kept copy was dropped.
    public private(set) var forgotten: [Coordinate] = []
    public var subject = PassthroughSubject<ClimateNormals, ClimateError>()

    public func normals(for coordinate: Coordinate, refresh: Bool) -> AnyPublisher<ClimateNormals, ClimateError> {
        requests.append(coordinate)
        refreshes.append(refresh)
        subject = PassthroughSubject()
        return subject.eraseToAnyPublisher()
    }

    public func forget(_ coordinate: Coordinate) {
        forgotten.append(coordinate)
    }
}
