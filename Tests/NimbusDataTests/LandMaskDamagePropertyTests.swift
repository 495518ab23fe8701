import Foundation
import Testing
import PropertyBased
import TestSupport
@testable import NimbusData

/// A land mask file damaged at random — bytes changed anywhere, a field of a level record set to a
/// random or edge value, an entry of the group, tile or block tables rewritten, the file cut short —
/// either fails to open with `MapDataError.corrupt`, or opens, describes tables that lie inside the
/// file, overlap nothing else and whose counts add up, and then every lookup stays inside its table
/// (a debug build checks each index read in `LandLevel.isLand`, so a lookup past a table traps here).
///
/// The files are small ones made by an encoder written here from the format in `scripts/landmask.py`,
/// so that every block of every level is looked up; undamaged, every pixel reads back as the bitmap it was
/// made from. The bundled file is damaged too, in its tile tables, with the lookups of the tiles the
/// damaged entry covers. `NIMBUS_PROPERTY_COUNT` raises the number of cases. A trap ends the test
/// process: the case being run is written to `$TMPDIR/nimbus-landmask-case.txt` first.
@Suite struct LandMaskDamagePropertyTests {
    static let caseFile = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-landmask-case.txt")
    /// Files to damage, made once (making one takes longer than damaging, opening and reading it).
    private static let samples: [SyntheticLandMask] = (0..<4).map { seed in
        var random = Random(seed: UInt64(seed) &* 7919)
        return SyntheticLandMask(&random)
    }

    @Test func anUndamagedFileReadsBackAsItsBitmaps() async throws {
        await propertyCheck(count: PropertyCount.scaled(default: 5), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var random = Random(seed: UInt64(seed))
            let made = SyntheticLandMask(&random)
            guard let mask = made.open(name: "whole-\(seed)") else { Issue.record("seed \(seed): did not open"); return }
            #expect(mask.levels.map(\.pixelsPerDegree) == [1], "seed \(seed)")
            #expect(mask.lakeLevels.map(\.pixelsPerDegree) == [2], "seed \(seed)")
            for (level, bitmap) in zip(mask.levels + mask.lakeLevels, made.bitmaps) {
                var wrong = 0
                for y in 0..<level.height {
                    for x in 0..<level.width where level.isLand(x: x, y: y) != bitmap.bits[y * bitmap.width + x] { wrong += 1 }
                }
                #expect(wrong == 0, "seed \(seed): \(wrong) pixels of the \(level.pixelsPerDegree) px/deg level read wrong")
            }
        }
    }

    @Test func aDamagedFileIsRefusedOrEveryLookupStaysInBounds() async throws {
        await propertyCheck(count: PropertyCount.scaled(default: 200), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var random = Random(seed: UInt64(seed))
            let made = random.pick(Self.samples)
            var bytes = made.bytes
            let damage = Damage.apply(to: &bytes, layout: made.layout, &random)
            try? "synthetic seed \(seed): \(damage)\n".write(to: Self.caseFile, atomically: true, encoding: .utf8)
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-landmask-\(UUID().uuidString).bin")
            defer { try? FileManager.default.removeItem(at: url) }
            guard (try? Data(bytes).write(to: url)) != nil else { Issue.record("could not write \(url.path)"); return }
            let mask: LandMask
            do {
                mask = try LandMask(contentsOf: url)
            } catch let error as MapDataError {
                guard case .corrupt = error else { Issue.record("seed \(seed), \(damage): \(error)"); return }
                return
            } catch {
                Issue.record("seed \(seed), \(damage): \(error)")
                return
            }
            #expect(TableCheck.problem(bytes) == nil, "opened, yet \(TableCheck.problem(bytes) ?? ""): seed \(seed), \(damage)")
            // Which words a lookup reads depends only on its tile and block: one pixel of each block
            // (a different one in each), and the pixels just off the map.
            for level in mask.levels + mask.lakeLevels {
                for y in stride(from: 0, to: level.height, by: 8) {
                    for x in stride(from: 0, to: level.width, by: 8) { _ = level.isLand(x: x + (y / 8) % 8, y: y + (x / 8) % 8) }
                }
                for x in [-1, 0, level.width - 1, level.width] {
                    for y in [-1, 0, level.height - 1, level.height] { _ = level.isLand(x: x, y: y) }
                }
            }
            _ = mask.isLand(latitude: 90, longitude: 180)
            _ = mask.isLand(latitude: -90, longitude: -180)
        }
    }

    @Test func theBundledFileDamagedInItsTablesIsRefusedOrEveryLookupStaysInBounds() async throws {
        let whole = try Data(contentsOf: try #require(NimbusResources.url(forResource: LandMask.bundledName, withExtension: "bin")))
        let bytes = [UInt8](whole)
        let records = (0..<Int(TableCheck.u16(bytes, 6))).map { TableCheck.Record(bytes, 8 + 48 * $0) }
        await propertyCheck(count: PropertyCount.scaled(default: 12), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var random = Random(seed: UInt64(seed))
            let r = random.pick(Array(records.indices))
            let record = records[r]
            var damaged = bytes
            // One entry of the level's groups or tiles, rewritten; the tiles it covers are looked up.
            let (description, tilesHit) = Damage.tableEntry(of: record, in: &damaged, &random)
            try? "bundled seed \(seed): level \(r), \(description)\n".write(to: Self.caseFile, atomically: true, encoding: .utf8)
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-landmask-\(UUID().uuidString).bin")
            defer { try? FileManager.default.removeItem(at: url) }
            guard (try? Data(damaged).write(to: url)) != nil else { Issue.record("could not write \(url.path)"); return }
            let mask: LandMask
            do {
                mask = try LandMask(contentsOf: url)
            } catch {
                guard case MapDataError.corrupt = error else { Issue.record("seed \(seed), \(description): \(error)"); return }
                return
            }
            #expect(TableCheck.problem(damaged, only: [r]) == nil, "opened, yet \(TableCheck.problem(damaged, only: [r]) ?? ""): seed \(seed)")
            let level = (mask.levels + mask.lakeLevels).first {
                $0.pixelsPerDegree == record.ppd && $0.kind.rawValue == record.kind
            }
            guard let level else { Issue.record("seed \(seed): level \(r) is gone"); return }
            for tile in tilesHit {
                let x0 = (tile % record.across) * 64, y0 = (tile / record.across) * 64
                for y in y0..<(y0 + 64) {
                    for x in x0..<(x0 + 64) { _ = level.isLand(x: x, y: y) }
                }
            }
        }
    }
}

/// SplitMix64.
private struct Random: RandomNumberGenerator, Sendable {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }
}

/// A small "NMBL" version 2 file (land at 1 px/deg, one group of tiles; large lakes at 2, two groups),
/// from random bitmaps with
/// all-land, all-water and mixed tiles and blocks; encoded here, not by the app.
private struct SyntheticLandMask: Sendable {
    struct Bitmap {
        let ppd: Int, kind: Int, width: Int, height: Int
        var bits: [Bool]
    }

    /// Where a level's tables are: (record offset, groups, tiles, blocks) with their counts.
    struct Layout {
        var records: [Int] = []
        var tables: [(offset: Int, count: Int, stride: Int)] = []
    }

    private(set) var bitmaps: [Bitmap] = []
    private(set) var bytes: [UInt8] = []
    private(set) var layout = Layout()

    init(_ random: inout Random) {
        for (ppd, kind) in [(1, 0), (2, 1)] {
            let width = 360 * ppd, height = 180 * ppd
            var bits = [Bool](repeating: false, count: width * height)
            for ty in 0..<((height + 63) / 64) {
                for tx in 0..<((width + 63) / 64) {
                    let tileKind = Int.random(in: 0..<3, using: &random)  // water, land, mixed
                    for by in 0..<8 {
                        for bx in 0..<8 {
                            let blockKind = tileKind < 2 ? tileKind : Int.random(in: 0..<3, using: &random)
                            for py in 0..<8 {
                                for px in 0..<8 {
                                    let x = tx * 64 + bx * 8 + px, y = ty * 64 + by * 8 + py
                                    guard x < width, y < height else { continue }
                                    bits[y * width + x] = blockKind == 2 ? random.chance(50) : blockKind == 1
                                }
                            }
                        }
                    }
                }
            }
            bitmaps.append(Bitmap(ppd: ppd, kind: kind, width: width, height: height, bits: bits))
        }
        encode()
    }

    private mutating func encode() {
        var header = Array("NMBL".utf8) + Self.le(2, 2) + Self.le(UInt64(bitmaps.count), 2)
        var body: [UInt8] = []
        let start = 8 + 48 * bitmaps.count
        func place(_ blob: [UInt8]) -> Int {
            while (start + body.count) % 8 != 0 { body.append(0) }
            let at = start + body.count
            body += blob
            return at
        }
        for bitmap in bitmaps {
            let across = (bitmap.width + 63) / 64, down = (bitmap.height + 63) / 64
            let tileCount = across * down, groupCount = (tileCount + 63) / 64
            var groupMixed = [UInt64](repeating: 0, count: groupCount), groupLand = groupMixed
            var tiles: [UInt8] = [], blocks: [UInt8] = []
            var mixedTiles = 0, blockCount = 0
            var before = [Int](repeating: 0, count: groupCount)
            for t in 0..<tileCount {
                if t % 64 == 0 { before[t / 64] = mixedTiles }
                var blockMixed: UInt64 = 0, blockLand: UInt64 = 0, words: [UInt64] = []
                for b in 0..<64 {
                    var word: UInt64 = 0
                    for p in 0..<64 {
                        let x = (t % across) * 64 + (b % 8) * 8 + p % 8, y = (t / across) * 64 + (b / 8) * 8 + p / 8
                        if x < bitmap.width, y < bitmap.height, bitmap.bits[y * bitmap.width + x] { word |= 1 << UInt64(p) }
                    }
                    if word == .max { blockLand |= 1 << UInt64(b) } else if word != 0 { blockMixed |= 1 << UInt64(b); words.append(word) }
                }
                if blockMixed == 0, blockLand == .max {
                    groupLand[t / 64] |= 1 << UInt64(t % 64)
                } else if blockMixed != 0 || blockLand != 0 {
                    groupMixed[t / 64] |= 1 << UInt64(t % 64)
                    tiles += Self.le(blockMixed, 8) + Self.le(blockLand, 8) + Self.le(UInt64(blockCount), 4) + Self.le(0, 4)
                    for word in words { blocks += Self.le(word, 8) }
                    blockCount += words.count
                    mixedTiles += 1
                }
            }
            var groups: [UInt8] = []
            for g in 0..<groupCount { groups += Self.le(groupMixed[g], 8) + Self.le(groupLand[g], 8) + Self.le(UInt64(before[g]), 4) + Self.le(0, 4) }
            let groupOffset = place(groups), tileOffset = place(tiles), blockOffset = place(blocks)
            layout.records.append(header.count)
            layout.tables += [(groupOffset, groupCount, 24), (tileOffset, mixedTiles, 24), (blockOffset, blockCount, 8)]
            for field in [bitmap.ppd, bitmap.width, bitmap.height, across, down, groupCount, groupOffset, mixedTiles,
                          tileOffset, blockOffset, blockCount, bitmap.kind] {
                header += Self.le(UInt64(field), 4)
            }
        }
        bytes = header + body
    }

    static func le(_ value: UInt64, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) } }

    func open(name: String) -> LandMask? {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-landmask-\(name)-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        guard (try? Data(bytes).write(to: url)) != nil else { return nil }
        return try? LandMask(contentsOf: url)
    }
}

/// Random damage to a file's bytes, and what it was.
private enum Damage {
    static func apply(to bytes: inout [UInt8], layout: SyntheticLandMask.Layout, _ random: inout Random) -> String {
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            let n = Int.random(in: 1...8, using: &random)
            var at: [Int] = []
            for _ in 0..<n {
                let i = Int.random(in: 0..<bytes.count, using: &random)
                bytes[i] = UInt8.random(in: 0...255, using: &random)
                at.append(i)
            }
            return "bytes \(at) changed"
        case 1:
            let record = random.pick(layout.records), field = Int.random(in: 0..<12, using: &random)
            let value: UInt64 = random.pick([0, 1, 2, 63, 64, 65, 0x7FFF_FFFF, 0xFFFF_FFFF, UInt64.random(in: 0...0xFFFF_FFFF, using: &random),
                                            UInt64(bytes.count), UInt64(bytes.count - 8)])
            write(value, 4, at: record + 4 * field, in: &bytes)
            return "field \(field) of the record at \(record) set to \(value)"
        case 2, 3:
            let table = random.pick(layout.tables)
            guard table.count > 0 else { return "nothing (an empty table)" }
            let entry = table.offset + table.stride * Int.random(in: 0..<table.count, using: &random)
            let word = table.stride == 8 ? 0 : 8 * Int.random(in: 0..<3, using: &random)
            let value = random.chance(50) ? UInt64.random(in: 0...UInt64.max, using: &random) : (readWord(bytes, entry + word) ^ (1 << UInt64.random(in: 0..<64, using: &random)))
            write(value, word == 16 ? 4 : 8, at: entry + word, in: &bytes)
            return "word \(word / 8) of the entry at \(entry) set to \(value)"
        case 4:
            // Two bits of one mixed-bits word swapped on and off: the counts still add up.
            let tables = layout.tables.filter { $0.stride == 24 && $0.count > 0 }
            let table = random.pick(tables)
            let k = Int.random(in: 0..<table.count, using: &random)
            guard let (word, swapped) = swapTwoBits(bytes, at: table.offset + 24 * k, &random) else { return "nothing (a word all 0 or all 1)" }
            write(word, 8, at: table.offset + 24 * k, in: &bytes)
            return "mixed bits \(swapped) of the entry at \(table.offset + 24 * k) swapped"
        default:
            let keep = Int.random(in: 0..<bytes.count, using: &random)
            bytes.removeSubrange(keep...)
            return "cut to \(keep) bytes"
        }
    }

    /// One entry of `record`'s groups or tiles rewritten in the bundled file; the tiles it covers.
    static func tableEntry(of record: TableCheck.Record, in bytes: inout [UInt8], _ random: inout Random) -> (String, [Int]) {
        let useTiles = record.mixed > 0 && random.chance(60)
        let (offset, count) = useTiles ? (record.tileOffset, record.mixed) : (record.groupOffset, record.groupCount)
        let k = Int.random(in: 0..<count, using: &random)
        var word = 8 * Int.random(in: 0..<3, using: &random)
        var value = random.chance(30) ? UInt64.random(in: 0...UInt64.max, using: &random)
            : readWord(bytes, offset + 24 * k + word) ^ (1 << UInt64.random(in: 0..<(word == 16 ? 32 : 64), using: &random))
        // Half the time, two mixed bits swapped (the counts still add up, so the file opens).
        if random.chance(50), let (swapped, _) = swapTwoBits(bytes, at: offset + 24 * k, &random) { (word, value) = (0, swapped) }
        var tiles: [Int]
        if useTiles {
            // Tile k is the k-th mixed tile: found from the (undamaged) group bits.
            var seen = 0
            tiles = []
            for g in 0..<record.groupCount {
                let mixed = readWord(bytes, record.groupOffset + 24 * g)
                if seen + mixed.nonzeroBitCount > k {
                    let bits = (0..<64).filter { mixed >> UInt64($0) & 1 == 1 }
                    tiles = [64 * g + bits[k - seen]]
                    break
                }
                seen += mixed.nonzeroBitCount
            }
        } else {
            tiles = Array((64 * k)..<min(64 * k + 64, record.across * record.down))
        }
        write(value, word == 16 ? 4 : 8, at: offset + 24 * k + word, in: &bytes)
        return ("word \(word / 8) of \(useTiles ? "tile" : "group") \(k) set to \(value)", tiles)
    }

    /// The word at `at` with one set and one clear bit swapped; nil when it has no bit of either kind.
    static func swapTwoBits(_ bytes: [UInt8], at: Int, _ random: inout Random) -> (UInt64, [Int])? {
        let word = readWord(bytes, at)
        let on = (0..<64).filter { word >> UInt64($0) & 1 == 1 }, off = (0..<64).filter { word >> UInt64($0) & 1 == 0 }
        guard let a = on.randomElement(using: &random), let b = off.randomElement(using: &random) else { return nil }
        return (word ^ (1 << UInt64(a)) ^ (1 << UInt64(b)), [a, b])
    }

    static func readWord(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | (at + $1 < bytes.count ? UInt64(bytes[at + $1]) << UInt64(8 * $1) : 0) }
    }

    static func write(_ value: UInt64, _ count: Int, at: Int, in bytes: inout [UInt8]) {
        for i in 0..<count where at + i < bytes.count { bytes[at + i] = UInt8(truncatingIfNeeded: value >> UInt64(8 * i)) }
    }
}

/// The format's rules read again from the bytes: what a file that opens must satisfy.
private enum TableCheck {
    struct Record {
        let ppd, width, height, across, down, groupCount, groupOffset, mixed, tileOffset, blockOffset, blockCount, kind: Int
        init(_ bytes: [UInt8], _ at: Int) {
            let f = (0..<12).map { TableCheck.u32(bytes, at + 4 * $0) }
            (ppd, width, height, across, down, groupCount) = (f[0], f[1], f[2], f[3], f[4], f[5])
            (groupOffset, mixed, tileOffset, blockOffset, blockCount, kind) = (f[6], f[7], f[8], f[9], f[10], f[11])
        }
    }

    static func u16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    static func u32(_ bytes: [UInt8], _ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }

    /// What breaks the format's rules (in the levels `only` names, else in all), nil when nothing does.
    static func problem(_ bytes: [UInt8], only: Set<Int>? = nil) -> String? {
        guard bytes.count >= 8, Array(bytes[0..<4]) == Array("NMBL".utf8), u16(bytes, 4) == 2 else { return "the header" }
        let count = u16(bytes, 6)
        guard count > 0, 8 + 48 * count <= bytes.count else { return "the level count" }
        var used = [(0, 8 + 48 * count)]
        for i in 0..<count {
            let r = Record(bytes, 8 + 48 * i)
            used += [(r.groupOffset, 24 * r.groupCount), (r.tileOffset, 24 * r.mixed), (r.blockOffset, 8 * r.blockCount)].filter { $0.1 > 0 }
        }
        let ordered = used.sorted { $0.0 < $1.0 }
        for (a, b) in zip(ordered, ordered.dropFirst()) where a.0 + a.1 > b.0 { return "tables at \(a.0) and \(b.0) overlap" }
        for i in 0..<count where only?.contains(i) ?? true {
            let r = Record(bytes, 8 + 48 * i)
            guard r.ppd > 0, r.width == 360 * r.ppd, r.height == 180 * r.ppd, r.across * 64 >= r.width, (r.across - 1) * 64 < r.width,
                  r.down * 64 >= r.height, (r.down - 1) * 64 < r.height, r.groupCount * 64 >= r.across * r.down,
                  (r.groupCount - 1) * 64 < r.across * r.down, r.kind == 0 || r.kind == 1 else { return "level \(i)'s sizes" }
            for (offset, length) in [(r.groupOffset, 24 * r.groupCount), (r.tileOffset, 24 * r.mixed), (r.blockOffset, 8 * r.blockCount)]
            where offset + length > bytes.count || offset % 8 != 0 {
                return "level \(i): a table past the end or not aligned"
            }
            var tiles = 0
            for g in 0..<r.groupCount {
                guard u32(bytes, r.groupOffset + 24 * g + 16) == tiles else { return "level \(i): group \(g)'s count" }
                tiles += Damage.readWord(bytes, r.groupOffset + 24 * g).nonzeroBitCount
            }
            guard tiles == r.mixed else { return "level \(i): the mixed tile count" }
            var blocks = 0
            for k in 0..<r.mixed {
                guard u32(bytes, r.tileOffset + 24 * k + 16) == blocks else { return "level \(i): tile \(k)'s first block" }
                blocks += Damage.readWord(bytes, r.tileOffset + 24 * k).nonzeroBitCount
            }
            guard blocks == r.blockCount else { return "level \(i): the block count" }
        }
        return nil
    }
}

import NimbusResources
