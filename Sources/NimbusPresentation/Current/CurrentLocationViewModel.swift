import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers

/// What the Current tab shows above the city's detail.
public struct CurrentLocationState: Equatable, Sendable {
    public enum Status: Equatable, Sendable {
        case locating
        /// The nearest city; `summary` says how it was found and how far it is.
        case located(City, summary: String, approximate: Bool)
        case failed(String)
    }

    public let status: Status
    /// Settings that were skipped, one line each.
    public let warnings: [String]
}

/// Finds the city nearest to the user, offline, once the tab is first shown.
public final class CurrentLocationViewModel {
    public struct Input {
        public let appeared: AnyPublisher<Void, Never>
        public init(appeared: AnyPublisher<Void, Never>) { self.appeared = appeared }
    }

    public struct Output {
        public let state: AnyPublisher<CurrentLocationState, Never>
    }

    private let locate: LocateCurrentCityUseCase
    private let format: WeatherFormatter
    private let scheduler: AnySchedulerOf<DispatchQueue>

    public init(locate: LocateCurrentCityUseCase, format: WeatherFormatter, scheduler: AnySchedulerOf<DispatchQueue>) {
        self.locate = locate
        self.format = format
        self.scheduler = scheduler
    }

    public func transform(input: Input) -> Output {
        let locate = self.locate
        let format = self.format
        let scheduler = self.scheduler
        let state = input.appeared
            .first()
            .map { _ in
                // The spatial index is built on first use; the frame before shows "locating".
                Just(())
                    .receive(on: scheduler)
                    .map { Self.state(locate.execute(), format: format) }
                    .prepend(CurrentLocationState(status: .locating, warnings: []))
            }
            .switchToLatest()
            .eraseToAnyPublisher()
        return Output(state: state)
    }

    static func state(_ result: Result<CurrentCity, LocateCityError>, format: WeatherFormatter) -> CurrentLocationState {
        let l10n = format.l10n
        func warnings(_ ignored: [IgnoredLocationSetting]) -> [String] {
            ignored.map { l10n.format(.currentIgnored, $0.name, DisplayText.clip($0.value, 40)) }
        }
        switch result {
        case .success(let current):
            let summary: String
            switch current.location {
            case .argument(let point):
                summary = l10n.format(.currentFromArgument, Self.point(point), distance(current.distance ?? 0, format))
            case .environment(let point):
                summary = l10n.format(.currentFromEnvironment, Self.point(point), distance(current.distance ?? 0, format))
            case .timeZone(let zone):
                summary = l10n.format(.currentFromTimeZone, zone)
            case .unknown:
                summary = ""
            }
            return CurrentLocationState(status: .located(current.city, summary: summary, approximate: current.isApproximate),
                                        warnings: warnings(current.ignored))
        case .failure(.noLocation(let zone, let ignored)):
            let message = zone.map { l10n.format(.currentNoCityInZone, $0) } ?? l10n[.currentNoLocation]
            return CurrentLocationState(status: .failed(message), warnings: warnings(ignored))
        }
    }

    static func point(_ p: GeoPoint) -> String {
        WeatherFormatter.coordinates(p.coordinate)
    }

    /// "4.2 km", "35 km", "2.6 mi".
    static func distance(_ metres: Double, _ format: WeatherFormatter) -> String {
        let value = format.units == .metric ? metres / 1000 : metres / 1609.344
        let unit = format.units == .metric ? "km" : "mi"
        guard value.isFinite, abs(value) < WeatherFormatter.displayLimit else { return "–" }
        return (value < 10 ? String(format: "%.1f", value) : String(Int(value.rounded()))) + " " + unit
    }
}

/// Clipping of text from settings before it is shown.
enum DisplayText {
    static func clip(_ s: String, _ n: Int) -> String {
        let clean = String(s.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
        return clean.count > n ? String(clean.prefix(n - 1)) + "…" : clean
    }
}
