import Foundation
import Glibc
import NimbusResources
import Synchronization

/// The read-only data files the app maps into memory (the city catalogue, land masks), with their
/// address ranges, so that when one is truncated while mapped the SIGBUS handler can name it
/// (`path(containing:)` is async-signal-safe). Small files are read into memory instead, where a
/// truncation cannot reach them.
public enum MappedFiles {
    /// Files smaller than this are read, not mapped: reading 4 MB from the page cache costs about a
    /// millisecond, and such a file can then change on disk without harm.
    public static let mapThreshold = 4 << 20
    /// Slots in the table; a mapping beyond them is still made, only not named on SIGBUS.
    public static let capacity = 32

    /// Keeps a mapped file in the table while it lives.
    public final class Registration: Sendable {
        let slot: Int
        init(slot: Int) { self.slot = slot }
        deinit { MappedFiles.unregister(slot) }
    }

    /// The bytes of `url`: read when smaller than `mapThreshold`, else mapped and registered.
    /// Anything but a plain file of at most `maxBytes` (a fifo, `/dev/zero`, a directory, a sparse
    /// file of gigabytes) is refused rather than waited on or read without end: the file is opened
    /// once and that descriptor checked (`DataFile.open`), then read or mapped.
    public static func load(_ url: URL, maxBytes: Int = DataFile.maxBytes("cities15000.bin"),
                            mapThreshold: Int = mapThreshold) throws -> (data: Data, registration: Registration?) {
        let (fd, size) = try DataFile.open(url, maxBytes: maxBytes)
        defer { close(fd) }
        if size < mapThreshold {
            return (try DataFile.read(fd, size: size, maxBytes: maxBytes, url: url), nil)
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw DataFile.Unreadable(description: "\(url.path) could not be mapped: \(String(cString: strerror(errno)))")
        }
        let data = Data(bytesNoCopy: address, count: size, deallocator: .custom { pointer, count in munmap(pointer, count) })
        let registration = data.withUnsafeBytes { bytes in
            StartupPaging.mapped(bytes)
            return register(bytes, path: url.path)
        }
        return (data, registration)
    }

    /// Enters `bytes` in the table; nil when the table is full or the range empty.
    static func register(_ bytes: UnsafeRawBufferPointer, path: String) -> Registration? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        return lock.withLock { _ -> Registration? in
            let table = tableStorage()
            guard let slot = (0..<capacity).first(where: { table[$0].start == 0 }) else { return nil }
            let previous = table[slot].path
            table[slot].path = strdup(path)
            free(previous)
            table[slot].end = UInt(bitPattern: base) + UInt(bytes.count)
            table[slot].start = UInt(bitPattern: base) // last: the handler skips slots whose start is 0
            return Registration(slot: slot)
        }
    }

    private static func unregister(_ slot: Int) {
        lock.withLock { _ in
            guard let table = mappedFileTable else { return }
            table[slot].start = 0
            table[slot].end = 0
            // The path is freed only when the slot is reused: a handler running right now may be reading it.
        }
    }

    /// The path of the mapped file containing `address`, or nil. Async-signal-safe: reads a table
    /// allocated once, with no locks, allocation or reference counting.
    public static func path(containing address: UnsafeRawPointer?) -> UnsafePointer<CChar>? {
        guard let address, let table = mappedFileTable else { return nil }
        let a = UInt(bitPattern: address)
        for slot in 0..<capacity {
            let start = table[slot].start
            if start != 0, a >= start, a < table[slot].end, let path = table[slot].path {
                return UnsafePointer(path)
            }
        }
        return nil
    }

    /// Calls `body` with each mapped file in the table, under the table's lock.
    static func forEachMapping(_ body: (UnsafeRawBufferPointer) -> Void) {
        lock.withLock { _ in
            guard let table = mappedFileTable else { return }
            for slot in 0..<capacity where table[slot].start != 0 {
                body(UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: table[slot].start),
                                            count: Int(table[slot].end - table[slot].start)))
            }
        }
    }

    private static let lock = Mutex<Void>(())

    private static func tableStorage() -> UnsafeMutablePointer<MappedFileEntry> {
        if let table = mappedFileTable { return table }
        let table = UnsafeMutablePointer<MappedFileEntry>.allocate(capacity: capacity)
        table.initialize(repeating: MappedFileEntry(), count: capacity)
        mappedFileTable = table
        return table
    }
}

struct MappedFileEntry {
    var start: UInt = 0
    var end: UInt = 0
    var path: UnsafeMutablePointer<CChar>?
}

// A plain global with a trivial initial value, so the signal handler never runs lazy initialisation;
// written only under `MappedFiles.lock`, allocated once and never freed.
nonisolated(unsafe) private var mappedFileTable: UnsafeMutablePointer<MappedFileEntry>?
