import Foundation
import NimbusDomain

/// The device's location from, in order: `--location`, `NIMBUS_LOCATION`, then the system time zone
/// (`TZ`, else the `/etc/localtime` link, else `/etc/timezone`).
public struct SystemLocationProvider: DeviceLocationProviding {
    private let argument: GeoPoint?
    private let environment: [String: String]
    private let localtimeLink: @Sendable () -> String?
    private let timezoneFile: @Sendable () -> String?

    /// `localtimeLink` and `timezoneFile` read the system's files; tests pass their own.
    /// The home setting's position: after `NIMBUS_LOCATION`, before the time zone.
    private let home: GeoPoint?

    public init(argument: GeoPoint?, environment: [String: String], home: GeoPoint? = nil,
                localtimeLink: @escaping @Sendable () -> String? = {
                    try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime")
                },
                timezoneFile: @escaping @Sendable () -> String? = {
                    try? String(contentsOfFile: "/etc/timezone", encoding: .utf8)
                }) {
        self.argument = argument
        self.environment = environment
        self.home = home
        self.localtimeLink = localtimeLink
        self.timezoneFile = timezoneFile
    }

    public func currentLocation() -> (location: DeviceLocation, ignored: [IgnoredLocationSetting]) {
        var ignored: [IgnoredLocationSetting] = []
        if let argument { return (.argument(argument), ignored) }
        if let value = environment["NIMBUS_LOCATION"], !value.trimmingCharacters(in: .whitespaces).isEmpty {
            do {
                return (.environment(try GeoPoint.parse(value)), ignored)
            } catch {
                ignored.append(IgnoredLocationSetting(name: "NIMBUS_LOCATION", value: value, error: error))
            }
        }
        if let home { return (.home(home), ignored) }
        if let zone = systemTimeZone() { return (.timeZone(zone), ignored) }
        return (.unknown, ignored)
    }

    /// The IANA name of the system time zone, or nil when none is set or it names no place (UTC).
    func systemTimeZone() -> String? {
        let candidates = [environment["TZ"].map(Self.zone(fromTZ:)),
                          localtimeLink().map(Self.zone(fromPath:)),
                          timezoneFile().map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }]
        for case let zone? in candidates where !zone.isEmpty {
            return Self.isPlace(zone) ? zone : nil
        }
        return nil
    }

    /// `TZ` may be `Asia/Seoul`, `:Asia/Seoul` or a path into the zoneinfo database.
    static func zone(fromTZ value: String) -> String {
        let v = value.hasPrefix(":") ? String(value.dropFirst()) : value
        return v.hasPrefix("/") ? zone(fromPath: v) : v
    }

    /// `/usr/share/zoneinfo/Asia/Seoul` (or `../usr/share/zoneinfo/posix/Asia/Seoul`) → `Asia/Seoul`.
    static func zone(fromPath path: String) -> String {
        guard let r = path.range(of: "zoneinfo/") else { return "" }
        var zone = String(path[r.upperBound...])
        for prefix in ["posix/", "right/"] where zone.hasPrefix(prefix) { zone.removeFirst(prefix.count) }
        return zone
    }

    /// Zones like `UTC`, `Etc/GMT+3` or POSIX rules (`EST5EDT`) name no city.
    static func isPlace(_ zone: String) -> Bool {
        zone.contains("/") && !zone.hasPrefix("Etc/") && !zone.hasPrefix("SystemV/")
    }
}
