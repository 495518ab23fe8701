import Foundation
import XCTest
import NimbusDomain
@testable import NimbusData

/// Reference test of the city search against names people type whole: CLDR's exemplar city of every
/// time zone in every locale babel ships (Roma, Rom, Rome, ローマ, 로마 for Europe/Rome), and the
/// Latin-script alternate names of the 1,000 largest cities. Each typed whole must list its city
/// first, unless a larger city has that name as its own (those rows are not in the fixture).
///
/// `Tests/Reference/city-names.tsv` is written by `scripts/reference-names.py` from babel's CLDR data
/// and the pinned GeoNames wheel (not from the catalogue, nor the app's search). Names in Hangul are
/// also typed in the Korean UI, in kana or kanji in the Japanese one.
///
/// The names whose city is not first are listed, each with its reason, in
/// `Tests/Reference/city-names-exceptions.tsv`: a name not first and not listed fails the test, and so
/// does a listed one that is now first (the list must say what is true). `NIMBUS_RECORD=1` writes
/// the list afresh with the reasons worked out below (then the test fails, so that a recording run is
/// never taken for a pass); read the difference before committing it.
final class CityNamesReferenceTests: XCTestCase {
    struct Row: Sendable {
        let name: String
        let id: Int
        let population: Int
        let source: String
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Reference")
    static let fixture = directory.appendingPathComponent("city-names.tsv")
    static let exceptionsFile = directory.appendingPathComponent("city-names-exceptions.tsv")

    static func rows() throws -> [Row] {
        let text = try String(contentsOf: fixture, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        XCTAssertEqual(lines.removeFirst(), "name\tgeonameid\tpopulation\tsource")
        return try lines.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, let id = Int(fields[1]), let population = Int(fields[2]) else {
                throw CocoaError(.fileReadCorruptFile)
            }
            return Row(name: fields[0], id: id, population: population, source: fields[3])
        }
    }

    /// The languages a name is typed in: English always, Korean for Hangul, Japanese for kana and kanji.
    static func languages(_ name: String) -> [CityNameLanguage] {
        var out: [CityNameLanguage] = [.geoNames]
        if name.unicodeScalars.contains(where: { (0xAC00...0xD7A3).contains($0.value) }) { out.append(.korean) }
        if name.unicodeScalars.contains(where: { (0x3040...0x30FF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value) }) {
            out.append(.japanese)
        }
        return out
    }

    static func label(_ language: CityNameLanguage) -> String {
        switch language {
        case .geoNames: "en"
        case .korean: "ko"
        case .japanese: "ja"
        }
    }

    /// Why `first` is listed before the row's city, in words, from the two cities' names and sizes
    /// (for the list of exceptions: what a reader checks, never what passes a row).
    static func reason(_ row: Row, first: City?, language: CityNameLanguage, catalog: CityCatalog) -> String {
        guard let first else { return "nothing matches: the catalogue has no such name" }
        let typed = NameFolding.tokens(row.name)
        let own = [first.name] + (first.localNames.shown(in: language).map { [$0] } ?? [])
        let ownFolded = own.map(NameFolding.tokens)
        let times = Double(first.population) / Double(max(1, row.population))
        let size = times >= 1 ? String(format: "%.1f× as big", times) : String(format: "%.1f× smaller", 1 / times)
        if ownFolded.contains(typed) {
            return "\(first.name) (\(size)) has it as its own name"
        }
        if ownFolded.contains(where: { $0.count >= typed.count && Array($0.prefix(typed.count - 1)) == typed.dropLast()
                && ($0[typed.count - 1]).hasPrefix(typed.last ?? "") }) {
            return "\(first.name) (\(size)) has an own name that starts with it"
        }
        let alike = first.alternateNames.filter { NameFolding.tokens($0) == typed }
        if let same = alike.first(where: { $0.precomposedStringWithCanonicalMapping.lowercased() == row.name.precomposedStringWithCanonicalMapping.lowercased() }) {
            return "\(first.name) (\(size)) has it as a name too (\(same))"
        }
        if let similar = alike.first {
            return "\(first.name) (\(size)) has a name that folds alike (\(similar)): folding drops accents and marks"
        }
        let words = Set(ownFolded.joined())
        if typed.allSatisfy({ word in words.contains { $0.hasPrefix(word) } }) {
            return "\(first.name) (\(size)) has own words that start with its words"
        }
        return "\(first.name) (\(size)) has words that start with its words among its names"
    }

    func testNamesTypedWholeListTheirCityFirst() throws {
        let rows = try Self.rows()
        XCTAssertGreaterThan(rows.count, 30_000)
        let catalog = try CityCatalog.bundled()
        var passed: [String: Int] = [:], total: [String: Int] = [:]
        var failures: [String: String] = [:] // "source\tlanguage\tname" → reason
        for row in rows {
            for language in Self.languages(row.name) {
                let key = "\(row.source) \(Self.label(language))"
                total[key, default: 0] += 1
                let matches = catalog.search(row.name, in: language)
                let first = matches.first.map(catalog.city)
                if first?.id == row.id {
                    passed[key, default: 0] += 1
                } else {
                    failures["\(row.source)\t\(Self.label(language))\t\(row.name)"] =
                        Self.reason(row, first: first, language: language, catalog: catalog)
                }
            }
        }
        let report = total.keys.sorted().map { key in
            let share = Double(passed[key, default: 0]) / Double(total[key]!) * 100
            return "\(key): \(passed[key, default: 0]) of \(total[key]!) first (\(String(format: "%.2f", share))%)"
        }
        print("City names typed whole:\n" + report.joined(separator: "\n"))
        if ProcessInfo.processInfo.environment["NIMBUS_RECORD"] == "1" {
            let lines = ["source\tlanguage\tname\treason"] + failures.keys.sorted().map { "\($0)\t\(failures[$0]!)" }
            try (lines.joined(separator: "\n") + "\n").write(to: Self.exceptionsFile, atomically: true, encoding: .utf8)
            XCTFail("recorded \(failures.count) exceptions in \(Self.exceptionsFile.lastPathComponent); run again without NIMBUS_RECORD")
            return
        }
        let listed = try String(contentsOf: Self.exceptionsFile, encoding: .utf8)
            .split(separator: "\n").dropFirst().map { line in
                line.split(separator: "\t", omittingEmptySubsequences: false).prefix(3).joined(separator: "\t")
            }
        let unexplained = Set(failures.keys).subtracting(listed).sorted()
        let nowFirst = Set(listed).subtracting(failures.keys).sorted()
        XCTAssertEqual(unexplained, [], "not first and not in city-names-exceptions.tsv:\n"
                       + unexplained.map { "\($0)\t\(failures[$0]!)" }.joined(separator: "\n"))
        XCTAssertEqual(nowFirst, [], "listed in city-names-exceptions.tsv but now first: remove them")
    }
}
