import Foundation
import NimbusData

// One libFuzzer binary for every parser of outside bytes; NIMBUS_FUZZ_TARGET names the one a run
// feeds (scripts/fuzz.sh sets it). Each target asserts its parser's own invariants, not only that it
// returns: a broken invariant is reported by `require`, which aborts so that libFuzzer keeps the input.

/// The targets, by the name scripts/fuzz.sh and the corpus folders use.
let targets: [String: @Sendable (Data) -> Void] = [
    "keys": fuzzKeys,
    "width": fuzzWidth,
    "remote-text": fuzzRemoteText,
    "config": fuzzConfig,
    "wishlist": fuzzWishlist,
    "usgs": fuzzUSGS,
    "nws": fuzzNWS,
    "meteoalarm": fuzzMeteoAlarm,
    "xml": fuzzXML,
    "jma": fuzzJMA,
    "open-meteo": fuzzOpenMeteo,
    "tape": fuzzTape,
    "landmask": fuzzLandMask,
    "borders": fuzzBorders,
    "catalogue": fuzzCatalogue,
]

nonisolated(unsafe) var selected: (@Sendable (Data) -> Void)?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    setlocale(LC_ALL, "C.UTF-8")
    let name = ProcessInfo.processInfo.environment["NIMBUS_FUZZ_TARGET"] ?? ""
    guard let target = targets[name] else {
        let names = targets.keys.sorted().joined(separator: " ")
        FileHandle.standardError.write(Data("NIMBUS_FUZZ_TARGET must name a target: \(names)\n".utf8))
        exit(2)
    }
    selected = target
    return 0
}

/// libFuzzer's driver (in the runtime that `-sanitize=fuzzer` links).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The entry point SwiftPM links an executable target with (its `main`): libFuzzer's driver, which
/// calls `LLVMFuzzerInitialize` and then feeds `LLVMFuzzerTestOneInput`.
@_cdecl("NimbusFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { start, size in fuzzerTestOneInput(start, size) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    selected?(data)
    return 0
}

/// Stops the run with `message` when `condition` does not hold (libFuzzer then writes the input out).
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        FileHandle.standardError.write(Data("invariant broken: \(message())\n".utf8))
        abort()
    }
}

/// What `open` opens from a hostile file, or nil when it refuses the file as damaged (a land mask,
/// border or city catalogue file's `.corrupt`): any other refusal of bytes that are there and
/// readable, another error or another case, is a finding.
func openedOrCorrupt<T>(_ open: () throws -> T) -> T? {
    do {
        return try open()
    } catch MapDataError.corrupt {
        return nil
    } catch CityCatalogError.corrupt {
        return nil
    } catch {
        require(false, "refused with \(error), not as corrupt")
        return nil
    }
}

/// A file of this process's own in the temporary folder (several fuzzers may run at once).
func scratchFile(_ name: String) -> URL {
    URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("nimbus-fuzz-\(getpid())-\(name)")
}

/// The input split into a few bytes of parameters and the rest.
struct Input {
    var bytes: [UInt8]
    init(_ data: Data) { bytes = Array(data) }
    mutating func byte() -> UInt8 { bytes.isEmpty ? 0 : bytes.removeFirst() }
    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// No Double in a decoded value is infinite (NaN is the domain's "not known", as a poisoned current
/// temperature), every string is within `maxScalars` and every list within `maxItems`: what a decoder
/// hands the app never holds an infinity or an unbounded text, whatever it read.
func requireBounded(_ value: Any, maxScalars: Int = 20_000, maxItems: Int = 10_000, path: String = "") {
    switch value {
    case let d as Double:
        require(!d.isInfinite, "\(path) is \(d)")
    case let s as String:
        require(s.unicodeScalars.count <= maxScalars, "\(path) has \(s.unicodeScalars.count) scalars")
    case let date as Date:
        require(date.timeIntervalSince1970.isFinite, "\(path) is not a finite date")
    default:
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .collection || mirror.displayStyle == .set || mirror.displayStyle == .dictionary {
            require(mirror.children.count <= maxItems, "\(path) has \(mirror.children.count) items")
        }
        for (i, child) in mirror.children.enumerated() {
            requireBounded(child.value, maxScalars: maxScalars, maxItems: maxItems, path: path + "." + (child.label ?? String(i)))
        }
    }
}
