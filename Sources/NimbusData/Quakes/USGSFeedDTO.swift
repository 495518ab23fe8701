import Foundation
import NimbusDomain

/// A USGS summary feed as it comes: a GeoJSON `FeatureCollection`, read by `USGSFeedScanner`. Each
/// feature is checked on its own, so one malformed event is dropped and counted while the others
/// are kept (GitFeed's `flatMap(Event.init)`); a body that is not a collection at all is an error.
enum USGSFeedDTO {
    struct Feature {
        struct Properties {
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

        struct Geometry {
            let coordinates: [Double]
        }

        let id: String
        let properties: Properties
        let geometry: Geometry
    }

    /// The newest `QuakeFeedSnapshot.limit` events worth showing and how many of the feed's were not;
    /// throws when `body` is not a feature collection.
    ///
    /// Every feature's numbers are checked (a bad one is counted), but the text of an event (its
    /// place, link, kinds: the sanitising is the costly part) is made only for the events kept.
    static func decode(_ body: Data) throws -> QuakeFeedSnapshot {
        try body.withUnsafeBytes { raw throws -> QuakeFeedSnapshot in
            var scanner = USGSFeedScanner(raw.bindMemory(to: UInt8.self))
            let scanned: USGSFeedScanner.Collection?
            do {
                scanned = try scanner.collection()
            } catch {
                throw QuakeError.badResponse
            }
            guard let collection = scanned, collection.type == "FeatureCollection" else { throw QuakeError.badResponse }
            // One per id, the later `updated` winning (a tie: the later in the feed), as `merging` does.
            var byID: [String: Candidate] = [:]
            byID.reserveCapacity(collection.features.count)
            var dropped = 0
            for case let (index, feature) in collection.features.enumerated() {
                guard let feature, let candidate = Candidate(feature, index: index) else { dropped += 1; continue }
                if let known = byID[feature.id], known.updated > candidate.updated { continue }
                byID[feature.id] = candidate
            }
            let newest = byID.values.sorted { $0.time != $1.time ? $0.time > $1.time : $0.id < $1.id }
            var quakes: [Quake] = []
            quakes.reserveCapacity(min(newest.count, QuakeFeedSnapshot.limit))
            for candidate in newest {
                guard quakes.count < QuakeFeedSnapshot.limit else { break }
                guard let raw = collection.features[candidate.index],
                      let quake = scanner.feature(raw).toDomain() else { dropped += 1; continue }
                quakes.append(quake)
            }
            let generated = collection.generated.flatMap(Self.date)
            return QuakeFeedSnapshot(quakes: QuakeFeedSnapshot.merging([], quakes), dropped: dropped, generated: generated)
        }
    }

    /// A feature whose numbers make an event, before its text is made.
    private struct Candidate {
        let index: Int
        let id: String
        let time: Double
        let updated: Double

        init?(_ raw: USGSFeedScanner.RawFeature, index: Int) {
            guard let mag = raw.mag, mag.isFinite, Quake.magnitudes.contains(mag), raw.coordinateCount >= 2,
                  let time = raw.time, USGSFeedDTO.date(time) != nil else { return nil }
            let coordinate = Coordinate(latitude: raw.coordinates.1, longitude: raw.coordinates.0)
            let depth = raw.coordinateCount > 2 ? raw.coordinates.2 : 0
            guard coordinate.isValid, depth.isFinite, Quake.depths.contains(depth) else { return nil }
            // The id has something left once sanitised (any printable ASCII settles it without the work).
            guard raw.id.utf8.contains(where: { (0x21...0x7E).contains($0) }) || !RemoteText.clean(raw.id, maxScalars: 64).isEmpty
            else { return nil }
            self.index = index
            id = raw.id
            self.time = time
            updated = raw.updated.flatMap { USGSFeedDTO.date($0) == nil ? nil : $0 } ?? time
        }
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
        guard let mag = p.mag, mag.isFinite, Quake.magnitudes.contains(mag), geometry.coordinates.count >= 2,
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
