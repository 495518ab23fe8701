import Foundation
import XCTest
@testable import NimbusDomain
import TestSupport

/// Calendar dates, POSIX TZ rules and the TZif reader.
final class TimeZoneRulesTests: XCTestCase {
    /// Every day from 1600 to 2400 against Foundation's Gregorian calendar in UTC.
    func testLocalDatesMatchFoundationsCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for days in stride(from: -135_000, through: 157_000, by: 97) {
            let date = LocalDate(daysSince1970: days)
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: Double(days) * 86400))
            XCTAssertEqual([date.year, date.month, date.day], [parts.year!, parts.month!, parts.day!], "\(days)")
            XCTAssertEqual(date.weekday, parts.weekday! - 1)
            XCTAssertEqual(date.daysSince1970, days)
        }
        XCTAssertEqual(LocalDate(year: 2026, month: 3, day: 29)?.description, "2026-03-29")
        XCTAssertNil(LocalDate(year: 2026, month: 2, day: 29))
        XCTAssertNotNil(LocalDate(year: 2024, month: 2, day: 29))
        XCTAssertEqual(WallClock(secondsSince1970: -1).date.description, "1969-12-31")
        XCTAssertEqual(WallClock(secondsSince1970: -1).secondOfDay, 86399)
    }

    private func utc(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int = 0, _ s: Int = 0) -> Int64 {
        Int64(LocalDate(year: y, month: m, day: d)!.daysSince1970) * 86400 + Int64(h * 3600 + min * 60 + s)
    }

    func testPosixRulesOfBothHemispheres() throws {
        let berlin = try XCTUnwrap(PosixTimeZoneRule("CET-1CEST,M3.5.0,M10.5.0/3"))
        // 2026: summer time from 29 March 01:00 UTC to 25 October 01:00 UTC.
        XCTAssertEqual(berlin.offset(at: utc(2026, 3, 29, 0, 59, 59)), 3600)
        XCTAssertEqual(berlin.offset(at: utc(2026, 3, 29, 1)), 7200)
        XCTAssertEqual(berlin.offset(at: utc(2026, 10, 25, 0, 59, 59)), 7200)
        XCTAssertEqual(berlin.offset(at: utc(2026, 10, 25, 1)), 3600)
        XCTAssertEqual(berlin.transitions(in: utc(2026, 1, 1, 0)...utc(2026, 12, 31, 0)), [utc(2026, 3, 29, 1), utc(2026, 10, 25, 1)])
        // Auckland: summer across New Year, from the last Sunday of September to the first of April.
        let auckland = try XCTUnwrap(PosixTimeZoneRule("NZST-12NZDT,M9.5.0,M4.1.0/3"))
        XCTAssertEqual(auckland.offset(at: utc(2026, 1, 15, 0)), 13 * 3600)
        XCTAssertEqual(auckland.offset(at: utc(2026, 6, 15, 0)), 12 * 3600)
        XCTAssertEqual(auckland.offset(at: utc(2026, 4, 4, 13, 59, 59)), 13 * 3600)
        XCTAssertEqual(auckland.offset(at: utc(2026, 4, 4, 14)), 12 * 3600)
        // Quoted names, no DST; and DST all year (RFC 8536's extension).
        XCTAssertEqual(PosixTimeZoneRule("<+13>-13")?.offset(at: 0), 13 * 3600)
        XCTAssertEqual(PosixTimeZoneRule("<-03>3")?.offset(at: 0), -3 * 3600)
        let always = try XCTUnwrap(PosixTimeZoneRule("EST5EDT,0/0,J365/25"))
        for t in [utc(2026, 1, 1, 0), utc(2026, 1, 1, 5), utc(2026, 7, 1, 0), utc(2026, 12, 31, 23, 59, 59), utc(2027, 1, 1, 5)] {
            XCTAssertEqual(always.offset(at: t), -4 * 3600, "\(t)")
        }
        // Transition times beyond 24 hours and negative (RFC 8536): Greenland's "M3.5.0/-1".
        let nuuk = try XCTUnwrap(PosixTimeZoneRule("<-02>2<-01>,M3.5.0/-1,M10.5.0/0"))
        // The last Sunday of March is the 29th; "−1" is 23:00 of the Saturday before, at −02: 01:00 UTC.
        XCTAssertEqual(nuuk.offset(at: utc(2026, 3, 29, 0, 59, 59)), -7200)
        XCTAssertEqual(nuuk.offset(at: utc(2026, 3, 29, 1)), -3600)
        // Julian days: J60 is 1 March in leap years too; 59 zero-based is 29 February in 2024.
        let julian = try XCTUnwrap(PosixTimeZoneRule("AAA0BBB,J60/0,J300/0"))
        XCTAssertEqual(julian.offset(at: utc(2024, 3, 1, 0)), 3600)
        XCTAssertEqual(julian.offset(at: utc(2024, 2, 29, 23, 59, 59)), 0)
        let zeroBased = try XCTUnwrap(PosixTimeZoneRule("AAA0BBB,59/0,300/0"))
        XCTAssertEqual(zeroBased.offset(at: utc(2024, 2, 29, 0)), 3600)
    }

    func testMalformedPosixStringsAreRefused() {
        for text in ["", "C-1", "CET", "CET-1CEST", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0", "CET-1CEST,M3.6.0,M10.5.0",
                     "CET-1CEST,M3.5.7,M10.5.0", "CET-1CEST,J0,J365", "CET-25", "CET-1CEST,M3.5.0/168,M10.5.0", "<+1>-1",
                     "<+13-13", "CET-1CEST,M3.5.0,M10.5.0/3junk", String(repeating: "A", count: 300) + "0"] {
            XCTAssertNil(PosixTimeZoneRule(text), text)
        }
    }

    // MARK: TZif

    /// A TZif file built from parts, for the reader's tests.
    static func tzif(version: UInt8 = UInt8(ascii: "2"), times: [Int64], indices: [UInt8], types: [(Int32, UInt8)],
                     footer: String = "", leap: Int = 0) -> [UInt8] {
        func be32(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
        func be64(_ v: Int64) -> [UInt8] { [56, 48, 40, 32, 24, 16, 8, 0].map { UInt8(truncatingIfNeeded: UInt64(bitPattern: v) >> $0) } }
        func block(_ wide: Bool) -> [UInt8] {
            var out = Array("TZif".utf8) + [version] + Array(repeating: 0, count: 15)
            for count in [0, 0, leap, times.count, types.count, 4] { out += be32(UInt32(count)) }
            for t in times { out += wide ? be64(t) : be32(UInt32(truncatingIfNeeded: Int32(clamping: t))) }
            out += indices
            for (offset, dst) in types { out += be32(UInt32(bitPattern: offset)) + [dst, 0] }
            out += Array("LMT\0".utf8)
            for _ in 0..<leap { out += (wide ? be64(0) : be32(0)) + be32(1) }
            return out
        }
        if version == 0 { return block(false) }
        return block(false) + block(true) + Array("\n\(footer)\n".utf8)
    }

    func testTheReaderTakesVersionOneAndLaterFiles() throws {
        let types: [(Int32, UInt8)] = [(3600, 0), (7200, 1)]
        let v1 = try TZif.parse(Self.tzif(version: 0, times: [100, 200], indices: [1, 0], types: types))
        XCTAssertEqual([v1.offset(at: 99), v1.offset(at: 100), v1.offset(at: 199), v1.offset(at: 200), v1.offset(at: 1 << 40)],
                       [3600, 7200, 7200, 3600, 3600])
        let v2 = try TZif.parse(Self.tzif(times: [-(1 << 40), 100], indices: [1, 0], types: types, footer: "<+05>-5"))
        XCTAssertEqual([v2.offset(at: -(1 << 41)), v2.offset(at: 0), v2.offset(at: 100), v2.offset(at: 101)], [3600, 7200, 3600, 18000])
        // A slim file with no transitions: the footer for every instant.
        let slim = try TZif.parse(Self.tzif(times: [], indices: [], types: [(0, 0)], footer: "CET-1CEST,M3.5.0,M10.5.0/3"))
        XCTAssertEqual(slim.offset(at: utc(2026, 7, 1, 0)), 7200)
    }

    func testDamagedFilesAreErrorsNotTraps() {
        let good = Self.tzif(times: [100, 200], indices: [1, 0], types: [(3600, 0), (7200, 1)], footer: "CET-1")
        XCTAssertNoThrow(try TZif.parse(good))
        // Every prefix is refused: a file cut short anywhere.
        for n in 0..<good.count { XCTAssertThrowsError(try TZif.parse(Array(good.prefix(n))), "\(n) bytes") }
        XCTAssertThrowsError(try TZif.parse(Self.tzif(times: [200, 100], indices: [0, 0], types: [(0, 0)]))) // out of order
        XCTAssertThrowsError(try TZif.parse(Self.tzif(times: [100], indices: [3], types: [(0, 0)])))          // no such type
        XCTAssertThrowsError(try TZif.parse(Self.tzif(times: [], indices: [], types: [(200_000, 0)])))         // offset > 26 h
        XCTAssertThrowsError(try TZif.parse(Self.tzif(times: [], indices: [], types: [(0, 0)], footer: "junk")))
        XCTAssertThrowsError(try TZif.parse(Self.tzif(times: [], indices: [], types: [(0, 0)], leap: 1)))
        XCTAssertThrowsError(try TZif.parse(Self.tzif(times: [], indices: [], types: [])))                   // no type at all
        XCTAssertThrowsError(try TZif.parse(Array(repeating: 0, count: TZif.maxBytes + 1)))
        var huge = good
        huge.replaceSubrange(32..<36, with: [0x7F, 0xFF, 0xFF, 0xFF]) // timecnt of 2^31
        XCTAssertThrowsError(try TZif.parse(huge))
    }

    /// Real zone files changed at random (bytes flipped, inserted, removed, the file cut): the reader
    /// returns rules or an error, never traps, and rules it returns answer every instant within ±26 h.
    func testRandomlyDamagedZoneFilesNeverTrap() throws {
        let names = ["Europe/Berlin", "America/Vancouver", "Pacific/Auckland", "Asia/Kolkata", "America/Sao_Paulo", "UTC"]
        let files = names.compactMap { FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + $0).map { [UInt8]($0) } }
        try XCTSkipIf(files.isEmpty, "no zone database on this system")
        var generator = SystemRandomNumberGenerator()
        var parsed = 0
        for _ in 0..<PropertyCount.scaled(default: 3_000) {
            var bytes = files.randomElement(using: &generator)!
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let i = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: bytes[i] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: i)
                case 2: bytes.remove(at: i)
                default: bytes = Array(bytes.prefix(i))
                }
                if bytes.isEmpty { break }
            }
            guard let rules = try? TZif.parse(bytes) else { continue }
            parsed += 1
            for t in [Int64.min / 4, -1, 0, utc(2026, 6, 1, 0), Int64.max / 4] {
                XCTAssertLessThanOrEqual(abs(rules.offset(at: t)), 93_599)
            }
        }
        XCTAssertGreaterThan(parsed, 0, "some changes leave a readable file (a changed offset, say)")
    }

    // MARK: Zones

    /// The start of a day and the instant of a wall-clock reading, against the zone's own offsets, in
    /// zones with gaps and repeated hours at midnight and at other hours.
    func testStartOfDayIsTheFirstInstantOfTheDay() throws {
        let database = try XCTUnwrap(Self.database)
        var generator = SystemRandomNumberGenerator()
        for name in ["America/Havana", "America/Santiago", "Asia/Beirut", "Europe/Berlin", "Pacific/Apia", "America/Sao_Paulo",
                     "Australia/Lord_Howe", "Asia/Tehran", "Pacific/Kiritimati", "America/St_Johns"] {
            let zone = try XCTUnwrap(database.zone(named: name), name)
            for _ in 0..<PropertyCount.scaled(default: 200) {
                let day = LocalDate(daysSince1970: Int.random(in: 0...24_000, using: &generator))
                let start = Zone.seconds(zone.startOfDay(day))
                let first = zone.wallClock(at: Date(timeIntervalSince1970: Double(start))).date
                XCTAssertLessThan(zone.wallClock(at: Date(timeIntervalSince1970: Double(start - 1))).date, day, "\(name) \(day)")
                if first != day {
                    // A day the zone skipped (Apia went from 29 to 31 December 2011): its start is the next day's.
                    XCTAssertEqual(first, LocalDate(daysSince1970: day.daysSince1970 + 1), "\(name) \(day)")
                    XCTAssertEqual(name, "Pacific/Apia", "\(day) skipped in \(name)")
                }
            }
        }
    }

    static let database: ZoneLookup? = {
        let zones = SystemZoneDatabaseForDomainTests()
        return zones.zone(named: "UTC") == nil ? nil : zones
    }()
}

/// The system's zone files read straight, as the Data module's database does, without importing it.
private struct SystemZoneDatabaseForDomainTests: ZoneLookup {
    func zone(named identifier: String) -> Zone? {
        guard let data = FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + identifier),
              let rules = try? TZif.parse([UInt8](data)) else { return nil }
        return Zone(identifier: identifier, rules: rules)
    }
}
