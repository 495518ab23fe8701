import Foundation
import Synchronization
import NimbusDomain
import OpenCombineShim

/// MeteoAlarm's public feeds (EUMETNET, keyless): a country's Atom feed,
/// `GET /feeds/meteoalarm-legacy-atom-<country>`, one entry per warning and area with CAP fields
/// (`cap:event`, `cap:severity`, `cap:effective`, `cap:onset`, `cap:expires`, `cap:geocode` with
/// `valueName` EMMA_ID and its `value`, or `cap:polygon`) and a link (`type="application/cap+xml"`)
/// to the warning's CAP 1.2 document, which has the text (headline, description, instruction,
/// sender) in each of its languages.
///
/// A city is matched to its warnings by region: the EMMA_IDs of the regions it lies in (bundled,
/// placed by geometry at build time), or the entry's own polygon (countries whose feed gives
/// polygons). The CAP documents of the matching warnings only are fetched, from the configured
/// server only; a warning whose document cannot be had is shown from its feed entry alone.
struct MeteoAlarmWarnings: WarningsSource {
    static let defaultBaseURL = "https://feeds.meteoalarm.org"
    /// A country's feed during a storm: hundreds of entries, some with polygons.
    static let maxFeedBytes = 16 << 20
    /// One warning's CAP document, in a few languages.
    static let maxDocumentBytes = 1 << 20
    /// CAP documents fetched for one city's warnings at most.
    static let maxDocuments = 8

    static let decoding = DispatchQueue(label: "nimbus.warnings.meteoalarm", qos: .utility)

    let client: HTTPClient
    let baseURL: String
    let regions: Regions
    let timeout: TimeInterval

    /// The region table, read the first time a city is asked about, then kept.
    final class Regions: Sendable {
        private let load: @Sendable () -> MeteoAlarmRegions?
        private let table = Mutex<MeteoAlarmRegions??>(nil)

        init(_ load: @escaping @Sendable () -> MeteoAlarmRegions?) { self.load = load }

        var value: MeteoAlarmRegions? {
            table.withLock { table in
                if let table { return table }
                let loaded = load()
                table = .some(loaded)
                return loaded
            }
        }
    }

    var source: WeatherWarning.Source { .meteoAlarm }

    /// `NIMBUS_METEOALARM_URL`, else MeteoAlarm's.
    static func baseURL(environment: [String: String]) -> String {
        HTTPRequest.base(environment["NIMBUS_METEOALARM_URL"], else: defaultBaseURL)
    }

    /// The countries whose services publish through MeteoAlarm (the `C` lines of the bundled table):
    /// when the table cannot be read, a city of one of them is still covered, and its warnings fail
    /// saying so (`regionsUnavailable`) rather than that the country has no source.
    static let countries: Set<String> = [
        "AT", "BA", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GB", "GR", "HR", "HU", "IE", "IL", "IS", "IT",
        "LT", "LU", "LV", "MD", "ME", "MK", "MT", "NL", "NO", "PL", "PT", "RO", "RS", "SE", "SI", "SK",
    ]

    func covers(_ city: City) -> Bool {
        guard let regions = regions.value else { return Self.countries.contains(city.countryCode) }
        guard let country = regions.countries[city.countryCode] else { return false }
        switch country.matching {
        case .polygon: return true
        case .geocode: return !regions.regions(of: city.id).isEmpty
        }
    }

    func fetch(for city: City, kept: WarningsCache.Entry?) -> AnyPublisher<WarningsAnswer, WarningsError> {
        guard let regions = regions.value else { return Fail(error: .regionsUnavailable).eraseToAnyPublisher() }
        guard let country = regions.countries[city.countryCode],
              let request = HTTPRequest(base: baseURL, path: "/feeds/meteoalarm-legacy-atom-\(country.feed)",
                                        headers: ["Accept": "application/atom+xml"], timeout: timeout,
                                        maxBytes: Self.maxFeedBytes) else {
            return Fail(error: .badConfiguration).eraseToAnyPublisher()
        }
        let codes = Set(regions.regions(of: city.id))
        let point = city.coordinate
        let client = self.client
        let baseURL = self.baseURL
        let timeout = self.timeout
        return client.conditionalGet(request, cached: kept.map { HTTPCached(value: $0.warnings, validators: $0.validators) })
            .mapError(WarningsErrors.map)
            // A country's feed (megabytes in a storm) is read away from the HTTP client's queue.
            .receive(on: Self.decoding)
            .flatMap { response -> AnyPublisher<WarningsAnswer, WarningsError> in
                switch response {
                case .notModified(let warnings):
                    return Just(WarningsAnswer(kind: .notModified, warnings: warnings,
                                               validators: kept?.validators ?? HTTPValidators(etag: nil, lastModified: nil)))
                        .setFailureType(to: WarningsError.self).eraseToAnyPublisher()
                case .modified(let response, let validators):
                    let entries: [MeteoAlarmFeed.Entry]
                    do {
                        entries = try MeteoAlarmFeed.entries(response.body)
                    } catch {
                        return Fail(error: (error as? WarningsError) ?? .badResponse).eraseToAnyPublisher()
                    }
                    let matching = MeteoAlarmFeed.matching(entries, codes: codes, point: point)
                    return Self.withDocuments(matching, kept: kept?.warnings ?? [], client: client, baseURL: baseURL,
                                              timeout: timeout)
                        .tryMap { warnings in
                            WarningsAnswer(kind: .fresh, warnings: try WarningChecks.kept(warnings, of: matching.count),
                                           validators: validators)
                        }
                        .mapError { ($0 as? WarningsError) ?? .badResponse }
                        .eraseToAnyPublisher()
                }
            }
            .eraseToAnyPublisher()
    }

    /// The warnings of `entries`, each with its CAP document's text where that could be had (or was
    /// kept from the last answer), else from its feed entry alone.
    static func withDocuments(_ entries: [MeteoAlarmFeed.Entry], kept: [WeatherWarning], client: HTTPClient,
                              baseURL: String, timeout: TimeInterval) -> AnyPublisher<[WeatherWarning], Never> {
        let known = Dictionary(kept.filter { $0.description != nil }.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var requests: [(Int, HTTPRequest)] = []
        for (index, entry) in entries.enumerated() where known[entry.identifier ?? ""] == nil {
            guard requests.count < maxDocuments, let link = entry.documentLink,
                  let request = documentRequest(link, baseURL: baseURL, timeout: timeout) else { continue }
            requests.append((index, request))
        }
        let documents = Publishers.Sequence<[(Int, HTTPRequest)], Never>(sequence: requests)
            .flatMap { index, request in
                client.publisher(for: request)
                    .map { response -> (Int, MeteoAlarmFeed.Document?) in (index, try? MeteoAlarmFeed.document(response.body)) }
                    .replaceError(with: (index, nil))
            }
            .collect()
        return documents.map { answers -> [WeatherWarning] in
            var byIndex: [Int: MeteoAlarmFeed.Document] = [:]
            for case let (index, document?) in answers { byIndex[index] = document }
            return entries.enumerated().compactMap { index, entry in
                if let id = entry.identifier, let kept = known[id], kept.expires == entry.warning()?.expires {
                    return kept
                }
                return entry.warning(document: byIndex[index])
            }
        }
        .eraseToAnyPublisher()
    }

    /// The request for a CAP document's link, only when it is on the configured server (same scheme,
    /// host and port): a feed's links never send Nimbus elsewhere.
    static func documentRequest(_ link: String, baseURL: String, timeout: TimeInterval) -> HTTPRequest? {
        guard let url = URL(string: link), let base = URL(string: baseURL),
              url.scheme?.lowercased() == base.scheme?.lowercased(), url.scheme?.lowercased().hasPrefix("http") == true,
              url.host?.lowercased() == base.host?.lowercased(), url.port == base.port else { return nil }
        return HTTPRequest(url: url, headers: ["Accept": "application/cap+xml"], timeout: timeout, maxBytes: maxDocumentBytes)
    }
}

/// MeteoAlarm's Atom feed and CAP documents, read with `XMLReader`.
enum MeteoAlarmFeed {
    /// Entries per feed looked at, at most.
    static let maxEntries = 5_000
    /// Vertices of one polygon kept, at most.
    static let maxVertices = 20_000

    struct Entry: Equatable {
        var identifier: String?
        var event: String?
        var severity: String?
        var sent: String?
        var effective: String?
        var onset: String?
        var expires: String?
        var status: String?
        var messageType: String?
        var areaDesc: String?
        var title: String?
        var geocodes: [String] = []
        var polygons: [[Coordinate]] = []
        var documentLink: String?

        /// The warning from the entry alone, or with its CAP document's text.
        func warning(document: Document? = nil) -> WeatherWarning? {
            let info = document?.preferredInfo
            let expires = WarningText.instant(self.expires) ?? WarningText.instant(info?.expires)
            return WarningChecks.warning(
                id: identifier ?? documentLink, source: .meteoAlarm, event: info?.event ?? event,
                severity: WeatherWarning.Severity(cap: severity ?? info?.severity),
                headline: info?.headline ?? title, description: info?.description, instruction: info?.instruction,
                sender: info?.senderName, effective: WarningText.instant(effective) ?? WarningText.instant(info?.effective)
                    ?? WarningText.instant(sent),
                onset: WarningText.instant(onset) ?? WarningText.instant(info?.onset), expires: expires,
                needsExpiry: true, language: info?.language)
        }
    }

    /// A CAP document's `info` blocks, one per language.
    struct Document: Equatable {
        struct Info: Equatable {
            var language: String?
            var event: String?
            var severity: String?
            var headline: String?
            var description: String?
            var instruction: String?
            var senderName: String?
            var effective: String?
            var onset: String?
            var expires: String?
        }

        var infos: [Info]

        /// English when there is an English block (the labels are English, Korean or Japanese, which
        /// MeteoAlarm's services do not write), else the first.
        var preferredInfo: Info? {
            infos.first { ($0.language ?? "").lowercased().hasPrefix("en") } ?? infos.first
        }
    }

    /// The entries of a feed; throws when the body is not an Atom feed.
    static func entries(_ body: Data) throws -> [Entry] {
        let root: XMLReader.Element
        do {
            root = try XMLReader.parse(body)
        } catch {
            throw WarningsError.badResponse
        }
        guard root.name == "feed" else { throw WarningsError.badResponse }
        let entries = root.children("entry").prefix(maxEntries).map(entry)
        // A feed of entries none of which has a believable expiry is not a feed whose warnings are
        // elsewhere: it would be kept as "no warnings" for every city of the country.
        guard entries.isEmpty || entries.contains(where: { WarningText.instant($0.expires) != nil }) else {
            throw WarningsError.badResponse
        }
        return entries
    }

    private static func entry(_ e: XMLReader.Element) -> Entry {
        var entry = Entry()
        func text(_ name: String) -> String? { e.text(of: name).map { String($0.prefix(4_000)) } }
        entry.identifier = text("identifier")
        entry.event = text("event")
        entry.severity = text("severity")
        entry.sent = text("sent")
        entry.effective = text("effective")
        entry.onset = text("onset")
        entry.expires = text("expires")
        entry.status = text("status")
        entry.messageType = text("message_type") ?? text("msgType")
        entry.areaDesc = text("areaDesc")
        entry.title = text("title")
        for geocode in e.children("geocode") where geocode.text(of: "valueName")?.trimmingCharacters(in: .whitespaces) == "EMMA_ID" {
            if let value = geocode.text(of: "value")?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty, value.count <= 12 {
                entry.geocodes.append(value)
            }
        }
        for polygon in e.children("polygon").prefix(16) {
            if let ring = Self.polygon(polygon.text) { entry.polygons.append(ring) }
        }
        entry.documentLink = e.children("link").first { $0.attributes["type"] == "application/cap+xml" }?.attributes["href"]
        return entry
    }

    /// A CAP polygon ("lat,lon lat,lon …", the first and last the same): nil when it is not one.
    static func polygon(_ text: String) -> [Coordinate]? {
        var ring: [Coordinate] = []
        for pair in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }) {
            guard ring.count < maxVertices else { return nil }
            let parts = pair.split(separator: ",")
            guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else { return nil }
            let c = Coordinate(latitude: lat, longitude: lon)
            guard c.isValid else { return nil }
            ring.append(c)
        }
        return ring.count >= 4 ? ring : nil
    }

    /// The entries that are actual warnings (not tests, not cancellations) for a city in the regions
    /// `codes` or at `point`, one per CAP identifier.
    static func matching(_ entries: [Entry], codes: Set<String>, point: Coordinate) -> [Entry] {
        var seen = Set<String>()
        return entries.filter { entry in
            guard (entry.status.map { $0.trimmingCharacters(in: .whitespaces) == "Actual" } ?? true),
                  !["Cancel", "Ack", "Error"].contains(entry.messageType?.trimmingCharacters(in: .whitespaces) ?? "") else { return false }
            let inRegion = entry.geocodes.contains { codes.contains($0) }
                || entry.polygons.contains { Polygon.contains($0, point) }
            guard inRegion else { return false }
            let key = entry.identifier ?? entry.documentLink ?? "\(entry.event ?? "")\(entry.expires ?? "")"
            return seen.insert(key).inserted
        }
    }

    /// A CAP 1.2 document; throws when the body is not one.
    static func document(_ body: Data) throws -> Document {
        let root = try XMLReader.parse(body)
        guard root.name == "alert" else { throw WarningsError.badResponse }
        let infos = root.children("info").prefix(40).map { info -> Document.Info in
            func text(_ name: String) -> String? { info.text(of: name) }
            return Document.Info(language: text("language"), event: text("event"), severity: text("severity"),
                                 headline: text("headline"), description: text("description"),
                                 instruction: text("instruction"), senderName: text("senderName"),
                                 effective: text("effective"), onset: text("onset"), expires: text("expires"))
        }
        return Document(infos: Array(infos))
    }
}

/// Point in polygon for the warning areas (rings of latitude, longitude).
enum Polygon {
    /// Whether `point` is inside `ring` (even-odd rule; a ring need not be closed).
    static func contains(_ ring: [Coordinate], _ point: Coordinate) -> Bool {
        guard ring.count >= 3 else { return false }
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i], b = ring[j]
            if (a.latitude > point.latitude) != (b.latitude > point.latitude) {
                let x = (b.longitude - a.longitude) * (point.latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude
                if point.longitude < x { inside.toggle() }
            }
            j = i
        }
        return inside
    }
}
