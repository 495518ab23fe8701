import Foundation
import NimbusDomain
import OpenCombineShim

/// The US National Weather Service's active alerts for a point: `GET /alerts/active?point=LAT,LON`
/// (api.weather.gov, keyless; a `User-Agent` naming the app and a contact is required). The answer is
/// a GeoJSON `FeatureCollection` whose features' `properties` are CAP fields (the API's published
/// OpenAPI description, `AlertCollectionGeoJson` and `Alert`).
struct NWSWarnings: WarningsSource {
    static let defaultBaseURL = "https://api.weather.gov"
    /// Where the NWS issues alerts: the states and the territories it forecasts for.
    static let countries: Set<String> = ["US", "PR", "VI", "GU", "AS", "MP"]
    /// A point's alerts are a few kilobytes each; this is hundreds of them.
    static let maxBytes = 4 << 20

    let client: HTTPClient
    let baseURL: String
    let userAgent: String
    let timeout: TimeInterval

    var source: WeatherWarning.Source { .nws }

    func covers(_ city: City) -> Bool { Self.countries.contains(city.countryCode) }

    /// `NIMBUS_NWS_URL`, else the NWS's.
    static func baseURL(environment: [String: String]) -> String {
        HTTPRequest.base(environment["NIMBUS_NWS_URL"], else: defaultBaseURL)
    }

    /// "nimbus/VERSION (terminal weather app)", with the contact the user gave in `NIMBUS_NWS_CONTACT`
    /// (an e-mail address or URL) when there is one: the NWS asks for one in every request's
    /// `User-Agent`. Only printable ASCII goes into a header.
    static func userAgent(version: String, environment: [String: String]) -> String {
        let contact = (environment["NIMBUS_NWS_CONTACT"] ?? "").unicodeScalars
            .filter { (0x21...0x7E).contains($0.value) && $0 != "(" && $0 != ")" }
            .prefix(120)
        let suffix = contact.isEmpty ? "" : "; " + String(String.UnicodeScalarView(contact))
        return "nimbus/\(version) (terminal weather app\(suffix))"
    }

    /// The point as the API wants it: at most four decimals (more are redirected).
    static func point(_ coordinate: Coordinate) -> String {
        func f(_ v: Double) -> String {
            var s = String(format: "%.4f", v)
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
            return s == "-0" ? "0" : s
        }
        return "\(f(coordinate.latitude)),\(f(coordinate.longitude))"
    }

    func request(for city: City) -> HTTPRequest? {
        HTTPRequest(base: baseURL, path: "/alerts/active",
                    query: [URLQueryItem(name: "point", value: Self.point(city.coordinate))],
                    headers: ["User-Agent": userAgent, "Accept": "application/geo+json"],
                    timeout: timeout, maxBytes: Self.maxBytes)
    }

    func fetch(for city: City, kept: WarningsCache.Entry?) -> AnyPublisher<WarningsAnswer, WarningsError> {
        guard city.coordinate.isValid, let request = request(for: city) else {
            return Fail(error: .badConfiguration).eraseToAnyPublisher()
        }
        return conditional(client, request, kept: kept, decode: Self.decode)
    }

    /// The alerts of an answer, checked; throws when it is not an alert collection.
    static func decode(_ body: Data) throws -> [WeatherWarning] {
        let collection: NWSAlertCollectionDTO
        do {
            collection = try JSONDecoder().decode(NWSAlertCollectionDTO.self, from: body)
        } catch {
            throw WarningsError.badResponse
        }
        guard collection.type == nil || collection.type == "FeatureCollection" else { throw WarningsError.badResponse }
        var candidates = 0
        var warnings: [WeatherWarning] = []
        for feature in collection.features {
            guard let p = feature.value?.properties else { candidates += 1; continue }
            // Tests, exercises and drafts are not warnings; a cancellation withdraws one.
            guard p.status.map({ $0 == "Actual" }) ?? true,
                  !["Cancel", "Ack", "Error"].contains(p.messageType ?? "") else { continue }
            candidates += 1
            if let warning = p.toDomain(featureID: feature.value?.id) { warnings.append(warning) }
        }
        return try WarningChecks.kept(warnings, of: candidates)
    }
}

/// `AlertCollectionGeoJson`: only what a warning needs. A feature that does not decode is dropped
/// on its own (`Lossy`), the others kept.
struct NWSAlertCollectionDTO: Decodable {
    struct Feature: Decodable {
        let id: String?
        let properties: Properties?
    }

    struct Properties: Decodable {
        let id: String?
        let event: String?
        let severity: String?
        let headline: String?
        let description: String?
        let instruction: String?
        let senderName: String?
        let sent: String?
        let effective: String?
        let onset: String?
        let expires: String?
        let ends: String?
        let status: String?
        let messageType: String?
        let language: String?
    }

    let type: String?
    let features: [Lossy<Feature>]
}

extension NWSAlertCollectionDTO.Properties {
    func toDomain(featureID: String?) -> WeatherWarning? {
        let effective = WarningText.instant(self.effective) ?? WarningText.instant(sent)
        return WarningChecks.warning(
            id: id ?? featureID, source: .nws, event: event, severity: WeatherWarning.Severity(cap: severity),
            headline: headline, description: description, instruction: instruction, sender: senderName,
            effective: effective, onset: WarningText.instant(onset), expires: WarningText.instant(expires),
            needsExpiry: true, language: language)
    }
}

/// A value that decodes to nil instead of failing its container.
struct Lossy<T: Decodable>: Decodable {
    let value: T?

    init(from decoder: Decoder) throws {
        value = try? T(from: decoder)
    }
}
