import Foundation
import NimbusData
import NimbusDomain
import CombineSchedulers
import OpenCombineShim

/// Which city catalogue to load.
public enum CatalogChoice: Equatable, Sendable {
    /// The bundled cities15000 tier (~34k cities).
    case bundled
    /// The cities1000 tier generated into the user's data directory.
    case large
    /// A catalogue file given on the command line.
    case file(URL)
}

extension AppDIContainer {
    /// What the app is started with: the environment, the command line's choices, and the clocks,
    /// queues and network of the run (the real ones, or a tape's).
    public struct Configuration {
        public var environment: [String: String]
        public var catalog: CatalogChoice
        /// The position given with `--location`.
        public var location: GeoPoint?
        public var scheduler: AnySchedulerOf<DispatchQueue>
        public var colors: Bool
        /// How requests go out: the one HTTP client of the app, shared by weather and films. Offline
        /// by default (every request fails as unreachable), so nothing but the real app (`Run`, a
        /// `LiveHTTPClient`) and tapes with `Serve` ever makes a request.
        public var httpClient: HTTPClient
        /// Scales each retry's backoff (a number in 0..<1): random, but fixed in tapes so their
        /// retries, timed by the virtual clock, come at the same moment every run.
        public var retryJitter: @Sendable () -> Double = { Double.random(in: 0..<1) }
        /// The log (`NIMBUS_LOG`, `--log-file`): off unless the real app was asked for one.
        public var log: NimbusLog = .off
        /// The wall clock (tapes pin it).
        public var now: @Sendable () -> Date
        /// Where maps are drawn; nil draws them on `scheduler` (tapes and tests: deterministic).
        public var renderScheduler: AnySchedulerOf<DispatchQueue>?
        /// Where other work leaves the main thread (finding the nearest city); nil does it on `scheduler`.
        /// A serial queue: `receive(on:)` a concurrent one may deliver a completion before the value.
        public var workScheduler: AnySchedulerOf<DispatchQueue>?
        /// Where the settings file is written; nil writes it on `scheduler` (tapes and tests: when
        /// their clock runs).
        public var settingsScheduler: AnySchedulerOf<DispatchQueue>?
        /// Settings given on the command line (`--units`, `--theme`, `--map-style`, `--no-mouse`): above
        /// the environment and the file.
        public var settingsFlags = UserSettings()

        public init(environment: [String: String], catalog: CatalogChoice = .bundled, location: GeoPoint? = nil,
                    scheduler: AnySchedulerOf<DispatchQueue>, colors: Bool = true, httpClient: HTTPClient = OfflineHTTPClient(),
                    now: @escaping @Sendable () -> Date = { Date() },
                    renderScheduler: AnySchedulerOf<DispatchQueue>? = nil, workScheduler: AnySchedulerOf<DispatchQueue>? = nil) {
            self.environment = environment
            self.catalog = catalog
            self.location = location
            self.scheduler = scheduler
            self.colors = colors
            self.httpClient = httpClient
            self.now = now
            self.renderScheduler = renderScheduler
            self.workScheduler = workScheduler
        }
    }
}
