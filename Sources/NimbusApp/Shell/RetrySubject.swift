import Foundation
import NimbusPresentation

/// What a request waiting to be sent again was for, so the status bar's countdown names it
/// ("forecast: connection failed, retrying in 2 s"): several requests run at once on a city's
/// screen, and the one retried is often not the one on screen.
enum RetrySubject: Equatable {
    case forecast, airQuality, normals, warnings, earthquakes, films

    /// By the request's path, which each service's client fixes whatever its base URL
    /// (`NIMBUS_WEATHER_URL` and the others may point several at one server); nil for any other.
    init?(url: URL) {
        let path = url.path
        if path.hasSuffix("/v1/forecast") { self = .forecast }
        else if path.hasSuffix("/v1/air-quality") { self = .airQuality }
        else if path.hasSuffix("/v1/archive") { self = .normals }
        else if path.hasSuffix("/alerts/active") || path.contains("/feeds/meteoalarm") || path.contains("/bosai/") { self = .warnings }
        else if path.contains("/earthquakes/feed/") { self = .earthquakes }
        else if path.hasPrefix("/3/") || path.contains("/3/search/") || path.contains("/3/movie/") { self = .films }
        else { return nil }
    }

    var key: L10nKey {
        switch self {
        case .forecast: .statusRetryForecast
        case .airQuality: .statusRetryAir
        case .normals: .statusRetryNormals
        case .warnings: .statusRetryWarnings
        case .earthquakes: .statusRetryQuakes
        case .films: .statusRetryFilms
        }
    }
}
