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

    /// The alerts of an answer, checked; throws when it is not an alert collection. A pure function
    /// of the body's bytes, read in place (`JSONScanner`): memory is what the kept warnings take,
    /// whatever the body holds, within `maxBytes`.
    static func decode(_ body: Data) throws -> [WeatherWarning] {
        do {
            return try JSONScanner.scan(body) { s in
                guard s.kind() == .object else { throw WarningsError.badResponse }
                var type: JSONScanner.Field<String> = .null
                var sawFeatures = false
                var candidates = 0
                var warnings: [WeatherWarning] = []
                try s.object { s, key in
                    if key == "type" {
                        type = try s.stringField()
                    } else if key == "features" {
                        guard s.kind() == .array else { throw WarningsError.badResponse }
                        sawFeatures = true
                        try s.array { s in
                            // A feature that is not a well-typed alert counts, and is dropped on its own.
                            guard let (id, p) = try NWSAlert.feature(&s) else { candidates += 1; return }
                            // Tests, exercises and drafts are not warnings; a cancellation withdraws one.
                            guard p.status.map({ $0 == "Actual" }) ?? true,
                                  !["Cancel", "Ack", "Error"].contains(p.messageType ?? "") else { return }
                            candidates += 1
                            if let warning = p.toDomain(featureID: id) { warnings.append(warning) }
                        }
                    } else {
                        try s.skipValue()
                    }
                }
                try s.end()
                switch type {
                case .wrongType: throw WarningsError.badResponse
                case .value(let t) where t != "FeatureCollection": throw WarningsError.badResponse
                default: break
                }
                guard sawFeatures else { throw WarningsError.badResponse }
                return try WarningChecks.kept(warnings, of: candidates)
            }
        } catch is JSONScanner.SyntaxError {
            throw WarningsError.badResponse
        }
    }
}

/// One feature of `AlertCollectionGeoJson`: only what a warning needs, read from the scanner.
struct NWSAlert {
    var id: String?
    var event: String?
    var severity: String?
    var headline: String?
    var description: String?
    var instruction: String?
    var senderName: String?
    var sent: String?
    var effective: String?
    var onset: String?
    var expires: String?
    var ends: String?
    var status: String?
    var messageType: String?
    var language: String?

    /// The feature at the scanner: its id and properties; nil (and stepped over) when it is not an
    /// object whose `id` and properties are strings where given, and whose properties are an object.
    static func feature(_ s: inout JSONScanner) throws -> (String?, NWSAlert)? {
        guard s.kind() == .object else { try s.skipValue(); return nil }
        var id: String?
        var alert: NWSAlert?
        var wellTyped = true
        try s.object { s, key in
            if key == "id" {
                switch try s.stringField() {
                case .value(let v): id = v
                case .null: break
                case .wrongType: wellTyped = false
                }
            } else if key == "properties" {
                switch s.kind() {
                case .object: alert = try properties(&s)
                    if alert == nil { wellTyped = false }
                default:
                    if case .wrongType = try s.stringField() { wellTyped = false } // null: no properties
                }
            } else {
                try s.skipValue()
            }
        }
        guard wellTyped, let alert else { return nil }
        return (id, alert)
    }

    /// The properties object at the scanner; nil when a field it reads is not a string or null.
    private static func properties(_ s: inout JSONScanner) throws -> NWSAlert? {
        var p = NWSAlert()
        var wellTyped = true
        try s.object { s, key in
            let slot: WritableKeyPath<NWSAlert, String?>
            if key == "id" { slot = \.id }
            else if key == "event" { slot = \.event }
            else if key == "severity" { slot = \.severity }
            else if key == "headline" { slot = \.headline }
            else if key == "description" { slot = \.description }
            else if key == "instruction" { slot = \.instruction }
            else if key == "senderName" { slot = \.senderName }
            else if key == "sent" { slot = \.sent }
            else if key == "effective" { slot = \.effective }
            else if key == "onset" { slot = \.onset }
            else if key == "expires" { slot = \.expires }
            else if key == "ends" { slot = \.ends }
            else if key == "status" { slot = \.status }
            else if key == "messageType" { slot = \.messageType }
            else if key == "language" { slot = \.language }
            else { try s.skipValue(); return }
            switch try s.stringField() {
            case .value(let v): p[keyPath: slot] = v
            case .null: p[keyPath: slot] = nil
            case .wrongType: wellTyped = false
            }
        }
        return wellTyped ? p : nil
    }

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
