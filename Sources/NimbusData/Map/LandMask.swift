import Foundation
import NimbusResources

/// Why map data could not be opened.
public enum MapDataError: Error, Equatable, Sendable {
    case missing(String)
    case unreadable(String)
    case corrupt(String)

    public var message: String {
        switch self {
        case .missing(let path): return "map data not found: \(path) (build it with scripts/build-resources.py --map)"
        case .unreadable(let path): return "map data could not be read: \(path)"
        case .corrupt(let reason): return "map data is damaged: \(reason) (rebuild it with scripts/build-resources.py --map)"
        }
    }
}

/// One level of the land pyramid: `pixelsPerDegree` pixels per degree in 64×64 tiles of 8×8 blocks,
/// tiles and blocks that are all land or all water stored as one bit (see `scripts/landmask.py`).
struct LandLevel {
    /// What a set pixel means: land, or water of a lake of at least 1,000 km².
    enum Kind: Int { case land = 0, largeLakes = 1 }

    let kind: Kind
    let pixelsPerDegree: Int
    let width: Int
    let height: Int
    let tilesAcross: Int
    /// Per 64 tiles: mixed bits, land bits, mixed tiles before (3 × u64, the last's low half).
    let groups: UnsafeRawPointer
    /// Per mixed tile: mixed-block bits, land-block bits, first block (3 × u64, the last's low half).
    let tiles: UnsafeRawPointer
    /// The mixed 8×8 blocks, one u64 each.
    let blocks: UnsafeRawPointer
    /// How many u64 words each table holds.
    let groupWords: Int, tileWords: Int, blockWords: Int

    /// Word `index` of a table of `count` words: a debug build checks the index, so a test can see
    /// that no lookup reads past a table whatever the file holds.
    @inline(__always)
    private func word(_ base: UnsafeRawPointer, _ index: Int, of count: Int) -> UInt64 {
        assert(index >= 0 && index < count, "a land lookup read past its table")
        return UInt64(littleEndian: base.load(fromByteOffset: index << 3, as: UInt64.self))
    }

    /// Whether pixel (x, y) is land; `x` wraps around the globe, rows outside the map are water.
    /// Every index read is in bounds: `LandMask.parse` checks the counts of the whole level.
    @inline(__always)
    func isLand(x: Int, y: Int) -> Bool {
        guard y >= 0, y < height else { return false }
        var x = x % width
        if x < 0 { x += width }
        let tile = (y >> 6) * tilesAcross + (x >> 6)
        let group = tile >> 6, bit = UInt64(tile & 63)
        let mixedTiles = word(groups, 3 * group, of: groupWords)
        guard (mixedTiles >> bit) & 1 == 1 else { return (word(groups, 3 * group + 1, of: groupWords) >> bit) & 1 == 1 }
        let k = Int(UInt32(truncatingIfNeeded: word(groups, 3 * group + 2, of: groupWords)))
            + (mixedTiles & ((1 << bit) &- 1)).nonzeroBitCount
        let mixedBlocks = word(tiles, 3 * k, of: tileWords)
        let block = UInt64(((y & 63) >> 3) << 3 | ((x & 63) >> 3))
        guard (mixedBlocks >> block) & 1 == 1 else { return (word(tiles, 3 * k + 1, of: tileWords) >> block) & 1 == 1 }
        let b = Int(UInt32(truncatingIfNeeded: word(tiles, 3 * k + 2, of: tileWords)))
            + (mixedBlocks & ((1 << block) &- 1)).nonzeroBitCount
        return (word(blocks, b, of: blockWords) >> UInt64((y & 7) << 3 | (x & 7))) & 1 == 1
    }
}

/// Land and water at several resolutions ("NMBL" format, see `scripts/landmask.py`): GSHHG's
/// shorelines, so lakes, inland seas and bays are water and islands in lakes land, from 1 to 120
/// pixels per degree (about 0.9 km, enough for a city's own coast). Memory-mapped (read into memory
/// when small: `MappedFiles`).
public final class LandMask: @unchecked Sendable { // unchecked: its levels point into `file`, immutable after init
    public static let bundledName = "landmask"

    // Immutable after init; the level pointers point into `file`, which lives as long as `self`.
    private let file: Data
    /// Names the mapped file if it is truncated (SIGBUS); a small file is read into memory instead.
    private let mapping: MappedFiles.Registration?
    /// The land levels, coarsest first.
    let levels: [LandLevel]
    /// Where lakes of at least 1,000 km² lie (any of their water in a pixel), coarsest first: at
    /// country zoom such a lake is drawn however narrow it is.
    let lakeLevels: [LandLevel]

    /// Opens the file at `url`; its levels, coarsest first.
    public init(contentsOf url: URL) throws {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { throw MapDataError.missing(path) }
        let data: Data
        do {
            let loaded = try MappedFiles.load(url, maxBytes: DataFile.maxBytes("landmask.bin"))
            data = loaded.data
            mapping = loaded.registration
        } catch {
            throw MapDataError.unreadable(path)
        }
        guard data.count >= 8 else { throw MapDataError.corrupt("\(url.lastPathComponent) is too short") }
        let all = try Self.parse(data, name: url.lastPathComponent).sorted { $0.pixelsPerDegree < $1.pixelsPerDegree }
        levels = all.filter { $0.kind == .land }
        lakeLevels = all.filter { $0.kind == .largeLakes }
        guard !levels.isEmpty else { throw MapDataError.corrupt("no land levels") }
        file = data
    }

    /// The bundled land data.
    public static func bundled() throws -> LandMask {
        guard let url = NimbusResources.url(forResource: bundledName, withExtension: "bin") else {
            throw MapDataError.missing("\(bundledName).bin (bundle resource)")
        }
        return try LandMask(contentsOf: url)
    }

    /// Pixels per degree of every level, coarsest first.
    public var resolutions: [Int] { levels.map(\.pixelsPerDegree) }

    /// The coarsest level with at least `pixelsPerDegree`, else the finest there is.
    func level(atLeast pixelsPerDegree: Double) -> LandLevel {
        levels.first { Double($0.pixelsPerDegree) >= pixelsPerDegree } ?? levels[levels.count - 1]
    }

    /// The large-lake level for dots of `dotsPerDegree` drawn from the land level `land`: one with at
    /// least two pixels a dot (the coarsest, else the finest), when `land` is one of the lake levels'
    /// resolutions (country zoom); nil at other zooms (coarser, a lake that size is a dot or two;
    /// finer, the land level draws it).
    func lakeLevel(forDotsPerDegree dotsPerDegree: Double, land: LandLevel) -> LandLevel? {
        guard lakeLevels.contains(where: { $0.pixelsPerDegree == land.pixelsPerDegree }) else { return nil }
        return lakeLevels.first { Double($0.pixelsPerDegree) >= 2 * dotsPerDegree } ?? lakeLevels.last
    }

    /// Whether the point is land, at the finest level.
    public func isLand(latitude: Double, longitude: Double) -> Bool {
        let level = levels[levels.count - 1]
        let p = Double(level.pixelsPerDegree)
        return level.isLand(x: Int(((longitude + 180) * p).rounded(.down)), y: Int(((90 - latitude) * p).rounded(.down)))
    }

    /// The levels of a version 2 file, every offset and count checked so that no lookup can read
    /// outside the file.
    private static func parse(_ data: Data, name: String) throws -> [LandLevel] {
        let base = data.withUnsafeBytes { UnsafeRawPointer($0.baseAddress!) }
        let size = data.count
        func u16(_ o: Int) -> Int { Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: o, as: UInt16.self))) }
        func u32(_ o: Int) -> Int { Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: o, as: UInt32.self))) }
        func u64(_ o: Int) -> UInt64 { UInt64(littleEndian: base.loadUnaligned(fromByteOffset: o, as: UInt64.self)) }
        func corrupt(_ why: String) -> MapDataError { .corrupt("\(name): \(why)") }
        guard Array(UnsafeRawBufferPointer(start: base, count: 4)) == Array("NMBL".utf8) else { throw corrupt("bad magic") }
        guard u16(4) == 2 else { throw corrupt("unsupported version \(u16(4))") }
        let count = u16(6)
        guard count > 0, 8 + 48 * count <= size else { throw corrupt("bad level table") }
        var levels: [LandLevel] = []
        // Where the header and every table lie: no two may overlap (an offset moved along by whole
        // words would otherwise make a level read another's words as its own).
        var spans: [Range<Int>] = [0..<(8 + 48 * count)]
        for i in 0..<count {
            let r = 8 + 48 * i
            let ppd = u32(r), width = u32(r + 4), height = u32(r + 8), across = u32(r + 12), down = u32(r + 16)
            let groupCount = u32(r + 20), groupOffset = u32(r + 24), mixed = u32(r + 28)
            let tileOffset = u32(r + 32), blockOffset = u32(r + 36), blockCount = u32(r + 40)
            guard let kind = LandLevel.Kind(rawValue: u32(r + 44)) else { throw corrupt("level \(i): unknown kind") }
            guard ppd > 0, ppd <= 3600, width == 360 * ppd, height == 180 * ppd,
                  across == (width + 63) / 64, down == (height + 63) / 64,
                  groupCount == (across * down + 63) / 64 else { throw corrupt("bad level \(i)") }
            guard groupOffset % 8 == 0, tileOffset % 8 == 0, blockOffset % 8 == 0,
                  groupOffset + 24 * groupCount <= size, tileOffset + 24 * mixed <= size,
                  blockOffset + 8 * blockCount <= size else { throw corrupt("level \(i) out of bounds") }
            spans += [groupOffset..<(groupOffset + 24 * groupCount), tileOffset..<(tileOffset + 24 * mixed),
                      blockOffset..<(blockOffset + 8 * blockCount)]
            // Each group's count of mixed tiles before it, and each tile's first block, must add up:
            // then every rank a lookup computes is inside the tiles and the blocks.
            var tilesSoFar = 0
            for g in 0..<groupCount {
                let o = groupOffset + 24 * g
                guard u32(o + 16) == tilesSoFar else { throw corrupt("level \(i): bad tile count") }
                tilesSoFar += u64(o).nonzeroBitCount
            }
            guard tilesSoFar == mixed else { throw corrupt("level \(i): bad tile count") }
            var blocksSoFar = 0
            for k in 0..<mixed {
                let o = tileOffset + 24 * k
                guard u32(o + 16) == blocksSoFar else { throw corrupt("level \(i): bad block count") }
                blocksSoFar += u64(o).nonzeroBitCount
            }
            guard blocksSoFar == blockCount else { throw corrupt("level \(i): bad block count") }
            levels.append(LandLevel(kind: kind, pixelsPerDegree: ppd, width: width, height: height, tilesAcross: across,
                                    groups: base + groupOffset, tiles: base + tileOffset, blocks: base + blockOffset,
                                    groupWords: 3 * groupCount, tileWords: 3 * mixed, blockWords: blockCount))
        }
        let ordered = spans.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
        guard zip(ordered, ordered.dropFirst()).allSatisfy({ $0.upperBound <= $1.lowerBound }) else {
            throw corrupt("tables overlap")
        }
        return levels
    }
}

/// Land borders between countries as line segments ("NMBB" format, see `scripts/landmask.py`).
public final class CountryBorders: Sendable {
    /// Segments in degrees: (lon0, lat0, lon1, lat1).
    let segments: [(Float, Float, Float, Float)]

    public init(contentsOf url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else { throw MapDataError.missing(url.path) }
        guard let data = try? DataFile.read(url, maxBytes: DataFile.maxBytes("borders.bin")) else { throw MapDataError.unreadable(url.path) }
        guard data.count >= 12, Array(data.prefix(4)) == Array("NMBB".utf8) else {
            throw MapDataError.corrupt("\(url.lastPathComponent): bad magic")
        }
        let segments: [(Float, Float, Float, Float)] = try data.withUnsafeBytes { raw in
            func u16(_ o: Int) -> Int { Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: UInt16.self))) }
            func i16(_ o: Int) -> Float { Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: Int16.self))) / 100 }
            guard u16(4) == 1 else { throw MapDataError.corrupt("\(url.lastPathComponent): unsupported version") }
            let count = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
            guard 12 + 8 * count == raw.count else { throw MapDataError.corrupt("\(url.lastPathComponent): bad size") }
            return (0..<count).map { k in
                let o = 12 + 8 * k
                return (i16(o), i16(o + 2), i16(o + 4), i16(o + 6))
            }
        }
        self.segments = segments
    }

    public static func bundled() throws -> CountryBorders {
        guard let url = NimbusResources.url(forResource: "borders", withExtension: "bin") else {
            throw MapDataError.missing("borders.bin (bundle resource)")
        }
        return try CountryBorders(contentsOf: url)
    }
}
