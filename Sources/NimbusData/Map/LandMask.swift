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

/// One level of the land pyramid: a tiled bitmap of `pixelsPerDegree` pixels per degree.
struct LandLevel {
    static let tile = 64

    let pixelsPerDegree: Int
    let width: Int
    let height: Int
    let tilesAcross: Int
    let tilesDown: Int
    /// Tile index entries (0 sea, 1 land, n ≥ 2 mixed tile n − 2), all in bounds of the file.
    let index: UnsafePointer<UInt32>
    /// Mixed tiles, 512 bytes each.
    let tiles: UnsafePointer<UInt64>
    let mixedCount: Int

    /// Whether pixel (x, y) is land; `x` wraps around the globe, rows outside the map are sea.
    @inline(__always)
    func isLand(x: Int, y: Int) -> Bool {
        guard y >= 0, y < height else { return false }
        var x = x % width
        if x < 0 { x += width }
        let entry = Int(UInt32(littleEndian: index[(y >> 6) * tilesAcross + (x >> 6)]))
        if entry < 2 { return entry == 1 }
        let tile = entry - 2
        guard tile < mixedCount else { return false }
        let row = UInt64(littleEndian: tiles[tile * 64 + (y & 63)])
        return (row >> UInt64(x & 63)) & 1 == 1
    }
}

/// Land and sea at several resolutions ("NMBL" format, see `scripts/landmask.py`), memory-mapped
/// (read into memory when small: `MappedFiles`).
///
/// The bundled file holds 1–30 pixels per degree; a file of finer levels (60 and 120, the 1 km GLOBE
/// grid) generated into the user's data directory is used on top when present.
public final class LandMask: @unchecked Sendable { // unchecked: its levels point into `files`, immutable after init
    public static let bundledName = "landmask"
    public static let fineFileName = "landmask-1km.bin"

    // Immutable after init; the level pointers point into `files`, which live as long as `self`.
    private let files: [Data]
    /// Names a mapped file if it is truncated (SIGBUS); small files are read into memory instead.
    private let mappings: [MappedFiles.Registration]
    let levels: [LandLevel]

    /// Opens the given files (at least one); levels of all of them, coarsest first.
    public init(contentsOf urls: [URL]) throws {
        var mappings: [MappedFiles.Registration] = []
        var files: [Data] = []
        var levels: [LandLevel] = []
        for url in urls {
            let path = url.path
            guard FileManager.default.fileExists(atPath: path) else { throw MapDataError.missing(path) }
            let data: Data
            do {
                let loaded = try MappedFiles.load(url)
                data = loaded.data
                if let mapping = loaded.registration { mappings.append(mapping) }
            } catch {
                throw MapDataError.unreadable(path)
            }
            guard data.count >= 8 else { throw MapDataError.corrupt("\(url.lastPathComponent) is too short") }
            levels += try Self.parse(data, name: url.lastPathComponent)
            files.append(data)
        }
        guard !levels.isEmpty else { throw MapDataError.corrupt("no levels") }
        self.files = files
        self.mappings = mappings
        self.levels = levels.sorted { $0.pixelsPerDegree < $1.pixelsPerDegree }
    }

    /// The bundled levels, plus the fine levels from `$XDG_DATA_HOME/nimbus/landmask-1km.bin` when
    /// `environment` is given and the file is there and valid.
    public static func bundled(fineLevelsFrom environment: [String: String]? = nil) throws -> LandMask {
        guard let url = NimbusResources.url(forResource: bundledName, withExtension: "bin") else {
            throw MapDataError.missing("\(bundledName).bin (bundle resource)")
        }
        if let environment {
            let fine = NimbusDirectories(environment: environment).data.appendingPathComponent(fineFileName)
            if FileManager.default.fileExists(atPath: fine.path), let mask = try? LandMask(contentsOf: [url, fine]) {
                return mask
            }
        }
        return try LandMask(contentsOf: [url])
    }

    /// Pixels per degree of every level, coarsest first.
    public var resolutions: [Int] { levels.map(\.pixelsPerDegree) }

    /// The coarsest level with at least `pixelsPerDegree`, else the finest there is.
    func level(atLeast pixelsPerDegree: Double) -> LandLevel {
        levels.first { Double($0.pixelsPerDegree) >= pixelsPerDegree } ?? levels[levels.count - 1]
    }

    /// Whether the point is land, at the finest level.
    public func isLand(latitude: Double, longitude: Double) -> Bool {
        let level = levels[levels.count - 1]
        let p = Double(level.pixelsPerDegree)
        return level.isLand(x: Int(((longitude + 180) * p).rounded(.down)), y: Int(((90 - latitude) * p).rounded(.down)))
    }

    private static func parse(_ data: Data, name: String) throws -> [LandLevel] {
        let base = data.withUnsafeBytes { UnsafeRawPointer($0.baseAddress!) }
        let size = data.count
        func u16(_ o: Int) -> Int { Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: o, as: UInt16.self))) }
        func u32(_ o: Int) -> Int { Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: o, as: UInt32.self))) }
        func corrupt(_ why: String) -> MapDataError { .corrupt("\(name): \(why)") }
        guard Array(UnsafeRawBufferPointer(start: base, count: 4)) == Array("NMBL".utf8) else { throw corrupt("bad magic") }
        guard u16(4) == 1 else { throw corrupt("unsupported version \(u16(4))") }
        let count = u16(6)
        guard count > 0, 8 + 32 * count <= size else { throw corrupt("bad level table") }
        var levels: [LandLevel] = []
        for i in 0..<count {
            let r = 8 + 32 * i
            let ppd = u32(r), width = u32(r + 4), height = u32(r + 8), across = u32(r + 12), down = u32(r + 16)
            let indexOffset = u32(r + 20), dataOffset = u32(r + 24), mixed = u32(r + 28)
            guard ppd > 0, ppd <= 3600, width == 360 * ppd, height == 180 * ppd,
                  across == (width + 63) / 64, down == (height + 63) / 64 else { throw corrupt("bad level \(i)") }
            guard indexOffset % 4 == 0, dataOffset % 8 == 0 || mixed == 0,
                  indexOffset + 4 * across * down <= size, dataOffset + 512 * mixed <= size else {
                throw corrupt("level \(i) out of bounds")
            }
            levels.append(LandLevel(
                pixelsPerDegree: ppd, width: width, height: height, tilesAcross: across, tilesDown: down,
                index: (base + indexOffset).assumingMemoryBound(to: UInt32.self),
                tiles: (base + dataOffset).assumingMemoryBound(to: UInt64.self),
                mixedCount: mixed))
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
        guard let data = try? Data(contentsOf: url) else { throw MapDataError.unreadable(url.path) }
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
