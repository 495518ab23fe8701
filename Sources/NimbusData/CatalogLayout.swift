import Foundation

/// Validated header of an "NMBC" catalogue: absolute section offsets, sizes and counts.
struct CatalogLayout {
    static let magic: [UInt8] = Array("NMBC".utf8)
    static let version: UInt16 = 2
    static let headerSize = 72
    static let recordSize = 36

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
        guard u16(4) == Int(Self.version) else {
            throw corrupt("version \(u16(4)) where this Nimbus reads version \(Self.version)")
        }
        guard u16(6) == Self.headerSize else { throw corrupt("unexpected header size \(u16(6))") }
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

        guard cityCount <= Int(Int32.max) else { throw corrupt("city count \(cityCount) too large") }
        // Counts and offsets are u32, so these products and sums cannot overflow a 64-bit Int.
        let sections: [(String, Int, Int)] = [
            ("cities", cities, cityCount * Self.recordSize),
            ("time-zone offsets", timeZoneOffsets, (timeZoneCount + 1) * 4),
            ("token offsets", tokenOffsets, (tokenCount + 1) * 4),
            ("posting starts", postingStarts, (tokenCount + 1) * 4),
            ("postings", postings, postingCount * 4),
            ("names", names, namesSize),
            ("time zones", timeZoneBlob, timeZoneBlobSize),
            ("tokens", tokenBlob, tokenBlobSize),
        ]
        for (name, offset, length) in sections where offset < Self.headerSize || offset + length > size {
            throw corrupt("\(name) section \(offset)+\(length) outside the file of \(size) bytes")
        }
        // Each offset table must start at 0 and end at the size of what it indexes.
        let tables: [(String, Int, Int, Int)] = [
            ("time-zone offsets", timeZoneOffsets, timeZoneCount, timeZoneBlobSize),
            ("token offsets", tokenOffsets, tokenCount, tokenBlobSize),
            ("posting starts", postingStarts, tokenCount, postingCount),
        ]
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
