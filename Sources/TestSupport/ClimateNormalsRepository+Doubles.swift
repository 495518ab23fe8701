import Foundation
import Synchronization
import NimbusDomain
@preconcurrency import OpenCombineShim

/// Climate normals the test answers by hand.
public final class ScriptedNormalsRepository: ClimateNormalsRepository, Sendable {
    /// What the tests set and read, and what the calls record.
    private struct State {
        var requests: [Coordinate] = []
        var refreshes: [Bool] = []
        var forgotten: [Coordinate] = []
        var subject: PassthroughSubject<ClimateNormals, ClimateError> = PassthroughSubject()
    }
    private let state = Mutex(State())
    public init() {}

    public private(set) var requests: [Coordinate] {
        get { state.withLock { $0.requests } }
        set { state.withLock { $0.requests = newValue } }
    }
    /// Whether each request asked past the kept copy.
    public private(set) var refreshes: [Bool] {
        get { state.withLock { $0.refreshes } }
        set { state.withLock { $0.refreshes = newValue } }
    }
    /// The places whose kept copy was dropped.
    public private(set) var forgotten: [Coordinate] {
        get { state.withLock { $0.forgotten } }
        set { state.withLock { $0.forgotten = newValue } }
    }
    public var subject: PassthroughSubject<ClimateNormals, ClimateError> {
        get { state.withLock { $0.subject } }
        set { state.withLock { $0.subject = newValue } }
    }

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
