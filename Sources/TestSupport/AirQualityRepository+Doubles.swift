import Foundation
import Synchronization
import NimbusDomain
@preconcurrency import OpenCombineShim

/// An air-quality repository the test drives by hand: each request is a subject.
public final class ScriptedAirRepository: AirQualityRepository, Sendable {
    /// What the tests set and read, and what the calls record.
    private struct State {
        var requests: [Coordinate] = []
        var cancellations: Int = 0
        var subscriptions: Int = 0
        var subject: PassthroughSubject<Fetched<AirQuality>, WeatherError> = PassthroughSubject()
    }
    private let state = Mutex(State())
    public init() {}

    public private(set) var requests: [Coordinate] {
        get { state.withLock { $0.requests } }
        set { state.withLock { $0.requests = newValue } }
    }
    public private(set) var cancellations: Int {
        get { state.withLock { $0.cancellations } }
        set { state.withLock { $0.cancellations = newValue } }
    }
    /// Subscriptions to the answers (a request is made, and a kept copy read, only when subscribed).
    public private(set) var subscriptions: Int {
        get { state.withLock { $0.subscriptions } }
        set { state.withLock { $0.subscriptions = newValue } }
    }
    public var subject: PassthroughSubject<Fetched<AirQuality>, WeatherError> {
        get { state.withLock { $0.subject } }
        set { state.withLock { $0.subject = newValue } }
    }

    public func airQuality(for coordinate: Coordinate) -> AnyPublisher<Fetched<AirQuality>, WeatherError> {
        requests.append(coordinate)
        subject = PassthroughSubject()
        return subject.handleEvents(receiveSubscription: { [weak self] _ in self?.subscriptions += 1 },
                                    receiveCancel: { [weak self] in self?.cancellations += 1 }).eraseToAnyPublisher()
    }
}
