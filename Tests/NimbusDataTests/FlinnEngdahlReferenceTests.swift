import Foundation
import XCTest
import NimbusDomain
@testable import NimbusData
import NimbusResources
import TestSupport

/// The seismic regions against obspy's own `FlinnEngdahl.get_number`, run by
/// `scripts/feregion_reference.py` from the pinned wheel on its own data files: every point of a
/// half-degree grid over the globe (poles, the date line and every whole degree, where the tables'
/// rows and cells begin, included) and random points, the same region number everywhere.
final class FlinnEngdahlReferenceTests: XCTestCase {
    func testEveryPointOfAHalfDegreeGridAndRandomPointsAgreeWithObspy() throws {
        let regions = try XCTUnwrap(FlinnEngdahlRegions.bundled(), "Resources/feregions.tsv is bundled")
        var points: [[Double]] = []
        for lat in stride(from: -180, through: 180, by: 1) {
            for lon in stride(from: -360, through: 360, by: 1) { points.append([Double(lat) / 2, Double(lon) / 2]) }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<PropertyCount.scaled(default: 20_000) {
            points.append([Double.random(in: -90...90, using: &generator), Double.random(in: -180...180, using: &generator)])
        }
        let theirs = try JSONDecoder().decode([Int].self, from: try PythonReference.run(
            ["scripts/feregion_reference.py"], input: try JSONEncoder().encode(points)))
        XCTAssertEqual(theirs.count, points.count)
        var failures: [String] = []
        for (point, number) in zip(points, theirs) {
            let ours = regions.number(latitude: point[0], longitude: point[1])
            if ours != number { failures.append("\(point): ours \(ours.map(String.init) ?? "none"), obspy's \(number)") }
            if regions.region(at: Coordinate(latitude: point[0], longitude: point[1]))?.number != number {
                failures.append("\(point): the region's names are not region \(number)'s")
            }
        }
        print("Flinn-Engdahl reference: \(points.count - failures.count)/\(points.count) points agree with obspy")
        XCTAssertEqual(failures, [], failures.prefix(20).joined(separator: "\n"))
    }

    /// The places the issue names: the South Pole, the middle of the Atlantic, a ridge.
    func testFarEventsHaveTheRegionsUSGSWouldName() throws {
        let regions = try XCTUnwrap(FlinnEngdahlRegions.bundled())
        func names(_ lat: Double, _ lon: Double) -> [String] {
            regions.region(at: Coordinate(latitude: lat, longitude: lon)).map { [$0.english, $0.korean, $0.japanese] } ?? []
        }
        XCTAssertEqual(names(-90, 0), ["Antarctica", "남극 대륙", "南極大陸"])
        XCTAssertEqual(names(-30, -15), ["Southern Mid-Atlantic Ridge", "대서양 중앙 해령 남부", "大西洋中央海嶺南部"])
        XCTAssertEqual(names(-25, -25), ["South Atlantic Ocean", "남대서양", "南大西洋"])
        XCTAssertEqual(names(38, 145), ["Off east coast of Honshu, Japan", "혼슈 동쪽 앞바다(일본)", "本州東方沖（日本）"])
        XCTAssertEqual(names(40, 142.5), ["Near east coast of Honshu, Japan", "혼슈 동해안(일본)", "本州東岸（日本）"])
        XCTAssertEqual(names(-17.5, -178.5), ["Fiji Islands region", "피지 제도 지역", "フィジー諸島地域"])
    }

    /// The table damaged at random: it is refused or read whole, never a trap, and a table read
    /// answers every point of the globe with a region that has its three names.
    func testADamagedTableIsRefusedOrReadWholeNeverATrap() throws {
        let url = try XCTUnwrap(NimbusResources.url(forResource: "feregions", withExtension: "tsv"))
        let original = try [UInt8](Data(contentsOf: url))
        var generator = SystemRandomNumberGenerator()
        var read = 0
        for _ in 0..<PropertyCount.scaled(default: 60) {
            var bytes = original
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let i = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[i] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: i)
                default: bytes.removeSubrange(i..<min(bytes.count, i + Int.random(in: 1...200, using: &generator)))
                }
            }
            guard let table = FlinnEngdahlRegions(text: String(decoding: bytes, as: UTF8.self)) else { continue }
            read += 1
            for lat in stride(from: -90.0, through: 90, by: 15) {
                for lon in stride(from: -180.0, through: 180, by: 15) {
                    let region = table.region(at: Coordinate(latitude: lat, longitude: lon))
                    XCTAssertNotNil(region)
                    XCTAssertFalse(region?.korean.isEmpty ?? true)
                }
            }
        }
        XCTAssertNil(FlinnEngdahlRegions(text: ""))
        XCTAssertNil(FlinnEngdahlRegions(text: "R\t1\tA\tB\tC\n"), "no grid")
        print("damaged tables read: \(read)")
    }
}
