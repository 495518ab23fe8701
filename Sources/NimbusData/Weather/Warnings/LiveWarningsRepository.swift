import Foundation
import Logging
import NimbusDomain
import OpenCombineShim

/// Official warnings from the service that covers a city's country: the NWS (United States and its
/// territories), MeteoAlarm (the European countries whose regions are bundled) and the JMA (Japan).
/// The kept copy first, then the service's answer, asked conditionally; only an answer whose
/// warnings were believed is kept.
public final class LiveWarningsRepository: WarningsRepository, Sendable {
    private let sources: [any WarningsSource]
    private let cache: WarningsCache?
    private let now: @Sendable () -> Date
    private let logger: Logger?

    init(sources: [any WarningsSource], cache: WarningsCache?, now: @escaping @Sendable () -> Date = Date.init,
         logger: Logger? = nil) {
        self.sources = sources
        self.cache = cache
        self.now = now
        self.logger = logger
    }

    /// The three services, their base URLs from the environment (`NIMBUS_NWS_URL`,
    /// `NIMBUS_METEOALARM_URL`, `NIMBUS_JMA_URL`); `cacheDirectory` is `$XDG_CACHE_HOME/nimbus`.
    /// `regions` is read when a city is first asked about (not when the repository is made: the
    /// screens make theirs before the first frame), and MeteoAlarm covers no city without it.
    public convenience init(client: HTTPClient, environment: [String: String], cacheDirectory: URL?,
                            version: String, regions: @autoclosure @escaping @Sendable () -> MeteoAlarmRegions?,
                            timeout: TimeInterval = 15, now: @escaping @Sendable () -> Date = Date.init, logger: Logger? = nil) {
        let nws = NWSWarnings(client: client, baseURL: NWSWarnings.baseURL(environment: environment),
                              userAgent: NWSWarnings.userAgent(version: version, environment: environment), timeout: timeout)
        var sources: [any WarningsSource] = [nws]
        sources.append(MeteoAlarmWarnings(client: client, baseURL: MeteoAlarmWarnings.baseURL(environment: environment),
                                          regions: MeteoAlarmWarnings.Regions(regions), timeout: timeout))
        sources.append(JMAWarnings(client: client, baseURL: JMAWarnings.baseURL(environment: environment),
                                   areas: cacheDirectory.map { JMAAreaCache(directory: $0) }, timeout: timeout))
        self.init(sources: sources, cache: cacheDirectory.map { WarningsCache(directory: $0) }, now: now, logger: logger)
    }

    private func source(for city: City) -> (any WarningsSource)? {
        sources.first { $0.covers(city) }
    }

    public func coverage(for city: City) -> WarningsCoverage {
        source(for: city).map { .covered($0.source) } ?? .notCovered
    }

    public func warnings(for city: City) -> AnyPublisher<WarningsReport, WarningsError> {
        guard let source = source(for: city) else { return Empty().eraseToAnyPublisher() }
        let kind = source.source
        let cache = self.cache
        let now = self.now
        let logger = self.logger
        return Deferred { () -> AnyPublisher<WarningsReport, WarningsError> in
            let kept = cache?.read(kind, city: city.id)
            if let kept, let logger {
                logger.info("warnings (\(kind.rawValue)) for city \(city.id) from the kept copy: \(kept.warnings.count), checked \(Int(now().timeIntervalSince(kept.checkedAt))) s ago")
            }
            let first = kept.map {
                Just(WarningsReport(warnings: $0.warnings, source: kind, checkedAt: $0.checkedAt, isCached: true))
                    .setFailureType(to: WarningsError.self).eraseToAnyPublisher()
            } ?? Empty().eraseToAnyPublisher()
            let fresh = source.fetch(for: city, kept: kept)
                .map { answer -> WarningsReport in
                    let checked = now()
                    let entry = WarningsCache.Entry(warnings: answer.warnings, checkedAt: checked, validators: answer.validators)
                    cache?.write(entry, kind, city: city.id)
                    return WarningsReport(warnings: answer.warnings, source: kind, checkedAt: checked, isCached: false)
                }
            return first.append(fresh).eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }
}
