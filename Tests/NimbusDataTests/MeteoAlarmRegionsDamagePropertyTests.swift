import Foundation
import Testing
import PropertyBased
import TestSupport
@testable import NimbusData
import NimbusResources

/// The bundled MeteoAlarm region table damaged at random (bytes changed, lines cut or joined, a tab
/// or comma added, the file cut short) still reads without trapping, and what it reads is only what
/// could be trusted: every region code is 3 to 12 ASCII letters and digits, at most 8 a city, every
/// country code two letters with a feed name of letters and dashes, and no city gains a region the
/// undamaged table does not give it unless its own line was touched. `NIMBUS_PROPERTY_COUNT` raises
/// the number of cases.
@Suite struct MeteoAlarmRegionsDamagePropertyTests {
    static let original: [UInt8]? = {
        guard let url = NimbusResources.url(forResource: "meteoalarm-regions", withExtension: "tsv") else { return nil }
        return (try? Data(contentsOf: url)).map { [UInt8]($0) }
    }()

    @Test func aDamagedTableReadsOnlyWhatItCanTrust() async throws {
        let bytes = try #require(Self.original, "Resources/meteoalarm-regions.tsv is bundled")
        let whole = MeteoAlarmRegions(text: String(decoding: bytes, as: UTF8.self))
        let noise: [UInt8] = [0x09, 0x0A, 0x2C, 0x43, 0x23, 0x00, 0x1B, 0xFF, 0xE3, 0x41, 0x31]
        await propertyCheck(count: PropertyCount.scaled(default: 40),
                            input: Gen.int(in: 0...Int(Int32.max)).array(of: 1...12), Gen.int(in: 0...100)) { edits, cut in
            var damaged = bytes
            for edit in edits {
                let at = edit % damaged.count
                let byte = noise[(edit / damaged.count) % noise.count]
                if edit % 3 == 0 { damaged.insert(byte, at: at) } else { damaged[at] = byte }
            }
            if cut < 10 { damaged = Array(damaged.prefix(damaged.count * cut / 10)) }
            let table = MeteoAlarmRegions(text: String(decoding: damaged, as: UTF8.self))
            for (code, country) in table.countries {
                #expect(code.count == 2)
                #expect(country.feed.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "-") })
            }
            var changed = 0
            for id in Self.ids(in: damaged) {
                let regions = table.regions(of: id)
                #expect(regions.count <= 8)
                for code in regions {
                    #expect((3...12).contains(code.utf8.count) && code.utf8.allSatisfy { $0 < 0x80 && (Character(Unicode.Scalar($0)).isLetter || Character(Unicode.Scalar($0)).isNumber) },
                            "city \(id): region \(code.debugDescription)")
                }
                if regions != whole.regions(of: id) { changed += 1 }
            }
            // An edit changes at most two cities (the line it lands in and the one it joins or splits
            // off); a cut, the city whose line it ends in.
            #expect(changed <= 2 * edits.count + (cut < 10 ? 1 : 0), "\(changed) cities changed by \(edits.count) edits")
        }
    }

    /// The city ids at the start of the table's lines, read here on their own.
    static func ids(in bytes: [UInt8]) -> Set<Int> {
        var ids = Set<Int>()
        for line in bytes.split(separator: 0x0A) {
            let digits = line.prefix { (0x30...0x39).contains($0) }
            if !digits.isEmpty, digits.count < 12, let id = Int(String(decoding: digits, as: UTF8.self)) { ids.insert(id) }
        }
        return ids
    }
}
