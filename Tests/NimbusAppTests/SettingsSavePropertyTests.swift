import Foundation
import Testing
import PropertyBased
import NimbusData
import NimbusDomain
import TestSupport
@testable import NimbusApp

/// Random settings changes on the settings screen while the file goes bad and is mended again (an
/// editor half-way through a save): once a change is saved, the file holds every setting the screen
/// shows, those whose own save failed included.
@Suite(.serialized)
@MainActor
struct SettingsSavePropertyTests {
    @Test func onceSavedTheFileHoldsEverySettingTheScreenShows() async throws {
        await propertyCheck(count: PropertyCount.scaled(default: 15), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var random = SeededRandom(seed: UInt64(seed))
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-settings-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: home) }
            let environment = ["NIMBUS_LANG": "en", "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                               "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                               "XDG_CACHE_HOME": home.appendingPathComponent("cache").path]
            let file = ConfigFile(environment: environment)
            let broken = "broken =\n"
            func contents() -> String { (try? String(contentsOf: file.url, encoding: .utf8)) ?? "" }
            func write(_ text: String) { _ = SafeFile.write(Data(text.utf8), to: file.url) }
            write("# mine\n")
            let app: AppDIContainer
            do {
                app = try AppDIContainer(configuration: .init(environment: environment,
                                                              scheduler: DispatchQueue.test.eraseToAnyScheduler()))
            } catch {
                Issue.record("the app could not be started: \(error)")
                return
            }
            var steps: [String] = []
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                switch Int.random(in: 0..<10, using: &random) {
                case 0 where !contents().hasSuffix(broken):
                    write(contents() + broken)
                    steps.append("break the file")
                case 1 where contents().hasSuffix(broken):
                    write(String(contents().dropLast(broken.count)))
                    steps.append("mend it")
                default:
                    let change = Self.change(&random)
                    app.changeSettings(change.apply)
                    steps.append(change.name)
                }
            }
            if contents().hasSuffix(broken) { write(String(contents().dropLast(broken.count))) }
            let mouse = !(app.savedSettings.mouse ?? true)
            #expect(app.changeSettings { $0.mouse = mouse }, "seed \(seed): \(steps)")
            #expect(file.load().settings == app.savedSettings, "seed \(seed): \(steps)\n\(contents())")
            #expect(contents().hasPrefix("# mine\n"))
        }
    }

    /// A change the settings screen can make: one key to one of its values, or unset.
    private static func change(_ random: inout SeededRandom) -> (name: String, apply: (inout UserSettings) -> Void) {
        func pick<T>(_ values: [T]) -> T? {
            let i = Int.random(in: 0...values.count, using: &random)
            return i < values.count ? values[i] : nil
        }
        switch Int.random(in: 0..<9, using: &random) {
        case 0: let v = pick(UserSettings.Units.allCases); return ("units \(v as Any)", { $0.units = v })
        case 1: let v = pick(UserSettings.Temperature.allCases); return ("temperature \(v as Any)", { $0.temperatureUnit = v })
        case 2: let v = pick(UserSettings.Wind.allCases); return ("wind \(v as Any)", { $0.windUnit = v })
        case 3: let v = pick(UserSettings.Clock.allCases); return ("clock \(v as Any)", { $0.clock = v })
        case 4: let v = pick(UserSettings.Theme.allCases); return ("theme \(v as Any)", { $0.theme = v })
        case 5: let v = pick(UserSettings.MapStyle.allCases); return ("map style \(v as Any)", { $0.mapStyle = v })
        case 6: let v = pick([true, false]); return ("mouse \(v as Any)", { $0.mouse = v })
        case 7: let v = pick(Array(UserSettings.tabs)); return ("tab \(v as Any)", { $0.defaultTab = v })
        default: let v = pick([UserSettings.Home.city(1835848), .point(GeoPoint(latitude: 37.5, longitude: 127)!)])
            return ("home \(v as Any)", { $0.home = v })
        }
    }
}

/// SplitMix64, seeded.
private struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
