import Foundation

/// Validated header of an "NMBC" catalogue: absolute section offsets, sizes and counts.
///
/// Version 3 is what `scripts/build-resources.py` writes; version 2 (a large tier built before
/// regions: 36-byte records, a 72-byte header) is still read, with no regions.
struct CatalogLayout {
    static let magic: [UInt8] = Array("NMBC".utf8)
    static let version: UInt16 = 3
    /// The oldest version read.
    static let oldestVersion: UInt16 = 2
    /// The smallest header of a version read (version 2's: 72 bytes; version 3's is 88).
    static let headerSize = 72
    /// The region index of a city in none.
    static let noRegion = 0xFFFF

    let version: Int
    /// Bytes per city record: 40 from version 3 on (region and namesakes), 36 before.
    let recordSize: Int

    let cityCount: Int
    let timeZoneCount: Int
    let tokenCount: Int
    let postingCount: Int
    let cities: Int
    let timeZoneOffsets: Int
    let tokenOffsets: Int
    let postingStarts: Int
    let postings: Int
    let names: Int
    let namesSize: Int
    let timeZoneBlob: Int
    let timeZoneBlobSize: Int
    let tokenBlob: Int
    let tokenBlobSize: Int
    /// Regions (version 3): their count, the offsets table and the blob it indexes; 0 before.
    let regionCount: Int
    let regionOffsets: Int
    let regionBlob: Int
    let regionBlobSize: Int

    /// Reads and checks the header at `base` (`size` bytes, at least `headerSize`).
    init(base: UnsafeRawPointer, size: Int) throws {
        func u16(_ offset: Int) -> Int {
            Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
        }
        func u32(_ offset: Int) -> Int {
            Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        func corrupt(_ reason: String) -> CityCatalogError { .corrupt(reason) }

        guard size >= Self.headerSize else { throw corrupt("shorter than the header") }
        guard (0..<4).allSatisfy({ base.load(fromByteOffset: $0, as: UInt8.self) == Self.magic[$0] }) else {
            throw corrupt("not a city catalogue (bad magic)")
        }
        version = u16(4)
        guard (Int(Self.oldestVersion)...Int(Self.version)).contains(version) else {
            throw corrupt("version \(version) where this Nimbus reads versions \(Self.oldestVersion)–\(Self.version)")
        }
        let headerSize = version >= 3 ? 88 : 72
        recordSize = version >= 3 ? 40 : 36
        guard u16(6) == headerSize, size >= headerSize else { throw corrupt("unexpected header size \(u16(6))") }
        guard u32(68) == size else { throw corrupt("file is \(size) bytes, header says \(u32(68)) (truncated?)") }

        cityCount = u32(8)
        timeZoneCount = u32(12)
        tokenCount = u32(16)
        postingCount = u32(20)
        cities = u32(24)
        timeZoneOffsets = u32(28)
        tokenOffsets = u32(32)
        postingStarts = u32(36)
        postings = u32(40)
        names = u32(44)
        namesSize = u32(48)
        timeZoneBlob = u32(52)
        timeZoneBlobSize = u32(56)
        tokenBlob = u32(60)
        tokenBlobSize = u32(64)
        if version >= 3 {
            regionCount = u32(72)
            regionOffsets = u32(76)
            regionBlob = u32(80)
            regionBlobSize = u32(84)
        } else {
            (regionCount, regionOffsets, regionBlob, regionBlobSize) = (0, headerSize, headerSize, 0)
        }

        guard cityCount <= Int(Int32.max) else { throw corrupt("city count \(cityCount) too large") }
        // Counts and offsets are u32, so these products and sums cannot overflow a 64-bit Int.
        guard regionCount < Self.noRegion else { throw corrupt("region count \(regionCount) too large") }
        let sections: [(String, Int, Int)] = [
            ("cities", cities, cityCount * recordSize),
            ("time-zone offsets", timeZoneOffsets, (timeZoneCount + 1) * 4),
            ("token offsets", tokenOffsets, (tokenCount + 1) * 4),
            ("posting starts", postingStarts, (tokenCount + 1) * 4),
            ("postings", postings, postingCount * 4),
            ("names", names, namesSize),
            ("time zones", timeZoneBlob, timeZoneBlobSize),
            ("tokens", tokenBlob, tokenBlobSize),
            ("region offsets", regionOffsets, version >= 3 ? (regionCount + 1) * 4 : 0),
            ("regions", regionBlob, regionBlobSize),
        ]
        for (name, offset, length) in sections where offset < headerSize || offset + length > size {
            throw corrupt("\(name) section \(offset)+\(length) outside the file of \(size) bytes")
        }
        // Each offset table must start at 0 and end at the size of what it indexes.
        let tables: [(String, Int, Int, Int)] = [
            ("time-zone offsets", timeZoneOffsets, timeZoneCount, timeZoneBlobSize),
            ("token offsets", tokenOffsets, tokenCount, tokenBlobSize),
            ("posting starts", postingStarts, tokenCount, postingCount),
        ] + (version >= 3 ? [("region offsets", regionOffsets, regionCount, regionBlobSize)] : [])
        for (name, offset, count, total) in tables where u32(offset) != 0 || u32(offset + count * 4) != total {
            throw corrupt("\(name) table does not span its section")
        }
    }

    /// An absolute byte range of a slice inside a section, emptied when it falls outside.
    func clamped(start: Int, length: Int, in section: Int, size: Int) -> Range<Int> {
        guard start >= 0, length >= 0, start <= size, length <= size - start else { return section..<section }
        return (section + start)..<(section + start + length)
    }
}
