import Foundation
import NimbusDomain
import NimbusResources

/// The Flinn–Engdahl seismic regions (1995 revision, 757 regions) with their names in English,
/// Korean and Japanese: `feregions.tsv`, made at resource-build time from the pinned obspy wheel's
/// tables (`scripts/feregions.py`). A point is looked up as obspy's `FlinnEngdahl.get_number` does
/// it: in its quadrant's row of whole degrees of latitude, the last region starting at or west of
/// its whole degree of longitude (`FlinnEngdahlReferenceTests` checks this against obspy's own code).
public struct FlinnEngdahlRegions: SeismicRegions {
    /// A row: the whole degrees of longitude where regions start (ascending), and the regions.
    struct Row: Equatable, Sendable {
        var starts: [UInt8] = []
        var regions: [UInt16] = []
    }

    static let quadrants = ["ne", "nw", "se", "sw"]
    /// Regions kept at most, and the longest name: more is no table of this kind.
    static let regionLimit = 2000
    static let nameLimit = 120

    private let names: [Int: SeismicRegion]
    /// `rows[quadrant * 91 + latitude]`.
    private let rows: [Row]

    /// Reads the table; nil when it is not one (every region a row names must have its names, and
    /// every row of every quadrant must be there).
    public init?(text: String) {
        var names: [Int: SeismicRegion] = [:]
        var rows = [Row](repeating: Row(), count: 4 * 91)
        var seen = Set<Int>()
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            switch fields.first {
            case "R":
                guard fields.count == 5, let number = Int(fields[1]), (1...Self.regionLimit).contains(number),
                      names[number] == nil else { return nil }
                let texts = fields[2...4].map { String($0) }
                guard texts.allSatisfy({ !$0.isEmpty && $0.count <= Self.nameLimit && Self.isPrintable($0) }) else { return nil }
                names[number] = SeismicRegion(number: number, english: texts[0], korean: texts[1], japanese: texts[2])
            case "G":
                guard fields.count == 4, let quadrant = Self.quadrants.firstIndex(of: String(fields[1])),
                      let latitude = Int(fields[2]), (0...90).contains(latitude) else { return nil }
                let index = quadrant * 91 + latitude
                guard seen.insert(index).inserted else { return nil }
                var row = Row()
                for pair in fields[3].split(separator: " ") {
                    let parts = pair.split(separator: ":", omittingEmptySubsequences: false)
                    guard parts.count == 2, let start = Int(parts[0]), (0...180).contains(start),
                          let region = Int(parts[1]), (1...Self.regionLimit).contains(region),
                          row.starts.last.map({ Int($0) < start }) ?? true else { return nil }
                    row.starts.append(UInt8(start))
                    row.regions.append(UInt16(region))
                }
                guard !row.starts.isEmpty else { return nil }
                rows[index] = row
            default:
                return nil
            }
        }
        guard seen.count == rows.count, rows.allSatisfy({ $0.regions.allSatisfy { names[Int($0)] != nil } }) else { return nil }
        self.names = names
        self.rows = rows
    }

    public func region(at coordinate: Coordinate) -> SeismicRegion? {
        number(latitude: coordinate.latitude, longitude: coordinate.longitude).flatMap { names[$0] }
    }

    /// The region's number at a point, as obspy gives it; nil off the globe.
    func number(latitude: Double, longitude lon: Double) -> Int? {
        guard latitude.isFinite, lon.isFinite, (-90...90).contains(latitude), (-180...180).contains(lon) else { return nil }
        let longitude = lon == -180 ? 180 : lon
        let quadrant = (latitude >= 0 ? 0 : 2) + (longitude >= 0 ? 0 : 1)
        let row = rows[quadrant * 91 + Int(abs(latitude))]
        let whole = UInt8(Int(abs(longitude)))
        // The last region starting at or before the whole degree (obspy takes the row's last when
        // none does: Python's index −1).
        let i = (row.starts.lastIndex { $0 <= whole }) ?? (row.starts.count - 1)
        return Int(row.regions[i])
    }

    private static func isPrintable(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F && !(0x80..<0xA0).contains($0.value) }
    }

    /// The bundled table, read once when first asked for (the first event placed); nil when it is
    /// missing or damaged (events are then named by their nearest town alone).
    public static func bundled() -> FlinnEngdahlRegions? { bundledTable }

    /// The bundled table, read when the first event is placed rather than when the Quakes tab is
    /// made (parsing it is milliseconds the first frame must not wait for).
    public static let onFirstUse: SeismicRegions = BundledOnFirstUse()

    private struct BundledOnFirstUse: SeismicRegions {
        func region(at coordinate: Coordinate) -> SeismicRegion? { bundledTable?.region(at: coordinate) }
    }

    private static let bundledTable: FlinnEngdahlRegions? = {
        guard let url = NimbusResources.url(forResource: "feregions", withExtension: "tsv"),
              let data = try? Data(contentsOf: url), data.count < 1 << 20 else { return nil }
        return FlinnEngdahlRegions(text: String(decoding: data, as: UTF8.self))
    }()
}
