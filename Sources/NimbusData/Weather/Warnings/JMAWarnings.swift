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

    /// Parts of the geometry fetched for one city, at most: a point lies in one or two of JMA's
    /// boxes; a `relm.json` of a thousand boxes around it made 165 requests one after another.
    static let maxParts = 4

    /// The parts (indices into `relm.json`) whose box holds `point`, the smallest boxes first, at
    /// most `maxParts`.
    static func parts(containing point: Coordinate, relm: Data) throws -> [Int] {
        guard let boxes = try? JSONDecoder().decode([Lossy<Box>].self, from: relm), !boxes.isEmpty, boxes.count <= 1_000 else {
            throw WarningsError.badResponse
        }
        let holding = boxes.enumerated().compactMap { i, box -> (Int, Double)? in
            guard let box = box.value, box.ne.count >= 2, box.sw.count >= 2,
                  box.sw[0].isFinite, box.sw[1].isFinite, box.ne[0].isFinite, box.ne[1].isFinite,
                  (box.sw[0]...max(box.sw[0], box.ne[0])).contains(point.latitude),
                  (box.sw[1]...max(box.sw[1], box.ne[1])).contains(point.longitude) else { return nil }
            return (i, (box.ne[0] - box.sw[0]) * (box.ne[1] - box.sw[1]))
        }
        return holding.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.prefix(maxParts).map(\.0)
    }

    /// The class20 code of the first feature whose polygon holds `point` (holes excluded); nil when
    /// none does; throws when the body is not a feature collection. Read in place (`JSONScanner`):
    /// each feature's polygons are tested vertex by vertex as they are read, never kept, so memory
    /// stays flat whatever the part holds (decoded whole, 48 MB of empty features took 1.2 GB).
    /// A feature whose code or geometry is not of the expected shape is passed over.
    static func area(containing point: Coordinate, features body: Data) throws -> String? {
        do {
            return try JSONScanner.scan(body) { s in
                guard s.kind() == .object else { throw WarningsError.badResponse }
                var found: String?
                var sawFeatures = false
                try s.object { s, key in
                    guard key == "features", s.kind() == .array else { try s.skipValue(); return }
                    sawFeatures = true
                    try s.array { s in
                        guard found == nil, s.kind() == .object else { try s.skipValue(); return }
                        var code: String?
                        var geometry: Int?
                        try s.object { s, key in
                            if key == "properties", s.kind() == .object {
                                try s.object { s, key in
                                    if key == "code" {
                                        if case .value(let v) = try s.stringField() { code = v }
                                    } else {
                                        try s.skipValue()
                                    }
                                }
                            } else if key == "geometry" {
                                geometry = s.position
                                try s.skipValue()
                            } else {
                                try s.skipValue()
                            }
                        }
                        guard let code = JMAArea.code(code, digits: 7...7), let geometry else { return }
                        var g = s.rewound(to: geometry)
                        if try Self.geometry(&g, contains: point) { found = code }
                    }
                }
                try s.end()
                guard sawFeatures else { throw WarningsError.badResponse }
                return found
            }
        } catch is JSONScanner.SyntaxError {
            throw WarningsError.badResponse
        }
    }

    /// Whether the geometry object at the scanner (a `Polygon` or `MultiPolygon`, told apart by how
    /// deep its coordinates nest) holds `point`; false for any other shape.
    static func geometry(_ s: inout JSONScanner, contains point: Coordinate) throws -> Bool {
        guard s.kind() == .object else { return false }
        var inside = false
        var typed = false
        var coordinates: Int?
        try s.object { s, key in
            if key == "type" {
                if case .value = try s.stringField() { typed = true }
            } else if key == "coordinates" {
                coordinates = s.position
                try s.skipValue()
            } else {
                try s.skipValue()
            }
        }
        guard typed, let coordinates else { return false }
        // [[[x, y]…]…] is a polygon, [[[[x, y]…]…]…] a multipolygon.
        var c = s.rewound(to: coordinates)
        switch try nesting(&c) {
        case 3:
            c = s.rewound(to: coordinates)
            inside = try polygon(&c, contains: point) ?? false
        case 4:
            c = s.rewound(to: coordinates)
            var any = false
            var shaped = true
            try c.array { c in
                guard shaped, !any else { try c.skipValue(); return }
                switch try polygon(&c, contains: point) {
                case true?: any = true
                case false?: break
                case nil: shaped = false
                }
            }
            inside = shaped && any
        default:
            inside = false
        }
        return inside
    }

    private struct Stop: Error {}

    /// How many arrays open one inside the first element of another at the scanner before a
    /// number: 3 for a polygon's coordinates, 4 for a multipolygon's; 0 for anything else.
    private static func nesting(_ s: inout JSONScanner) throws -> Int {
        var depth = 0
        while s.kind() == .array {
            depth += 1
            guard depth <= 4 else { return 0 }
            // Step inside: the array's first element is what decides.
            var inner = s
            var first: JSONScanner?
            do {
                try inner.array { e in
                    first = e
                    throw Stop()
                }
            } catch is Stop {}
            guard var next = first else { return 0 } // an empty array
            if next.kind() == .number { return depth }
            s = next
        }
        return 0
    }

    /// Whether the polygon (its rings: the outer one, then holes) at the scanner holds `point`; nil
    /// when it is not an array of rings of positions of numbers.
    private static func polygon(_ s: inout JSONScanner, contains point: Coordinate) throws -> Bool? {
        guard s.kind() == .array else { try s.skipValue(); return nil }
        var ring = 0
        var insideOuter = false
        var inHole = false
        var shaped = true
        try s.array { s in
            guard shaped else { try s.skipValue(); return }
            guard let inside = try Self.ring(&s, contains: point) else { shaped = false; return }
            if ring == 0 { insideOuter = inside } else if inside { inHole = true }
            ring += 1
        }
        guard shaped, ring > 0 else { return shaped ? false : nil }
        return insideOuter && !inHole
    }

    /// Whether the ring at the scanner holds `point` (even-odd rule, as `Polygon.contains`: the ring
    /// need not be closed; fewer than three positions hold nothing), reading one vertex at a time;
    /// nil when it is not an array of positions of numbers. A position of fewer than two numbers
    /// is passed over.
    private static func ring(_ s: inout JSONScanner, contains point: Coordinate) throws -> Bool? {
        guard s.kind() == .array else { try s.skipValue(); return nil }
        var first: Coordinate?
        var previous: Coordinate?
        var count = 0
        var inside = false
        var shaped = true
        func edge(_ a: Coordinate, _ b: Coordinate) {
            if (a.latitude > point.latitude) != (b.latitude > point.latitude) {
                let x = (b.longitude - a.longitude) * (point.latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude
                if point.longitude < x { inside.toggle() }
            }
        }
        try s.array { s in
            guard shaped else { try s.skipValue(); return }
            let vertex: Coordinate
            switch try s.geoPosition() {
            case .point(let longitude, let latitude): vertex = Coordinate(latitude: latitude, longitude: longitude)
            case .short: return
            case .other: shaped = false; return
            }
            if let previous { edge(previous, vertex) } else { first = vertex }
            previous = vertex
            count += 1
        }
        guard shaped else { return nil }
        guard count >= 3, let first, let previous else { return false }
        edge(previous, first)
        return inside
    }
}

/// JMA's area table (`area.json`).
enum JMATable {
    /// An area's entry: its name and parent, each nil when missing or not a string.
    struct Entry {
        var name: String?
        var parent: String?
    }

    /// `class20`'s area with its office: class20 → class15 → class10 → office. Read in place: the
    /// body is checked once as JSON, then each level's entry is looked for by name (the first
    /// member of that name, as JSON readers that keep the first do), nothing else made.
    static func area(class20: String, table body: Data) throws -> JMAArea {
        do {
            return try JSONScanner.scan(body) { s in
                guard s.kind() == .object else { throw WarningsError.badResponse }
                try s.skipValue()
                try s.end()
                func entry(_ section: StaticString, _ code: String) throws -> Entry? {
                    var t = s.rewound(to: 0)
                    return try Self.entry(&t, section: section, code: code)
                }
                guard let area = try entry("class20s", class20), let class15 = area.parent,
                      let class10 = try entry("class15s", class15)?.parent,
                      let office = JMAArea.code(try entry("class10s", class10)?.parent, digits: 6...6),
                      try entry("offices", office) != nil else { throw WarningsError.regionUnknown }
                return JMAArea(class20: class20, office: office, name: WarningText.single(area.name, limit: 100))
            }
        } catch is JSONScanner.SyntaxError {
            throw WarningsError.badResponse
        }
    }

    /// `table[section][code]` in the table at the scanner; nil when either is missing or the entry
    /// is not an object. A section that is there but not an object is not a table.
    private static func entry(_ s: inout JSONScanner, section: StaticString, code: String) throws -> Entry? {
        var found: Entry?
        var seenSection = false
        try s.object { s, key in
            guard !seenSection, key == section else { try s.skipValue(); return }
            seenSection = true
            guard s.kind() == .object else {
                if case .null = try s.stringField() { return }
                throw WarningsError.badResponse
            }
            try s.object { s, key in
                guard found == nil, key.isNamed(code), s.kind() == .object else { try s.skipValue(); return }
                var entry = Entry()
                try s.object { s, key in
                    if key == "name", case .value(let v) = try s.stringField() { entry.name = v }
                    else if key == "parent", case .value(let v) = try s.stringField() { entry.parent = v }
                    else if !(key == "name" || key == "parent") { try s.skipValue() }
                }
                found = entry
            }
        }
        return found
    }
}

/// An office's warning report.
enum JMAReport {
    /// Statuses that mean nothing is in force: lifted, and "no warnings or advisories".
    static let notInForce: Set<String> = ["解除", "発表警報・注意報はなし"]
    /// Warnings read for the area at most (an office has a few dozen kinds).
    static let maxAreaWarnings = 100

    /// The warnings in force in `area`; throws when the body is not a report, or the report does not
    /// name the area. Read in place: only the report's texts and the area's own warnings are made.
    static func warnings(_ body: Data, area: JMAArea) throws -> [WeatherWarning] {
        let report: (issued: String?, office: String?, headline: String?, found: Bool, warnings: [(code: String?, status: String?)])
        do {
            report = try JSONScanner.scan(body) { s in
                guard s.kind() == .object else { throw WarningsError.badResponse }
                var issued: String?, office: String?, headline: String?
                var found = false
                var warnings: [(code: String?, status: String?)] = []
                func text(_ s: inout JSONScanner) throws -> String? {
                    switch try s.stringField() {
                    case .value(let v): return v
                    case .null: return nil
                    case .wrongType: throw WarningsError.badResponse
                    }
                }
                try s.object { s, key in
                    if key == "reportDatetime" { issued = try text(&s) }
                    else if key == "publishingOffice" { office = try text(&s) }
                    else if key == "headlineText" { headline = try text(&s) }
                    else if key == "areaTypes", s.kind() == .array {
                        try s.array { s in
                            guard !found, s.kind() == .object else { try s.skipValue(); return }
                            try s.object { s, key in
                                guard !found, key == "areas", s.kind() == .array else { try s.skipValue(); return }
                                try s.array { s in
                                    guard !found, s.kind() == .object else { try s.skipValue(); return }
                                    let start = s.position
                                    var isArea = false
                                    try s.object { s, key in
                                        if key == "code", case .value(let v) = try s.stringField() { isArea = v == area.class20 }
                                        else if !(key == "code") { try s.skipValue() }
                                    }
                                    guard isArea else { return }
                                    found = true
                                    var a = s.rewound(to: start)
                                    warnings = try Self.areaWarnings(&a)
                                }
                            }
                        }
                    } else {
                        try s.skipValue()
                    }
                }
                try s.end()
                return (issued, office, headline, found, warnings)
            }
        } catch is JSONScanner.SyntaxError {
            throw WarningsError.badResponse
        }
        guard let issued = WarningText.instant(report.issued) else { throw WarningsError.badResponse }
        guard report.found else { throw WarningsError.regionUnknown }
        var candidates = 0
        var warnings: [WeatherWarning] = []
        for warning in report.warnings {
            guard let code = warning.code, code.utf8.count <= 4, !notInForce.contains(warning.status ?? "") else { continue }
            candidates += 1
            let kind = JMAWarningKind(code: code)
            if let w = WarningChecks.warning(
                id: "\(area.class20)-\(code)", source: .jma, event: kind.name, severity: kind.severity,
                // The report's one text is the office's overview of all its warnings.
                headline: nil, description: report.headline,
                instruction: nil, sender: report.office, effective: issued, onset: nil, expires: nil,
                needsExpiry: false, language: "ja") {
                warnings.append(w)
            }
        }
        return try WarningChecks.kept(warnings, of: candidates)
    }

    /// The `warnings` of the area object at the scanner: each one's code and status (nil where not
    /// a string), at most `maxAreaWarnings`.
    private static func areaWarnings(_ s: inout JSONScanner) throws -> [(code: String?, status: String?)] {
        var out: [(code: String?, status: String?)] = []
        try s.object { s, key in
            guard key == "warnings", s.kind() == .array else { try s.skipValue(); return }
            try s.array { s in
                guard out.count < maxAreaWarnings, s.kind() == .object else { try s.skipValue(); return }
                var code: String?, status: String?
                try s.object { s, key in
                    if key == "code", case .value(let v) = try s.stringField() { code = v }
                    else if key == "status", case .value(let v) = try s.stringField() { status = v }
                    else if !(key == "code" || key == "status") { try s.skipValue() }
                }
                out.append((code, status))
            }
        }
        return out
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
