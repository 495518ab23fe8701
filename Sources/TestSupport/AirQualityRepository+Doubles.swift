import Foundation
import NimbusDomain
import OpenCombineShim

/// An air-quality repository the test drives by hand: each request is a subject.
public final class ScriptedAirRepository: AirQualityRepository, @unchecked Sendable { // unchecked: one thread
    public init() {}

    public private(set) var requests: [Coordinate] = []
    public private(set) var cancellations = 0
    /// Subscriptions to the answers (a request is made, and a kept copy read, only when subscribed).
    public private(set) var subscriptions = 0
    public var subject = PassthroughSubject<Fetched<AirQuality>, WeatherError>()

    public func airQuality(for coordinate: Coordinate) -> AnyPublisher<Fetched<AirQuality>, WeatherError> {
        requests.append(coordinate)
        subject = PassthroughSubject()
        return subject.handleEvents(receiveSubscription: { [weak self] _ in self?.subscriptions += 1 },
                                    receiveCancel: { [weak self] in self?.cancellations += 1 }).eraseToAnyPublisher()
    }
}
