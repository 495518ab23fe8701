import Foundation
import Synchronization
import NimbusDomain
import OpenCombineShim

/// The Japan Meteorological Agency's warnings and advisories (気象警報・注意報), from the JSON its
/// own site (bosai) reads, keyless:
///
/// - `/bosai/common/const/relm.json`: the bounding box (`ne`, `sw`: latitude, longitude) of each
///   part of the municipal area geometry;
/// - `/bosai/common/const/geojson/class20s_<part>.json`: GeoJSON features, one per municipal
///   warning area (`properties.code`, the class20 code);
/// - `/bosai/common/const/area.json`: JMA's area table, `class20s` → `class15s` → `class10s` →
///   `offices`, each `{name, enName, parent}`;
/// - `/bosai/warning/data/warning/<office>.json`: the office's report (`reportDatetime`,
///   `publishingOffice`, `headlineText`, `areaTypes[].areas[]` with `code` and
///   `warnings[] {code, status}`).
///
/// A city's area is found once, in JMA's own geometry and table, and kept for good (`JMAAreaCache`);
/// then only the office's report is asked for, conditionally. JMA's warnings have no expiry (they
/// stand until lifted), so a copy is believed only for `WarningsReport.trustWithoutExpiry`.
struct JMAWarnings: WarningsSource {
    static let defaultBaseURL = "https://www.jma.go.jp"
    /// An office's report with its time series.
    static let maxReportBytes = 4 << 20
    /// The area table and one part of the geometry.
    static let maxTableBytes = 48 << 20

    /// Where JMA's geometry and area table are decoded (seconds for the largest part, once a city):
    /// not the HTTP client's queue, which every other answer comes through.
    static let decoding = DispatchQueue(label: "nimbus.warnings.jma", qos: .utility)

    let client: HTTPClient
    let baseURL: String
    let areas: JMAAreaCache?
    let timeout: TimeInterval

    var source: WeatherWarning.Source { .jma }

    func covers(_ city: City) -> Bool { city.countryCode == "JP" }

    /// `NIMBUS_JMA_URL`, else JMA's.
    static func baseURL(environment: [String: String]) -> String {
        HTTPRequest.base(environment["NIMBUS_JMA_URL"], else: defaultBaseURL)
    }

    private func request(_ path: String, maxBytes: Int, timeout: TimeInterval? = nil) -> HTTPRequest? {
        HTTPRequest(base: baseURL, path: path, timeout: timeout ?? self.timeout, maxBytes: maxBytes)
    }

    func fetch(for city: City, kept: WarningsCache.Entry?) -> AnyPublisher<WarningsAnswer, WarningsError> {
        let areas = self.areas
        return area(for: city)
            .flatMap { area -> AnyPublisher<WarningsAnswer, WarningsError> in
                guard let request = self.request("/bosai/warning/data/warning/\(area.office).json", maxBytes: Self.maxReportBytes) else {
                    return Fail(error: .badConfiguration).eraseToAnyPublisher()
                }
                return self.conditional(client, request, kept: kept) { body in
                    do {
                        return try JMAReport.warnings(body, area: area)
                    } catch WarningsError.regionUnknown {
                        // The table changed under the kept area: find it again next time.
                        areas?.forget(city.id)
                        throw WarningsError.regionUnknown
                    }
                }
            }
            .eraseToAnyPublisher()
    }

    /// The city's area: kept, else found in JMA's geometry and table (and kept).
    func area(for city: City) -> AnyPublisher<JMAArea, WarningsError> {
        if let known = areas?.read(city.id) {
            return Just(known).setFailureType(to: WarningsError.self).eraseToAnyPublisher()
        }
        let point = city.coordinate
        guard point.isValid,
              let relm = request("/bosai/common/const/relm.json", maxBytes: 1 << 20),
              let table = request("/bosai/common/const/area.json", maxBytes: Self.maxTableBytes, timeout: timeout * 4) else {
            return Fail(error: .badConfiguration).eraseToAnyPublisher()
        }
        let client = self.client
        let areas = self.areas
        let parts = client.publisher(for: relm)
            .mapError(WarningsErrors.map)
            .tryMap { try JMAGeometry.parts(containing: point, relm: $0.body) }
            .mapError { ($0 as? WarningsError) ?? .badResponse }
            .flatMap { parts -> AnyPublisher<String, WarningsError> in
                let requests = parts.compactMap {
                    self.request("/bosai/common/const/geojson/class20s_\($0).json", maxBytes: Self.maxTableBytes,
                                 timeout: self.timeout * 4)
                }
                guard !requests.isEmpty else { return Fail(error: .regionUnknown).eraseToAnyPublisher() }
                return Publishers.Sequence(sequence: requests).setFailureType(to: WarningsError.self)
                    .flatMap(maxPublishers: .max(1)) { request in
                        client.publisher(for: request).mapError(WarningsErrors.map)
                            // Tens of megabytes of geometry: decoded away from the network's own queue.
                            .receive(on: Self.decoding)
                            .tryMap { try JMAGeometry.area(containing: point, features: $0.body) }
                            .mapError { ($0 as? WarningsError) ?? .badResponse }
                    }
                    .compactMap { $0 }
                    .first()
                    .collect()
                    .tryMap { found -> String in
                        guard let code = found.first else { throw WarningsError.regionUnknown }
                        return code
                    }
                    .mapError { ($0 as? WarningsError) ?? .badResponse }
                    .eraseToAnyPublisher()
            }
        return parts
            .flatMap { class20 in
                client.publisher(for: table).mapError(WarningsErrors.map)
                    .receive(on: Self.decoding)
                    .tryMap { try JMATable.area(class20: class20, table: $0.body) }
                    .mapError { ($0 as? WarningsError) ?? .badResponse }
            }
            .handleEvents(receiveOutput: { areas?.write($0, for: city.id) })
            .eraseToAnyPublisher()
    }
}

/// A city's place in JMA's areas.
struct JMAArea: Equatable, Codable, Sendable {
    /// The municipal warning area (class20, seven digits).
    let class20: String
    /// The forecast office whose report covers it (six digits).
    let office: String
    /// The area's name in JMA's table ("千代田区").
    let name: String?

    /// Codes are digits only (they go into a URL path).
    static func code(_ text: String?, digits: ClosedRange<Int>) -> String? {
        guard let text, digits.contains(text.utf8.count), text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return text
    }
}

/// Each city's JMA area, kept for good under `$XDG_CACHE_HOME/nimbus/jma-areas` (areas change only
/// when municipalities merge; a report that no longer names the area makes it be found again).
final class JMAAreaCache: Sendable {
    let directory: URL
    private let lock = Mutex(())

    init(directory: URL) {
        self.directory = directory.appendingPathComponent("jma-areas")
    }

    private func url(_ id: Int) -> URL { directory.appendingPathComponent("\(id).json") }

    func read(_ id: Int) -> JMAArea? {
        let data = lock.withLock { _ in SafeFile.read(url(id), maxBytes: 4_096) }
        guard let data, let area = try? JSONDecoder().decode(JMAArea.self, from: data),
              JMAArea.code(area.class20, digits: 7...7) != nil, JMAArea.code(area.office, digits: 6...6) != nil else { return nil }
        return JMAArea(class20: area.class20, office: area.office, name: WarningText.single(area.name, limit: 100))
    }

    func write(_ area: JMAArea, for id: Int) {
        guard let data = try? JSONEncoder().encode(area) else { return }
        lock.withLock { _ in
            _ = SafeFile.makeDirectory(directory)
            SafeFile.write(data, to: url(id))
        }
    }

    func forget(_ id: Int) {
        lock.withLock { _ in _ = try? FileManager.default.removeItem(at: url(id)) }
    }
}

/// JMA's municipal area geometry.
enum JMAGeometry {
    struct Box: Decodable {
        let ne: [Double]
        let sw: [Double]
    }

    /// The parts (indices into `relm.json`) whose box holds `point`.
    static func parts(containing point: Coordinate, relm: Data) throws -> [Int] {
        guard let boxes = try? JSONDecoder().decode([Lossy<Box>].self, from: relm), !boxes.isEmpty, boxes.count <= 1_000 else {
            throw WarningsError.badResponse
        }
        return boxes.enumerated().compactMap { i, box in
            guard let box = box.value, box.ne.count >= 2, box.sw.count >= 2,
                  (box.sw[0]...max(box.sw[0], box.ne[0])).contains(point.latitude),
                  (box.sw[1]...max(box.sw[1], box.ne[1])).contains(point.longitude) else { return nil }
            return i
        }
    }

    struct Collection: Decodable {
        struct Feature: Decodable {
            struct Properties: Decodable { let code: String? }
            struct Geometry: Decodable {
                let type: String
                let coordinates: Coordinates
            }
            let properties: Properties?
            let geometry: Geometry?
        }
        let features: [Lossy<Feature>]
    }

    /// A polygon's or multipolygon's rings, GeoJSON's [longitude, latitude] positions.
    enum Coordinates: Decodable {
        case polygon([[[Double]]])
        case multiPolygon([[[[Double]]]])

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let p = try? container.decode([[[Double]]].self) {
                self = .polygon(p)
            } else {
                self = .multiPolygon(try container.decode([[[[Double]]]].self))
            }
        }

        /// Polygons, each its outer ring then its holes.
        var polygons: [[[[Double]]]] {
            switch self {
            case .polygon(let p): return [p]
            case .multiPolygon(let m): return m
            }
        }
    }

    /// The class20 code of the feature whose polygon holds `point` (holes excluded); nil when none does.
    static func area(containing point: Coordinate, features body: Data) throws -> String? {
        guard let collection = try? JSONDecoder().decode(Collection.self, from: body) else { throw WarningsError.badResponse }
        for feature in collection.features {
            guard let feature = feature.value, let code = JMAArea.code(feature.properties?.code, digits: 7...7),
                  let geometry = feature.geometry else { continue }
            for polygon in geometry.coordinates.polygons {
                let rings = polygon.map { ring in
                    ring.compactMap { $0.count >= 2 ? Coordinate(latitude: $0[1], longitude: $0[0]) : nil }
                }
                guard let outer = rings.first, Polygon.contains(outer, point),
                      !rings.dropFirst().contains(where: { Polygon.contains($0, point) }) else { continue }
                return code
            }
        }
        return nil
    }
}

/// JMA's area table (`area.json`).
enum JMATable {
    struct Entry: Decodable {
        let name: String?
        let parent: String?
    }

    struct Table: Decodable {
        let offices: [String: Lossy<Entry>]?
        let class10s: [String: Lossy<Entry>]?
        let class15s: [String: Lossy<Entry>]?
        let class20s: [String: Lossy<Entry>]?
    }

    /// `class20`'s area with its office: class20 → class15 → class10 → office.
    static func area(class20: String, table body: Data) throws -> JMAArea {
        guard let table = try? JSONDecoder().decode(Table.self, from: body) else { throw WarningsError.badResponse }
        guard let area = table.class20s?[class20]?.value,
              let class15 = area.parent, let class10 = table.class15s?[class15]?.value?.parent,
              let office = JMAArea.code(table.class10s?[class10]?.value?.parent, digits: 6...6),
              table.offices?[office]?.value != nil else { throw WarningsError.regionUnknown }
        return JMAArea(class20: class20, office: office, name: WarningText.single(area.name, limit: 100))
    }
}

/// An office's warning report.
enum JMAReport {
    struct Report: Decodable {
        struct AreaType: Decodable { let areas: [Lossy<Area>]? }
        struct Area: Decodable {
            let code: String?
            let warnings: [Lossy<Warning>]?
        }
        struct Warning: Decodable {
            let code: String?
            let status: String?
        }
        let reportDatetime: String?
        let publishingOffice: String?
        let headlineText: String?
        let areaTypes: [Lossy<AreaType>]?
    }

    /// Statuses that mean nothing is in force: lifted, and "no warnings or advisories".
    static let notInForce: Set<String> = ["解除", "発表警報・注意報はなし"]

    /// The warnings in force in `area`; throws when the body is not a report, or the report does not
    /// name the area.
    static func warnings(_ body: Data, area: JMAArea) throws -> [WeatherWarning] {
        guard let report = try? JSONDecoder().decode(Report.self, from: body),
              let issued = WarningText.instant(report.reportDatetime) else { throw WarningsError.badResponse }
        let areas = (report.areaTypes ?? []).compactMap(\.value).flatMap { ($0.areas ?? []).compactMap(\.value) }
        guard let found = areas.first(where: { $0.code == area.class20 }) else { throw WarningsError.regionUnknown }
        var candidates = 0
        var warnings: [WeatherWarning] = []
        for case let warning? in (found.warnings ?? []).map(\.value) {
            guard let code = warning.code, code.utf8.count <= 4, !notInForce.contains(warning.status ?? "") else { continue }
            candidates += 1
            let kind = JMAWarningKind(code: code)
            if let w = WarningChecks.warning(
                id: "\(area.class20)-\(code)", source: .jma, event: kind.name, severity: kind.severity,
                // The report's one text is the office's overview of all its warnings.
                headline: nil, description: report.headlineText,
                instruction: nil, sender: report.publishingOffice, effective: issued, onset: nil, expires: nil,
                needsExpiry: false, language: "ja") {
                warnings.append(w)
            }
        }
        return try WarningChecks.kept(warnings, of: candidates)
    }
}

/// JMA's warning codes: the names JMA gives them and a CAP severity (emergency warnings extreme or
/// severe, warnings moderate, advisories minor).
struct JMAWarningKind: Equatable {
    let name: String
    let severity: WeatherWarning.Severity

    static let table: [String: (String, WeatherWarning.Severity)] = [
        "33": ("大雨特別警報", .extreme), "35": ("暴風特別警報", .severe), "32": ("暴風雪特別警報", .severe),
        "36": ("大雪特別警報", .severe), "37": ("波浪特別警報", .severe), "38": ("高潮特別警報", .severe),
        "03": ("大雨警報", .moderate), "04": ("洪水警報", .moderate), "05": ("暴風警報", .moderate),
        "02": ("暴風雪警報", .moderate), "06": ("大雪警報", .moderate), "07": ("波浪警報", .moderate),
        "08": ("高潮警報", .severe), "19+": ("高潮注意報", .moderate),
        "10": ("大雨注意報", .minor), "18": ("洪水注意報", .minor), "15": ("強風注意報", .minor),
        "13": ("風雪注意報", .minor), "12": ("大雪注意報", .minor), "16": ("波浪注意報", .minor),
        "19": ("高潮注意報", .minor), "14": ("雷注意報", .minor), "17": ("融雪注意報", .minor),
        "20": ("濃霧注意報", .minor), "21": ("乾燥注意報", .minor), "22": ("なだれ注意報", .minor),
        "23": ("低温注意報", .minor), "24": ("霜注意報", .minor), "25": ("着氷注意報", .minor),
        "26": ("着雪注意報", .minor),
    ]

    /// A code JMA has not used before keeps its number, with an unknown severity.
    init(code: String) {
        if let known = Self.table[code] {
            name = known.0
            severity = known.1
        } else {
            name = "気象警報・注意報（\(RemoteText.clean(code, maxScalars: 4))）"
            severity = .unknown
        }
    }
}
