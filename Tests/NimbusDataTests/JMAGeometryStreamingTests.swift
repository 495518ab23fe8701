import Foundation
import Testing
import PropertyBased
import NimbusDomain
@testable import NimbusData
import TestSupport

/// `JMAGeometry.area` tests each polygon vertex by vertex as it reads the body; checked here against
/// the plain way (the body decoded whole by `JSONSerialization`, each ring made an array, then
/// `Polygon.contains`) on random collections of polygons and multipolygons with holes, points
/// inside, outside and on the rings, and malformed features among them.
@Suite struct JMAGeometryStreamingTests {
    /// A random ring around (lat, lon): `count` vertices at random radii, closed or not.
    static func ring(_ values: [Int], lat: Double, lon: Double, radius: Double) -> [[Double]] {
        let count = 3 + (values.first ?? 0) % 9
        var ring: [[Double]] = []
        for k in 0..<count {
            let r = radius * (0.3 + Double(values[(k + 1) % values.count] % 70) / 100)
            let angle = Double(k) / Double(count) * 2 * .pi
            ring.append([lon + r * cos(angle), lat + r * sin(angle)])
        }
        if values.count > 2, values[2] % 2 == 0 { ring.append(ring[0]) }
        return ring
    }

    /// The plain answer: the first feature, decoded whole, whose polygon holds the point.
    static func plain(_ body: Data, _ point: Coordinate) -> String? {
        guard let root = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let features = root["features"] as? [Any] else { return nil }
        for case let feature as [String: Any] in features {
            guard let code = (feature["properties"] as? [String: Any])?["code"] as? String, code.utf8.count == 7,
                  code.utf8.allSatisfy({ (48...57).contains($0) }),
                  let geometry = feature["geometry"] as? [String: Any], geometry["type"] is String else { continue }
            let polygons: [[[[Double]]]]
            if let p = geometry["coordinates"] as? [[[Double]]] { polygons = [p] }
            else if let m = geometry["coordinates"] as? [[[[Double]]]] { polygons = m }
            else { continue }
            for polygon in polygons {
                let rings = polygon.map { $0.compactMap { $0.count >= 2 ? Coordinate(latitude: $0[1], longitude: $0[0]) : nil } }
                guard let outer = rings.first, Polygon.contains(outer, point),
                      !rings.dropFirst().contains(where: { Polygon.contains($0, point) }) else { continue }
                return code
            }
        }
        return nil
    }

    @Test func streamingAgreesWithThePlainWay() async {
        let input = Gen.int(in: 0...10_000).array(of: 8...40)
        await propertyCheck(count: PropertyCount.scaled(default: 400), input: input, Gen.int(in: 0...2)) { values, shape in
            var features: [Any] = []
            let featureCount = 1 + values[0] % 5
            for f in 0..<featureCount {
                let v = Array(values.dropFirst(f)) + values
                let lat = 35 + Double(v[1] % 10) / 10, lon = 139 + Double(v[2] % 10) / 10
                let outer = Self.ring(Array(v.dropFirst(3)), lat: lat, lon: lon, radius: 0.5)
                let hole = Self.ring(Array(v.dropFirst(5)), lat: lat, lon: lon, radius: 0.15)
                let polygon: [[[Double]]] = v[4] % 2 == 0 ? [outer, hole] : [outer]
                let coordinates: Any
                switch (shape + f) % 3 {
                case 0: coordinates = polygon
                case 1: coordinates = [polygon, [Self.ring(Array(v.dropFirst(6)), lat: lat + 1, lon: lon, radius: 0.3)]]
                default: coordinates = v[6] % 4 == 0 ? [[1, 2], "x"] as [Any] : polygon // now and then malformed
                }
                let code = v[7] % 7 == 0 ? "12345" : String(format: "%07d", 1_000_000 + f)
                features.append(["type": "Feature", "properties": ["code": code],
                                 "geometry": ["type": (shape + f) % 3 == 1 ? "MultiPolygon" : "Polygon", "coordinates": coordinates]])
            }
            let body = try! JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features])
            let point = Coordinate(latitude: 35 + Double(values[values.count - 1] % 20) / 10,
                                   longitude: 139 + Double(values[values.count - 2] % 20) / 10)
            #expect((try? JMAGeometry.area(containing: point, features: body)) == Self.plain(body, point))
        }
    }
}
