import CStartupPaging
import Foundation

/// Until the first frame is on screen, the program and its mapped data files are read from disk a
/// page at a time instead of with the kernel's read-around (up to 8 MB per page touched, on some
/// disks): a cold start touches a few dozen pages of the executable and a few of the catalogue,
/// scattered, and read tens of megabytes for them. `end()`, after the first frame, puts reading
/// ahead back and asks for the rest of the mapped files in the background, so the warm-up and the
/// first keystrokes find them read. (`Sources/CStartupPaging` does the executable's part.)
public enum StartupPaging {
    /// Whether reading a page at a time is still on.
    public static var isActive: Bool { nimbus_startup_paging_active() != 0 }

    /// A file mapped at start-up (`MappedFiles`): read a page at a time while it lasts.
    static func mapped(_ bytes: UnsafeRawBufferPointer) {
        guard isActive else { return }
        advise(bytes, MADV_RANDOM)
    }

    /// Reading ahead as usual from now on; the mapped files are read into memory in the background.
    public static func end() {
        guard isActive else { return }
        nimbus_startup_paging_end()
        MappedFiles.forEachMapping { advise($0, MADV_NORMAL) }
        // Starting the reads costs a little CPU even when the pages are there: not on the main thread.
        DispatchQueue.global(qos: .utility).async {
            MappedFiles.forEachMapping(readAhead)
        }
    }

    /// Asks for all of `bytes` to be read. The kernel reads at most its read-ahead size (128 KB to
    /// 8 MB) per request, so the file is asked for in pieces of 1 MB.
    static func readAhead(_ bytes: UnsafeRawBufferPointer) {
        let piece = 1 << 20
        var offset = 0
        while offset < bytes.count {
            advise(UnsafeRawBufferPointer(rebasing: bytes[offset..<min(bytes.count, offset + piece)]), MADV_WILLNEED)
            offset += piece
        }
    }

    private static func advise(_ bytes: UnsafeRawBufferPointer, _ advice: Int32) {
        guard let base = bytes.baseAddress else { return }
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        let start = UInt(bitPattern: base) & ~(page - 1)
        let end = UInt(bitPattern: base) + UInt(bytes.count)
        _ = madvise(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), advice)
    }
}
