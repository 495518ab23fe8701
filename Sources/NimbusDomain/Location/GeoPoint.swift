import Foundation

/// A position on the Earth in degrees (WGS 84).
public struct GeoPoint: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let latitude: Double
    public let longitude: Double

    /// Why a text is not a position.
    public enum ParseError: Error, Equatable, Sendable {
        /// Not two comma-separated decimal numbers.
        case notTwoNumbers(String)
        case latitudeOutOfRange(Double)
        case longitudeOutOfRange(Double)
    }

    /// A point with latitude in -90...90 and longitude in -180...180, or nil.
    public init?(latitude: Double, longitude: Double) {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Parses `LAT,LON` in decimal degrees (`37.57,126.98`, `-33.9, 151.2`).
    public static func parse(_ text: String) throws(ParseError) -> GeoPoint {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2,
              let lat = Self.decimal(parts[0]), let lon = Self.decimal(parts[1]) else {
            throw .notTwoNumbers(text)
        }
        guard (-90...90).contains(lat) else { throw .latitudeOutOfRange(lat) }
        guard (-180...180).contains(lon) else { throw .longitudeOutOfRange(lon) }
        return GeoPoint(latitude: lat, longitude: lon)!
    }

    /// Plain decimal numbers only: no `nan`, `inf`, hex floats or exponents.
    private static func decimal(_ s: String) -> Double? {
        var body = Substring(s)
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        let dots = body.filter { $0 == "." }.count
        guard !body.isEmpty, dots <= 1, body != ".",
              body.allSatisfy({ $0 == "." || ("0"..."9").contains($0) }) else { return nil }
        return Double(s.hasPrefix("+") ? String(s.dropFirst()) : s)
    }

    /// Great-circle distance in metres (haversine on a sphere of the mean Earth radius).
    public func distance(to other: GeoPoint) -> Double {
        let r = 6_371_008.8
        let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
        let dφ = φ2 - φ1
        let dλ = (other.longitude - longitude) * .pi / 180
        let a = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * r * asin(min(1, sqrt(a)))
    }

    public var description: String { String(format: "%.5f,%.5f", latitude, longitude) }
}
