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

    /// The same position as the weather API's coordinate.
    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    /// Great-circle distance in metres (`Coordinate.distance`, which is in kilometres).
    public func distance(to other: GeoPoint) -> Double {
        coordinate.distance(to: other.coordinate) * 1000
    }

    public var description: String { String(format: "%.5f,%.5f", latitude, longitude) }
}
