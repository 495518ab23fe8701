import Foundation
import NimbusDomain
import TestSupport
import XCTest
@testable import NimbusData

/// A catalogue damaged at random (bytes anywhere after the header, the local-name numbers, a file cut
/// short with its header saying so) opens or throws `corrupt`, and what opens answers every search,
/// city, summary and matched name without a trap.
final class CatalogCorruptionTests: XCTestCase {
    private struct Rng: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
    }

    func testRandomDamageNeverTraps() throws {
        let original = try Data(contentsOf: try CityCatalog.bundled().url)
        let cities = original[24..<28].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        let count = original[8..<12].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("nimbus-corrupt-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        let seed = UInt64.random(in: 1...UInt64.max)
        var rng = Rng(state: seed)
        for run in 0..<PropertyCount.scaled(default: 12) {
            var data = original
            switch run % 3 {
            case 0: // the local-name numbers of many of the largest cities
                for _ in 0..<200 {
                    let record = cities + Int.random(in: 0..<min(count, 500), using: &rng) * 36
                    for k in 32..<36 { data[record + k] = UInt8.random(in: 0...255, using: &rng) }
                }
            case 1: // bytes anywhere after the header
                for _ in 0..<2_000 { data[Int.random(in: 72..<data.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
            default: // cut short, the header agreeing
                let size = Int.random(in: 72..<data.count, using: &rng)
                data = data.prefix(size)
                for k in 0..<4 { data[68 + k] = UInt8(truncatingIfNeeded: size >> (8 * k)) }
            }
            try data.write(to: url)
            let catalog: CityCatalog
            do {
                catalog = try CityCatalog(contentsOf: url)
            } catch let error as CityCatalogError {
                guard case .corrupt = error else { return XCTFail("seed \(seed) run \(run): \(error)") }
                continue
            }
            for query in ["", "to", "tokyo", "とうきょう", "トウキョウ", "ｵｵｻｶ", "서울", "s", "東京"] {
                for ref in catalog.search(query).refs.prefix(40) {
                    let city = catalog.city(ref)
                    _ = catalog.summary(ref)
                    _ = catalog.matchedName(ref, query: query)
                    XCTAssertTrue(city.localNames.japanese.map { !$0.isEmpty } ?? true, "seed \(seed) run \(run)")
                }
            }
        }
    }
}
