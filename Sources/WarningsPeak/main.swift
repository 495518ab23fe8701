import Foundation
import LoopbackServer
import NimbusData
import NimbusDomain
import OpenCombineShim

// warnings-peak SOURCE FOLDER: one city's warnings asked of the live repository, over the live HTTP
// client, from a loopback server that answers each path with the file of that name in FOLDER
// (`/` made `_`: `_alerts_active`, `_bosai_common_const_relm.json`); then the process's peak resident
// memory (VmHWM), before and after. SOURCE is nws (Seattle), meteoalarm (Berlin) or jma (Tokyo).
// The tests run it in a process of its own, so the peak is the answer's alone
// (WarningsPeakMemoryTests), and the note on each warnings source's size cap quotes it.

nonisolated func vmHWM() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: warnings-peak nws|meteoalarm|jma FOLDER\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[2])
let city: City
switch arguments[1] {
case "nws":
    city = City(id: 5809844, name: "Seattle", countryCode: "US", latitude: 47.60621, longitude: -122.33207,
                population: 737_015, timeZone: "America/Los_Angeles", alternateNames: [])
case "meteoalarm":
    city = City(id: 2950159, name: "Berlin", countryCode: "DE", latitude: 52.52437, longitude: 13.41053,
                population: 3_426_354, timeZone: "Europe/Berlin", alternateNames: [])
case "jma":
    city = City(id: 1850147, name: "Tokyo", countryCode: "JP", latitude: 35.6895, longitude: 139.69171,
                population: 8_336_599, timeZone: "Asia/Tokyo", alternateNames: [])
default:
    FileHandle.standardError.write(Data("warnings-peak: unknown source \(arguments[1])\n".utf8))
    exit(2)
}

/// Serves FOLDER, asks for `city`'s warnings, prints the outcome and the peak; off the main actor,
/// where the answers come (top-level code is the main actor's).
nonisolated func measure(_ city: City, folder: URL) throws {
    let server = try FixtureServer()
    let requests = LockedCounter()
    server.fallback { @Sendable request in
        requests.add()
        let file = folder.appendingPathComponent(request.path.replacingOccurrences(of: "/", with: "_"))
        guard FileManager.default.fileExists(atPath: file.path) else { return .init(status: 404, json: "{}") }
        // Streamed from the disk: the server's copy of a 48 MB body is not the client's to pay for.
        return .init(headers: ["Content-Type": "application/octet-stream"], behaviour: .file(file.path))
    }
    let base = server.baseURL.absoluteString
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent("warnings-peak-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: cache) }
    let repository = LiveWarningsRepository(
        client: URLSessionHTTPClient(connectTimeout: 5),
        environment: ["NIMBUS_NWS_URL": base, "NIMBUS_METEOALARM_URL": base, "NIMBUS_JMA_URL": base],
        cacheDirectory: cache, version: "0", regions: MeteoAlarmRegions(text: "C\tDE\tgermany\tgeocode\n2950159\tDE202\n"),
        timeout: 60, now: { Date(timeIntervalSince1970: 1_768_500_000) })
    let before = vmHWM()
    let done = DispatchSemaphore(value: 0)
    let outcome = LockedText("no answer")
    let subscription = repository.warnings(for: city).sink(
        receiveCompletion: { @Sendable completion in
            if case .failure(let error) = completion { outcome.set("error \(error)") }
            done.signal()
        },
        receiveValue: { @Sendable report in outcome.set("\(report.warnings.count) warnings") })
    _ = done.wait(timeout: .now() + 120)
    subscription.cancel()
    print("result: \(outcome.value)")
    print("requests: \(requests.value)")
    print("VmHWM before: \(before) kB")
    print("VmHWM: \(vmHWM()) kB")
}

try measure(city, folder: folder)

final class LockedText: @unchecked Sendable { // unchecked: `lock` guards `text`
    private let lock = NSLock()
    private var text: String
    init(_ text: String) { self.text = text }
    func set(_ value: String) { lock.lock(); text = value; lock.unlock() }
    var value: String { lock.lock(); defer { lock.unlock() }; return text }
}

final class LockedCounter: @unchecked Sendable { // unchecked: `lock` guards `count`
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
