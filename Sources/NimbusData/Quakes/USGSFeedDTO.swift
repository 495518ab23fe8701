import Foundation
import NimbusDomain

/// A USGS summary feed as it comes: a GeoJSON `FeatureCollection`. Each feature is decoded on its
/// own, so one malformed event is dropped and counted while the others are kept (GitFeed's
/// `flatMap(Event.init)`); a body that is not a collection at all is an error.
struct USGSFeedDTO: Decodable {
    struct Metadata: Decodable {
        let generated: Double?
    }

    struct Feature: Decodable {
        struct Properties: Decodable {
            let mag: Double?
            let place: String?
            let time: Double?
            let updated: Double?
            let tz: Int?
            let url: String?
            let felt: Int?
            let alert: String?
            let status: String?
            let tsunami: Int?
            let sig: Int?
            let magType: String?
            let type: String?
            let title: String?
        }

        struct Geometry: Decodable {
            let coordinates: [Double]
        }

        let id: String
        let properties: Properties
        let geometry: Geometry
    }

    /// A value that decodes, or nil where it does not (the feature is then dropped, not the feed).
    struct Lossy<Value: Decodable>: Decodable {
        let value: Value?
        init(from decoder: Decoder) throws {
            value = try? Value(from: decoder)
        }
    }

    let type: String
    let metadata: Metadata?
    let features: [Lossy<Feature>]

    /// The events worth showing and how many were not; throws when `body` is not a feature collection.
    static func decode(_ body: Data) throws -> QuakeFeedSnapshot {
        let dto: USGSFeedDTO
        do {
            dto = try JSONDecoder().decode(USGSFeedDTO.self, from: body)
        } catch {
            throw QuakeError.badResponse
        }
        guard dto.type == "FeatureCollection" else { throw QuakeError.badResponse }
        var quakes: [Quake] = []
        var dropped = 0
        for feature in dto.features {
            if let quake = feature.value?.toDomain() { quakes.append(quake) } else { dropped += 1 }
        }
        let generated = dto.metadata?.generated.flatMap(Self.date)
        return QuakeFeedSnapshot(quakes: QuakeFeedSnapshot.merging([], quakes), dropped: dropped, generated: generated)
    }

    /// Milliseconds since 1970 as a date, if it is one between 1900 and 2200.
    static func date(_ milliseconds: Double) -> Date? {
        guard milliseconds.isFinite, (-2_208_988_800_000...7_258_118_400_000).contains(milliseconds) else { return nil }
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }
}

extension USGSFeedDTO.Feature {
    /// The event, or nil when a number is missing or outside what is physically possible.
    func toDomain() -> Quake? {
        let p = properties
        guard let mag = p.mag, mag.isFinite, Quake.magnitudes.contains(mag),
              geometry.coordinates.count >= 2,
              let time = p.time.flatMap(USGSFeedDTO.date) else { return nil }
        let coordinate = Coordinate(latitude: geometry.coordinates[1], longitude: geometry.coordinates[0])
        let depth = geometry.coordinates.count > 2 ? geometry.coordinates[2] : 0
        guard coordinate.isValid, depth.isFinite, Quake.depths.contains(depth) else { return nil }
        let id = RemoteText.clean(self.id, maxScalars: 64)
        guard !id.isEmpty else { return nil }
        let place = RemoteText.clean(p.place ?? p.title ?? "", maxScalars: RemoteText.name)
        return Quake(
            id: id, magnitude: mag, place: place, time: time,
            updated: p.updated.flatMap(USGSFeedDTO.date) ?? time,
            timeZoneOffsetMinutes: p.tz.flatMap { (-14 * 60...14 * 60).contains($0) ? $0 : nil },
            coordinate: coordinate, depthKilometres: depth,
            url: p.url.flatMap { $0.hasPrefix("https://") || $0.hasPrefix("http://") ? RemoteText.clean($0, maxScalars: 500) : nil },
            felt: p.felt.flatMap { $0 >= 0 ? $0 : nil },
            alert: p.alert.flatMap { Quake.Alert(rawValue: $0.lowercased()) },
            tsunami: p.tsunami == 1,
            significance: p.sig.flatMap { (0...10_000).contains($0) ? $0 : nil },
            magnitudeType: p.magType.map { RemoteText.clean($0, maxScalars: 8) },
            kind: p.type.map { RemoteText.clean($0, maxScalars: 40) },
            reviewed: p.status == "reviewed")
    }
}
